"""Every name read from data that becomes part of a path is a plain name, checked by one helper
(``coursekit.core.paths.plain_name``), which the output folder's layout applies to every part it fills
(issue 41): a lesson id of the delivered manifest that climbs out with ``../`` made ``export bilibili``
write its ``.bcc`` and chapter files at the course root, with exit status 0.

Each refusal is shown on a seeded case: the helper on names that climb or are not one part of a path; the
layout on a lesson id and a scene id; ``export`` of a delivered course whose manifest names a lesson
``../../../evil``, which must end in one line and exit 2 with nothing new anywhere outside the output
folder (the tree listed before and after); a widget kind ``../x``; a lesson id in the config."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from coursekit.core.config import parse_config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.core.paths import NotAPlainName, plain_name
from coursekit.deliver.widgets import load_kind
from tests.engine.deliver.test_export import _export, delivered  # noqa: F401 - the delivered course, a fixture

CLIMBING = ["../evil", "../../../evil", "..", ".", "a/b", "/etc/passwd", "a\\b", "", ".hidden", "x\x00y", "a/../b"]


@pytest.mark.parametrize("name", CLIMBING)
def test_a_name_that_is_not_one_part_of_a_path_is_refused(name):
    with pytest.raises(NotAPlainName) as err:
        plain_name(name, "lesson id", "fix it in the manifest")
    line = str(err.value)
    assert "\n" not in line and line.startswith("lesson id ") and line.endswith("; fix it in the manifest")
    assert isinstance(err.value, UserError) and isinstance(err.value, ValueError)


@pytest.mark.parametrize("name", ["counting", "trig_to_rope", "counting.srt", "a-b", "x" * 200])
def test_a_plain_name_is_kept(name):
    assert plain_name(name, "name") == name


def test_an_id_is_snake_case():
    assert plain_name("count_dots", "scene id", snake_case=True) == "count_dots"
    for name in ("Count", "count-dots", "counting.srt", "1st", 3, None):
        with pytest.raises(NotAPlainName, match="snake_case"):
            plain_name(name, "scene id", snake_case=True)


def test_the_layout_refuses_every_part_that_climbs(tmp_path):
    layout = MediaLayout(tmp_path / "media")
    assert layout.bilibili_subtitles("counting") == tmp_path / "media" / "export" / "bilibili" / "counting.bcc"
    with pytest.raises(NotAPlainName, match="'../../../evil'"):
        layout.bilibili_subtitles("../../../evil")
    with pytest.raises(NotAPlainName):
        layout.lesson_file("../x", ".srt")
    with pytest.raises(NotAPlainName):
        layout.scene_video("../../count_dots", "low")
    with pytest.raises(NotAPlainName):
        layout.scene_videos("../low")


def _outside(root: Path) -> dict[str, bytes]:
    """Every file and folder under ``root`` but the output folder (media/)."""
    return {
        p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else b"/")
        for p in sorted(root.rglob("*"))
        if "media" not in p.relative_to(root).parts
    }


@pytest.mark.parametrize("platform", ["bilibili", "youtube"])
def test_export_of_a_manifest_whose_lesson_id_climbs_out_writes_nothing(
    delivered,  # noqa: F811 - the fixture
    platform,
    tmp_path,
    monkeypatch,
    capsys,
):
    root, _, manifest = delivered
    course = tmp_path / "course" / "deep" / "down"  # deep enough for ../../../ to stay in tmp_path
    shutil.copytree(root / "media" / "course", course / "media" / "course")
    climbing = copy.deepcopy(manifest)
    climbing["lessons"][0]["lesson"] = "../../../evil"
    (course / "media" / "course" / "manifest.json").write_text(json.dumps(climbing, ensure_ascii=False), "utf-8")
    before = _outside(tmp_path)
    code, _, err = _export(monkeypatch, capsys, course, platform)
    assert code == 2, err
    (line,) = err.strip().splitlines()
    assert "'../../../evil'" in line
    assert _outside(tmp_path) == before  # nothing new, nothing changed, outside media/
    assert not (course / "media" / "export").exists()


def test_a_widget_kind_that_climbs_is_refused_before_its_folder_is_looked_at(tmp_path):
    (tmp_path / "x").mkdir()  # widgets/../x exists: only the name refuses it
    for name in ("x/widget.html", "widget.js"):
        (tmp_path / name).write_text("<div id='{{uid}}'></div>", encoding="utf-8")
    with pytest.raises(UserError, match=r"WIDGETS\[0\]: kind '../x' is not a folder name in snake_case"):
        load_kind(tmp_path / "widgets", "../x", "narration/page.py: WIDGETS[0]")


def test_a_config_lesson_id_that_climbs_is_one_line():
    with pytest.raises(UserError) as err:
        parse_config({"course": {"title": "t", "lessons": ["../x"]}})
    assert "lesson id '../x' must be snake_case" in str(err.value) and "\n" not in str(err.value)
