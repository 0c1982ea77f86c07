"""qk_widget (word_order, class QKWidget): why RoPE turns after the projections (the claim checked with numbers);
the q/k widget: lesson 1's pair recalled, readouts equal mathcore, the labels equal the drawn arrows; k's word
moves and its v does not turn; planes and the clocks over them read the same angles (same formula, the head's d); RoPE's three ticks (the arrows keep their
length); the slowest plane's dial (seen and unseen angles, a larger base) against mathcore; q, k and v named.

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
from tests.support.drawn import direction_deg, last_number, length, numbers_in, signed_gap_deg
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
    score_disagreements,
    turn_off,
    wavelength_value,
)
from tests.support.scene_probes import first_drawn, last_before

TOL = 1e-6
#: the widget's score readout has the places of its figure (−0.34): half a unit of the last one
WIDGET_SCORE_TOL = 0.5 * 10.0 ** -places(figures.value("rope_pair_score")) + 1e-6


def built(scene_id: str):
    return narration_scene(scene_id)


# -- qk_widget -------------------------------------------------------------------------------------
def test_qk_widget_readouts_equal_mathcore():
    scene = built("qk_widget")
    theta = np.radians(figures.THETA_DEG)
    q, k = np.asarray(figures.ROPE_PAIR_Q), np.asarray(figures.ROPE_PAIR_K)  # lesson 1's pair
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
            assert abs(s["score"] - np.cos(np.radians(s["gap"]))) <= TOL  # |q||k| = 1: score = cos(angle)
    # the recalled pair before {@move} (q on 0, k on 3) and the value beat's end (k's word on 1), as said
    (i0, j0), (i1, j1) = figures.VALUE_SEATS
    value = scene.plan.cue("value")
    for end, (i, j), said in (
        (value.bookmarks["move"], (i0, j0), "rope_pair_score"),
        (value.end_frame, (i1, j1), "value_score"),
    ):
        s = last_before(scene.probes["widget"], end)
        assert (s["i"], s["j"]) == (i, j)
        assert s["score_shown"] == figures.value(said)
        assert float(s["score_shown"].replace("−", "-")) == pytest.approx(
            mathcore.rope_score(q, k, i, j, theta), abs=0.005
        )


# =============================================================================================
# the q/k widget
# =============================================================================================
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
    drawn = probes("qk_widget", "widget_drawn")
    return drawn, dir_of(drawn[0], "q"), dir_of(drawn[0], "k")


def test_widget_labels_equal_the_drawing(widget):
    drawn, q0, k0 = widget
    assert sum(s["readouts_on"][2] for s in drawn) > 100 and sum(s["readouts_on"][3] for s in drawn) > 50
    assert not rope_angle_disagreements([{**s, "gap_on": s["readouts_on"][2]} for s in drawn])
    assert not score_disagreements(drawn, shown="readouts_on", tol=WIDGET_SCORE_TOL)
    assert sum(s["readouts_on"][0] and s["chips_on"][0] and s["theta_on"] for s in drawn) > 100
    assert not widget_turn_disagreements(drawn, q0, k0)


def test_widget_drawing_equals_mathcore(widget):
    drawn, q0, k0 = widget
    q, k = figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K
    assert q0 == pytest.approx(np.degrees(np.arctan2(q[1], q[0])), abs=1e-9)  # lesson 1's q on seat 0
    assert k0 == pytest.approx(np.degrees(np.arctan2(k[1], k[0])), abs=1e-9)  # and its k, 20° ahead
    assert k0 - q0 == pytest.approx(float(figures.value("rope_pair_lead_deg")), abs=0.5)
    assert length(drawn[0]["q_start"], drawn[0]["q_end"]) / drawn[0]["unit"] == pytest.approx(np.linalg.norm(q))
    assert length(drawn[0]["k_start"], drawn[0]["k_end"]) / drawn[0]["unit"] == pytest.approx(np.linalg.norm(k))
    theta_deg = figures.THETA_DEG
    scene = built_scene("qk_widget")[0]
    value = scene.plan.cue("value")
    for end, (m, n) in zip((value.bookmarks["move"], value.end_frame), figures.VALUE_SEATS):
        s = [x for x in drawn if x["frame"] < end][-1]
        assert last_number(s["q_turn_text"]) == m * theta_deg and last_number(s["k_turn_text"]) == n * theta_deg
        assert last_number(s["score_text"]) == pytest.approx(
            mathcore.rope_score(q, k, m, n, np.radians(theta_deg)), abs=SCORE_TOL
        )


def test_widget_checks_catch_a_wrong_drawing_or_label(widget):
    drawn, q0, k0 = widget
    gap_rows = [{**s, "gap_on": s["readouts_on"][2]} for s in drawn]
    late = lambda s: s["readouts_on"][2] and s["readouts_on"][3]  # noqa: E731
    assert rope_angle_disagreements(perturbed(gap_rows, late, lambda s: rotated(s, "k", 15.0)))
    assert rope_angle_disagreements(perturbed(gap_rows, late, lambda s: {**s, "gap_text": "90"}))
    assert score_disagreements(
        perturbed(drawn, late, lambda s: rotated(s, "k", 15.0)), shown="readouts_on", tol=WIDGET_SCORE_TOL
    )
    assert score_disagreements(
        perturbed(drawn, late, lambda s: {**s, "score_text": "0.87"}), shown="readouts_on", tol=WIDGET_SCORE_TOL
    )
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
    # the score as lesson 1 defined it: q·k, ÷√d in real models, softmax's weights; the widget leaves √d out
    assert "√d" in legend and "softmax" in legend
    assert "√d" in said and "softmax 之后的权重" in said and "省掉了除以 √d" in scene.plan.cue("value").text


def test_pair_and_number_readers():
    assert pair_in("(m,n)=(2,5)") == (2.0, 5.0) and pair_in("q=(0,−1)") == (0.0, -1.0)
    assert wavelength_value("一圈 60,611 步") == (60611.0, 0.5)
    assert wavelength_value("一圈 ≈6.28 座") == (6.28, 0.005)
    assert wavelength_value("一圈约 6.1 万座") == (61000.0, 500.0)
    assert turn_off(210.0, 0.0, -150.0) == pytest.approx(0.0)


# =============================================================================================
# why: a position added to x goes through the matrices that make q and k; RoPE turns q and k after them
# =============================================================================================
def projected_scores(rope_after: bool, starts=(0, 2, 10, 20), gap: int = 3, d: int = 32, seed: int = 0):
    """The score of one word at seat ``s`` against the same word at ``s + gap``, for each start ``s``: the
    word plus the clock row's reading through fixed random W_Q, W_K (8 × d), or (``rope_after``) the word
    alone through them, then turned by RoPE at the two seats."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=d)
    wq, wk = rng.normal(size=(8, d)), rng.normal(size=(8, d))
    out = []
    for s in starts:
        if rope_after:
            q, k = mathcore.rope(np.stack([wq @ x, wk @ x]), np.array([s, s + gap]))
        else:
            pe = mathcore.sinusoidal_pe([s, s + gap], d)
            q, k = wq @ (x + pe[0]), wk @ (x + pe[1])
        out.append(float(q @ k))
    return out


