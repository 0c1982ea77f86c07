"""One Manim process: the command, its environment and its memory limit, the same for every executor.

Why silent + mux: the plan knows every cue's frame before rendering, so one
pre-mixed narration track per scene is muxed afterwards with the video stream
copied. Manim's ``add_sound`` is skipped during cached or skipped animations;
this way sound can never go missing, and sync depends only on the scene writing
exactly its planned frames, which ``run_manim`` checks with ffprobe.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from coursekit.core import stopping
from coursekit.core.config import QUALITIES
from coursekit.core.errors import UserError
from coursekit.core.media_tools import video_frames
from coursekit.core.paths import ENGINE_ROOT, course_root
from coursekit.plan.model import ScenePlan
from coursekit.render.warm_manim import STARTER, Warm

# "returned NULL without setting an exception": a C extension whose allocation failed without saying so
# (seen under a 0.25 GB limit in CI, from click's Command.__call__); "failed to map segment": the loader
# could not map a shared library under the data limit
_OUT_OF_MEMORY = re.compile(
    r"MemoryError|std::bad_alloc|[Mm]emory allocation|Cannot allocate memory|out of memory"
    r"|returned NULL without setting an exception|failed to map segment from shared object"
)
# what PyAV says when x264 fails (AVERROR_EXTERNAL); under the worker's memory limit that is a failed malloc
_ENCODER_FAILED = re.compile(r"Generic error in an external library")
MANIM_QUALITY_FLAG = {"low": "l", "medium": "m", "high": "h", "4k": "k"}
# Pinned for every render (local or Dask worker), so the same inputs give the same frames on any machine
# whatever its core count: x264 cuts each frame into one slice per thread (by default one per core), and
# OpenBLAS can sum in an order that depends on its thread count (Dask workers set it to 1 anyway).
# 2 is what x264 chose by itself on the 2-core reference machine. Note: x264 with 2 threads is not
# byte-deterministic (an IDR packet can come out a byte apart between runs); decoded frames are equal.
ENCODER_THREADS = 2
# The x264 preset per quality, over whatever the course's manim.cfg names (Manim's own default is "medium").
# 480p15 is the authoring preview: "superfast" rendered the longest scene in 21.7 s of Manim instead of
# 28.3 s with "veryfast", for a file 40 % larger, and its frames look the same. The delivered qualities keep
# the course's choice.
ENCODER_PRESET = {"low": "superfast"}


def course_encoder_options(root: Path | None = None) -> dict[str, str]:
    """The x264 options the course's ``manim.cfg`` names (``[video_encoder.options]``), read as Manim reads
    them. Manim replaces that whole section with the ``--encoder-option`` pairs of its command line, so a
    render that passes any must pass these too."""
    cfg = (root or course_root()) / "manim.cfg"
    if not cfg.exists():
        return {}
    parser = configparser.ConfigParser()
    try:
        parser.read(cfg, encoding="utf-8")
    except configparser.Error as e:
        first = str(e).splitlines()[0]
        raise UserError(f"{cfg}: {first}; fix the file (Manim's config format: [section] then key = value)") from None
    if not parser.has_section("video_encoder.options"):
        return {}
    return dict(parser.items("video_encoder.options", raw=True))


def encoder_options(quality: str, root: Path | None = None) -> dict[str, str]:
    """What every render of ``quality`` tells x264 (local or on a Dask worker); part of the scene-cache key:
    the threads pinned (unless the course's manim.cfg names them), the course's own options, and the preview
    preset over them."""
    return {
        "threads": str(ENCODER_THREADS),
        **course_encoder_options(root),
        **({"preset": ENCODER_PRESET[quality]} if quality in ENCODER_PRESET else {}),
    }


RENDER_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
# Removed for every render. A Dask nanny sets them in its workers, and in the process that hosts it (a
# LocalCluster's client, the tests), and they change how Manim runs: MALLOC_TRIM_THRESHOLD_=65536 triples
# Manim's time in the kernel (+21 % on the whole course at 480p15), PYTHONHASHSEED=6640 fixes the
# string-hash seed that a render otherwise leaves random. So no shell or cluster setting of them reaches
# a render, local or on a worker.
RENDER_ENV_UNSET = (
    "MALLOC_TRIM_THRESHOLD_",
    "MALLOC_ARENA_MAX",
    "MALLOC_MMAP_THRESHOLD_",
    "MALLOC_TOP_PAD_",
    "PYTHONHASHSEED",
)


def run_limited(
    args: list[str], env: dict, data_limit: int, die_with_parent: bool = False, warm: bool = False
) -> tuple[int, str, int, float]:
    """Run ``args`` with its data memory limited to ``data_limit`` bytes (RLIMIT_DATA, via util-linux
    prlimit, so nothing runs between fork and exec in this threaded process). Returns the exit status,
    stderr+stdout, the child's peak resident memory in bytes and its CPU seconds (user + system), both
    from wait4's rusage. Linux keeps the peak across exec, so it is at least the starting process's
    own peak at the time of the fork: an upper bound of the child's.

    ``die_with_parent``: the child is killed if the thread that started it dies (util-linux setpriv
    --pdeathsig), so a command or a Dask worker killed mid-job (even with SIGKILL) leaves no orphaned
    Manim behind. Nothing is started once the command is stopping (``coursekit.core.stopping``).

    ``warm`` (a ``python -m manim`` command): run it in a process started earlier, past its imports
    (``coursekit.render.warm_manim``), when one is ready; another is started for the next call."""
    full = _limited(args, data_limit, die_with_parent)
    stopping.check()  # a command that is stopping starts no new render
    if warm and (ready := start_warm(args, env, data_limit, die_with_parent)) is not None:
        return wait_for(ready.proc, ready.out)
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(full, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=course_root())
        return wait_for(proc, out)


def _limited(args: list[str], data_limit: int, die_with_parent: bool) -> list[str]:
    prlimit = shutil.which("prlimit")
    setpriv = shutil.which("setpriv") if die_with_parent else None
    return (
        ([setpriv, "--pdeathsig", "KILL", "--"] if setpriv else [])
        + ([prlimit, f"--data={data_limit}:{data_limit}", "--"] if prlimit else [])
        + args
    )


def start_warm(
    args: list[str], env: dict, data_limit: int, die_with_parent: bool = True, fill: bool = False
) -> Warm | None:
    """``args`` (a ``python -m manim`` command) handed to a warm process (``coursekit.render.warm_manim``),
    limited and dying with this process as ``run_limited``'s; None when none is ready (``fill``: start one
    and wait for it instead)."""
    if args[1:3] != ["-m", "manim"]:
        return None
    full = _limited(args, data_limit, die_with_parent)
    prefix, cwd = tuple(full[: len(full) - len(args) + 1]), str(course_root())
    ready = STARTER.take(prefix, env, cwd)
    if ready is None and fill:
        STARTER.prepare(prefix, env, cwd, count=1)
        ready = STARTER.take(prefix, env, cwd)
    if ready is not None:
        ready.give(args[3:], env)
    return ready


def wait_for(proc: subprocess.Popen, out) -> tuple[int, str, int, float]:
    """Wait for ``proc``, whose output goes to the file ``out``: (status, output, peak RSS, CPU seconds)."""
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    proc.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    text = out.read().decode("utf-8", "replace")
    out.close()
    return proc.returncode, text, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime


#: what NarratedScene reads: render one piece of the scene (``START:END``), and where to write its report
#: (written here, not imported: NarratedScene imports this module)
PIECE_ENV = "COURSEKIT_PIECE"
PIECE_REPORT_ENV = "COURSEKIT_PIECE_REPORT"
#: a parked piece (``coursekit.render.parked``): the FIFO its scene waits on at the piece's start; the line
#: such a scene prints on stderr when it cannot wait there
PARK_ENV = "COURSEKIT_PARK"
#: what a warm Manim process lowers its priority by (``warm_manim``)
NICE_ENV = "COURSEKIT_NICE"
PARK_REFUSED = "coursekit-park-refused: "
#: in the error of a piece that cannot be cut where it was asked to be: its scene is rendered whole instead
CANNOT_CUT = "cannot be cut"

#: the line NarratedScene.render prints on an error: the course's own file:line that raised
WHERE_MARK = "coursekit-where: "
# a frame of the traceback Manim prints: "/path/scenes/x.py:24 in construct" (rich) or 'File "...", line 24'
_FRAME = re.compile(r'(/[^\s:"]+\.py)(?::(\d+) in |", line (\d+))')


def _course_line(output: str, module: Path) -> str:
    """``file:line`` of the innermost frame of Manim's traceback in the course's own code (the scene
    module, its mobjects, its math), or "" if there is none."""
    marked = [l[len(WHERE_MARK) :].strip() for l in output.splitlines() if l.startswith(WHERE_MARK)]
    if marked:  # NarratedScene.render names it (the traceback box wraps long paths)
        return marked[-1]
    root = course_root()
    found = ""
    for m in _FRAME.finditer(output):
        path = Path(m.group(1))
        try:
            rel = path.resolve().relative_to(root)
        except ValueError:
            continue
        if rel.parts and rel.parts[0] not in ("coursekit", ".venv"):
            found = f"{path}:{m.group(2) or m.group(3)}"
    return found


def manim_env(plan_file: Path, unset: Iterable[str] = ()) -> dict[str, str]:
    """The environment Manim runs in, whoever starts it: this process's without RENDER_ENV_UNSET (and
    ``unset``), with RENDER_ENV pinned, the scene's plan file and this project on PYTHONPATH."""
    drop = {*RENDER_ENV_UNSET, *unset}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    # the course's packages (its scenes import them) and the engine's, the course first
    path = os.pathsep.join(dict.fromkeys([str(course_root()), str(ENGINE_ROOT)]))
    # COLUMNS: Manim's traceback is drawn by rich at the terminal's width; wide, it keeps whole file paths,
    # so a failed render can name the line of the course's code that raised (``_course_line``)
    env.update(RENDER_ENV, COURSEKIT_SCENE_PLAN=str(plan_file), PYTHONPATH=path, COLUMNS="400")
    return env


