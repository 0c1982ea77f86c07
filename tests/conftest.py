"""The suite's hooks and fixtures (keep small: others add here too). Helpers the tests import by name
live in tests/support/; no test imports from this file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.course_scenes import narration_scene
from tests.support.media import video_frame_count
from tests.support.mini_runs import copy_mini_course
from tests.support.typesetting import TYPESET_IN_UPDATERS, typesetting_in_updaters

#: under ``--dist loadfile``, the dry-run tests of one lesson go to one worker (and carry the ``scenes`` marker)
pytest_plugins = ["tests.support.xdist_units"]


def pytest_addoption(parser: pytest.Parser) -> None:
    # options read by manim.utils.testing.frames_comparison
    parser.addoption(
        "--set_test",
        action="store_true",
        default=False,
        help="write control frames for graphical tests instead of comparing",
    )
    parser.addoption(
        "--show_diff", action="store_true", default=False, help="show a diff image when a graphical test fails"
    )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test not marked ``render`` may build scenes in dry runs but not render one: the scene raises
    (``NarratedScene``, COURSEKIT_NO_RENDER, inherited by the commands the test starts). Set before the
    test's fixtures, so a module fixture that renders for it is caught too; a module fixture that starts a
    process which renders later (the studio) keeps the environment of the first test that asked for it, so
    every test using such a fixture is marked."""
    from coursekit.render.narrated_scene import NO_RENDER_ENV

    if item.get_closest_marker("render") is None:
        os.environ[NO_RENDER_ENV] = f"test {item.nodeid} is not marked render"
    else:
        os.environ.pop(NO_RENDER_ENV, None)


#: the course this process was started on (COURSEKIT_COURSE, COURSEKIT_NARRATION), as the session began
_COURSE_AT_START = {k: os.environ.get(k) for k in ("COURSEKIT_COURSE", "COURSEKIT_NARRATION")}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """The render guard is lifted (``pytest_runtest_setup``). After the last test of a module (its module
    fixtures torn down too), the course root is the one the session began with. A test that switched it
    (``--course`` run in-process sets it straight in ``os.environ``; ``mini_runs.here`` puts it back) and left
    it would make every later test on its worker load the wrong course: the leak is an error of the module
    that leaked it, and the course is put back."""
    from coursekit.render.narrated_scene import NO_RENDER_ENV

    result = yield
    os.environ.pop(NO_RENDER_ENV, None)
    if nextitem is None or getattr(nextitem, "module", None) is not getattr(item, "module", None):
        leaked = {k: os.environ.get(k) for k in _COURSE_AT_START if os.environ.get(k) != _COURSE_AT_START[k]}
        for k, v in _COURSE_AT_START.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        if leaked:
            raise AssertionError(f"{item.nodeid.split('::')[0]} left the course switched: {leaked}")
    return result


@pytest.fixture
def count_frames():
    return video_frame_count


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


@pytest.fixture
def mini(tmp_path) -> Path:
    """A fresh copy of the mini course (tests/fixtures/mini_course) in the test's tmp_path, to run commands on
    and change (``tests.support.mini_runs.copy_mini_course``; the made one, read only: ``made_mini``)."""
    return copy_mini_course(tmp_path / "mini")


@pytest.fixture(scope="session")
def narrated_scene():
    """``narrated_scene(scene_id)``: the scene constructed (dry run) from its real narration plan."""
    return narration_scene


class MadeMini:
    """The mini course made once, quietly, by the commands an author runs, in order: ``check``, ``plan``,
    ``course``, ``subtitles``, ``preview closing``. Read it; never write into it (copy it to change it).

    - ``course``: the made course's folder;
    - ``outputs``: command name -> its CompletedProcess;
    - ``after_course`` / ``after_subtitles``: ``mini_runs.finals`` right after ``course`` and after ``subtitles``;
    - ``preview``: the preview's files (closing.mp4, closing.png) as bytes;
    - ``project_plans``: the project's own media/plan listing before and after (a run on the copy writes
      nothing into the project)."""

    COMMANDS = (
        ("check", ("check",)),
        ("plan", ("plan",)),
        ("course", ("course",)),
        ("subtitles", ("subtitles",)),
        ("preview", ("preview", "closing")),
    )

    def __init__(self, root: Path) -> None:
        import pickle

        self.course = root / "mini"
        self.__dict__.update(pickle.loads((root / "made.pickle").read_bytes()))

    @classmethod
    def make(cls, root: Path) -> None:
        import pickle

        from tests.support import mini_runs

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


ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def made_mini(tmp_path_factory, request) -> MadeMini:
    """The mini course made once per test run (:class:`MadeMini`), shared by the workers
    (``tests.support.once``). A test that asks for it renders: mark it ``render``."""
    from tests.support.once import once_per_run

    return MadeMini(once_per_run(tmp_path_factory, "made-mini", MadeMini.make))
