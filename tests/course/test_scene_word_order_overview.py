"""word_order_overview (word_order, class OverviewReel): lesson 2's overview: its title and sentence (the seat
card's chips), the blind swap, the failures from mathcore, the clocks, the table, RoPE's arrows and the close
arrows: drawn values against mathcore, labels against the drawing.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import mathcore
from mathcore.scores import angle_between
from mathcore.shuffle import self_attention
from mathcore.toy_words import word_vectors
from narration import figures
from tests.support.course_scenes import built_scene, narration_scene
from tests.support.drawn import card_disagreements, direction_deg, last_number, signed_gap_deg
from tests.support.qk_labels import (
    ANGLE_TOL,
    SCORE_TOL,
    dir_of,
    formula_pair_problems,
    forward_rad,
    pair_in,
    perturbed,
    probes,
    rope_angle_disagreements,
    rotated,
    same_angle_disagreements,
    score_disagreements,
    turn_off,
    wavelength_value,
)
from tests.support.scene_probes import bare, first_drawn, wrap

TOL = 1e-6


def build(scene_id: str):
    return narration_scene(scene_id)


# -- OverviewReel -----------------------------------------------------------------------
def test_overview_opens_with_the_lesson_title_and_the_lessons_sentence():
    """The overview's title is lesson 2's own (not the course's), and the sentence is cut into the same
    chips as everywhere in the lesson (借给 one chip), in the premise and the blind beat alike."""
    scene = build("word_order_overview")
    from pathlib import Path

    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config

    root = Path(__file__).resolve().parents[2]
    cfg = load_config(root / "config.yaml")
    lesson = load_course(cfg.course.lessons, root / "narration").lesson("word_order")
    premise = scene.probes["premise"][0]
    assert premise["title"] == bare(lesson.title) != bare(cfg.course.title)
    seat_card = build("seat_card")
    from scenes.seat_card import SENTENCE

    assert premise["rows"][0] == list(SENTENCE) == list(type(scene).WORDS)
    assert premise["rows"][1] == [SENTENCE[i] for i in type(scene).SWAP]  # 小红 … 小明
    assert seat_card.probes["idea_seats"][0]["shown"] == [str(i) for i in range(len(SENTENCE))]


def test_overview_blind_is_the_short_swap_and_outputs_only_move():
    """The short version: the premise's sentence, one swap (小明 ↔ 小红), each strip the attention output of
    the word drawn above it (toy word vectors, as in the lesson's own blind_bag)."""
    scene = build("word_order_overview")
    cls = type(scene)
    x = word_vectors(cls.WORDS, cls.WORD_D)
    samples = scene.probes["blind"]
    assert samples and {tuple(s["order"]) for s in samples} <= {tuple(range(len(cls.WORDS))), tuple(cls.SWAP)}
    for s in samples:
        assert np.allclose(s["recomputed"], self_attention(x[s["order"]]), atol=TOL)
        for j, strip in enumerate(s["shown"]):  # a strip sitting on a slot is that slot's word's output
            if abs(s["slot_x"][j] - s["slots"][j]) < 1e-6:
                assert np.allclose(strip, s["recomputed"][j], atol=TOL), (s["frame"], j)
    end = [s for s in samples if s["frame"] <= scene.plan.cue("blind").end_frame][-1]
    assert end["order"] == list(cls.SWAP)
    assert np.allclose(end["slot_x"], end["slots"], atol=TOL)
    assert np.allclose(end["shown"], self_attention(x)[list(cls.SWAP)], atol=TOL)  # the same strips, moved
    blind = scene.plan.cue("blind").text
    assert "小明和小红" in blind
    # the condition of blindness, and softmax glossed (the overview is also watched alone)
    assert "每个词都能看到整句话、又不加位置信息" in blind and "softmax（把分数化成和为 1 的权重）" in blind
    condition = first_drawn(scene, "每个词都看整句话、不加位置信息：没有一步用到次序")
    gloss = first_drawn(scene, "把分数化成和为 1 的权重")
    assert condition is not None and gloss is not None and condition.cue.endswith("blind")


def test_overview_and_seat_card_merge_x_and_p_into_one_row():
    for scene_id, probe, cue in (("word_order_overview", "seat", "seat"), ("seat_card", "card", "card")):
        scene = build(scene_id)
        samples = scene.probes[probe]
        assert sum(s["on_screen"] and not s["merged"] for s in samples) > 5
        assert sum(s["on_screen"] and s["merged"] for s in samples) > 5
        assert not card_disagreements(samples)
        end = [s for s in samples if s["frame"] <= scene.plan.cue(cue).end_frame][-1]
        assert end["merged"]  # the beat ends on the one row
        merged = [s for s in samples if s["merged"] and s["on_screen"]]
        swapped = [dict(s, labels=[s["labels"][1], s["labels"][0], *s["labels"][2:]]) for s in merged]
        assert card_disagreements(swapped)
        lifted = [
            dict(s, centers=[[c[0], c[1] + 0.5 * (j == 2), c[2]] for j, c in enumerate(s["centers"])]) for s in merged
        ]
        assert card_disagreements(lifted)
        rows = [s for s in samples if not s["merged"] and s["on_screen"]]
        upside_down = [dict(s, x=s["p"], p=s["x"]) for s in rows if s["x"][0][1] > s["p"][0][1] + 1e-6]
        assert upside_down and card_disagreements(upside_down)
    assert "只剩一行数" in build("seat_card").plan.cue("card").text


def test_overview_failures_from_mathcore():
    f = build("word_order_overview").probes["fail"][0]
    assert f["raw"] == mathcore.raw_index_encoding([5000], 4)[0].tolist()  # the far seat of failing_encodings
    assert f["word"] == word_vectors(["小明"], 4)[0][:2].tolist()  # the blind beat's 小明
    seat, lengths = figures.NORM_SEAT, figures.NORM_LENGTHS
    assert f["lengths"] == list(lengths)
    for n, code, step in zip(lengths, f["code"], f["step"]):
        assert code == pytest.approx(mathcore.length_normalised_encoding([seat], n, 1)[0, 0], abs=TOL)
        e = mathcore.length_normalised_encoding([seat, seat + 1], n, 1)[:, 0]
        assert step == pytest.approx(e[1] - e[0], abs=TOL)
    shown = " ".join(f["shown"])
    for n in lengths:  # the subtitles' written forms appear on screen
        assert bare(f"p = {figures.fmt_dec(mathcore.length_normalised_encoding([seat], n, 1)[0, 0], 3)}") in shown
    assert bare("p = (5000, 5000, …)") in shown


def test_overview_clocks_table_rope_close():
    scene = build("word_order_overview")
    cls = type(scene)
    w = mathcore.frequencies(512)[list(cls.CLOCK_INDICES)]
    clocks = scene.probes["clocks"]
    for s in clocks:
        assert np.allclose(s["w"], w)
        assert np.all(np.abs(wrap(np.array(s["hand_angles"]) - s["p"] * w)) <= TOL)
    assert [s for s in clocks if s["frame"] <= scene.plan.cue("clocks").end_frame][-1]["p"] == cls.CLOCK_STEPS[-1]

    t = scene.probes["table"][0]
    want = mathcore.learned_table(cls.TABLE_LEN, cls.TABLE_D)[t["rows"]]
    assert np.allclose(t["values"], want, atol=TOL) and np.allclose(t["drawn"], want, atol=TOL)
    assert t["rows"][-1] == cls.TABLE_LEN - 1

    theta = np.radians(figures.THETA_DEG)
    rope = scene.probes["rope"]
    for s in rope:
        assert np.allclose(s["q_tip"], mathcore.rope_2d(s["q"], s["m"], theta), atol=TOL)
        assert np.allclose(s["k_tip"], mathcore.rope_2d(s["k"], s["n"], theta), atol=TOL)
        if s["score_on_screen"]:
            assert s["score"] == pytest.approx(mathcore.rope_score(s["q"], s["k"], s["m"], s["n"], theta), abs=TOL)
    end = [s for s in rope if s["frame"] <= scene.plan.cue("rope").end_frame][-1]
    assert (end["m"], end["n"]) == figures.ROPE_PAIRS[-1]
    assert end["score"] == pytest.approx(figures.rope_pair_scores()[0], abs=TOL)

    close = scene.probes["close"]
    ratio = cls.CLOSE_ROW_D // cls.CLOSE_HEAD_D
    wc = mathcore.frequencies(cls.CLOSE_ROW_D)[[ratio * i for i in cls.CLOSE_PLANES]]  # the clocks drawn
    wh = mathcore.frequencies(cls.CLOSE_HEAD_D)[list(cls.CLOSE_PLANES)]  # the head's planes under them
    for s in close:
        assert np.allclose(s["w"], wc) and np.allclose(s["w_head"], wh)
        for i, a in enumerate(s["arrows"]):
            assert a["phi"] == pytest.approx(s["p"] * wh[i], abs=TOL)  # the arrow turns by its plane's speed
            assert np.allclose(a["tip"], mathcore.rotate(a["v0"], s["p"] * wh[i]), atol=TOL)
        assert np.all(np.abs(wrap(np.array(s["hand_angles"]) - s["p"] * wc)) <= TOL)
        for a, hand in zip(s["arrows"], s["hand_angles"]):  # q starts where a hand starts
            assert a["v0"] == [1.0, 0.0] and np.allclose(a["tip"], [np.cos(hand), np.sin(hand)], atol=TOL)
    assert close[-1]["p"] == cls.CLOSE_POSITION


def test_overview_stands_alone():
    """Published alone as overview.mp4 and heard inside the lesson: the close is self-contained (review 4, K2):
    it ends on what RoPE does and points at nothing the standalone viewer does not have (no "接下来", no quiz);
    RoPE is named in full, the voice reads the brackets as 也就是 (review 4, L1); the paper is named at its
    first mention (the year, the one that introduced the Transformer), in the voice and in the caption; the
    long-context caveat is not recited here (the lesson explains it once, at qk_widget.longer)."""
    from pathlib import Path

    import yaml

    scene = build("word_order_overview")
    plan = scene.plan
    close = plan.cue("close").text
    assert (
        "出自同一个公式" in close and "加到 x 上" not in close
    )  # the body says once what RoPE does with them (review 5, P3)
    assert not any(w in close for w in ("接下来", "小题", "完整的课", "下一节"))
    assert first_drawn(scene, "接下来：一节一节展开，最后四道小题") is None
    assert "RoPE（旋转位置编码）" in plan.cue("rope").text
    # a bracketed gloss is not read as part of the sentence: the voice says it with 也就是
    root = Path(__file__).resolve().parents[2]
    lesson = yaml.safe_load((root / "narration" / "word_order.yaml").read_text(encoding="utf-8"))
    (overview,) = [s for s in lesson["scenes"] if s["id"] == "word_order_overview"]
    said = {c["id"]: c.get("say", "") for c in overview["cues"]}
    assert "RoPE，也就是旋转位置编码" in said["rope"]
    assert "softmax，也就是把分数化成和为 1 的权重" in said["blind"]
    assert "（" not in said["rope"] + said["blind"]
    clocks = plan.cue("clocks").text
    assert clocks.index("2017") < clocks.index("原论文") and "提出 Transformer" in clocks
    assert "绝对值" in clocks  # |reading| ≤ 1, readings reach −1
    caption = first_drawn(scene, "原论文（2017）：一排钟")
    assert caption is not None and caption.cue.endswith("clocks")
    assert "打折扣" not in plan.cue("rope").text and first_drawn(scene, "超出训练时的长度：效果会打折扣") is None


def rope_seat_disagreements(samples: list[dict]) -> list[str]:
    """The seat caption ``(m, n)`` with ``q 转 mθ，k 转 nθ（θ = 30°）``: from the frames captioned (0, 0), the
    drawn q has turned mθ and the drawn k nθ, so k has turned (n − m)θ more (mod 360)."""
    ref = [s for s in samples if any(on and pair_in(t) == (0.0, 0.0) for t, on in zip(s["seat_texts"], s["seats_on"]))]
    if not ref:
        return ["no frame shows the seats (0, 0): no drawn starting directions"]
    q0, k0 = dir_of(ref[0], "q"), dir_of(ref[0], "k")
    out = [
        f"frame {s['frame']}: at seats (0, 0) the arrows moved"
        for s in ref
        if abs(signed_gap_deg(q0, dir_of(s, "q"))) > 1e-6 or abs(signed_gap_deg(k0, dir_of(s, "k"))) > 1e-6
    ]
    for s in samples:
        for text, on in zip(s["seat_texts"], s["seats_on"]):
            if not (on and s["rule_on"]):
                continue
            m, n = pair_in(text)
            theta = last_number(s["rule_text"])
            for who, seat, start in (("q", m, q0), ("k", n, k0)):
                off = turn_off(seat * theta, start, dir_of(s, who))
                if off > 1e-6:
                    out.append(
                        f"frame {s['frame']}: caption says {who} turned {seat:g}·{theta:g}°, drawn differs by {off:.3g}°"
                    )
            if s["more_on"]:
                more = signed_gap_deg(signed_gap_deg(q0, dir_of(s, "q")), signed_gap_deg(k0, dir_of(s, "k")))
                if abs(signed_gap_deg(more % 360, ((n - m) * theta) % 360)) > 1e-6:
                    out.append(
                        f"frame {s['frame']}: k turned {more:g}° more than q, not (n − m)θ = {(n - m) * theta:g}°"
                    )
    return out


def rope_lead_disagreements(samples: list[dict]) -> list[str]:
    """``开始：k 比 q 多偏 30°`` vs the drawn arrows: at the seats captioned (0, 0) the drawn k points that far
    counter-clockwise of the drawn q; at seats (m, n) captioned with the rule ``θ = 30°`` on screen, k is ahead by
    the lead plus (n − m)θ (mod 360). So the 120° on the readout is the lead plus the 90° k turned more."""
    out = []
    for s in samples:
        if not s["lead_on"]:
            continue
        lead = last_number(s["lead_text"])
        for text, on in zip(s["seat_texts"], s["seats_on"]):
            if not on:
                continue
            m, n = pair_in(text)
            if (m, n) != (0.0, 0.0) and not s["rule_on"]:
                continue
            more = (n - m) * last_number(s["rule_text"]) if (m, n) != (0.0, 0.0) else 0.0
            ahead = signed_gap_deg(dir_of(s, "q"), dir_of(s, "k"))
            off = abs(signed_gap_deg(ahead % 360.0, (lead + more) % 360.0))
            if off > 1e-6:
                out.append(
                    f"frame {s['frame']}: at seats ({m:g}, {n:g}) k is drawn {ahead:.4g}° ahead of q, "
                    f"the lead {lead:g}° + (n − m)θ = {more:g}° says {lead + more:g}°"
                )
    return out


def test_overview_rope_labels_equal_the_drawing():
    samples = probes("word_order_overview", "rope_drawn")
    assert sum(s["gap_on"] for s in samples) > 100 and sum(s["score_on"] for s in samples) > 50
    captioned = [s for s in samples if s["rule_on"] and any(s["seats_on"])]
    assert len(captioned) > 20 and sum(s["more_on"] for s in captioned) > 10
    assert not rope_angle_disagreements(samples)
    assert not score_disagreements(samples)
    assert not rope_seat_disagreements(samples)
    # the 30° lead is on screen before anything turns (seats (0, 0)) and stays while the pairs are shown
    lead_frames = [s for s in samples if s["lead_on"]]
    at_start = [
        s for s in lead_frames if any(on and pair_in(t) == (0.0, 0.0) for t, on in zip(s["seat_texts"], s["seats_on"]))
    ]
    assert len(at_start) > 10 and sum(s["more_on"] for s in lead_frames) > 30
    assert not rope_lead_disagreements(samples)


def test_overview_rope_drawing_equals_mathcore():
    samples = probes("word_order_overview", "rope_drawn")
    theta = np.radians(figures.THETA_DEG)
    q, k = np.asarray(figures.ROPE_PAIR_Q), np.asarray(figures.ROPE_PAIR_K)
    start = samples[0]
    assert dir_of(start, "q") == pytest.approx(np.degrees(np.arctan2(q[1], q[0])), abs=1e-6)
    assert signed_gap_deg(dir_of(start, "q"), dir_of(start, "k")) == pytest.approx(
        figures.ROPE_PAIR_K_LEAD_DEG, abs=1e-6
    )
    seen = set()
    for s in samples:
        for text, on in zip(s["seat_texts"], s["seats_on"]):
            if on and s["score_on"]:
                m, n = pair_in(text)
                seen.add((int(m), int(n)))
                want = mathcore.rope_score(q, k, m, n, theta)
                assert last_number(s["score_text"]) == pytest.approx(want, abs=SCORE_TOL)
                assert last_number(s["gap_text"]) == pytest.approx(
                    float(figures.value("rope_pair_gap_deg")), abs=ANGLE_TOL
                )
    assert seen == set(figures.ROPE_PAIRS)
    # the k-ahead-by-30° pair: the angle is 30° + (n − m)θ, not (n − m)θ; the lead on screen is mathcore's angle
    # between q and k, the body's figure; the overview's voice leaves the lead to the picture (review 5, L4)
    lead = [last_number(s["lead_text"]) for s in samples if s["lead_on"]]
    assert lead and set(lead) == {round(float(np.degrees(angle_between(q, k))))}
    rope_cue = built_scene("word_order_overview")[0].plan.cue("rope").text
    assert f"{lead[0]:g}" == figures.value("rope_pair_lead_deg") and "多偏" not in rope_cue
    assert rope_cue.endswith("只看它们相隔几个座位、谁在前。")
    # the directed turn is named as such (夹角 is only the folded readout); q and k are named at first use
    assert {s["more_text"] for s in samples if s["more_on"]} == {"k相对q多转(n−m)θ"}
    assert "查询向量 q" in rope_cue and "键向量 k" in rope_cue
    assert float(figures.value("rope_pair_gap_deg")) != pytest.approx(
        (figures.ROPE_PAIRS[0][1] - figures.ROPE_PAIRS[0][0]) * figures.THETA_DEG
    )


def test_overview_rope_checks_catch_a_wrong_drawing_or_label():
    samples = probes("word_order_overview", "rope_drawn")
    late = lambda s: s["score_on"] and s["gap_on"]  # noqa: E731
    k_off = perturbed(samples, late, lambda s: rotated(s, "k", 10.0))
    assert rope_angle_disagreements(k_off) and score_disagreements(k_off) and rope_seat_disagreements(k_off)
    q_off = perturbed(samples, late, lambda s: rotated(s, "q", -10.0))
    assert rope_seat_disagreements(q_off)
    said_90 = perturbed(samples, late, lambda s: {**s, "gap_text": "90"})  # "the angle is (n − m)θ"
    assert rope_angle_disagreements(said_90)
    said_0 = perturbed(samples, late, lambda s: {**s, "score_text": "0.00"})  # cos 90°
    assert score_disagreements(said_0)
    leading = lambda s: s["lead_on"]  # noqa: E731
    assert rope_lead_disagreements(perturbed(samples, leading, lambda s: {**s, "lead_text": "开始：k比q多偏0°"}))
    assert rope_lead_disagreements(perturbed(samples, leading, lambda s: rotated(s, "k", 10.0)))
    assert rope_lead_disagreements(
        perturbed(samples, lambda s: s["lead_on"] and not s["score_on"], lambda s: rotated(s, "q", 5.0))
    )  # at (0, 0) too

    def wrong_seats(s):
        s["seat_texts"] = [t.replace("(2,5)", "(2,6)") for t in s["seat_texts"]]
        return s

    assert rope_seat_disagreements(
        perturbed(samples, lambda s: any("(2,5)" in t for t in s["seat_texts"]), wrong_seats)
    )
    longer = perturbed(
        samples,
        late,
        lambda s: {
            **s,
            "k_end": (np.asarray(s["k_start"]) + 1.5 * (np.asarray(s["k_end"]) - np.asarray(s["k_start"]))).tolist(),
        },
    )
    assert score_disagreements(longer)


# =============================================================================================
# the overview's clocks (counter and one-turn labels vs the hands) and close (q arrows vs the hands)
# =============================================================================================
def seat_from_hands(hands: list, w: np.ndarray, slow: int) -> float:
    """The seat the drawn hands stand at, read from clock ``slow`` (slow enough not to have wrapped)."""
    return float(forward_rad(direction_deg(*hands[slow])) / w[slow])


def clock_counter_disagreements(
    samples: list[dict], w: np.ndarray, *, slow: int = 1, rounding: str = "round"
) -> list[str]:
    """The seat counter vs the drawn hands: every hand sits at s·ω (mod 360°) for one seat s, and the counter
    shows s rounded (``round``) or floored (``floor``)."""
    out = []
    for s in samples:
        if not (s["counter_on"] and s["hands_on"]):
            continue
        seat = seat_from_hands(s["hands"], w, slow)
        for i, hand in enumerate(s["hands"]):
            off = abs(signed_gap_deg(np.degrees(seat * w[i]) % 360, direction_deg(*hand) % 360))
            if off > 0.05:
                out.append(f"frame {s['frame']}: hand {i} is {off:.3g}° off seat {seat:.3f}")
        shown = last_number(s["counter_text"])
        want = np.floor(seat + 1e-6) if rounding == "floor" else np.round(seat)
        if abs(shown - want) > 1e-9 and not (rounding == "round" and abs(abs(seat - shown) - 0.5) < 1e-3):
            out.append(f"frame {s['frame']}: counter says {shown:g}, the hands stand at seat {seat:.3f}")
    return out


def wavelength_disagreements(samples: list[dict], w: np.ndarray) -> list[str]:
    """Each clock's one-turn label vs its hand: one turn every 2π/ω seats, within the label's rounding."""
    out = []
    for s in samples:
        for i, (text, on) in enumerate(zip(s["wavelength_texts"], s["wavelengths_on"])):
            if on:
                said, half = wavelength_value(text)
                turn = 2 * np.pi / w[i]
                if abs(said - turn) > half + 1e-9:
                    out.append(
                        f"frame {s['frame']}: clock {i} says one turn per {said:g} seats, the hand turns "
                        f"once per {turn:.4g}"
                    )
    return out


def test_overview_clocks_labels_equal_the_hands():
    scene = built_scene("word_order_overview")[0]
    w = mathcore.frequencies(512)[list(type(scene).CLOCK_INDICES)]
    samples = probes("word_order_overview", "clocks_drawn")
    assert sum(s["counter_on"] for s in samples) > 30
    assert not clock_counter_disagreements(samples, w)
    assert not wavelength_disagreements(samples, w)
    # the slowest clock's turn is shown as it is said in the lesson (约 6.1 万), not as five digits
    shown = [s for s in samples if s["wavelengths_on"][-1]]
    assert shown and {s["wavelength_texts"][-1] for s in shown} == {f"一圈≈{figures.value('wl_slow_512_wan')}万个座位"}
    # 座 is not a counter for seats: every one-turn label counts 个座位
    assert all(t.endswith("个座位") for s in samples for t in s["wavelength_texts"])
    moved = perturbed(
        samples,
        lambda s: s["counter_on"],
        lambda s: {**s, "counter_text": str(int(last_number(s["counter_text"])) + 1)},
    )
    assert clock_counter_disagreements(moved, w)

    def turn_fast_hand(s):
        a, b = np.asarray(s["hands"][0][0]), np.asarray(s["hands"][0][1])
        s["hands"][0][1] = (a + np.array([-(b - a)[1], (b - a)[0], 0.0])).tolist()  # +90°
        return s

    assert clock_counter_disagreements(perturbed(samples, lambda s: s["counter_on"], turn_fast_hand), w)
    wrong = perturbed(
        samples,
        lambda s: any(s["wavelengths_on"]),
        lambda s: {**s, "wavelength_texts": ["一圈 7.3 步"] + s["wavelength_texts"][1:]},
    )
    assert wavelength_disagreements(wrong, w)


def test_overview_close_arrows_turn_with_the_hands():
    """The close (review 6, M2): the clocks are the 512 row's, the arrows one head's planes (d = 128), each plane
    under the clock with its exponent 2i/d, so the two turn alike; the old picture (clock i over plane i) is
    caught, and the voice says d is the head's, not "the same row"."""
    samples = probes("word_order_overview", "close")
    on = lambda s: all(s["on_screen"])  # noqa: E731
    assert sum(on(s) for s in samples) > 50
    assert not same_angle_disagreements(samples, arrows="arrow_points", hands="hand_points", on=on)
    cls = type(built_scene("word_order_overview")[0])
    end = samples[-1]
    assert formula_pair_problems(end["clock_names"], end["plane_names"], cls.CLOSE_ROW_D, cls.CLOSE_HEAD_D) == []
    old = [name.replace("平面", "钟") for name in end["plane_names"]]  # clock i over plane i
    assert formula_pair_problems(old, end["plane_names"], cls.CLOSE_ROW_D, cls.CLOSE_HEAD_D)
    said = build("word_order_overview").plan.cue("close").text
    assert "同一个公式" in said and "d 换成每个注意力头自己的维数" in said
    assert "走过多少" not in said and first_drawn(build("word_order_overview"), "q 转同样的角度") is None

    def turn_arrow(s):
        a, b = np.asarray(s["arrow_points"][0][0]), np.asarray(s["arrow_points"][0][1])
        s["arrow_points"][0][1] = (a + np.array([-(b - a)[1], (b - a)[0], 0.0])).tolist()
        return s

    assert same_angle_disagreements(
        perturbed(samples, on, turn_arrow), arrows="arrow_points", hands="hand_points", on=on
    )
