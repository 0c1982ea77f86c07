"""A lesson added to the course is tested with no test edited: the course tests take their lessons and scenes
from the course (``tests.support.course_text``: config.yaml's lessons and their narration), never from a list
typed in a test.

The course's config.yaml and narration/ are copied with one more lesson, and tests/course is collected on the
copy (``COURSEKIT_COURSE``) by a child pytest: every test that runs once per scene of the real course runs for
the new lesson's scene too, and every test that runs once per lesson, for the new lesson.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.support.course_text import lesson_ids, scene_ids

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


def collected(course: Path) -> list[str]:
    """The node ids of tests/course, collected by a child pytest with ``course`` as the course."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COURSEKIT_", "PYTEST_"))}
    env["COURSEKIT_COURSE"] = str(course)
    cmd = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", "tests/course"]
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
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
