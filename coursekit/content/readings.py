"""Every polyphonic character of the narration, read right, for each kind of voice.

pypinyin knows about 8,600 characters with more than one reading (``pinyin_dict`` entries with
several readings: ``multi_reading()``). For every occurrence of such a character in every cue's
spoken text, in both spoken forms (for the voices that read Latin script and for those that do
not, ``cue_text(..., reads_latin=...)``), the check below must know why the reading the pinyin
voices are given (``Lexicon.pinyin``) is the right one. It reads the text exactly as
``Lexicon.pinyin`` does, through ``Lexicon.read_out``: numbers read out, pinned words first, then
pypinyin's own segmenter (forward maximum matching over its phrase dictionary) on what is left.
An occurrence is justified by one of:

(a) **pinned**: it lies inside a ``readings`` word of ``narration/lexicon.yaml``. A pin is the
    author's word, with one exception: if the sentence's word around the character (see the
    witness below) is a longer dictionary word than the pin and reads the character otherwise
    (and the lexicon does not pin that word so itself), the pin is being applied out of its
    context (a one-character pin 长 chang2 inside 成长; 分 fen1 inside 部分) and the occurrence
    is reported.

(b) **phrase**: pypinyin's segmenter really cut a word of its phrase dictionary here (not: some
    dictionary word happens to contain the character) and the cut agrees with the sentence.
    Agreement is checked against a second, independent segmentation, the *witness*: jieba with
    its dictionary only (no HMM), over the whole run of Chinese characters. If the phrase starts
    or ends inside a witness word, every character of the phrase must read the same in the
    witness word (read by pypinyin on its own) as in the phrase; otherwise the phrase is a
    segmentation error (之间隔了 cut 之|间隔|了 reads 间 jiàn, while the witness word 之间 reads
    jiān) and the occurrence is reported. Both segmenters can make the same mistake (both cut
    中间隔着 as 中|间隔|着), so the position must also be unambiguous: no other dictionary word
    (pypinyin's phrases or jieba's words, two to four characters) lying over the character reads
    it otherwise. An ambiguous position (近处分不清: 近处 chù or 处分 chǔ) is reported, to be pinned.

(c) **rule**: pypinyin's segmenter left the character alone (so it gets pypinyin's first reading
    of the character), and a named rule from ``RULES`` says which reading is right here, and it
    is that one. If a rule does not apply at this place, or says another reading, the occurrence
    is reported. A single character is also checked against the witness: if the witness word
    around it is a dictionary word that reads it otherwise (中 inside 打中), it is reported; and,
    as for (b), it must be unambiguous.

The rules (c), each specific enough to be wrong:

- ``particle de (的)``: 的 alone is the structural particle, de (neutral tone). Its other readings
  live only in the words 的确 (dí), 目的 / 标的 / 众矢之的 (dì), 的士 (dī); an occurrence inside
  one of those is not covered.
- ``particle de (地)``: 地 is the adverbial particle de when neither segmentation gives it a
  word of its own (it is not part of 地方, 地上, 土地 …), the witness word before it has two or
  more characters (an adverbial: 并行地, 一行一行地, 一维一维地) and a Chinese character (the
  verb) follows. Anywhere else 地 is not covered. pypinyin reads a lone 地 as dì, so an
  adverbial 地 must be pinned (并行地算 was read 并行 dì 算).
- ``particle le (了)``: 了 alone is le, except after 不 or 得 (看不了, 受得了: liǎo) and before
  解, 结, 却, 如, 然 (了解, 了结, 了却, 了如指掌, 了然: liǎo), which are not covered.
- ``particle zhe (着)``: 着 after a character is zhe, except after 不 / 得 (用不着: zháo) and in
  着急 着火 着迷 着凉 着手 着陆 着重 着想 着落 着眼 着实 睡着 沉着 执着 衣着 穿着.
- ``particle me (么)``: 么 is me in 什么 怎么 这么 那么 多么 要么 (after 什 怎 这 那 多 要) only;
  in a transliteration (传斯佛么) it must be pinned.
- ``noun suffix zi (子)``: 子 is the light suffix zi when the witness word ends in 子 and has two
  or more characters (步子, 格子, 式子); zǐ as a morpheme (子空间, 原子) is not covered.
- ``place chù (处)``: 处 at the end of a clause (同一处。) is the noun chù; the verb chǔ (处理,
  处于, 相处) always takes an object or complement, so it never ends a clause.
- ``sandhi (一)`` and ``sandhi (不)``: the readings yī / yí / yì of 一 and bù / bú of 不 are one
  syllable whose tone changes with the next syllable (tone sandhi); any of them is the right
  syllable. The tone itself is not checked: ``Lexicon.pinyin`` gives pypinyin's tone (citation
  tone yi1 / bu4 for a lone character, the sandhi tone inside some dictionary words such as 一个
  yi2 ge4). The other readings of 不 (fǒu, fōu, fū) are archaic.
- ``particles and suffixes``: 们 men, 吗 ma (not in 吗啡, 干吗), 呢 ne (not in 呢子, 毛呢, 呢绒,
  花呢, 呢喃); 边 biān / bian and 里 lǐ / li (the light tone of 左边, 这里 is the same word).
- ``archaic``: characters whose other readings are archaic, literary, dialectal, a surname or a
  place name only (是 tí, 它 tuó, 〇 yuán …). Each is listed in ``ARCHAIC_TABLE`` with the reason.
- ``word-bound``: characters whose other reading is alive but occurs only inside the words
  listed beside it in ``ARCHAIC_TABLE`` (看 kān in 看守 看门 …; 都 dū in 首都 都市 …); an occurrence inside
  one of the listed words is not covered.

Characters in the lexicon's ``polyphones`` list must always be pinned: neither (b) nor (c) is
enough for them.

Numbers, as people say them (``coursekit/content/lexicon.py``, ``expand_numbers``), before any of this:
- a year, a four-digit number from 1000 to 2999 directly followed by 年, is read digit by digit
  with 〇 for zero: 2017 年 -> 二〇一七年;
- a bare 2 directly before a measure word (个 格 对 步 种 根 支 条 次 倍 …) is 两: 隔 2 格 ->
  隔两格 (but 第 2 个, 2 维 and 2 号 keep 二);
- any other number is a Chinese number: 60611 -> 六万零六百一十一, 6.28 -> 六点二八.
Formulas are spoken the way a teacher reads them aloud, through ``terms`` (10000^(−2i/d):
一万的负 d 分之 2i 次方, the fraction read denominator first as in class). Measured errors are
spoken as an order of magnitude (不到 10⁻¹⁵, 在 10⁻¹⁵ 上下: figures such as ``t1_err_ceil``,
``assert_err_order``); the exact figures (8.9×10⁻¹⁶) are drawn on screen, not read out.

Run ``python -m coursekit.content.readings`` for the counts and every occurrence it cannot justify.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from coursekit.content.cue_text import cue_text
from coursekit.content.lexicon import Lexicon, ReadingUnit, is_cjk
from coursekit.content.narration import load_course
from coursekit.content.segmenter import tokenizer
from coursekit.core.config import load_config

# ---------------------------------------------------------------- pypinyin's data


@lru_cache(maxsize=1)
def multi_reading() -> frozenset[str]:
    """Characters with more than one reading in pypinyin's ``pinyin_dict``."""
    from pypinyin.pinyin_dict import pinyin_dict  # its dictionaries take a second to load: only when pinyin is needed

    return frozenset(chr(k) for k, v in pinyin_dict.items() if "," in v)


