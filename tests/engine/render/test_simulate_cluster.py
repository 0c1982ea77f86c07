"""bench/simulate_cluster.py: list scheduling, and the pieces it simulates are the executors' own cuts."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from coursekit.render import pieces
from coursekit.render.testing import synthetic_plan

ROOT = Path(__file__).resolve().parents[3]
spec = importlib.util.spec_from_file_location("simulate_cluster", ROOT / "bench" / "simulate_cluster.py")
sim = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sim)


def test_list_scheduling_gives_each_job_to_the_first_free_worker():
    assert sim.makespan([3, 3, 2, 2, 2], 2) == 7  # 3+2+2 | 3+2
    assert sim.makespan([5, 1, 1, 1], 8) == 5  # more workers than jobs: the longest job
    assert sim.makespan([4, 4, 4, 4], 1) == 16


def scenes(fps=60):
    # one long scene (8 cues of 30 s) and four short ones (2 cues of 15 s)
    out = [synthetic_plan("long", "Long", [(f"c{i}", 30 * fps, 25 * fps, {}) for i in range(8)], fps=fps)]
    out += [
        synthetic_plan(f"s{j}", "S", [(f"c{i}", 15 * fps, 12 * fps, {}) for i in range(2)], fps=fps) for j in range(4)
    ]
    return out


def test_pieces_are_cut_as_the_executors_cut_and_beat_whole_scenes_when_the_longest_dominates():
    ss = scenes()
    per_frame = {s.id: 0.02 for s in ss}
    two = sim.simulate(ss, per_frame, 2)
    eight = sim.simulate(ss, per_frame, 8)
    assert two["pieces"] == sum(len(v) for v in pieces.cuts(ss, 2, environ={}).values())
    assert eight["pieces"] == sum(len(v) for v in pieces.cuts(ss, 8, environ={}).values()) > len(ss)
    # whole scenes on 8 workers cannot beat the long scene: 3 s start-up + 240 s · 60 fps · 20 ms
    assert eight["scenes_s"] == pytest.approx(3 + 240 * 60 * 0.02)
    assert eight["pieces_s"] < eight["scenes_s"] / 2
    # nothing beats the CPU spread evenly
    assert eight["pieces_s"] >= eight["floor_s"]


def test_scene_costs_come_from_the_last_rendered_row(tmp_path):
    log = tmp_path / "render-high.jsonl"
    rows = [
        {"scene": "a", "fps": 60, "video_s": 10.0, "manim_cpu_s": 99.0},
        {"scene": "a", "fps": 60, "video_s": 10.0, "manim_cpu_s": 15.0},  # the newer render counts
        {"scene": "a", "fps": 60, "video_s": 10.0, "reused": True, "manim_cpu_s": 0.1},  # reused: not a render
        {"scene": "b", "fps": 60, "video_s": 10.0, "manim_cpu_s": 21.0, "piece_manim_cpu_s": [10.5, 10.5]},
    ]
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    costs = sim.scene_costs(log)
    assert costs["a"] == pytest.approx((15.0 - sim.STARTUP_S) / 600)
    assert costs["b"] == pytest.approx((21.0 - 2 * sim.STARTUP_S) / 600)  # two pieces, two start-ups
