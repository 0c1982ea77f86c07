"""angle_addition (trig_to_rope, class AngleAddition): two turns land where one turn does (25° then 40° = 65°), the
vectors stay unit length, and the arcs, turns and product labels equal the drawing.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import mathcore
from tests.support.course_scenes import narration_scene
from tests.support.drawn import direction_deg, disagreements, numbers_in, signed_gap_deg
from tests.support.scene_probes import at_frame

TOL = 1e-6
DEG_TOL = 0.05  # degrees: labels are whole degrees of exactly drawn angles


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
    assert np.allclose(v["tip"], g["tip"], atol=TOL)  # two turns land where one turn does
    assert np.allclose(v["tip"], mathcore.pointer_tip(np.radians(65)), atol=TOL)


# -- angle_addition / two_turns: the vector starts again at 0° without a turn back (P5) ---------------------
def backward_turns(samples, start: int, end: int) -> list[str]:
    """Frames in [start, end) where the vector, drawn in this frame and the one before, has turned back (its angle
    went down): no word of two_turns speaks of a clockwise turn."""
    out, prev = [], None
    for s in sorted((s for s in samples if start <= s["frame"] < end), key=lambda s: s["frame"]):
        if prev is not None and s["on_screen"] and prev["on_screen"] and s["phi"] < prev["phi"] - 1e-9:
            out.append(f"frame {s['frame']}: the vector turns back {np.degrees(prev['phi'] - s['phi']):.1f}°")
        prev = s
    return out


def test_the_vector_starts_again_at_zero_without_turning_back():
    scene = narration_scene("angle_addition")
    two = scene.plan.cue("two_turns")
    samples = scene.probes["drawn"]
    assert at_frame(samples, two.start_frame - 1)["phi"] == pytest.approx(np.radians(90), abs=1e-12)
    assert at_frame(samples, two.bookmarks["second"])["phi"] == pytest.approx(np.radians(25), abs=1e-12)
    assert backward_turns(samples, two.start_frame, two.end_frame) == []
    # seeded: the vector kept on screen while it goes back from 90° to 0°, as it was drawn before
    seeded = copy.deepcopy(samples)
    for s in seeded:
        s["on_screen"] = True
    assert backward_turns(seeded, two.start_frame, two.end_frame)


# -- angle_addition / takeaway: the rule is stated beside a still vector (P1, review 5) ----------------------
def silent_turns(samples, start: int, end: int) -> list[str]:
    """Frames in [start, end) where the vector on screen has turned since the frame before."""
    out, prev = [], None
    for s in sorted((s for s in samples if start <= s["frame"] < end), key=lambda s: s["frame"]):
        if prev is not None and s["on_screen"] and abs(s["phi"] - prev["phi"]) > 1e-9:
            out.append(f"frame {s['frame']}: the vector turns {np.degrees(s['phi'] - prev['phi']):+.1f}°")
        prev = s
    return out


def test_the_takeaway_does_not_turn_the_vector():
    scene = narration_scene("angle_addition")
    take = scene.plan.cue("takeaway")
    samples = scene.probes["drawn"]
    assert not any(w in take.text for w in ("转", "拨"))  # the words name no turn ...
    assert silent_turns(samples, take.start_frame, take.end_frame) == []  # ... and nothing turns
    assert at_frame(samples, take.end_frame - 1)["phi"] == pytest.approx(np.radians(25 + 40 + 360), abs=1e-12)
    # seeded: the extra 30° the takeaway used to turn with no word about it
    seeded = copy.deepcopy(samples)
    for s in seeded:
        if take.start_frame + 10 <= s["frame"] < take.end_frame:
            s["phi"] += np.radians(30) * min(1.0, (s["frame"] - take.start_frame - 10) / 20)
    assert silent_turns(seeded, take.start_frame, take.end_frame)


# -- angle_addition / rot_composition: arcs, turns and the product -----------------------------
def angle_addition_disagreements(scene_probes) -> list[str]:
    out = []
    drawn = {s["frame"]: s for s in scene_probes["drawn"]}
    # "R(90°)(1, 0) = (0, 1)": while the product is on screen the arrow points where its result says
    prod = [dict(s, **drawn[s["frame"]]) for s in scene_probes["product"] if s["on_screen"]]
    res = lambda s: numbers_in(s["result"])  # noqa: E731
    out += disagreements(
        prod[-5:],
        shown=lambda s: True,
        what="product's x",
        said=lambda s: res(s)[0],
        drawn=lambda s: (s["end"][0] - s["center"][0]) / s["unit_radius"],
        tol=0.006,
    )
    out += disagreements(
        prod[-5:],
        shown=lambda s: True,
        what="product's y",
        said=lambda s: res(s)[1],
        drawn=lambda s: (s["end"][1] - s["center"][1]) / s["unit_radius"],
        tol=0.006,
    )
    # the length readout against the drawn arrow
    lengths = [dict(s, **drawn[s["frame"]]) for s in scene_probes["length"] if s["on_screen"]]
    out += disagreements(
        lengths,
        shown=lambda s: True,
        what="length",
        said=lambda s: numbers_in(s["shown"])[0],
        drawn=lambda s: np.linalg.norm(np.subtract(s["end"], s["center"])[:2]) / s["unit_radius"],
        tol=0.006,
    )
    # "25°" and "40°" against their arcs; the arcs meet; the arrow ends where the second one does
    for s in scene_probes["arcs"]:
        c = drawn[s["frame"]]["center"]
        on1, lab1, on2, lab2 = s["on_screen"]
        if on1 and lab1:
            out += disagreements(
                [s],
                shown=lambda _: True,
                what="first arc",
                said=lambda _: numbers_in(s["lab1"])[0],
                drawn=lambda _: signed_gap_deg(direction_deg(c, s["arc1"][0]), direction_deg(c, s["arc1"][1])),
                tol=DEG_TOL,
            )
        if on2 and lab2:
            out += disagreements(
                [s],
                shown=lambda _: True,
                what="second arc",
                said=lambda _: numbers_in(s["lab2"])[0],
                drawn=lambda _: signed_gap_deg(direction_deg(c, s["arc2"][0]), direction_deg(c, s["arc2"][1])),
                tol=DEG_TOL,
            )
    # "R(40°) R(25°) = R(65°)": the vector and the ghost both point at 65°
    once = [s for s in scene_probes["once"] if s["on_screen"]]
    out += disagreements(
        once,
        shown=lambda s: True,
        what="two turns",
        said=lambda s: 65.0,
        drawn=lambda s: direction_deg(s["center"], s["end"]) % 360,
        tol=DEG_TOL,
    )
    out += disagreements(
        once,
        shown=lambda s: True,
        what="one turn",
        said=lambda s: 65.0,
        drawn=lambda s: direction_deg(s["center"], s["ghost_end"]) % 360,
        tol=DEG_TOL,
    )
    return out


def test_angle_addition_labels_equal_the_drawing():
    # (rot_composition, lesson 3, has its own scene class now: its checks live with that lesson's tests)
    probes = narration_scene("angle_addition").probes
    assert sum(s["on_screen"] for s in probes["product"]) > 20 and sum(s["on_screen"] for s in probes["length"]) > 10
    assert sum(all(s["on_screen"]) for s in probes["arcs"]) > 20 and sum(s["on_screen"] for s in probes["once"]) > 20
    assert angle_addition_disagreements(probes) == []


def _turned(p, center, deg):
    a = np.radians(deg)
    v = np.asarray(p, dtype=float) - np.asarray(center, dtype=float)
    x, y = v[0] * np.cos(a) - v[1] * np.sin(a), v[0] * np.sin(a) + v[1] * np.cos(a)
    return [center[0] + x, center[1] + y, 0.0]


@pytest.mark.parametrize("what", ["vector", "arc", "label"])
def test_angle_addition_check_catches_a_perturbation(what):
    probes = copy.deepcopy(narration_scene("angle_addition").probes)
    if what == "vector":  # the arrow turned back while "(0, 1)" is still shown
        for s in probes["drawn"]:
            s["end"] = _turned(s["end"], s["center"], -3.0)
    elif what == "arc":
        for s in probes["arcs"]:
            s["arc2"][1] = _turned(s["arc2"][1], probes["drawn"][0]["center"], 5.0)
    else:
        for s in probes["arcs"]:
            s["lab1"] = "30°"
    assert angle_addition_disagreements(probes)


# -- angle_addition / matrix: the columns are the two turned unit arrows, drawn (P2, review 11) ----------------
def _label_value(label: str, theta: float) -> np.ndarray:
    """The point a tip label like "(-sin theta, cos theta)" names at ``theta``."""
    parts = label.strip("()").split(",")
    trig = {"cos theta": np.cos(theta), "sin theta": np.sin(theta)}
    return np.array([(-1.0 if p.strip().startswith("-") else 1.0) * trig[p.strip().lstrip("-")] for p in parts])


def unit_column_faults(sample: dict, theta: float) -> list[str]:
    """At the end of the matrix cue: both unit arrows on screen, turned by ``theta``, their tips R(θ)'s columns,
    and each tip's label naming the point the tip is at."""
    out = []
    if not all(sample["on_screen"]):
        out.append("a unit arrow or its tip label is not on screen")
    cols = mathcore.rotation(theta)
    for j, (tip, label) in enumerate(zip(sample["tips"], sample["labels"])):
        if not np.allclose(tip, cols[:, j], atol=TOL):
            out.append(f"arrow {j + 1}'s tip {np.round(tip, 3).tolist()} is not column {j + 1} of R(θ)")
        if not np.allclose(_label_value(label, theta), tip, atol=TOL):
            out.append(f"label {label!r} does not name arrow {j + 1}'s tip")
    return out


def test_the_matrix_cue_draws_the_two_unit_arrows_its_columns_come_from():
    from scenes.angle_addition import AngleAddition

    scene = narration_scene("angle_addition")
    cue = scene.plan.cue("matrix")
    theta = np.radians(AngleAddition.SAMPLE)
    assert f"这里转 {AngleAddition.SAMPLE:g}°" in cue.text  # the voice names the sample turn
    end = at_frame(scene.probes["units"], cue.end_frame)
    assert end["phi"] == pytest.approx([theta, theta], abs=1e-12)
    assert unit_column_faults(end, theta) == []
    # seeded: the second label written as the first column's reading, and the arrows left unturned
    bad = copy.deepcopy(end)
    bad["labels"][1] = "(sin theta, cos theta)"
    assert unit_column_faults(bad, theta) == ["label '(sin theta, cos theta)' does not name arrow 2's tip"]
    bad = copy.deepcopy(end)
    bad["tips"] = [[1.0, 0.0], [0.0, 1.0]]
    assert len(unit_column_faults(bad, theta)) == 4