def _phrases() -> dict:
    from pypinyin.constants import PHRASES_DICT  # its dictionaries take a second to load: only when pinyin is needed

    return PHRASES_DICT


@lru_cache(maxsize=4096)
def _read_alone(word: str) -> tuple[str, ...]:
    """pypinyin's reading of ``word`` on its own (its own segmentation), tone-numbered, ü as v."""
    from pypinyin import Style, lazy_pinyin  # its dictionaries take a second to load: only when pinyin is needed

    return tuple(s.replace("ü", "v") for s in
                 lazy_pinyin(word, style=Style.TONE3, neutral_tone_with_five=True, errors="ignore"))


def _base(syl: str) -> str:
    return syl[:-1] if syl[-1:].isdigit() else syl


def _tone(syl: str) -> str:
    return syl[-1] if syl[-1:].isdigit() else "5"


def same_reading(ch: str, a: str, b: str) -> bool:
    """Two syllables are the same reading of ``ch``: equal, or equal but for a light (5th) tone,
    or, for 一 and 不, equal but for the tone (sandhi)."""
    if a == b:
        return True
    if _base(a) != _base(b):
        return False
    return ch in "一不" or "5" in (_tone(a), _tone(b))

# ---------------------------------------------------------------- the witness segmentation

def _jieba():
    return tokenizer()


