"""Lesson 2 (word_order), the scenes with one or two checks each: blind_bag, seat_card, failing_encodings,
learned_table, further_reading; and across the lesson: the paper named at its first mention, and "distance only"
always said with the length caveat. The lesson's other scenes have files of their own,
tests/course/test_scene_<scene_id>.py.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import mathcore
from mathcore.toy_words import word_vectors
from narration import figures
from tests.support.course_scenes import narration_scene
from tests.support.scene_probes import bare, first_drawn, one

TOL = 1e-6


@pytest.fixture(scope="module")
def scene_b():
    return narration_scene


def blind_bag_disagreements(samples, x) -> list[str]:
    """Each drawn output strip against attention of the sentence in the order its chips show, slot for slot
    (once the words stand still), and each strip under its own chip."""
    out = []
    for s in samples:
        for j, (strip, want) in enumerate(zip(s["shown"], s["recomputed"])):
            if abs(s["slot_x"][j] - s["slots"][j]) > 1e-6:
                continue  # moving with its word
            if not np.allclose(strip, want, atol=TOL):
                out.append(f"frame {s['frame']}: slot {j}: the strip is not the output of the word shown there")
    return out


def test_blind_bag_recalls_the_shuffle(scene_b):
    """word_order's reminder: the outputs move with their words, recomputing on the new order gives the same
    strips (置换等变, named on screen), and a strip moved to another word's slot would be caught."""
    scene = scene_b("blind_bag")
    words, perm = list(scene.WORDS), list(scene.PERM)
    x = word_vectors(words, scene.D)
    samples = scene.probes["demo"]
    assert samples[0]["order"] == list(range(len(words))) and samples[-1]["order"] == perm
    assert np.allclose(samples[0]["shown"], mathcore.attention(x, x, x), atol=TOL)
    assert np.allclose(samples[-1]["shown"], mathcore.attention(x[perm], x[perm], x[perm]), atol=TOL)
    assert blind_bag_disagreements(samples, x) == []
    recall = one(scene, "recall")
    assert recall["term"] == "置换等变" and recall["perm"] == perm
    assert "置换等变" in scene.plan.cue("recall").text
    bad = [dict(s, shown=[s["shown"][1], s["shown"][0], *s["shown"][2:]]) for s in samples]
    assert blind_bag_disagreements(bad, x)


def build(scene_id: str):
    return narration_scene(scene_id)


# -- SeatNumberCard, FurtherReading, NextStep --------------------------------------------
def test_seat_card_numbers():
    scene = build("seat_card")
    assert scene.probes["idea_seats"][0]["shown"] == ["0", "1", "2", "3", "4"]
    hops = scene.probes["hops"][0]
    assert hops["shown"] == [[str(a), str(b)] for a, b in hops["pairs"]]
    assert all(b - a == 1 for a, b in hops["pairs"])
    for (start, end), (xa, xb) in zip(hops["hop_ends"], hops["ticks"]):  # each hop goes from its seat to the next
        assert start == pytest.approx(xa, abs=0.02) and end == pytest.approx(xb, abs=0.02)
    text = scene.plan.cue("req_steady").text
    assert all(str(s) in text for pair in hops["pairs"] for s in pair)


