"""rope_invariance (trig_to_rope, class RopeInvariance): q and k as mathcore.rope_2d turns them, the three seat
pairs' equal scores, the score curve, and the angle and score labels against the drawn arrows.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import mathcore
from narration import figures
from tests.support.course_scenes import narration_scene, narration_scene_plan, worker_media
from tests.support.drawn import direction_deg, disagreements, numbers_in, signed_gap_deg
from tests.support.scene_probes import at_frame

TOL = 1e-6
DEG_TOL = 0.05  # degrees: labels are whole degrees of exactly drawn angles
SCORE_TOL = 0.006  # two-decimal readouts (rounding 0.005) of exact scores
ROPE = ("rope_invariance",)


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
        q[2 * plane : 2 * plane + 2], k[2 * plane : 2 * plane + 2] = figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K
        drawn = np.array(drawn)
        assert np.allclose(drawn[:, 0], curve["distances"], atol=TOL)
        assert np.allclose(drawn[:, 1], mathcore.rope_scores(q, k, drawn[:, 0]), atol=TOL)


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

    out += disagreements(
        samples,
        shown=line(0),
        said=said(0),
        what="starting lead of k",
        drawn=lambda s: _gap(s, "ghost_q_end", "ghost_k_end"),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=lambda s: s["lines_on_screen"][0] and s["start_arc_on_screen"],
        said=said(0),
        what="starting arc",
        drawn=lambda s: signed_gap_deg(
            direction_deg(s["q_start"], s["start_arc"][0]), direction_deg(s["q_start"], s["start_arc"][1])
        ),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=line(1),
        said=said(1),
        what="q's turn",
        drawn=lambda s: _turn(s, "ghost_q_end", "q_end"),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=line(2),
        said=said(2),
        what="k's turn",
        drawn=lambda s: _turn(s, "ghost_k_end", "k_end"),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=line(3),
        said=said(3),
        what="k's extra turn",
        drawn=lambda s: (_turn(s, "ghost_k_end", "k_end") - _turn(s, "ghost_q_end", "q_end")) % 360,
        tol=DEG_TOL,
    )
    out += disagreements(
        samples, shown=line(4), said=said(4), what="angle between q and k", drawn=lambda s: _gap(s), tol=DEG_TOL
    )
    out += disagreements(
        samples,
        shown=lambda s: s["lines_on_screen"][4] and s["arc_on_screen"],
        said=said(4),
        what="arc between q and k",
        drawn=lambda s: (
            signed_gap_deg(direction_deg(s["q_start"], s["arc_start"]), direction_deg(s["q_start"], s["arc_end"])) % 360
        ),
        tol=DEG_TOL,
    )
    out += disagreements(
        samples,
        shown=lambda s: s["score_on_screen"],
        said=lambda s: _score(s["score_text"]),
        what="score = |q||k| cos(drawn angle)",
        drawn=lambda s: np.linalg.norm(s["q"]) * np.linalg.norm(s["k"]) * np.cos(np.radians(_gap(s))),
        tol=SCORE_TOL,
    )
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
        out += disagreements(
            final,
            shown=lambda s: True,
            what="pair angle from its seats",
            said=lambda s: (lead + (numbers_in(s["title"])[1] - numbers_in(s["title"])[0]) * theta) % 360,
            drawn=_gap,
            tol=DEG_TOL,
        )
        out += disagreements(
            final,
            shown=lambda s: True,
            what="summary angle",
            said=lambda s: line[s["frame"]][1],
            drawn=_gap,
            tol=DEG_TOL,
        )
        out += disagreements(
            final,
            shown=lambda s: s["score_on_screen"],
            what="pair score vs drawn angle",
            said=lambda s: _score(s["score_text"]),
            drawn=lambda s: np.linalg.norm(s["q"]) * np.linalg.norm(s["k"]) * np.cos(np.radians(_gap(s))),
            tol=SCORE_TOL,
        )
        out += disagreements(
            final,
            shown=lambda s: True,
            what="summary score",
            said=lambda s: line[s["frame"]][2],
            drawn=lambda s: _score(s["score_text"]),
            tol=SCORE_TOL,
        )
    return out


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
        elif what == "angle label 90°":  # the old label "夹角 = (n − m)θ = 90°"
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


@pytest.mark.parametrize("scene_id", ROPE)
def test_rope_labels_equal_the_drawing(scene_id):
    scene = narration_scene(scene_id)
    main = scene.probes["main"]
    for i in range(5):  # every label was on screen for a while, with the arcs it speaks of
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
        abs=0.005,
    )
    assert numbers_in(last["lines"][4])[-1] == pytest.approx(float(figures.value("rope_pair_gap_deg")))
