"""One version of the sources per run (issue 26): a narration file saved while `render.py course` renders
stops the run with one line naming it, keeps the scene finished before the edit in the scene cache and
delivers nothing; the same command again makes exactly what a quiet run of the edited course makes, and
the manifest records the digest of the sources it was made from.

Both runs go on from the made mini course (conftest's made_mini), the one stopped as `plan` left it (the voice's
work done: it renders both scenes), the quiet one with its scenes too (the edit is closing's: count_dots is
reused, closing is made again from the new text). The stopped run is a real `render.py` process (the edit lands
while its Manim child renders closing, found among its children, and the process ends on its own); the quiet
run and the run again, judged by what they print and leave on disk, go through the command line's entry in this
process (``mini_runs.here``: a new Python spends about 5 s of CPU on its imports before it does anything).
"""

import json
import re

import psutil
import pytest

from tests.support import mini_runs
from tests.support.mini_runs import BEYOND_PLAN, copy_made

pytestmark = pytest.mark.render  # every test here renders video with Manim

OLD, NEW = "今天就到这里。", "今天先到这里。"


def _edit(course):
    path = course / "narration" / "counting.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(OLD, NEW), encoding="utf-8")


def _renders(proc, cls: str) -> bool:
    try:
        return any(cls in c.cmdline() for c in psutil.Process(proc.pid).children(recursive=True))
    except psutil.Error:
        return False


def test_an_edit_saved_during_course_stops_it_and_the_next_run_is_a_quiet_ones(made_mini, tmp_path, monkeypatch, capfd):
    quiet = copy_made(made_mini.course, tmp_path / "quiet", without=("course", "preview", "manim"))
    _edit(quiet)
    mini_runs.ok(mini_runs.here(monkeypatch, capfd, "course", "--jobs", "1", "--course", str(quiet)))

    course = copy_made(made_mini.course, tmp_path / "mini", without=BEYOND_PLAN)
    proc = mini_runs.start(course, "course", "--jobs", "1")  # count_dots, then closing
    try:
        mini_runs.wait_for(
            lambda: _renders(proc, "Closing") or proc.poll() is not None, why="the second scene to start rendering"
        )
        _edit(course)  # saved while closing renders
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = [l for l in err.splitlines() if l.strip()]
    assert proc.returncode == 2 and len(lines) == 1, err[-2000:]
    assert lines[0] == (
        "error: sources changed during the run: narration/counting.yaml; run again (every scene "
        "finished before the edit is kept in the scene cache)"
    )
    media = course / "media"
    assert (media / "scenes" / "low" / "count_dots.mp4").is_file()  # finished before the edit: kept
    assert not (media / "scenes" / "low" / "closing.mp4").exists()  # made from the old text: not kept
    assert not (media / "course").exists()  # nothing delivered
    assert mini_runs.temporaries(course) == []

    again = mini_runs.ok(mini_runs.here(monkeypatch, capfd, "course", "--jobs", "1", "--course", str(course)))
    assert "count_dots: unchanged, reused" in again.stdout
    assert mini_runs.finals(course) == mini_runs.finals(quiet)
    manifest = json.loads((media / "course" / "manifest.json").read_text(encoding="utf-8"))
    assert re.fullmatch(r"[0-9a-f]{64}", manifest["sources"]["digest"]) and manifest["sources"]["files"] > 10
    assert f"from sources {manifest['sources']['digest'][:12]}" in again.stdout
