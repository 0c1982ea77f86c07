"""The polyphone check: why each multi-reading character of a spoken text is read as the pinyin voices read it.

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
    of the character), and a named rule (``coursekit.zh.reading_rules``: the engine's, and the
    course's own from its lexicon's ``rules``) says which reading is right here, and it
    is that one. If a rule does not apply at this place, or says another reading, the occurrence
    is reported. A single character is also checked against the witness: if the witness word
    around it is a dictionary word that reads it otherwise (中 inside 打中), it is reported; and,
    as for (b), it must be unambiguous.

Characters in the lexicon's ``polyphones`` list must always be pinned: neither (b) nor (c) is
enough for them.

Words of two readings, a light (neutral) tone in one sense and a full tone in another (东西 dōngxi
"thing", dōngxī "east and west"; the ambiguous words of ``coursekit.zh.neutral``'s table), must be
pinned too: each one found outside a pinned word is reported, as a word (``Report.counts``'s
``words``), whatever its characters.

Numbers are read out first, as people say them (``coursekit.zh.numbers``). Formulas are spoken the way
a teacher reads them aloud, through ``terms`` (10000^(−2i/d): 一万的负 d 分之 2i 次方, the fraction read
denominator first as in class). Measured errors are spoken as an order of magnitude (不到 10⁻¹⁵) or in
units of ε; the exact figures (8.9×10⁻¹⁶) are drawn on screen, not read out.

``python -m coursekit.content.reading_check`` runs it over the course (``coursekit.content.reading_check``)
and prints the counts and every occurrence it cannot justify.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from coursekit.zh.chars import is_cjk
from coursekit.zh.lexicon import Lexicon, ReadingUnit
from coursekit.zh.reading_rules import Place, rules_for
from coursekit.zh.segmenter import tokenizer

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

    return tuple(
        s.replace("ü", "v") for s in lazy_pinyin(word, style=Style.TONE3, neutral_tone_with_five=True, errors="ignore")
    )


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


# ---------------------------------------------------------------- the check


@dataclass(frozen=True)
class Occurrence:
    lesson: str
    cue: str  # full cue id, <scene>.<cue>
    form: str  # "latin" (voices that read Latin) or "chinese" (the others)
    char: str
    offset: int  # in the read-out text (numbers read out)
    context: str  # the read-out text around it, the character in [ ]
    reading: str  # the syllable the pinyin voices are given
    kind: str | None  # "a", "b", "c" when justified, else None
    why: str  # the pinned word, the phrase, the rule's name; or what is wrong

    def line(self) -> str:
        return (
            f"{self.lesson} · {self.cue} ({self.form}): {self.char} read {self.reading} in …{self.context}…: {self.why}"
        )


def _context(text: str, p: int, n: int = 8) -> str:
    return f"{text[max(0, p - n) : p]}[{text[p]}]{text[p + 1 : p + 1 + n]}"


def check_text(
    spoken: str, lexicon: Lexicon, *, lesson: str = "", cue: str = "", form: str = "chinese"
) -> list[Occurrence]:
    """Every occurrence of a multi-reading character in ``spoken``, justified or not."""
    multi = multi_reading()
    phrases = _phrases()
    text, units = lexicon.read_out(spoken)
    at: dict[int, tuple[ReadingUnit, int]] = {}
    for u in units:
        for k, p in enumerate(u.positions):
            at[p] = (u, k)
    witness = witness_words(text)
    rules = rules_for(lexicon)
    out: list[Occurrence] = []
    for p, ch in enumerate(text):
        if ch not in multi or p not in at:
            continue
        unit, k = at[p]
        syl = unit.syllables[k]
        kind, why = _judge(ch, p, text, unit, syl, witness, lexicon, phrases, rules)
        out.append(Occurrence(lesson, cue, form, ch, p, _context(text, p), syl, kind, why))
    for p, lw in lexicon.light_words(text):
        if lw.ambiguous:
            given = " ".join(at[q][0].syllables[at[q][1]] for q in range(p, p + len(lw.word)) if q in at)
            out.append(
                Occurrence(
                    lesson,
                    cue,
                    form,
                    lw.word,
                    p,
                    _context(text, p),
                    given,
                    None,
                    f"{lw.word} has two readings, {' '.join(lw.syllables)} and {' '.join(lw.full)} "
                    "(a light tone or a full one, two senses); pin the course's in readings",
                )
            )
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


def _unless_ambiguous(text: str, p: int, syl: str, kind: str, source: str, why: str) -> tuple[str | None, str]:
    """(kind, why), unless another dictionary word over ``text[p]`` reads it otherwise (``rivals``): then
    the occurrence is reported, naming what gave the reading (``source``) and the rivals."""
    found = rivals(text, p, syl)
    if not found:
        return kind, why
    shown = ", ".join(f"{w} ({r})" for w, r in found)
    return None, (
        f"{source} gives {syl}, but it is ambiguous here: {shown} would read {text[p]} otherwise; "
        "pin the right word in readings"
    )


def _boundary(witness: dict[int, tuple[str, int]], pos: int) -> bool:
    """``pos`` is not strictly inside a witness word."""
    if pos not in witness:
        return True
    return witness[pos][1] == pos


def _witness_reading(word: str, offset: int) -> str | None:
    syl = _read_alone(word)
    return syl[offset] if len(syl) == len(word) else None


def _judge(ch, p, text, unit: ReadingUnit, syl, witness, lexicon: Lexicon, phrases, rules) -> tuple[str | None, str]:
    wword, wstart = witness.get(p, (ch, p))
    span = (unit.positions[0], unit.positions[-1] + 1)
    wspan = (wstart, wstart + len(wword))
    # a pinned word or a lone character inside a longer witness word that is a dictionary word:
    # that word must not read the character otherwise (unless the lexicon pins it so itself)
    if (
        unit.source != "phrase"
        and len(wword) >= 2
        and wword in phrases
        and wspan[0] <= span[0]
        and span[1] <= wspan[1]
        and wspan != span
    ):
        w = _witness_reading(wword, p - wstart)
        pinned = lexicon.readings.get(wword)
        if pinned is not None:
            w = pinned[p - wstart]
        if w is not None and not same_reading(ch, syl, w):
            src = {
                "pinned": "the pinned word",
                "phrase": "pypinyin's segmenter cut",
                "char": "pypinyin reads the lone character",
            }[unit.source]
            return None, (
                f"{src} {unit.word} gives {syl}, but the word here is {wword}, which reads {ch} as {w}; "
                f"pin {wword} (or the right word) in readings"
            )
    if unit.source == "pinned":
        return "a", f"pinned {unit.word} {' '.join(unit.syllables)}"
    if ch in lexicon.polyphones:
        return None, (
            f"{ch} is listed in the lexicon's polyphones, so it must be inside a pinned word "
            f"(pypinyin gives {syl} via {unit.word}); add the word to readings"
        )
    if unit.source == "phrase":
        if not (_boundary(witness, span[0]) and _boundary(witness, span[1])):
            # the phrase starts or ends inside a witness word: each character must read the same in its witness word
            for q, pos in enumerate(unit.positions):
                ww, ws = witness.get(pos, (text[pos], pos))
                w = _witness_reading(ww, pos - ws)
                if w is not None and not same_reading(text[pos], unit.syllables[q], w):
                    return None, (
                        f"pypinyin's segmenter cut {unit.word} ({' '.join(unit.syllables)}), across the word {ww} "
                        f"(which reads {text[pos]} as {w}); pin the right word in readings"
                    )
        return _unless_ambiguous(
            text, p, syl, "b", f"phrase {unit.word}", f"phrase {unit.word} {' '.join(unit.syllables)}"
        )
    rule = rules.get(ch)
    if rule is None:
        return None, (
            f"no rule for a lone {ch} (pypinyin gives {syl}); pin the word in readings, "
            f"or give the character a rule in the lexicon's rules (its reading and why)"
        )
    not_here = rule.judge(Place(text, p, witness))
    if not_here:
        return None, f"rule '{rule.name}' does not apply: {not_here}; pin the word in readings"
    if not any(same_reading(ch, r, syl) for r in rule.readings):
        return None, (
            f"rule '{rule.name}' says {'/'.join(sorted(rule.readings))} ({rule.why}), "
            f"but pypinyin gives {syl}; pin the word in readings"
        )
    return _unless_ambiguous(text, p, syl, "c", f"rule '{rule.name}'", f"rule '{rule.name}'")


@dataclass
class Report:
    occurrences: list[Occurrence] = field(default_factory=list)

    @property
    def failures(self) -> list[Occurrence]:
        return [o for o in self.occurrences if o.kind is None]

    def counts(self, form: str | None = None) -> dict:
        """Counts over the occurrences of multi-reading characters (``words``: the unpinned ambiguous
        words of the light-tone table, each also a failure)."""
        occ = [o for o in self.occurrences if (form is None or o.form == form) and len(o.char) == 1]
        kinds = Counter(o.kind or "unjustified" for o in occ)
        rules = Counter(o.why for o in occ if o.kind == "c")
        return {
            "characters": len({o.char for o in occ}),
            "occurrences": len(occ),
            "a": kinds["a"],
            "b": kinds["b"],
            "c": kinds["c"],
            "unjustified": kinds["unjustified"],
            "rules": dict(rules.most_common()),
            "words": sum(1 for o in self.occurrences if (form is None or o.form == form) and len(o.char) > 1),
        }

    def summary(self) -> str:
        lines = []
        for form in ("chinese", "latin"):
            c = self.counts(form)
            lines.append(
                f"{form} form: {c['characters']} multi-reading characters, {c['occurrences']} occurrences: "
                f"(a) pinned {c['a']}, (b) phrase {c['b']}, (c) rule {c['c']}, unjustified {c['unjustified']}"
                + (f"; {c['words']} unpinned word(s) of two readings" if c["words"] else "")
            )
        c = self.counts()
        lines.append(f"both forms: {c['characters']} characters, {c['occurrences']} occurrences")
        return "\n".join(lines)
