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
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from coursekit.config import QUALITIES, Config
from coursekit.errors import UserError
from coursekit.media_tools import extract_frame, mux, video_frames
from coursekit.paths import PROJECT_ROOT, SCENES_DIR
from coursekit.plan import LessonPlan, ScenePlan, scene_plan_to_json

MANIM_QUALITY_FLAG = {"low": "l", "medium": "m", "high": "h", "4k": "k"}


def find_scene_module(cls: str) -> Path | None:
    """The scenes/*.py file that defines ``class <cls>(`` (found without importing Manim)."""
    pat = re.compile(rf"^class {re.escape(cls)}\(", re.M)
    for path in sorted(SCENES_DIR.glob("*.py")):
        if pat.search(path.read_text(encoding="utf-8")):
            return path
    return None


def _write_scene_plan(cfg: Config, scene: ScenePlan) -> Path:
    from coursekit.timeline import write_atomic

    path = cfg.output_dir / "plan" / f"{scene.fps}fps" / "scenes" / f"{scene.id}.json"
    text = scene_plan_to_json(scene)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        write_atomic(path, text)
    return path


def render_silent(cfg: Config, scene: ScenePlan, quality: str, use_cache: bool = True,
                  media_dir: Path | None = None) -> Path:
    """Run Manim for one scene in a subprocess; return the silent MP4 (exactly scene.frames frames).

    Each scene keeps its own Manim media folder, so Manim's per-animation cache
    survives between runs. Manim writes every partial movie straight to its final
    cache path and reuses any file found there, so a render killed mid-write could
    leave a truncated segment that the next run would reuse. Guard: a marker file
    exists while Manim runs; if a run finds it (the last one died), that scene's
    cached segments are discarded first. A lock keeps two renders of the same scene
    from writing at once; the second says that it waits.
    """
    from filelock import FileLock, Timeout

    module = find_scene_module(scene.cls)
    if module is None:
        raise UserError(f"scene '{scene.id}': no class {scene.cls} in scenes/; write it or fix 'class' in the narration")
    plan_file = _write_scene_plan(cfg, scene)
    media_dir = media_dir or cfg.output_dir / "manim" / scene.id
    media_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(media_dir) + ".lock")
    try:
        lock.acquire(timeout=0)
    except Timeout:
        print(f"waiting for another render of {scene.id} to finish …", flush=True)
        lock.acquire()
    try:
        marker = media_dir / ".render-in-progress"
        if marker.exists():
            shutil.rmtree(media_dir / "videos", ignore_errors=True)
        marker.touch()
        env = {**os.environ, "COURSEKIT_SCENE_PLAN": str(plan_file), "PYTHONPATH": str(PROJECT_ROOT)}
        args = [sys.executable, "-m", "manim", "render", f"-q{MANIM_QUALITY_FLAG[quality]}",
                "--fps", str(scene.fps), "--media_dir", str(media_dir), "-o", scene.id,
                "--format", "mp4", "--progress_bar", "none", "-v", "ERROR"]
        if not use_cache:
            args.append("--disable_caching")
        args += [str(module), scene.cls]
        proc = subprocess.run(args, capture_output=True, text=True, env=env, cwd=PROJECT_ROOT)
        if proc.returncode != 0:
            lines = [l for l in (proc.stderr + proc.stdout).splitlines() if l.strip()]
            raise UserError(f"scene '{scene.id}' ({module.name}:{scene.cls}) failed to render: "
                            f"{lines[-1] if lines else 'no output'}")
        marker.unlink()
        _, h, _ = QUALITIES[quality]
        video = media_dir / "videos" / module.stem / f"{h}p{scene.fps}" / f"{scene.id}.mp4"
        if not video.exists():
            raise RuntimeError(f"Manim wrote no video for {scene.id} at {video}")
        got = video_frames(video)
        if got != scene.frames:
            raise RuntimeError(f"scene '{scene.id}' wrote {got} frames, the plan has {scene.frames}")
        return video
    finally:
        lock.release()


def _scene_subtitles(scene: ScenePlan, out: Path) -> Path:
    from coursekit.subtitles import write_vtt

    events = [e for c in scene.cues for e in c.subtitles]
    write_vtt(events, out)
    return out


def deliver_scene(cfg: Config, scene: ScenePlan, quality: str, out: Path, subtitles: bool = False) -> Path:
    """Render silent, mux narration (and soft subtitles), write ``out`` atomically.

    An unchanged scene (same scene-cache key, see coursekit.scene_cache) is not rendered again.
    """
    from coursekit.scene_cache import is_fresh, remember, scene_key
    from coursekit.tracks import write_scene_narration

    module = find_scene_module(scene.cls)
    key = scene_key(scene, module, quality, extra=f"subtitles={subtitles}") if module else ""
    if module and is_fresh(out, key):
        return out
    video = render_silent(cfg, scene, quality)
    work = cfg.output_dir / "work" / f"{scene.fps}fps"
    audio = write_scene_narration(scene, work / f"{scene.id}.m4a")
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


def _timed(fn, *args):
    import time

    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def render_scenes(cfg: Config, plans: list[LessonPlan], scene_ids: list[str] | None, jobs: int,
                  only_existing: bool = False) -> list[Path]:
    """Render scenes at the config's quality into media/scenes/<quality>/<scene>.mp4, ``jobs`` at a time."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

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
    outdir = cfg.output_dir / "scenes" / quality
    done: list[Path] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn()) as progress:
        task = progress.add_task(f"rendering {len(todo)} scenes at {quality}", total=len(todo))
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futs = {pool.submit(_timed, deliver_scene, cfg, s, quality, outdir / f"{s.id}.mp4"): s for s in todo}
            for fut in as_completed(futs):
                path, wall = fut.result()
                s = futs[fut]
                done.append(path)
                progress.console.print(f"  {s.id}: {s.duration:.1f} s of video in {wall:.1f} s "
                                       f"(wall/video {wall / s.duration:.2f})")
                progress.advance(task)
    return sorted(done)
