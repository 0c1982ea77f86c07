"""Two renders of the same scene at once: the second waits for the lock, says so, then finishes cleanly.

On a copy of the made mini course (conftest's made_mini: its plan made, its voice's work done, Manim's cache of
its scenes kept), the preview of its short scene; "the first render" is the test holding the scene's lock."""

import subprocess
import sys
import time
from pathlib import Path

import pytest
from filelock import FileLock

from tests.support import mini_runs
from tests.support.mini_runs import copy_made

pytestmark = pytest.mark.render  # every test here renders video with Manim

ROOT = Path(__file__).resolve().parents[3]
SCENE = "closing"


def test_second_render_waits_and_says_so(made_mini, tmp_path):
    course = copy_made(made_mini.course, tmp_path / "mini", without=("preview", "course"))
    media = course / "media"
    lock_path = media / "manim" / f"{SCENE}.lock"
    holder = FileLock(str(lock_path))
    holder.acquire()  # "the first render" holds the scene
    proc = subprocess.Popen(
        [sys.executable, "-u", "render.py", "preview", SCENE, "--course", str(course)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=mini_runs.env(),
    )
    try:
        seen = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            seen.append(line)
            if "waiting for another render" in line or not line:
                break
        assert any(f"waiting for another render of {SCENE}" in l for l in seen), seen
        time.sleep(1.0)
        assert proc.poll() is None  # still waiting while the lock is held
        holder.release()
        rest = proc.communicate(timeout=600)[0]
    finally:
        holder.release()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, rest
    out = media / "preview" / f"{SCENE}.mp4"
    frames = subprocess.run(
        [
            "ffprobe",
            "-v",
            "error",
            "-count_frames",
            "-select_streams",
            "v:0",
            "-show_entries",
            "stream=nb_read_frames",
            "-of",
            "csv=p=0",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert int(frames) > 0