def witness_words(text: str) -> dict[int, tuple[str, int]]:
    """For each Chinese character of ``text``: the jieba word (dictionary only, no HMM) around it
    and where that word starts. jieba cuts each whole run of Chinese characters."""
    out: dict[int, tuple[str, int]] = {}
    i = 0
    n = len(text)
    while i < n:
        if not is_cjk(text[i]):
            i += 1
            continue
        j = i
        while j < n and is_cjk(text[j]):
            j += 1
        run = text[i:j]
        words = _jieba().lcut(run, HMM=False) if len(run) > 1 else [run]
        if "".join(words) != run:
            words = list(run)
        k = i
        for w in words:
            for q in range(len(w)):
                out[k + q] = (w, k)
            k += len(w)
        i = j
    return out

# ---------------------------------------------------------------- rules (c)

@dataclass(frozen=True)
class Place:
    """Where a character stands, for the rules: the read-out text, its offset, the witness words."""

    text: str
    p: int
    witness: dict[int, tuple[str, int]]

    @property
    def ch(self) -> str:
        return self.text[self.p]

    @property
    def prev(self) -> str:
        return self.text[self.p - 1] if self.p > 0 else ""

    @property
    def next(self) -> str:
        return self.text[self.p + 1] if self.p + 1 < len(self.text) else ""

    def word(self) -> tuple[str, int]:
        return self.witness.get(self.p, (self.ch, self.p))

    def inside(self, words: Iterable[str]) -> str | None:
        """The first of ``words`` that occurs in the text covering this place, if any."""
        for w in words:
            for k, c in enumerate(w):
                if c == self.ch and self.text.startswith(w, self.p - k):
                    return w
        return None


@dataclass(frozen=True)
class Rule:
    name: str
    readings: frozenset[str]                 # the right syllables, tone-numbered
    why: str
    not_in: tuple[str, ...] = ()             # words where the character reads otherwise: not covered there
    when: Callable[[Place], str | None] | None = None   # None if the rule applies here, else why not

    def judge(self, place: Place) -> str | None:
        """None if the rule covers this place, else why not."""
        hit = place.inside(self.not_in)
        if hit:
            return f"inside {hit}, where {place.ch} reads otherwise"
        if self.when is not None:
            return self.when(place)
        return None


def _after_adverbial(pl: Place) -> str | None:
    word, start = pl.word()
    if word != "地":
        return f"地 is part of the word {word}"
    if start == 0 or pl.p - 1 not in pl.witness:
        return "nothing Chinese before 地"
    before, _ = pl.witness[pl.p - 1]
    if len(before) < 2:
        return f"the word before 地 is the single character {before} (not an adverbial)"
    if not is_cjk(pl.next):
        return "no verb after 地"
    return None


def _le(pl: Place) -> str | None:
    if pl.prev in "不得":
        return f"after {pl.prev}: potential complement liǎo (看{pl.prev}了)"
    if pl.next and pl.next in "解结却如然":
        return f"before {pl.next}: liǎo (了{pl.next})"
    return None


def _zhe(pl: Place) -> str | None:
    if not is_cjk(pl.prev):
        return "nothing before 着 (the particle follows a verb)"
    if pl.prev in "不得":
        return f"after {pl.prev}: zháo (用{pl.prev}着)"
    return None


def _me(pl: Place) -> str | None:
    return None if pl.prev and pl.prev in "什怎这那多要" else f"after {pl.prev or 'nothing'}, not in 什么/怎么/这么/那么/多么/要么"


def _zi(pl: Place) -> str | None:
    word, start = pl.word()
    if len(word) >= 2 and start + len(word) - 1 == pl.p:
        return None
    return f"子 does not end a word here (the word is {word})"


def _chu(pl: Place) -> str | None:
    return None if not is_cjk(pl.next) else f"处 is followed by {pl.next}: the verb chǔ is possible"


def _r(*syl: str) -> frozenset[str]:
    return frozenset(syl)


