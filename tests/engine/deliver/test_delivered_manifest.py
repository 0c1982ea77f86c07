"""The delivered course read back from disk (issue 41): the manifest has a schema
(``coursekit.deliver.manifest``, pydantic), and a damaged one (a NaN duration, a value of the wrong type, an
id that climbs) is one line naming the file, the place in it and the fix, with exit status 2; a delivered
SRT or WebVTT file that is not UTF-8 is one line too, for ``export`` and for ``serve`` (which checks the
delivery before it serves it). Before, a NaN duration and a non-UTF-8 SRT ended in a traceback, and
``serve`` served a course whose VTT no browser could read.

The manifest ``assemble_course`` writes is of the schema (the ``delivered`` course of test_export), so the
schema is checked against what assembly makes, not only against itself."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coursekit.core.errors import UserError
from coursekit.core.paths import COURSE_ENV
from coursekit.deliver.manifest import checked, read_manifest, read_subtitles
from tests.engine.deliver.test_export import LESSON, _export, delivered  # noqa: F401 - the delivered course, a fixture

ROOT = Path(__file__).resolve().parents[3]


def test_what_assembly_writes_is_of_the_schema(delivered):  # noqa: F811
    root, plan, manifest = delivered
    read = read_manifest(root / "media" / "course" / "manifest.json")
    assert read.model_dump(exclude_unset=True) == manifest
    assert [l.lesson for l in read.lessons] == [plan.lesson]


def _damaged(root: Path, tmp: Path, change) -> Path:
    course = tmp / "course"
    shutil.copytree(root / "media" / "course", course / "media" / "course")
    path = course / "media" / "course" / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")  # NaN is written as NaN
    return course


def _set(key, value, at=("lessons", 0)):
    def change(data):
        node = data
        for part in at:
            node = node[part]
        node[key] = value

    return change


DAMAGED = [
    ("nan_duration", _set("duration_s", float("nan")), "lesson 1 (trig_to_rope): duration_s: nan is not a finite"),
    ("inf_duration", _set("duration_s", float("inf")), "duration_s: inf is not a finite number"),
    ("fps_as_text", _set("fps", "fifteen"), "lesson 1 (trig_to_rope): fps: input should be a valid integer"),
    ("chapters_as_text", _set("chapters", "none"), "chapters: input should be a valid list"),
    ("chapter_time_negative", _set("start_ms", -5, ("lessons", 0, "chapters", 1)), "chapter 2: start_ms"),
    ("subtitle_time_as_float", _set("end_ms", 1.5, ("lessons", 0, "subtitles", 0)), "subtitle 1: end_ms"),
    ("lesson_id_climbs", _set("lesson", "../x"), "lesson: lesson id '../x' must be snake_case"),
    ("scene_id_climbs", _set("scenes", ["a/b"]), "scene id 'a/b' must be snake_case"),
    ("file_climbs", _set("files", ["course/../../x.mp4"]), "a delivered file's name '..'"),
    ("unknown_key", _set("lesons", []), "lesons: not a key of the manifest"),
    ("lessons_missing", lambda d: d.pop("lessons"), "lessons: missing"),
    ("top_is_a_list", None, "the manifest must be a JSON object, not list"),
]


@pytest.mark.parametrize("case", DAMAGED, ids=[c[0] for c in DAMAGED])
def test_a_damaged_manifest_is_one_line_and_exit_2(delivered, case, tmp_path, monkeypatch, capsys):  # noqa: F811
    name, change, expect = case
    root, _, manifest = delivered
    if change is None:
        course = _damaged(root, tmp_path, lambda d: None)
        (course / "media" / "course" / "manifest.json").write_text(json.dumps([manifest]), encoding="utf-8")
    else:
        course = _damaged(root, tmp_path, change)
    code, _, err = _export(monkeypatch, capsys, course, "bilibili")
    assert code == 2, err
    (line,) = err.strip().splitlines()
    assert "Traceback" not in err and line.startswith("error: media/course/manifest.json: ")
    assert expect in line and line.endswith(
        "run: python render.py course (it delivers the course and writes its manifest)"
    )
    assert not (course / "media" / "export").exists()


def test_checked_names_the_source_and_the_place():
    good = {"title": "t", "font": "f", "quality": "low", "lessons": []}
    assert checked(good).lessons == []
    with pytest.raises(UserError, match=r"^made: quality: input should be a valid string; run: python render.py"):
        checked({**good, "quality": 3}, "made")


def _not_utf8(course: Path, suffix: str) -> Path:
    path = course / "media" / "course" / LESSON / f"{LESSON}.{suffix}"
    data = path.read_bytes()
    first = data.index("第".encode())  # a subtitle's first character, its bytes made invalid
    path.write_bytes(data[:first] + b"\xff\xfe" + data[first + 2 :])
    return path


def test_a_delivered_srt_that_is_not_utf8_is_one_line(delivered, tmp_path, monkeypatch, capsys):  # noqa: F811
    root, _, _ = delivered
    course = _damaged(root, tmp_path, lambda d: None)
    path = _not_utf8(course, "srt")
    code, _, err = _export(monkeypatch, capsys, course, "youtube")
    assert code == 2, err
    (line,) = err.strip().splitlines()
    assert f"media/course/{LESSON}/{LESSON}.srt: byte " in line and "is not UTF-8, so it is not SubRip" in line
    assert not (course / "media" / "export").exists()
    with pytest.raises(UserError, match="is not UTF-8"):
        read_subtitles(path)


def test_serve_refuses_a_delivered_vtt_that_is_not_utf8(delivered, tmp_path):  # noqa: F811
    """As a real process: before, it served the course (and so ran until the timeout)."""
    import os
    import socket

    with socket.socket() as s:  # a free port: the refusal comes before the server binds it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root, _, _ = delivered
    course = _damaged(root, tmp_path, lambda d: None)
    _not_utf8(course, "vtt")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "render.py"), "serve", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, COURSE_ENV: str(course)},
        capture_output=True,
        text=True,
        timeout=60,  # before: it served the course (until this timeout)
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    (line,) = proc.stderr.strip().splitlines()
    assert f"media/course/{LESSON}/{LESSON}.vtt: byte " in line and "not WebVTT subtitles" in line


def test_the_readers_give_the_events_of_the_delivered_files(delivered):  # noqa: F811
    root, _, manifest = delivered
    folder = root / "media" / "course" / LESSON
    events = [(e["start_ms"], e["end_ms"]) for e in manifest["lessons"][0]["subtitles"]]
    assert [(a, b) for a, b, _ in read_subtitles(folder / f"{LESSON}.srt")] == events
    assert [(a, b) for a, b, _ in read_subtitles(folder / f"{LESSON}.vtt")] == events
    broken = copy.deepcopy((folder / f"{LESSON}.srt").read_text(encoding="utf-8")).replace("-->", "->", 1)
    (Path(root) / "broken.srt").write_text(broken, encoding="utf-8")
    with pytest.raises(UserError, match="broken.srt: not SubRip subtitles"):
        read_subtitles(Path(root) / "broken.srt")
    (Path(root) / "broken.srt").unlink()
