"""rope_visualisation (trig_to_rope, class RopeVisualisation): the turning word, the four clocks and the score
curve with its two sliding words: drawn values against mathcore, labels against the drawing.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import mathcore
from narration import figures
from tests.support.course_scenes import narration_scene, narration_scene_plan
from tests.support.drawn import arc_sweep_deg, direction_deg, disagreements, numbers_in, signed_gap_deg
from tests.support.scene_probes import last_before, plain_typst

TOL = 1e-6
DEG_TOL = 0.51  # degree labels are whole degrees (rounding 0.5) of exactly drawn angles
EXACT = 1e-6


def built(scene_id: str):
    return narration_scene(scene_id)


def _cue_text(scene_id: str, cue: str) -> str:
    plan = narration_scene_plan(scene_id)
    return figures.fill(plan.cue(cue).text)


# -- rope_visualisation ----------------------------------------------------------------------------------
def test_rope_visualisation_pointer_clocks_and_curve():
    scene = built("rope_visualisation")
    v = np.asarray(figures.ROPE_PAIR_Q)
    theta = np.radians(figures.THETA_DEG)
    pointer = [s for s in scene.probes["pointer"] if s["on_screen"]]
    for s in pointer:
        assert np.allclose(s["tip"], mathcore.rope_2d(v, s["seat"], theta), atol=TOL)
    end = last_before(scene.probes["pointer"], scene.plan.cue("pointer").end_frame)
    assert end["seat"] == scene.SEATS[-1]
    # d = 8 as in clock_row and minimal_rope: all four clocks, speeds 1, 0.1, 0.01, 0.001 rad per seat
    assert scene.D == 8
    w = mathcore.frequencies(scene.D)
    clocks = [s for s in scene.probes["clocks"] if s["on_screen"]]
    assert clocks[0]["speeds"] == [f"每个位置转{figures.fmt_dec(wi, 3)}弧度" for wi in w]
    for s in clocks:
        assert np.allclose(s["w"], w)
        wrapped = (np.asarray(s["hand_angles"]) - s["p"] * w + np.pi) % (2 * np.pi) - np.pi
        assert np.all(np.abs(wrapped) <= TOL)
    assert max(s["p"] for s in clocks) == scene.MULTI_TO
    assert f"位置 {scene.MULTI_TO:g}" in _cue_text("rope_visualisation", "multi")
    q, k = np.asarray(scene.CURVE_Q), np.asarray(scene.CURVE_K)
    assert not np.allclose(q, k) and np.linalg.norm(q) == pytest.approx(1, abs=2e-3)
    dist = np.linspace(0, scene.CURVE_MAX, 121)
    base_curve = mathcore.rope_scores(q, k, dist, m=0.0)
    curve = [s for s in scene.probes["curve"] if s["on_screen"]]
    shifted = [s for s in curve if s["m"] > 0]
    assert shifted and max(s["m"] for s in curve) == scene.SHIFT
    for s in shifted:
        drawn = np.asarray(s["drawn"])
        assert np.allclose(drawn[:, 0], dist, atol=1e-6)
        assert np.allclose(drawn[:, 1], mathcore.rope_scores(q, k, dist, m=s["m"]), atol=1e-6)
        assert np.allclose(drawn[:, 1], base_curve, atol=1e-6)  # the shape does not move


# -- rope_visualisation / pointer ------------------------------------------------------------------
def _turn(s) -> float:
    """How far the drawn arrow has turned from the drawn seat-0 arrow (degrees, [0, 360))."""
    return signed_gap_deg(direction_deg(*s["start_arrow"]), direction_deg(*s["arrow"])) % 360


def _chip_seat(s) -> float:
    """The seat the word chip is drawn at, read off the strip of squares."""
    x0, x1 = s["squares"][0][0], s["squares"][1][0]
    return (s["chip"][0] - x0) / (x1 - x0)


def pointer_disagreements(samples) -> list[str]:
    out = []
    out += disagreements(
        samples,
        shown=lambda s: s["turned_on_screen"] and s["on_screen"],
        what="转过 label vs arrow",
        said=lambda s: numbers_in(s["turned"])[-1],
        drawn=_turn,
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=lambda s: s["turned_on_screen"] and s["arc_on_screen"],
        what="转过 label vs arc",
        said=lambda s: numbers_in(s["turned"])[-1],
        drawn=lambda s: arc_sweep_deg(*s["arc"]) % 360,
        tol=DEG_TOL,
    )
    # the step label's θ times the seat the chip is drawn at is the drawn turn
    out += disagreements(
        samples,
        shown=lambda s: s["step_on_screen"] and s["on_screen"],
        what="seat × θ vs arrow",
        said=lambda s: _chip_seat(s) * numbers_in(plain_typst(s["step"]))[-1],
        drawn=_turn,
        tol=EXACT + 1e-4,
    )
    # the seat counter names the square the chip is drawn in
    out += disagreements(
        samples,
        shown=lambda s: s["counter_on_screen"],
        what="位置 m label vs chip",
        said=lambda s: numbers_in(s["counter"])[-1],
        drawn=lambda s: float(s["square_nums"][int(np.argmin([abs(q[0] - s["chip"][0]) for q in s["squares"]]))]),
        tol=0,
    )
    return out


def test_pointer_labels_equal_the_drawing():
    scene = narration_scene("rope_visualisation")
    samples = scene.probes["pointer"]
    assert sum(s["turned_on_screen"] and s["arc_on_screen"] for s in samples) > 60
    assert sum(s["step_on_screen"] and s["on_screen"] for s in samples) > 20
    assert sum(s["counter_on_screen"] for s in samples) > 60
    assert {round(_chip_seat(s), 6) for s in samples if s["on_screen"]} >= {0.0, 1.0, 2.0, 3.0}
    assert pointer_disagreements(samples) == []
    # and the numbers are mathcore's: θ = 30°, the tip at seat 3 is rope_2d(v, 3, θ)
    last = [s for s in samples if s["on_screen"]][-1]
    assert numbers_in(last["turned"])[-1] == pytest.approx(3 * figures.THETA_DEG)
    assert np.allclose(last["tip"], mathcore.rope_2d(figures.ROPE_PAIR_Q, 3, np.radians(figures.THETA_DEG)), atol=1e-9)


def _rotated(p, about, deg):
    a = np.radians(deg)
    v = np.asarray(p, dtype=float) - np.asarray(about, dtype=float)
    return [about[0] + v[0] * np.cos(a) - v[1] * np.sin(a), about[1] + v[0] * np.sin(a) + v[1] * np.cos(a), 0.0]


@pytest.mark.parametrize("what", ["arrow 3° further", "arc 3° longer", "turned label +5", "counter +1", "θ label 25"])
def test_pointer_checks_catch_a_perturbation(what):
    samples = copy.deepcopy(narration_scene("rope_visualisation").probes["pointer"])
    for s in samples:
        if what == "arrow 3° further":
            s["arrow"][1] = _rotated(s["arrow"][1], s["arrow"][0], 3.0)
        elif what == "arc 3° longer":
            s["arc"][2] = _rotated(s["arc"][2], s["arc"][0], 3.0)
        elif what == "turned label +5":
            s["turned"] = str(int(numbers_in(s["turned"])[-1]) + 5)
        elif what == "counter +1":
            s["counter"] = str(int(numbers_in(s["counter"])[-1]) + 1)
        else:
            s["step"] = s["step"].replace("30", "25")
    assert pointer_disagreements(samples)


# -- rope_visualisation / multi ---------------------------------------------------------------------
def clock_disagreements(samples) -> list[str]:
    """Each clock's "转过 X°" against its drawn hand (mod 360), and, at rest, against p × w_i."""
    out = []
    for s in samples:
        if not (s["on_screen"] and s["turned_on_screen"]):
            continue
        for i, (label, (a, b)) in enumerate(zip(s["turned"], s["hands"])):
            said = numbers_in(label)[-1]
            gap = signed_gap_deg(said % 360, direction_deg(a, b) % 360)
            if abs(gap) > DEG_TOL:
                out.append(f"frame {s['frame']}: clock {i}: label says {said:g}°, hand drawn {gap:+.2f}° off")
            if s["counter"] == s["p"]:  # at rest on a whole seat: the label is seat × speed
                want = np.degrees(s["counter"] * s["w"][i])
                if abs(said - want) > DEG_TOL:
                    out.append(f"frame {s['frame']}: clock {i}: label says {said:g}°, p × w is {want:.2f}°")
    return out


