"""Make the timeline plan: narration -> spoken text -> audio (cached) -> whole frames -> JSON.

This stage runs before any rendering. For each lesson and frame rate it writes
``media/plan/<fps>fps/<lesson>.json`` (see coursekit.plan for the format).
"""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from coursekit.atomic import write_text
from coursekit.config import Config
from coursekit.digest import file_sha256
from coursekit.narration import BOOKMARK_RE, Course, Cue, Lesson
from coursekit.paths import PROJECT_ROOT
from coursekit.plan import CuePlan, LessonPlan, ScenePlan, SubtitleEvent
from coursekit.voices.base import VoiceFailed


def strip_bookmarks(text: str) -> tuple[str, dict[str, int]]:
    """Remove ``{@name}`` marks; return the clean text and each mark's character offset in it."""
    out, marks, pos = [], {}, 0
    for m in BOOKMARK_RE.finditer(text):
        out.append(text[pos:m.start()])
        marks[m.group(1)] = sum(len(p) for p in out)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out), marks


@dataclass(frozen=True)
class CueText:
    """The forms of one cue's text that the pipeline needs."""

    written: str                 # subtitle text: figures filled, bookmarks removed
    spoken: str                  # what the voice reads (lexicon applied)
    bookmarks_spoken: dict[str, int]   # bookmark -> offset in `spoken`
    written_to_spoken: Callable[[int], int] | None   # None when `say` differs from `text`


def cue_text(cue: Cue, lexicon, reads_latin: bool = False) -> CueText:
    """``reads_latin``: the voice reads Latin script (``Voice.reads_latin``), so terms keep their
    Latin spoken form instead of a transliteration."""
    from coursekit.figures import fill

    written, _ = strip_bookmarks(fill(cue.text))
    source, marks = strip_bookmarks(fill(cue.say if cue.say is not None else cue.text))
    spoken = lexicon.speak(source, barriers=tuple(marks.values()), reads_latin=reads_latin)
    bookmarks = {name: spoken.written_to_spoken(off) for name, off in marks.items()}
    mapping = spoken.written_to_spoken if cue.say is None else None
    return CueText(written, spoken.text, bookmarks, mapping)


def time_at(timings: list[tuple[int, float]], duration: float, n_chars: int) -> Callable[[float], float]:
    """Seconds at which the character at a (fractional) spoken offset is spoken.

    Between two boundaries the time is proportional to characters.
    """
    pts = sorted(set((int(o), float(t)) for o, t in timings if 0 <= o <= n_chars))
    if not pts or pts[0][0] != 0:
        pts.insert(0, (0, 0.0))
    if pts[-1][0] < n_chars:
        pts.append((n_chars, duration))
    offs = [p[0] for p in pts]

    def f(offset: float) -> float:
        if offset <= 0:
            return 0.0
        if offset >= n_chars:
            return duration
        i = bisect.bisect_right(offs, offset) - 1
        (o0, t0), (o1, t1) = pts[i], pts[min(i + 1, len(pts) - 1)]
        if o1 == o0:
            return t0
        return t0 + (t1 - t0) * (offset - o0) / (o1 - o0)

    return f


def frames_for(seconds: float, fps: int) -> int:
    """Whole frames covering ``seconds`` (rounded up, tolerant of float noise)."""
    return max(0, math.ceil(seconds * fps - 1e-6))


