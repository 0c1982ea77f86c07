"""Chinese subtitles: split a cue's written text into events, time them, write SRT and WebVTT.

Three layers, each usable on its own:

1. Text. :func:`segment` splits one cue's written text into event texts and
   :func:`wrap_lines` breaks one event into lines. Breaks fall after sentence
   punctuation first, then after clause punctuation, then between words. They never
   fall inside a Chinese word (jieba, dictionary only, so it is deterministic), nor
   inside a Latin word, number or formula token: a maximal run of characters that are
   not CJK, not whitespace and not CJK punctuation is one token (``R(θ)``,
   ``10000^(2i/d)``, ``(0,3)``, ``GPT-2``). Closing punctuation stays with the text
   before it and opening brackets or quotes with the text after it. Every character
   except whitespace counts as one towards the line length.

   Invariant: no character is lost or invented. With ``squeeze(s)`` = ``s`` with all
   whitespace removed, ``squeeze("".join(segment(t))) == squeeze(t)``. Inside an event
   the only whitespace left is a single space where the input had whitespace between
   two Latin-token characters (``"x, y"``); whitespace next to CJK text is dropped.

2. Time. :func:`time_cue` gives each event a start and an end in milliseconds from the
   speech times of its characters (``char_times[i] = (start_ms, end_ms)`` for character
   ``i`` of the written text; :func:`proportional_char_times` makes them from a cue's
   speech span when the voice gives no boundaries). :func:`cue_events` is the planner's
   entry point (a ``char_time(i)`` function in seconds, cue-relative results) and
   :func:`time_cues` times a scene's cues in order. :func:`violations` checks events
   against :class:`~coursekit.core.config.SubtitleConfig` and the sync tolerances below.
   Text that cannot fit (a token longer than a line) raises :class:`SubtitleTextError`,
   both a ``ValueError`` and a one-line :class:`~coursekit.core.errors.UserError`.

   When the limits cannot all be met the order of precedence is: never lose a
   character > lines (chars per line, lines per event) > gap between events > start
   within ``START_SYNC_MS`` of the speech > duration and reading speed. Short clauses
   are merged with a neighbour when the merged text still fits (the choice of events is
   one dynamic programme over the break points, with shortness as a cost), then
   extended into the following silence, at most ``LINGER_MS`` after their speech and
   never closer than ``min_gap_ms`` to the next event; only if that is not enough do
   they start up to ``START_SYNC_MS`` early.

3. Files. :func:`lesson_events` turns a lesson's plan (``coursekit.plan.model.LessonPlan``, read by its
   fields: the plan is the floor above this package, and times its cues with it) into
   lesson-absolute ``srt.Subtitle`` objects; :func:`write_srt` (``srt`` library) and
   :func:`write_vtt` (``webvtt-py``) write them atomically. WebVTT text is escaped
   (``&`` → ``&amp;``, ``<`` → ``&lt;``, ``>`` → ``&gt;``, so ``-->`` is written
   ``--&gt;``). SubRip has no escaping; ``srt`` reads a cue body verbatim up to the
   blank line that ends it, so ``<script>``, ``&`` and ``-->`` are written unchanged and
   parse back unchanged (tested); nothing is substituted. Players that read SubRip
   markup differ: ffmpeg's SubRip reader drops tags it does not know (``<script>``
   vanishes) but reads the WebVTT file literally, so mux or convert from the .vtt.
"""
from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Sequence

import srt
import webvtt

from coursekit.core.atomic import write_text
from coursekit.core.config import SubtitleConfig
from coursekit.core.errors import UserError
from coursekit.zh.chars import (CJK_PUNCT, CLAUSE_BREAKS, LATIN, SENTENCE_ENDS, SPACE, WIDE, char_class, is_opening,
                                is_punct)
from coursekit.zh.segmenter import tokenizer