def test_clock_labels_equal_the_hands():
    scene = narration_scene("rope_visualisation")
    samples = scene.probes["clocks"]
    shown = [s for s in samples if s["on_screen"] and s["turned_on_screen"]]
    assert len(shown) > 60 and max(s["p"] for s in shown) == scene.MULTI_TO
    assert clock_disagreements(samples) == []
    w = mathcore.frequencies(8)
    last = shown[-1]
    assert [numbers_in(t)[-1] for t in last["turned"]] == [round(np.degrees(scene.MULTI_TO * wi)) for wi in w]


@pytest.mark.parametrize("what", ["hand 3° further", "label +2"])
def test_clock_checks_catch_a_perturbation(what):
    samples = copy.deepcopy(narration_scene("rope_visualisation").probes["clocks"])
    for s in samples:
        if what == "hand 3° further":
            a, b = s["hands"][1]
            s["hands"][1] = [a, _rotated(b, a, 3.0)]
        else:
            s["turned"][2] = str(int(numbers_in(s["turned"][2])[-1]) + 2)
    assert clock_disagreements(samples)


# -- rope_visualisation / curve ---------------------------------------------------------------------
def _seat(s, key) -> float:
    return (s[key][0] - s["seat0_x"]) / (s["seat1_x"] - s["seat0_x"])


