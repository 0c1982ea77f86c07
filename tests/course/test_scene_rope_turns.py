"""rope_turns (trig_to_rope, class RopeTurnsBySeat): seat p's arrow turned p × 30° (mathcore.rope_2d), its labels
and the lengths against the drawing.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import mathcore
from narration import figures
from tests.support.course_scenes import narration_scene
from tests.support.drawn import direction_deg, disagreements, numbers_in, signed_gap_deg

TOL = 1e-6
DEG_TOL = 0.05  # degrees: labels are whole degrees of exactly drawn angles


def built(scene_id: str):
    return narration_scene(scene_id)


def at_frame(samples, frame):
    hits = [s for s in samples if s["frame"] == frame]
    assert hits, f"no sample on frame {frame}"
    return hits[-1]


# -- rope_turns ----------------------------------------------------------------------------------
def test_rope_turns_arrows_are_rope_2d():
    scene = built("rope_turns")
    v = np.asarray(figures.ROPE_PAIR_Q)
    theta = np.radians(figures.THETA_DEG)
    samples = scene.probes["arrows"]
    for s in samples:
        for phi, tip in zip(s["phi"], s["tips"]):
            assert np.allclose(tip, mathcore.rotate(v, phi), atol=TOL)
    end = at_frame(samples, scene.plan.cue("seats").end_frame)
    for seat, tip, shown in zip(end["seats"], end["tips"], end["on_screen"]):
        assert shown
        assert np.allclose(tip, mathcore.rope_2d(v, seat, theta), atol=TOL)
    lengths = scene.probes["lengths"][0]["lengths"]
    assert np.allclose(lengths, np.linalg.norm(v), atol=TOL)
    assert scene.probes["length_text"][0]["shown"] == figures.fmt_fixed(np.linalg.norm(v))


# -- rope_turns: "seat p turns p × 30°", and "all lengths are 1.12" -------------------------------
def rope_turns_disagreements(samples) -> list[str]:
    """At rest (after the seats cue), each line's angle against its arrow's turn from the word
    vector named on screen, and the length line against every drawn arrow (scale from that word)."""
    out = []
    word = [s for s in samples if s["word_on_screen"]][-1]
    wx, wy = numbers_in(word["word"])[:2]
    base = float(np.degrees(np.arctan2(wy, wx)))
    unit = (word["ends"][0][0] - word["starts"][0][0]) / wx  # scene units per vector unit, as drawn
    for i in range(len(samples[0]["ends"])):
        out += disagreements(
            samples,
            shown=lambda s, i=i: s["lines_on_screen"][i] and s["on_screen"][i],
            said=lambda s, i=i: numbers_in(s["lines"][i])[-1],
            what=f"seat line {i}",
            drawn=lambda s, i=i: signed_gap_deg(base, direction_deg(s["starts"][i], s["ends"][i])) % 360,
            tol=DEG_TOL,
        )
        out += disagreements(
            samples,
            shown=lambda s, i=i: s["same_on_screen"] and s["on_screen"][i],
            said=lambda s: numbers_in(s["same"])[0],
            what=f"length of arrow {i}",
            drawn=lambda s, i=i: np.linalg.norm(np.subtract(s["ends"][i], s["starts"][i])[:2]) / unit,
            tol=0.006,
        )
    return out


def _at_rest(scene_id="rope_turns"):
    scene = narration_scene(scene_id)
    rest = scene.plan.cue("same_word").start_frame
    return [s for s in scene.probes["arrows"] if s["frame"] >= rest or s["word_on_screen"]]


def test_rope_turns_labels_equal_the_drawing():
    samples = _at_rest()
    assert sum(all(s["lines_on_screen"]) for s in samples) > 30 and sum(s["same_on_screen"] for s in samples) > 10
    assert rope_turns_disagreements(samples) == []
    last = samples[-1]
    assert numbers_in(last["same"])[0] == pytest.approx(np.linalg.norm(figures.ROPE_PAIR_Q), abs=0.005)


def _turned(p, center, deg):
    a = np.radians(deg)
    v = np.asarray(p, dtype=float) - np.asarray(center, dtype=float)
    x, y = v[0] * np.cos(a) - v[1] * np.sin(a), v[0] * np.sin(a) + v[1] * np.cos(a)
    return [center[0] + x, center[1] + y, 0.0]


@pytest.mark.parametrize("what", ["arrow", "line", "length"])
def test_rope_turns_check_catches_a_perturbation(what):
    samples = copy.deepcopy(_at_rest())
    for s in samples:
        if what == "arrow":
            s["ends"][2] = _turned(s["ends"][2], s["starts"][2], 4.0)
        elif what == "line":
            s["lines"][3] = s["lines"][3].replace("90°", "80°")
        else:
            s["same"] = s["same"].replace("1.12", "1.00")
    assert rope_turns_disagreements(samples)
