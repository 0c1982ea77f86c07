"""The suite's xdist grouping, a pytest plugin (registered from tests/conftest.py by ``pytest_plugins``).

Under ``make test`` (``-n auto --dist loadfile``) each test file is one unit of work, as loadfile makes it,
except the tests that build the real course's scenes in dry runs: those of one lesson are one unit (each scene
is built once in the run, on one worker), and they carry the ``scenes`` marker that ``make test-fast`` leaves out.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

#: tests/course/ files that build the real scenes in dry runs (``built_scene``, lru-cached per process): one file
#: per scene (test_scene_<scene_id>.py) or per lesson (test_lesson_<lesson>.py), and the course-wide checks of
#: every scene's drawing, parametrized by scene or by lesson. Under ``make test`` (``-n auto --dist loadfile``)
#: the tests of one lesson's scenes go to one xdist worker together (a unit per lesson: the three lessons'
#: builds spread over the workers, and each scene is built once in the run); a test of these files that names
#: no scene or lesson builds nothing and is its file's unit, as loadfile does. The control frames
#: (test_scene_frames.py) are their own unit: they render. test_scene_timing.py checks the same builds' frames.
SCENE_DRY_RUN_FILES = (
    "test_scene_",
    "test_lesson_",
    "test_glossary",
    "test_glyphs",
    "test_viewer_check",
    "test_scenes_typesetting",
    "test_motion_words",
)
OWN_UNIT_FILES = ("test_scene_frames",)
DRY_RUN_UNIT = "scene-dry-runs"


@functools.lru_cache(maxsize=None)
def _lessons() -> dict[str, str]:
    """Scene id -> lesson id, and lesson id -> itself, of the real course."""
    from tests.support.course_text import lesson_ids, lesson_of, scene_ids

    return {**{sid: lesson_of(sid) for sid in scene_ids()}, **{lid: lid for lid in lesson_ids()}}


def _lesson_named(nodeid: str, stem: str) -> str | None:
    """The lesson a dry-run test builds: of the scene or lesson in its parameters, else of its file's name."""
    lessons = _lessons()
    params = nodeid.rpartition("[")[2].rstrip("]").split("-") if nodeid.endswith("]") else []
    for p in params:
        if p in lessons:
            return lessons[p]
    for prefix in ("test_scene_", "test_lesson_"):
        if stem.startswith(prefix) and stem[len(prefix) :] in lessons:
            return lessons[stem[len(prefix) :]]
    return None


def xdist_unit_of(nodeid: str) -> str:
    """The unit of work a test is sent in under ``--dist loadfile``: its file, or its lesson's dry-run unit."""
    path = Path(nodeid.split("::", 1)[0])
    in_course = path.parent.name == "course" and path.parent.parent.name == "tests"
    if in_course and path.stem.startswith(SCENE_DRY_RUN_FILES) and path.stem not in OWN_UNIT_FILES:
        lesson = _lesson_named(nodeid, path.stem)
        if lesson is not None:
            return f"{DRY_RUN_UNIT}:{lesson}"
    return path.as_posix()


class _FileUnits:
    """loadfile's own scheduler with the dry-run tests grouped by lesson (xdist's loadgroup marks do not
    reach the node ids under pytest 9.2, so the grouping is done here, by file name and parameter), the
    lessons' units sent first (the longest units: a worker that takes one late ends the run alone).
    Registered only when xdist is loaded, so ``-p no:xdist`` still runs."""

    @staticmethod
    def pytest_xdist_make_scheduler(config: pytest.Config, log):
        if config.getvalue("dist") != "loadfile":
            return None
        from xdist.scheduler import LoadScopeScheduling

        class FileScheduling(LoadScopeScheduling):
            _ordered = False

            def _split_scope(self, nodeid: str) -> str:
                return xdist_unit_of(nodeid)

            def _assign_work_unit(self, node) -> None:
                if not self._ordered:  # the queue is complete at the first assignment
                    self._ordered = True
                    for unit in [u for u in self.workqueue if u.startswith(DRY_RUN_UNIT)][::-1]:
                        self.workqueue.move_to_end(unit, last=False)
                super()._assign_work_unit(node)

        return FileScheduling(config, log)


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_FileUnits(), "coursekit-file-units")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of the dry-run unit carry the ``scenes`` marker: they build every real scene (minutes on
    two cores), which ``make test-fast`` leaves to ``make test``."""
    for item in items:
        if xdist_unit_of(item.nodeid).startswith(DRY_RUN_UNIT):
            item.add_marker(pytest.mark.scenes)
