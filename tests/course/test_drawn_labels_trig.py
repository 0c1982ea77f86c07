"""What a label says equals what is drawn: trig_to_rope's scenes and the RoPE scenes of both lessons.

Each check reads the samples a scene's ``watch()`` recorded on every drawn frame (the label's text
as drawn, and raw points of the geometry) and returns the disagreements; the real scene must give
none, and perturbed samples (the drawing moved, or the label's value changed) must give some.
"""
from __future__ import annotations

from tests.support.course_scenes import worker_media
import copy
from pathlib import Path

import numpy as np
import pytest

import mathcore
from narration import figures
from tests.support.course_scenes import narration_scene, narration_scene_plan
from tests.support.drawn import direction_deg, disagreements, numbers_in, signed_gap_deg

ROPE = ("rope_invariance", "rope_gap_only")
DEG_TOL = 0.05            # degrees: labels are whole degrees of exactly drawn angles
SCORE_TOL = 0.006         # two-decimal readouts (rounding 0.005) of exact scores


def _dir(s, key, origin="q_start"):
    return direction_deg(s[origin], s[key])


def _gap(s, a="q_end", b="k_end"):
    """The angle from the drawn arrow a to the drawn arrow b, counter-clockwise, in [0, 360)."""
    return signed_gap_deg(_dir(s, a), _dir(s, b)) % 360


def _turn(s, ghost, now):
    return signed_gap_deg(_dir(s, ghost), _dir(s, now)) % 360


def _score(text: str) -> float:
    return float(text.replace("−", "-"))


# -- RoPE: the main pair --------------------------------------------------------------------
def rope_main_disagreements(samples) -> list[str]:
    out = []

    def line(i):
        return lambda s: s["lines_on_screen"][i]

    def said(i, k=-1):
        return lambda s: numbers_in(s["lines"][i])[k]
    out += disagreements(samples, shown=line(0), said=said(0), what="starting lead of k",
                         drawn=lambda s: _gap(s, "ghost_q_end", "ghost_k_end"), tol=DEG_TOL)
    out += disagreements(samples, shown=lambda s: s["lines_on_screen"][0] and s["start_arc_on_screen"],
                         said=said(0), what="starting arc",
                         drawn=lambda s: signed_gap_deg(direction_deg(s["q_start"], s["start_arc"][0]),
                                                        direction_deg(s["q_start"], s["start_arc"][1])), tol=DEG_TOL)
    out += disagreements(samples, shown=line(1), said=said(1), what="q's turn",
                         drawn=lambda s: _turn(s, "ghost_q_end", "q_end"), tol=DEG_TOL)
    out += disagreements(samples, shown=line(2), said=said(2), what="k's turn",
                         drawn=lambda s: _turn(s, "ghost_k_end", "k_end"), tol=DEG_TOL)
    out += disagreements(samples, shown=line(3), said=said(3), what="k's extra turn",
                         drawn=lambda s: (_turn(s, "ghost_k_end", "k_end") - _turn(s, "ghost_q_end", "q_end")) % 360,
                         tol=DEG_TOL)
    out += disagreements(samples, shown=line(4), said=said(4), what="angle between q and k",
                         drawn=lambda s: _gap(s), tol=DEG_TOL)
    out += disagreements(samples, shown=lambda s: s["lines_on_screen"][4] and s["arc_on_screen"], said=said(4),
                         what="arc between q and k",
                         drawn=lambda s: signed_gap_deg(direction_deg(s["q_start"], s["arc_start"]),
                                                        direction_deg(s["q_start"], s["arc_end"])) % 360, tol=DEG_TOL)
    out += disagreements(samples, shown=lambda s: s["score_on_screen"], said=lambda s: _score(s["score_text"]),
                         what="score = |q||k| cos(drawn angle)",
                         drawn=lambda s: np.linalg.norm(s["q"]) * np.linalg.norm(s["k"]) * np.cos(np.radians(_gap(s))),
                         tol=SCORE_TOL)
    return out


