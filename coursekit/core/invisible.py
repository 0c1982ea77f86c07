"""Characters a viewer cannot see but that change what they read: Unicode format characters (category
Cf): bidi controls such as U+202E, which reorder the text around them, zero-width characters such as
U+200B, a byte-order mark in the middle of a file.

The narration, the lexicon and the config refuse them (``refuse_format_characters``), each with
``file:line`` and the code point, because what they hold reaches the subtitles, the page and the voice.
A byte-order mark that opens a file is an encoding mark, not text, and is allowed. The one other
exception is a character the course declares on purpose in its config (``course.format_characters``,
such as U+2060 WORD JOINER for a no-break), given as ``U+XXXX``.

``unseen(text)`` names the first character of a one-line text (a title) that a viewer cannot see: a format
character, a control character (a line break too) or an unpaired surrogate. ``render.py init`` refuses a
title with one, and the config refuses one in ``course.title`` (its format characters are the file's, found
by ``refuse_format_characters`` with their line): a title ``init`` writes is one ``check`` accepts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from coursekit.core.errors import UserError

_CODE_POINT = re.compile(r"^U\+([0-9A-Fa-f]{4,6})$")


def code_point(ch: str) -> str:
    """``U+202E``."""
    return f"U+{ord(ch):04X}"


def parse_code_point(text: str) -> str:
    """The format character that ``U+XXXX`` names; ValueError (with how to write it) otherwise."""
    m = _CODE_POINT.match(str(text).strip())
    if not m:
        raise ValueError(f"{text!r} is not a code point; write it as U+XXXX, like U+2060")
    value = int(m.group(1), 16)
    if value > 0x10FFFF:
        raise ValueError(f"{text} is beyond the last Unicode code point")
    ch = chr(value)
    if unicodedata.category(ch) != "Cf":
        raise ValueError(
            f"{text} ({unicodedata.name(ch, 'unnamed')}) is not a format character (category Cf); "
            "only invisible format characters need declaring"
        )
    return ch


def unseen(text: str, allowed: Iterable[str] = (), format_characters: bool = True) -> str | None:
    """The first character of ``text`` a viewer cannot see, in words (``"control character U+0007"``,
    ``"invisible format character U+202E (RIGHT-TO-LEFT OVERRIDE)"``), or None: a control character
    (category Cc, line breaks and tabs included), an unpaired surrogate (Cs) and, unless
    ``format_characters`` is False (the caller checks them elsewhere), a format character (Cf) that
    ``allowed`` does not hold."""
    ok = set(allowed)
    for ch in text:
        kind = unicodedata.category(ch)
        if kind == "Cc":
            return f"control character {code_point(ch)}"
        if kind == "Cs":
            return f"an unpaired surrogate {code_point(ch)}"
        if kind == "Cf" and format_characters and ch not in ok:
            return f"invisible format character {code_point(ch)} ({unicodedata.name(ch, 'unnamed')})"
    return None


def format_characters(text: str, allowed: Iterable[str] = ()) -> list[tuple[int, str]]:
    """``(line, character)`` for every format character in ``text`` that ``allowed`` does not hold;
    a byte-order mark at the very start is not counted."""
    ok = set(allowed)
    found: list[tuple[int, str]] = []
    line = 1
    for i, ch in enumerate(text):
        if ch == "\n":
            line += 1
        elif unicodedata.category(ch) == "Cf" and ch not in ok and not (i == 0 and ch == "\ufeff"):
            found.append((line, ch))
    return found


def refuse_format_characters(text: str, source: str, allowed: Iterable[str] = ()) -> None:
    """Raise one ``UserError`` line, ``source:line: ...``, at the first format character ``allowed``
    does not hold."""
    found = format_characters(text, allowed)
    if found:
        line, ch = found[0]
        more = f" ({len(found) - 1} more after it)" if len(found) > 1 else ""
        raise UserError(
            f"{source}:{line}: invisible format character {code_point(ch)} "
            f"({unicodedata.name(ch, 'unnamed')}){more}: it hides or reorders what a viewer reads; "
            f"delete it, or declare it on purpose in config.yaml under course.format_characters"
        )