PARTICLE_RULES: dict[str, Rule] = {
    "的": Rule("particle de (的)", _r("de5"), "the structural particle",
              ("的确", "目的", "标的", "众矢之的", "有的放矢", "的士")),
    "地": Rule("particle de (地)", _r("de5"), "the adverbial particle after an adverbial, before the verb",
              when=_after_adverbial),
    "了": Rule("particle le (了)", _r("le5"), "the aspect / sentence particle", when=_le),
    "着": Rule("particle zhe (着)", _r("zhe5"), "the durative particle after a verb",
              ("着急", "着火", "着迷", "着凉", "着手", "着陆", "着重", "着想", "着落", "着眼", "着实",
               "睡着", "沉着", "执着", "衣着", "穿着"), when=_zhe),
    "么": Rule("particle me (么)", _r("me5"), "the suffix of 什么, 怎么, 这么, 那么, 多么, 要么", when=_me),
    "子": Rule("noun suffix zi (子)", _r("zi5"), "the light noun suffix (步子, 格子, 式子)", when=_zi),
    "处": Rule("place chù (处)", _r("chu4"), "the noun 'place' at the end of a clause", when=_chu),
    "一": Rule("sandhi (一)", _r("yi1", "yi2", "yi4"), "yī, yí, yì are one syllable whose tone follows the next one"),
    "不": Rule("sandhi (不)", _r("bu4", "bu2"), "bù, bú are one syllable whose tone follows the next one; fǒu, fōu, fū are archaic"),
    "们": Rule("particles and suffixes", _r("men5"), "the plural suffix; mén is a surname"),
    "吗": Rule("particles and suffixes", _r("ma5"), "the question particle", ("吗啡", "干吗")),
    "呢": Rule("particles and suffixes", _r("ne5"), "the particle", ("呢子", "毛呢", "呢绒", "花呢", "呢喃")),
    "边": Rule("particles and suffixes", _r("bian1", "bian5"), "biān and the light bian of 左边, 两边 are one word"),
    "里": Rule("particles and suffixes", _r("li3", "li5"), "lǐ and the light li of 这里 are one word"),
}

