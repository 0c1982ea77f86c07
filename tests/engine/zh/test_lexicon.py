"""The lexicon: written -> spoken with offset maps, coverage checks, pinned pinyin, numbers.

(The course's narration against its lexicon: tests/course/test_lexicon.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coursekit.core.errors import UserError
from coursekit.zh.chars import clauses, is_allowed
from coursekit.zh.lexicon import Lexicon
from coursekit.zh.numbers import expand_numbers, integer_to_chinese, number_to_chinese
from tests.support.examples import examples

FIXTURE = Path(__file__).parents[2] / "fixtures" / "lexicon_small.yaml"


@pytest.fixture(scope="module")
def small() -> Lexicon:
    return Lexicon.load(FIXTURE)


# ---------------------------------------------------------------- speak and offsets


def test_terms_longest_first(small):
    sp = small.speak("RoPE和sinθ和sin")
    assert sp.text == "肉普和正弦西塔和正弦"
    assert small.speak("RoPE").text == "肉普"  # not 肉 + 皮伊
    assert small.speak("Ro PE").text == "肉 皮伊"
    assert small.speak("rope").text == "rope"  # case-sensitive


def test_offsets_map_both_ways(small):
    sp = small.speak("看RoPE的2π，")
    assert sp.text == "看肉普的二派，"
    # unchanged characters map one to one; term edges map exactly
    assert [sp.written_to_spoken(i) for i in (0, 1, 5, 6, 8, 9)] == [0, 1, 3, 4, 6, 7]
    assert [sp.spoken_to_written(j) for j in (0, 1, 3, 4, 6, 7)] == [0, 1, 5, 6, 8, 9]
    assert sp.written_to_spoken(3) in (1, 2)  # inside a term: inside its replacement
    with pytest.raises(IndexError):
        sp.written_to_spoken(10)


def test_barriers_stop_a_term(small):
    # a bookmark between "Ro" and "PE" keeps "RoPE" from matching across it
    assert small.speak("RoPE", barriers=[2]).text == "肉皮伊"
    assert small.speak("RoPE", barriers=[0, 4]).text == "肉普"


_written = st.lists(
    st.sampled_from(["RoPE", "Ro", "PE", "2π", "sin", "sinθ", "旋", "转", "，", "a", " ", "5"]), max_size=20
).map("".join)


@settings(deadline=None, max_examples=examples(200))
@given(_written)
def test_offset_maps_are_monotone_and_round_trip(text):
    lex = Lexicon.load(FIXTURE)
    sp = lex.speak(text)
    w2s = [sp.written_to_spoken(i) for i in range(len(text) + 1)]
    s2w = [sp.spoken_to_written(j) for j in range(len(sp.text) + 1)]
    assert w2s[0] == 0 and w2s[-1] == len(sp.text)
    assert s2w[0] == 0 and s2w[-1] == len(text)
    assert w2s == sorted(w2s) and s2w == sorted(s2w)
    edges = {0, len(text)} | {a for a, *_ in sp.spans} | {b for _, b, *_ in sp.spans}
    inside = {i for a, b, *_ in sp.spans for i in range(a + 1, b)}
    for i in range(len(text) + 1):
        if i in edges or i not in inside:
            assert sp.spoken_to_written(sp.written_to_spoken(i)) == i
    # pieces outside the terms are copied verbatim
    for i in range(len(text)):
        if i not in inside and all(not (a <= i < b) for a, b, *_ in sp.spans):
            assert sp.text[sp.written_to_spoken(i)] == text[i]


# ---------------------------------------------------------------- coverage checks


def test_uncovered_lists_unreadable_tokens(small):
    assert small.uncovered("RoPE 旋转了 6.28 度，对吗？") == []
    assert small.uncovered("Transformer 的 θ 和 x²") == ["Transformer", "θ", "x²"]
    assert small.uncovered("sinθ") == []  # a term covers it


def test_unpinned_finds_bare_polyphones(small):
    assert small.unpinned("旋转和转动的长度") == []
    got = small.unpinned("指针转一圈，长大")
    assert [(c, o) for c, o, _ in got] == [("转", 2), ("长", 6)]
    assert "转一圈" in got[0][2]


def test_unpinned_offsets_are_written_offsets(small):
    got = small.unpinned("RoPE转")
    assert got[0][:2] == ("转", 4)


# ---------------------------------------------------------------- pinyin


def test_pinned_readings_override_pypinyin(small):
    from pypinyin import Style, lazy_pinyin

    # pypinyin alone reads these differently, so the pins are doing the work
    assert lazy_pinyin("旋转矩阵", style=Style.TONE3)[:2] != ["xuan2", "zhuan3"]
    assert lazy_pinyin("转动", style=Style.TONE3) != ["zhuan4", "dong4"]
    assert small.pinyin("旋转") == ["xuan2", "zhuan3"]
    assert small.pinyin("旋转矩阵") == ["xuan2", "zhuan3", "ju3", "zhen4"]
    assert small.pinyin("转动") == ["zhuan4", "dong4"]
    assert small.pinyin("指针旋转，再转动。") == ["zhi3", "zhen1", "xuan2", "zhuan3", "zai4", "zhuan4", "dong4"]


def test_pinyin_style(small):
    assert small.pinyin("我们的绿色") == ["wo3", "men5", "de5", "lv4", "se4"]
    assert small.pinyin("肉普 ，。") == ["rou4", "pu3"]


def test_pinyin_reads_numbers(small):
    assert small.pinyin("6.28") == ["liu4", "dian3", "er4", "ba1"]
    assert len(small.pinyin("60611个")) == 9


@pytest.mark.parametrize(
    "digits,chinese",
    [
        ("0", "零"),
        ("2", "二"),
        ("10", "十"),
        ("11", "十一"),
        ("20", "二十"),
        ("100", "一百"),
        ("101", "一百零一"),
        ("110", "一百一十"),
        ("1000", "一千"),
        ("1001", "一千零一"),
        ("1010", "一千零一十"),
        ("10000", "一万"),
        ("10001", "一万零一"),
        ("60611", "六万零六百一十一"),
        ("150000", "十五万"),
        ("100000000", "一亿"),
        ("100010000", "一亿零一万"),
        ("120003000", "一亿二千万三千"),
        ("120000300", "一亿二千万零三百"),
        ("512", "五百一十二"),
        ("007", "零零七"),
    ],
)
def test_integer_to_chinese(digits, chinese):
    assert integer_to_chinese(digits) == chinese


def test_decimals_and_expansion():
    assert number_to_chinese("6.28") == "六点二八"
    assert number_to_chinese("2.2") == "二点二"
    assert number_to_chinese("0.5") == "零点五"
    assert expand_numbers("共60611个，约6.28。") == "共六万零六百一十一个，约六点二八。"


@settings(deadline=None, max_examples=examples(300))
@given(st.integers(min_value=0, max_value=10**16 - 1))
def test_integer_reading_uses_only_number_characters(n):
    out = integer_to_chinese(str(n))
    assert set(out) <= set("零一二三四五六七八九十百千万亿")
    assert "零零" not in out and not out.endswith("零") or n == 0


# ---------------------------------------------------------------- clauses


def test_clauses_cover_the_text():
    text = "指针转一圈，指尖画出一个圆。它是6.28吗？“是的。”好"
    cs = clauses(text)
    assert "".join(text[a:b] for a, b, _ in cs) == text
    assert [k for *_, k in cs] == ["clause", "sentence", "sentence", "sentence", "end"]
    assert text[cs[2][0] : cs[2][1]] == "它是6.28吗？"


# ---------------------------------------------------------------- loading errors


@pytest.mark.parametrize(
    "body,needle",
    [
        ("terms:\n  RoPE: rope\n", "terms.RoPE"),
        ("readings:\n  旋转: xuan2\n", "one syllable per character"),
        ("readings:\n  旋转: xuan2 zhuan\n", "tone number"),
        ("readings:\n  旋转: xaun2 zhuan3\n", "not a reading of 旋"),
        ("polyphones: [转动]\n", "single Chinese character"),
        ("term:\n  a: 一\n", "unknown key 'term'"),
        ("terms: [a]\n", "terms must be a mapping"),
        ("terms:\n  a: [一]\n", "spoken form must be text"),
    ],
)
def test_bad_lexicon_is_one_line_user_error(tmp_path, body, needle):
    p = tmp_path / "lexicon.yaml"
    p.write_text(body, encoding="utf-8")
    with pytest.raises(UserError) as err:
        Lexicon.load(p)
    msg = str(err.value)
    assert needle in msg and "\n" not in msg and "lexicon.yaml" in msg


def test_missing_lexicon(tmp_path):
    with pytest.raises(UserError, match="lexicon file is missing"):
        Lexicon.load(tmp_path / "lexicon.yaml")


def test_allowed_characters():
    assert all(is_allowed(c) for c in "中文0，。 —…·,.;:?!()\"'-")
    assert not any(is_allowed(c) for c in "aZθ²−×")
