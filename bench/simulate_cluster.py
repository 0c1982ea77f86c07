#!/usr/bin/env python3
"""The course's render wall time on N Dask workers, on paper, from a measured render (it asserts nothing).

    .venv/bin/python bench/simulate_cluster.py                          # media/, 1080p60, 2 8 32 128 workers
    .venv/bin/python bench/simulate_cluster.py --media DIR --workers 2 4 --markdown

What it reads: the lesson plans of a finished render (``media/plan/<fps>fps/``) and its render log
(``media/logs/render-<quality>.jsonl``, one row per scene). Each scene's CPU cost per frame is the Manim CPU
seconds of its last rendered (not reused) row, less one start-up, over its frames.

What it simulates, for each worker count N, two schedules of one Manim process per job, each on one core:

- **scenes**: every scene whole (what a cluster could do before pieces), longest first onto the worker that
  is free first (list scheduling): a job costs a start-up plus its frames at the scene's cost per frame;
- **pieces**: the scenes cut as ``coursekit.render.pieces.cuts`` cuts them for N slots (at cue starts, no
  piece under 20 s), ordered by ``pieces.cost`` as the executors order them; a piece costs a start-up, its
  frames, and the stepping through the frames before its start.

Start-up and stepping are measured in ``docs/performance.md`` ("Pieces"): a 532-frame piece after 4495
stepped frames of a 1080p60 scene took about 13 CPU s, of which 8.8 s drawing (16.5 ms a frame) and 1 to 2 s
stepping, so about 3 s start-up and 0.3 ms a stepped frame. Synthesis, joins and assembly are not in the
table (they are the same for both schedules); nor is the network (a piece ships its video back: about
1 MB a second of 1080p60 video).
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit.core.layout import MediaLayout  # noqa: E402
from coursekit.plan.model import LessonPlan, ScenePlan  # noqa: E402
from coursekit.render import pieces  # noqa: E402

STARTUP_S = 3.0  #: one Manim process's start-up, CPU s (module docstring)
STEP_S = 0.0003  #: stepping through one frame without drawing it, CPU s
QUALITY_FPS = {"high": 60, "medium": 30, "low": 15}


def scene_costs(log: Path) -> dict[str, float]:
    """CPU seconds per frame of each scene, from the last row of the render log that rendered it."""
    per_frame: dict[str, float] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("reused") or not row.get("manim_cpu_s"):
            continue
        frames = round(row["video_s"] * row["fps"])
        starts = len(row.get("piece_manim_cpu_s") or [0])
        per_frame[row["scene"]] = max(0.0, row["manim_cpu_s"] - STARTUP_S * starts) / frames
    return per_frame


def makespan(costs: list[float], workers: int) -> float:
    """List scheduling in the order given: each job to the worker that is free first."""
    free = [0.0] * min(workers, len(costs) or 1)
    for c in costs:
        heapq.heappush(free, heapq.heappop(free) + c)
    return max(free)


def simulate(scenes: list[ScenePlan], per_frame: dict[str, float], workers: int) -> dict:
    whole = sorted((STARTUP_S + s.frames * per_frame[s.id] for s in scenes), reverse=True)
    cut = pieces.cuts(scenes, workers, environ={})
    jobs = []
    for s in scenes:
        for p in cut[s.id]:
            jobs.append((pieces.cost(p), STARTUP_S + p.frames * per_frame[s.id] + p.start * STEP_S))
    jobs.sort(key=lambda j: j[0], reverse=True)
    cpu = sum(c for _, c in jobs)
    return {
        "workers": workers,
        "scenes_s": makespan(whole, workers),
        "longest_scene_s": whole[0],
        "pieces_s": makespan([c for _, c in jobs], workers),
        "pieces": len(jobs),
        "longest_piece_s": max(c for _, c in jobs),
        "floor_s": cpu / workers,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--media", type=Path, default=ROOT / "media", help="the output folder of a finished render")
    ap.add_argument("--quality", default="high", choices=sorted(QUALITY_FPS))
    ap.add_argument("--workers", type=int, nargs="+", default=[2, 8, 32, 128])
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    fps = QUALITY_FPS[args.quality]
    layout = MediaLayout(args.media)
    plan_files = sorted(layout.plan_folder(fps).glob("*.json"))
    log = layout.render_log(args.quality)
    if not plan_files or not log.is_file():
        sys.exit(f"simulate: no plans at {fps} fps or no {log.name} under {args.media}: render the course first")
    scenes = [s for f in plan_files for s in LessonPlan.read(f).scenes]
    per_frame = scene_costs(log)
    missing = [s.id for s in scenes if s.id not in per_frame]
    if missing:
        sys.exit(f"simulate: the render log has no rendered row for {', '.join(missing)}")
    video = sum(s.duration for s in scenes)
    rows = [simulate(scenes, per_frame, n) for n in args.workers]
    head = ["workers", "scenes whole: wall s", "× video", "in pieces: wall s", "× video", "pieces",
            "longest scene s", "longest piece s", "CPU / workers s"]  # fmt: skip
    body = [
        [
            r["workers"],
            f"{r['scenes_s']:.0f}",
            f"{r['scenes_s'] / video:.2f}",
            f"{r['pieces_s']:.0f}",
            f"{r['pieces_s'] / video:.2f}",
            r["pieces"],
            f"{r['longest_scene_s']:.0f}",
            f"{r['longest_piece_s']:.0f}",
            f"{r['floor_s']:.0f}",
        ]  # fmt: skip
        for r in rows
    ]
    print(
        f"{len(scenes)} scenes, {video:.0f} s of video at {fps} fps; start-up {STARTUP_S} s, stepping {STEP_S * 1e3} ms a frame"
    )
    if args.markdown:
        print("| " + " | ".join(head) + " |\n|" + "---:|" * len(head))
        for b in body:
            print("| " + " | ".join(str(x) for x in b) + " |")
    else:
        for b in [head, *body]:
            print("  ".join(f"{x!s:>16}" for x in b))


if __name__ == "__main__":
    main()