# character  reading  |  why its other readings are not in play
ARCHAIC_TABLE = """
〇 ling2 | yuán, xīng (circle, star) are rare symbol readings; as a digit it is líng
是 shi4 | tí is an old variant (是 for 题)
位 wei4 | lì is an old variant (位 for 立)
它 ta1 | tuó, yí are archaic
零 ling2 | lián only in 先零, an ancient people
以 yi3 | sì is archaic
次 ci4 | zī (次且) and cí are archaic
也 ye3 | yí is archaic
积 ji1 | zhǐ is archaic
有 you3 | yòu (= 又) is classical, wěi archaic
意 yi4 | yī is archaic
注 zhu4 | zhòu is archaic
慢 man4 | mán is archaic
最 zui4 | cuō is archaic
肉 rou4 | rù is archaic
离 li2 | chī (= 魑) is archaic
往 wang3 | wàng is the old reading of the preposition (往前); the standard is wǎng
于 yu2 | wéi, yū, xū are archaic or surnames
谁 shui2 shei2 | shuí and shéi are the reading and colloquial forms of one word
比 bi3 | bì, pí, pǐ are archaic (比比, 朋比)
写 xie3 | xiè is archaic
方 fang1 | fáng, fǎng, páng, wǎng, fēng are archaic
前 qian2 | jiǎn is archaic
样 yang4 | yáng is archaic
隔 ge2 | rǒng, jī are archaic
从 cong2 | zòng (= 纵) is archaic; cōng (从容) is the old reading
批 pi1 | pí is archaic
内 nei4 | nà (= 纳) and ruì are archaic
机 ji1 | wèi is archaic
接 jie1 | xié, shà, chā are archaic
斯 si1 | shǐ is archaic
那 na4 | nèi is the colloquial form before a measure word (the same word); nǎ (= 哪), nā (surname), nuó, nuò are archaic or names
能 neng2 | tái, nái, nài, xióng are archaic
七 qi1 | qí is the old optional sandhi before a fourth tone
八 ba1 | bá is the old optional sandhi before a fourth tone
去 qu4 | qū is archaic
放 fang4 | fǎng, fāng are archaic
越 yue4 | huó is archaic
平 ping2 | pián, bìng, bēng are archaic or names
本 ben3 | bēn is archaic
之 zhi1 | zhū, zhì are archaic
取 qu3 | qū is archaic
完 wan2 | kuān is archaic
过 guo4 | guō is a surname
列 lie4 | lì is archaic
部 bu4 | pǒu is archaic
而 er2 | néng is archaic
才 cai2 | zāi is archaic
己 ji3 | qǐ is archaic
言 yan2 | yàn, yín are archaic
由 you2 | yāo is archaic
足 zu2 | jù is archaic
道 dao4 | dǎo is archaic
年 nian2 | nìng is archaic
路 lu4 | luò is archaic
支 zhi1 | zhì, qí are archaic
掉 diao4 | nuó is archaic
式 shi4 | tè is archaic
事 shi4 | zì is archaic
追 zhui1 | duī, tuī are archaic
见 jian4 | xiàn (= 现) is archaic
果 guo3 | luǒ, guàn are archaic
精 jing1 | qíng, jìng are archaic
窗 chuang1 | cōng is archaic
告 gao4 | jū, gù are archaic
依 yi1 | yǐ is archaic
已 yi3 | sì is archaic
夫 fu1 | fú is the classical sentence particle
除 chu2 | zhù, shū are archaic
反 fan3 | fàn is archaic
料 liao4 | liáo is archaic
哪 na3 | na is the particle after a sentence (天哪); né, nuó, nǎi, nà, niè, něi are archaic or dialect
合 he2 | gě is an old unit of volume
斜 xie2 | xiá, chá, yé are archaic
经 jing1 | jìng is a weaving term (经纱)
主 zhu3 | zhù is archaic
明 ming2 | mèng is archaic
眼 yan3 | wěn is archaic
附 fu4 | bù, fū are archaic
被 bei4 | bì, pī, pì are archaic
超 chao1 | chǎo, chào, tiào are archaic
毛 mao2 | mào is archaic
块 kuai4 | yué is archaic
咬 yao3 | jiāo, yāo, jiǎo are archaic
立 li4 | wèi is archaic
光 guang1 | guàng is dialect
清 qing1 | qìng is archaic
感 gan3 | hàn is archaic
绕 rao4 | rǎo is an old variant
串 chuan4 | guàn, quàn are archaic
留 liu2 | liù, liǔ are archaic
身 shen1 | juān is archaic (身毒)
盖 gai4 | gě is a surname
趁 chen4 | zhēn, chén, niǎn, zhěn are archaic
太 tai4 | tā is archaic
既 ji4 | xì is archaic
刻 ke4 | kēi is dialect
找 zhao3 | huá is archaic
遇 yu4 | yóng, ǒu are archaic
客 ke4 | qià is archaic
缺 que1 | kuǐ is archaic
爆 bao4 | bó is archaic
套 tao4 | tǎo is archaic
匀 yun2 | jūn, yùn are archaic
知 zhi1 | zhì (= 智) is archaic
坑 keng1 | kàng is archaic
余 yu2 | tú, xú, yù are archaic or surnames
振 zhen4 | zhēn, zhěn are archaic
伏 fu2 | fù is archaic
九 jiu3 | jiū is archaic
坎 kan3 | kàn is archaic
限 xian4 | wěn is archaic
倍 bei4 | péi is archaic
呈 cheng2 | kuáng, chěng are archaic
运 yun4 | yǔn is archaic
垂 chui2 | zhuì is archaic
抵 di3 | zhǐ, qí are archaic
听 ting1 | yǐn, yí are archaic
但 dan4 | tǎn, yàn are archaic
居 ju1 | jī is the archaic particle
拼 pin1 | bìng is archaic
插 cha1 | zhǎ is dialect
或 huo4 | yù (= 域) is archaic
件 jian4 | móu is archaic
半 ban4 | pàn is archaic
描 miao2 | mào is archaic
盯 ding1 | chéng is archaic
这 zhe4 | zhèi is the colloquial form before a measure word (the same word)
上 shang4 | shǎng only in 上声 | 上声
个 ge4 | gě only in 自个儿 (dialect); gàn is archaic | 自个
和 he2 | hè, huó, huò, hú, huo only in these words | 附和 唱和 应和 和面 和泥 和药 搀和 掺和 和牌 暖和 搅和 软和
把 ba3 | bà (handle) only in these words; pá is archaic | 刀把 把儿 把子 枪把 印把
都 dou1 | dū (capital, city) only in these words | 首都 都市 都城 成都 古都 京都 国都 建都 迁都 都督
艾 ai4 | yì (= 刈) only in these words | 自艾 怨艾
塔 ta3 | dā, da only in the dialect word 圪塔 | 圪塔
格 ge2 | gē only in 格格; luò, hè are archaic | 格格
指 zhi3 | zhī, zhí only in the colloquial 指甲, 指头 | 指甲 指头
排 pai2 | pǎi only in 排子车; bài is archaic | 排子
看 kan4 | kān (guard, look after) only in these words | 看守 看门 看护 看家 看管 看押 看财奴
要 yao4 | yāo only in these words; yǎo is archaic | 要求 要挟 要约
六 liu4 | lù only in the place names 六安, 六合 | 六安 六合
大 da4 | dài only in these words; tài is archaic | 大夫 大王 大黄
阿 a1 | ē only in these words | 阿谀 阿胶 阿附 东阿
给 gei3 | jǐ (supply) only in these words | 供给 给予 补给 自给 给养 配给
正 zheng4 | zhēng only in 正月 | 正月
会 hui4 | kuài only in 会计 | 会计 财会
号 hao4 | háo (cry out) only in these words | 号叫 号哭 号啕 呼号 哀号
百 bai3 | bó only in the place name 百色; mò is archaic | 百色
乘 cheng2 | shèng only in classical words | 千乘 万乘 史乘
舍 she3 | shè (house) only in these words; shì is archaic | 宿舍 校舍 舍弟 寒舍 旅舍 客舍 农舍 房舍 三舍
没 mei2 | mò (sink) only in these words | 淹没 没收 埋没 出没 沉没 隐没 吞没 覆没 没落
圈 quan1 | juān, juàn (pen) only in these words | 猪圈 羊圈 牛圈 圈养 圈起 圈住
可 ke3 | kè only in 可汗; gē is archaic | 可汗
作 zuo4 | zuō, zuó only in 作坊, 作料 | 作坊 作料
句 ju4 | gōu only in names (高句丽, 句践); gòu, qú are archaic | 高句丽 句践
节 jie2 | jiē only in 节骨眼 | 节骨眼
落 luo4 | là, lào, luō only in these words | 落下 丢三落四 落枕 落色 落炕 大大落落
各 ge4 | gě only in the dialect 自各儿 | 自各
台 tai2 | tāi only in place names; yí, sì are archaic | 台州 天台
传 chuan2 | zhuàn (record, biography) only in these words | 传记 自传 经传 列传 外传 正传 小传 别传
猫 mao1 | máo only in the dialect 猫腰; miáo is archaic | 猫腰
同 tong2 | tòng only in 胡同 | 胡同
占 zhan4 | zhān (divine) only in these words | 占卜 占卦 占星
拉 la1 | lá, lǎ only in colloquial words | 半拉 拉口子
说 shuo1 | shuì only in 游说, 说客; yuè (= 悦) is archaic | 游说 说客
读 du2 | dòu only in 句读 | 句读
别 bie2 | biè only in 别扭 | 别扭
万 wan4 | mò only in the surname 万俟 | 万俟
查 cha2 | zhā is a surname | 山查
解 jie3 | jiè, xiè only in these words and the surname | 押解 解送 起解 解数
背 bei4 | bēi (carry on the back) only in these words | 背包 背负 背起 背着 背带 背篓
藏 cang2 | zàng only in these words | 西藏 宝藏 藏族 藏文 藏语 藏青 藏经 道藏 藏传
伯 bo2 | bǎi only in 大伯子; bà, mò are archaic | 大伯子
提 ti2 | dī only in 提防, 提溜 | 提防 提溜
红 hong2 | gōng only in 女红 | 女红
派 pai4 | pā only in the loan 派司 | 派司
无 wu2 | mó only in 南无 | 南无
跑 pao3 | páo only in 虎跑 and 'paw the ground' | 虎跑
约 yue1 | yāo (weigh) only in colloquial 约一约 | 约约
尾 wei3 | yǐ only in the colloquial 尾巴, 马尾 | 尾巴 马尾
压 ya1 | yà only in 压根 | 压根
麻 ma2 | mā only in the dialect 麻麻黑 | 麻麻
拆 chai1 | cā only in the dialect 拆烂污 | 拆烂污
化 hua4 | huā only in 化子 (beggar); huò is archaic | 化子
扫 sao3 | sào only in 扫帚, 扫把 | 扫帚 扫把
降 jiang4 | xiáng (surrender) only in these words | 投降 降服 降伏 受降 招降 降龙
并 bing4 | bīng only in the place name 并州 | 并州
浪 lang4 | láng only in 沧浪 | 沧浪
轴 zhou2 | zhòu only in 压轴, 大轴子 | 压轴 大轴
横 heng2 | hèng (rude, unexpected) only in these words | 蛮横 横财 横祸 专横 强横
中 zhong1 | zhòng (hit) only in these words | 中奖 打中 看中 命中 击中 射中 猜中 中毒 中暑 中意 中弹 中选 考中 选中
打 da3 | dá (a dozen) only after a number | 一打 两打 半打
难 nan2 | nàn (disaster) only in these words | 灾难 难民 遇难 患难 责难 发难 苦难 避难 难友 罹难 落难
头 tou2 | the light suffix tou only in these words | 木头 石头 骨头 舌头 指头 念头 前头 后头 里头 外头 上头 下头 码头 苦头 甜头 来头 看头 盼头 想头 枕头 馒头 罐头 锄头 斧头 拳头 跟头 丫头
色 se4 | shǎi only in these colloquial words | 色子 掉色 落色 颜色儿
"""