def test_why_the_claim_holds_with_numbers():
    """What qk_widget.why says: through W_Q and W_K, x + the clock row's reading scores the same distance
    differently from different starts (the readings' own dot product does not: it depends on the distance
    only); RoPE after the projections gives the same score from every start."""
    pe = mathcore.sinusoidal_pe(np.arange(24), 32)
    readings = [float(pe[s] @ pe[s + 3]) for s in (0, 2, 10, 20)]
    assert max(readings) - min(readings) < 1e-9
    added = projected_scores(rope_after=False)
    assert max(added) - min(added) > 1.0
    turned = projected_scores(rope_after=True)
    assert max(turned) - min(turned) < 1e-9


def test_why_is_drawn_as_said():
    scene = built_scene("qk_widget")[0]
    why = scene.probes["why"][0]
    assert "W_Q" in why["matrices"] and "W_K" in why["matrices"]
    assert why["kinds"] == ["cross", "tick"] and all(why["at"])
    cue = scene.plan.cue("why")
    assert "算 q、k 的矩阵" in cue.text and "第三课" in cue.text and "只看 n − m：隔几个座位、谁在前" in cue.text
    mixed, kept = (first_drawn(scene, t) for t in why["texts"])
    assert mixed.cue.endswith("why") and mixed.frame < cue.bookmarks["rope"] <= kept.frame  # each with its words


