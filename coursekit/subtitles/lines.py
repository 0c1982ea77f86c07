"""Lines: the units no break may fall inside, and one event's text broken into balanced lines.

Breaks fall after sentence punctuation first, then after clause punctuation, then between words
(the ranks: :mod:`coursekit.subtitles.rules`). They never fall inside a Chinese word (jieba,
dictionary only, so it is deterministic), nor inside a Latin word, number or formula token: a maximal
run of characters that are not CJK, not whitespace and not CJK punctuation is one token (``R(θ)``,
``10000^(2i/d)``, ``(0,3)``, ``GPT-2``). Closing punctuation stays with the text before it and opening
brackets or quotes with the text after it (:func:`fit_units` cuts a text into such :class:`Unit`\\ s).
:func:`wrap_lines` breaks one event into at most ``max_lines`` lines of ``max_chars``, balanced.

Formulas stay whole too (:func:`bind_formulas`): Latin tokens joined only by whitespace are one formula
(``cos α cos β − sin α sin β``, ``2π ≈ 6.28``, ``(cos θ, sin θ)``, ``x + p``), and so are symbols joined by 、
(``q、k``, ``q、k、v``: each side holds a letter, so a number list ``1、0.1、0.01``, or ``0、k`` where one clause
ends on a number and the next begins with a symbol, breaks after 、 as any clause does). No line or event ends
inside a formula that fits a line (the rank :data:`~coursekit.subtitles.rules.BOUND`). One longer than a line
(its glued punctuation counted, as that must stay on its line) may break after its operators; the terms
between them are kept whole in the same way, and only a term longer than a line breaks at its spaces.
``KEEP_FORMULAS_WHOLE`` switches the rule off (the tests show that the course's check then fails).

Inside an event the only whitespace left is a single space where the input had whitespace between
two Latin-token characters (``"x, y"``); whitespace next to CJK text is dropped (:func:`join_units`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from coursekit.subtitles.rules import (
    BOUND,
    INSIDE_WORD,
    LINE_BALANCE,
    LINE_BREAK_COST,
    OPERATORS,
    SENTENCE,
    WORD,
    SubtitleTextError,
    count_chars,
    rank_after,
)
from coursekit.zh.chars import CJK_PUNCT, LATIN, SPACE, WIDE, char_class, is_opening, is_punct
from coursekit.zh.segmenter import tokenizer

__all__ = ["Unit", "bind_formulas", "fit_units", "join_units", "min_lines", "wrap_lines"]

#: the formula rule's switch (:func:`bind_formulas`); only a test turns it off, to show what it prevents
KEEP_FORMULAS_WHOLE = True


# --- jieba, once --------------------------------------------------------------


def _tokenizer():
    """The shared jieba tokenizer (coursekit.zh.segmenter)."""
    return tokenizer()


def _cut(run: str) -> list[str]:
    """Words of a run of wide characters: jieba with its dictionary only (no HMM guessing)."""
    if len(run) == 1:
        return [run]
    words = _tokenizer().lcut(run, HMM=False)
    if "".join(words) != run:  # never trust a tokenizer with the no-loss invariant
        return list(run)
    return words


# --- units: the pieces no break may fall inside -------------------------------


@dataclass(frozen=True)
class Unit:
    """A piece of text no break falls inside: a word or token with the punctuation glued to it."""

    text: str  # without whitespace
    start: int  # offsets into the text it was cut from, [start, end)
    end: int
    n: int  # characters that count (== len(text))
    rank: int  # rank of the break after this unit
    latin: bool  # a Latin word, number or formula token
    space_before: bool  # keep one space before it (whitespace between two Latin characters)


def _pieces(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) for words ('W'), Latin tokens ('L'), opening ('O') and closing ('C') punctuation."""
    out: list[tuple[str, int, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = char_class(text[i])
        if c == SPACE:
            i += 1
            continue
        j = i + 1
        if c == CJK_PUNCT:
            out.append(("O" if is_opening(text[i]) else "C", i, j))
            i = j
            continue
        while j < n and char_class(text[j]) == c:
            j += 1
        run = text[i:j]
        if c == WIDE:
            k = i
            for w in _cut(run):
                out.append(("W", k, k + len(w)))
                k += len(w)
        elif all(is_punct(ch) for ch in run):  # ASCII brackets or stops standing alone
            out.append(("O" if all(is_opening(ch) for ch in run) else "C", i, j))
        else:
            out.append(("L", i, j))
        i = j
    return out


def _glue(text: str, pieces: list[tuple[str, int, int]], inside_rank: int | None = None) -> list[Unit]:
    """Attach opening punctuation to what follows and closing punctuation to what precedes."""
    groups: list[list] = []  # [start, end, latin]
    pending: int | None = None  # start of opening punctuation waiting for its word
    for kind, a, b in pieces:
        if kind == "O":
            if pending is None:
                pending = a
        elif kind == "C":
            if pending is None and groups:
                groups[-1][1] = b
            elif pending is None:
                pending = a
        else:
            start = a if pending is None else pending
            groups.append([start, b, kind == "L"])
            pending = None
    if pending is not None:
        if groups:
            groups[-1][1] = len(text.rstrip())
        else:
            groups.append([pending, len(text.rstrip()), False])
    units: list[Unit] = []
    prev_end = None
    for start, end, latin in groups:
        body = "".join(text[start:end].split())
        space = (
            prev_end is not None
            and start > prev_end
            and text[prev_end:start].isspace()
            and char_class(text[prev_end - 1]) == LATIN
            and char_class(text[start]) == LATIN
        )
        units.append(Unit(body, start, end, len(body), rank_after(body), latin, space))
        prev_end = end
    if inside_rank is not None and units:
        units = [
            u if i == len(units) - 1 or u.rank > WORD else _replace_rank(u, inside_rank) for i, u in enumerate(units)
        ]
    return units


def _replace_rank(u: Unit, rank: int) -> Unit:
    return Unit(u.text, u.start, u.end, u.n, rank, u.latin, u.space_before)


@lru_cache(maxsize=8192)
def _units(text: str) -> tuple[Unit, ...]:
    return tuple(_glue(text, _pieces(text)))


def fit_units(text: str, max_chars: int, cjk_by_char: bool = False) -> list[Unit]:
    """Units no longer than a line: a CJK word that is too long is cut between its
    characters; a Latin token that is too long is an error (the narration must change)."""
    out: list[Unit] = []
    for u in _units(text):
        if u.n <= max_chars and not (cjk_by_char and not u.latin and u.n > 1):
            out.append(u)
            continue
        if u.latin:
            raise SubtitleTextError(
                f"subtitle token {u.text!r} has {u.n} characters, more than a line of {max_chars}; "
                "rewrite the narration so it can be broken"
            )
        sub = text[u.start : u.end]
        pieces = []
        for k, ch in enumerate(sub):
            c = char_class(ch)
            if c == SPACE:
                continue
            if c == CJK_PUNCT or (c == LATIN and is_punct(ch)):
                pieces.append(("O" if is_opening(ch) else "C", u.start + k, u.start + k + 1))
            else:
                pieces.append(("W", u.start + k, u.start + k + 1))
        parts = _glue(text[: u.end], pieces, inside_rank=INSIDE_WORD if u.n > max_chars else WORD)
        parts[-1] = _replace_rank(parts[-1], u.rank)
        head = parts[0]
        parts[0] = Unit(head.text, head.start, head.end, head.n, head.rank, False, u.space_before)
        for p in parts:
            if p.n > max_chars:
                raise SubtitleTextError(
                    f"subtitle text {p.text!r} has {p.n} characters that cannot be broken, "
                    f"more than a line of {max_chars}; rewrite the narration"
                )
        out.extend(parts)
    return bind_formulas(text, out, max_chars) if KEEP_FORMULAS_WHOLE else out


# --- formulas: runs of tokens no break may fall inside ------------------------


def _joined(text: str, a: Unit, b: Unit) -> bool:
    """Whether the adjacent units ``a`` and ``b`` are parts of one formula or 、-pair."""
    if not (a.latin and b.latin) or a.rank == SENTENCE or text[a.end : b.start].strip():
        return False  # a sentence end (``x? y``) is never inside a formula
    if b.space_before:  # only whitespace between two Latin characters
        return True
    return a.text.endswith("、") and any(c.isalpha() for c in a.text[:-1]) and any(c.isalpha() for c in b.text)


def bind_formulas(text: str, units: Sequence[Unit], max_chars: int) -> list[Unit]:
    """``units`` (cut from ``text``) with the breaks inside each formula ranked :data:`BOUND`.

    A formula longer than ``max_chars`` may break after its operators (at the rank of a break between
    words); the terms between them are kept whole in the same way, and a term longer than a line may
    break at its spaces too (at the rank of a break inside a word). A break after punctuation (``θ,`` in
    ``(cos θ, sin θ)``, ``q、``) keeps its own rank when it is allowed."""
    out = list(units)
    k = 0
    while k < len(out):
        end = k
        while end + 1 < len(out) and _joined(text, out[end], out[end + 1]):
            end += 1
        if end > k:
            _bind(out, k, end, max_chars, split_at_operators=True)
        k = end + 1
    return out


def _bind(out: list[Unit], first: int, last: int, max_chars: int, split_at_operators: bool) -> None:
    """Rank the breaks after ``out[first:last]`` (a formula or one of its terms ends at ``out[last]``)."""
    if sum(u.n for u in out[first : last + 1]) <= max_chars:
        for i in range(first, last):
            out[i] = _replace_rank(out[i], BOUND)
        return
    if not split_at_operators:
        for i in range(first, last):
            out[i] = _replace_rank(out[i], out[i].rank if out[i].rank > WORD else INSIDE_WORD)
        return
    start = first
    for i in range(first, last + 1):
        if i == last or out[i].text[-1] in OPERATORS:
            _bind(out, start, i, max_chars, split_at_operators=False)
            if i < last:
                out[i] = _replace_rank(out[i], max(out[i].rank, WORD))
            start = i + 1


def join_units(units: Sequence[Unit]) -> str:
    """The units' text: one space where the input had whitespace between two Latin characters."""
    return "".join((" " if k and u.space_before else "") + u.text for k, u in enumerate(units))


# --- lines --------------------------------------------------------------------


def min_lines(units: Sequence[Unit], max_chars: int) -> int:
    """Fewest lines the units fit in, greedily (optimal for items kept in order); a formula's units
    (:data:`BOUND` breaks) are placed as one block."""
    lines, width, block = 1, 0, 0
    for k, u in enumerate(units):
        block += u.n
        if u.rank == BOUND and k + 1 < len(units):
            continue
        if width and width + block > max_chars:
            lines += 1
            width = 0
        width += block
        block = 0
    return lines


def _best_lines(units: Sequence[Unit], max_chars: int, nlines: int) -> list[list[Unit]] | None:
    """Break into exactly ``nlines`` lines: good break points, balanced lengths."""
    n = len(units)
    if nlines == 1:
        return [list(units)] if sum(u.n for u in units) <= max_chars else None
    pre = [0]
    for u in units:
        pre.append(pre[-1] + u.n)
    target = pre[-1] / nlines
    inf = float("inf")
    # dp[l][j]: cost of units[:j] in l lines; back[l][j]: start of the last line
    dp = [[inf] * (n + 1) for _ in range(nlines + 1)]
    back = [[-1] * (n + 1) for _ in range(nlines + 1)]
    dp[0][0] = 0.0
    for line in range(1, nlines + 1):
        for j in range(line, n + 1):
            if j < n and units[j - 1].rank == BOUND:
                continue  # no line ends inside a formula
            best, arg = inf, -1
            for i in range(j - 1, line - 2, -1):
                width = pre[j] - pre[i]
                if width > max_chars:
                    break
                if dp[line - 1][i] == inf:
                    continue
                cost = dp[line - 1][i] + LINE_BALANCE * abs(width - target)
                if j < n:
                    cost += LINE_BREAK_COST[units[j - 1].rank]
                if cost < best:
                    best, arg = cost, i
            dp[line][j], back[line][j] = best, arg
    if dp[nlines][n] == inf:
        return None
    out, j = [], n
    for line in range(nlines, 0, -1):
        i = back[line][j]
        out.append(list(units[i:j]))
        j = i
    return out[::-1]


def _wrap_units(units: Sequence[Unit], max_chars: int, max_lines: int) -> list[list[Unit]] | None:
    if not units:
        return []
    need = min_lines(units, max_chars)
    if need > max_lines:
        return None
    return _best_lines(units, max_chars, need)


def wrap_lines(event_text: str, max_chars: int = 16, max_lines: int = 2) -> list[str]:
    """Break one event's text into at most ``max_lines`` lines of at most ``max_chars``.

    Lines break after punctuation by preference and are balanced; never inside a word
    or token, and punctuation never starts a line. Raises ValueError if the text cannot
    fit (it was not made by :func:`segment` with the same limits).
    """
    if not event_text.strip():
        return []
    if len(event_text) <= max_chars and not any(ch.isspace() for ch in event_text):
        return [event_text]  # one line as it stands (and no dictionary needed)
    lines = _wrap_units(fit_units(event_text, max_chars), max_chars, max_lines)
    if lines is None:
        # jieba can cut a piece of a sentence differently from the whole sentence;
        # cutting CJK words into characters is the finer fallback (Latin tokens stay whole)
        lines = _wrap_units(fit_units(event_text, max_chars, cjk_by_char=True), max_chars, max_lines)
    if lines is None:
        raise SubtitleTextError(
            f"subtitle text {event_text!r} ({count_chars(event_text)} characters) does not fit in "
            f"{max_lines} lines of {max_chars}"
        )
    return [join_units(line) for line in lines]
