"""Subtitle events: one cue's written text cut into events, and each event timed from its speech.

:func:`segment` splits one cue's written text into event texts (the lines inside an event:
:mod:`coursekit.subtitles.lines`).

Invariant: no character is lost or invented. With ``squeeze(s)`` = ``s`` with all whitespace removed,
``squeeze("".join(segment(t))) == squeeze(t)``.

:func:`time_cue` gives each event a start and an end in milliseconds from the speech times of its
characters (``char_times[i] = (start_ms, end_ms)`` for character ``i`` of the written text;
:func:`proportional_char_times` makes them from a cue's speech span when the voice gives no
boundaries). :func:`cue_events` is the planner's entry point (a ``char_time(i)`` function in seconds,
cue-relative results) and :func:`time_cues` times a scene's cues in order. :func:`violations` checks
events against :class:`~coursekit.core.config.SubtitleConfig` and the sync tolerances of
:mod:`coursekit.subtitles.rules`. Text that cannot fit (a token longer than a line) raises
:class:`~coursekit.subtitles.rules.SubtitleTextError`.

When the limits cannot all be met the order of precedence is: never lose a character > lines (chars
per line, lines per event) > gap between events > start within ``START_SYNC_MS`` of the speech >
duration and reading speed. Short clauses are merged with a neighbour when the merged text still fits
(the choice of events is one dynamic programme over the break points, with shortness as a cost), then
extended into the following silence, at most ``LINGER_MS`` after their speech and never closer than
``min_gap_ms`` to the next event; only if that is not enough do they start up to ``START_SYNC_MS``
early.

:class:`SubtitleEvent` is what the plan keeps per cue (``CuePlan.subtitles``); the plan's types import
it from here, as planning (``coursekit.plan.build``) times its cues with this module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from coursekit.core.config import SubtitleConfig
from coursekit.subtitles.lines import Unit, fit_units, join_units, min_lines, wrap_lines
from coursekit.subtitles.rules import (
    BOUND,
    EVENT_BALANCE,
    EVENT_BREAK_COST,
    LINGER_MS,
    MERGED_SENTENCE,
    SENTENCE,
    SHORT,
    START_SYNC_MS,
    count_chars,
    is_spoken,
    squeeze,
)
from coursekit.zh.chars import CLAUSE_BREAKS, SENTENCE_ENDS

__all__ = [
    "SubtitleEvent",
    "SubEvent",
    "segment",
    "proportional_char_times",
    "time_cue",
    "time_cues",
    "cue_events",
    "event_speech_spans",
    "violations",
]


@dataclass(frozen=True)
class SubtitleEvent:
    """One subtitle: shown from ``start_ms`` to ``end_ms`` (in the plan: from the scene's start)."""

    start_ms: int
    end_ms: int
    text: str


SubEvent = SubtitleEvent


# --- events: which units go together ------------------------------------------


@dataclass(frozen=True)
class _Timing:
    starts: list[float]  # speech start of each unit (its first spoken character)
    ends: list[float]  # speech end of each unit (its last spoken character)
    next_start: float  # where the next cue's speech starts (inf if nothing follows)
    limits: SubtitleConfig


def _plan(units: Sequence[Unit], max_chars: int, max_lines: int, timing: _Timing | None) -> list[tuple[int, int]]:
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
            if j - 1 > i and units[j - 2].rank == SENTENCE:
                inner_sentences += 1
                if timing is None:
                    break  # text only: every sentence starts a new event
            if j < n and u.rank == BOUND:
                continue  # no event ends inside a formula
            if min_lines(units[i:j], max_chars) > max_lines:
                break
            cost = best[i] + 1.0 + EVENT_BALANCE * chars * chars
            cost += MERGED_SENTENCE * inner_sentences
            if j < n:
                cost += EVENT_BREAK_COST[u.rank]
            if timing is not None:
                lim = timing.limits
                s, e = timing.starts[i], timing.ends[j - 1]
                if e - s > lim.max_duration_ms and j - i > 1:
                    break
                nxt = timing.starts[j] if j < n else timing.next_start
                reach = min(e + LINGER_MS, nxt - lim.min_gap_ms, s + lim.max_duration_ms)
                need = max(lim.min_duration_ms, 1000.0 * chars / lim.max_chars_per_second)
                if reach - s < need:
                    cost += SHORT + (need - (reach - s)) / 100.0
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
    units = fit_units(text, max_chars)
    return [join_units(units[i:j]) for i, j in _plan(units, max_chars, max_lines, None)]


# --- time ---------------------------------------------------------------------


def proportional_char_times(
    text: str, start_ms: float, end_ms: float, sentence_pause: float = 1.5, clause_pause: float = 0.7
) -> list[tuple[float, float]]:
    """Speech times for each character of ``text`` spread over [start_ms, end_ms].

    Spoken characters weigh 1; sentence and clause punctuation weigh a pause; other
    punctuation and whitespace take no time. For voices without word boundaries.
    """
    weights = []
    for ch in text:
        if is_spoken(ch):
            weights.append(1.0)
        elif ch in SENTENCE_ENDS:
            weights.append(sentence_pause)
        elif ch in CLAUSE_BREAKS:
            weights.append(clause_pause)
        else:
            weights.append(0.0)
    # a pause after the last spoken character is not part of the speech span
    last = max((k for k, ch in enumerate(text) if is_spoken(ch)), default=len(text) - 1)
    total = sum(weights[: last + 1]) or 1.0
    scale = (end_ms - start_ms) / total
    out, t = [], float(start_ms)
    for w in weights:
        out.append((t, t + w * scale))
        t += w * scale
    return out


def _span_of(text: str, lo: int, hi: int, char_times: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Speech span of text[lo:hi]: first to last spoken character (any character if none is spoken)."""
    idx = [k for k in range(lo, hi) if is_spoken(text[k])] or [k for k in range(lo, hi) if not text[k].isspace()]
    return char_times[idx[0]][0], char_times[idx[-1]][1]


def time_cue(
    text: str,
    char_times: Sequence[tuple[float, float]],
    *,
    prev_end_ms: float | None = None,
    next_start_ms: float | None = None,
    limits: SubtitleConfig | None = None,
) -> list[SubtitleEvent]:
    """Split one cue into timed events.

    ``char_times[i]`` is ``(start_ms, end_ms)`` of the speech of ``text[i]``, in the same
    clock as the result (scene-relative in the plan). ``prev_end_ms`` is where the
    previous subtitle ends, ``next_start_ms`` the earliest the next may start (the next
    cue's speech start, or the scene's end); events keep ``min_gap_ms`` from both.
    """
    lim = limits or SubtitleConfig()
    if len(char_times) != len(text):
        raise ValueError(f"char_times has {len(char_times)} entries for {len(text)} characters")
    units = fit_units(text, lim.max_chars_per_line)
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
    texts = [join_units(units[i:j]) for i, j in groups]
    speech = [(timing.starts[i], timing.ends[j - 1]) for i, j in groups]
    return _place(texts, speech, prev_end_ms, next_start_ms, lim)


def _place(
    texts: list[str],
    speech: list[tuple[float, float]],
    prev_end_ms: float | None,
    next_start_ms: float | None,
    lim: SubtitleConfig,
) -> list[SubtitleEvent]:
    """Whole-millisecond times; every bound is rounded towards meeting it."""
    gap = lim.min_gap_ms
    floor = None if prev_end_ms is None else math.ceil(prev_end_ms) + gap
    ceiling = None if next_start_ms is None else math.floor(next_start_ms)
    starts = [round(s) for s, _ in speech]
    events: list[SubtitleEvent] = []
    for k, (txt, (s, e)) in enumerate(zip(texts, speech)):
        need = max(lim.min_duration_ms, math.ceil(1000 * count_chars(txt) / lim.max_chars_per_second))
        start = starts[k] if floor is None else max(starts[k], floor)  # the gap outranks start sync
        nxt = starts[k + 1] if k + 1 < len(speech) else ceiling
        limit_end = start + lim.max_duration_ms
        if nxt is not None:
            limit_end = min(limit_end, nxt - gap)
        end = min(max(math.ceil(e), start + need), math.floor(e + LINGER_MS), limit_end)
        if end - start < need:  # still short: appear up to START_SYNC_MS early
            earliest = max(math.ceil(s - START_SYNC_MS), 0 if floor is None else floor, 0)
            start = max(min(start, end - need), earliest)
        end = max(end, start + 1)
        events.append(SubtitleEvent(start, end, txt))
        floor = end + gap
    return events


def time_cues(
    cues: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    *,
    end_ms: float | None = None,
    limits: SubtitleConfig | None = None,
) -> list[list[SubtitleEvent]]:
    """Time the cues of one scene in order: each cue's events keep the gap to the next cue's
    speech and to the previous cue's events; ``end_ms`` is where the scene ends."""
    out: list[list[SubtitleEvent]] = []
    prev_end = None
    for k, (text, times) in enumerate(cues):
        nxt = end_ms
        for later_text, later_times in cues[k + 1 :]:
            spoken = [t for ch, t in zip(later_text, later_times) if is_spoken(ch)]
            if spoken:
                nxt = spoken[0][0]
                break
        events = time_cue(text, times, prev_end_ms=prev_end, next_start_ms=nxt, limits=limits)
        out.append(events)
        if events:
            prev_end = events[-1].end_ms
    return out


def cue_events(
    written: str,
    char_time: Callable[[int], float],
    speech_duration_s: float,
    silence_after_s: float,
    limits: SubtitleConfig | None = None,
) -> list[SubtitleEvent]:
    """Timed events of one cue, in milliseconds from the cue's start (the planner's entry point).

    ``char_time(i)`` is the second, from the cue's start, at which written character ``i``
    starts to be spoken, for ``0 <= i <= len(written)`` (so character ``i`` ends at
    ``char_time(i + 1)``). The next subtitle (the next cue's) can start no earlier than
    ``speech_duration_s + silence_after_s``; nothing before the cue's start is touched.
    """
    ts = [1000.0 * char_time(i) for i in range(len(written) + 1)]
    char_times = [(ts[i], max(ts[i], ts[i + 1])) for i in range(len(written))]
    return time_cue(
        written,
        char_times,
        prev_end_ms=None,
        next_start_ms=1000.0 * (speech_duration_s + silence_after_s),
        limits=limits,
    )


def event_speech_spans(
    text: str, events: Sequence[SubtitleEvent], char_times: Sequence[tuple[float, float]]
) -> list[tuple[float, float]]:
    """The speech span of each event, found by aligning the events' characters with ``text``.

    Raises ValueError if the events do not hold exactly the characters of ``text``
    (whitespace aside)."""
    positions = [k for k, ch in enumerate(text) if not ch.isspace()]
    out, p = [], 0
    for ev in events:
        chars = squeeze(ev.text)
        if (
            not chars
            or p + len(chars) > len(positions)
            or squeeze(text[positions[p] : positions[p + len(chars) - 1] + 1]) != chars
        ):
            raise ValueError(f"event text {ev.text!r} does not follow the cue text at character {p}")
        out.append(_span_of(text, positions[p], positions[p + len(chars) - 1] + 1, char_times))
        p += len(chars)
    if p != len(positions):
        raise ValueError(f"events hold {p} of the cue's {len(positions)} characters")
    return out


def violations(
    events: Sequence[SubtitleEvent], speech_spans: Sequence[tuple[float, float]], limits: SubtitleConfig | None = None
) -> list[str]:
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
            out.append(
                f"{name}: {count_chars(ev.text) * 1000 / dur:.2f} characters a second, "
                f"more than {lim.max_chars_per_second}"
            )
        if abs(ev.start_ms - s) > START_SYNC_MS:
            out.append(f"{name}: starts at {ev.start_ms} ms, speech at {s:.0f} ms")
        if ev.end_ms > e + LINGER_MS:
            out.append(f"{name}: ends at {ev.end_ms} ms, more than {LINGER_MS} ms after its speech ({e:.0f} ms)")
        if ev.end_ms < e - START_SYNC_MS:
            out.append(f"{name}: ends at {ev.end_ms} ms, before its speech ends ({e:.0f} ms)")
        if k + 1 < len(events) and events[k + 1].start_ms - ev.end_ms < lim.min_gap_ms:
            out.append(
                f"{name}: {events[k + 1].start_ms - ev.end_ms} ms before the next event, less than {lim.min_gap_ms} ms"
            )
    if len(events) != len(speech_spans):
        out.append(f"{len(events)} events but {len(speech_spans)} speech spans")
    return out