# =============================================================================================
# value: k's word moves from seat 3 to seat 1; k turns back, the score changes, the word's v does not turn
# =============================================================================================
def value_disagreements(samples: list[dict]) -> list[str]:
    """While v is drawn: its arrow starts at the dial's centre and points along figures.VALUE_V at the dial's unit,
    whatever seat k's word is on; k's tip is mathcore's for that seat."""
    out = []
    theta = np.radians(figures.THETA_DEG)
    v = np.asarray(figures.VALUE_V, dtype=float)
    for s in samples:
        if not s["v_on"]:
            continue
        drawn = (np.asarray(s["v_end"]) - np.asarray(s["v_start"]))[:2] / s["unit"]
        if not np.allclose(drawn, v, atol=1e-6):
            out.append(
                f"frame {s['frame']}: v is drawn as {drawn.round(4).tolist()}, not {v.tolist()} (k at {s['n']:g})"
            )
        if not np.allclose(s["k_tip"], mathcore.rope_2d(figures.ROPE_PAIR_K, s["n"], theta), atol=1e-6):
            out.append(f"frame {s['frame']}: k's tip is not k turned to seat {s['n']:g}")
    return out


def test_value_k_turns_and_v_stays():
    """What lesson 1 did not show (review 6, P1): k's word moves back two seats, k turns back 2θ and the score
    changes (said with the screen's numbers), the word's value vector v is drawn all along and never turns."""
    scene = built_scene("qk_widget")[0]
    cue = scene.plan.cue("value")
    samples = [s for s in scene.probes["value"] if cue.start_frame <= s["frame"] < cue.end_frame]
    on = [s for s in samples if s["v_on"]]
    assert len(on) > 30 and len({round(s["n"], 6) for s in on}) > 5  # v is drawn while k's word moves
    assert value_disagreements(samples) == []
    (_, n0), (_, n1) = figures.VALUE_SEATS
    assert last_before(scene.probes["value"], cue.bookmarks["move"])["n"] == n0
    assert last_before(scene.probes["value"], cue.bookmarks["still"])["n"] == n1
    assert float(figures.value("value_back_deg")) == (n0 - n1) * figures.THETA_DEG
    note = scene.probes["value_note"][0]
    assert note["on"] and note["text"].startswith("v不转")
    assert first_drawn(scene, note["text"]).frame >= cue.bookmarks["still"]
    said = cue.text
    assert "值向量 v" in said and "一动不动" in said and f"{n0} 号挪到 {n1} 号" in said


def test_value_check_catches_a_turned_v():
    scene = built_scene("qk_widget")[0]
    samples = [s for s in scene.probes["value"] if s["v_on"]]

    def turned_with_k(s):  # v turned as k is (the mistake the cue warns against)
        start = np.asarray(s["v_start"])
        v = mathcore.rope_2d(figures.VALUE_V, s["n"] - 3, np.radians(figures.THETA_DEG))
        return {**s, "v_end": (start + s["unit"] * np.array([v[0], v[1], 0.0])).tolist()}

    assert value_disagreements([turned_with_k(s) for s in samples if s["n"] != 3])
    assert value_disagreements([{**samples[0], "k_tip": [1.0, 0.0]}])


# =============================================================================================
# ticks: RoPE meets the three requirements; the planes turn on and their arrows keep their length
# =============================================================================================
def length_disagreements(samples: list[dict], unit: float) -> list[str]:
    out = []
    for s in samples:
        for i, (a, b) in enumerate(s["arrows"]):
            if abs(length(a, b) - unit) > 1e-6:
                out.append(f"frame {s['frame']}: plane {i}'s arrow is {length(a, b):.4f} long, not {unit}")
    return out


