"""Regenerate the course's subtitle files from the plan, without rendering (and without Manim), under the
locks of the plans it reads and of the course files it writes (``render.py subtitles``).

It reads plans and the narration, writes the delivered SRT/VTT and re-muxes the lesson videos: assembly
work above the plan, so it lives here and not in ``coursekit.subtitles`` (a floor below the plan, which
plans with it)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

from coursekit.content.cue_text import cue_text
from coursekit.content.narration import Course
from coursekit.core import stopping
from coursekit.core.config import Config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.core.locks import course_lock, names
from coursekit.core.media_tools import mux_subtitles
from coursekit.plan.model import LessonPlan
from coursekit.subtitles import files as subs
from coursekit.zh.lexicon import Lexicon


def stale_cues(course: Course, plan: LessonPlan, lexicon: Lexicon | None = None) -> list[str]:
    """Cue ids whose spoken text changed since the plan was made (or that the plan lacks)."""

    lexicon = lexicon or Lexicon.load()
    lesson = course.lesson(plan.lesson)
    planned = {c.id: c for s in plan.scenes for c in s.cues}
    # The plan was voiced by one voice, which reads Latin script or not (Voice.reads_latin); its
    # spoken texts follow that voice's terms. Judge the plan by the kind of voice it fits best.
    verdicts = []
    for reads_latin in (False, True):
        stale = []
        for scene in lesson.scenes:
            for cue in scene.cues:
                ct = cue_text(cue, lexicon, reads_latin=reads_latin)
                p = planned.get(cue.id)
                if p is None or p.spoken != ct.spoken or p.text != ct.written:
                    stale.append(cue.id)
        verdicts.append(stale)
        if not stale:  # fits this kind of voice exactly: the other cannot fit better
            break
    stale = min(verdicts, key=len)
    current = {c.id for s in lesson.scenes for c in s.cues}
    stale += sorted(set(planned) - current)
    return stale


def find_plan(cfg: Config, layout: MediaLayout, lesson_id: str) -> Path:
    """The lesson's plan at the config's frame rate, else at the highest other one there is."""
    preferred = layout.lesson_plan(lesson_id, cfg.video.frame_rate)
    if preferred.exists():
        return preferred
    others = layout.lesson_plans(lesson_id)
    if others:
        return others[-1]
    raise UserError(
        f"no plan for lesson '{lesson_id}' under {layout.plans}; run: python render.py plan --lesson {lesson_id}"
    )


def write_course_subtitles(cfg: Config, layout: MediaLayout, course: Course, lesson_ids: list[str]) -> list[Path]:
    """Write each lesson's SRT/VTT from its plan, then put the new track into each lesson video.

    It reads the plans and writes the course's delivered files, so it holds each plan's course lock and
    the course files' lock meanwhile (a ``plan`` or ``course`` running beside it waits, or it waits for
    them, and says so). Every lesson is checked (its audio not stale) before any file is written; the
    videos are re-muxed side by side, up to two ffmpegs per core (each is a stream copy, about half a
    second of CPU), each as soon as its lesson's files are written."""
    paths = [find_plan(cfg, layout, lid) for lid in lesson_ids]
    with ExitStack() as held:
        for lid, path in sorted(zip(lesson_ids, paths)):
            fps = layout.plan_fps(path)
            held.enter_context(course_lock(layout.root, names.plan(lid, fps), f"the plan of lesson {lid} at {fps} fps"))
        held.enter_context(course_lock(layout.root, names.course(), "the course's delivered files"))
        return _write(cfg, layout, course, lesson_ids, [find_plan(cfg, layout, lid) for lid in lesson_ids])


def _write(cfg: Config, layout: MediaLayout, course: Course, lesson_ids: list[str], paths: list[Path]) -> list[Path]:
    lexicon = Lexicon.load(check_readings=False)  # subtitles never turn text into pinyin
    plans = [LessonPlan.read(p) for p in paths]
    for lid, plan in zip(lesson_ids, plans):
        stale = stale_cues(course, plan, lexicon)
        if stale:
            shown = ", ".join(stale[:5]) + (f" and {len(stale) - 5} more" if len(stale) > 5 else "")
            raise UserError(
                f"lesson '{lid}': the audio is stale for {shown}; run: python render.py plan --lesson {lid}"
            )
    written: list[Path] = []

    def remux(video: Path, vtt: Path) -> Path:
        stopping.check()  # a stopping command starts no further re-mux
        return mux_subtitles(video, vtt)  # from the VTT: ffmpeg's SRT reader drops tag-like text

    # Each lesson's video is re-muxed as soon as its VTT is written, while the next lesson's are made. A
    # stream copy waits on the disk for part of its time, so two run per core: three lessons on two cores
    # took 1.78 s with three at once against 1.96 s with two (median of 7, 1080p60, 2026-12-05).
    with ThreadPoolExecutor(max_workers=max(1, min(len(plans), 2 * (os.cpu_count() or 1)))) as pool:
        muxing = []
        for lid, plan in zip(lesson_ids, plans):
            events = subs.lesson_events(plan, cfg.subtitles)
            layout.lesson_dir(lid).mkdir(parents=True, exist_ok=True)
            srt, vtt = layout.lesson_subtitles(lid, "srt"), layout.lesson_subtitles(lid, "vtt")
            if "srt" in cfg.subtitles.formats:
                written.append(subs.write_srt(events, srt, cfg.subtitles) or srt)
            if "vtt" in cfg.subtitles.formats:
                written.append(subs.write_vtt(events, vtt, cfg.subtitles) or vtt)
            video = layout.lesson_video(lid)
            if not vtt.exists():
                subs.write_vtt(events, vtt, cfg.subtitles)
            if video.exists():
                muxing.append(pool.submit(remux, video, vtt))
        written += [job.result() for job in muxing]
    return written
