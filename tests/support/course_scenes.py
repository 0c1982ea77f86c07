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
    return _plans(int(fps), voice_name)


@lru_cache(maxsize=None)     # keyed by the arguments as passed: the public function passes both, always
def _plans(fps: int, voice_name: str):
    import tempfile

    from coursekit.speech.audio_cache import AudioCache
    from coursekit.core.config import load_config
    from coursekit.content.narration import load_course
    from coursekit.plan.build import plan_lesson
    from coursekit.speech.voices.auto import make_voice
    from coursekit.zh.lexicon import Lexicon

    cfg = load_config(None, **{"voice.backend": voice_name})
    course = load_course(cfg.lessons)
    lexicon = Lexicon.load()
    voice = make_voice(voice_name, cfg.voice, lexicon)
    tmp = TESTS / ".tmp"
    tmp.mkdir(exist_ok=True)
    folder = ESPEAK_AUDIO if voice_name == "espeak" else Path(tempfile.mkdtemp(prefix="plans-", dir=tmp))
    cache = AudioCache(folder)
    return {l.id: plan_lesson(l, cfg, fps, voice, cache, lexicon) for l in course.lessons}


def narration_scene_plan(scene_id: str, fps: int = 15):
    """The ScenePlan of a real narration scene at ``fps``, voiced by espeak: what the scene tests build
    from. A real voice pauses at clauses and reads some words faster than the silent voice's even rate, so
    a beat timed as a share of its cue can run past a bookmark or the cue's end (rope_visualisation did,
    at 1080p60 with espeak); building every scene from this plan checks its timing as well as its labels
    (tests/course/test_scene_timing.py), with one build per scene in the run."""
    for plan in narration_plans(fps, "espeak").values():
        for s in plan.scenes:
            if s.id == scene_id:
                return s
    raise KeyError(scene_id)


def worker_media() -> Path:
    """Manim's media folder for dry runs in this pytest process: one per xdist worker, because Manim writes
    a Text's SVG under a name of its content and deletes it after reading, so two workers typesetting
    the same string in one folder race (FileNotFoundError on the unlink)."""
    return TESTS / ".tmp" / "media" / os.environ.get("PYTEST_XDIST_WORKER", "main")


def built_scene(scene_id: str, fps: int = 15):
    """``(scene, report)``: the scene built once per process from its real narration plan (dry run,
    no pixels), with the viewer check (``coursekit.render.viewer_check``) run after every play and wait."""
    return _built(scene_id, int(fps))


@lru_cache(maxsize=None)     # lru_cache keys f(a) and f(a, 15) apart: the public function passes both, always
def _built(scene_id: str, fps: int):
    from coursekit.render.viewer_check import build_dry_run
    from scenes import theme
    from coursekit.render.registry import scene_class

    plan = narration_scene_plan(scene_id, fps)
    return build_dry_run(scene_class(plan.cls), plan, media_dir=worker_media(), rules=theme.viewer_rules())


def narration_scene(scene_id: str, fps: int = 15):
    """The scene built from its real narration plan (see :func:`built_scene`)."""
    return built_scene(scene_id, fps)[0]