def _parse_table(table: str) -> dict[str, Rule]:
    out: dict[str, Rule] = {}
    for line in table.strip().splitlines():
        parts = [p.strip() for p in line.split("|")]
        head = parts[0].split()
        ch, readings = head[0], head[1:]
        why = parts[1] if len(parts) > 1 else ""
        words = tuple(parts[2].split()) if len(parts) > 2 and parts[2] != "-" else ()
        name = "word-bound" if words else "archaic"
        out[ch] = Rule(name, frozenset(readings), why, words)
    return out


RULES: dict[str, Rule] = {**_parse_table(ARCHAIC_TABLE), **PARTICLE_RULES}
RULES["好"] = Rule("word-bound", _r("hao3"), "hào (be fond of) only in these words",
                   ("爱好", "好奇", "好学", "好客", "好胜", "嗜好", "喜好", "好战", "好色", "好为人师"))

# ---------------------------------------------------------------- the check

@dataclass(frozen=True)
class Occurrence:
    lesson: str
    cue: str                  # full cue id, <scene>.<cue>
    form: str                 # "latin" (voices that read Latin) or "chinese" (the others)
    char: str
    offset: int               # in the read-out text (numbers read out)
    context: str              # the read-out text around it, the character in [ ]
    reading: str              # the syllable the pinyin voices are given
    kind: str | None          # "a", "b", "c" when justified, else None
    why: str                  # the pinned word, the phrase, the rule's name; or what is wrong

    def line(self) -> str:
        return f"{self.lesson} · {self.cue} ({self.form}): {self.char} read {self.reading} in …{self.context}…: {self.why}"