__all__ = [
    "START_SYNC_MS",
    "LINGER_MS",
    "squeeze",
    "segment",
    "wrap_lines",
    "count_chars",
    "proportional_char_times",
    "time_cue",
    "time_cues",
    "cue_events",
    "SubEvent",
    "SubtitleTextError",
    "event_speech_spans",
    "violations",
    "lesson_events",
    "write_srt",
    "write_vtt",
    "escape_vtt",
]



@dataclass(frozen=True)
class SubtitleEvent:
    """One subtitle: shown from ``start_ms`` to ``end_ms`` (in the plan: from the scene's start)."""
    start_ms: int
    end_ms: int
    text: str


SubEvent = SubtitleEvent


class SubtitleTextError(UserError, ValueError):
    """Written text that cannot be shown within the line limits: the narration must change."""


START_SYNC_MS = 100   # an event appears within 100 ms of its speech (about 3 frames)
LINGER_MS = 500       # and may stay up to 500 ms after its speech ends (about 12 frames)


# ranks of a break point: higher is a better place to break
_INSIDE_WORD = -1   # between the characters of a word too long for a line
_WORD = 0           # between two words or tokens
_PUNCT = 1          # after other punctuation (a closing bracket or quote, a dash)
_CLAUSE = 2
_SENTENCE = 3

_EVENT_BREAK_COST = {_SENTENCE: 0.0, _CLAUSE: 1.0, _PUNCT: 2.0, _WORD: 6.0, _INSIDE_WORD: 14.0}
_LINE_BREAK_COST = {_SENTENCE: 0.0, _CLAUSE: 0.0, _PUNCT: 1.0, _WORD: 4.0, _INSIDE_WORD: 12.0}
_LINE_BALANCE = 0.25       # cost per character of difference from equal line lengths
_EVENT_BALANCE = 0.005     # cost per squared character of an event (prefers balanced events)
_MERGED_SENTENCE = 3.0     # cost of a sentence end inside a timed event
_SHORT = 20.0              # cost of an event that cannot reach its minimum duration / speed


# --- characters (their classes and the punctuation: coursekit.zh.chars) ------

def _spoken(ch: str) -> bool:
    return not ch.isspace() and not is_punct(ch)


def squeeze(text: str) -> str:
    """``text`` with all whitespace removed: what the no-loss invariant compares."""
    return "".join(text.split())


def count_chars(text: str) -> int:
    """Characters as subtitles count them: every character except whitespace is one."""
    return sum(1 for ch in text if not ch.isspace())


# --- jieba, once --------------------------------------------------------------

def _tokenizer():
    """The shared jieba tokenizer (coursekit.zh.segmenter)."""
    return tokenizer()


def _cut(run: str) -> list[str]:
    """Words of a run of wide characters: jieba with its dictionary only (no HMM guessing)."""
    if len(run) == 1:
        return [run]
    words = _tokenizer().lcut(run, HMM=False)
    if "".join(words) != run:     # never trust a tokenizer with the no-loss invariant
        return list(run)
    return words


# --- units: the pieces no break may fall inside -------------------------------

@dataclass(frozen=True)
class _Unit:
    text: str             # without whitespace
    start: int            # offsets into the text it was cut from, [start, end)
    end: int
    n: int                # characters that count (== len(text))
    rank: int             # rank of the break after this unit
    latin: bool           # a Latin word, number or formula token
    space_before: bool    # keep one space before it (whitespace between two Latin characters)


def _rank_after(text: str) -> int:
    tail = text.rstrip()
    ranks = [_WORD]
    i = len(tail) - 1
    while i >= 0 and is_punct(tail[i]):
        ch = tail[i]
        if ch in SENTENCE_ENDS:
            ranks.append(_SENTENCE)
        elif ch in CLAUSE_BREAKS:
            ranks.append(_CLAUSE)
        elif char_class(ch) == CJK_PUNCT:
            ranks.append(_PUNCT)
        i -= 1
    return max(ranks)


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
        elif all(is_punct(ch) for ch in run):    # ASCII brackets or stops standing alone
            out.append(("O" if all(is_opening(ch) for ch in run) else "C", i, j))
        else:
            out.append(("L", i, j))
        i = j
    return out


