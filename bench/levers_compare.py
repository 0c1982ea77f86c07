#!/usr/bin/env python3
"""Two renders of the same commit's lessons, side by side: the levers on against the levers off (it asserts
nothing; it prints what differs and exits 1 if anything does).

    COURSEKIT_STATIC_RUNS=off COURSEKIT_PIECES=off .venv/bin/python render.py course   # in a second clone
    .venv/bin/python bench/levers_compare.py ON_DIR OFF_DIR [--samples 100] [--min-psnr 45]

ON_DIR and OFF_DIR hold the delivered lessons (``*.mp4``, matched by name). For each lesson it compares:

- the video stream's frame count (packets, as ``coursekit.core.media_tools.video_frames`` counts them);
- the chapters (start, end and title of each);
- the audio (the MD5 of its decoded samples, ffmpeg's ``md5`` muxer);

and decodes the frame shown at each of ``--samples`` times spread evenly over the lessons' total running
time (the midpoints of equal slices, so the same times every run), as yuv420p, in both renders: the PSNR
of each pair (luma and chroma planes together, peak 255) must reach ``--min-psnr`` dB (identical frames
count as infinite).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit.core.media_tools import probe  # noqa: E402


class Lesson:
    """One delivered lesson, probed once (ffprobe with packets counted: ``coursekit.core.media_tools.probe``)."""

    def __init__(self, path: Path) -> None:
        info = probe(path, count_packets=True)
        video = next(s for s in info["streams"] if s["codec_type"] == "video")
        self.path = path
        self.frames = int(video["nb_read_packets"])
        self.size = int(video["width"]), int(video["height"])
        self.duration = float(info["format"]["duration"])
        self.chapters = [
            (c["start_time"], c["end_time"], c.get("tags", {}).get("title", "")) for c in info.get("chapters", [])
        ]


def audio_md5(path: Path) -> str:
    out = subprocess.run(
        ["ffmpeg", "-v", "error", "-nostdin", "-i", str(path), "-map", "0:a", "-f", "md5", "-"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def frame_at(lesson: Lesson, t: float) -> np.ndarray:
    """The yuv420p bytes of the frame shown at ``t`` seconds (accurate input seek: decoded from the keyframe)."""
    w, h = lesson.size
    out = subprocess.run(
        ["ffmpeg", "-v", "error", "-nostdin", "-ss", f"{t:.6f}", "-i", str(lesson.path), "-frames:v", "1"]
        + ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-"],
        capture_output=True,
        check=True,
    )
    expected = w * h * 3 // 2
    if len(out.stdout) != expected:
        raise ValueError(f"{lesson.path.name} at {t:.3f} s: {len(out.stdout)} bytes decoded, a frame has {expected}")
    return np.frombuffer(out.stdout, dtype=np.uint8)


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return float("inf") if mse == 0 else 10 * np.log10(255**2 / mse)


def sample_times(durations: dict[str, float], samples: int) -> list[tuple[str, float]]:
    """``samples`` times spread over the lessons played one after another: the midpoint of each equal slice,
    given as (lesson, time in that lesson)."""
    total = sum(durations.values())
    out = []
    for i in range(samples):
        t = (i + 0.5) * total / samples
        for name, d in durations.items():
            if t < d:
                out.append((name, t))
                break
            t -= d
    return out


def compare(on: Path, off: Path, samples: int = 100, min_psnr: float = 45.0) -> tuple[list[str], dict]:
    """What differs between the two folders' lessons, and the figures (frame counts, PSNRs)."""
    names = sorted(p.name for p in on.glob("*.mp4"))
    problems: list[str] = []
    if names != sorted(p.name for p in off.glob("*.mp4")):
        problems.append(f"lessons differ: {names} against {sorted(p.name for p in off.glob('*.mp4'))}")
    names = [n for n in names if (off / n).exists()]
    figures: dict = {"lessons": {}, "psnr": []}
    pairs = {n: (Lesson(on / n), Lesson(off / n)) for n in names}
    for n, (a, b) in pairs.items():
        same_audio = audio_md5(a.path) == audio_md5(b.path)
        figures["lessons"][n] = {"frames": [a.frames, b.frames], "chapters": len(a.chapters), "audio_same": same_audio}
        if a.frames != b.frames:
            problems.append(f"{n}: {a.frames} frames with the levers on, {b.frames} off")
        if a.chapters != b.chapters:
            problems.append(f"{n}: the chapters differ")
        if not same_audio:
            problems.append(f"{n}: the audio differs")
    for name, t in sample_times({n: a.duration for n, (a, _) in pairs.items()}, samples):
        p = psnr(*(frame_at(lesson, t) for lesson in pairs[name]))
        figures["psnr"].append((name, round(t, 3), p))
        if p < min_psnr:
            problems.append(f"{name} at {t:.3f} s: PSNR {p:.1f} dB, under {min_psnr:g}")
    return problems, figures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("on", type=Path, help="the lessons rendered with the levers on")
    ap.add_argument("off", type=Path, help="the same commit's lessons with the levers off")
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--min-psnr", type=float, default=45.0)
    args = ap.parse_args(argv)
    problems, figures = compare(args.on, args.off, args.samples, args.min_psnr)
    for n, row in figures["lessons"].items():
        print(
            f"{n}: frames {row['frames'][0]} / {row['frames'][1]}, {row['chapters']} chapters, "
            f"audio {'the same' if row['audio_same'] else 'DIFFERENT'}"
        )
    values = [p for _, _, p in figures["psnr"]]
    exact = sum(1 for p in values if p == float("inf"))
    finite = [p for p in values if p != float("inf")]
    low = f", lowest finite {min(finite):.1f} dB" if finite else ""
    print(f"{len(values)} sampled times: {exact} bit-exact{low}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
