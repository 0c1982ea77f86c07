"""`check` catches what a render would (issue 26): every scene class's CUES and BOOKMARKS against its
narration, each mismatch one `file:line` line; a class that is missing, not a NarratedScene or whose module
does not load; and an error raised while a scene is built reaches the user as one line with exit 2 from
every command that builds scenes (inspect, preview, render, course, studio), never as a traceback.

Run on copies of the mini course (tests/fixtures/mini_course), and once on the main course's own narration
with the bookmark the issue names taken out. Each kind of finding is seen once from the real `render.py
check` (its whole stderr); the other findings of the same kind are read from `check` called in this
process (``check_here``: the command line's entry, ``coursekit.cli.main.main``, with the copy as its course),
and so is the refusal of each other command that builds scenes (``command_here``): `render.py` is that entry
and nothing more, and each of them refuses before it starts a process, so a `render.py` started for each (2 s
of imports) would show nothing more. The error raised while a scene is built is seen from the real commands:
Manim's process is where preview meets it.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import mini_runs

ROOT = Path(__file__).resolve().parents[3]


def errors(res: subprocess.CompletedProcess) -> list[str]:
    """The error lines, after checking that nothing else went to stderr (no traceback)."""
    lines = [l for l in res.stderr.splitlines() if l.strip()]
    assert "Traceback" not in res.stderr, res.stderr[-3000:]
    assert lines and all(l.startswith("error: ") for l in lines), res.stderr[-3000:]
    return lines


def command_here(course: Path, monkeypatch, capfd, *args: str) -> subprocess.CompletedProcess:
    """`render.py ARGS --course COURSE` run in this process (``mini_runs.here``)."""
    return mini_runs.here(monkeypatch, capfd, *args, "--course", str(course))


def check_here(course: Path, monkeypatch, capfd) -> subprocess.CompletedProcess:
    """`render.py check --course COURSE` run in this process (``command_here``)."""
    return command_here(course, monkeypatch, capfd, "check")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture(scope="module")
def without_dots(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """A copy of the mini course whose narration lost the bookmark {@dots}, and `check` run on it (once
    for the module: the line it prints is read by two tests)."""
    course = mini_runs.copy_mini_course(tmp_path_factory.mktemp("without_dots") / "mini")
    edit(course / "narration" / "counting.yaml", "{@dots}", "")
    return course, mini_runs.run(course, "check")


def test_a_missing_bookmark_is_one_line_at_the_cue(without_dots):
    _, res = without_dots
    assert res.returncode == 2
    [line] = errors(res)
    assert (
        "narration/counting.yaml:9: cue 'count_dots.show' places no bookmark {@dots}, which CountDots "
        "waits for (BOOKMARKS at "
        in line
        and "scenes/counting.py:18)" in line
    )


def test_a_renamed_cue_is_one_line_for_the_missing_and_one_for_the_extra(mini, monkeypatch, capfd):
    edit(mini / "narration" / "counting.yaml", "- id: bye", "- id: goodbye")
    res = check_here(mini, monkeypatch, capfd)
    assert res.returncode == 2
    missing, extra = errors(res)
    assert "counting.yaml:18: scene 'closing' has no cue 'bye', which Closing plays (CUES at " in missing
    assert "counting.yaml:24: cue 'closing.goodbye' is not played by Closing" in extra


def test_cues_in_another_order_than_the_class_plays_them(mini, monkeypatch, capfd):
    edit(mini / "scenes" / "counting.py", 'CUES = ("show", "ask", "answer")', 'CUES = ("show", "answer", "ask")')
    [line] = errors(check_here(mini, monkeypatch, capfd))
    assert (
        "counting.yaml:4: scene 'count_dots' narrates its cues in the order show, ask, answer, but CountDots "
        "plays them as show, answer, ask" in line
    )


def test_a_class_that_is_missing_or_not_a_narrated_scene(mini, monkeypatch, capfd):
    edit(mini / "narration" / "counting.yaml", "class: Closing", "class: Closer")
    [line] = errors(mini_runs.run(mini, "check"))
    assert "counting.yaml:18: scene 'closing' names class Closer, but no module in scenes/ defines it" in line
    (mini / "scenes" / "plain.py").write_text("class Closer(object):\n    CUES = ('bye',)\n", encoding="utf-8")
    [line] = errors(check_here(mini, monkeypatch, capfd))
    assert "scenes/plain.py:1: Closer, which scene 'closing' names, is not a NarratedScene" in line


def test_a_scene_module_that_does_not_load(mini):
    edit(mini / "scenes" / "counting.py", 'FONT = "Noto Sans CJK SC"', "FONT = 1 / 0")
    res = mini_runs.run(mini, "check")
    assert res.returncode == 2
    lines = errors(res)
    assert (
        all("scenes/counting.py:12: cannot load the module of scene" in l and "ZeroDivisionError" in l for l in lines)
        and len(lines) == 2
    )


def test_the_issue_case_on_the_main_course(tmp_path, monkeypatch, capfd):
    """`unit_circle.sweep` without its {@at30}: `check` said "config and narration OK" before. (In this
    process: the missing bookmark's line is seen from the real `render.py check` above.)"""
    narration = tmp_path / "narration"
    shutil.copytree(ROOT / "narration", narration, ignore=shutil.ignore_patterns("__pycache__"))
    edit(narration / "trig_to_rope.yaml", "转到{@at30}", "转到")
    res = mini_runs.here(monkeypatch, capfd, "check", COURSEKIT_NARRATION=str(narration))
    assert res.returncode == 2
    assert any(
        "trig_to_rope.yaml:" in l
        and "cue 'unit_circle.sweep' places no bookmark {@at30}, which UnitCirclePointer waits for" in l
        for l in errors(res)
    ), res.stderr


@pytest.mark.parametrize("command", [("preview", "count_dots"), ("render",), ("course",), ("inspect",)])
def test_every_command_that_builds_scenes_refuses_a_mismatch_in_one_line(mini, command, monkeypatch, capfd):
    edit(mini / "narration" / "counting.yaml", "{@dots}", "")
    res = command_here(mini, monkeypatch, capfd, *command)
    assert res.returncode == 2
    [line] = errors(res)
    assert "places no bookmark {@dots}" in line
    assert not (mini / "media" / "scenes").exists() and not (mini / "media" / "preview").exists()


@pytest.mark.render
def test_an_error_while_the_scene_is_built_is_one_line_from_inspect_and_preview(made_mini, tmp_path):
    """A beat that overruns its cue is found only by building the scene: the dry run (inspect) and Manim
    (preview) each end in one line naming the scene's line, exit 2. On a copy of the run's made mini course
    (its plan and narration audio made: only the scene is built again)."""
    mini = tmp_path / "mini"
    shutil.copytree(made_mini.course, mini)
    edit(
        mini / "scenes" / "counting.py",
        "self.play(FadeIn(extra), run_time=cue.remaining())",
        "self.play(FadeIn(extra), run_time=cue.remaining() + 5)",
    )
    for command in (("inspect", "count_dots"), ("preview", "count_dots")):
        res = mini_runs.run(mini, *command)
        assert res.returncode == 2, res.stderr[-2000:]
        [line] = errors(res)
        assert (
            "scenes/counting.py:25: scene 'count_dots'" in line
            and "CueOverrunError: beat count_dots.ask overran its cue" in line
        ), line


STUDIO_BUILD = """
import json, sys
from pathlib import Path
from coursekit.project.project import Project
from coursekit.studio.work import Work
work = Work(Project.open(Path(sys.argv[1])), lambda e: None, lambda: set(), background_checks=False, say=lambda l: None)
event, _ = work.builder.build("count_dots", "test")
print(json.dumps(event))
"""


def test_the_studio_build_shows_the_same_line(without_dots):
    mini, check = without_dots
    [line] = errors(check)
    res = subprocess.run(
        [sys.executable, "-c", STUDIO_BUILD, str(mini)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=mini_runs.env(),
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    event = json.loads(res.stdout.strip().splitlines()[-1])
    assert event["type"] == "error" and event["error"] == line.removeprefix("error: ")