# -- FailingEncodings ------------------------------------------------------------------------------
def test_failing_encodings_values(scene_b):
    scene = scene_b("failing_encodings")
    x_cat, x_dog = word_vectors([scene.WORD, scene.OTHER], scene.D)
    raw = lambda p: mathcore.raw_index_encoding([p], scene.D)[0]  # noqa: E731
    bars = [s for s in scene.probes["bars"] if s["on_screen"]]
    assert len(bars) > 100
    for s in bars:
        assert np.allclose(s["code"], raw(s["p"]), atol=TOL)
        assert np.allclose(s["word"], x_cat, atol=TOL)
        want = np.asarray(s["code"]) + x_cat
        assert np.allclose(s["drawn"], want, rtol=TOL, atol=TOL)
    assert min(s["p"] for s in bars) == scene.NEAR and max(s["p"] for s in bars) == scene.FAR
    assert one(scene, "seat_far")["p"] == scene.FAR and one(scene, "seat_far")["shown"] == str(scene.FAR)
    rows = one(scene, "raw_rows")
    assert np.allclose(rows["x"], x_cat) and np.allclose(rows["p"], raw(scene.NEAR))
    # vectors are written in parentheses, as in the overview: p = (3, 3, 3, 3)
    assert rows["shown"][1] == "p=(" + ",".join(figures.fmt_dec(v) for v in raw(scene.NEAR)) + ")"
    cat = one(scene, "raw_cat")
    assert cat["dot_word"] == pytest.approx(float(x_cat @ x_dog), abs=TOL)
    assert cat["dot_far"] == pytest.approx(float((x_cat + raw(scene.FAR)) @ (x_dog + raw(scene.FAR))), rel=1e-12)
    assert cat["dist_same_word"] == pytest.approx(np.linalg.norm(raw(scene.FAR) - raw(scene.NEAR)), abs=TOL)
    assert cat["dist_words"] == pytest.approx(np.linalg.norm(x_cat - x_dog), abs=TOL)
    assert cat["dist_same_word"] > 1000 * cat["dist_words"]
    assert figures.fmt_dec(cat["dot_word"]) in cat["shown"][0]
    far_dot = float((x_cat + raw(scene.FAR)) @ (x_dog + raw(scene.FAR)))
    assert f"≈{figures.fmt_dec(far_dot / 1e8, 1)}亿" in cat["shown"][1]  # ≈ 1 亿, not 8 digits
    assert len(cat["shown"][1].split("≈")[1]) <= 5  # a short figure, e.g. "1亿"
    assert "@" not in "".join(cat["shown"])
    codes = one(scene, "norm_codes")
    short_n, long_n = figures.NORM_LENGTHS
    assert np.allclose(codes["short_dots"], mathcore.length_normalised_encoding(np.arange(short_n), short_n, 1)[:, 0])
    assert np.allclose(codes["long_dots"], mathcore.length_normalised_encoding(np.arange(long_n), long_n, 1)[:, 0])
    assert codes["shown"] == [figures.value("norm_code_short"), figures.value("norm_code_long")]
    steps = one(scene, "norm_steps")
    assert steps["shown"] == [f"一步{figures.value('norm_step_short')}", f"一步{figures.value('norm_step_long')}"]
    assert np.allclose(
        steps["drawn"], [float(figures.value("norm_step_short")), float(figures.value("norm_step_long"))]
    )
    # seats are counted 个座位 (not 座); the verdicts are led by a drawn cross (the course font has no ✗)
    assert f"第{scene.FAR}个座位" in cat["shown"][1] and f"第{scene.NEAR}个座位的{scene.WORD}" in cat["shown"][2]
    verdicts = scene.probes["verdict"]
    assert [v["text"].split("：")[0] for v in verdicts] == ["违反第二条", "违反第三条"]
    assert all(v["kind"] == "cross" and v["mark_left_of_text"] and "✗" not in v["text"] for v in verdicts)


