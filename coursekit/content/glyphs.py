"""Every character a viewer reads comes from the course font (``course.font``): the glyph check.

A character the font has no glyph for is drawn anyway, by the player (subtitles) or by Pango (Manim's
``Text``), from some other installed font, in another style and weight: ``Mₖᵀ`` or ``✗`` next to
Noto Sans CJK SC. :func:`missing_glyphs` finds each such character, with where it is and its code point;
:func:`font_cmap` reads the font's character map with fontTools from the files fontconfig picks
(``fc-match``), the same files Pango and the players get.

What is checked, and what is exempt:

- checked: every other character, Latin, digits and punctuation included;
- exempt: whitespace and line breaks (``str.isspace``: nothing is drawn) and format characters (Unicode
  category Cf, such as U+2060 WORD JOINER, which ``course.format_characters`` may allow: they are
  default-ignorable, so text shaping draws nothing for them and never falls back);
- not given to it: Typst and MathTypst sources (``DrawnText.kind == "Typst"``). Typst carries its own
  math font and sets the text around it with its own font list; the caller leaves them out by the
  mobject's kind, not by looking at the string.

The fix for a missing character: a formula in Typst (``theme.formula``), a plain form in the subtitles
(``M_k``, ``R^T``, ``10^-16``), or a mark drawn as lines (``scenes/mobjects/marks.py``).

``render.py check`` and ``render.py doctor`` run it on every cue's subtitle text and every title
(:func:`course_texts`); tests/course/test_glyphs.py also runs it on every subtitle event of the planned lessons
and every string the scenes draw in a dry run.
"""

from __future__ import annotations

import subprocess
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from fontTools.ttLib import TTFont

from coursekit.content.cue_text import cue_text
from coursekit.content.narration import Course
from coursekit.core.errors import UserError

#: How to mend a character the font lacks, said after each one.
GLYPH_FIX = "write a plain form (M_k, R^T, 10^-16) or draw it on screen (Typst)"


def exempt(ch: str) -> bool:
    """True for characters that draw nothing: whitespace, line breaks and format characters (Cf)."""
    return ch.isspace() or unicodedata.category(ch) == "Cf"


@dataclass(frozen=True)
class Missing:
    """One character the font lacks, at one place (the first time it occurs there)."""

    where: str  #: the place, as the caller named it (lesson · cue, or scene · cue · frame)
    char: str
    count: int  #: how often it occurs at that place
    excerpt: str  #: the text around its first occurrence

    @property
    def code(self) -> str:
        return f"U+{ord(self.char):04X}"

    def line(self, font: str = "the course font") -> str:
        name = unicodedata.name(self.char, "")
        times = f" ({self.count}×)" if self.count > 1 else ""
        return (
            f"{self.where}: {self.code} {self.char}{' ' + name if name else ''}{times} is not in {font}"
            f"   in “{self.excerpt}”"
        )


def course_texts(title: str, course: Course, lexicon) -> list[tuple[str, str]]:
    """Every text a viewer of ``course`` reads, as ``(where, text)``: the course ``title`` (config.yaml),
    each lesson's and scene's title, and each cue's subtitle text as both kinds of voice write it
    (transliterations and Latin forms, ``cue_text`` with ``lexicon``). A cue whose text cannot be
    written is one line naming it."""
    texts: list[tuple[str, str]] = [("config.yaml: course.title", title)]
    for lesson in course.lessons:
        texts.append((f"{lesson.path.name}: lesson title", lesson.title))
        for scene in lesson.scenes:
            texts.append((f"{lesson.path.name}:{scene.line}: scene '{scene.id}' title", scene.title))
            for cue in scene.cues:
                try:
                    forms = [cue_text(cue, lexicon, reads_latin=latin).written for latin in (False, True)]
                except UserError as exc:
                    raise UserError(f"{lesson.path.name}:{cue.line}: cue '{cue.id}': {exc}") from None
                texts += [(f"{lesson.path.name}:{cue.line}: cue '{cue.id}'", t) for t in dict.fromkeys(forms)]
    return texts


def _excerpt(text: str, i: int, width: int = 12) -> str:
    a, b = max(0, i - width), min(len(text), i + 1 + width)
    return ("…" if a else "") + " ".join(text[a:b].split()) + ("…" if b < len(text) else "")


def missing_glyphs(places: Iterable[tuple[str, str]], cmap: Iterable[int] | frozenset[int]) -> list[Missing]:
    """Each character of each ``(where, text)`` that ``cmap`` (code points) lacks, once per place and
    character, in order of first occurrence; exempt characters (:func:`exempt`) are skipped."""
    have = cmap if isinstance(cmap, (set, frozenset, dict)) else frozenset(cmap)
    out: list[Missing] = []
    for where, text in places:
        first: dict[str, int] = {}
        counts: dict[str, int] = {}
        for i, ch in enumerate(text):
            if ord(ch) in have or exempt(ch):
                continue
            first.setdefault(ch, i)
            counts[ch] = counts.get(ch, 0) + 1
        out += [Missing(where, ch, counts[ch], _excerpt(text, i)) for ch, i in first.items()]
    return out


def _match(pattern: str) -> tuple[str, int, list[str]]:
    """(file, face index, family names) of what fontconfig picks for ``pattern``."""
    try:
        out = subprocess.run(
            ["fc-match", "-f", "%{file}\n%{index}\n%{family}", pattern], capture_output=True, text=True
        ).stdout
    except OSError:
        raise UserError(
            "fc-match not found; install the Debian package fontconfig: apt-get install fontconfig"
        ) from None
    path, index, families = (out.split("\n") + ["", "", ""])[:3]
    return path, int(index or 0), [f.strip() for f in families.split(",")]


def font_files(family: str) -> list[tuple[str, int]]:
    """(file, face index) of the faces :func:`font_cmap` reads for ``family``: its regular face, and its
    bold face when fontconfig has one (what a cache of the glyph check is keyed by)."""
    out = []
    for pattern in (family, f"{family}:bold"):
        path, index, families = _match(pattern)
        if family in families:
            out.append((path, index))
    return out


@lru_cache(maxsize=None)
def font_cmap(family: str) -> frozenset[int]:
    """The code points the course font has glyphs for: its regular face, and also its bold face when it
    has one (titles are bold), intersected; read from the files ``fc-match`` picks (a face of a .ttc
    collection by fontconfig's index). A family fontconfig does not have is one line."""
    got: frozenset[int] | None = None
    for style, pattern in (("regular", family), ("bold", f"{family}:bold")):
        path, index, families = _match(pattern)
        if family not in families:
            if style == "regular":
                raise UserError(
                    f"course.font: font '{family}' not found (fontconfig offers "
                    f"'{families[0] or 'nothing'}'); install it, e.g. apt-get install fonts-noto-cjk"
                )
            continue  # no bold face: Pango makes bold from the regular one
        try:
            with TTFont(path, fontNumber=index, lazy=True) as font:
                cmap = frozenset(font.getBestCmap() or {})
        except Exception as exc:  # noqa: BLE001 - a broken font file is the user's machine
            raise UserError(f"course.font: cannot read {path} (face {index}): {exc}") from None
        got = cmap if got is None else got & cmap
    assert got is not None
    return got