def rope_pairs_disagreements(pairs: list[list[dict]], same: list[dict]) -> list[str]:
    """Each pair: its title's seats give the drawn angle lead + (n − m)θ; the summary line's angle and
    score equal every pair's drawn angle and shown score while it is on screen."""
    out = []
    lead, theta = figures.ROPE_PAIR_K_LEAD_DEG, figures.THETA_DEG
    on = {s["frame"] for s in same if s["on_screen"]}
    line = {s["frame"]: numbers_in(s["text"]) for s in same}
    for samples in pairs:
        final = [s for s in samples if s["frame"] in on]
        out += disagreements(final, shown=lambda s: True, what="pair angle from its seats",
                             said=lambda s: (lead + (numbers_in(s["title"])[1] - numbers_in(s["title"])[0]) * theta) % 360,
                             drawn=_gap, tol=DEG_TOL)
        out += disagreements(final, shown=lambda s: True, what="summary angle", said=lambda s: line[s["frame"]][1],
                             drawn=_gap, tol=DEG_TOL)
        out += disagreements(final, shown=lambda s: s["score_on_screen"], what="pair score vs drawn angle",
                             said=lambda s: _score(s["score_text"]),
                             drawn=lambda s: np.linalg.norm(s["q"]) * np.linalg.norm(s["k"]) * np.cos(np.radians(_gap(s))),
                             tol=SCORE_TOL)
        out += disagreements(final, shown=lambda s: True, what="summary score", said=lambda s: line[s["frame"]][2],
                             drawn=lambda s: _score(s["score_text"]), tol=SCORE_TOL)
    return out


@pytest.mark.parametrize("scene_id", ROPE)
def test_rope_labels_equal_the_drawing(scene_id):
    scene = narration_scene(scene_id)
    main = scene.probes["main"]
    for i in range(5):      # every label was on screen for a while, with the arcs it speaks of
        assert sum(s["lines_on_screen"][i] for s in main) > 20
    assert sum(s["score_on_screen"] and s["arc_on_screen"] for s in main) > 10
    assert rope_main_disagreements(main) == []
    pairs = [scene.probes[f"pair{j}"] for j in range(3)]
    assert sum(s["on_screen"] for s in scene.probes["same"]) > 10
    assert rope_pairs_disagreements(pairs, scene.probes["same"]) == []
    # and the labels say mathcore's values
    last = [s for s in main if s["score_on_screen"]][-1]
    assert _score(last["score_text"]) == pytest.approx(
        mathcore.rope_score(figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K, scene.M, scene.N, np.radians(figures.THETA_DEG)),
        abs=0.005)
    assert numbers_in(last["lines"][4])[-1] == pytest.approx(float(figures.value("rope_pair_gap_deg")))


def _turned(p, center, deg):
    a = np.radians(deg)
    v = np.asarray(p, dtype=float) - np.asarray(center, dtype=float)
    x, y = v[0] * np.cos(a) - v[1] * np.sin(a), v[0] * np.sin(a) + v[1] * np.cos(a)
    return [center[0] + x, center[1] + y, 0.0]


@pytest.mark.parametrize("what", ["k drawn 3° further", "q drawn 3° further", "angle label 90°", "score label"])
def test_rope_checks_catch_a_perturbation(what):
    scene = narration_scene("rope_invariance")
    main = copy.deepcopy(scene.probes["main"])
    for s in main:
        if what == "k drawn 3° further":
            s["k_end"] = _turned(s["k_end"], s["q_start"], 3.0)
        elif what == "q drawn 3° further":
            s["q_end"] = _turned(s["q_end"], s["q_start"], 3.0)
        elif what == "angle label 90°":                 # the old label "夹角 = (n − m)θ = 90°"
            s["lines"][4] = "夹角=(n−m)θ=90°"
        else:
            s["score_text"] = "0.70"
    assert rope_main_disagreements(main)
    pairs = [copy.deepcopy(scene.probes[f"pair{j}"]) for j in range(3)]
    for s in pairs[1]:
        s["k_end"] = _turned(s["k_end"], s["q_start"], 3.0)
    assert rope_pairs_disagreements(pairs, scene.probes["same"])


