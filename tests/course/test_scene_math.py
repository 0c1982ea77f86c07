"""What the core scenes draw equals mathcore, frame by frame (dry run from the real narration plan, no video)."""
from __future__ import annotations

import numpy as np
import pytest

import mathcore
from narration import figures

TOL = 1e-6


def wrap(a):
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


def at_frame(samples, frame):
    hits = [s for s in samples if s["frame"] == frame]
    assert hits, f"no sample on frame {frame}"
    return hits[0]


def test_unit_circle_pointer_tip_and_readout(narrated_scene):
    scene = narrated_scene("unit_circle")
    samples = scene.probes["pointer"]
    assert len(samples) > 200
    for s in samples:
        want = mathcore.pointer_tip(s["theta"])
        assert np.allclose(s["tip"], want, atol=TOL)
        assert np.allclose(s["pointer_end"], want, atol=TOL)
        if s["readout_on_screen"]:
            assert abs(s["readout_cos"] - want[0]) <= TOL and abs(s["readout_sin"] - want[1]) <= TOL
            assert s["readout_deg"] == round(np.degrees(s["theta"])) % 360
    assert sum(s["readout_on_screen"] for s in samples) > 150
    sweep = scene.plan.cue("sweep")
    b = sweep.bookmarks
    # each turn starts on its bookmark and is finished by the next one
    assert at_frame(samples, b["at30"])["theta"] == pytest.approx(0.0, abs=1e-12)
    assert at_frame(samples, b["at90"])["theta"] == pytest.approx(np.radians(30), abs=1e-12)
    assert at_frame(samples, b["at180"])["theta"] == pytest.approx(np.radians(90), abs=1e-12)
    assert at_frame(samples, sweep.end_frame)["theta"] == pytest.approx(np.radians(180), abs=1e-12)
    circle = scene.plan.cue("circle")
    assert at_frame(samples, circle.end_frame)["theta"] == pytest.approx(np.radians(540), abs=1e-12)


def test_angle_addition_vectors(narrated_scene):
    scene = narrated_scene("angle_addition")
    for key in ("vector", "ghost"):
        for s in scene.probes[key]:
            assert np.allclose(s["tip"], mathcore.rotate(s["v0"], s["phi"]), atol=TOL)
    for s in scene.probes["length"]:
        assert abs(s["length"] - 1.0) <= TOL
    vec = scene.probes["vector"]
    two = scene.plan.cue("two_turns")
    assert at_frame(vec, two.bookmarks["second"])["phi"] == pytest.approx(np.radians(25), abs=1e-12)
    end = scene.plan.cue("one_turn").end_frame
    v, g = at_frame(vec, end), at_frame(scene.probes["ghost"], end)
    assert np.allclose(v["tip"], g["tip"], atol=TOL)              # two turns land where one turn does
    assert np.allclose(v["tip"], mathcore.pointer_tip(np.radians(65)), atol=TOL)


@pytest.mark.parametrize("scene_id", ["clock_row", "clock_row_paper"])
def test_clock_hands_at_p_times_w(narrated_scene, scene_id):
    scene = narrated_scene(scene_id)
    d = scene.PARAMS[scene_id]["d"]
    w = mathcore.frequencies(d)[list(scene.PARAMS[scene_id]["indices"])]
    samples = scene.probes["clocks"]
    assert {round(s["p"]) for s in samples} >= set(scene.STEPS)
    for s in samples:
        assert np.allclose(s["w"], w)
        assert np.all(np.abs(wrap(np.array(s["hand_angles"]) - s["p"] * w)) <= TOL)
        if s["counter_on_screen"]:
            assert s["counter"] == round(s["p"])
    step = scene.plan.cue("step")
    assert at_frame(samples, step.end_frame)["p"] == scene.STEPS[-1]
    table = scene.probes["table"][0]
    want = np.degrees(np.mod(np.multiply.outer(table["positions"], w), 2 * np.pi))
    assert table["shown"] == [[f"{int(round(v)) % 360}°" for v in row] for row in want]
    assert len({tuple(r) for r in table["shown"]}) == len(table["shown"])   # no two positions alike


def test_rope_scores(narrated_scene):
    scene = narrated_scene("rope_invariance")
    theta = np.radians(figures.THETA_DEG)
    for key in ("main", "pair0", "pair1", "pair2"):
        for s in scene.probes[key]:
            assert np.allclose(s["q_tip"], mathcore.rope_2d(s["q"], s["m"], theta), atol=TOL)
            assert np.allclose(s["k_tip"], mathcore.rope_2d(s["k"], s["n"], theta), atol=TOL)
            if s["score_on_screen"]:
                assert abs(s["score"] - mathcore.rope_score(s["q"], s["k"], s["m"], s["n"], theta)) <= TOL
    end = scene.plan.cue("pairs").end_frame
    finals = [at_frame(scene.probes[f"pair{j}"], end) for j in range(3)]
    assert [(f["m"], f["n"]) for f in finals] == [tuple(map(float, p)) for p in figures.ROPE_PAIRS]
    assert all(f["score_on_screen"] for f in finals)
    for f, want in zip(finals, figures.rope_pair_scores()):
        assert abs(f["score"] - want) <= TOL
    curve = scene.probes["curve"][0]
    for plane, drawn in zip(curve["planes"], curve["drawn"]):
        q, k = np.zeros(scene.CURVE_D), np.zeros(scene.CURVE_D)
        q[2 * plane:2 * plane + 2], k[2 * plane:2 * plane + 2] = figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K
        drawn = np.array(drawn)
        assert np.allclose(drawn[:, 0], curve["distances"], atol=TOL)
        assert np.allclose(drawn[:, 1], mathcore.rope_scores(q, k, drawn[:, 0]), atol=TOL)