def _context(text: str, p: int, n: int = 8) -> str:
    return f"{text[max(0, p - n):p]}[{text[p]}]{text[p + 1:p + 1 + n]}"


def check_text(spoken: str, lexicon: Lexicon, *, lesson: str = "", cue: str = "", form: str = "chinese") -> list[Occurrence]:
    """Every occurrence of a multi-reading character in ``spoken``, justified or not."""
    multi = multi_reading()
    phrases = _phrases()
    text, units = lexicon.read_out(spoken)
    at: dict[int, tuple[ReadingUnit, int]] = {}
    for u in units:
        for k, p in enumerate(u.positions):
            at[p] = (u, k)
    witness = witness_words(text)
    out: list[Occurrence] = []
    for p, ch in enumerate(text):
        if ch not in multi or p not in at:
            continue
        unit, k = at[p]
        syl = unit.syllables[k]
        kind, why = _judge(ch, p, text, unit, k, syl, witness, lexicon, phrases)
        out.append(Occurrence(lesson, cue, form, ch, p, _context(text, p), syl, kind, why))
    return out


def rivals(text: str, p: int, syl: str) -> list[tuple[str, str]]:
    """Dictionary words (pypinyin's phrases, or jieba's words) of 2 to 4 Chinese characters lying
    over ``text[p]`` whose own reading of it differs from ``syl``: (word, its reading of the character)."""
    phrases = _phrases()
    freq = _jieba().FREQ
    ch = text[p]
    a0 = p
    while a0 > 0 and is_cjk(text[a0 - 1]) and p - a0 < 3:
        a0 -= 1
    out = []
    for a in range(a0, p + 1):
        for b in range(max(p + 1, a + 2), min(a + 4, len(text)) + 1):
            w = text[a:b]
            if not all(is_cjk(c) for c in w) or not (w in phrases or freq.get(w, 0) > 0):
                continue
            r = _read_alone(w)
            if len(r) == len(w) and not same_reading(ch, r[p - a], syl):
                out.append((w, r[p - a]))
    return out


def _ambiguous(text: str, p: int, syl: str) -> str | None:
    found = rivals(text, p, syl)
    if not found:
        return None
    shown = ", ".join(f"{w} ({r})" for w, r in found)
    return f"ambiguous here: {shown} would read {text[p]} otherwise; pin the right word in readings"


def _boundary(witness: dict[int, tuple[str, int]], pos: int) -> bool:
    """``pos`` is not strictly inside a witness word."""
    if pos not in witness:
        return True
    return witness[pos][1] == pos


def _witness_reading(word: str, offset: int) -> str | None:
    syl = _read_alone(word)
    return syl[offset] if len(syl) == len(word) else None


