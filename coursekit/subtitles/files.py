"""Subtitle files: a lesson's events in lesson time, written as SubRip and WebVTT.

:func:`lesson_events` turns a lesson's plan (``coursekit.plan.model.LessonPlan``) into lesson-absolute
``srt.Subtitle`` objects; :func:`write_srt` (``srt`` library) and :func:`write_vtt` (``webvtt-py``)
write them atomically. WebVTT text is escaped (``&`` → ``&amp;``, ``<`` → ``&lt;``, ``>`` → ``&gt;``,
so ``-->`` is written ``--&gt;``). SubRip has no escaping; ``srt`` reads a cue body verbatim up to the
blank line that ends it, so ``<script>``, ``&`` and ``-->`` are written unchanged and parse back
unchanged (tested); nothing is substituted. Players that read SubRip markup differ: ffmpeg's SubRip
reader drops tags it does not know (``<script>`` vanishes) but reads the WebVTT file literally, so mux
or convert from the .vtt.

The plan is read by its fields (its scenes' ``start_frame`` and ``fps``, their cues' ``subtitles``),
not imported: ``coursekit.plan`` is the floor above this package, and times its cues with it.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Iterable

import srt
import webvtt

from coursekit.core.atomic import write_text
from coursekit.core.config import SubtitleConfig
from coursekit.subtitles.lines import wrap_lines

__all__ = ["lesson_events", "write_srt", "write_vtt", "escape_vtt"]


def _lines_of(text: str, lim: SubtitleConfig) -> str:
    """Event text with its line breaks: kept as the plan wrapped them, else wrapped now."""
    if "\n" in text:
        return text
    return "\n".join(wrap_lines(text, lim.max_chars_per_line, lim.max_lines))


def lesson_events(plan, limits: SubtitleConfig | None = None) -> list[srt.Subtitle]:
    """Every subtitle of a lesson's plan (a ``LessonPlan``) in lesson time, numbered from 1.

    Line breaks are the ones chosen when the plan was made (with the config's limits then),
    so writing subtitles needs no segmenter; ``limits`` is accepted for symmetry with the writers.
    """
    subs: list[tuple[int, int, str]] = []
    for scene in plan.scenes:
        offset = round(scene.start_frame * 1000 / scene.fps)
        for cue in scene.cues:
            for ev in cue.subtitles:
                subs.append((offset + ev.start_ms, offset + ev.end_ms, ev.text))  # wrapped when planned
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
    vtt = webvtt.WebVTT(
        captions=[
            webvtt.Caption(_vtt_time(ev.start), _vtt_time(ev.end), escape_vtt(ev.content).split("\n"))
            for ev in _as_subtitles(events, limits)
        ]
    )
    _atomic_write(Path(path), vtt.content)
    return Path(path)
