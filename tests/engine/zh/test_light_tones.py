"""Light (neutral) tones and erhua in the pinyin the voices are given (``coursekit.zh.neutral``).

The expected readings are facts of Mandarin from a published list, not from the engine's table: the
words are from the Putonghua proficiency test's list of words that must be read light
(普通话水平测试用必读轻声词语表, in 《普通话水平测试实施纲要》, State Language Commission, 2004), each with
the reading the 现代汉语词典 gives it (the light syllable is the last). The table is built from other
sources (PaddleSpeech's list and CC-CEDICT; ``scripts/build_light_table.py``), and twelve of its words
from this list: those are marked below and left out of the count of what the table alone finds.
"""

from __future__ import annotations

import pytest

from coursekit.speech.voices import espeak as espeak_mod
from coursekit.speech.voices import kokoro as kk
from coursekit.zh import neutral
from coursekit.zh.lexicon import Lexicon, erhua_positions
from coursekit.zh.readings import check_text

#: 55 common words of the test's light-word list, as 现代汉语词典 reads them (ü as v).
PSC_LIGHT = {
    "东西": "dong1 xi5",
    "地方": "di4 fang5",
    "时候": "shi2 hou5",
    "告诉": "gao4 su5",
    "清楚": "qing1 chu5",
    "麻烦": "ma2 fan5",
    "本事": "ben3 shi5",
    "意思": "yi4 si5",
    "明白": "ming2 bai5",
    "认识": "ren4 shi5",
    "朋友": "peng2 you5",
    "关系": "guan1 xi5",
    "部分": "bu4 fen5",
    "事情": "shi4 qing5",
    "先生": "xian1 sheng5",
    "眼睛": "yan3 jing5",
    "消息": "xiao1 xi5",
    "喜欢": "xi3 huan5",
    "知识": "zhi1 shi5",
    "位置": "wei4 zhi5",
    "困难": "kun4 nan5",
    "衣服": "yi1 fu5",
    "太阳": "tai4 yang5",
    "名字": "ming2 zi5",
    "休息": "xiu1 xi5",
    "答应": "da1 ying5",
    "厉害": "li4 hai5",
    "头发": "tou2 fa5",
    "主意": "zhu3 yi5",
    "商量": "shang1 liang5",
    "收拾": "shou1 shi5",
    "聪明": "cong1 ming5",
    "热闹": "re4 nao5",
    "漂亮": "piao4 liang5",
    "石头": "shi2 tou5",
    "舒服": "shu1 fu5",
    "客气": "ke4 qi5",
    "力气": "li4 qi5",
    "脾气": "pi2 qi5",
    "规矩": "gui1 ju5",
    "笑话": "xiao4 hua5",
    "月亮": "yue4 liang5",
    "窗户": "chuang1 hu5",
    "豆腐": "dou4 fu5",
    "耳朵": "er3 duo5",
    "钥匙": "yao4 shi5",
    "什么": "shen2 me5",
    "怎么": "zen3 me5",
    "这个": "zhe4 ge5",
    "那么": "na4 me5",
    "故事": "gu4 shi5",
    "精神": "jing1 shen5",
    "便宜": "pian2 yi5",
    "打算": "da3 suan5",
    "学问": "xue2 wen5",
}
#: Of those, the table has from this list itself (CC-CEDICT reads them with full tones only).
FROM_THE_LIST = {"打算", "学问"}
#: Words whose light syllable pypinyin's own phrase data already gives.
PYPINYIN_LIGHT = {"意思", "石头", "钥匙", "什么", "怎么", "那么", "这个", "便宜"}


def misread(lexicon: Lexicon, words: dict[str, str]) -> dict[str, str]:
    """word -> the engine's reading, for each word the engine does not read as ``words`` says."""
    return {w: got for w, want in words.items() if (got := " ".join(lexicon.pinyin(w))) != want}


def test_the_engine_reads_the_common_light_words_light():
    assert misread(Lexicon(), PSC_LIGHT) == {}


def test_without_the_table_the_same_check_fails_on_the_words_the_issue_names(monkeypatch):
    """Seeded: the light-tone step switched off, pypinyin's full tones come back, and the check above
    names every word but those whose light syllable pypinyin's phrase data already has."""
    monkeypatch.setattr(neutral, "lighten", lambda han, syllables: list(syllables))
    bad = misread(Lexicon(), PSC_LIGHT)
    assert set(bad) == set(PSC_LIGHT) - PYPINYIN_LIGHT
    assert bad["东西"] == "dong1 xi1" and bad["时候"] == "shi2 hou4" and bad["本事"] == "ben3 shi4"
    assert {"地方", "告诉", "清楚", "麻烦"} <= set(bad)


def test_the_table_alone_finds_most_of_the_published_list():
    """The two other sources agree on all but a few of the published words: the table finds them
    without the list's own help."""
    found = {w for w in PSC_LIGHT if w in neutral.table()} - FROM_THE_LIST
    assert len(found | PYPINYIN_LIGHT) >= 50


@pytest.mark.parametrize(
    ("sentence", "word", "light"),
    [
        ("我们要的东西，既要有界", "东西", "xi5"),
        ("向量回到出发的地方。", "地方", "fang5"),
        ("距离是零的时候，每根指针都对齐", "时候", "hou5"),
        ("代价是先后要另外告诉它。", "告诉", "su5"),
        ("换个输入就清楚了", "清楚", "chu5"),
        ("麻烦在于座位号没有上限", "麻烦", "fan5"),
        ("这种低秩，是浪费，还是本事？", "本事", "shi5"),
        ("小时候", "时候", "hou5"),  # a suffix of jieba's word
    ],
)
def test_light_words_in_sentences(sentence, word, light):
    text, units = Lexicon().read_out(sentence)
    at = {p: s for u in units for p, s in zip(u.positions, u.syllables)}
    start = text.index(word)
    assert at[start + len(word) - 1] == light