def test_the_old_rope_angle_label_fails_when_put_back():
    """The scene as it was: "夹角 = (n − m)θ = 90°" beside the drawn arrows (their angle is the lead + 90°)."""
    from manim import VGroup

    from coursekit.render.viewer_check import build_dry_run
    from scenes import theme
    from scenes.rope_invariance import RopeInvariance

    class OldLabel(RopeInvariance):
        def info_lines(self, seat, lead, gain):
            lines = super().info_lines(seat, lead, gain)
            old = theme.body_text(f"夹角 = (n − m)θ = {gain:g}°", color=theme.ANGLE)
            return VGroup(*lines[:4], old)

    plan = narration_scene_plan("rope_invariance")
    scene, _ = build_dry_run(OldLabel, plan, media_dir=worker_media())
    found = rope_main_disagreements(scene.probes["main"])
    assert found and all("angle between q and k" in f or "arc between" in f for f in found)
    assert f"label says 90, drawing shows {figures.value('rope_pair_gap_deg')}" in found[0]


# -- unit_circle: the readouts and the drawn pointer --------------------------------------------
def unit_circle_disagreements(samples) -> list[str]:
    """θ, cos θ and sin θ as shown, against the drawn pointer, its angle arc and its projections."""
    out = []
    on = [s for s in samples if s["readout_on_screen"]]

    def pointer_deg(s):
        return direction_deg(s["center"], s["pointer_point"]) % 360

    def reading(s, axis):
        return (s["pointer_point"][axis] - s["center"][axis]) / s["circle_radius"]
    out += disagreements(on, shown=lambda s: True, said=lambda s: numbers_in(s["deg_text"])[0], what="θ readout",
                         drawn=lambda s: round(pointer_deg(s)) % 360, tol=0)
    out += disagreements(on, shown=lambda s: True, said=lambda s: numbers_in(s["cos_text"])[0], what="cos readout",
                         drawn=lambda s: reading(s, 0), tol=0.0051)
    out += disagreements(on, shown=lambda s: True, said=lambda s: numbers_in(s["sin_text"])[0], what="sin readout",
                         drawn=lambda s: reading(s, 1), tol=0.0051)
    proj = [s for s in on if s["projections_shown"]]
    out += disagreements(proj, shown=lambda s: True, said=lambda s: numbers_in(s["cos_text"])[0],
                         what="cos segment", drawn=lambda s: (s["cos_end"][0] - s["center"][0]) / s["circle_radius"],
                         tol=0.0051)
    out += disagreements(proj, shown=lambda s: True, said=lambda s: numbers_in(s["sin_text"])[0],
                         what="sin segment", drawn=lambda s: (s["sin_end"][1] - s["center"][1]) / s["circle_radius"],
                         tol=0.0051)
    out += disagreements([s for s in on if numbers_in(s["deg_text"])[0] > 2], shown=lambda s: True,
                         said=lambda s: numbers_in(s["deg_text"])[0], what="angle arc",
                         drawn=lambda s: direction_deg(s["center"], s["arc_end"]) % 360, tol=0.51)
    out += disagreements(samples, shown=lambda s: s["zero_on_screen"], said=lambda s: 0.0, what="the 0° label",
                         drawn=lambda s: signed_gap_deg(0.0, pointer_deg(s)), tol=DEG_TOL)
    return out


def test_unit_circle_readouts_equal_the_pointer():
    scene = narration_scene("unit_circle")
    samples = scene.probes["pointer"]
    on = [s for s in samples if s["readout_on_screen"]]
    assert len(on) > 200 and sum(s["projections_shown"] for s in on) > 100
    assert len({s["deg_text"] for s in on}) > 90                  # the readouts really move
    assert unit_circle_disagreements(samples) == []
    # what they say is mathcore's tip
    for s in on[::7]:
        x, y = mathcore.pointer_tip(s["theta"])
        assert numbers_in(s["cos_text"])[0] == pytest.approx(x, abs=0.005)
        assert numbers_in(s["sin_text"])[0] == pytest.approx(y, abs=0.005)


@pytest.mark.parametrize("what", ["pointer", "cos", "deg"])
def test_unit_circle_check_catches_a_perturbation(what):
    samples = copy.deepcopy(narration_scene("unit_circle").probes["pointer"])
    for s in samples:
        if what == "pointer":
            s["pointer_point"] = _turned(s["pointer_point"], s["center"], 2.0)
        elif what == "cos":
            s["cos_text"] = f"{numbers_in(s['cos_text'])[0] + 0.02:.2f}"
        else:
            s["deg_text"] = str(int(numbers_in(s["deg_text"])[0]) + 1)
    assert unit_circle_disagreements(samples)