def _glue(text: str, pieces: list[tuple[str, int, int]], inside_rank: int | None = None) -> list[_Unit]:
    """Attach opening punctuation to what follows and closing punctuation to what precedes."""
    groups: list[list] = []        # [start, end, latin]
    pending: int | None = None     # start of opening punctuation waiting for its word
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
    units: list[_Unit] = []
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
        units.append(_Unit(body, start, end, len(body), _rank_after(body), latin, space))
        prev_end = end
    if inside_rank is not None and units:
        units = [u if i == len(units) - 1 or u.rank > _WORD else _replace_rank(u, inside_rank)
                 for i, u in enumerate(units)]
    return units


def _replace_rank(u: _Unit, rank: int) -> _Unit:
    return _Unit(u.text, u.start, u.end, u.n, rank, u.latin, u.space_before)


@lru_cache(maxsize=8192)
def _units(text: str) -> tuple[_Unit, ...]:
    return tuple(_glue(text, _pieces(text)))


def _fit_units(text: str, max_chars: int, cjk_by_char: bool = False) -> list[_Unit]:
    """Units no longer than a line: a CJK word that is too long is cut between its
    characters; a Latin token that is too long is an error (the narration must change)."""
    out: list[_Unit] = []
    for u in _units(text):
        if u.n <= max_chars and not (cjk_by_char and not u.latin and u.n > 1):
            out.append(u)
            continue
        if u.latin:
            raise SubtitleTextError(
                f"subtitle token {u.text!r} has {u.n} characters, more than a line of {max_chars}; "
                "rewrite the narration so it can be broken"
            )
        sub = text[u.start:u.end]
        pieces = []
        for k, ch in enumerate(sub):
            c = char_class(ch)
            if c == SPACE:
                continue
            if c == CJK_PUNCT or (c == LATIN and is_punct(ch)):
                pieces.append(("O" if is_opening(ch) else "C", u.start + k, u.start + k + 1))
            else:
                pieces.append(("W", u.start + k, u.start + k + 1))
        parts = _glue(text[: u.end], pieces, inside_rank=_INSIDE_WORD if u.n > max_chars else _WORD)
        parts[-1] = _replace_rank(parts[-1], u.rank)
        head = parts[0]
        parts[0] = _Unit(head.text, head.start, head.end, head.n, head.rank, False, u.space_before)
        for p in parts:
            if p.n > max_chars:
                raise SubtitleTextError(
                    f"subtitle text {p.text!r} has {p.n} characters that cannot be broken, "
                    f"more than a line of {max_chars}; rewrite the narration"
                )
        out.extend(parts)
    return out


def _join(units: Sequence[_Unit]) -> str:
    return "".join((" " if k and u.space_before else "") + u.text for k, u in enumerate(units))


# --- lines --------------------------------------------------------------------

def _min_lines(units: Sequence[_Unit], max_chars: int) -> int:
    """Fewest lines the units fit in, greedily (optimal for items kept in order)."""
    lines, width = 1, 0
    for u in units:
        if width and width + u.n > max_chars:
            lines += 1
            width = 0
        width += u.n
    return lines


def _best_lines(units: Sequence[_Unit], max_chars: int, nlines: int) -> list[list[_Unit]] | None:
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
            best, arg = inf, -1
            for i in range(j - 1, line - 2, -1):
                width = pre[j] - pre[i]
                if width > max_chars:
                    break
                if dp[line - 1][i] == inf:
                    continue
                cost = dp[line - 1][i] + _LINE_BALANCE * abs(width - target)
                if j < n:
                    cost += _LINE_BREAK_COST[units[j - 1].rank]
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