@pytest.mark.parametrize(
    ("text", "full"),
    [
        ("地方性的差别", "di4 fang1"),  # 地方 inside jieba's 地方性: dìfāng, local
        ("东西方的历法", "dong1 xi1"),  # 东西 inside 东西方: east and west
    ],
)
def test_a_table_word_inside_a_longer_word_keeps_its_full_tone(text, full):
    assert " ".join(Lexicon().pinyin(text)[:2]) == full


def test_only_tones_change():
    """Over the whole table: each word's syllables are pypinyin's, but for the tone of the light ones."""
    from pypinyin import Style, lazy_pinyin

    lex = Lexicon()
    changed = 0
    for word, lw in neutral.table().items():
        ours = lex.pinyin(word, erhua=False)
        theirs = [s.replace("ü", "v") for s in lazy_pinyin(word, style=Style.TONE3, neutral_tone_with_five=True)]
        assert [neutral.base(s) for s in ours] == [neutral.base(s) for s in theirs], word
        for k, (a, b) in enumerate(zip(ours, theirs)):
            if a != b:
                assert a.endswith("5") and k in lw.light, (word, ours, theirs)
                changed += 1
    assert changed > 800


# ---------------------------------------------------------------- erhua


@pytest.mark.parametrize(
    ("text", "merged", "apart"),
    [
        ("从哪儿往右挪", ["cong2", "nar3", "wang3", "you4", "nuo2"], ["cong2", "na3", "er5", "wang3", "you4", "nuo2"]),
        ("这儿和那儿", ["zher4", "he2", "nar4"], ["zhe4", "er5", "he2", "na4", "er5"]),
        ("一点儿", ["yi4", "dianr3"], ["yi4", "dian3", "er5"]),
        ("等一会儿", ["deng3", "yi1", "huir4"], ["deng3", "yi1", "hui4", "er5"]),  # 一: pypinyin's citation tone
        ("女儿", ["nv3", "er2"], ["nv3", "er2"]),  # ér is a syllable of its own here
        ("儿童", ["er2", "tong2"], ["er2", "tong2"]),
    ],
)
def test_erhua_is_one_syllable(text, merged, apart):
    lex = Lexicon()
    assert lex.pinyin(text) == merged
    assert lex.pinyin(text, erhua=False) == apart


def test_erhua_positions_are_the_suffixes():
    text, units = Lexicon().read_out("哪儿，女儿，这儿")
    assert erhua_positions(text, units) == {1, 7}


def test_the_course_pins_its_words_of_two_readings():
    """A word with a light and a full reading is reported until pinned; the pin decides what is heard."""
    plain = Lexicon()
    assert [w for w, _, _ in plain.unpinned("我们要的东西")] == ["东西"]
    occ = [o for o in check_text("我们要的东西。", plain) if len(o.char) > 1]
    assert [(o.char, o.kind, o.reading) for o in occ] == [("东西", None, "dong1 xi5")]
    assert "two readings" in occ[0].why
    east_west = Lexicon(readings={"东西": ("dong1", "xi1")})
    assert east_west.unpinned("东西两边") == []
    assert east_west.pinyin("东西两边")[:2] == ["dong1", "xi1"]
    assert not [o for o in check_text("东西两边。", east_west) if len(o.char) > 1]


def test_the_table_is_part_of_what_a_pinyin_voice_hears(monkeypatch):
    a = Lexicon().readings_digest
    neutral.table_digest.cache_clear()
    monkeypatch.setattr(neutral, "NEUTRAL_TABLE", neutral.NEUTRAL_TABLE + "\n东边 dong1 bian5")
    try:
        assert Lexicon().readings_digest != a
    finally:
        monkeypatch.undo()
        neutral.table_digest.cache_clear()


# ---------------------------------------------------------------- what each voice is given


def test_espeak_gets_the_light_tone_and_the_erhua_apart(tmp_path, monkeypatch):
    """espeak's cmn-latn-pinyin reads tone 5 as a light syllable; a merged nar3 it misreads, so it gets na3 er5."""
    if not espeak_mod.shutil.which("espeak-ng"):
        pytest.skip("espeak-ng not installed")
    fed: list[str] = []
    real = espeak_mod.Espeak._say

    def spy(self, pinyin, wav):
        fed.append(pinyin)
        return real(self, pinyin, wav)

    monkeypatch.setattr(espeak_mod.Espeak, "_say", spy)
    espeak_mod.Espeak(espeak_mod.EspeakSettings(), Lexicon()).synthesize("东西在哪儿。", tmp_path / "a.wav")
    assert fed == ["dong1 xi5 zai4 na3 er5"]


@pytest.mark.skipif(bool(kk.missing_files()), reason="kokoro model not assembled (make setup)")
def test_kokoro_gets_toneless_light_syllables_and_a_joined_erhua():
    """misaki's IPA marks the four tones with arrows and a light syllable with none; the 儿 of 哪儿 is a
    toneless ɚ right after nǎ (no word break), and still has a timing of its own."""
    v = kk.Kokoro(lexicon=Lexicon(), warn=[].append)
    (chunk,) = v.phonemes("东西在哪儿。")
    assert chunk.phonemes.startswith(kk.py2ipa("dong1") + kk.py2ipa("xi5"))
    assert kk.py2ipa("xi5") == "ɕi" and kk.py2ipa("xi1") == "ɕi→"
    assert chunk.phonemes.endswith(kk.py2ipa("na3") + "ɚ.")
    assert kk.py2ipa("er2") not in chunk.phonemes
    assert {off for off, _ in chunk.starts} >= {0, 1, 2, 3, 4}
