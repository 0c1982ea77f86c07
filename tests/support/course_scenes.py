"""The real course's plans and scenes for the tests: silent-voice plans (no audio; ~4.5 characters a
second) and each scene built once per process in a dry run, from its plan, with the viewer check."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=None)
def narration_plans(fps: int):
    """Plans of the real narration with the silent voice (no audio; ~4.5 characters a second)."""
    import tempfile

    from coursekit.speech.audio_cache import AudioCache
    from coursekit.core.config import load_config
    from coursekit.content.narration import load_course
    from coursekit.plan.build import plan_lesson
    from coursekit.speech.voices.auto import make_voice
    from coursekit.zh.lexicon import Lexicon

    cfg = load_config(None, **{"voice.backend": "silent"})
    course = load_course(cfg.lessons)
    lexicon = Lexicon.load()
    voice = make_voice("silent", cfg.voice, lexicon)
    tmp = TESTS / ".tmp"
    tmp.mkdir(exist_ok=True)
    cache = AudioCache(Path(tempfile.mkdtemp(prefix="plans-", dir=tmp)))
    return {l.id: plan_lesson(l, cfg, fps, voice, cache, lexicon) for l in course.lessons}


def narration_scene_plan(scene_id: str, fps: int = 15):
    """The ScenePlan of a real narration scene (silent-voice timing) at ``fps``."""
    for plan in narration_plans(fps).values():
        for s in plan.scenes:
            if s.id == scene_id:
                return s
    raise KeyError(scene_id)


def worker_media() -> Path:
    """Manim's media folder for dry runs in this pytest process: one per xdist worker, because Manim writes
    a Text's SVG under a name of its content and deletes it after reading, so two workers typesetting
    the same string in one folder race (FileNotFoundError on the unlink)."""
    return TESTS / ".tmp" / "media" / os.environ.get("PYTEST_XDIST_WORKER", "main")


@lru_cache(maxsize=None)
def built_scene(scene_id: str, fps: int = 15):
    """``(scene, report)``: the scene built once per session from its real narration plan (dry run,
    no pixels), with the viewer check (``coursekit.render.viewer_check``) run after every play and wait."""
    from coursekit.render.viewer_check import build_dry_run
    from scenes import theme
    from coursekit.render.registry import scene_class

    plan = narration_scene_plan(scene_id, fps)
    return build_dry_run(scene_class(plan.cls), plan, media_dir=worker_media(), rules=theme.viewer_rules())


def narration_scene(scene_id: str, fps: int = 15):
    """The scene built from its real narration plan (see :func:`built_scene`)."""
    return built_scene(scene_id, fps)[0]
