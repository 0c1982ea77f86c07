"""Per-voice terms (Latin forms for voices that read Latin script), what the digests follow, and
numbers read as people say them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from coursekit.core.errors import UserError
from coursekit.zh.lexicon import PINYIN_RULES, Lexicon
from coursekit.zh.numbers import expand_numbers, year_to_chinese

DATA = {
    "terms": {
        "RoPE": {"latin": "RoPE", "chinese": "肉普"},
        "θ": "西塔",
        "q": {"latin": "q", "chinese": "丘"},
        "(n−m)θ": {"latin": "n 减 m 个西塔", "chinese": "恩减艾姆个西塔"},
    },
    "readings": {"旋转": "xuan2 zhuan3"},
}


@pytest.fixture()
def lex() -> Lexicon:
    return Lexicon.from_data(DATA)


def test_each_kind_of_voice_gets_its_form(lex):
    written = "RoPE 把 q 转 θ，差 (n−m)θ"
    assert lex.speak(written).text == "肉普 把 丘 转 西塔，差 恩减艾姆个西塔"
    assert lex.speak(written, reads_latin=True).text == "RoPE 把 q 转 西塔，差 n 减 m 个西塔"
    # the same written pieces are matched for both, so offsets map the same way at the terms' edges
    a, b = lex.speak(written), lex.speak(written, reads_latin=True)
    assert [s[:2] for s in a.spans] == [s[:2] for s in b.spans]
    assert b.spoken_to_written(b.written_to_spoken(5)) == 5


def test_latin_voices_may_be_given_latin_letters(lex):
    assert lex.uncovered("RoPE 和 q") == []
    assert lex.uncovered("RoPE 和 q", reads_latin=True) == []
    assert lex.uncovered("softmax") == ["softmax"]
    assert lex.uncovered("softmax", reads_latin=True) == []  # a Latin voice reads it as written
    assert lex.uncovered("x²", reads_latin=True) == ["²"]


@pytest.mark.parametrize(
    "term,needle",
    [
        ({"RoPE": {"latin": "RoPE"}}, "exactly the keys latin and chinese"),
        ({"RoPE": {"latin": "RoPE", "chinese": "肉普", "en": "x"}}, "exactly the keys latin and chinese"),
        ({"RoPE": {"latin": "RoPE", "chinese": "rope"}}, "terms.RoPE.chinese"),
        ({"RoPE": {"latin": "Ro²PE", "chinese": "肉普"}}, "terms.RoPE.latin"),
        ({"RoPE": {"latin": "", "chinese": "肉普"}}, "empty"),
        ({"RoPE": "rope"}, "latin: ..., chinese: ..."),
    ],
)
def test_bad_per_voice_terms_are_one_line_errors(term, needle):
    with pytest.raises(UserError) as err:
        Lexicon.from_data({"terms": term}, "lexicon.yaml")
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_digests_follow_what_a_voice_hears(lex):
    other_latin = Lexicon.from_data({**DATA, "terms": {**DATA["terms"], "RoPE": {"latin": "Rope", "chinese": "肉普"}}})
    assert other_latin.digest != lex.digest  # an edge voice would hear something else
    assert other_latin.readings_digest == lex.readings_digest  # the pinyin of a spoken text is the same
    other_pin = Lexicon.from_data({**DATA, "readings": {"旋转": "xuan2 zhuan4"}})
    assert other_pin.readings_digest != lex.readings_digest and other_pin.digest != lex.digest


def test_readings_digest_includes_the_number_rules(lex, monkeypatch):
    import coursekit.zh.lexicon as lexicon_mod

    before = (lex.readings_digest, lex.digest)
    monkeypatch.setattr(lexicon_mod, "PINYIN_RULES", PINYIN_RULES + " (changed)")
    after = Lexicon.from_data(DATA)
    assert after.readings_digest != before[0] and after.digest != before[1]


def test_pinyin_voices_still_get_the_pinned_pinyin(lex):
    assert lex.pinyin(lex.speak("RoPE 旋转").text) == ["rou4", "pu3", "xuan2", "zhuan3"]
    # Latin left in a Latin voice's text gives no pinyin (that voice does not read pinyin)
    assert lex.pinyin(lex.speak("RoPE 旋转", reads_latin=True).text) == ["xuan2", "zhuan3"]
    text, units = lex.read_out("RoPE 旋转了 2017 年")
    assert text == "RoPE 旋转了 二〇一七 年"
    assert [(u.word, u.source) for u in units][:2] == [("旋转", "pinned"), ("了", "char")]


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "text,spoken",
    [
        ("2017 年的论文", "二〇一七 年的论文"),
        ("2021年", "二〇二一年"),
        ("1998 年", "一九九八 年"),
        ("5000 年", "五千 年"),  # not a year of this era: a number
        ("第 5000 个", "第 五千 个"),
        ("隔 2 格", "隔 两 格"),
        ("2 个钟", "两 个钟"),
        ("第 2 个", "第 二 个"),
        ("第2个", "第二个"),
        ("2 维", "二 维"),
        ("2 号座位", "二 号座位"),
        ("12 个", "十二 个"),
        ("2.5 个", "二点五 个"),
        ("在 2、k", "在 二、k"),
    ],
)
def test_numbers_as_people_say_them(text, spoken):
    assert expand_numbers(text) == spoken


def test_year_digits():
    assert year_to_chinese("2017") == "二〇一七"
    assert year_to_chinese("2000") == "二〇〇〇"


# ---------------------------------------------------------------- the real narration, both forms


def _real():
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from coursekit.core.paths import narration_dir

    return load_course(load_config().lessons), Lexicon.load(narration_dir() / "lexicon.yaml")


def test_stale_cues_judges_a_plan_by_its_kind_of_voice(monkeypatch):
    from coursekit.assemble import subtitle_files
    from coursekit.content.cue_text import cue_text

    course, lexicon = _real()
    lesson = course.lesson("word_order")

    def plan(reads_latin: bool):
        scenes = [
            SimpleNamespace(
                cues=[
                    SimpleNamespace(
                        id=c.id,
                        spoken=cue_text(c, lexicon, reads_latin=reads_latin).spoken,
                        text=cue_text(c, lexicon).written,
                    )
                    for c in s.cues
                ]
            )
            for s in lesson.scenes
        ]
        return SimpleNamespace(lesson="word_order", scenes=scenes)

    assert subtitle_files.stale_cues(course, plan(False)) == []
    assert subtitle_files.stale_cues(course, plan(True)) == []
    mixed = plan(True)
    first = mixed.scenes[0].cues[0]
    mixed.scenes[0].cues[0] = SimpleNamespace(id=first.id, spoken=first.spoken + "。", text=first.text)
    assert subtitle_files.stale_cues(course, mixed) == [first.id]
