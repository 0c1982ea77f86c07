"""One name per concept, course-wide: no variant of narration/glossary.yaml in anything a viewer meets.

Checked: every cue's subtitle text and ``say:`` form (figures filled), the titles, and every string each
scene draws, recorded while the scene is built in a dry run (Text on screen, Typst sources as formulas).
A failure names the lesson and cue (or the scene, the cue on screen and the frame), the variant found
and the term to use. The same function, :func:`narration.glossary.find_variants`, checks seeded texts
below to show that it fails on a variant.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coursekit.core.errors import UserError
from coursekit.render.drawn_text import DrawnText
from narration.glossary import GLOSSARY, Place, find_variants, load_glossary
from tests.support.course_text import drawn_texts, lesson_ids, narration_places, scenes_of, screen_places

G = load_glossary()


def report(offences) -> str:
    return f"{len(offences)} variant(s) of the glossary (narration/glossary.yaml):\n" + "\n".join(
        o.line() for o in offences
    )


# -- the course ------------------------------------------------------------------------------------
def test_the_narration_uses_the_glossary():
    offences = find_variants(narration_places(), G)
    assert not offences, report(offences)


@pytest.mark.parametrize("lesson", lesson_ids())  # one lesson's builds per test: xdist_unit_of sends each to its worker
def test_every_drawn_string_uses_the_glossary(lesson):
    places, broken = [], []
    for sid in scenes_of(lesson):
        try:
            places += screen_places(drawn_texts(sid), lesson)
        except Exception as exc:  # one scene that does not build must not hide the others
            broken.append(f"scene {sid} did not build: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
    assert len(places) > 150  # the recorder saw the lesson's texts
    offences = find_variants(places, G)
    assert not offences and not broken, "\n".join(broken) + ("\n" if broken else "") + report(offences)


# -- the check fails on a seeded variant ------------------------------------------------------------
def _lines(offences) -> set[str]:
    return {o.line() for o in offences}


def test_a_variant_seeded_into_a_copy_of_a_cue_is_found_with_its_cue_and_the_term():
    real = narration_places()
    k = next(i for i, p in enumerate(real) if p.where.endswith("cue clock_row.intro"))
    seeded = list(real)
    seeded[k] = Place(
        real[k].where,
        real[k].channel,
        real[k].lesson,
        real[k].scene,
        real[k].text + "每往后一格，快针多转一步，走速是 w_i。",
    )
    before = _lines(find_variants(real, G))
    new = [o for o in find_variants(seeded, G) if o.line() not in before]
    assert len(new) == 4, [o.line() for o in new]
    assert all(o.line().startswith("trig_to_rope · cue clock_row.intro [subtitles]: ") for o in new)
    assert {(o.found, o.variant.use.split("（")[0]) for o in new} == {
        ("格", "位置"),
        ("针", "指针"),
        ("走速", "转速"),
        ("w_", "ω"),
    }
    assert all(f"→ use {o.variant.use}" in o.line() for o in new)


def test_a_variant_in_a_fake_drawn_string_is_found_with_its_scene():
    fake = [
        DrawnText("clock_row", "钟 1 的表针：第 44 座", "Text", 120, "clock_row.unique"),
        DrawnText("clock_row", "Q 和 K 的内积", "Text", 130, "clock_row.unique"),
    ]
    lines = sorted(o.line() for o in find_variants(screen_places(fake, "trig_to_rope"), G))
    assert len(lines) == 5, lines
    assert all(
        line.startswith("trig_to_rope · scene clock_row · on screen in clock_row.unique, frame 1") for line in lines
    )
    assert {re.search(r"“(.+?)”", line).group(1) for line in lines} == {"表针", "4 座", "Q", "K", "内积"}


def test_formulas_keep_their_own_letters_but_not_the_wrong_symbol():
    fake = [
        DrawnText("s", "$ Q K^T $", "Typst", 1, "s.a"),
        DrawnText("s", "$ w_i = 10000^(-2i/d) $", "Typst", 1, "s.a"),
    ]
    lines = [o.line() for o in find_variants(screen_places(fake, "rotation_matrix"), G)]
    assert len(lines) == 1 and "“w_” → use ω" in lines[0] and "[formulas]" in lines[0]


@pytest.mark.parametrize(
    "text",
    [
        "每对一个转速（角频率）",
        "最慢的指针",
        "逆时针转",
        "框出的格子",
        "44 号座位",
        "坐在 2 号座位的 q 转 60°",
        "从 3 号座位挪到 4 号",
        "位置 m 上的词转 mθ",
        "第一个词坐 0 号",
        "第 0 个钟最快",
        "查询向量 q、键向量 k、值向量 v",
        "查询矩阵乘上键矩阵",
        "k 相对 q 转过的角是 (n−m)θ",
        "夹角都是 110°",
        "softmax（化成和为 1 的权重）",
        "表里的数",
        "Gram 矩阵（格拉姆）",
        "sin 30°",
        "表格的最后一行",
        "分数只看 n − m：隔几个座位、谁在前",
    ],
)
def test_the_right_words_pass(text):
    assert find_variants([Place("seed", "subtitles", "word_order", "seat_card", text)], G) == []


@pytest.mark.parametrize(
    "text, found",
    [
        ("转过的角度就是频率乘以 n", "频率"),
        ("每格转 1 弧度", "格"),
        ("一圈 ≈63 座", "3 座"),
        ("约 6.1 万座", "万座"),
        ("快针区分近处", "针"),
        ("每行归一化", "每行归一化"),
        ("V 不转", "V"),
        ("夹角 = 30° + (n−m)θ", "夹角 = 30° + (n−m)θ"),
        ("夹角是 −30°", "夹角是 −3"),
        ("夹角 200°", "夹角 200°"),
        ("数量积", "数量积"),
        ("一块表", "块表"),
        ("同一对 q、k：分数只看距离", "只看距离"),
        ("分数只看两个词隔了几个座位", "只看两个词隔了几个座位"),
        ("第 44 个座位", "第 44 个座位"),
        ("坐在第 2 个座位的 q", "第 2 个座位"),
        ("同一个第 2 号座位", "第 2 号座位"),
        ("排在第 m 个位置的词", "第 m 个位置"),
        ("k 在第 n 个位置", "第 n 个位置"),
    ],
)
def test_each_variant_is_found(text, found):
    got = find_variants([Place("seed", "subtitles", "word_order", "seat_card", text)], G)
    assert [o.found for o in got] == [found]


def test_an_ordinal_seat_is_found_in_every_lesson_and_in_a_seeded_cue():
    """Seats and positions count from 0 and are named by their label ("2 号座位", "位置 m"): "第 2 个座位"
    is the second seat, seat 1 (review 4, E1). Found in all three lessons, also when the seat word comes later."""
    for lesson in ("trig_to_rope", "word_order", "rotation_matrix"):
        got = find_variants([Place("x", "subtitles", lesson, None, "从第 3 个还是第 5000 个位置出发")], G)
        assert [o.found for o in got] == ["第 3 个", "第 5000 个位置"], lesson
    real = narration_places()
    k = next(i for i, p in enumerate(real) if p.where.endswith("cue seat_card.idea") and p.channel == "subtitles")
    seeded = list(real)
    seeded[k] = Place(
        real[k].where, "subtitles", "word_order", "seat_card", real[k].text + "坐在第 2 个座位的 q 转 60°。"
    )
    before = _lines(find_variants(real, G))
    new = [o for o in find_variants(seeded, G) if o.line() not in before]
    assert [o.found for o in new] == ["第 2 个座位"], [o.line() for o in new]
    assert new[0].line().startswith("word_order · cue seat_card.idea [subtitles]: ") and "号座位" in new[0].line()


def test_an_allowed_context_is_allowed_where_and_as_often_as_it_says():
    once = Place("rotation_matrix · cue a.b", "subtitles", "rotation_matrix", "rot_opening", "点积（内积）")
    assert find_variants([once], G) == []
    assert [o.found for o in find_variants([once, once], G)] == ["内积"]  # at most once
    elsewhere = Place("word_order · cue c.d", "subtitles", "word_order", "seat_card", "点积（内积）")
    assert [o.found for o in find_variants([elsewhere], G)] == ["内积"]  # only in lesson 3
    table = Place("x", "screen", "trig_to_rope", "summary_table", "课本叫数量积")
    assert find_variants([table], G) == []
    assert [o.found for o in find_variants([Place("x", "screen", "trig_to_rope", "unit_circle", "数量积")], G)] == [
        "数量积"
    ]


def test_seats_belong_to_lessons_two_and_three():
    def found(lesson):
        return [o.found for o in find_variants([Place("x", "subtitles", lesson, None, "3 号座位")], G)]

    assert found("trig_to_rope") == ["座位"]
    assert found("word_order") == found("rotation_matrix") == []


# -- the file --------------------------------------------------------------------------------------
def test_the_glossary_holds_the_course_decisions():
    terms = " ".join(c.term for c in G.concepts)
    for term in ("转速", "钟", "指针", "点积", "softmax", "位置", "座位", "查询向量 q", "键向量 k", "值向量 v", "夹角"):
        assert term in terms
    assert next(c for c in G.concepts if c.term == "转速").symbol == "ω"


@pytest.mark.parametrize(
    "text, says",
    [
        ("concepts: []", "concepts: Tuple should have at least 1 item"),
        (
            "concepts:\n  - {concept: a, term: b, variants: [{find: '(?<!x', use: c}]}",
            "concepts[0].variants[0].find: not a regular expression",
        ),
        (
            "concepts:\n  - {concept: a, term: b, variants: [{find: x, use: c, allowed: [{context: y}]}]}",
            "allowed context 'y' does not contain the variant 'x'",
        ),
        (
            "concepts:\n  - {concept: a, term: b, variants: [{find: x, use: c, channels: [radio]}]}",
            "channels must be some of",
        ),
        (
            "concepts:\n  - {concept: a, term: b, colour: red, variants: [{find: x, use: c}]}",
            "concepts[0].colour: Extra inputs are not permitted",
        ),
    ],
)
def test_a_bad_glossary_is_one_line_naming_the_key(text, says):
    with pytest.raises(UserError) as e:
        load_glossary(GLOSSARY, text)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("narration/glossary.yaml: ") and says in msg, msg


def test_a_missing_glossary_is_one_line(tmp_path: Path):
    with pytest.raises(UserError, match="glossary.yaml: cannot read it"):
        load_glossary(tmp_path / "glossary.yaml")