def manim_command(
    scene: ScenePlan,
    module: Path,
    plan_file: Path,
    quality: str,
    media_dir: Path,
    use_cache: bool = True,
    unset_env: Iterable[str] = (),
    piece: tuple[int, int] | None = None,
    nice: int = 0,
) -> tuple[list[str], dict[str, str]]:
    """The Manim command line and environment of ``run_manim`` (a parked piece runs the same); ``nice``: the
    priority a warm process lowers itself by (``coursekit.render.warm_manim``)."""
    env = manim_env(plan_file, unset_env)
    env.pop(NICE_ENV, None)
    if nice:
        env[NICE_ENV] = str(nice)
    # set or removed here, so that no piece setting of the caller's environment reaches a whole render
    env.pop(PIECE_ENV, None)
    env.pop(PIECE_REPORT_ENV, None)
    env.pop(PARK_ENV, None)
    if piece is not None:
        env[PIECE_ENV] = f"{piece[0]}:{piece[1]}"
        env[PIECE_REPORT_ENV] = str(media_dir / "piece.json")
        (media_dir / "piece.json").unlink(missing_ok=True)
    args = [
        sys.executable,
        "-m",
        "manim",
        "render",
        f"-q{MANIM_QUALITY_FLAG[quality]}",
        "--fps",
        str(scene.fps),
        "--media_dir",
        str(media_dir),
        "-o",
        scene.id,
        "--format",
        "mp4",
        "--progress_bar",
        "none",
        "-v",
        "ERROR",
        # not Manim's check of PyPI for a newer release after each render: a render reads nothing but the
        # course, and that request held up every piece (0.1-0.3 s here; up to 10 s where a network hangs)
        "--silent",
    ]
    for name, value in encoder_options(quality).items():
        args += ["--encoder-option", f"{name}={value}"]
    if not use_cache:
        args.append("--disable_caching")
    args += [str(module), scene.cls]
    return args, env


