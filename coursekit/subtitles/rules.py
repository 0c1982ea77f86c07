"""The zh-Hans subtitle rules the other modules apply: what a character is worth, where a break may fall.

The limits a course sets (characters per line, lines per event, durations, reading speed, the gap
between events) are :class:`~coursekit.core.config.SubtitleConfig`. Here are the rest:

- Sync: an event starts within :data:`START_SYNC_MS` of its speech and stays at most :data:`LINGER_MS`
  after it.
- Counting: every character except whitespace counts as one towards a line's length
  (:func:`count_chars`); :func:`squeeze` is what the no-loss invariant compares; punctuation and
  whitespace are not spoken (:func:`is_spoken`).
- Breaks: a break point's rank follows the punctuation before it (:func:`rank_after`): a sentence
  end (``SENTENCE_ENDS``) over clause punctuation (``CLAUSE_BREAKS``) over other CJK punctuation over a
  break between words, and, last, inside a word too long for a line. The costs below weigh those ranks
  and the balance of lengths when lines (:mod:`coursekit.subtitles.lines`) and events
  (:mod:`coursekit.subtitles.events`) are chosen.
- Formulas: no break falls inside a formula (Latin tokens joined by spaces: ``cos α cos β − sin α sin β``,
  ``2π ≈ 6.28``) or inside a pair of symbols joined by 、 (``q、k``): the break after each of its tokens but
  the last is :data:`BOUND`. A formula longer than a line may break at its spaces: after an operator
  (``OPERATORS``) at the rank of a break between words, elsewhere at the rank of a break inside a word.
- Text that cannot fit raises :class:`SubtitleTextError`, both a ``ValueError`` and a one-line
  :class:`~coursekit.core.errors.UserError`.

The character classes and the punctuation sets themselves are :mod:`coursekit.zh.chars`.
"""

from __future__ import annotations

from coursekit.core.errors import UserError
from coursekit.zh.chars import CJK_PUNCT, CLAUSE_BREAKS, SENTENCE_ENDS, char_class, is_punct

__all__ = [
    "SubtitleTextError",
    "START_SYNC_MS",
    "LINGER_MS",
    "OPERATORS",
    "is_spoken",
    "squeeze",
    "count_chars",
    "rank_after",
]


class SubtitleTextError(UserError, ValueError):
    """Written text that cannot be shown within the line limits: the narration must change."""


START_SYNC_MS = 100  # an event appears within 100 ms of its speech (about 3 frames)
LINGER_MS = 500  # and may stay up to 500 ms after its speech ends (about 12 frames)


# ranks of a break point: higher is a better place to break
BOUND = -2  # inside a formula or a 、-pair that fits a line: no break falls here (no cost: never chosen)
INSIDE_WORD = -1  # between the characters of a word too long for a line
WORD = 0  # between two words or tokens
PUNCT = 1  # after other punctuation (a closing bracket or quote, a dash)
CLAUSE = 2
SENTENCE = 3

EVENT_BREAK_COST = {SENTENCE: 0.0, CLAUSE: 1.0, PUNCT: 2.0, WORD: 6.0, INSIDE_WORD: 14.0}
LINE_BREAK_COST = {SENTENCE: 0.0, CLAUSE: 0.0, PUNCT: 1.0, WORD: 4.0, INSIDE_WORD: 12.0}
LINE_BALANCE = 0.25  # cost per character of difference from equal line lengths
EVENT_BALANCE = 0.005  # cost per squared character of an event (prefers balanced events)
MERGED_SENTENCE = 3.0  # cost of a sentence end inside a timed event
SHORT = 20.0  # cost of an event that cannot reach its minimum duration / speed

#: binary operators and relations: a formula too long for a line breaks after one of them by preference
OPERATORS = frozenset("+−-±=≈≠<>≤≥×·÷/→←↔∝")


def is_spoken(ch: str) -> bool:
    """Whether ``ch`` is spoken: neither whitespace nor punctuation."""
    return not ch.isspace() and not is_punct(ch)


def squeeze(text: str) -> str:
    """``text`` with all whitespace removed: what the no-loss invariant compares."""
    return "".join(text.split())


def count_chars(text: str) -> int:
    """Characters as subtitles count them: every character except whitespace is one."""
    return sum(1 for ch in text if not ch.isspace())


def rank_after(text: str) -> int:
    """Rank of a break after ``text``: the best of the punctuation it ends with (:data:`WORD` if none)."""
    tail = text.rstrip()
    ranks = [WORD]
    i = len(tail) - 1
    while i >= 0 and is_punct(tail[i]):
        ch = tail[i]
        if ch in SENTENCE_ENDS:
            ranks.append(SENTENCE)
        elif ch in CLAUSE_BREAKS:
            ranks.append(CLAUSE)
        elif char_class(ch) == CJK_PUNCT:
            ranks.append(PUNCT)
        i -= 1
    return max(ranks)