def _relpath(p: Path | None) -> str | None:
    if p is None:
        return None
    try:
        return str(Path(p).resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(p)


def _sha256(path: Path | None) -> str | None:
    if path is None:
        return None
    return file_sha256(path)


def plan_lesson(lesson: Lesson, cfg: Config, fps: int, voice, cache, lexicon) -> LessonPlan:
    """Place every cue of a lesson in whole frames at ``fps``."""
    from coursekit import subtitles as subs

    t = cfg.timeline
    lead, gap, tail = (frames_for(x, fps) for x in (t.scene_lead_in_s, t.cue_gap_s, t.scene_tail_s))
    scenes: list[ScenePlan] = []
    lesson_frame = 0
    for scene in lesson.scenes:
        frame = lead
        cues: list[CuePlan] = []
        for i, cue in enumerate(scene.cues):
            ct = cue_text(cue, lexicon, reads_latin=voice.reads_latin)
            try:
                speech = cache.get(voice, ct.spoken)
            except VoiceFailed as exc:
                raise exc.for_cue(f"{lesson.path.name}:{cue.line}: cue '{cue.id}'") from None
            speech_frames = max(1, frames_for(speech.duration, fps))
            pause_frames = frames_for(cue.pause, fps)
            n_spoken = len(ct.spoken)
            t_spoken = time_at(speech.timings, speech.duration, n_spoken)
            if ct.written_to_spoken is not None:
                w2s = ct.written_to_spoken

                def char_time(i_written: int, w2s=w2s, t_spoken=t_spoken) -> float:
                    return t_spoken(w2s(i_written))
            else:
                scale = n_spoken / max(1, len(ct.written))

                def char_time(i_written: int, scale=scale, t_spoken=t_spoken) -> float:
                    return t_spoken(i_written * scale)

            start_s = frame / fps
            silence_after = (pause_frames + (gap if i < len(scene.cues) - 1 else tail)) / fps \
                + (speech_frames / fps - speech.duration)
            events = subs.cue_events(ct.written, char_time, speech.duration, silence_after, cfg.subtitles)
            bookmarks = {name: frame + min(speech_frames - 1, int(t_spoken(off) * fps))
                         for name, off in sorted(ct.bookmarks_spoken.items())}
            cues.append(CuePlan(
                id=cue.id, text=ct.written, spoken=ct.spoken,
                start_frame=frame, frames=speech_frames + pause_frames, speech_frames=speech_frames,
                audio=_relpath(speech.wav), audio_sha256=_sha256(speech.wav), voice=speech.voice,
                bookmarks=bookmarks,
                subtitles=[SubtitleEvent(int(round(start_s * 1000)) + e.start_ms,
                                         int(round(start_s * 1000)) + e.end_ms,
                                         "\n".join(subs.wrap_lines(e.text, cfg.subtitles.max_chars_per_line,
                                                                   cfg.subtitles.max_lines)))
                           for e in events],
            ))
            frame += speech_frames + pause_frames + (gap if i < len(scene.cues) - 1 else 0)
        frames = frame + tail
        scenes.append(ScenePlan(scene.id, scene.cls, scene.title, list(scene.source),
                                lesson_frame, frames, fps, cues))
        lesson_frame += frames
    voices = sorted({c.voice for s in scenes for c in s.cues})
    return LessonPlan(lesson.id, lesson.title, fps, lesson_frame, ", ".join(voices), scenes)


def plan_path(cfg: Config, lesson_id: str, fps: int) -> Path:
    return cfg.output_dir / "plan" / f"{fps}fps" / f"{lesson_id}.json"


def make_plans(course: Course, cfg: Config, fps: int, voice, cache, lexicon,
               lessons: list[str] | None = None) -> dict[str, tuple[LessonPlan, Path]]:
    """Plan the lessons, then close the voice (a worker process is not needed while scenes render;
    the voice restarts it if it is used again)."""
    from coursekit.synthesis import prefetch

    out = {}
    try:
        prefetch(course, cfg, voice, cache, lexicon, lessons)   # missing cues, in parallel, into the cache
        for lesson in course.lessons:
            if lessons and lesson.id not in lessons:
                continue
            plan = plan_lesson(lesson, cfg, fps, voice, cache, lexicon)
            path = plan_path(cfg, lesson.id, fps)
            text = plan.to_json()
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                write_text(path, text)
            out[lesson.id] = (plan, path)
    finally:
        getattr(voice, "close", lambda: None)()
    return out
