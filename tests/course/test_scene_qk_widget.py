"""qk_widget (word_order, class QKWidget): the q/k widget: readouts equal mathcore, planes and clocks read the same
angles, the labels equal the drawn arrows, and q, k and v are named (v unturned).

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import mathcore
from mathcore.scores import angle_between
from narration import figures
from tests.support.course_scenes import built_scene, narration_scene
from tests.support.drawn import direction_deg, disagreements, last_number, length, signed_gap_deg
from tests.support.qk_labels import (
    ANGLE_TOL,
    SCORE_TOL,
    dir_of,
    forward_rad,
    pair_in,
    perturbed,
    places,
    probes,
    rope_angle_disagreements,
    rotated,
    same_angle_disagreements,
    score_disagreements,
    turn_off,
    wavelength_value,
)
from tests.support.scene_probes import last_before

TOL = 1e-6


def built(scene_id: str):
    return narration_scene(scene_id)


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
            assert abs(s["score"] - np.cos(np.radians(s["gap"]))) <= TOL  # unit arrows: score = cos(angle)
    (i0, j0), (i1, j1) = figures.WIDGET_SEATS
    for cue, (i, j) in (("score", (i0, j0)), ("slide", (i1, j1))):
        s = last_before(scene.probes["widget"], scene.plan.cue(cue).end_frame)
        assert (s["i"], s["j"]) == (i, j)
        assert s["gap_shown"] == figures.value("widget_gap_deg")
        assert s["score_shown"] == f"{mathcore.rope_score(q, k, i, j, theta):.2f}"  # 2 places on screen
        assert float(s["score_shown"]) == pytest.approx(float(figures.value("widget_score")))  # the voice says 0.5
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
        assert s["p"] == seat_at[s["frame"]]  # hands and arrows read the same seat


# =============================================================================================
# the q/k widget
# =============================================================================================
def arrow_label_disagreements(samples: list[dict]) -> list[str]:
    """``长度 = 1`` vs the drawn q; ``q = (1, 0)`` and ``q = (0, 1)`` vs the drawn tip (vector units); and the
    premise that k starts on q: while k is drawn before any seat turns it, it coincides with q."""
    out = disagreements(
        samples,
        shown=lambda s: s["len_on"],
        said=lambda s: last_number(s["len_text"]),
        drawn=lambda s: length(s["q_start"], s["q_end"]) / s["unit"],
        tol=0.5 + 1e-6,
        what="length label vs q",
    )
    for s in samples:
        tip = (np.asarray(s["q_end"]) - np.asarray(s["q_start"]))[:2] / s["unit"]
        for text, on in zip(s["name_texts"], s["names_on"]):
            if on:
                said = np.array(pair_in(text))
                if np.abs(said - tip).max() > 0.005 + 1e-6:
                    out.append(
                        f"frame {s['frame']}: label says q = {tuple(said)}, drawn tip is {tuple(np.round(tip, 3))}"
                    )
    return out


def k_starts_on_q(samples: list[dict]) -> list[str]:
    out = []
    for s in samples:
        if s["k_on"] and not s.get("turned", False):
            if (
                abs(signed_gap_deg(dir_of(s, "q"), dir_of(s, "k"))) > 1e-6
                or abs(length(s["q_start"], s["q_end"]) - length(s["k_start"], s["k_end"])) > 1e-6
            ):
                out.append(f"frame {s['frame']}: k is drawn apart from q before any seat turns it")
    return out


def widget_turn_disagreements(samples: list[dict], q0: float, k0: float) -> list[str]:
    """``q 转 60°`` / ``k 转 120°`` vs how far each drawn arrow turned from where it started (``q0``, ``k0``), and
    vs the seat its chip is drawn on times the θ on screen."""
    out = []
    for s in samples:
        theta = last_number(s["theta_text"]) if s["theta_on"] else None
        seat_w = s["seat1_x"] - s["seat0_x"]
        for who, start, label_on, text, chip_x, chip_on in (
            ("q", q0, s["readouts_on"][0], s["q_turn_text"], s["q_chip_x"], s["chips_on"][0]),
            ("k", k0, s["readouts_on"][1], s["k_turn_text"], s["k_chip_x"], s["chips_on"][1]),
        ):
            if not label_on:
                continue
            said = last_number(text)
            off = turn_off(said, start, dir_of(s, who))
            if off > ANGLE_TOL:
                out.append(f"frame {s['frame']}: label says {who} turned {said:g}°, the drawn arrow {off:.3g}° off")
            if chip_on and theta is not None:
                seat = (chip_x - s["seat0_x"]) / seat_w
                if abs(said - seat * theta) > ANGLE_TOL:
                    out.append(
                        f"frame {s['frame']}: {who} sits at seat {seat:.3f} (θ = {theta:g}°) but the label "
                        f"says it turned {said:g}°"
                    )
    return out


def plane_disagreements(samples: list[dict]) -> list[str]:
    """The planes: every drawn arrow has turned s·θᵢ for one seat s (θᵢ as its label states, radians per
    seat), and the seat counter shows s (whole seats reached)."""
    out = []
    for s in samples:
        if not (s["arrows_on"] and all(s["speeds_on"])):
            continue
        thetas = [last_number(t) for t in s["speed_texts"]]
        # "θ = 0.1" claims the value; "θ ≈ 0.0001" only to half a unit of its last place
        halves = [0.5 * 10.0 ** -places(numbers_in_text(t)) if "≈" in t else 0.0 for t in s["speed_texts"]]
        seat = forward_rad(direction_deg(*s["arrows"][1])) / thetas[1]
        for i, (arrow, th, half) in enumerate(zip(s["arrows"], thetas, halves)):
            tol = 0.05 + np.degrees(seat * half)
            off = abs(signed_gap_deg(np.degrees(seat * th) % 360, direction_deg(*arrow) % 360))
            if off > tol:
                out.append(f"frame {s['frame']}: plane {i} (θ = {th:g}) is {off:.3g}° off seat {seat:.3f}")
        if s["counter_on"] and abs(last_number(s["counter_text"]) - np.floor(seat + 1e-6)) > 1e-9:
            out.append(f"frame {s['frame']}: counter says {s['counter_text']}, the arrows stand at seat {seat:.3f}")
    return out


def numbers_in_text(text: str) -> str:
    return re.findall(r"\d+(?:\.\d+)?", text)[-1]


@pytest.fixture(scope="module")
def widget():
    arrow = probes("qk_widget", "arrow_drawn")
    drawn = probes("qk_widget", "widget_drawn")
    return arrow, drawn, dir_of(arrow[0], "q"), dir_of(drawn[0], "k")


def test_widget_labels_equal_the_drawing(widget):
    arrow, drawn, q0, k0 = widget
    assert sum(s["len_on"] for s in arrow) > 20 and sum(any(s["names_on"]) for s in arrow) > 20
    assert not arrow_label_disagreements(arrow)
    assert sum(s["k_on"] for s in arrow) > 20
    rule_end = built_scene("qk_widget")[0].plan.cue("rule").end_frame
    assert not k_starts_on_q([s for s in arrow if s["frame"] <= rule_end])
    assert sum(s["readouts_on"][2] for s in drawn) > 100 and sum(s["readouts_on"][3] for s in drawn) > 50
    assert not rope_angle_disagreements([{**s, "gap_on": s["readouts_on"][2]} for s in drawn])
    assert not score_disagreements(drawn, shown="readouts_on")
    assert sum(s["readouts_on"][0] and s["chips_on"][0] and s["theta_on"] for s in drawn) > 100
    assert not widget_turn_disagreements(drawn, q0, k0)
    planes = probes("qk_widget", "planes_drawn")
    assert sum(s["arrows_on"] and all(s["speeds_on"]) for s in planes) > 20
    assert not plane_disagreements(planes)
    on = lambda s: s["hands_on"] and s["arrows_on"]  # noqa: E731
    assert sum(on(s) for s in planes) > 20
    assert not same_angle_disagreements(planes, arrows="arrows", hands="hands", on=on)


def test_widget_drawing_equals_mathcore(widget):
    arrow, drawn, q0, k0 = widget
    q, k = figures.WIDGET_Q, figures.WIDGET_K
    assert q0 == pytest.approx(np.degrees(np.arctan2(q[1], q[0])), abs=1e-9)  # q = (1, 0) points right
    assert k0 == pytest.approx(np.degrees(np.arctan2(k[1], k[0])), abs=1e-9)  # and k starts on it
    assert length(arrow[0]["q_start"], arrow[0]["q_end"]) / arrow[0]["unit"] == pytest.approx(np.linalg.norm(q))
    theta_deg = figures.THETA_DEG
    scene = built_scene("qk_widget")[0]
    (i0, j0), (i1, j1) = figures.WIDGET_SEATS
    for cue, (m, n) in (("score", (i0, j0)), ("slide", (i1, j1))):
        s = [x for x in drawn if x["frame"] < scene.plan.cue(cue).end_frame][-1]
        assert last_number(s["q_turn_text"]) == m * theta_deg and last_number(s["k_turn_text"]) == n * theta_deg
        assert last_number(s["gap_text"]) == float(figures.value("widget_gap_deg"))
        assert last_number(s["score_text"]) == pytest.approx(
            mathcore.rope_score(q, k, m, n, np.radians(theta_deg)), abs=SCORE_TOL
        )
    planes = [s for s in probes("qk_widget", "planes_drawn") if all(s["speeds_on"])]
    w = mathcore.frequencies(scene.PLANE_D)[list(scene.PLANE_INDICES)]
    shown = [last_number(t) for t in planes[-1]["speed_texts"]]
    assert np.allclose(shown, w, atol=0.5e-4)  # ω = 1, 0.1, …, ≈ 0.0001 rad/seat
    assert all(t.startswith("ω") for t in planes[-1]["speed_texts"])  # a plane's speed is ω (转速), not θ
    # one attention head's q and k, as the narration says: PLANE_D dimensions, half as many planes
    said = scene.plan.cue("planes").text
    assert f"{scene.PLANE_D} 维" in said and f"{len(mathcore.frequencies(scene.PLANE_D))} 个平面" in said
    assert "注意力头" in said and "转速 ω" in said


def test_widget_checks_catch_a_wrong_drawing_or_label(widget):
    arrow, drawn, q0, k0 = widget
    has_len = lambda s: s["len_on"]  # noqa: E731
    assert arrow_label_disagreements(perturbed(arrow, has_len, lambda s: {**s, "len_text": "2"}))
    assert arrow_label_disagreements(
        perturbed(
            arrow,
            has_len,
            lambda s: {
                **s,
                "q_end": (
                    np.asarray(s["q_start"]) + 1.3 * (np.asarray(s["q_end"]) - np.asarray(s["q_start"]))
                ).tolist(),
            },
        )
    )
    named = lambda s: any(s["names_on"])  # noqa: E731
    assert arrow_label_disagreements(perturbed(arrow, named, lambda s: rotated(s, "q", 20.0)))
    assert arrow_label_disagreements(perturbed(arrow, named, lambda s: {**s, "name_texts": ["q=(0,1)", "q=(1,0)"]}))
    k_shown = lambda s: s["k_on"]  # noqa: E731
    assert k_starts_on_q(perturbed(arrow, k_shown, lambda s: rotated(s, "k", 5.0)))

    gap_rows = [{**s, "gap_on": s["readouts_on"][2]} for s in drawn]
    late = lambda s: s["readouts_on"][2] and s["readouts_on"][3]  # noqa: E731
    assert rope_angle_disagreements(perturbed(gap_rows, late, lambda s: rotated(s, "k", 15.0)))
    assert rope_angle_disagreements(perturbed(gap_rows, late, lambda s: {**s, "gap_text": "90"}))
    assert score_disagreements(perturbed(drawn, late, lambda s: rotated(s, "k", 15.0)), shown="readouts_on")
    assert score_disagreements(perturbed(drawn, late, lambda s: {**s, "score_text": "0.87"}), shown="readouts_on")
    turning = lambda s: s["readouts_on"][0]  # noqa: E731
    assert widget_turn_disagreements(perturbed(drawn, turning, lambda s: rotated(s, "q", 30.0)), q0, k0)
    assert widget_turn_disagreements(perturbed(drawn, turning, lambda s: {**s, "k_turn_text": "90"}), q0, k0)
    assert widget_turn_disagreements(
        perturbed(
            drawn,
            lambda s: s["readouts_on"][0] and s["chips_on"][0],
            lambda s: {**s, "q_chip_x": s["q_chip_x"] + (s["seat1_x"] - s["seat0_x"])},
        ),
        q0,
        k0,
    )

    planes = probes("qk_widget", "planes_drawn")
    shown = lambda s: s["arrows_on"] and all(s["speeds_on"])  # noqa: E731
    assert plane_disagreements(perturbed(planes, shown, lambda s: {**s, "speed_texts": ["θ=1"] * 5}))
    assert plane_disagreements(
        perturbed(
            planes,
            lambda s: shown(s) and s["counter_on"],
            lambda s: {**s, "counter_text": str(int(last_number(s["counter_text"])) + 1)},
        )
    )

    def turn_plane(s):
        a, b = np.asarray(s["arrows"][2][0]), np.asarray(s["arrows"][2][1])
        s["arrows"][2][1] = (a + np.array([-(b - a)[1], (b - a)[0], 0.0])).tolist()
        return s

    assert plane_disagreements(perturbed(planes, shown, turn_plane))
    on = lambda s: s["hands_on"] and s["arrows_on"]  # noqa: E731
    assert same_angle_disagreements(perturbed(planes, on, turn_plane), arrows="arrows", hands="hands", on=on)


def test_widget_names_q_k_v_and_keeps_v_unturned():
    """Lesson 2 first uses q, k, v in qk_widget.placement: named there (voice and screen), and v stays unturned
    (said in after_qk, shown under the chain) before the quiz's answer relies on it."""
    from tests.support.drawn import typst_plain

    scene = built_scene("qk_widget")[0]
    shown = scene.probes["placement"][0]
    legend = typst_plain(shown["legend"])
    for name in ("q查询向量", "k键向量", "v值向量"):
        assert name in legend, legend
    assert shown["v_note"].startswith("v不转")
    said = scene.plan.cue("placement").text
    assert all(name in said for name in ("查询向量 q", "键向量 k", "值向量 v"))
    assert "v 不转" in scene.plan.cue("after_qk").text
    assert "训练" in scene.plan.cue("slide").text  # distance-only comes with its length caveat


def test_pair_and_number_readers():
    assert pair_in("(m,n)=(2,5)") == (2.0, 5.0) and pair_in("q=(0,−1)") == (0.0, -1.0)
    assert wavelength_value("一圈 60,611 步") == (60611.0, 0.5)
    assert wavelength_value("一圈 ≈6.28 座") == (6.28, 0.005)
    assert wavelength_value("一圈约 6.1 万座") == (61000.0, 500.0)
    assert turn_off(210.0, 0.0, -150.0) == pytest.approx(0.0)