def run_manim(
    scene: ScenePlan,
    module: Path,
    plan_file: Path,
    quality: str,
    media_dir: Path,
    memory_gb: float,
    use_cache: bool = True,
    stats: dict | None = None,
    die_with_parent: bool = False,
    unset_env: Iterable[str] = (),
    piece: tuple[int, int] | None = None,
    warm: bool = False,
    nice: int = 0,
) -> Path:
    """Run Manim for one scene in a subprocess (data memory limited to ``memory_gb``), reading its plan
    from ``plan_file``; return the silent MP4 in ``media_dir``, checked to hold exactly scene.frames
    frames. ``stats`` (if given) gets ``peak_rss_mb``, ``manim_s`` (wall) and ``manim_cpu_s``. Used by
    the local path and by scene jobs on Dask workers (coursekit.render.scene_job), so both run the very same
    command in the same environment (``manim_env``: ENCODER_THREADS and RENDER_ENV pinned,
    RENDER_ENV_UNSET and ``unset_env`` removed).

    ``piece`` (start, end): render only those frames of the scene (``coursekit.render.pieces``); the video
    then holds ``end - start`` frames and the piece's report is written to ``media_dir/piece.json``.
    ``warm``: in a process started beforehand when one is ready (``run_limited``), at a priority lowered by
    ``nice``."""
    args, env = manim_command(scene, module, plan_file, quality, media_dir, use_cache, unset_env, piece, nice)
    t0 = time.perf_counter()
    result = run_limited(args, env, int(memory_gb * 2**30), die_with_parent=die_with_parent, warm=warm)
    return manim_result(scene, module, quality, media_dir, memory_gb, result, t0, stats, piece)