def _wrap_units(units: Sequence[_Unit], max_chars: int, max_lines: int) -> list[list[_Unit]] | None:
    if not units:
        return []
    need = _min_lines(units, max_chars)
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
        return [event_text]      # one line as it stands (and no dictionary needed)
    lines = _wrap_units(_fit_units(event_text, max_chars), max_chars, max_lines)
    if lines is None:
        # jieba can cut a piece of a sentence differently from the whole sentence;
        # cutting CJK words into characters is the finer fallback (Latin tokens stay whole)
        lines = _wrap_units(_fit_units(event_text, max_chars, cjk_by_char=True), max_chars, max_lines)
    if lines is None:
        raise SubtitleTextError(
            f"subtitle text {event_text!r} ({count_chars(event_text)} characters) does not fit in "
            f"{max_lines} lines of {max_chars}"
        )
    return [_join(line) for line in lines]


# --- events -------------------------------------------------------------------

@dataclass(frozen=True)
class _Timing:
    starts: list[float]        # speech start of each unit (its first spoken character)
    ends: list[float]          # speech end of each unit (its last spoken character)
    next_start: float          # where the next cue's speech starts (inf if nothing follows)
    limits: SubtitleConfig


def _plan(units: Sequence[_Unit], max_chars: int, max_lines: int, timing: _Timing | None) -> list[tuple[int, int]]:
    """Choose events as ranges of units by dynamic programming over the break points."""
    n = len(units)
    if n == 0:
        return []
    cap = max_chars * max_lines
    inf = float("inf")
    best = [inf] * (n + 1)
    back = [-1] * (n + 1)
    best[0] = 0.0
    for i in range(n):
        if best[i] == inf:
            continue
        chars = 0
        inner_sentences = 0
        for j in range(i + 1, n + 1):
            u = units[j - 1]
            chars += u.n
            if chars > cap:
                break
            if j - 1 > i and units[j - 2].rank == _SENTENCE:
                inner_sentences += 1
                if timing is None:
                    break       # text only: every sentence starts a new event
            if _min_lines(units[i:j], max_chars) > max_lines:
                break
            cost = best[i] + 1.0 + _EVENT_BALANCE * chars * chars
            cost += _MERGED_SENTENCE * inner_sentences
            if j < n:
                cost += _EVENT_BREAK_COST[u.rank]
            if timing is not None:
                lim = timing.limits
                s, e = timing.starts[i], timing.ends[j - 1]
                if e - s > lim.max_duration_ms and j - i > 1:
                    break
                nxt = timing.starts[j] if j < n else timing.next_start
                reach = min(e + LINGER_MS, nxt - lim.min_gap_ms, s + lim.max_duration_ms)
                need = max(lim.min_duration_ms, 1000.0 * chars / lim.max_chars_per_second)
                if reach - s < need:
                    cost += _SHORT + (need - (reach - s)) / 100.0
            if cost < best[j]:
                best[j], back[j] = cost, i
    out, j = [], n
    while j > 0:
        i = back[j]
        out.append((i, j))
        j = i
    return out[::-1]


def segment(text: str, max_chars: int = 16, max_lines: int = 2) -> list[str]:
    """Split one cue's written text into event texts that fit ``max_lines`` × ``max_chars``.

    Splits at every sentence end (``SENTENCE_ENDS``: 。！？!?), then where needed at clause
    punctuation (``CLAUSE_BREAKS``: ，、；：,;:), then between words. Raises ValueError naming a
    token longer than a line.
    """
    units = _fit_units(text, max_chars)
    return [_join(units[i:j]) for i, j in _plan(units, max_chars, max_lines, None)]


def proportional_char_times(text: str, start_ms: float, end_ms: float,
                            sentence_pause: float = 1.5, clause_pause: float = 0.7) -> list[tuple[float, float]]:
    """Speech times for each character of ``text`` spread over [start_ms, end_ms].

    Spoken characters weigh 1; sentence and clause punctuation weigh a pause; other
    punctuation and whitespace take no time. For voices without word boundaries.
    """
    weights = []
    for ch in text:
        if _spoken(ch):
            weights.append(1.0)
        elif ch in SENTENCE_ENDS:
            weights.append(sentence_pause)
        elif ch in CLAUSE_BREAKS:
            weights.append(clause_pause)
        else:
            weights.append(0.0)
    # a pause after the last spoken character is not part of the speech span
    last = max((k for k, ch in enumerate(text) if _spoken(ch)), default=len(text) - 1)
    total = sum(weights[: last + 1]) or 1.0
    scale = (end_ms - start_ms) / total
    out, t = [], float(start_ms)
    for w in weights:
        out.append((t, t + w * scale))
        t += w * scale
    return out


