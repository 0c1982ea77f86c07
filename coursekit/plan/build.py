"""Make the timeline plan: narration -> spoken text -> audio (cached) -> whole frames -> JSON.

This stage runs before any rendering. For each lesson and frame rate it writes
``media/plan/<fps>fps/<lesson>.json`` (see coursekit.plan.model for the format).
"""

from __future__ import annotations

import math
import unicodedata
from pathlib import Path

from coursekit.content.cue_text import cue_text
from coursekit.content.narration import Course, Lesson
from coursekit.core.atomic import write_text
from coursekit.core.config import Config
from coursekit.core.digest import file_sha256_cached
from coursekit.core.layout import MediaLayout
from coursekit.core.paths import course_root
from coursekit.plan.model import CuePlan, LessonPlan, ScenePlan
from coursekit.speech import synthesis
from coursekit.speech.timing import time_at
from coursekit.speech.voices.base import VoiceFailed
from coursekit.subtitles.events import SubtitleEvent, cue_events
from coursekit.subtitles.lines import wrap_lines


def frames_for(seconds: float, fps: int) -> int:
    """Whole frames covering ``seconds`` (rounded up, tolerant of float noise)."""
    return max(0, math.ceil(seconds * fps - 1e-6))


def _relpath(p: Path | None) -> str | None:
    if p is None:
        return None
    try:
        return str(Path(p).resolve().relative_to(course_root()))
    except ValueError:
        return str(p)


def _sha256(path: Path | None) -> str | None:
    if path is None:
        return None
    return file_sha256_cached(path)


def plan_lesson(lesson: Lesson, cfg: Config, fps: int, voice, cache, lexicon) -> LessonPlan:
    """Place every cue of a lesson in whole frames at ``fps``."""

    t = cfg.timeline
    lead, gap, tail = (frames_for(x, fps) for x in (t.scene_lead_in_s, t.cue_gap_s, t.scene_tail_s))
    scenes: list[ScenePlan] = []
    char_ms: dict[str, list[int]] = {}
    recorded: list[str] = []  # the cues voiced by the author's takes
    lesson_frame = 0
    for scene in lesson.scenes:
        frame = lead
        cues: list[CuePlan] = []
        for i, cue in enumerate(scene.cues):
            ct = cue_text(cue, lexicon, reads_latin=voice.reads_latin)
            where = f"{lesson.path.name}:{cue.line}: cue '{cue.id}'"
            try:
                speech = voice.cue_speech(lesson.id, cue, ct, cache, where)
            except VoiceFailed as exc:
                raise exc.for_cue(where) from None
            if speech.recorded:
                recorded.append(cue.id)
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
            silence_after = (pause_frames + (gap if i < len(scene.cues) - 1 else tail)) / fps + (
                speech_frames / fps - speech.duration
            )
            events = cue_events(ct.written, char_time, speech.duration, silence_after, cfg.subtitles)
            times = [int(round(start_s * 1000)) + int(round(1000 * char_time(k))) for k in range(len(ct.written) + 1)]
            # an opening mark (“ （ 《) is not spoken: it shows with the word it opens, not in the pause before it
            for k in range(len(ct.written) - 1, -1, -1):
                if unicodedata.category(ct.written[k]) in ("Ps", "Pi"):
                    times[k] = times[k + 1]
            char_ms[cue.id] = times
            bookmarks = {
                name: frame + min(speech_frames - 1, int(t_spoken(off) * fps))
                for name, off in sorted(ct.bookmarks_spoken.items())
            }
            cues.append(
                CuePlan(
                    id=cue.id,
                    text=ct.written,
                    spoken=ct.spoken,
                    start_frame=frame,
                    frames=speech_frames + pause_frames,
                    speech_frames=speech_frames,
                    audio=_relpath(speech.wav),
                    audio_sha256=_sha256(speech.wav),
                    voice=speech.voice,
                    bookmarks=bookmarks,
                    subtitles=[
                        SubtitleEvent(
                            int(round(start_s * 1000)) + e.start_ms,
                            int(round(start_s * 1000)) + e.end_ms,
                            "\n".join(wrap_lines(e.text, cfg.subtitles.max_chars_per_line, cfg.subtitles.max_lines)),
                        )
                        for e in events
                    ],
                    role=cue.role,
                )
            )
            frame += speech_frames + pause_frames + (gap if i < len(scene.cues) - 1 else 0)
        frames = frame + tail
        scenes.append(
            ScenePlan(
                scene.id,
                scene.cls,
                scene.title,
                list(scene.source),
                lesson_frame,
                frames,
                fps,
                cues,
                scene.overview,
                lesson.title,
            )
        )
        lesson_frame += frames
    voices = sorted({c.voice for s in scenes for c in s.cues})
    return LessonPlan(
        lesson.id,
        lesson.title,
        fps,
        lesson_frame,
        ", ".join(voices),
        scenes,
        char_ms,
        voice_licence=voice.licence_line(),
        recorded=recorded,
    )


def make_plans(
    course: Course,
    cfg: Config,
    layout: MediaLayout,
    fps: int,
    voice,
    cache,
    lexicon,
    lessons: list[str] | None = None,
) -> dict[str, tuple[LessonPlan, Path]]:
    """Plan the lessons into ``layout``'s ``lesson_plan`` files, then close the voice (a worker process is
    not needed while scenes render; the voice restarts it if it is used again). The locks and the voice's
    fallback are the caller's: ``coursekit.project.Project.plans``."""

    out = {}
    try:
        # missing cues, in parallel, into the cache (the recorded voice: its fallback's, of the cues without a take)
        synthesis.prefetch(course, cfg, voice.synthesising(), cache, lexicon, lessons, skip=voice.voices_itself)
        for lesson in course.lessons:
            if lessons and lesson.id not in lessons:
                continue
            plan = plan_lesson(lesson, cfg, fps, voice, cache, lexicon)
            path = layout.lesson_plan(lesson.id, fps)
            text = plan.to_json()
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                write_text(path, text)
            out[lesson.id] = (plan, path)
    finally:
        getattr(voice, "close", lambda: None)()
    return out
