"""Group C scenes (rope_turns, qk_widget, minimal_rope, rope_visualisation, summary_table):
they draw mathcore's values. Frames and layout are checked for every scene by
tests/test_viewer_check.py. Each scene is built once per session from its real narration plan
(``conftest.built_scene``).
"""
from __future__ import annotations


import numpy as np
import pytest

import mathcore
from coursekit import figures
from mathcore.scores import angle_between, distance_changed, reorder, score_matrix
from scenes.mobjects.score_grid import format_cell
from tests.conftest import narration_scene

TOL = 1e-6
SCENES = ("rope_turns", "qk_widget", "minimal_rope", "rope_visualisation", "summary_table")


def built(scene_id: str):
    return narration_scene(scene_id)


def at_frame(samples, frame):
    hits = [s for s in samples if s["frame"] == frame]
    assert hits, f"no sample on frame {frame}"
    return hits[-1]


def last_before(samples, frame):
    hits = [s for s in samples if s["frame"] <= frame]
    assert hits, f"no sample before frame {frame}"
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


# -- qk_widget -------------------------------------------------------------------------------------
def test_qk_widget_readouts_equal_mathcore():
    scene = built("qk_widget")
    theta = np.radians(figures.THETA_DEG)
    q, k = np.asarray(figures.WIDGET_Q), np.asarray(figures.WIDGET_K)
    samples = [s for s in scene.probes["widget"] if s["gap_on_screen"]]
    assert len(samples) > 100
    for s in samples:
        tq, tk = mathcore.rope_2d(q, s["i"], theta), mathcore.rope_2d(k, s["j"], theta)
        assert np.allclose(s["q_tip"], tq, atol=TOL) and np.allclose(s["k_tip"], tk, atol=TOL)
        gap = np.degrees(angle_between(tq, tk))
        assert abs(s["gap"] - gap) <= TOL
        assert abs(s["q_turn"] - np.degrees(s["i"] * theta)) <= TOL
        assert abs(s["k_turn"] - np.degrees(s["j"] * theta)) <= TOL
        assert s["gap_shown"] == f"{gap:.0f}"
        if s["score_on_screen"]:
            assert abs(s["score"] - mathcore.rope_score(q, k, s["i"], s["j"], theta)) <= TOL
            assert abs(s["score"] - np.cos(np.radians(s["gap"]))) <= TOL      # unit arrows: score = cos(angle)
    (i0, j0), (i1, j1) = figures.WIDGET_SEATS
    for cue, (i, j) in (("score", (i0, j0)), ("slide", (i1, j1))):
        s = last_before(scene.probes["widget"], scene.plan.cue(cue).end_frame)
        assert (s["i"], s["j"]) == (i, j)
        assert s["gap_shown"] == "60" and s["score_shown"] == figures.value("widget_score")
    # sliding both seats together never changes the angle or the score
    slide = scene.plan.cue("slide")
    during = [s for s in samples if slide.start_frame <= s["frame"] < slide.end_frame]
    assert len({round(s["i"], 6) for s in during}) > 5
    assert all(abs(s["gap"] - 60.0) <= TOL and abs(s["score"] - figures.widget_scores()[0]) <= TOL for s in during)


def test_qk_widget_planes_and_clocks_read_the_same_angles():
    scene = built("qk_widget")
    w = mathcore.frequencies(scene.PLANE_D)[list(scene.PLANE_INDICES)]
    q = np.asarray(figures.WIDGET_Q)
    planes = [s for s in scene.probes["planes"] if s["on_screen"]]
    assert {round(s["p"]) for s in planes} >= {0, 4, 8, 14}
    for s in planes:
        assert np.allclose(s["w"], w)
        for tip, wi in zip(s["tips"], w):
            assert np.allclose(tip, mathcore.rope_2d(q, s["p"], wi), atol=TOL)
    clocks = [s for s in scene.probes["clocks"] if s["on_screen"]]
    assert clocks
    seat_at = {s["frame"]: s["p"] for s in scene.probes["planes"]}
    for s in clocks:
        wrapped = (np.asarray(s["hand_angles"]) - s["p"] * w + np.pi) % (2 * np.pi) - np.pi
        assert np.all(np.abs(wrapped) <= TOL)
        assert s["p"] == seat_at[s["frame"]]          # hands and arrows read the same seat


# -- minimal_rope ---------------------------------------------------------------------------------------
def _fmt(a):
    return [[format_cell(v) for v in row] for row in np.asarray(a)]


