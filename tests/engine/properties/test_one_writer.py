"""One writer per output (issue 26): two commands on one output folder at once, on copies of the mini course.

`plan` beside `course` and `subtitles` beside `course` wait for the course's run, saying for whom and for
what; two `preview`s of one scene make it once. Meanwhile a reader keeps reading the plan and the subtitle
files: none is ever read half-written. The delivered files, plans and subtitle files equal those of a quiet
run. The course lock itself: a second holder waits and names the first; one thread may nest it.

The commands run on copies of the made mini course (conftest's made_mini) as `plan` left it (its voice's work
done), and beside `course` with one scene (count_dots) in the scene cache as well: the course's run renders the
other scene (closing), holding the plan's lock all along, and assembles the lesson (and, beside `plan`, writes
the lesson's plan first, from the cached audio, while the reader reads).
"""

import json
import re
import threading
import time
from pathlib import Path

import pytest
import srt

from coursekit.core.locks import course_lock
from tests.support import mini_runs
from tests.support.mini_runs import BEYOND_PLAN, copy_made

#: the made mini course's outputs left out of the copies the course's run goes on from: closing to render
BESIDE_COURSE = (
    "course",
    "preview",
    "manim",
    "scenes/low/closing.mp4",
    "scenes/low/.closing.mp4.key",
    "plan/15fps/scenes/closing.json",
)


@pytest.fixture(scope="module")
def quiet(made_mini):
    """A quiet run's finals: after `course`, after `subtitles` too, and a quiet `preview closing`."""
    return made_mini.after_course, made_mini.after_subtitles, made_mini.preview


class Reader(threading.Thread):
    """Reads the plan and the subtitle files over and over while commands run; every read must parse whole."""

    def __init__(self, course: Path) -> None:
        super().__init__(daemon=True)
        self.media = course / "media"
        self.stop = threading.Event()
        self.reads = 0
        self.bad: list[str] = []

    def run(self) -> None:
        files = [
            self.media / "plan" / "15fps" / "counting.json",
            self.media / "course" / "counting" / "counting.srt",
            self.media / "course" / "counting" / "counting.vtt",
            self.media / "course" / "manifest.json",
        ]
        while not self.stop.is_set():
            for f in files:
                try:
                    text = f.read_text(encoding="utf-8")
                except FileNotFoundError:
                    continue
                try:
                    if f.suffix == ".json":
                        json.loads(text)
                    elif f.suffix == ".srt":
                        assert list(srt.parse(text))
                    else:
                        assert text.startswith("WEBVTT") and "-->" in text
                    self.reads += 1
                except Exception as exc:  # noqa: BLE001 - recorded, asserted after
                    self.bad.append(f"{f.name}: {type(exc).__name__}")
            time.sleep(0.005)


def _rendering(proc) -> bool:
    """Whether the command runs a Manim process now."""
    import psutil

    try:
        return any("manim" in " ".join(c.cmdline()) for c in psutil.Process(proc.pid).children(recursive=True))
    except psutil.Error:
        return False


def _beside_course(course: Path, *second: str) -> tuple[str, str]:
    """Start `course`; while it renders, run ``second``; return both outputs (stdout + stderr)."""
    reader = Reader(course)
    reader.start()
    first = mini_runs.start(course, "course")
    try:
        mini_runs.wait_for(lambda: _rendering(first) or first.poll() is not None, why="course to render")
        assert first.poll() is None, first.communicate()[1][-2000:]
        other = mini_runs.run(course, *second)
        out, err = first.communicate(timeout=600)
    finally:
        if first.poll() is None:
            first.kill()
        reader.stop.set()
        reader.join(10)
    assert first.returncode == 0, err[-2000:]
    mini_runs.ok(other)
    assert reader.reads > 0 and reader.bad == [], reader.bad
    return out + err, other.stdout + other.stderr


@pytest.mark.render
def test_plan_beside_course_waits_for_it(made_mini, quiet, tmp_path):
    course = copy_made(made_mini.course, tmp_path / "mini", without=BESIDE_COURSE + ("plan/15fps/counting.json",))
    _, said = _beside_course(course, "plan")
    assert re.search(
        r"waiting for render\.py course \(pid \d+\) to finish with the plan of lesson counting at "
        r"15 fps …",
        said,
    ), said
    assert mini_runs.finals(course) == quiet[0]


@pytest.mark.render
def test_subtitles_beside_course_waits_for_it(made_mini, quiet, tmp_path):
    course = copy_made(made_mini.course, tmp_path / "mini", without=BESIDE_COURSE)  # with a plan: subtitles needs one
    _, said = _beside_course(course, "subtitles")
    assert re.search(r"waiting for render\.py course \(pid \d+\) to finish with the plan of lesson counting", said), (
        said
    )
    assert mini_runs.finals(course) == quiet[1]


@pytest.mark.render
def test_two_previews_of_one_scene(made_mini, quiet, tmp_path):
    # as `plan` left it, the voice's work done: both previews start together
    course = copy_made(made_mini.course, tmp_path / "mini", without=BEYOND_PLAN)
    procs = [mini_runs.start(course, "preview", "closing") for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [e[-1500:] for _, e in outs]
    said = "".join(o + e for o, e in outs)
    assert re.search(
        r"waiting for render\.py preview \(pid \d+\) to finish with (the plan of lesson counting|"
        r"writing media/preview/closing\.mp4)",
        said,
    ), said
    for name, data in quiet[2].items():
        assert (course / "media" / "preview" / name).read_bytes() == data, name
    assert mini_runs.temporaries(course) == []


def test_a_course_lock_is_waited_for_and_names_its_holder(tmp_path):
    said: list[str] = []
    holding, release, got = threading.Event(), threading.Event(), threading.Event()

    def first():
        with course_lock(tmp_path, "plan-15fps-x", "the plan of lesson x"):
            with course_lock(tmp_path, "plan-15fps-x", "the plan of lesson x"):  # nested in one thread
                holding.set()
                release.wait(10)

    def second():
        with course_lock(tmp_path, "plan-15fps-x", "the plan of lesson x", said.append):
            got.set()

    a = threading.Thread(target=first)
    a.start()
    assert holding.wait(10)
    b = threading.Thread(target=second)
    b.start()
    mini_runs.wait_for(lambda: said, timeout=10, why="the second holder to say it waits")
    assert not got.is_set()
    assert re.fullmatch(r"waiting for .+ \(pid \d+, this process\) to finish with the plan of lesson x …", said[0])
    release.set()
    a.join(10)
    b.join(10)
    assert got.is_set() and len(said) == 1
