"""What a Chinese character is, the punctuation classes, how line breaking sees a character, and clauses."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# ---------------------------------------------------------------- Chinese characters

#: The code points of Chinese characters: the CJK unified ideographs, extension A, extensions B–F
#: (with the compatibility supplement), the compatibility ideographs, and 〇 (the zero of 二〇一七).
HAN_RANGES: tuple[tuple[int, int], ...] = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2FA1F),
    (0xF900, 0xFAFF),
    (0x3007, 0x3007),
)


def is_cjk(ch: str) -> bool:
    """A Chinese character (``HAN_RANGES``)."""
    o = ord(ch)
    return any(lo <= o <= hi for lo, hi in HAN_RANGES)


def has_cjk(text: str) -> bool:
    """``text`` holds at least one Chinese character."""
    return any(map(is_cjk, text))


def is_wide(ch: str) -> bool:
    """A character set in a full-width cell (East Asian width W or F): every Chinese character, and
    kana, full-width forms and CJK punctuation."""
    return unicodedata.east_asian_width(ch) in ("W", "F")


# ---------------------------------------------------------------- punctuation

#: End a sentence. Subtitles start a new event after one; the voices pause longest.
SENTENCE_ENDS = frozenset("。！？!?")
#: End a clause inside a sentence. ； is here: GB/T 15834 (标点符号用法) has the 分号 mark the pause
#: between the clauses of one compound sentence, so a subtitle event may hold both sides of it.
CLAUSE_BREAKS = frozenset("，、；：,;:")
#: Neither ends a clause, but a voice pauses there: after an ellipsis as after a sentence, at a
#: dash as at a clause break. Subtitles may break after either (as after any closing mark).
ELLIPSIS = frozenset("…")
DASH = frozenset("—")
#: Opening marks: they belong to the text after them.
OPENING = frozenset("“‘（《(")
#: Closing marks that may not start a line (W3C clreq); they hang at the end of the line before.
NO_LINE_START = frozenset("，。？！：；、）》」』】”")
#: Every punctuation mark a voice may be given (no voice reads one aloud).
PUNCTUATION = SENTENCE_ENDS | CLAUSE_BREAKS | ELLIPSIS | DASH | OPENING | frozenset("”’）》·.)\"' -")


def is_punct(ch: str) -> bool:
    """Any Unicode punctuation mark (general category P)."""
    return unicodedata.category(ch).startswith("P")


def is_opening(ch: str) -> bool:
    """An opening bracket or quote: ASCII ``([{``, or an opening mark at U+2000 or above (Ps, Pi)."""
    return ch in "([{" or (ord(ch) >= 0x2000 and unicodedata.category(ch) in ("Ps", "Pi"))


# ---------------------------------------------------------------- what a voice can be given

#: What a voice that reads Latin script may be given besides what every voice reads.
LATIN_EXTRA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/+")


def is_allowed(ch: str) -> bool:
    """A character every voice can read: Chinese, a digit, whitespace or ``PUNCTUATION``."""
    return is_cjk(ch) or ("0" <= ch <= "9") or ch.isspace() or ch in PUNCTUATION


def is_latin_readable(ch: str) -> bool:
    """A character a voice that reads Latin script can be given: what every voice reads, plus
    ASCII letters, '/' and '+'."""
    return is_allowed(ch) or ch in LATIN_EXTRA


# ---------------------------------------------------------------- how line breaking sees a character

SPACE, CJK_PUNCT, WIDE, LATIN = "S", "P", "W", "L"


@lru_cache(maxsize=4096)
def char_class(ch: str) -> str:
    """``SPACE`` (whitespace), ``CJK_PUNCT`` (a punctuation mark at U+2000 or above: full-width and CJK
    marks, curly quotes, dashes, the ellipsis), ``WIDE`` (``is_wide``: Chinese characters among them)
    or ``LATIN`` (the rest: letters, digits, ASCII punctuation, symbols; a run of them is one token)."""
    if ch.isspace():
        return SPACE
    if is_punct(ch) and ord(ch) >= 0x2000:
        return CJK_PUNCT
    if is_wide(ch):
        return WIDE
    return LATIN


def cell_width(ch: str) -> float:
    """Width in full-width cells: 1 for a wide character, about half for the rest."""
    return 1.0 if is_wide(ch) else 0.5


def text_cells(text: str) -> float:
    """``text``'s width in full-width cells, whitespace left out: a Chinese character or full-width mark
    is 1, a Latin letter, Greek letter, digit or ASCII mark 0.5 (what reading it takes, as ``cell_width``)."""
    return sum(cell_width(ch) for ch in text if not ch.isspace())


# ---------------------------------------------------------------- clauses of spoken text


def pause_at(text: str, k: int) -> str | None:
    """The pause a voice makes at ``text[k]``: 'sentence' (``SENTENCE_ENDS``, ``ELLIPSIS``, a '.' not
    between digits), 'clause' (``CLAUSE_BREAKS``, ``DASH``) or None."""
    ch = text[k]
    if ch in SENTENCE_ENDS or ch in ELLIPSIS:
        return "sentence"
    if ch == ".":
        between = 0 < k < len(text) - 1 and text[k - 1].isdigit() and text[k + 1].isdigit()
        return None if between else "sentence"
    if ch in CLAUSE_BREAKS or ch in DASH:
        return "clause"
    return None


def clauses(spoken: str) -> list[tuple[int, int, str]]:
    """Split spoken text into clauses at punctuation: (start, end, kind) with kind 'clause' or
    'sentence' (``pause_at``), or 'end' for the text after the last break. The punctuation after a
    break belongs to its clause; spans cover the text without gaps."""
    out: list[tuple[int, int, str]] = []
    start = 0
    i = 0
    n = len(spoken)
    while i < n:
        kind = pause_at(spoken, i)
        if kind is None:
            i += 1
            continue
        j = i
        # swallow the run of punctuation/space after the break (e.g. "。”" or "，  ")
        while j < n and (spoken[j] in PUNCTUATION or spoken[j].isspace()) and spoken[j] not in OPENING:
            if pause_at(spoken, j) == "sentence":
                kind = "sentence"
            j += 1
        out.append((start, j, kind))
        start = j
        i = j
    if start < n:
        out.append((start, n, "end"))
    return out
