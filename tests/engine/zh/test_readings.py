"""The polyphone check (coursekit/zh/readings.py): every multi-reading character of the narration,
in both spoken forms, has a known reason for its reading (tests/course/test_lexicon.py); here, that the
check finds what it should."""

from __future__ import annotations

import pytest

from coursekit.zh.lexicon import Lexicon
from coursekit.zh.reading_rules import RULES, Place
from coursekit.zh.readings import check_text, multi_reading, witness_words


def _fails(text: str, lexicon: Lexicon | None = None) -> dict[str, str]:
    """char -> why, for the unjustified occurrences in ``text``."""
    return {o.char: o.why for o in check_text(text, lexicon or Lexicon()) if o.kind is None}


def _kinds(text: str, lexicon: Lexicon | None = None) -> dict[str, str | None]:
    return {o.char: o.kind for o in check_text(text, lexicon or Lexicon())}


# ---------------------------------------------------------------- (b) phrases and the witness


def test_a_segmentation_error_is_reported_not_trusted():
    # pypinyin's segmenter cuts 之|间隔|了 and reads 间 jiàn; the witness word is 之间 (jiān)
    why = _fails("两个词之间隔了三格")
    assert "间" in why and "之间" in why["间"] and "jian1" in why["间"]
    # pinned, it is justified by (a)
    lex = Lexicon.from_data({"readings": {"之间": "zhi1 jian1"}})
    assert _kinds("两个词之间隔了三格", lex)["间"] == "a"


def test_a_shared_mistake_of_both_segmenters_is_caught_as_ambiguous():
    # both pypinyin and jieba cut 中|间隔|着; the rival word 中间 makes the place ambiguous
    why = _fails("中间隔着一道坎")
    assert "ambiguous" in why["间"] and "中间" in why["间"]


def test_a_dictionary_word_really_cut_here_is_b():
    kinds = _kinds("模型的长度")
    assert kinds["模"] == "b"  # 模型 mó xíng, a phrase the segmenter produced


# ---------------------------------------------------------------- (a) pins


def test_a_short_pin_inside_a_longer_word_that_reads_otherwise_is_reported():
    lex = Lexicon.from_data({"readings": {"长": "chang2"}})
    why = _fails("他在成长", lex)
    assert "成长" in why["长"] and "zhang3" in why["长"]
    assert _kinds("长度很长", lex)["长"] == "a"


def test_listed_polyphones_must_be_pinned():
    lex = Lexicon.from_data({"polyphones": ["行"]})
    assert "polyphones" in _fails("并行计算", lex)["行"]
    lex = Lexicon.from_data({"polyphones": ["行"], "readings": {"并行": "bing4 xing2"}})
    assert _kinds("并行计算", lex)["行"] == "a"


# ---------------------------------------------------------------- (c) rules


def test_adverbial_de_is_required_where_pypinyin_says_di():
    why = _fails("所有词一起并行地算")
    assert "particle de (地)" in why["地"] and "di4" in why["地"]
    lex = Lexicon.from_data({"readings": {"并行地": "bing4 xing2 de5"}})
    assert _kinds("所有词一起并行地算", lex)["地"] == "a"


def _place(text: str, ch: str) -> Place:
    return Place(text, text.index(ch), witness_words(text))


@pytest.mark.parametrize(
    "text,ch,applies",
    [
        ("我们的书", "的", True),
        ("这的确是书", "的", False),  # 的确 dí
        ("并行地算", "地", True),
        ("他在地上", "地", False),  # 地上: a word of its own
        ("吃了饭", "了", True),
        ("他受不了", "了", False),  # liǎo
        ("了解一下", "了", False),
        ("横着读", "着", True),
        ("他很着急", "着", False),  # zháo
        ("用不着", "着", False),
        ("什么", "么", True),
        ("传斯佛么", "么", False),
        ("步子大小", "子", True),
        ("子空间", "子", False),
        ("落在同一处。", "处", True),
        ("处理", "处", False),
        ("先看一眼", "看", True),
        ("看守大门", "看", False),  # kān
        ("都是一", "都", True),
        ("首都北京", "都", False),  # dū
    ],
)
def test_rules_say_where_they_apply(text, ch, applies):
    rule = RULES[ch]
    why_not = rule.judge(_place(text, ch))
    assert (why_not is None) == applies, why_not


def test_a_lone_character_without_a_rule_is_reported():
    assert "no rule" in _fails("佛")["佛"]


def test_sandhi_rule_accepts_the_tones_of_one_syllable():
    rule = RULES["一"]
    assert {"yi1", "yi2", "yi4"} <= rule.readings
    assert RULES["不"].readings == {"bu4", "bu2"}
    assert _kinds("转一圈")["一"] == "c"


def test_every_rule_reading_is_a_reading_pypinyin_knows():
    from coursekit.zh.lexicon import _known_bases

    for ch, rule in RULES.items():
        bases = _known_bases(ch)
        assert rule.readings and all(r[:-1] in bases for r in rule.readings), (ch, rule.readings, bases)
        assert rule.why, ch
        assert ch in multi_reading(), f"{ch} has one reading; it needs no rule"


# ---------------------------------------------------------------- a course's own rules (lexicon `rules`)


def test_a_course_extends_the_rules_with_data():
    from coursekit.zh.reading_rules import rules_for

    assert "no rule" in _fails("佛")["佛"]
    own = Lexicon.from_data(
        {"rules": {"佛": {"reading": "fu2", "why": "fó only in these words", "not_in": ["佛教", "佛经"]}}}
    )
    assert [(o.kind, o.why) for o in check_text("佛", own)] == [("c", "rule 'word-bound'")]
    assert "inside 佛教" in rules_for(own)["佛"].judge(_place("佛教", "佛"))
    wrong = Lexicon.from_data({"rules": {"佛": {"reading": "fo2", "why": "fú is archaic"}}})
    assert "says fo2" in _fails("佛", wrong)["佛"]  # a rule is checked, not trusted
    assert own.digest == Lexicon().digest and own.readings_digest == Lexicon().readings_digest  # no voice hears a rule


@pytest.mark.parametrize(
    "rule,needle",
    [
        ({"转转": {"reading": "zhuan4", "why": "x"}}, "single Chinese character"),
        ({"肉": {"reading": "rou", "why": "x"}}, "tone number"),
        ({"肉": {"reading": "mao2", "why": "x"}}, "not a reading of 肉"),
        ({"肉": {"reading": "rou4", "why": " "}}, "why is empty"),
        ({"派": {"reading": "pai4", "why": "x", "not_in": ["司机"]}}, "do not hold 派"),
        ({"肉": {"reading": "rou4"}}, "why"),
    ],
)
def test_a_bad_rule_is_one_line_naming_it(rule, needle):
    from coursekit.core.errors import UserError

    with pytest.raises(UserError) as err:
        Lexicon.from_data({"rules": rule})
    assert needle in str(err.value) and "\n" not in str(err.value), str(err.value)
