"""The real course's plans and scenes for the tests: plans of the real narration (silent voice: no audio,
~4.5 characters a second; or espeak, a real voice's pauses and pace) and each scene built once per process in
a dry run, from its espeak plan, with the viewer check."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


#: the audio cache of the espeak plans, shared by every test process and kept between runs: the cache is
#: content-addressed and locked per entry (coursekit.speech.audio_cache), so the voice reads each cue once
ESPEAK_AUDIO = TESTS / ".tmp" / "audio-espeak"


def narration_plans(fps: int, voice_name: str = "silent"):
    """Plans of the real narration with the silent voice (no audio; ~4.5 characters a second), or with
    ``voice_name="espeak"`` (the audio in ESPEAK_AUDIO); made once per process for each (fps, voice)."""
    return {lesson: lesson_plan(lesson, fps, voice_name) for lesson in _course_lessons()}


def lesson_plan(lesson_id: str, fps: int, voice_name: str = "silent"):
    """One lesson's plan (see :func:`narration_plans`), made once per process: a test of one scene
    voices only its own lesson (espeak reads a lesson in about 10 s of CPU when its cache is cold)."""
    return _plan(lesson_id, int(fps), voice_name)


@lru_cache(maxsize=None)
def _course_lessons() -> tuple[str, ...]:
    return tuple(l.id for l in _speech(None)[1].lessons)


@lru_cache(maxsize=None)  # keyed by the arguments as passed: the public functions pass them all, always
def _speech(voice_name: str | None):
    """(config, course, lexicon, voice, audio cache) for ``voice_name``; None: config and course only."""
    import tempfile

    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from coursekit.speech.audio_cache import AudioCache
    from coursekit.speech.voices.auto import make_voice
    from coursekit.zh.lexicon import Lexicon

    cfg = load_config(None, **({"voice.backend": voice_name} if voice_name else {}))
    course = load_course(cfg.lessons)
    if voice_name is None:
        return cfg, course, None, None, None
    lexicon = Lexicon.load()
    voice = make_voice(voice_name, cfg.voice, lexicon)
    tmp = TESTS / ".tmp"
    tmp.mkdir(exist_ok=True)
    folder = ESPEAK_AUDIO if voice_name == "espeak" else Path(tempfile.mkdtemp(prefix="plans-", dir=tmp))
    return cfg, course, lexicon, voice, AudioCache(folder)


@lru_cache(maxsize=None)
def _plan(lesson_id: str, fps: int, voice_name: str):
    from coursekit.plan.build import plan_lesson

    cfg, course, lexicon, voice, cache = _speech(voice_name)
    [lesson] = [l for l in course.lessons if l.id == lesson_id]
    return plan_lesson(lesson, cfg, fps, voice, cache, lexicon)


def narration_scene_plan(scene_id: str, fps: int = 15, voice_name: str = "espeak"):
    """The ScenePlan of a real narration scene at ``fps``, voiced by espeak: what the scene tests build
    from. A real voice pauses at clauses and reads some words faster than the silent voice's even rate, so
    a beat timed as a share of its cue can run past a bookmark or the cue's end (rope_visualisation did,
    at 1080p60 with espeak); building every scene from this plan checks its timing as well as its labels
    (tests/course/test_scene_timing.py), with one build per scene in the run. Only the scene's own lesson
    is planned. ``voice_name="silent"``: the same scene planned without audio, for a test that needs a
    real plan but not a voice's timing."""
    for lesson in _course_lessons():
        if scene_id in _scene_ids(lesson):
            for s in lesson_plan(lesson, fps, voice_name).scenes:
                if s.id == scene_id:
                    return s
    raise KeyError(scene_id)


@lru_cache(maxsize=None)
def _scene_ids(lesson_id: str) -> frozenset[str]:
    """The scene ids a lesson declares (from the course, without planning it)."""
    [lesson] = [l for l in _speech(None)[1].lessons if l.id == lesson_id]
    return frozenset(s.id for s in lesson.scenes)


def worker_media() -> Path:
    """Manim's media folder for dry runs in this pytest process: one per xdist worker, because Manim writes
    a Text's SVG under a name of its content and deletes it after reading, so two workers typesetting
    the same string in one folder race (FileNotFoundError on the unlink)."""
    return TESTS / ".tmp" / "media" / os.environ.get("PYTEST_XDIST_WORKER", "main")


def built_scene(scene_id: str, fps: int = 15):
    """``(scene, report)``: the scene built once per process from its real narration plan (dry run,
    no pixels), with the viewer check (``coursekit.render.viewer_check``) run after every play and wait."""
    return _built(scene_id, int(fps))


@lru_cache(maxsize=None)  # lru_cache keys f(a) and f(a, 15) apart: the public function passes both, always
def _built(scene_id: str, fps: int):
    from coursekit.render.registry import scene_class
    from coursekit.render.viewer_check import build_dry_run
    from scenes import theme

    plan = narration_scene_plan(scene_id, fps)
    return build_dry_run(scene_class(plan.cls), plan, media_dir=worker_media(), rules=theme.viewer_rules())


def narration_scene(scene_id: str, fps: int = 15):
    """The scene built from its real narration plan (see :func:`built_scene`)."""
    return built_scene(scene_id, fps)[0]
