"""Render scenes with Manim in their own processes, silent, then mux the planned narration.

Why silent + mux: the plan knows every cue's frame before rendering, so one
pre-mixed narration track per scene is muxed afterwards with the video stream
copied. Manim's ``add_sound`` is skipped during cached or skipped animations;
this way sound can never go missing, and sync depends only on the scene writing
exactly its planned frames, which is checked here with ffprobe.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from coursekit.atomic import write_text
from coursekit.config import QUALITIES, Config
from coursekit.errors import UserError
from coursekit.locks import waiting_lock
from coursekit.media_tools import extract_frame, mux, video_frames
from coursekit.paths import PROJECT_ROOT, SCENES_DIR
from coursekit.plan import LessonPlan, ScenePlan, scene_plan_to_json

_OUT_OF_MEMORY = re.compile(r"MemoryError|std::bad_alloc|[Mm]emory allocation|Cannot allocate memory|out of memory")
# what PyAV says when x264 fails (AVERROR_EXTERNAL); under the worker's memory limit that is a failed malloc
_ENCODER_FAILED = re.compile(r"Generic error in an external library")
MANIM_QUALITY_FLAG = {"low": "l", "medium": "m", "high": "h", "4k": "k"}
# Pinned for every render (local or Dask worker), so the same inputs give the same frames on any machine
# whatever its core count: x264 cuts each frame into one slice per thread (by default one per core), and
# OpenBLAS can sum in an order that depends on its thread count (Dask workers set it to 1 anyway).
# 2 is what x264 chose by itself on the 2-core reference machine. Note: x264 with 2 threads is not
# byte-deterministic (an IDR packet can come out a byte apart between runs); decoded frames are equal.
ENCODER_THREADS = 2
RENDER_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
# Removed for every render. A Dask nanny sets them in its workers, and in the process that hosts it (a
# LocalCluster's client, the tests), and they change how Manim runs: MALLOC_TRIM_THRESHOLD_=65536 triples
# Manim's time in the kernel (+21 % on the whole course at 480p15), PYTHONHASHSEED=6640 fixes the
# string-hash seed that a render otherwise leaves random. So no shell or cluster setting of them reaches
# a render, local or on a worker.
RENDER_ENV_UNSET = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_",
                    "PYTHONHASHSEED")


def find_scene_module(cls: str) -> Path | None:
    """The scenes/*.py file that defines ``class <cls>(`` (found without importing Manim)."""
    pat = re.compile(rf"^class {re.escape(cls)}\(", re.M)
    for path in sorted(SCENES_DIR.glob("*.py")):
        if pat.search(path.read_text(encoding="utf-8")):
            return path
    return None


def _write_scene_plan(cfg: Config, scene: ScenePlan) -> Path:
    path = cfg.output_dir / "plan" / f"{scene.fps}fps" / "scenes" / f"{scene.id}.json"
    text = scene_plan_to_json(scene)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        write_text(path, text)
    return path


def run_limited(args: list[str], env: dict, data_limit: int,
                die_with_parent: bool = False) -> tuple[int, str, int, float]:
    """Run ``args`` with its data memory limited to ``data_limit`` bytes (RLIMIT_DATA, via util-linux
    prlimit, so nothing runs between fork and exec in this threaded process). Returns the exit status,
    stderr+stdout, the child's peak resident memory in bytes and its CPU seconds (user + system), both
    from wait4's rusage. Linux keeps the peak across exec, so it is at least the starting process's
    own peak at the time of the fork: an upper bound of the child's.

    ``die_with_parent``: the child is killed if the thread that started it dies (util-linux setpriv
    --pdeathsig), so a Dask worker killed mid-job leaves no orphaned Manim behind."""
    import tempfile

    prlimit = shutil.which("prlimit")
    setpriv = shutil.which("setpriv") if die_with_parent else None
    full = (([setpriv, "--pdeathsig", "KILL", "--"] if setpriv else [])
            + ([prlimit, f"--data={data_limit}:{data_limit}", "--"] if prlimit else []) + args)
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(full, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=PROJECT_ROOT)
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return proc.returncode, text, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime


def manim_env(plan_file: Path, unset: Iterable[str] = ()) -> dict[str, str]:
    """The environment Manim runs in, whoever starts it: this process's without RENDER_ENV_UNSET (and
    ``unset``), with RENDER_ENV pinned, the scene's plan file and this project on PYTHONPATH."""
    drop = {*RENDER_ENV_UNSET, *unset}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(RENDER_ENV, COURSEKIT_SCENE_PLAN=str(plan_file), PYTHONPATH=str(PROJECT_ROOT))
    return env


def run_manim(scene: ScenePlan, module: Path, plan_file: Path, quality: str, media_dir: Path, memory_gb: float,
              use_cache: bool = True, stats: dict | None = None, die_with_parent: bool = False,
              unset_env: Iterable[str] = ()) -> Path:
    """Run Manim for one scene in a subprocess (data memory limited to ``memory_gb``), reading its plan
    from ``plan_file``; return the silent MP4 in ``media_dir``, checked to hold exactly scene.frames
    frames. ``stats`` (if given) gets ``peak_rss_mb``, ``manim_s`` (wall) and ``manim_cpu_s``. Used by
    the local path and by scene jobs on Dask workers (coursekit.scene_job), so both run the very same
    command in the same environment (``manim_env``: ENCODER_THREADS and RENDER_ENV pinned,
    RENDER_ENV_UNSET and ``unset_env`` removed)."""
    env = manim_env(plan_file, unset_env)
    args = [sys.executable, "-m", "manim", "render", f"-q{MANIM_QUALITY_FLAG[quality]}",
            "--fps", str(scene.fps), "--media_dir", str(media_dir), "-o", scene.id,
            "--format", "mp4", "--progress_bar", "none", "-v", "ERROR",
            "--encoder-option", f"threads={ENCODER_THREADS}"]
    if not use_cache:
        args.append("--disable_caching")
    args += [str(module), scene.cls]
    limit = int(memory_gb * 2**30)
    t0 = time.perf_counter()
    code, output, peak, cpu = run_limited(args, env, limit, die_with_parent=die_with_parent)
    if stats is not None:
        stats.update(peak_rss_mb=peak / 2**20, manim_s=round(time.perf_counter() - t0, 3), manim_cpu_s=round(cpu, 3))
    if code != 0:
        lines = [l for l in output.splitlines() if l.strip()]
        if _OUT_OF_MEMORY.search(output) or peak > 0.9 * limit:
            raise UserError(f"scene '{scene.id}' ran out of its {memory_gb:g} GB of worker memory "
                            f"(peak {peak / 2**30:.2f} GB); raise render.worker_memory_gb in config.yaml")
        if encoder := _ENCODER_FAILED.search(output):
            raise UserError(f"scene '{scene.id}' failed inside the video encoder, most likely because it ran out of "
                            f"its {memory_gb:g} GB of worker memory (x264 reports a failed allocation only as "
                            f"'{encoder.group(0)}'); raise render.worker_memory_gb in config.yaml")
        raise UserError(f"scene '{scene.id}' ({module.name}:{scene.cls}) failed to render: "
                        f"{lines[-1] if lines else 'no output'}")
    _, h, _ = QUALITIES[quality]
    video = media_dir / "videos" / module.stem / f"{h}p{scene.fps}" / f"{scene.id}.mp4"
    if not video.exists():
        raise RuntimeError(f"Manim wrote no video for {scene.id} at {video}")
    got = video_frames(video)
    if got != scene.frames:
        raise RuntimeError(f"scene '{scene.id}' wrote {got} frames, the plan has {scene.frames}")
    return video


def render_silent(cfg: Config, scene: ScenePlan, quality: str, use_cache: bool = True,
                  media_dir: Path | None = None, stats: dict | None = None) -> Path:
    """Run Manim for one scene in a subprocess; return the silent MP4 (exactly scene.frames frames).

    Each scene keeps its own Manim media folder, so Manim's per-animation cache
    survives between runs. Manim writes every partial movie straight to its final
    cache path and reuses any file found there, so a render killed mid-write could
    leave a truncated segment that the next run would reuse. Guard: a marker file
    exists while Manim runs; if a run finds it (the last one died), that scene's
    cached segments are discarded first. A lock keeps two renders of the same scene
    from writing at once; the second says that it waits.
    """
    module = find_scene_module(scene.cls)
    if module is None:
        raise UserError(f"scene '{scene.id}': no class {scene.cls} in scenes/; write it or fix 'class' in the narration")
    media_dir = media_dir or cfg.output_dir / "manim" / scene.id
    media_dir.mkdir(parents=True, exist_ok=True)
    with waiting_lock(str(media_dir) + ".lock", f"another render of {scene.id}"):
        # the plan file is written under the lock: two renders of one scene from different plans
        # (another voice, another narration) must not read each other's
        plan_file = _write_scene_plan(cfg, scene)
        marker = media_dir / ".render-in-progress"
        if marker.exists():
            shutil.rmtree(media_dir / "videos", ignore_errors=True)
        marker.touch()
        video = run_manim(scene, module, plan_file, quality, media_dir, cfg.render.worker_memory_gb,
                          use_cache=use_cache, stats=stats)
        marker.unlink()
        return video


def _scene_subtitles(scene: ScenePlan, out: Path) -> Path:
    from coursekit.subtitles import write_vtt

    events = [e for c in scene.cues for e in c.subtitles]
    write_vtt(events, out)
    return out


_KEY_LOCK = threading.Lock()


def scene_cache_key(scene: ScenePlan, quality: str, subtitles: bool = False) -> tuple[Path | None, str]:
    """The scene's module and its scene-cache key (see coursekit.scene_cache); (None, "") without a module.
    Every executor uses this key, so a scene rendered by one is reused by the others.

    One key at a time: the key parses sources with ``ast.parse``, and CPython 3.11 can fail two parses
    running in threads at once ("SystemError: AST constructor recursion depth mismatch")."""
    from coursekit.scene_cache import scene_key

    module = find_scene_module(scene.cls)
    if module is None:
        return None, ""
    with _KEY_LOCK:
        return module, scene_key(scene, module, quality, extra=f"subtitles={subtitles}")


def render_while_mixing(scene: ScenePlan, narration_out: Path, render: Callable[[], Path]) -> tuple[Path, Path]:
    """``render()`` (which waits for a Manim process) while the scene's narration track is mixed into
    ``narration_out`` in a thread; returns (silent video, narration). Used locally and by scene jobs."""
    from concurrent.futures import ThreadPoolExecutor

    from coursekit.tracks import write_scene_narration

    with ThreadPoolExecutor(max_workers=1) as side:
        mixing = side.submit(write_scene_narration, scene, narration_out)
        video = render()
        return video, mixing.result()


def deliver_scene(cfg: Config, scene: ScenePlan, quality: str, out: Path, subtitles: bool = False,
                  stats: dict | None = None) -> Path:
    """Render silent, mux narration (and soft subtitles), write ``out`` atomically.

    An unchanged scene (same scene-cache key, see coursekit.scene_cache) is not rendered again;
    ``stats`` (if given) gets ``reused`` and, after a render, ``peak_rss_mb``.
    """
    from coursekit.scene_cache import is_fresh, remember

    module, key = scene_cache_key(scene, quality, subtitles)
    if stats is not None:
        stats["reused"] = bool(module and is_fresh(out, key))
        if stats["reused"]:
            return out
    elif module and is_fresh(out, key):
        return out
    work = cfg.output_dir / "work" / f"{scene.fps}fps"
    video, audio = render_while_mixing(scene, work / f"{scene.id}.m4a",
                                       lambda: render_silent(cfg, scene, quality, stats=stats))
    vtt = _scene_subtitles(scene, work / f"{scene.id}.vtt") if subtitles else None
    mux(video, audio, out, subtitles=vtt)
    remember(out, key)
    return out


def preview_scene(cfg: Config, plan: LessonPlan, scene_id: str) -> tuple[Path, Path]:
    scene = plan.scene(scene_id)
    out = cfg.output_dir / "preview" / f"{scene_id}.mp4"
    deliver_scene(cfg, scene, "low", out, subtitles=True)
    png = extract_frame(out, scene.frames - 1, out.with_suffix(".png"))
    return out, png


def worker_count(cfg: Config, requested: int | None = None) -> tuple[int, str]:
    """How many scene renders run at once: ``requested`` (else render.jobs, else the core count),
    lowered so that jobs × render.worker_memory_gb fits in the memory available now.
    Returns the count and, when it was lowered, why."""
    import psutil

    want = requested or cfg.render.jobs or os.cpu_count() or 1
    fits = max(1, int(psutil.virtual_memory().available / (cfg.render.worker_memory_gb * 2**30)))
    if fits < want:
        return fits, (f"{fits} parallel renders instead of {want}: {psutil.virtual_memory().available / 2**30:.1f} GB "
                      f"free holds {fits} × render.worker_memory_gb ({cfg.render.worker_memory_gb:g} GB)")
    return want, ""


def _log_render(cfg: Config, quality: str, row: dict) -> None:
    """Append one JSON line per scene to media/logs/render-<quality>.jsonl (what bench/run.py reads)."""
    import json

    path = cfg.output_dir / "logs" / f"render-{quality}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(row, sort_keys=True) + "\n")


def _deliver_timed(cfg: Config, s: ScenePlan, quality: str, out: Path) -> tuple[Path, dict]:
    import time

    stats: dict = {}
    t0 = time.perf_counter()
    path = deliver_scene(cfg, s, quality, out, stats=stats)
    stats.update(scene=s.id, quality=quality, fps=s.fps, video_s=round(s.duration, 3),
                 wall_s=round(time.perf_counter() - t0, 3), time=round(time.time(), 3))
    return path, stats


def render_scenes(cfg: Config, plans: list[LessonPlan], scene_ids: list[str] | None, jobs: int | None = None,
                  only_existing: bool = False, executor=None) -> list[Path]:
    """Render scenes at the config's quality into media/scenes/<quality>/<scene>.mp4 with ``executor``
    (default: the one ``render.executor`` names, see coursekit.executors; local runs ``jobs`` at a time,
    default ``worker_count``). Each finished scene is logged to media/logs/render-<quality>.jsonl."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from coursekit.executors import open_executor

    quality = cfg.video.quality
    todo: list[ScenePlan] = []
    skipped: list[str] = []
    for plan in plans:
        for s in plan.scenes:
            if scene_ids and s.id not in scene_ids:
                continue
            if only_existing and find_scene_module(s.cls) is None:
                skipped.append(s.id)
                continue
            todo.append(s)
    if skipped:
        print(f"not yet drawn (no scene class), skipped: {', '.join(skipped)}")
    own = executor is None
    ex = open_executor(cfg, jobs) if own else executor
    try:
        workers, why = ex.slots(len(todo))
        if why:
            print(why)
        outdir = cfg.output_dir / "scenes" / quality
        done: list[Path] = []
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                      TimeElapsedColumn()) as progress:
            where = "" if ex.name == "local" else f" on the {ex.name} cluster"
            task = progress.add_task(f"rendering {len(todo)} scenes at {quality}, {workers} at a time{where}",
                                     total=len(todo))
            for s, path, stats in ex.deliver(todo, quality, outdir, workers):
                done.append(path)
                row = {k: v for k, v in stats.items() if not k.startswith("_")}
                _log_render(cfg, quality, {**row, "jobs": workers, "executor": ex.name})
                on = f" on {stats['_worker']}" if stats.get("_worker") else ""
                if stats.get("reused"):
                    progress.console.print(f"  {s.id}: unchanged, reused")
                else:
                    progress.console.print(f"  {s.id}: {s.duration:.1f} s of video in {stats['wall_s']:.1f} s{on} "
                                           f"(wall/video {stats['wall_s'] / s.duration:.2f}, "
                                           f"peak memory {stats.get('peak_rss_mb', 0):.0f} MB)")
                progress.advance(task)
    finally:
        if own:
            ex.close()
    return sorted(done)