def manim_result(
    scene: ScenePlan,
    module: Path,
    quality: str,
    media_dir: Path,
    memory_gb: float,
    result: tuple[int, str, int, float],
    t0: float,
    stats: dict | None = None,
    piece: tuple[int, int] | None = None,
) -> Path:
    """The video a finished Manim process (``run_limited``'s result, started at ``t0``) wrote, checked to hold
    the frames asked for; its failure as one line (``run_manim``)."""
    code, output, peak, cpu = result
    limit = int(memory_gb * 2**30)
    if stats is not None:
        stats.update(peak_rss_mb=peak / 2**20, manim_s=round(time.perf_counter() - t0, 3), manim_cpu_s=round(cpu, 3))
    if code != 0:
        lines = [l for l in output.splitlines() if l.strip()]
        if _OUT_OF_MEMORY.search(output) or peak > 0.9 * limit:
            raise UserError(
                f"scene '{scene.id}' ran out of its {memory_gb:g} GB of worker memory "
                f"(peak {peak / 2**30:.2f} GB); raise render.worker_memory_gb in config.yaml"
            )
        if code < 0 and -code in (signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS):
            # a native library that did not check a failed allocation crashes instead of raising
            raise UserError(
                f"scene '{scene.id}' crashed ({signal.Signals(-code).name}), most likely out of its "
                f"{memory_gb:g} GB of worker memory (peak {peak / 2**30:.2f} GB); raise "
                f"render.worker_memory_gb in config.yaml"
            )
        if encoder := _ENCODER_FAILED.search(output):
            raise UserError(
                f"scene '{scene.id}' failed inside the video encoder, most likely because it ran out of "
                f"its {memory_gb:g} GB of worker memory (x264 reports a failed allocation only as "
                f"'{encoder.group(0)}'); raise render.worker_memory_gb in config.yaml"
            )
        where = _course_line(output, module)
        raise UserError(
            f"{where + ': ' if where else ''}scene '{scene.id}' ({module.name}:{scene.cls}) failed to "
            f"render: {lines[-1] if lines else 'no output'}"
        )
    _, h, _ = QUALITIES[quality]
    video = media_dir / "videos" / module.stem / f"{h}p{scene.fps}" / f"{scene.id}.mp4"
    if not video.exists():
        raise RuntimeError(f"Manim wrote no video for {scene.id} at {video}")
    got = video_frames(video)
    want = scene.frames if piece is None else piece[1] - piece[0]
    if got != want:
        what = "" if piece is None else f" in its piece {piece[0]}..{piece[1]}"
        raise RuntimeError(f"scene '{scene.id}' wrote {got} frames{what}, the plan has {want}")
    return video
