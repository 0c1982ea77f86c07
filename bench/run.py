#!/usr/bin/env python3
"""Benchmark: render wall time per scene against its video length, at 480p15 and 1080p60.

    .venv/bin/python bench/run.py [--scene ID ...] [--quality low high] [--repeat N]

Uses the offline voice (espeak) for the plan and renders with Manim's cache off, so
each figure is a cold render of the silent scene (muxing adds well under a second).
It reports; it asserts nothing about time.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from coursekit.config import QUALITIES, load_config  # noqa: E402
from coursekit.narration import load_course  # noqa: E402

CORE = ["unit_circle", "angle_addition", "clock_row", "rope_invariance"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scene", action="append", help="scene id (default: the four core scenes)")
    ap.add_argument("--quality", nargs="+", default=["low", "high"], choices=list(QUALITIES))
    ap.add_argument("--repeat", type=int, default=1, help="renders per figure; the median is reported")
    args = ap.parse_args()

    from coursekit.audio_cache import AudioCache
    from coursekit.lexicon import Lexicon
    from coursekit.scene_render import render_silent
    from coursekit.timeline import plan_lesson
    from coursekit.voices.auto import make_voice

    cfg = load_config(None, **{"voice.backend": "espeak"})
    course = load_course(cfg.lessons)
    lexicon = Lexicon.load()
    voice = make_voice("espeak", cfg.voice, lexicon)
    cache = AudioCache(cfg.output_dir / "cache" / "audio")
    scene_ids = args.scene or CORE
    work = cfg.output_dir / "bench"
    rows = {sid: {} for sid in scene_ids}
    for quality in args.quality:
        fps = QUALITIES[quality][2]
        plans = {}
        for sid in scene_ids:
            lesson = course.lesson_of(course.scene(sid).id)
            if lesson.id not in plans:
                plans[lesson.id] = plan_lesson(lesson, cfg, fps, voice, cache, lexicon)
            scene = plans[lesson.id].scene(sid)
            times = []
            for _ in range(args.repeat):
                shutil.rmtree(work / sid, ignore_errors=True)
                t0 = time.perf_counter()
                render_silent(cfg, scene, quality, use_cache=False, media_dir=work / sid)
                times.append(time.perf_counter() - t0)
            rows[sid][f"video_{quality}"] = scene.duration
            rows[sid][quality] = statistics.median(times)
            print(f"{sid} {quality}: {rows[sid][quality]:.1f} s for {scene.duration:.1f} s of video", flush=True)

    table = Table(title=f"render wall time per scene ({os.cpu_count()} cores, espeak plan, Manim cache off)")
    table.add_column("scene")
    for q in args.quality:
        w, h, f = QUALITIES[q]
        table.add_column(f"{h}p{f} video s", justify="right")
        table.add_column(f"{h}p{f} wall s", justify="right")
        table.add_column(f"{h}p{f} wall/video", justify="right")
    for sid, r in rows.items():
        cells = [sid]
        for q in args.quality:
            video = r[f"video_{q}"]
            cells += [f"{video:.1f}", f"{r[q]:.1f}", f"{r[q] / video:.2f}"]
        table.add_row(*cells)
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
