"""The words a narration file holds (a cue's text and spoken form, a title, a choice), checked as the
schema reads them (``coursekit.content.narration``): ``text_field`` (not empty, no control character, not
too long), ``placeholders`` (every brace is part of a ``{name}`` figure or a ``{@name}`` bookmark: a nested
``{{x}}`` or an unclosed ``{x`` would reach the subtitles as written) and ``spoken`` (something to read
aloud, not only punctuation, which every voice refuses at synthesis). Each raises ``ValueError``, which the
schema reports at its line in the file."""

from __future__ import annotations

import re
import unicodedata

BOOKMARK_RE = re.compile(r"\{@([a-z][a-z0-9_]*)\}")
FIGURE_RE = re.compile(r"\{([a-z][a-z0-9_]*)\}")
MAX_CUE_CHARS = 400


def text_field(v: str, field: str) -> str:
    """A title, cue text or spoken form: not empty, no control characters, at most MAX_CUE_CHARS."""
    if not v.strip():
        raise ValueError(f"{field} is empty; write the sentence or remove the cue")
    for ch in v:
        cat = unicodedata.category(ch)
        if cat == "Cs":
            raise ValueError(f"{field} contains an unpaired surrogate; retype that character")
        if cat == "Cc" and ch not in "\n":
            raise ValueError(f"{field} contains control character U+{ord(ch):04X}; delete it")
    if len(v) > MAX_CUE_CHARS:
        raise ValueError(f"{field} has {len(v)} characters, more than {MAX_CUE_CHARS}; split it into several cues")
    return " ".join(v.split()) if "\n" in v else v.strip()


#: a placeholder, or a brace that is part of none
_BRACES = re.compile(r"\{@?[a-z][a-z0-9_]*\}|[{}]")


def _excerpt(v: str, i: int, width: int = 8) -> str:
    return ("…" if i > width else "") + v[max(0, i - width) : i + width] + ("…" if i + width < len(v) else "")


def placeholders(v: str, field: str) -> str:
    """Every brace of a cue's text or spoken form is part of a placeholder, ``{name}`` (a figure) or
    ``{@name}`` (a bookmark): a nested ``{{x}}``, an unclosed ``{x`` or a ``{Name}`` would reach the
    subtitles as it is written."""
    for m in _BRACES.finditer(v):
        if len(m.group()) == 1:
            raise ValueError(
                f"{field} has a '{m.group()}' that is part of no placeholder, in “{_excerpt(v, m.start())}”: a "
                "figure is {name} and a bookmark {@name}, a snake_case name in one pair of braces; mend it, or "
                "write ｛ ｝ for a brace the viewer should see"
            )
    return v


def spoken(v: str, field: str) -> str:
    """A cue's text or spoken form has something to read aloud: a letter, a digit or a figure, not only
    punctuation and symbols (which every voice refuses at synthesis, minutes later)."""
    if FIGURE_RE.search(v) or any(unicodedata.category(ch)[0] in "LN" for ch in BOOKMARK_RE.sub("", v)):
        return v
    raise ValueError(
        f"{field} “{v[:24]}” has nothing to read aloud, only punctuation and symbols; write the words, or remove the cue"
    )