def curve_disagreements(samples) -> list[str]:
    out = []
    words = [s for s in samples if s["words_on_screen"]]
    out += disagreements(
        words,
        shown=lambda s: True,
        what="隔 N 个位置 vs the drawn words",
        said=lambda s: numbers_in(s["gap_text"])[-1],
        drawn=lambda s: _seat(s, "k_dot") - _seat(s, "q_dot"),
        tol=EXACT,
    )
    out += disagreements(
        words,
        shown=lambda s: s["m_on_screen"],
        what="q 在位置 vs the drawn q",
        said=lambda s: numbers_in(s["m_text"])[-1],
        drawn=lambda s: round(_seat(s, "q_dot")),
        tol=0,
    )
    point = [s for s in words if s["point_on_screen"] and s["on_screen"]]
    out += disagreements(
        point,
        shown=lambda s: True,
        what="the curve's point sits at the words' gap",
        said=lambda s: numbers_in(s["gap_text"])[-1],
        drawn=lambda s: s["point"][0],
        tol=EXACT,
    )
    out += disagreements(
        point,
        shown=lambda s: True,
        what="the point is on the drawn curve",
        said=lambda s: s["point"][1],
        drawn=lambda s: float(np.interp(s["point"][0], *np.asarray(s["drawn"]).T)),
        tol=EXACT,
    )
    return out


def test_curve_labels_equal_the_drawing():
    scene = narration_scene("rope_visualisation")
    samples = scene.probes["curve"]
    words = [s for s in samples if s["words_on_screen"]]
    assert len(words) > 60 and max(round(_seat(s, "q_dot"), 6) for s in words) == scene.SHIFT
    assert sum(s["point_on_screen"] and s["m_on_screen"] and s["on_screen"] for s in samples) > 30
    assert curve_disagreements(samples) == []
    s = [s for s in samples if s["point_on_screen"]][-1]
    assert s["point"][1] == pytest.approx(
        float(mathcore.rope_scores(scene.CURVE_Q, scene.CURVE_K, [scene.GAP])[0]), abs=1e-9
    )


@pytest.mark.parametrize("what", ["k drawn one seat later", "gap label 5", "point off the curve", "q label +1"])
def test_curve_checks_catch_a_perturbation(what):
    samples = copy.deepcopy(narration_scene("rope_visualisation").probes["curve"])
    for s in samples:
        if what == "k drawn one seat later":
            s["k_dot"][0] += s["seat1_x"] - s["seat0_x"]
        elif what == "gap label 5":
            s["gap_text"] = "隔5个位置"
        elif what == "point off the curve":
            s["point"][1] += 0.05
        else:
            s["m_text"] = str(int(numbers_in(s["m_text"])[-1]) + 1)
    assert curve_disagreements(samples)
