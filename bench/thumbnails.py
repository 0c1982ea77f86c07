#!/usr/bin/env python3
"""What the seek-bar thumbnails cost at assembly: one lesson assembled with and without them (issue 28).

    .venv/bin/python bench/thumbnails.py                                   # rotation_matrix at 1080p60
    .venv/bin/python bench/thumbnails.py --lesson trig_to_rope --quality low --repeat 5
    COURSEKIT_COURSE=DIR .venv/bin/python bench/thumbnails.py --workspace DIR/media/bench/thumbnails-high

The lesson is planned and rendered first (untimed; with the espeak voice, into media/bench/thumbnails-<quality>/,
reused when its scenes are there), or taken from ``--workspace``, an output folder that already holds the
lesson's plan and rendered scenes (its plan's audio paths are relative to its course root: run with
COURSEKIT_COURSE set to it). Then ``assemble_lesson`` runs ``--repeat`` times without and with the
thumbnails, alternating, after one untimed run that warms the page cache and imports PyAV; and the
thumbnails alone (``write_thumbnails`` on the finished video) as often. Wall seconds and CPU seconds
(this process and its ffmpeg children) are reported as medians; the result is kept in the workspace's
thumbnails-bench.json. It reports and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit.assemble.lesson_video import assemble_lesson  # noqa: E402
from coursekit.assemble.thumbnails import write_thumbnails  # noqa: E402
from coursekit.core.config import QUALITIES, load_config, parse_config  # noqa: E402
from coursekit.core.layout import MediaLayout  # noqa: E402
from coursekit.plan.model import LessonPlan  # noqa: E402


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(fn) -> tuple[float, float]:
    t0, c0 = time.perf_counter(), _cpu()
    fn()
    return time.perf_counter() - t0, _cpu() - c0


def _workspace(lesson: str, quality: str) -> Path:
    """media/bench/thumbnails-<quality>/: the lesson planned and rendered there with the espeak voice."""
    out = ROOT / "media" / "bench" / f"thumbnails-{quality}"
    out.mkdir(parents=True, exist_ok=True)
    course = load_config(ROOT / "config.yaml").course
    (out / "config.yaml").write_text(
        json.dumps(
            {
                "course": {"title": course.title, "lessons": list(course.lessons), "font": course.font},
                "lessons": [lesson],
                "voice": {"backend": "espeak"},
                "video": {"quality": quality},
                "output": out.relative_to(ROOT).as_posix(),
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    for args in (["plan"], ["render", "--lesson", lesson]):
        cmd = [sys.executable, str(ROOT / "render.py"), *args, "--config", str(out / "config.yaml")]
        print("untimed:", " ".join(cmd[1:]), flush=True)
        if subprocess.run(cmd, cwd=ROOT).returncode != 0:
            sys.exit(f"bench: {' '.join(args)} failed")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lesson", default="rotation_matrix")
    ap.add_argument("--quality", choices=list(QUALITIES), default="high")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workspace", type=Path, help="an output folder with the lesson's plan and rendered scenes")
    args = ap.parse_args()

    work = args.workspace.resolve() if args.workspace else _workspace(args.lesson, args.quality)
    fps = QUALITIES[args.quality][2]
    layout = MediaLayout(work)
    plan = LessonPlan.read(layout.lesson_plan(args.lesson, fps))
    videos = [layout.scene_video(s.id, args.quality) for s in plan.scenes]
    missing = [v.name for v in videos if not v.exists()]
    if missing:
        sys.exit(f"bench: not rendered in {work}: {', '.join(missing)}")
    cfg = parse_config({"video": {"quality": args.quality}})
    scratch = work / "thumbnails-bench"
    outdir, tmp = scratch / "course", scratch / "work"

    def assemble(thumbnails: bool) -> None:
        shutil.rmtree(outdir, ignore_errors=True)
        assemble_lesson(cfg, plan, videos, outdir, work=tmp, thumbnails=thumbnails)

    print(
        f"{args.lesson} at {args.quality}: {len(plan.scenes)} scenes, {plan.frames / fps:.1f} s of video; "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    assemble(True)  # untimed: page cache, PyAV's import
    runs: dict[str, list[tuple[float, float]]] = {"without": [], "with": [], "alone": []}
    for _ in range(args.repeat):
        runs["without"].append(_timed(lambda: assemble(False)))
        runs["with"].append(_timed(lambda: assemble(True)))
    mp4 = outdir / f"{args.lesson}.mp4"
    for _ in range(args.repeat):
        runs["alone"].append(_timed(lambda: write_thumbnails(mp4, scratch, plan.frames / fps)))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in runs.items()}
    tiles = (outdir / "thumbnails.vtt").read_text(encoding="utf-8").count("#xywh=")
    result = {
        "lesson": args.lesson,
        "quality": args.quality,
        "video_s": plan.frames / fps,
        "tiles": tiles,
        "repeat": args.repeat,
        "runs": runs,
        "median": med,
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "load": os.getloadavg()[0],
    }
    (work / "thumbnails-bench.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    (w0, c0), (w1, c1), (wa, ca) = med["without"], med["with"], med["alone"]
    print(f"assembly without thumbnails: {w0:.2f} s wall, {c0:.2f} s CPU (median of {args.repeat})")
    print(f"assembly with thumbnails:    {w1:.2f} s wall, {c1:.2f} s CPU")
    print(
        f"thumbnails alone ({tiles} tiles): {wa:.3f} s wall ({wa / w0:.1%} of the assembly without), "
        f"{ca:.3f} s CPU ({ca / c0:.1%})"
    )
    print(
        f"difference with - without: {w1 - w0:+.2f} s wall ({(w1 - w0) / w0:+.1%}), {c1 - c0:+.2f} s CPU "
        f"({(c1 - c0) / c0:+.1%})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
