#!/usr/bin/env python3
"""Benchmark: the delivered narration of each lesson, encoded as `render.py course` encodes it.

    .venv/bin/python bench/delivery_audio.py [--plans media/plan/60fps] [--out media/bench/delivery]

For every lesson plan in ``--plans`` it writes the lesson's delivered narration (the .m4a that the lesson
MP4 carries, stream-copied) and prints, measured on that file by ffprobe and ffmpeg's ebur128 (not by the
engine's own numbers): codec, profile, rate, channels, bit rate, integrated loudness, true peak, whether
the two channels decode identical, and the wall time of the encoding. It reports; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from coursekit.plan.model import LessonPlan  # noqa: E402
from coursekit.render.soundtrack import write_lesson_narration  # noqa: E402


def measured(path: Path) -> dict:
    s = json.loads(
        subprocess.run(
            ["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_streams", "-of", "json", str(path)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )["streams"][0]
    err = subprocess.run(
        [
            "ffmpeg",
            "-nostdin",
            "-hide_banner",
            "-nostats",
            "-i",
            str(path),
            "-map",
            "0:a:0",
            "-af",
            "ebur128=peak=true",
            "-f",
            "null",
            "-",
        ],
        capture_output=True,
        text=True,
    ).stderr
    summary = err[err.rindex("Summary:") :]
    pcm = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-f", "s16le", "-ac", "2", "-"], capture_output=True, check=True
    ).stdout
    left, right = pcm[0::4] + pcm[1::4], pcm[2::4] + pcm[3::4]  # cheap: equal bytes in both halves
    return {
        "codec": f"{s['codec_name']} {s.get('profile', '')}",
        "rate": s["sample_rate"],
        "channels": s["channels"],
        "kbps": int(s["bit_rate"]) / 1000,
        "lufs": float(re.search(r"I:\s+(\S+) LUFS", summary).group(1)),
        "dbtp": float(re.search(r"Peak:\s+(\S+) dBFS", summary).group(1)),
        "identical": left == right,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plans", type=Path, default=Path("media/plan/60fps"), help="folder of lesson plans")
    ap.add_argument("--out", type=Path, default=Path("media/bench/delivery"), help="where the .m4a files go")
    args = ap.parse_args()
    plans = sorted(args.plans.glob("*.json"))
    if not plans:
        print(f"no lesson plans in {args.plans}; run: python render.py plan", file=sys.stderr)
        return 2
    table = Table("lesson", "stream", "kb/s", "LUFS", "dBTP", "channels identical", "encode s")
    for plan_file in plans:
        plan = LessonPlan.read(plan_file)
        t0 = time.perf_counter()
        out, _, _ = write_lesson_narration(plan, args.out / f"{plan.lesson}.m4a")
        wall = time.perf_counter() - t0
        m = measured(out)
        table.add_row(
            plan.lesson,
            f"{m['codec']}, {m['rate']} Hz, {m['channels']} ch",
            f"{m['kbps']:.0f}",
            f"{m['lufs']:.1f}",
            f"{m['dbtp']:.1f}",
            "yes" if m["identical"] else "NO",
            f"{wall:.1f}",
        )
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
