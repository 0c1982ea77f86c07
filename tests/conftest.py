"""Shared fixtures for the scene tests (keep small: others add here too)."""
from __future__ import annotations

import subprocess
import sys
from collections import Counter
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    # options read by manim.utils.testing.frames_comparison
    parser.addoption("--set_test", action="store_true", default=False,
                     help="write control frames for graphical tests instead of comparing")
    parser.addoption("--show_diff", action="store_true", default=False,
                     help="show a diff image when a graphical test fails")


def video_frame_count(path: Path) -> int:
    """Frames in the first video stream, decoded and counted by ffprobe."""
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
         "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", str(path)],
        capture_output=True, text=True, check=True).stdout.strip()
    return int(out)


@pytest.fixture
def count_frames():
    return video_frame_count


@lru_cache(maxsize=None)
def _dry_run(cls_name: str, scene_id: str, seconds: float):
    """Construct a core scene from its preview plan without writing video (480p camera: Pango wraps text at the pixel width, so a tiny camera changes layout)."""
    from manim import tempconfig

    from scenes.base import preview_plan
    from scenes.registry import scene_class

    cls = scene_class(cls_name)
    plan = preview_plan(cls, scene_id, fps=15, seconds=seconds)
    media = Path(__file__).resolve().parent / ".tmp" / "media"
    with tempconfig({"dry_run": True, "frame_rate": 15, "pixel_width": 854, "pixel_height": 480,
                     "media_dir": str(media), "progress_bar": "none", "verbosity": "ERROR"}):
        scene = cls(plan=plan)
        scene.render()
    return scene


@pytest.fixture(scope="session")
def dry_run_scene():
    """``dry_run_scene(cls_name, scene_id, seconds=4.0)``: a constructed scene, cached per session."""
    return lambda cls_name, scene_id, seconds=4.0: _dry_run(cls_name, scene_id, seconds)


@lru_cache(maxsize=None)
def _narration_plans(fps: int):
    """Plans of the real narration with the silent voice (no audio; ~4.5 characters a second)."""
    import tempfile

    from coursekit.audio_cache import AudioCache
    from coursekit.config import load_config
    from coursekit.lexicon import Lexicon
    from coursekit.narration import load_course
    from coursekit.timeline import plan_lesson
    from coursekit.voices.auto import make_voice

    cfg = load_config(None, **{"voice.backend": "silent"})
    course = load_course(cfg.lessons)
    lexicon = Lexicon.load()
    voice = make_voice("silent", cfg.voice, lexicon)
    cache = AudioCache(Path(tempfile.mkdtemp(prefix="plans-", dir=Path(__file__).resolve().parent / ".tmp")))
    return {l.id: plan_lesson(l, cfg, fps, voice, cache, lexicon) for l in course.lessons}


def narration_scene_plan(scene_id: str, fps: int = 15):
    """The ScenePlan of a real narration scene (silent-voice timing) at ``fps``."""
    for plan in _narration_plans(fps).values():
        for s in plan.scenes:
            if s.id == scene_id:
                return s
    raise KeyError(scene_id)


@lru_cache(maxsize=None)
def _dry_run_narrated(scene_id: str, fps: int = 15):
    """Construct a scene from its real narration plan without writing video (480p camera: Pango wraps text at the pixel width, so a tiny camera changes layout)."""
    from manim import tempconfig

    from scenes.registry import scene_class

    plan = narration_scene_plan(scene_id, fps)
    cls = scene_class(plan.cls)
    media = Path(__file__).resolve().parent / ".tmp" / "media"
    with tempconfig({"dry_run": True, "disable_caching": True, "frame_rate": fps, "pixel_width": 854,
                     "pixel_height": 480, "media_dir": str(media), "progress_bar": "none", "verbosity": "ERROR"}):
        scene = cls(plan=plan)
        scene.renderer.camera.capture_mobjects = lambda *a, **k: None   # nothing here looks at pixels
        scene.render()
    return scene


# scene id -> (frames drawn, Counter of SVG mobjects built inside updaters), filled by every
# NarratedScene render in this test session (see _record_typesetting); read by test_scenes_typesetting.py
TYPESET_IN_UPDATERS: dict[str, tuple[int, Counter]] = {}


@pytest.fixture(scope="session", autouse=True)
def _record_typesetting():
    from scenes.base import NarratedScene

    orig = NarratedScene.render

    def render(self, *args, **kwargs):
        with typesetting_in_updaters() as built:
            out = orig(self, *args, **kwargs)
        TYPESET_IN_UPDATERS[self.plan.id] = (self.frame, built)
        return out

    NarratedScene.render = render
    yield
    NarratedScene.render = orig


@contextmanager
def typesetting_in_updaters():
    """Count SVG-built mobjects (Text, Typst, SVGMobject) constructed while an updater runs,
    keyed by (class, text). Per-frame re-typesetting would show up here once per frame."""
    from manim import SVGMobject

    built: Counter = Counter()
    orig = SVGMobject.__init__

    def recording(self, *args, **kwargs):
        f = sys._getframe(1)
        while f is not None:
            if f.f_code.co_name == "update" and f.f_code.co_filename.endswith("mobject.py"):
                built[(type(self).__name__, str(args[0]) if args else "")] += 1
                break
            f = f.f_back
        orig(self, *args, **kwargs)

    SVGMobject.__init__ = recording
    try:
        yield built
    finally:
        SVGMobject.__init__ = orig


@pytest.fixture(scope="session")
def narrated_scene():
    """``narrated_scene(scene_id)``: the scene constructed (dry run) from its real narration plan."""
    return _dry_run_narrated
