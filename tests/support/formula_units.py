"""The subtitle rule "no break inside a formula or a 、-pair", restated for the tests without the breaker's code.

A *formula* is a run of Latin tokens (letters, Greek letters, digits, operators: any character that is not
whitespace, not set full-width and not CJK punctuation) joined only by whitespace, as ``cos α cos β − sin α
sin β`` or ``2π ≈ 6.28``; symbols joined by 、 (``q、k``, ``q、k、v``: each side holds a letter) belong to one
formula too. A token ending a sentence (``x?``) ends its formula. Its *length* counts its characters but
whitespace, and the punctuation glued to it (opening marks before it, closing marks after it), which must
stay on its line. A formula no longer than a line has no line or event break inside it; a longer one may
break only after an operator (``OPERATORS``) between its tokens; the terms between its operators are kept
whole in the same way (a term longer than a line may break between its tokens).

:func:`breaks_inside` checks a cue's text against its pieces (events' lines, in order) and returns one line
per break that falls inside a formula.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

#: binary operators and relations, after which a formula longer than a line may break
OPERATORS = frozenset("+−-±=≈≠<>≤≥×·÷/→←↔∝")


def _cjk_punct(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P") and ord(ch) >= 0x2000


def _token_char(ch: str) -> bool:
    return not ch.isspace() and not _cjk_punct(ch) and unicodedata.east_asian_width(ch) not in ("W", "F")


@dataclass(frozen=True)
class Formula:
    start: int  #: offsets into the text, [start, end)
    end: int
    gaps: tuple[int, ...]  #: offset where each gap between its tokens (whitespace or 、) starts
    opening: int  #: CJK opening marks glued before it
    closing: int  #: CJK closing marks glued after it

    def text(self, of: str) -> str:
        return of[self.start : self.end]

    def length(self, of: str, lo: int | None = None, hi: int | None = None) -> int:
        """Characters but whitespace of the formula, or of its part [lo, hi), with the marks glued to it."""
        lo = self.start if lo is None else lo
        hi = self.end if hi is None else hi
        glued = (self.opening if lo == self.start else 0) + (self.closing if hi == self.end else 0)
        return sum(1 for ch in of[lo:hi] if not ch.isspace()) + glued


def _tokens(text: str) -> list[tuple[int, int]]:
    """Runs of token characters; a run of punctuation alone (an ASCII comma after Chinese) is no token."""
    out, start = [], None
    for k, ch in enumerate(text + " "):
        if _token_char(ch) and start is None:
            start = k
        elif not _token_char(ch) and start is not None:
            if not all(unicodedata.category(c).startswith("P") for c in text[start:k]):
                out.append((start, k))
            start = None
    return out


def _mark_or_space(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch).startswith("P")


def _letter(s: str) -> bool:
    return any(ch.isalpha() for ch in s)


def _glued(text: str, k: int, step: int, opening: bool) -> int:
    """Punctuation marks glued to the formula from offset ``k`` on, walking by ``step`` over whitespace:
    opening marks before it, closing marks after it (CJK marks, or ASCII marks standing apart)."""
    n = 0
    while 0 <= k < len(text) and (text[k].isspace() or unicodedata.category(text[k]).startswith("P")):
        if not text[k].isspace():
            if (unicodedata.category(text[k]) in ("Ps", "Pi")) != opening:
                break
            n += 1
        k += step
    return n


def formulas(text: str) -> list[Formula]:
    """Every formula of ``text`` of two tokens or more."""
    tokens = _tokens(text)
    out: list[Formula] = []
    k = 0
    while k < len(tokens):
        end = k
        while end + 1 < len(tokens):
            (a0, a1), (b0, b1) = tokens[end], tokens[end + 1]
            between = text[a1:b0]
            if text[a1 - 1] in "!?" or "!" in between or "?" in between:
                break  # a sentence ends here
            # whitespace, and maybe ASCII marks standing apart (``R(θ) , x``: glued to the tokens)
            spaces = any(c.isspace() for c in between) and all(
                c.isspace() or (unicodedata.category(c).startswith("P") and not _cjk_punct(c)) for c in between
            )
            pair = between.strip() == "、" and _letter(text[a0:a1]) and _letter(text[b0:b1])
            if not (spaces or pair):
                break
            end += 1
        if end > k:
            start, stop = tokens[k][0], tokens[end][1]
            gaps = tuple(tokens[g][1] for g in range(k, end))
            out.append(Formula(start, stop, gaps, _glued(text, start - 1, -1, True), _glued(text, stop, 1, False)))
        k = end + 1
    return out


def _may_break_at(text: str, f: Formula, gap: int, max_chars: int) -> bool:
    """Whether a formula longer than a line may break at ``gap``: after an operator, or inside a term
    (its tokens between two operators) longer than a line."""
    if text[gap - 1] in OPERATORS:
        return True
    ends = [g for g in f.gaps if text[g - 1] in OPERATORS]
    lo = max((g for g in ends if g < gap), default=f.start)
    hi = min((g for g in ends if g > gap), default=f.end)
    return f.length(text, lo, hi) > max_chars


def breaks_inside(text: str, pieces: list[str], max_chars: int = 16) -> list[str]:
    """Each break between ``pieces`` (in order; together they hold ``text``'s characters but whitespace)
    that falls inside a formula where the rule allows none."""
    squeezed = [k for k, ch in enumerate(text) if not ch.isspace()]  # text offset of each kept character
    if "".join("".join(p.split()) for p in pieces) != "".join(text.split()):
        return [f"the pieces do not hold the text: {pieces!r}"]
    cuts, p = [], 0
    for piece in pieces[:-1]:
        p += len("".join(piece.split()))
        cuts.append(squeezed[p])  # text offset of the first character after the break
    out = []
    for f in formulas(text):
        for cut in cuts:
            if not f.start < cut < f.end:
                continue
            gap = next((g for g in f.gaps if g <= cut and all(_mark_or_space(c) for c in text[g:cut])), None)
            if f.length(text) <= max_chars or gap is None or not _may_break_at(text, f, gap, max_chars):
                before = text[f.start : cut].rstrip()
                out.append(f"break inside {f.text(text)!r} ({f.length(text)} characters) after {before!r}")
    return out
