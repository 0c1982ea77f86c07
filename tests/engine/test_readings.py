"""The polyphone check (coursekit/zh/readings.py): every multi-reading character of the narration,
in both spoken forms, has a known reason for its reading; and the check finds what it should."""
from __future__ import annotations

import pytest

from coursekit.content.reading_check import check_course
from coursekit.zh.chars import is_cjk
from coursekit.zh.lexicon import Lexicon
from coursekit.zh.reading_rules import RULES, Place
from coursekit.zh.readings import check_text, multi_reading, witness_words

LESSONS = ("trig_to_rope", "word_order", "rotation_matrix")


@pytest.fixture(scope="module")
def report():
    from coursekit.content.narration import load_course
    from coursekit.core.paths import narration_dir

    return check_course(load_course(LESSONS), Lexicon.load(narration_dir() / "lexicon.yaml"))


def _fails(text: str, lexicon: Lexicon | None = None) -> dict[str, str]:
    """char -> why, for the unjustified occurrences in ``text``."""
    return {o.char: o.why for o in check_text(text, lexicon or Lexicon()) if o.kind is None}


def _kinds(text: str, lexicon: Lexicon | None = None) -> dict[str, str | None]:
    return {o.char: o.kind for o in check_text(text, lexicon or Lexicon())}


# ---------------------------------------------------------------- the real narration

def test_every_polyphone_of_the_narration_is_read_for_a_reason(report):
    bad = report.failures
    assert not bad, (
        f"{len(bad)} occurrence(s) of multi-reading characters have no known reason for their reading "
        "(pin the word in narration/lexicon.yaml readings, reword the cue, or give the character a rule "
        "with its reason in the lexicon's rules):\n" + "\n".join("  " + o.line() for o in bad))


def test_the_check_covers_every_occurrence_in_both_forms(report):
    from coursekit.content.narration import load_course
    from coursekit.content.cue_text import cue_text

    lexicon = Lexicon.load()
    multi = multi_reading()
    assert len(multi) > 8000
    expected = {"chinese": 0, "latin": 0}
    for lesson in load_course(LESSONS).lessons:
        for scene in lesson.scenes:
            for cue in scene.cues:
                for form, latin in (("chinese", False), ("latin", True)):
                    text, _ = lexicon.read_out(cue_text(cue, lexicon, reads_latin=latin).spoken)
                    expected[form] += sum(ch in multi for ch in text)
    for form, n in expected.items():
        c = report.counts(form)
        assert c["occurrences"] == n > 3000
        assert c["a"] + c["b"] + c["c"] + c["unjustified"] == n
        assert c["a"] and c["b"] and c["c"]
    # the Latin form really is another text: fewer transliterated characters
    assert report.counts("latin")["occurrences"] < report.counts("chinese")["occurrences"]


def test_the_pinyin_is_the_one_the_check_reads(report):
    """``Lexicon.pinyin`` is exactly the syllables of ``read_out``, and equals pypinyin run on whole
    runs between pins (the implementation before read_out existed): same segmentation."""
    import re

    from pypinyin import Style, lazy_pinyin

    from coursekit.zh.numbers import expand_numbers
    from coursekit.content.narration import load_course
    from coursekit.content.cue_text import cue_text

    lexicon = Lexicon.load()

    def whole_runs(spoken: str) -> list[str]:
        text = expand_numbers(spoken)
        out: list[str] = []

        def free(chunk: str) -> None:
            for run in re.findall(r"[^\W\d_a-zA-Z]+", chunk):
                han = "".join(ch for ch in run if is_cjk(ch))
                if han:
                    out.extend(s.replace("ü", "v") for s in
                               lazy_pinyin(han, style=Style.TONE3, neutral_tone_with_five=True, errors="ignore"))
        pos = 0
        for start, word in lexicon.pinned_spans(text):
            free(text[pos:start])
            out.extend(lexicon.readings[word])
            pos = start + len(word)
        free(text[pos:])
        return out

    for lesson in load_course(LESSONS).lessons:
        for scene in lesson.scenes:
            for cue in scene.cues:
                for latin in (False, True):
                    spoken = cue_text(cue, lexicon, reads_latin=latin).spoken
                    assert lexicon.pinyin(spoken) == whole_runs(spoken), cue.id