def test_ticks_rope_meets_the_three_requirements():
    scene = built_scene("qk_widget")[0]
    ticks = scene.probes["ticks"][0]
    assert [line["kind"] for line in ticks["lines"]] == ["tick"] * 3
    assert [line["text"][:3] for line in ticks["lines"]] == ["第一条", "第二条", "第三条"]
    assert all(line["mark_left_of_text"] for line in ticks["lines"]) and "LLaMA" in ticks["users"]
    cue = scene.plan.cue("ticks")
    # requirement 2, drawn: the pair beside the ticks keeps the lengths of lesson 1's q and k
    drawn = [s for s in probes("qk_widget", "widget_drawn") if cue.start_frame <= s["frame"] < cue.end_frame]
    assert len(drawn) > 20 and all(s["arc_on"] for s in drawn[len(drawn) // 4 :])  # the pair stays drawn
    for name, v in (("q", figures.ROPE_PAIR_Q), ("k", figures.ROPE_PAIR_K)):
        during = [{**s, "arrows": [[s[f"{name}_start"], s[f"{name}_end"]]]} for s in drawn]
        unit = drawn[0]["unit"] * float(np.linalg.norm(v))
        assert length_disagreements(during, unit) == []
        stretched = perturbed(
            during, lambda s: True, lambda s: {**s, "arrows": [[a, [b[0] * 1.1, b[1], b[2]]] for a, b in s["arrows"]]}
        )
        assert length_disagreements(stretched, unit)
    assert "第一条" in cue.text and "第二条" in cue.text and "第三条" in cue.text and "LLaMA" in cue.text
    assert rule_one_problems(cue.text, ticks["lines"][0]["text"]) == []


def rule_one_problems(said: str, shown: str) -> list[str]:
    """Review 10, M4: requirement 1 is met by several planes of different speeds together, not by one plane's turn
    (at θ = 30° seat 12 is back where seat 0 is): the voice and the screen both say so. Review 11, M1: what the
    planes make distinct is the turn (转角) for each distance, not a seat one turned arrow could tell (lesson 1's
    rope_turns.same_word): requirement 1 names 距离 and 转角 and claims no seat."""
    out = []
    said_one = said[said.index("第一条") : said.index("第二条")]
    for where, t in (("said", said_one), ("shown", shown)):
        if "快慢" not in t or "平面" not in t:
            out.append(f"{where}: requirement 1 ticked for one plane's turn, not several planes of different speeds")
        if "距离" not in t or "转角" not in t or "座位" in t:
            out.append(f"{where}: requirement 1 ticked for seats, not for the turn each distance gets")
    return out


def test_rule_one_needs_several_planes():
    """The fact behind the qualifier (mathcore): one plane at θ = 30° repeats after 12 seats; the seeded round-10
    wording, voice and screen, is caught."""
    theta = np.radians(figures.THETA_DEG)
    assert figures.THETA_DEG == 30
    assert np.allclose(mathcore.rotate([1.0, 0.0], 12 * theta), mathcore.rotate([1.0, 0.0], 0.0))
    old = "拿三条要求检验 RoPE：第一条，座位不同，转的角度就不同；第二条，旋转不改变长短，数不会变大；"
    assert len(rule_one_problems(old, "第一条：座位不同，转的角度不同")) == 4
    # seeded: round 11's wording (several planes, but seats said to be told apart), voice and screen
    old = "拿三条要求检验 RoPE：第一条，快慢不同的几个平面一起转，座位才各不相同；第二条，旋转不改变长短；"
    assert rule_one_problems(old, "第一条：几个平面快慢搭配，座位不重复") == [
        "said: requirement 1 ticked for seats, not for the turn each distance gets",
        "shown: requirement 1 ticked for seats, not for the turn each distance gets",
    ]


def test_rule_one_distances_get_distinct_turns():
    """The fact behind the new wording (mathcore): across the 64 planes of a 128-dimension head, the distances 0 to
    CONTEXT_TRAIN each get a different set of turns, while plane 0 alone comes back near its start (6 rad ≈ 2π)."""
    w = mathcore.frequencies(figures.CONTEXT_D)
    turns = np.mod(np.outer(np.arange(figures.CONTEXT_TRAIN + 1), w), 2 * np.pi)
    gaps = np.abs(np.angle(np.exp(1j * (turns[1:] - turns[0])))).max(axis=1)
    assert gaps.min() > 1e-3  # no distance turns every plane back to where distance 0 is
    one = np.abs(np.angle(np.exp(1j * turns[1:, 0])))
    assert one.min() < 0.01  # one plane alone nearly repeats


# =============================================================================================
# longer: the slowest plane of one head, its angles seen in training, a farther pair, a larger base
# =============================================================================================
def dial_disagreements(samples: list[dict]) -> list[str]:
    """The dial's arrow turned distance·ω(base) (figures.context_angle, mathcore's speeds), its length the
    radius; the sector from 0 to the training distance's angle; the readouts as drawn."""
    out = []
    seen = np.degrees(figures.context_angle(figures.CONTEXT_TRAIN))
    for s in samples:
        if not s["on_screen"]:
            continue
        want = np.degrees(figures.context_angle(s["distance"], s["base"]))
        drawn = direction_deg(*s["arrow"])
        if abs(signed_gap_deg(want % 360, drawn % 360)) > 1e-6 or abs(length(*s["arrow"]) - s["radius"]) > 1e-6:
            out.append(f"frame {s['frame']}: the arrow points at {drawn:.3f}°, distance·ω says {want % 360:.3f}°")
        lo, hi = s["sector_deg"]
        if abs(lo) > 1e-6 or abs(hi - seen) > 1e-6:
            out.append(f"frame {s['frame']}: the sector spans {lo:.3f}°…{hi:.3f}°, training reached {seen:.3f}°")
        if s["distance_on"] and last_number(s["distance_text"]) != round(s["distance"]):
            out.append(f"frame {s['frame']}: the readout says {s['distance_text']}, distance {s['distance']:.1f}")
        if s["turned_on"] and abs(signed_gap_deg(last_number(s["turned_text"]), drawn % 360)) > 0.5 + 1e-6:
            out.append(f"frame {s['frame']}: the readout says {s['turned_text']}, the arrow {drawn % 360:.2f}°")
        (old, new), (old_on, new_on) = s["base_texts"], s["base_on"]
        if old_on and (numbers_in(old) != [1e4] or abs(s["base"] - 1e4) > 1e-6):
            out.append(f"frame {s['frame']}: {old!r} while the base is {s['base']:g}")
        if new_on and (
            numbers_in(new) != [1e4, figures.CONTEXT_BASE]
            or not 1e4 - 1e-6 <= s["base"] <= numbers_in(new)[-1] * (1 + 1e-9)
        ):
            out.append(f"frame {s['frame']}: {new!r} while the base is {s['base']:g}")
    return out


def test_longer_the_dial_equals_mathcore():
    scene = built_scene("qk_widget")[0]
    cue = scene.plan.cue("longer")
    samples = probes("qk_widget", "longer")
    shown = [s for s in samples if s["on_screen"]]
    assert len(shown) > 50 and sum(s["distance_on"] and s["turned_on"] for s in shown) > 50
    assert dial_disagreements(samples) == []
    # the slowest plane of one head, as mathcore's speeds have it
    w = mathcore.frequencies(figures.CONTEXT_D)
    assert figures.CONTEXT_PLANE == len(w) - 1
    seen = figures.context_angle(figures.CONTEXT_TRAIN)
    assert seen == pytest.approx(figures.CONTEXT_TRAIN * w[-1]) and seen < np.pi / 4  # a small range of angles
    # training's distance sweeps the sector; the far pair lands outside it; the larger base brings it back
    at_far = last_before(samples, cue.bookmarks["far"])
    assert at_far["distance"] == figures.CONTEXT_TRAIN and at_far["base"] == pytest.approx(1e4)
    at_base = last_before(samples, cue.bookmarks["base"])
    assert at_base["distance"] == figures.CONTEXT_FAR and at_base["base"] == pytest.approx(1e4)
    assert not 0 <= figures.context_angle(figures.CONTEXT_FAR) <= seen
    end = last_before(samples, cue.end_frame)
    assert end["base"] == pytest.approx(figures.CONTEXT_BASE)
    assert 0 <= figures.context_angle(figures.CONTEXT_FAR, figures.CONTEXT_BASE) <= seen
    assert end["base_on"] == [False, True] and "10000 改大" in cue.text and "没见过的角度" in cue.text
    # a larger base is no free fix (review 4, M2): every plane's angles change, so the model trains on a while
    # more; the sector is the angles of the original training
    retrain = scene.probes["retrain"][0]
    assert retrain["on"] and "接着训练" in retrain["text"] and retrain["seen"] == "原来训练时的角度"
    assert first_drawn(scene, retrain["text"]).frame >= cue.bookmarks["train"]
    assert "接着训练一阵" in cue.text and "适应新的转速" in cue.text


def test_longer_check_catches_a_wrong_drawing_or_label():
    samples = probes("qk_widget", "longer")
    on = lambda s: s["on_screen"]  # noqa: E731

    def turn(s, deg):
        a, b = np.asarray(s["arrow"][0]), np.asarray(s["arrow"][1])
        c, si = np.cos(np.radians(deg)), np.sin(np.radians(deg))
        d = b - a
        s["arrow"][1] = (a + np.array([c * d[0] - si * d[1], si * d[0] + c * d[1], 0.0])).tolist()
        return s

    assert dial_disagreements(perturbed(samples, on, lambda s: turn(s, 5.0)))
    assert dial_disagreements(perturbed(samples, on, lambda s: {**s, "sector_deg": [0.0, 45.0]}))
    assert dial_disagreements(
        perturbed(samples, lambda s: s["distance_on"], lambda s: {**s, "distance_text": "距离n−m=1"})
    )
    assert dial_disagreements(perturbed(samples, lambda s: s["turned_on"], lambda s: {**s, "turned_text": "转过90°"}))
    assert dial_disagreements(
        perturbed(
            samples, lambda s: s["base_on"][1], lambda s: {**s, "base_texts": [s["base_texts"][0], "10000改成50000"]}
        )
    )
    assert dial_disagreements(perturbed(samples, lambda s: s["base_on"][0], lambda s: {**s, "base": 2e4}))


def replay_problems(samples: list[dict]) -> list[str]:
    """Lesson 1's demos re-run in the widget (review 6, P1): q leaving seat 0 (the two seats slid together, or
    traded), or k ever on a seat before q's (the swap)."""
    out = []
    for s in samples:
        if s["i"] != 0.0:
            out.append(f"frame {s['frame']}: q moved to seat {s['i']:g}")
            break
    for s in samples:
        if s["j"] < s["i"]:
            out.append(f"frame {s['frame']}: k on seat {s['j']:g}, before q on {s['i']:g}")
            break
    return out


def test_the_widget_recalls_lesson_one_in_one_cue():
    """Lesson 1 shows the slide and the swap with its pair; lesson 2 recalls them in one cue, in words, over that
    pair (k led by 20°), and re-runs neither (review 6, P1): q stays on seat 0, k never goes before it; the old
    slide and the aligned swap are caught. Then the value beat."""
    scene = built_scene("qk_widget")[0]
    ids = [c.id.rpartition(".")[2] for c in scene.plan.cues]
    assert ids[ids.index("why") + 1 :] == ["value", "ticks", "longer"]  # review 9, P1: recall folded, planes gone
    assert not {"arrow", "rule", "angle", "score", "slide", "order"} & set(ids)
    widget = scene.probes["widget"]
    assert replay_problems(widget) == []
    assert replay_problems([*widget, {**widget[-1], "frame": -1, "i": 2.0, "j": 5.0}])  # both slid on
    assert replay_problems([*widget, {**widget[-1], "frame": -1, "i": 4.0, "j": 2.0}])  # the swap
    said = scene.plan.cue("value").text
    assert said.startswith("把第一课那一对") and "小部件" not in said and "起初叠在一起" not in said
    assert figures.value("rope_pair_score") in said and "对调" not in said  # the swap: lesson 1's, not recited
    assert "课程页面" not in said  # the video never shows the page (review 5, K4)
    shown = scene.probes["recall"][0]
    assert shown["recalled"] == "第一课看过" and all(shown["on"])


# -- review 7: placement told from the course's own pipeline (K1); planes recalls lesson 1 in a clause (P2) ------
#: seed 001 §六's opening, as round 7 followed it clause for clause, and lesson 1's sentence repeated in planes
OLD_PLACEMENT_7 = (
    "前两种做法，都先把位置向量加到 x 上，再算出查询向量 q、键向量 k 和值向量 v。q 和 k 的点积就是分数，真实模型里"
    "还会除以 √d；再按 softmax 之后的权重，把 v 加起来。2021 年的 RoPE，也就是旋转位置编码，换了个地方。"
)
OLD_PLANES_7 = "真实模型里，每个注意力头的 q、k 有几十到一百多维。比如 128 维，两两一组，就是 64 个平面。"
SEED_WORDS = ("换了个地方", "换了一个位置", "都先把位置向量加到")


def review7_widget_problems(placement: str, moved: str, planes: str) -> list[str]:
    """placement starts from the pipeline on screen (which stop the position comes in at) and keeps none of the
    seed's words; the screen line says when RoPE acts; planes recalls lesson 1 (第一课) instead of repeating
    its sentence."""
    out = [f"placement says {w!r}" for w in SEED_WORDS if w in placement]
    out += [f"screen says {w!r}" for w in ("换了", "换个") if w in moved]
    if "哪一步" not in placement or "第三步" not in placement:
        out.append("placement does not ask where the position comes in, and answer with the third step")
    if "第一课" not in planes or "几十到一百多维" in planes:
        out.append("planes repeats lesson 1 instead of recalling it")
    return out


def test_placement_and_planes_are_the_course_own():
    scene = built_scene("qk_widget")[0]
    moved = scene.probes["moved"][0]
    assert moved["on"]
    said = {c: scene.plan.cue(c).text for c in ("placement", "value")}
    assert review7_widget_problems(said["placement"], moved["text"], said["value"]) == []


def test_review7_widget_check_catches_the_round_seven_wording():
    """Seeded: round 7's placement, its screen line and its planes sentence are each caught."""
    assert len(review7_widget_problems(OLD_PLACEMENT_7, "RoPE 换了个地方", OLD_PLANES_7)) == 5


# -- review 8: placement starts from the pipeline on screen (K2); planes and same_clocks are one cue (P2) ----------
#: round 8's placement (seed 001 §六's order: the first two add p to x, then q, k, v; RoPE of 2021 waits) and its
#: same_clocks, the third "the same formula" of lesson 2
OLD_PLACEMENT_8 = (
    "看这条流水线：位置在哪一步进来？前两种做法，一开头就把位置向量加进 x，后面才算查询向量 q、键向量 k、值向量 v。"
    "q 和 k 点积得到分数，真实模型里还要除以 √d；再拿 softmax 之后的权重，把 v 加起来。"
    "{@moved}旋转位置编码 RoPE 是 2021 年提出的，它等 q、k 出来了才动手。"
)
OLD_SAME_CLOCKS_8 = "这些转速还是那排钟的公式，只是 d 从 512 换成这个头的 128。"


def review8_widget_problems(cue_ids: list[str], placement: str, widget_text: str, formula: str) -> list[str]:
    """placement names the pipeline's stops before the methods, and drops the seed's sequence (加进 x … 后面才算 …
    2021 年提出 … 才动手); the planes and their clocks are one cue; "同一个公式"/"那排钟的公式" is not said or drawn
    again in the widget (the overview and clock_row_paper say it)."""
    out = []
    if "same_clocks" in cue_ids:
        out.append("planes and same_clocks are still two cues")
    for w in ("一开头", "后面才算", "2021 年提出", "才动手"):
        if w in placement:
            out.append(f"placement keeps the seed's {w!r}")
    if not 0 <= placement.find("打分") < placement.find("前两种"):
        out.append("placement tells the methods before the pipeline's stops")
    for w in ("同一个公式", "那排钟的公式"):
        if w in widget_text or w in formula:
            out.append(f"the widget says {w!r} again")
    return out


def test_widget_is_told_from_its_pipeline_in_fewer_cues():
    scene = built_scene("qk_widget")[0]
    ids = [c.id.rpartition(".")[2] for c in scene.plan.cues]
    said = " ".join(c.text for c in scene.plan.cues)
    formula = ""  # the planes and their formula are lesson 1's and the overview's since review 9 (P1)
    assert review8_widget_problems(ids, scene.plan.cue("placement").text, said, formula) == []
    old_ids = [*ids[: ids.index("ticks")], "same_clocks", *ids[ids.index("ticks") :]]
    assert len(review8_widget_problems(old_ids, OLD_PLACEMENT_8, OLD_SAME_CLOCKS_8, "同一个公式 " + formula)) == 8


# -- review 9: the scene does its one job (P1); RoPE's place said once, as the third step (L1, K6) ----------------
#: round 9's placement ending and its screen line ("晚到最后" heard as "in the last step"; seed 001 §六's
#: "等 q、k 出来 … 才转"), after_qk's "第一步的 x", and the cue ids with lesson 1's re-runs
OLD_MOVED_9 = "RoPE 晚到最后：等 q、k 出来，打分前才转。"
OLD_SCREEN_9 = "RoPE：等 q、k 出来，打分前才转"
OLD_IDS_9 = ["placement", "after_qk", "why", "recall", "value", "planes", "ticks", "longer"]


def review9_widget_problems(ids: list[str], placement: str, after_qk: str, moved: str, third_box: str) -> list[str]:
    """Lesson 1's pair is recalled in the value cue, its planes not re-run (no recall, no planes cue); RoPE's place
    is the third step, in voice (placement, after_qk) and on screen, as the chain's third box; no "最后" for it
    and none of the seed's "等 q、k 出来"/"才转"."""
    out = [f"cue {c} still there" for c in ("recall", "planes") if c in ids]
    for where, text in (("placement", placement), ("after_qk", after_qk), ("screen", moved)):
        if "第三步" not in text:
            out.append(f"{where} does not name the third step")
        out += [f"{where} says {w!r}" for w in ("晚到最后", "等 q、k 出来", "打分前才转") if w in text]
    if "转 q、k" not in third_box:
        out.append(f"the chain's third box is {third_box!r}")
    return out


def test_widget_does_one_job_and_names_the_third_step():
    from scenes.qk_widget import NEW_CHAIN

    scene = built_scene("qk_widget")[0]
    ids = [c.id.rpartition(".")[2] for c in scene.plan.cues]
    said = {c: scene.plan.cue(c).text for c in ("placement", "after_qk")}
    moved = scene.probes["moved"][0]["text"]
    third = NEW_CHAIN[2][0]
    assert review9_widget_problems(ids, said["placement"], said["after_qk"], moved, third) == []
    old_placement = said["placement"].partition("第二步。")[0] + "第二步。" + OLD_MOVED_9
    old_after = "下面这一行就是 RoPE：第一步的 x 什么也没加；第三步只转 q 和 k，v 不转。"
    # seeded: round 9's ids, wording and screen line: 2 cues, placement twice (no third step, 晚到最后, 等 q、k
    # 出来, 打分前才转), the screen three times
    assert len(review9_widget_problems(OLD_IDS_9, old_placement, old_after, OLD_SCREEN_9, third)) == 9