def _span_of(text: str, lo: int, hi: int, char_times: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Speech span of text[lo:hi]: first to last spoken character (any character if none is spoken)."""
    idx = [k for k in range(lo, hi) if _spoken(text[k])] or [k for k in range(lo, hi) if not text[k].isspace()]
    return char_times[idx[0]][0], char_times[idx[-1]][1]


def time_cue(text: str, char_times: Sequence[tuple[float, float]], *,
             prev_end_ms: float | None = None, next_start_ms: float | None = None,
             limits: SubtitleConfig | None = None) -> list[SubtitleEvent]:
    """Split one cue into timed events.

    ``char_times[i]`` is ``(start_ms, end_ms)`` of the speech of ``text[i]``, in the same
    clock as the result (scene-relative in the plan). ``prev_end_ms`` is where the
    previous subtitle ends, ``next_start_ms`` the earliest the next may start (the next
    cue's speech start, or the scene's end); events keep ``min_gap_ms`` from both.
    """
    lim = limits or SubtitleConfig()
    if len(char_times) != len(text):
        raise ValueError(f"char_times has {len(char_times)} entries for {len(text)} characters")
    units = _fit_units(text, lim.max_chars_per_line)
    if not units:
        return []
    spans = [_span_of(text, u.start, u.end, char_times) for u in units]
    timing = _Timing(
        starts=[s for s, _ in spans],
        ends=[e for _, e in spans],
        next_start=float("inf") if next_start_ms is None else float(next_start_ms),
        limits=lim,
    )
    groups = _plan(units, lim.max_chars_per_line, lim.max_lines, timing)
    texts = [_join(units[i:j]) for i, j in groups]
    speech = [(timing.starts[i], timing.ends[j - 1]) for i, j in groups]
    return _place(texts, speech, prev_end_ms, next_start_ms, lim)


def _place(texts: list[str], speech: list[tuple[float, float]], prev_end_ms: float | None,
           next_start_ms: float | None, lim: SubtitleConfig) -> list[SubtitleEvent]:
    """Whole-millisecond times; every bound is rounded towards meeting it."""
    gap = lim.min_gap_ms
    floor = None if prev_end_ms is None else math.ceil(prev_end_ms) + gap
    ceiling = None if next_start_ms is None else math.floor(next_start_ms)
    starts = [round(s) for s, _ in speech]
    events: list[SubtitleEvent] = []
    for k, (txt, (s, e)) in enumerate(zip(texts, speech)):
        need = max(lim.min_duration_ms, math.ceil(1000 * count_chars(txt) / lim.max_chars_per_second))
        start = starts[k] if floor is None else max(starts[k], floor)     # the gap outranks start sync
        nxt = starts[k + 1] if k + 1 < len(speech) else ceiling
        limit_end = start + lim.max_duration_ms
        if nxt is not None:
            limit_end = min(limit_end, nxt - gap)
        end = min(max(math.ceil(e), start + need), math.floor(e + LINGER_MS), limit_end)
        if end - start < need:                # still short: appear up to START_SYNC_MS early
            earliest = max(math.ceil(s - START_SYNC_MS), 0 if floor is None else floor, 0)
            start = max(min(start, end - need), earliest)
        end = max(end, start + 1)
        events.append(SubtitleEvent(start, end, txt))
        floor = end + gap
    return events


def time_cues(cues: Sequence[tuple[str, Sequence[tuple[float, float]]]], *,
              end_ms: float | None = None, limits: SubtitleConfig | None = None) -> list[list[SubtitleEvent]]:
    """Time the cues of one scene in order: each cue's events keep the gap to the next cue's
    speech and to the previous cue's events; ``end_ms`` is where the scene ends."""
    out: list[list[SubtitleEvent]] = []
    prev_end = None
    for k, (text, times) in enumerate(cues):
        nxt = end_ms
        for later_text, later_times in cues[k + 1:]:
            spoken = [t for ch, t in zip(later_text, later_times) if _spoken(ch)]
            if spoken:
                nxt = spoken[0][0]
                break
        events = time_cue(text, times, prev_end_ms=prev_end, next_start_ms=nxt, limits=limits)
        out.append(events)
        if events:
            prev_end = events[-1].end_ms
    return out


def cue_events(written: str, char_time: Callable[[int], float], speech_duration_s: float,
               silence_after_s: float, limits: SubtitleConfig | None = None) -> list[SubtitleEvent]:
    """Timed events of one cue, in milliseconds from the cue's start (the planner's entry point).

    ``char_time(i)`` is the second, from the cue's start, at which written character ``i``
    starts to be spoken, for ``0 <= i <= len(written)`` (so character ``i`` ends at
    ``char_time(i + 1)``). The next subtitle (the next cue's) can start no earlier than
    ``speech_duration_s + silence_after_s``; nothing before the cue's start is touched.
    """
    ts = [1000.0 * char_time(i) for i in range(len(written) + 1)]
    char_times = [(ts[i], max(ts[i], ts[i + 1])) for i in range(len(written))]
    return time_cue(written, char_times, prev_end_ms=None,
                    next_start_ms=1000.0 * (speech_duration_s + silence_after_s), limits=limits)


def event_speech_spans(text: str, events: Sequence[SubtitleEvent],
                       char_times: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The speech span of each event, found by aligning the events' characters with ``text``.

    Raises ValueError if the events do not hold exactly the characters of ``text``
    (whitespace aside)."""
    positions = [k for k, ch in enumerate(text) if not ch.isspace()]
    out, p = [], 0
    for ev in events:
        chars = squeeze(ev.text)
        if not chars or p + len(chars) > len(positions) or \
                squeeze(text[positions[p]:positions[p + len(chars) - 1] + 1]) != chars:
            raise ValueError(f"event text {ev.text!r} does not follow the cue text at character {p}")
        out.append(_span_of(text, positions[p], positions[p + len(chars) - 1] + 1, char_times))
        p += len(chars)
    if p != len(positions):
        raise ValueError(f"events hold {p} of the cue's {len(positions)} characters")
    return out


def violations(events: Sequence[SubtitleEvent], speech_spans: Sequence[tuple[float, float]],
               limits: SubtitleConfig | None = None) -> list[str]:
    """Every way ``events`` break the limits, one line each (empty when all are met)."""
    lim = limits or SubtitleConfig()
    out: list[str] = []
    for k, (ev, (s, e)) in enumerate(zip(events, speech_spans)):
        name = f"event {k} {ev.text!r}"
        try:
            lines = wrap_lines(ev.text, lim.max_chars_per_line, lim.max_lines)
        except ValueError:
            out.append(f"{name}: does not fit {lim.max_lines} lines of {lim.max_chars_per_line} characters")
        else:
            for line in lines:
                if count_chars(line) > lim.max_chars_per_line:
                    out.append(f"{name}: line {line!r} is longer than {lim.max_chars_per_line}")
        dur = ev.end_ms - ev.start_ms
        if dur < lim.min_duration_ms:
            out.append(f"{name}: lasts {dur} ms, less than {lim.min_duration_ms} ms")
        if dur > lim.max_duration_ms:
            out.append(f"{name}: lasts {dur} ms, more than {lim.max_duration_ms} ms")
        if dur > 0 and count_chars(ev.text) * 1000 / dur > lim.max_chars_per_second + 1e-9:
            out.append(f"{name}: {count_chars(ev.text) * 1000 / dur:.2f} characters a second, "
                       f"more than {lim.max_chars_per_second}")
        if abs(ev.start_ms - s) > START_SYNC_MS:
            out.append(f"{name}: starts at {ev.start_ms} ms, speech at {s:.0f} ms")
        if ev.end_ms > e + LINGER_MS:
            out.append(f"{name}: ends at {ev.end_ms} ms, more than {LINGER_MS} ms after its speech ({e:.0f} ms)")
        if ev.end_ms < e - START_SYNC_MS:
            out.append(f"{name}: ends at {ev.end_ms} ms, before its speech ends ({e:.0f} ms)")
        if k + 1 < len(events) and events[k + 1].start_ms - ev.end_ms < lim.min_gap_ms:
            out.append(f"{name}: {events[k + 1].start_ms - ev.end_ms} ms before the next event, "
                       f"less than {lim.min_gap_ms} ms")
    if len(events) != len(speech_spans):
        out.append(f"{len(events)} events but {len(speech_spans)} speech spans")
    return out


# --- files --------------------------------------------------------------------

def _lines_of(text: str, lim: SubtitleConfig) -> str:
    """Event text with its line breaks: kept as the plan wrapped them, else wrapped now."""
    if "\n" in text:
        return text
    return "\n".join(wrap_lines(text, lim.max_chars_per_line, lim.max_lines))


def lesson_events(plan, limits: SubtitleConfig | None = None) -> list[srt.Subtitle]:
    """Every subtitle of a lesson in lesson time, numbered from 1.

    Line breaks are the ones chosen when the plan was made (with the config's limits then),
    so writing subtitles needs no segmenter; ``limits`` is accepted for symmetry with the writers.
    """
    subs: list[tuple[int, int, str]] = []
    for scene in plan.scenes:
        offset = round(scene.start_frame * 1000 / scene.fps)
        for cue in scene.cues:
            for ev in cue.subtitles:
                subs.append((offset + ev.start_ms, offset + ev.end_ms, ev.text))   # wrapped when planned
    subs.sort(key=lambda t: (t[0], t[1]))
    ms = _dt.timedelta(milliseconds=1)
    return [srt.Subtitle(index=k, start=a * ms, end=b * ms, content=c) for k, (a, b, c) in enumerate(subs, 1)]


def _atomic_write(path: Path, data: str) -> None:
    write_text(Path(path), data)


def _as_subtitles(events: Iterable, limits: SubtitleConfig | None) -> list[srt.Subtitle]:
    """``srt.Subtitle`` objects as they are; events with ``start_ms``/``end_ms``/``text``
    (:class:`SubtitleEvent`) get their lines broken with :func:`wrap_lines`."""
    lim = limits or SubtitleConfig()
    ms = _dt.timedelta(milliseconds=1)
    out = []
    for k, ev in enumerate(events, 1):
        if isinstance(ev, srt.Subtitle):
            out.append(ev)
        else:
            text = _lines_of(ev.text, lim)
            out.append(srt.Subtitle(index=k, start=ev.start_ms * ms, end=ev.end_ms * ms, content=text))
    return out


def write_srt(events: Iterable, path: Path, limits: SubtitleConfig | None = None) -> Path:
    """Write SubRip with the ``srt`` library, atomically. Text is written as is (see module doc).

    ``events`` are ``srt.Subtitle`` objects (from :func:`lesson_events`) or
    :class:`SubtitleEvent`-like objects in milliseconds."""
    _atomic_write(Path(path), srt.compose(_as_subtitles(events, limits), reindex=True, start_index=1))
    return Path(path)


def escape_vtt(text: str) -> str:
    """WebVTT cue text for literal ``text``: ``&``, ``<`` and ``>`` become character references."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _vtt_time(td: _dt.timedelta) -> str:
    total = td // _dt.timedelta(milliseconds=1)
    h, rem = divmod(total, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def write_vtt(events: Iterable, path: Path, limits: SubtitleConfig | None = None) -> Path:
    """Write WebVTT with ``webvtt-py``, atomically, with the text escaped (events as for :func:`write_srt`)."""
    vtt = webvtt.WebVTT(captions=[
        webvtt.Caption(_vtt_time(ev.start), _vtt_time(ev.end), escape_vtt(ev.content).split("\n"))
        for ev in _as_subtitles(events, limits)
    ])
    _atomic_write(Path(path), vtt.content)
    return Path(path)