def test_minimal_rope_tables_equal_mathcore():
    scene = built("minimal_rope")
    x = figures.minimal_rope_input()
    seats = np.arange(x.shape[0])
    plain, roped = score_matrix(x), score_matrix(x, seats)
    assert np.allclose(roped, figures.minimal_rope_scores(x), atol=1e-12)
    assert np.allclose(plain, x @ x.T / np.sqrt(x.shape[1]), atol=1e-12)
    p0, p1 = scene.probes["plain"][0], scene.probes["roped"][0]
    assert p0["shown"] == _fmt(plain) and np.allclose(p0["values"], plain, atol=TOL)
    assert p1["shown"] == _fmt(roped) and np.allclose(p1["values"], roped, atol=TOL)
    assert scene.probes["speeds"][0]["shown"] == [figures.fmt_dec(wi, 3) for wi in mathcore.frequencies(8)]
    # RoPE keeps each word's self-score and changes the others
    changed = {tuple(c) for c in scene.probes["changed_by_rope"][0]["cells"]}
    assert not any(i == j for i, j in changed) and len(changed) > 10


def test_minimal_rope_shuffle_moves_plain_scores_and_changes_rope_scores():
    scene = built("minimal_rope")
    x = figures.minimal_rope_input()
    perm = np.asarray(figures.MINIMAL_ROPE_PERM)
    seats = np.arange(x.shape[0])
    s = scene.probes["shuffled"][0]
    assert s["perm"] == perm.tolist()
    assert s["row_labels"] == ["C", "A", "B", "F", "D", "E"]          # the words in their new seats
    # without RoPE the table is the old one moved: same numbers in new places
    assert np.allclose(s["plain_values"], reorder(score_matrix(x), perm), atol=TOL)
    assert np.allclose(s["plain_values"], score_matrix(x[perm]), atol=TOL)
    assert s["plain_shown"] == _fmt(score_matrix(x[perm]))
    # with RoPE the shuffled sentence's own scores are drawn
    new = score_matrix(x[perm], seats)
    assert np.allclose(s["roped_values"], new, atol=TOL)
    assert s["roped_shown"] == _fmt(new)
    moved = reorder(score_matrix(x, seats), perm)
    mask = distance_changed(perm)
    assert np.all(np.abs(new - moved)[mask] > 1e-3)          # differ where the seat offset changed
    assert np.all(np.abs(new - moved)[~mask] < 1e-12)        # and nowhere else
    assert s["outlined"] == mask.tolist()
    assert s["change_shown"] == figures.value("rope_shuffle_change")
    assert float(np.abs(new - moved).max()) == pytest.approx(figures.minimal_rope_shuffle_change(), abs=1e-12)


def test_scores_helpers():
    x = figures.minimal_rope_input()
    assert np.allclose(score_matrix(x, np.arange(6)), figures.minimal_rope_scores(x), atol=1e-12)
    perm = np.asarray(figures.MINIMAL_ROPE_PERM)
    assert np.allclose(score_matrix(x[perm]), reorder(score_matrix(x), perm), atol=1e-12)
    assert distance_changed([0, 1, 2]).sum() == 0
    assert distance_changed([2, 0, 1]).tolist() == [[False, True, True], [True, False, False], [True, False, False]]
    assert np.degrees(angle_between([1, 0], [0, 2])) == pytest.approx(90.0)
    assert angle_between([1, 0], [1, 0]) == 0.0


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
    w = mathcore.frequencies(scene.MULTI_D)[list(scene.MULTI_INDICES)]
    clocks = [s for s in scene.probes["clocks"] if s["on_screen"]]
    for s in clocks:
        wrapped = (np.asarray(s["hand_angles"]) - s["p"] * w + np.pi) % (2 * np.pi) - np.pi
        assert np.all(np.abs(wrapped) <= TOL)
    assert max(s["p"] for s in clocks) == scene.MULTI_TO
    q = np.asarray(scene.CURVE_Q)
    dist = np.linspace(0, scene.CURVE_MAX, 121)
    base_curve = mathcore.rope_scores(q, q, dist, m=0.0)
    curve = [s for s in scene.probes["curve"] if s["on_screen"]]
    shifted = [s for s in curve if s["m"] > 0]
    assert shifted and max(s["m"] for s in curve) == scene.SHIFT
    for s in shifted:
        drawn = np.asarray(s["drawn"])
        assert np.allclose(drawn[:, 0], dist, atol=1e-6)
        assert np.allclose(drawn[:, 1], mathcore.rope_scores(q, q, dist, m=s["m"]), atol=1e-6)
        assert np.allclose(drawn[:, 1], base_curve, atol=1e-6)      # the shape does not move


def nospace(text: str) -> str:
    """Manim's Text keeps its string without spaces."""
    return text.replace(" ", "")


# -- summary_table -----------------------------------------------------------------------------------------
def test_summary_table_rows_appear_with_their_cues():
    scene = built("summary_table")
    cls = type(scene)
    for short, concept, school, _, picture, model in cls.ROWS:
        row = scene.probes[f"row_{short}"][0]
        assert row["shown"] == [nospace(t) for t in (concept, school, picture, model)]
        assert all(row["on_screen"])
        assert row["frame"] <= scene.plan.cue(short).end_frame
    for short, _, text in cls.RECAPS:
        assert scene.probes[short][0]["shown"] == nospace(text)


def test_scores_docstring_examples():
    import doctest

    import mathcore.scores

    result = doctest.testmod(mathcore.scores, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0