def test_fixed_misreadings_stay_fixed():
    lexicon = Lexicon.load()
    py = lexicon.pinyin
    assert py("所有词一起并行地算")[-2:] == ["de5", "suan4"]          # was di4
    assert py("两者一维一维地相加")[-3] == "de5"
    assert py("一行一行地归一化")[4] == "de5"
    assert py("只有框出的几格")[2] == "kuang4"                          # was kuang1
    assert py("词义那部分已经")[4] == "fen5"                            # was fen1 (one-character pin)
    assert py("变多少只看角度差")[-1] == "cha1"                         # the difference, not chà
    assert py("两者转角之差")[2] == "zhuan4"
    assert py("传斯佛么")[2] == "fo2"
    assert py("和近处分不清")[2:4] == ["chu4", "fen1"]


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
    assert kinds["模"] == "b"        # 模型 mó xíng, a phrase the segmenter produced


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


@pytest.mark.parametrize("text,ch,applies", [
    ("我们的书", "的", True),
    ("这的确是书", "的", False),          # 的确 dí
    ("并行地算", "地", True),
    ("他在地上", "地", False),            # 地上: a word of its own
    ("吃了饭", "了", True),
    ("他受不了", "了", False),            # liǎo
    ("了解一下", "了", False),
    ("横着读", "着", True),
    ("他很着急", "着", False),            # zháo
    ("用不着", "着", False),
    ("什么", "么", True),
    ("传斯佛么", "么", False),
    ("步子大小", "子", True),
    ("子空间", "子", False),
    ("落在同一处。", "处", True),
    ("处理", "处", False),
    ("先看一眼", "看", True),
    ("看守大门", "看", False),            # kān
    ("都是一", "都", True),
    ("首都北京", "都", False),            # dū
])
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
    own = Lexicon.from_data({"rules": {"佛": {"reading": "fu2", "why": "fó only in these words", "not_in": ["佛教", "佛经"]}}})
    assert [(o.kind, o.why) for o in check_text("佛", own)] == [("c", "rule 'word-bound'")]
    assert "inside 佛教" in rules_for(own)["佛"].judge(_place("佛教", "佛"))
    wrong = Lexicon.from_data({"rules": {"佛": {"reading": "fo2", "why": "fú is archaic"}}})
    assert "says fo2" in _fails("佛", wrong)["佛"]                      # a rule is checked, not trusted
    assert own.digest == Lexicon().digest and own.readings_digest == Lexicon().readings_digest   # no voice hears a rule


def test_this_course_keeps_its_transliterations_rules_in_its_lexicon():
    from coursekit.core.paths import narration_dir

    course = Lexicon.load(narration_dir() / "lexicon.yaml", check_readings=False)
    assert set(course.rules) >= {"肉", "斯", "派"} and not set(course.rules) & set(RULES)


@pytest.mark.parametrize("rule,needle", [
    ({"转转": {"reading": "zhuan4", "why": "x"}}, "single Chinese character"),
    ({"肉": {"reading": "rou", "why": "x"}}, "tone number"),
    ({"肉": {"reading": "mao2", "why": "x"}}, "not a reading of 肉"),
    ({"肉": {"reading": "rou4", "why": " "}}, "why is empty"),
    ({"派": {"reading": "pai4", "why": "x", "not_in": ["司机"]}}, "do not hold 派"),
    ({"肉": {"reading": "rou4"}}, "why"),
])
def test_a_bad_rule_is_one_line_naming_it(rule, needle):
    from coursekit.core.errors import UserError

    with pytest.raises(UserError) as err:
        Lexicon.from_data({"rules": rule})
    assert needle in str(err.value) and "\n" not in str(err.value), str(err.value)