# -- angle_addition / rot_composition: arcs, turns and the product -----------------------------
def angle_addition_disagreements(scene_probes) -> list[str]:
    out = []
    drawn = {s["frame"]: s for s in scene_probes["drawn"]}
    # "R(90°)(1, 0) = (0, 1)": while the product is on screen the arrow points where its result says
    prod = [dict(s, **drawn[s["frame"]]) for s in scene_probes["product"] if s["on_screen"]]
    res = lambda s: numbers_in(s["result"])                                  # noqa: E731
    out += disagreements(prod[-5:], shown=lambda s: True, what="product's x", said=lambda s: res(s)[0],
                         drawn=lambda s: (s["end"][0] - s["center"][0]) / s["unit_radius"], tol=0.006)
    out += disagreements(prod[-5:], shown=lambda s: True, what="product's y", said=lambda s: res(s)[1],
                         drawn=lambda s: (s["end"][1] - s["center"][1]) / s["unit_radius"], tol=0.006)
    # the length readout against the drawn arrow
    lengths = [dict(s, **drawn[s["frame"]]) for s in scene_probes["length"] if s["on_screen"]]
    out += disagreements(lengths, shown=lambda s: True, what="length", said=lambda s: numbers_in(s["shown"])[0],
                         drawn=lambda s: np.linalg.norm(np.subtract(s["end"], s["center"])[:2]) / s["unit_radius"],
                         tol=0.006)
    # "25°" and "40°" against their arcs; the arcs meet; the arrow ends where the second one does
    for s in scene_probes["arcs"]:
        c = drawn[s["frame"]]["center"]
        on1, lab1, on2, lab2 = s["on_screen"]
        if on1 and lab1:
            out += disagreements([s], shown=lambda _: True, what="first arc", said=lambda _: numbers_in(s["lab1"])[0],
                                 drawn=lambda _: signed_gap_deg(direction_deg(c, s["arc1"][0]), direction_deg(c, s["arc1"][1])),
                                 tol=DEG_TOL)
        if on2 and lab2:
            out += disagreements([s], shown=lambda _: True, what="second arc", said=lambda _: numbers_in(s["lab2"])[0],
                                 drawn=lambda _: signed_gap_deg(direction_deg(c, s["arc2"][0]), direction_deg(c, s["arc2"][1])),
                                 tol=DEG_TOL)
    # "R(40°) R(25°) = R(65°)": the vector and the ghost both point at 65°
    once = [s for s in scene_probes["once"] if s["on_screen"]]
    out += disagreements(once, shown=lambda s: True, what="two turns", said=lambda s: 65.0,
                         drawn=lambda s: direction_deg(s["center"], s["end"]) % 360, tol=DEG_TOL)
    out += disagreements(once, shown=lambda s: True, what="one turn", said=lambda s: 65.0,
                         drawn=lambda s: direction_deg(s["center"], s["ghost_end"]) % 360, tol=DEG_TOL)
    return out


def test_angle_addition_labels_equal_the_drawing():
    # (rot_composition, lesson 3, has its own scene class now: its checks live with that lesson's tests)
    probes = narration_scene("angle_addition").probes
    assert sum(s["on_screen"] for s in probes["product"]) > 20 and sum(s["on_screen"] for s in probes["length"]) > 10
    assert sum(all(s["on_screen"]) for s in probes["arcs"]) > 20 and sum(s["on_screen"] for s in probes["once"]) > 20
    assert angle_addition_disagreements(probes) == []


@pytest.mark.parametrize("what", ["vector", "arc", "label"])
def test_angle_addition_check_catches_a_perturbation(what):
    probes = copy.deepcopy(narration_scene("angle_addition").probes)
    if what == "vector":                      # the arrow turned back while "(0, 1)" is still shown
        for s in probes["drawn"]:
            s["end"] = _turned(s["end"], s["center"], -3.0)
    elif what == "arc":
        for s in probes["arcs"]:
            s["arc2"][1] = _turned(s["arc2"][1], probes["drawn"][0]["center"], 5.0)
    else:
        for s in probes["arcs"]:
            s["lab1"] = "30°"
    assert angle_addition_disagreements(probes)


