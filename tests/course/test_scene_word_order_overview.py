"""word_order_overview (word_order, class OverviewReel): lesson 2's overview: its title and sentence (the seat
card's chips), the blind swap, the failures from mathcore, the clocks, the table, RoPE's arrows and the close
arrows: drawn values against mathcore, labels against the drawing.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import mathcore
from mathcore.toy_words import word_vectors
from narration import figures
from tests.support.course_scenes import built_scene, narration_scene
from tests.support.drawn import card_disagreements, direction_deg, last_number, signed_gap_deg
from tests.support.qk_labels import (
    formula_pair_problems,
    forward_rad,
    perturbed,
    probes,
    same_angle_disagreements,
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


def test_overview_clocks_table_close():
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


def fast_slow_problems(text: str) -> list[str]:
    """Review 8, K3: the clocks cue says what the picture shows (the fastest clock's turn in seats, the slowest's),
    not seed 001's pairing 快钟分清近处、慢钟分清远处."""
    out = ["seed 001's fast/slow pairing"] if "分清近处" in text or "分清远处" in text else []
    if figures.value("wl_fast_512") not in figures.fill(text) and "{wl_fast_512}" not in text:
        out.append("the fastest clock's turn is not given")
    return out


def test_fast_slow_check_catches_the_round_eight_clocks():
    """Seeded: the clocks cue review 8 read is caught."""
    old = "往后挪一个座位，每根指针各转一个固定的角度。快钟分清近处，慢钟分清远处。"
    assert len(fast_slow_problems(old)) == 2


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
    assert "出自同一个公式" in close and "加到 x 上" not in close
    assert not any(w in close for w in ("接下来", "小题", "完整的课", "下一节"))
    assert first_drawn(scene, "接下来：一节一节展开，最后四道小题") is None
    assert "RoPE（旋转位置编码）" in close
    # a bracketed gloss is not read as part of the sentence: the voice says it with 也就是
    root = Path(__file__).resolve().parents[2]
    lesson = yaml.safe_load((root / "narration" / "word_order.yaml").read_text(encoding="utf-8"))
    (overview,) = [s for s in lesson["scenes"] if s["id"] == "word_order_overview"]
    said = {c["id"]: c.get("say", "") for c in overview["cues"]}
    assert "RoPE，也就是旋转位置编码" in said["close"] and "（" not in said["close"]
    clocks = plan.cue("clocks").text
    assert clocks.index("2017") < clocks.index("原论文") and "提出 Transformer" in clocks
    assert "绝对值" in clocks  # |reading| ≤ 1, readings reach −1
    assert fast_slow_problems(clocks) == [] and first_drawn(scene, "快钟分清近处，慢钟分清远处") is None
    caption = first_drawn(scene, "原论文（2017）：一排钟")
    assert caption is not None and caption.cue.endswith("clocks")
    assert "打折扣" not in close and first_drawn(scene, "超出训练时的长度：效果会打折扣") is None


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
    assert "同一个公式" in said and "d 换成每次打分用的 q、k 的维数" in said
    assert "走过多少" not in said and first_drawn(build("word_order_overview"), "q 转同样的角度") is None

    def turn_arrow(s):
        a, b = np.asarray(s["arrow_points"][0][0]), np.asarray(s["arrow_points"][0][1])
        s["arrow_points"][0][1] = (a + np.array([-(b - a)[1], (b - a)[0], 0.0])).tolist()
        return s

    assert same_angle_disagreements(
        perturbed(samples, on, turn_arrow), arrows="arrow_points", hands="hand_points", on=on
    )


# -- review 9, M4: the learned table's length is BERT's; GPT-2's is twice as long ------------------------------
def table_length_problems(said: str, shown: list[str], rows: tuple[tuple[str, int], ...]) -> list[str]:
    """Each model named in the table cue is named, voice and screen, with its own number of rows; no sentence
    lends the drawn table's end (511) to all of them."""
    out = []
    for name, n in rows:
        if f"{name}：{n}行" not in "".join(shown).replace(" ", ""):  # Text keeps no spaces
            out.append(f"the screen does not give {name} {n} rows")
        if name not in said or str(n) not in said:
            out.append(f"the voice does not give {name} {n} rows")
    if "BERT 和 GPT-2 用的就是这种表" in said:
        out.append("the voice gives both models the drawn table's length")
    return out


def test_overview_table_gives_each_model_its_length():
    scene = build("word_order_overview")
    rows = type(scene).MODEL_TABLE_ROWS
    assert dict(rows) == {"BERT": 512, "GPT-2": 1024}  # BERT's max_position_embeddings, GPT-2's n_ctx
    said = scene.plan.cue("table").text
    shown = scene.probes["table_side"][0]["texts"]
    assert table_length_problems(said, shown, rows) == []
    old_said = "也可以让模型自己学：左边这张表，座位 0 到 511 各占一行，数是训练出来的。表只排到 511 号，再往后的座位查不到。BERT 和 GPT-2 用的就是这种表。"
    old_shown = [*shown[:3], "BERT、GPT-2"]  # round 9: one line, no lengths
    assert len(table_length_problems(old_said, old_shown, rows)) == 5  # seeded: round 9 (voice, screen, both lent 511)