def _judge(ch, p, text, unit: ReadingUnit, k, syl, witness, lexicon: Lexicon, phrases) -> tuple[str | None, str]:
    wword, wstart = witness.get(p, (ch, p))
    span = (unit.positions[0], unit.positions[-1] + 1)
    wspan = (wstart, wstart + len(wword))
    # a pinned word or a lone character inside a longer witness word that is a dictionary word:
    # that word must not read the character otherwise (unless the lexicon pins it so itself)
    if (unit.source != "phrase" and len(wword) >= 2 and wword in phrases
            and wspan[0] <= span[0] and span[1] <= wspan[1] and wspan != span):
        w = _witness_reading(wword, p - wstart)
        pinned = lexicon.readings.get(wword)
        if pinned is not None:
            w = pinned[p - wstart]
        if w is not None and not same_reading(ch, syl, w):
            src = {"pinned": "the pinned word", "phrase": "pypinyin's segmenter cut", "char": "pypinyin reads the lone character"}[unit.source]
            return None, (f"{src} {unit.word} gives {syl}, but the word here is {wword}, which reads {ch} as {w}; "
                          f"pin {wword} (or the right word) in readings")
    if unit.source == "pinned":
        return "a", f"pinned {unit.word} {' '.join(unit.syllables)}"
    if ch in lexicon.polyphones:
        return None, (f"{ch} is listed in the lexicon's polyphones, so it must be inside a pinned word "
                      f"(pypinyin gives {syl} via {unit.word}); add the word to readings")
    if unit.source == "phrase":
        if not (_boundary(witness, span[0]) and _boundary(witness, span[1])):
            # the phrase starts or ends inside a witness word: each character must read the same in its witness word
            for q, pos in enumerate(unit.positions):
                ww, ws = witness.get(pos, (text[pos], pos))
                w = _witness_reading(ww, pos - ws)
                if w is not None and not same_reading(text[pos], unit.syllables[q], w):
                    return None, (f"pypinyin's segmenter cut {unit.word} ({' '.join(unit.syllables)}), across the word {ww} "
                                  f"(which reads {text[pos]} as {w}); pin the right word in readings")
        amb = _ambiguous(text, p, syl)
        if amb:
            return None, f"phrase {unit.word} gives {syl}, but it is {amb}"
        return "b", f"phrase {unit.word} {' '.join(unit.syllables)}"
    rule = RULES.get(ch)
    if rule is None:
        return None, (f"no rule for a lone {ch} (pypinyin gives {syl}); pin the word in readings, "
                      f"or add a rule to coursekit/content/readings.py")
    not_here = rule.judge(Place(text, p, witness))
    if not_here:
        return None, f"rule '{rule.name}' does not apply: {not_here}; pin the word in readings"
    if syl not in rule.readings:
        return None, (f"rule '{rule.name}' says {'/'.join(sorted(rule.readings))} ({rule.why}), "
                      f"but pypinyin gives {syl}; pin the word in readings")
    amb = _ambiguous(text, p, syl)
    if amb:
        return None, f"rule '{rule.name}' gives {syl}, but it is {amb}"
    return "c", f"rule '{rule.name}'"


@dataclass
class Report:
    occurrences: list[Occurrence] = field(default_factory=list)

    @property
    def failures(self) -> list[Occurrence]:
        return [o for o in self.occurrences if o.kind is None]

    def counts(self, form: str | None = None) -> dict:
        occ = [o for o in self.occurrences if form is None or o.form == form]
        kinds = Counter(o.kind or "unjustified" for o in occ)
        rules = Counter(o.why for o in occ if o.kind == "c")
        return {"characters": len({o.char for o in occ}), "occurrences": len(occ),
                "a": kinds["a"], "b": kinds["b"], "c": kinds["c"], "unjustified": kinds["unjustified"],
                "rules": dict(rules.most_common())}

    def summary(self) -> str:
        lines = []
        for form in ("chinese", "latin"):
            c = self.counts(form)
            lines.append(f"{form} form: {c['characters']} multi-reading characters, {c['occurrences']} occurrences: "
                         f"(a) pinned {c['a']}, (b) phrase {c['b']}, (c) rule {c['c']}, unjustified {c['unjustified']}")
        c = self.counts()
        lines.append(f"both forms: {c['characters']} characters, {c['occurrences']} occurrences")
        return "\n".join(lines)


def check_course(course, lexicon: Lexicon) -> Report:
    """Check both spoken forms of every cue of ``course``."""

    report = Report()
    for lesson in course.lessons:
        for scene in lesson.scenes:
            for cue in scene.cues:
                for form, latin in (("chinese", False), ("latin", True)):
                    spoken = cue_text(cue, lexicon, reads_latin=latin).spoken
                    report.occurrences += check_text(spoken, lexicon, lesson=lesson.id, cue=cue.id, form=form)
    return report


def main(argv: list[str] | None = None) -> int:
    course = load_course(load_config().lessons)
    report = check_course(course, Lexicon.load())
    print(report.summary())
    for o in report.failures:
        print("  " + o.line())
    return 1 if report.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
