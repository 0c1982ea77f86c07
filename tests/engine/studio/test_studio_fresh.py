"""The studio's idea of "fresh" (issue 26): what a plan and a preview depend on is one list
(``coursekit.core.sources``: ``plan_inputs``, ``dependency_files``, ``preview_inputs``), used by
``preview --watch``, the studio's fresh/stale state and the scene cache. An edit to the course's math,
which the figures compute with but the scene does not import, makes the scene's preview stale.

On a copy of the mini course whose figures import a package of its own (``countmath``), in a child
process (the studio's work changes the process's course root).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import mini_runs
from tests.support.mini_runs import copy_mini_course

ROOT = Path(__file__).resolve().parents[3]

STATUS = """
import json, sys
from pathlib import Path
course_dir = Path(sys.argv[1])
from coursekit.project.project import Project
from coursekit.studio.work import Work
from coursekit.render.scene_cache import remember
work = Work(Project.open(course_dir), lambda e: None, lambda: set(), background_checks=False, say=lambda l: None)
course = work.course()
scene = work.builder.plan("counting").scene("count_dots")
mp4 = work.preview_path("count_dots")                 # a preview made from this plan and code
mp4.parent.mkdir(parents=True, exist_ok=True)
mp4.write_bytes(b"a preview")
remember(mp4, work.fresh.scene_key(scene))
before = work.status.refresh("count_dots")["preview"]
math = course_dir / "countmath" / "__init__.py"
math.write_text(math.read_text().replace("DOTS = 3", "DOTS = 4"))   # the narration now quotes 4 dots
work.file_changed(math)                               # what the watcher does after an edit
after = work.status.refresh("count_dots")["preview"]
print(json.dumps([before, after]))
"""


@pytest.fixture
def mini(tmp_path):
    course = copy_mini_course(tmp_path / "mini")
    (course / "countmath").mkdir()
    (course / "countmath" / "__init__.py").write_text("DOTS = 3\n", encoding="utf-8")
    figures = course / "narration" / "figures.py"
    figures.write_text(
        figures.read_text(encoding="utf-8").replace("DOTS = 3   # what the scene draws", "from countmath import DOTS"),
        encoding="utf-8",
    )
    return course


def test_an_edit_to_the_course_math_makes_the_preview_stale(mini):
    res = subprocess.run(
        [sys.executable, "-c", STATUS, str(mini)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=mini_runs.env(),
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    assert json.loads(res.stdout.strip().splitlines()[-1]) == ["fresh", "stale"]


LISTS = """
import json, sys
from pathlib import Path
course_dir = Path(sys.argv[1])
from coursekit.core.sources import dependency_files, plan_inputs, preview_inputs
from coursekit.studio.work import Work
from coursekit.project.project import Project
lesson, module = course_dir / "narration" / "counting.yaml", course_dir / "scenes" / "counting.py"
work = Work(Project.open(course_dir), lambda e: None, lambda: set(), background_checks=False, say=lambda l: None)
watched = work.watched_paths()
print(json.dumps({"plan": [str(p) for p in plan_inputs(lesson)], "deps": [str(p) for p in dependency_files(module)],
                  "preview": [str(p) for p in preview_inputs(module, lesson)],
                  "studio": sorted(str(p) for p in work._watch["count_dots"]), "all": sorted(map(str, watched))}))
"""


def test_watch_studio_and_scene_cache_share_one_list(mini):
    res = subprocess.run(
        [sys.executable, "-c", LISTS, str(mini)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=mini_runs.env(),
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    got = json.loads(res.stdout.strip().splitlines()[-1])
    course = mini.resolve()
    names = {p.replace(str(course) + "/", "") for p in got["plan"]}
    assert {
        "narration/counting.yaml",
        "narration/lexicon.yaml",
        "narration/figures.py",
        "config.yaml",
        "countmath/__init__.py",
        "scenes/counting.py",
    } <= names
    assert set(got["preview"]) == set(got["plan"]) | set(got["deps"])
    assert got["studio"] == sorted(got["preview"])
    assert str(course / "countmath" / "__init__.py") in got["all"]
