"""The course's glossary (narration/glossary.yaml): one name per concept, and the check against it.

:func:`load_glossary` reads and validates the file (pydantic; a bad file is one line naming the key).
:func:`find_variants` is *the* check: given the texts a viewer meets (each a :class:`Place`), it returns
every variant found that no exception allows, as :class:`Offence` objects whose ``line()`` names where,
the variant and the term to use. tests/course/test_glossary.py runs it on the whole course, and on seeded
texts to show that it fails.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from coursekit.core.errors import UserError
from coursekit.core.safeyaml import load_text

GLOSSARY = Path(__file__).resolve().parent / "glossary.yaml"
CHANNELS = ("subtitles", "voice", "titles", "screen", "formulas")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Allowed(_Strict):
    """An exact context in which a variant may stand."""

    context: str = Field(min_length=1)
    lessons: tuple[str, ...] | None = None
    scenes: tuple[str, ...] | None = None
    at_most: int | None = Field(None, ge=1)
    note: str = ""


class Variant(_Strict):
    find: str = Field(min_length=1)
    use: str = Field(min_length=1)
    channels: tuple[str, ...] = CHANNELS
    lessons: tuple[str, ...] | None = None
    allowed: tuple[Allowed, ...] = ()
    note: str = ""

    @field_validator("find")
    @classmethod
    def _compiles(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as exc:
            raise ValueError(f"not a regular expression ({exc})") from None
        return v

    @field_validator("channels")
    @classmethod
    def _known_channels(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [c for c in v if c not in CHANNELS]
        if bad or not v:
            raise ValueError(f"channels must be some of {', '.join(CHANNELS)}; got {', '.join(bad) or 'none'}")
        return v

    @model_validator(mode="after")
    def _contexts_contain_the_variant(self) -> "Variant":
        for a in self.allowed:
            if not re.search(self.find, a.context):
                raise ValueError(f"allowed context {a.context!r} does not contain the variant {self.find!r}")
        return self

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.find)


class Concept(_Strict):
    concept: str = Field(min_length=1)
    term: str = Field(min_length=1)
    symbol: str | None = None
    note: str = ""
    variants: tuple[Variant, ...] = Field(min_length=1)


class Glossary(_Strict):
    concepts: tuple[Concept, ...] = Field(min_length=1)

    def variants(self) -> Iterable[tuple[Concept, Variant]]:
        for c in self.concepts:
            for v in c.variants:
                yield c, v


def load_glossary(path: Path = GLOSSARY, text: str | None = None) -> Glossary:
    """The glossary at ``path`` (or ``text`` read as if it were that file), validated."""
    name = path.name if path.parent.name != "narration" else f"narration/{path.name}"
    try:
        data = load_text(path.read_text(encoding="utf-8") if text is None else text, name)
    except OSError as exc:
        raise UserError(f"{name}: cannot read it ({exc.strerror})") from None
    try:
        return Glossary.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"]).lstrip(".") or "(top)"
        msg = err["msg"].removeprefix("Value error, ")
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise UserError(f"{name}: {where}: {msg}{more}") from None


@dataclass(frozen=True)
class Place:
    """One text a viewer meets, and where: ``where`` is what a failure prints (lesson + cue, or scene)."""

    where: str
    channel: str  #: one of CHANNELS
    lesson: str
    scene: str | None
    text: str


@dataclass(frozen=True)
class Offence:
    place: Place
    found: str  #: the text the variant matched
    start: int  #: where in ``place.text``
    variant: Variant
    concept: Concept

    def line(self) -> str:
        return (
            f"{self.place.where} [{self.place.channel}]: “{self.found}” → use {self.variant.use}"
            f"   in “{_excerpt(self.place.text, self.start, len(self.found))}”"
        )


def _excerpt(text: str, i: int, n: int, width: int = 12) -> str:
    a, b = max(0, i - width), min(len(text), i + n + width)
    return ("…" if a else "") + text[a:b].replace("\n", " ") + ("…" if b < len(text) else "")


def _allowed_spans(variant: Variant, place: Place) -> list[tuple[int, int, int]]:
    """(start, end, index of the exception) of each allowed context in ``place``."""
    out = []
    for k, a in enumerate(variant.allowed):
        if a.lessons is not None and place.lesson not in a.lessons:
            continue
        if a.scenes is not None and place.scene not in a.scenes:
            continue
        start = place.text.find(a.context)
        while start >= 0:
            out.append((start, start + len(a.context), k))
            start = place.text.find(a.context, start + 1)
    return out


def find_variants(places: Iterable[Place], glossary: Glossary) -> list[Offence]:
    """Every variant of the glossary found in ``places`` that no exception allows, in order.

    A match inside an allowed context is fine; an exception with ``at_most`` allows that many uses
    course-wide per channel, and each further use is an offence."""
    offences: list[Offence] = []
    used: Counter = Counter()  # (id of the variant, exception index, channel) -> uses so far
    for place in places:
        taken: list[tuple[int, int, int]] = []  # spans already reported here, per concept
        for concept, variant in glossary.variants():
            if place.channel not in variant.channels:
                continue
            if variant.lessons is not None and place.lesson not in variant.lessons:
                continue
            spans = None
            for m in variant.pattern.finditer(place.text):
                if spans is None:
                    spans = _allowed_spans(variant, place)
                cover = next(((s, e, k) for s, e, k in spans if s <= m.start() and m.end() <= e), None)
                if cover is not None:
                    a = variant.allowed[cover[2]]
                    key = (id(variant), cover[2], place.channel)
                    used[key] += 1
                    if a.at_most is None or used[key] <= a.at_most:
                        continue
                if any(c == id(concept) and m.start() < e and s < m.end() for s, e, c in taken):
                    continue  # two variants of one concept on the same words: reported once
                taken.append((m.start(), m.end(), id(concept)))
                offences.append(Offence(place, m.group(0), m.start(), variant, concept))
    return offences
