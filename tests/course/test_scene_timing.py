"""Every scene fits a real voice's timing, not only the silent voice's even reading rate.

The scene tests build each scene from a silent-voice plan, where every character takes the same
time and bookmarks fall in proportion to the text. A real voice pauses at clauses and reads some
words faster, so a beat timed as a share of the cue can run past a bookmark or past the cue's
end (rope_visualisation did, at 1080p60 with espeak: "cannot hold for -4 frames"). Here each scene
is built (dry run, no viewer check) from a plan voiced by espeak, the offline voice every
machine running the suite has.
"""
from __future__ import annotations

import tempfile
from functools import lru_cache
from pathlib import Path

import pytest

from coursekit.core.config import load_config
from coursekit.content.narration import load_course

SCENES = [s.id for lesson in load_course(load_config().lessons).lessons for s in lesson.scenes]
TMP = Path(__file__).resolve().parents[1] / ".tmp"


@lru_cache(maxsize=None)
def _espeak_plans():
    from coursekit.speech.audio_cache import AudioCache
    from coursekit.plan.build import plan_lesson
    from coursekit.speech.voices.auto import make_voice
    from coursekit.zh.lexicon import Lexicon

    cfg = load_config(None, **{"voice.backend": "espeak"})
    lexicon = Lexicon.load()
    voice = make_voice("espeak", cfg.voice, lexicon)
    TMP.mkdir(exist_ok=True)
    cache = AudioCache(Path(tempfile.mkdtemp(prefix="espeak-plans-", dir=TMP)))
    return {l.id: plan_lesson(l, cfg, 15, voice, cache, lexicon) for l in load_course(cfg.lessons).lessons}


def _plan(scene_id):
    for plan in _espeak_plans().values():
        for s in plan.scenes:
            if s.id == scene_id:
                return s
    raise KeyError(scene_id)


@pytest.mark.parametrize("scene_id", SCENES)
def test_scene_fits_the_espeak_timing(scene_id):
    from coursekit.render.viewer_check import build_dry_run
    from coursekit.render.registry import scene_class

    plan = _plan(scene_id)
    scene, _ = build_dry_run(scene_class(plan.cls), plan, media_dir=TMP / "media")
    assert scene.frame == plan.frames
    assert scene._cues_done == [c.id for c in plan.cues]