# -- rope_turns: "seat p turns p × 30°", and "all lengths are 1.12" -------------------------------
def rope_turns_disagreements(samples) -> list[str]:
    """At rest (after the seats cue), each line's angle against its arrow's turn from the word
    vector named on screen, and the length line against every drawn arrow (scale from that word)."""
    out = []
    word = [s for s in samples if s["word_on_screen"]][-1]
    wx, wy = numbers_in(word["word"])[:2]
    base = float(np.degrees(np.arctan2(wy, wx)))
    unit = (word["ends"][0][0] - word["starts"][0][0]) / wx        # scene units per vector unit, as drawn
    for i in range(len(samples[0]["ends"])):
        out += disagreements(samples, shown=lambda s, i=i: s["lines_on_screen"][i] and s["on_screen"][i],
                             said=lambda s, i=i: numbers_in(s["lines"][i])[-1], what=f"seat line {i}",
                             drawn=lambda s, i=i: signed_gap_deg(base, direction_deg(s["starts"][i], s["ends"][i])) % 360,
                             tol=DEG_TOL)
        out += disagreements(samples, shown=lambda s, i=i: s["same_on_screen"] and s["on_screen"][i],
                             said=lambda s: numbers_in(s["same"])[0], what=f"length of arrow {i}",
                             drawn=lambda s, i=i: np.linalg.norm(np.subtract(s["ends"][i], s["starts"][i])[:2]) / unit,
                             tol=0.006)
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


# -- clock_row / clock_row_paper: the position counter, the speeds and the table against the hands ---
def clock_row_disagreements(samples, speeds) -> list[str]:
    """At rest on a whole position: every hand points at position × its speed (``speeds`` in
    radians per position: the labels' own values when shown); the table's last row reads the hands."""
    out = []
    rest = [s for s in samples if abs(s["p"] - round(s["p"])) < 1e-9]

    def hand(s, i):
        return direction_deg(s["hand_starts"][i], s["hand_ends"][i]) % 360

    def wrap(a):
        return (a + 180.0) % 360.0 - 180.0
    for i in range(len(speeds)):
        w = speeds[i]
        out += disagreements(rest, shown=lambda s: s["counter_on_screen"], what=f"clock {i} vs the position shown",
                             said=lambda s, w=w, i=i: wrap(np.degrees(numbers_in(s["counter_text"])[0] * w) - hand(s, i)),
                             drawn=lambda s: 0.0, tol=DEG_TOL)
        out += disagreements(rest, shown=lambda s: s["table_on_screen"] and round(s["p"]) == numbers_in(s["table_labels"][-1])[0],
                             what=f"table's last row, clock {i}", said=lambda s, i=i: numbers_in(s["table"][-1][i])[0],
                             drawn=lambda s, i=i: round(hand(s, i)) % 360, tol=0)
    return out


def _clock_speeds(scene_id):
    scene = narration_scene(scene_id)
    shown = [s for s in scene.probes["clocks"] if any(s["speeds_on_screen"])]
    if shown:                                     # the speeds written under the clocks
        return [numbers_in(t)[0] for t in shown[-1]["speed_texts"]], scene
    return list(scene.probes["clocks"][0]["w"]), scene


@pytest.mark.parametrize("scene_id", ["clock_row", "clock_row_paper"])
def test_clock_labels_equal_the_hands(scene_id):
    speeds, scene = _clock_speeds(scene_id)
    samples = scene.probes["clocks"]
    if scene_id == "clock_row":
        assert speeds == pytest.approx(list(mathcore.frequencies(8)))
    rest = [s for s in samples if abs(s["p"] - round(s["p"])) < 1e-9]
    assert {round(s["p"]) for s in rest if s["counter_on_screen"]} >= set(scene.STEPS)
    assert sum(s["table_on_screen"] and round(s["p"]) == scene.TABLE_POSITIONS[-1] for s in rest) > 10
    assert clock_row_disagreements(samples, speeds) == []


@pytest.mark.parametrize("what", ["hand", "speed", "table"])
def test_clock_check_catches_a_perturbation(what):
    speeds, scene = _clock_speeds("clock_row")
    samples = copy.deepcopy(scene.probes["clocks"])
    if what == "speed":
        speeds = list(speeds)
        speeds[1] *= 1.1
    for s in samples:
        if what == "hand":
            s["hand_ends"][2] = _turned(s["hand_ends"][2], s["hand_starts"][2], 1.0)
        elif what == "table":
            s["table"][-1][1] = "250°"
    assert clock_row_disagreements(samples, speeds)
