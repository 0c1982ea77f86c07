"""Stopping stops everything (issue 26): SIGTERM or SIGINT sent to `render.py course` alone (not its process
group, as a process manager, `timeout` or a cancelled CI job sends it) while two scene jobs render ends
every process it started (Manim, ffmpeg, the voice's workers), leaves no temporary file and keeps the
finished outputs; it exits 143 or 130 with one line. The next run makes what a quiet run makes (conftest's
made_mini: the mini course's quiet `course`).

Each stopped run goes on from a copy of the made mini course as `plan` left it, its lesson's plan taken out
too: the voice's work is in the audio cache, so the run writes the plan itself (its finished output before
the signal) without synthesising again, and then renders both scenes. The voice's worker processes end
before the first scene job starts (``coursekit.speech.synthesis``: the pool is shut down when synthesis
ends), so a run that synthesised first would have no other process running at the signal.
"""

import os
import signal

import psutil
import pytest

from tests.support import mini_runs
from tests.support.mini_runs import BEYOND_PLAN, copy_made

pytestmark = pytest.mark.render  # every test here renders video with Manim


@pytest.fixture(scope="module")
def quiet(made_mini):
    """A quiet run's finals: made_mini's `course` (one scene job per core: two on two cores; how many run at
    once changes no byte of what it makes, which the comparison with a `--jobs 2` run below checks too)."""
    return made_mini.after_course


def _manims(proc) -> list[psutil.Process]:
    try:
        return [c for c in psutil.Process(proc.pid).children(recursive=True) if "manim" in " ".join(c.cmdline())]
    except psutil.Error:
        return []


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_course_with_two_jobs_running_stops_everything(made_mini, quiet, tmp_path, sig):
    """Both signals: their exit status and line, every process ended, nothing half-made left. The run after
    the stop is made once, after SIGTERM: both signals go through the one handler
    (coursekit.core.stopping._on_signal) and leave what the checks before it see, so a second full
    `course` after SIGINT would repeat the first."""
    course = copy_made(made_mini.course, tmp_path / "mini", without=BEYOND_PLAN + ("plan/15fps/counting.json",))
    plan = course / "media" / "plan" / "15fps" / "counting.json"
    assert not plan.exists()  # the run writes it
    proc = mini_runs.start(course, "course", "--jobs", "2")
    started: set[int] = set()
    try:

        def two_rendering():
            found = _manims(proc)
            started.update(c.pid for c in psutil.Process(proc.pid).children(recursive=True)) if found else None
            return len(found) >= 2 or proc.poll() is not None

        mini_runs.wait_for(two_rendering, why="two scene jobs to render")
        assert proc.poll() is None and len(_manims(proc)) >= 2
        assert plan.is_file()  # a finished output before the signal
        os.kill(proc.pid, sig)  # the command alone, not its group
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    lines = [l for l in err.splitlines() if l.strip()]
    assert proc.returncode == 128 + sig, err[-2000:]
    assert len(lines) == 1 and lines[0].startswith(
        f"stopped by {sig.name}: every render, encoder and voice process it started was ended"
    ), err[-2000:]
    mini_runs.wait_for(
        lambda: not any(_running(p) for p in started), timeout=30, why="the stopped command's processes to be gone"
    )
    assert mini_runs.temporaries(course) == []
    assert plan.read_bytes() == quiet["plan/15fps/counting.json"]
    assert not (course / "media" / "course").exists()
    for manim in (course / "media" / "manim").iterdir():  # nothing half-made left for Manim to reuse
        assert not manim.is_dir() or not any(p.is_dir() for p in manim.iterdir()), list(manim.iterdir())

    if sig == signal.SIGTERM:
        mini_runs.ok(mini_runs.run(course, "course", "--jobs", "2"))
        assert mini_runs.finals(course) == quiet
