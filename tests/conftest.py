"""Shared fixtures for the scene tests (keep small: others add here too)."""
from __future__ import annotations

import os
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


#: Test files that build the real scenes in dry runs (``built_scene``, lru-cached per process). Under
#: ``make test`` (``-n auto --dist loadfile``) they go to one xdist worker together, so each scene is
#: built once in the suite instead of once per worker; every other file is its own unit, as loadfile does.
SCENE_DRY_RUN_FILES = ("test_drawn_", "test_glossary", "test_glyphs", "test_viewer_check", "test_scenes_typesetting",
                       "test_rotation_lesson_text")


def xdist_unit_of(nodeid: str) -> str:
    """The unit of work a test is sent in under ``--dist loadfile``: its file, or the shared dry-run unit."""
    path = nodeid.split("::", 1)[0]
    return "scene-dry-runs" if Path(path).stem.startswith(SCENE_DRY_RUN_FILES) else path


class _FileUnits:
    """loadfile's own scheduler with the dry-run files merged into one unit (xdist's loadgroup marks do
    not reach the node ids under pytest 9.2, so the grouping is done here, by file name). Registered only
    when xdist is loaded, so ``-p no:xdist`` still runs."""

    @staticmethod
    def pytest_xdist_make_scheduler(config: pytest.Config, log):
        if config.getvalue("dist") != "loadfile":
            return None
        from xdist.scheduler import LoadScopeScheduling

        class FileScheduling(LoadScopeScheduling):
            def _split_scope(self, nodeid: str) -> str:
                return xdist_unit_of(nodeid)

        return FileScheduling(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test not marked ``render`` may build scenes in dry runs but not render one: the scene raises
    (``NarratedScene``, COURSEKIT_NO_RENDER, inherited by the commands the test starts). Set before the
    test's fixtures, so a module fixture that renders for it is caught too."""
    from coursekit.render.narrated_scene import NO_RENDER_ENV

    if item.get_closest_marker("render") is None:
        os.environ[NO_RENDER_ENV] = f"test {item.nodeid} is not marked render"
    else:
        os.environ.pop(NO_RENDER_ENV, None)


def pytest_runtest_teardown(item: pytest.Item) -> None:
    from coursekit.render.narrated_scene import NO_RENDER_ENV

    os.environ.pop(NO_RENDER_ENV, None)


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_FileUnits(), "coursekit-file-units")


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
def _narration_plans(fps: int):
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
    tmp = Path(__file__).resolve().parent / ".tmp"
    tmp.mkdir(exist_ok=True)
    cache = AudioCache(Path(tempfile.mkdtemp(prefix="plans-", dir=tmp)))
    return {l.id: plan_lesson(l, cfg, fps, voice, cache, lexicon) for l in course.lessons}


def narration_scene_plan(scene_id: str, fps: int = 15):
    """The ScenePlan of a real narration scene (silent-voice timing) at ``fps``."""
    for plan in _narration_plans(fps).values():
        for s in plan.scenes:
            if s.id == scene_id:
                return s
    raise KeyError(scene_id)


def worker_media() -> Path:
    """Manim's media folder for dry runs in this pytest process: one per xdist worker, because Manim writes
    a Text's SVG under a name of its content and deletes it after reading, so two workers typesetting
    the same string in one folder race (FileNotFoundError on the unlink)."""
    return Path(__file__).resolve().parent / ".tmp" / "media" / os.environ.get("PYTEST_XDIST_WORKER", "main")


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
    return narration_scene


MINI_COURSE = Path(__file__).resolve().parent / "fixtures" / "mini_course"


def copy_mini_course(dst: Path) -> Path:
    """A copy of the second, tiny course (tests/fixtures/mini_course) at ``dst``, without caches or media:
    the tests that run commands on it write into the copy, never into the fixture."""
    import shutil
    shutil.copytree(MINI_COURSE, dst, ignore=shutil.ignore_patterns("__pycache__", "media"))
    return dst




class MadeMini:
    """The mini course made once, quietly, by the commands an author runs, in order: ``check``, ``plan``,
    ``course``, ``subtitles``, ``preview closing``. Read it; never write into it (copy it to change it).

    - ``course``: the made course's folder;
    - ``outputs``: command name -> its CompletedProcess;
    - ``after_course`` / ``after_subtitles``: ``mini_runs.finals`` right after ``course`` and after ``subtitles``;
    - ``preview``: the preview's files (closing.mp4, closing.png) as bytes;
    - ``project_plans``: the project's own media/plan listing before and after (a run on the copy writes
      nothing into the project)."""

    COMMANDS = (("check", ("check",)), ("plan", ("plan",)), ("course", ("course",)),
                ("subtitles", ("subtitles",)), ("preview", ("preview", "closing")))

    def __init__(self, root: Path) -> None:
        import pickle

        self.course = root / "mini"
        self.__dict__.update(pickle.loads((root / "made.pickle").read_bytes()))

    @classmethod
    def make(cls, root: Path) -> None:
        import pickle

        from tests import mini_runs

        plans = ROOT / "media" / "plan"
        listing = lambda: {p for p in plans.rglob("*")} if plans.exists() else set()  # noqa: E731
        before = listing()
        course = copy_mini_course(root / "mini")
        data: dict = {"outputs": {}}
        for name, args in cls.COMMANDS:
            data["outputs"][name] = mini_runs.ok(mini_runs.run(course, *args))
            if name in ("course", "subtitles"):
                data[f"after_{name}"] = mini_runs.finals(course)
        data["preview"] = {n: (course / "media" / "preview" / n).read_bytes() for n in ("closing.mp4", "closing.png")}
        data["project_plans"] = (before, listing())
        tmp = root / "made.pickle.tmp"
        tmp.write_bytes(pickle.dumps(data))
        tmp.rename(root / "made.pickle")


ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def made_mini(tmp_path_factory, request) -> MadeMini:
    """The mini course made once per test run (:class:`MadeMini`). Under xdist the workers share it: the
    first to ask makes it under a file lock in the run's shared temporary folder, the others wait for it
    and read what it made (the pattern pytest-xdist documents for a session fixture run once). A test
    that asks for it renders: mark it ``render``."""
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    root = shared / "made-mini"
    root.mkdir(exist_ok=True)
    failed = root / "failed.txt"
    with FileLock(str(root) + ".lock"):
        if not (root / "made.pickle").exists() and not failed.exists():
            try:
                MadeMini.make(root)
            except BaseException as exc:     # made once: every later test is told why, not made again
                failed.write_text(f"{type(exc).__name__}: {exc}"[-4000:], encoding="utf-8")
                raise
    if failed.exists():
        pytest.fail(f"the made mini course failed: {failed.read_text(encoding='utf-8')}")
    return MadeMini(root)
