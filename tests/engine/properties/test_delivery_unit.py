"""A failed command leaves every delivered file as it was (issue 41). Before, a missing widget file or a
widget kind like ``../x`` was found after every scene had rendered, and that failed run rewrote the delivered
manifest while the old page stayed: the delivery no longer agreed with itself.

- ``course`` checks the page's widgets in its validation pass, before any scene renders: one line, exit 2,
  no scene video made, the delivered files byte for byte as they were;
- ``assemble_course`` makes each lesson's files beside the delivery (in its work folder) and the page from
  the new manifest before anything delivered changes: a page that cannot be made (here: one that raises)
  leaves every delivered file as it was; on success the manifest is written last."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from coursekit.assemble.lesson_video import assemble_course
from coursekit.content.narration import Course
from coursekit.core.config import parse_config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.core.paths import COURSE_ENV
from coursekit.deliver.page import page_for
from tests.engine.deliver.test_export import _plan, delivered  # noqa: F401 - the delivered course, a fixture
from tests.support import mini_runs


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _fake_delivery(course: Path) -> dict[str, bytes]:
    """A delivered course as an earlier run left it (its files' bytes are all that is compared)."""
    folder = course / "media" / "course"
    (folder / "counting").mkdir(parents=True)
    for name, text in {"manifest.json": '{"old": 1}', "index.html": "<p>old</p>", "counting/counting.srt": "1"}.items():
        (folder / name).write_text(text, encoding="utf-8")
    return files_of(folder)


def _missing_script(course: Path) -> str:
    (course / "widgets" / "dot_counter" / "widget.js").unlink()
    return "widgets/dot_counter/widget.js: missing"


def _climbing_kind(course: Path) -> str:
    page = course / "narration" / "page.py"
    page.write_text(page.read_text(encoding="utf-8").replace('"kind": "dot_counter"', '"kind": "../x"'), "utf-8")
    return "WIDGETS[0]: kind '../x' is not a folder name in snake_case"


def _unknown_lesson(course: Path) -> str:
    page = course / "narration" / "page.py"
    page.write_text(page.read_text(encoding="utf-8").replace('"lesson": "counting"', '"lesson": "countng"'), "utf-8")
    return "WIDGETS[0]: lesson 'countng' is not a lesson of the course"


@pytest.mark.parametrize("broken", [_missing_script, _climbing_kind, _unknown_lesson])
def test_a_failing_widget_is_found_before_any_scene_renders(broken, tmp_path, monkeypatch, capfd):
    course = mini_runs.copy_mini_course(tmp_path / "mini")
    before = _fake_delivery(course)
    expect = broken(course)
    res = mini_runs.here(monkeypatch, capfd, "course", "--voice", "silent", "--course", str(course))
    assert res.returncode == 2, res.stderr[-2000:]
    (line,) = res.stderr.strip().splitlines()
    assert expect in line and "Traceback" not in res.stderr
    assert files_of(course / "media" / "course") == before
    assert not list((course / "media").rglob("*.mp4")) and not (course / "media" / "plan").exists()


@pytest.fixture
def course_root(delivered, tmp_path, monkeypatch):  # noqa: F811
    """A copy of test_export's delivered course (its scene videos, its delivery), the course of this process."""
    root, _, _ = delivered
    copy = tmp_path / "root"
    shutil.copytree(root, copy)
    monkeypatch.setenv(COURSE_ENV, str(copy))
    return copy


def test_a_page_that_cannot_be_made_leaves_every_delivered_file_as_it_was(course_root):
    before = files_of(course_root / "media" / "course")

    def refuse(manifest: dict) -> dict:
        raise UserError("the page refuses it")

    with pytest.raises(UserError, match="the page refuses it"):
        assemble_course(
            parse_config({"video": {"quality": "low"}}),
            MediaLayout(course_root / "media"),
            Course(),
            [_plan()],
            page=refuse,
        )
    assert files_of(course_root / "media" / "course") == before


def test_assembly_puts_the_lessons_and_the_page_in_place_and_the_manifest_last(course_root):
    folder = course_root / "media" / "course"
    (folder / "index.html").unlink(missing_ok=True)
    made = assemble_course(
        parse_config({"video": {"quality": "low"}}),
        MediaLayout(course_root / "media"),
        Course(),
        [_plan()],
        page=page_for(folder, widgets=[]),
    )
    manifest = folder / "manifest.json"
    assert made[-1] == manifest and (folder / "index.html").is_file()
    last = max(os.stat(p).st_mtime_ns for p in made[:-1])
    assert manifest.stat().st_mtime_ns >= last
    assert all(folder in p.parents for p in made), made  # nothing left in the staging folder is listed
    assert not any((course_root / "media" / "work").rglob("delivery/*"))
