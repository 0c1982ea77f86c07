"""A lesson added to the course is tested with no test edited: the course tests take their lessons and scenes
from the course (``tests.support.course_text``: config.yaml's lessons and their narration), never from a list
typed in a test.

The course's config.yaml and narration/ are copied with one more lesson, and tests/course is collected on the
copy (``COURSEKIT_COURSE``) by a child pytest: every test that runs once per scene of the real course runs for
the new lesson's scene too, and every test that runs once per lesson, for the new lesson.

The same on the fixture course (tests/fixtures/mini_course), with a lesson of its own scene added: the
course-wide checks run for it, and one of them (the lesson's length) fails on it, naming it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.support.course_text import lesson_ids, scene_ids
from tests.support.mini_runs import copy_mini_course

ROOT = Path(__file__).resolve().parents[2]
NEW_LESSON, NEW_SCENE = "extra_lesson", "extra_scene"
NEW_LESSON_YAML = f"""lesson: {NEW_LESSON}
title: 多出来的一课
scenes:
  - id: {NEW_SCENE}
    class: ExtraScene
    title: 多出来的一节
    source: ["{NEW_LESSON} §0"]
    cues:
      - id: only
        text: 这一课只在测试里。
"""


def course_with_a_new_lesson(dst: Path) -> Path:
    """The real course's config and narration at ``dst``, with NEW_LESSON (one scene) listed last."""
    shutil.copytree(ROOT / "narration", dst / "narration", ignore=shutil.ignore_patterns("__pycache__"))
    (dst / "narration" / f"{NEW_LESSON}.yaml").write_text(NEW_LESSON_YAML, encoding="utf-8")
    config = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))
    config["course"]["lessons"] = [*config["course"]["lessons"], NEW_LESSON]
    (dst / "config.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return dst


def child_pytest(course: Path, *args: str) -> subprocess.CompletedProcess:
    """A child pytest on tests/course with ``course`` as the course (one process, no xdist)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COURSEKIT_", "PYTEST_"))}
    env["COURSEKIT_COURSE"] = str(course)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *args, "tests/course"]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def collected(course: Path) -> list[str]:
    """The node ids of tests/course, collected by a child pytest with ``course`` as the course."""
    out = child_pytest(course, "--collect-only")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return [line for line in out.stdout.splitlines() if line.startswith("tests/course/")]


def per_item(nodeids: list[str], items: set[str]) -> dict[str, set[str]]:
    """The test functions whose parameters include every one of ``items`` (they run once per item), each with
    every parameter value it runs for."""
    params: dict[str, set[str]] = {}
    for nodeid in nodeids:
        if nodeid.endswith("]"):
            function, _, ids = nodeid[:-1].partition("[")
            params.setdefault(function, set()).update(ids.split("-"))
    return {f: got for f, got in params.items() if items <= got}


def uncovered(nodeids: list[str], items: set[str], new: str) -> list[str]:
    """The tests that run once per item of ``items`` but not for ``new``: they were given a list of their own."""
    return sorted(f for f, got in per_item(nodeids, items).items() if new not in got)


def test_a_test_given_its_own_list_is_found():
    """The seeded case: a test parametrised by a list typed in it misses the new item, and is named."""
    ids = [
        "tests/course/test_a.py::test_read[one]",
        "tests/course/test_a.py::test_read[two]",
        "tests/course/test_a.py::test_read[three]",
        "tests/course/test_b.py::test_typed[one]",
        "tests/course/test_b.py::test_typed[two]",
        "tests/course/test_b.py::test_length[one-7-13]",
        "tests/course/test_b.py::test_length[two-8-15]",
        "tests/course/test_b.py::test_length[three-5-15]",
        "tests/course/test_b.py::test_plain",
    ]
    assert sorted(per_item(ids, {"one", "two"})) == [
        "tests/course/test_a.py::test_read",
        "tests/course/test_b.py::test_length",
        "tests/course/test_b.py::test_typed",
    ]
    assert uncovered(ids, {"one", "two"}, "three") == ["tests/course/test_b.py::test_typed"]


def test_a_new_lesson_is_collected_by_every_course_wide_test(tmp_path):
    nodeids = collected(course_with_a_new_lesson(tmp_path / "course"))
    lessons, scenes = set(lesson_ids()), set(scene_ids())
    assert NEW_LESSON not in lessons and NEW_SCENE not in scenes
    assert uncovered(nodeids, scenes, NEW_SCENE) == [], "these tests run over a scene list of their own"
    assert uncovered(nodeids, lessons, NEW_LESSON) == [], "these tests run over a lesson list of their own"
    # what there is to cover: the viewer check, the motion words, the timing and typesetting of every scene;
    # the glossary, the glyphs and the length of every lesson
    assert len(per_item(nodeids, scenes)) >= 4 and len(per_item(nodeids, lessons)) >= 3, nodeids


MINI_LESSON, MINI_SCENE = "more_counting", "count_more"
MINI_LESSON_YAML = f"""lesson: {MINI_LESSON}
title: 再数一数
scenes:
  - id: {MINI_SCENE}
    class: CountMore
    title: 再数一次
    source: ["mini course §3"]
    cues:
      - id: again
        text: 再数一次。
"""
MINI_SCENE_PY = f"""from manim import FadeIn, Text

from coursekit.render.narrated_scene import NarratedScene


class CountMore(NarratedScene):
    SCENE_IDS = ("{MINI_SCENE}",)
    CUES = ("again",)

    def construct(self):
        with self.cue("again") as cue:
            self.play(FadeIn(Text("再数", font="Noto Sans CJK SC")), run_time=cue.remaining())
"""
#: the course-wide checks that run once per lesson (on the real course and on the mini course alike)
PER_LESSON_CHECKS = {
    "tests/course/test_coverage.py::test_lesson_length_in_minutes",
    "tests/course/test_glossary.py::test_every_drawn_string_uses_the_glossary",
    "tests/course/test_glyphs.py::test_every_drawn_text_is_in_the_course_font",
}


def mini_course_with_a_new_lesson(dst: Path) -> Path:
    """The fixture course at ``dst`` with MINI_LESSON (one scene, its own module) listed last."""
    copy_mini_course(dst)
    (dst / "narration" / f"{MINI_LESSON}.yaml").write_text(MINI_LESSON_YAML, encoding="utf-8")
    (dst / "scenes" / f"{MINI_SCENE}.py").write_text(MINI_SCENE_PY, encoding="utf-8")
    config = yaml.safe_load((dst / "config.yaml").read_text(encoding="utf-8"))
    config["course"]["lessons"] = [*config["course"]["lessons"], MINI_LESSON]
    (dst / "config.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return dst


def test_a_lesson_added_to_the_fixture_course_is_checked_by_the_course_wide_tests(tmp_path):
    course = mini_course_with_a_new_lesson(tmp_path / "mini")
    nodeids = collected(course)
    assert uncovered(nodeids, {"counting"}, MINI_LESSON) == []
    assert uncovered(nodeids, {"count_dots", "closing"}, MINI_SCENE) == []
    assert PER_LESSON_CHECKS <= set(per_item(nodeids, {"counting", MINI_LESSON}))
    # and they run on it: each test collected for the new lesson or scene runs (none skipped or deselected), and
    # the per-lesson checks read its text and its drawing: a one-cue lesson is far under 5 minutes, and its one
    # drawn string (再数) is below the floor of drawn strings the glossary and glyph checks expect of a lesson
    new = {n for n in nodeids if n.endswith((f"[{MINI_LESSON}]", f"[{MINI_SCENE}]"))}
    out = child_pytest(course, "-rA", "--tb=line", "-k", f"{MINI_LESSON} or {MINI_SCENE}")
    outcome = {
        line.split()[1]: line.split()[0] for line in out.stdout.splitlines() if line.startswith(("PASSED ", "FAILED "))
    }
    assert set(outcome) == new and len(new) >= 7, out.stdout[-3000:]
    failed = {n.partition("[")[0] for n, o in outcome.items() if o == "FAILED"}
    assert PER_LESSON_CHECKS <= failed, out.stdout[-3000:]
    assert f"AssertionError: {MINI_LESSON}: about 0.0 min of speech (5 characters)" in out.stdout
    floor = re.findall(r"/(test_\w+)\.py:\d+: AssertionError: assert 1 > 150", out.stdout)
    assert sorted(floor) == ["test_glossary", "test_glyphs"], out.stdout[-3000:]
