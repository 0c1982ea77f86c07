"""The named rules of the polyphone check (its case (c)): which reading a character left alone by the segmenter has.

Each rule is specific enough to be wrong:

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
  place name only (是 tí, 它 tuó, 〇 yuán …). Each is listed in ``ARCHAIC_TABLE``
  (``coursekit.zh.polyphone_table``) with the reason.
- ``word-bound``: characters whose other reading is alive but occurs only inside the words
  listed beside it in ``ARCHAIC_TABLE`` (看 kān in 看守 看门 …; 都 dū in 首都 都市 …); an occurrence inside
  one of the listed words is not covered.

A course extends them with data, not code: its lexicon's ``rules`` (``coursekit.zh.lexicon``) give
a lone character's reading, why, and the words where it reads otherwise, like a line of the table;
``rules_for(lexicon)`` is what the check applies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from coursekit.zh.chars import is_cjk
from coursekit.zh.lexicon import Lexicon
from coursekit.zh.polyphone_table import ARCHAIC_TABLE


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
    readings: frozenset[str]  # the right syllables, tone-numbered
    why: str
    not_in: tuple[str, ...] = ()  # words where the character reads otherwise: not covered there
    when: Callable[[Place], str | None] | None = None  # None if the rule applies here, else why not

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
    return (
        None
        if pl.prev and pl.prev in "什怎这那多要"
        else f"after {pl.prev or 'nothing'}, not in 什么/怎么/这么/那么/多么/要么"
    )


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
    "的": Rule(
        "particle de (的)",
        _r("de5"),
        "the structural particle",
        ("的确", "目的", "标的", "众矢之的", "有的放矢", "的士"),
    ),
    "地": Rule(
        "particle de (地)",
        _r("de5"),
        "the adverbial particle after an adverbial, before the verb",
        when=_after_adverbial,
    ),
    "了": Rule("particle le (了)", _r("le5"), "the aspect / sentence particle", when=_le),
    "着": Rule(
        "particle zhe (着)",
        _r("zhe5"),
        "the durative particle after a verb",
        (
            "着急",
            "着火",
            "着迷",
            "着凉",
            "着手",
            "着陆",
            "着重",
            "着想",
            "着落",
            "着眼",
            "着实",
            "睡着",
            "沉着",
            "执着",
            "衣着",
            "穿着",
        ),
        when=_zhe,
    ),
    "么": Rule("particle me (么)", _r("me5"), "the suffix of 什么, 怎么, 这么, 那么, 多么, 要么", when=_me),
    "子": Rule("noun suffix zi (子)", _r("zi5"), "the light noun suffix (步子, 格子, 式子)", when=_zi),
    "处": Rule("place chù (处)", _r("chu4"), "the noun 'place' at the end of a clause", when=_chu),
    "一": Rule("sandhi (一)", _r("yi1", "yi2", "yi4"), "yī, yí, yì are one syllable whose tone follows the next one"),
    "不": Rule(
        "sandhi (不)",
        _r("bu4", "bu2"),
        "bù, bú are one syllable whose tone follows the next one; fǒu, fōu, fū are archaic",
    ),
    "们": Rule("particles and suffixes", _r("men5"), "the plural suffix; mén is a surname"),
    "吗": Rule("particles and suffixes", _r("ma5"), "the question particle", ("吗啡", "干吗")),
    "呢": Rule("particles and suffixes", _r("ne5"), "the particle", ("呢子", "毛呢", "呢绒", "花呢", "呢喃")),
    "边": Rule("particles and suffixes", _r("bian1", "bian5"), "biān and the light bian of 左边, 两边 are one word"),
    "里": Rule("particles and suffixes", _r("li3", "li5"), "lǐ and the light li of 这里 are one word"),
}


def _table_rule(readings: Iterable[str], why: str, words: tuple[str, ...]) -> Rule:
    """A rule of the table's kind: 'word-bound' if the other readings live in ``words``, else 'archaic'."""
    return Rule("word-bound" if words else "archaic", frozenset(readings), why, words)


def _parse_table(table: str) -> dict[str, Rule]:
    out: dict[str, Rule] = {}
    for line in table.strip().splitlines():
        parts = [p.strip() for p in line.split("|")]
        head = parts[0].split()
        why = parts[1] if len(parts) > 1 else ""
        words = tuple(parts[2].split()) if len(parts) > 2 and parts[2] != "-" else ()
        out[head[0]] = _table_rule(head[1:], why, words)
    return out


#: The engine's rules: the table's, and the particle rules (which win where both speak of a character).
RULES: dict[str, Rule] = {**_parse_table(ARCHAIC_TABLE), **PARTICLE_RULES}


def rules_for(lexicon: Lexicon) -> dict[str, Rule]:
    """The rules that hold for a course: the engine's ``RULES``, and the lexicon's own ``rules`` (which
    win for the characters they name)."""
    if not lexicon.rules:
        return RULES
    own = {ch: _table_rule(r.readings, r.why, r.not_in) for ch, r in lexicon.rules.items()}
    return {**RULES, **own}