# -- LearnedTable ----------------------------------------------------------------------------------
def test_learned_table_rows(scene_b):
    scene = scene_b("learned_table")
    table = one(scene, "table")
    want = mathcore.learned_table(scene.MAX_LEN, scene.D, seed=scene.SEED)
    assert np.array_equal(np.array(table["values"]), want)
    drawn = table["drawn"]
    assert len(drawn) == scene.MAX_LEN and all(len(r) == scene.D for r in drawn)
    # darker cell ⇔ smaller value: the colour order follows the value order in every row
    flat_v, flat_c = want.ravel(), [c for r in drawn for c in r]
    assert flat_c[int(np.argmax(flat_v))] != flat_c[int(np.argmin(flat_v))]
    assert one(scene, "lookups")["lit"] == one(scene, "lookups")["seats"]
    ghost = one(scene, "ghost")
    assert ghost["seat"] == ghost["rows"] == want.shape[0]  # the first seat with no row
    # the pro and the con, each led by a drawn mark (the course font has no ✗; the tick is drawn to match)
    assert [(v["kind"], v["text"]) for v in one(scene, "verdicts")["lines"]] == [
        ("tick", "贴合训练数据"),
        ("cross", "长度写死了"),
    ]
    w = mathcore.frequencies(scene.D)
    clocks = [s for s in scene.probes["clocks"] if s["on_screen"]]
    for s in clocks:
        diff = (np.array(s["hand_angles"]) - s["p"] * w + np.pi) % (2 * np.pi) - np.pi
        assert np.all(np.abs(diff) <= TOL)
    assert clocks[-1]["p"] == scene.CLOCK_TO > scene.MAX_LEN
    # paper_choice: the screen follows the voice: tried both (a tie) → chose the clocks (any seat) → unseen
    # lengths go badly anyway; each line appears after its bookmark
    cue = scene.plan.cue("paper_choice")
    lines = scene.probes["paper_line"]
    assert [s["frame"] for s in lines] == sorted(s["frame"] for s in lines)
    keys = ("两种都试了", "选了那排钟", "更长的句子", "没见过")
    assert all(k in s["text"] for k, s in zip(keys, lines)) and len(lines) == len(keys)
    spoken = [cue.text.index(k) for k in keys]
    assert spoken == sorted(spoken)
    assert lines[1]["frame"] > cue.bookmarks["pick"] and lines[3]["frame"] > cue.bookmarks["but"]


def test_further_reading_matches_narration():
    scene = build("further_reading")
    entries = scene.probes["entries"][0]
    plan = scene.plan
    assert "2017" in entries["titles"][0] and "2017" in plan.cue("paper").text
    assert bare("Attention Is All You Need") in entries["titles"][0]
    assert "3.5" in entries["section"] and "3.5" in plan.cue("section").text
    assert "RoFormer" in entries["titles"][1] and "2021" in entries["titles"][1]
    assert "RoFormer" in plan.cue("roformer").text and "2021" in plan.cue("roformer").text
    assert "EleutherAI" in plan.cue("blogs").text
    assert len(entries["titles"]) == 4


def test_word_order_names_the_paper_at_its_first_mention():
    from tests.support.course_text import narration_places

    cues = [p for p in narration_places() if p.lesson == "word_order" and p.channel == "subtitles"]
    first = next(p for p in cues if "原论文" in p.text)
    assert "2017" in first.text and "Transformer" in first.text, first.where


def test_word_order_distance_only_always_comes_with_the_length_caveat():
    """Wherever lesson 2 says that the score only depends on the distance, the same scene says that beyond
    the training length it works less well (the caveat is drawn too, where the scene draws the claim)."""
    from tests.support.course_text import narration_places

    claims = ("只看两个词隔", "只由距离决定", "只看距离", "只看隔了几个座位", "只由两个座位的距离")
    by_scene: dict[str, list[str]] = {}
    for p in narration_places():
        if p.lesson == "word_order" and p.channel == "subtitles" and p.scene:
            by_scene.setdefault(p.scene, []).append(p.text)
    claiming = sorted(s for s, texts in by_scene.items() if any(c in t for t in texts for c in claims))
    assert {"word_order_overview", "qk_widget", "word_order_quiz"} <= set(claiming)
    for s in claiming:
        assert any("训练" in t and ("长度" in t or "长" in t) for t in by_scene[s]), s
    widget = build("qk_widget")
    slide = widget.plan.cue("slide")
    drawn = first_drawn(widget, "超出训练时的长度：效果会打折扣")
    assert drawn is not None and drawn.cue.endswith("slide") and drawn.frame >= slide.bookmarks["caveat"]
