"""Running `render.py` on copies of the mini course (tests/fixtures/mini_course: espeak, 480p15, two short
scenes) for the tests of issue 26: commands side by side, stopped, killed and resumed.

- ``MINI_COURSE`` / ``copy_mini_course(dst)``: the fixture course, and a copy of it to run commands on
  (conftest's ``mini`` fixture: such a copy in the test's tmp_path);
- ``run`` / ``start``: a command on a copy, finished or running (in its own session, so the whole
  group can be killed);
- ``here(monkeypatch, capfd, *argv)``: a command through the command line's entry in the test's own process
  (no new Python, no imports again), with the course it switches to and the environment put back after;
- ``finals(course)``: every final output a viewer gets or a later run reuses, by path, as bytes;
- ``temporaries(course)``: what a run leaves only when it did not finish (temporary names, Manim's
  in-progress marker, the concat listing);
- ``killpoint(tmp, pattern)``: an environment that makes every Python process of the command stop for
  ever just before it renames a temporary file onto a path matching ``pattern`` (a ``sitecustomize``
  on PYTHONPATH, so the voices' worker processes have it too), and the file it writes when it gets there:
  a place to kill it that does not depend on timing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MINI_COURSE = ROOT / "tests" / "fixtures" / "mini_course"
_TEMPORARY = re.compile(r"^\..+\.\d+-\d+\.tmp(\.[^.]+)?$")

FINALS = (
    "plan/15fps/*.json",
    "plan/15fps/scenes/*.json",
    "scenes/low/*.mp4",
    "scenes/low/.*.key",
    "course/counting/*",
    "course/manifest.json",
    "course/index.html",
)


def copy_mini_course(dst: Path) -> Path:
    """A copy of the second, tiny course (tests/fixtures/mini_course) at ``dst``, without caches or media:
    the tests that run commands on it write into the copy, never into the fixture."""
    import shutil

    shutil.copytree(MINI_COURSE, dst, ignore=shutil.ignore_patterns("__pycache__", "media"))
    return dst


#: what a made mini course's media holds beyond what `plan` alone leaves (the audio cache, the lesson's plan and
#: the locks): ``copy_made(made, dst, without=BEYOND_PLAN)`` is a copy of it as `plan` left it
BEYOND_PLAN = ("course", "logs", "manim", "preview", "scenes", "work", "plan/15fps/scenes")


def copy_made(made: Path, dst: Path, without: tuple[str, ...] = ()) -> Path:
    """A copy at ``dst`` of a made mini course (conftest's ``made_mini.course``, read only) with its media but
    for the paths in ``without`` (relative to media/: a folder or a file, at any depth): a course to go on
    from where the quiet commands left it, without running them again."""
    import shutil

    media = made / "media"

    def ignore(folder: str, names: list[str]) -> list[str]:
        here = Path(folder)
        left = [n for n in names if n == "__pycache__"]
        if here == media or media in here.parents:
            rel = here.relative_to(media)
            left += [n for n in names if (rel / n).as_posix() in without]
        return left

    shutil.copytree(made, dst, ignore=ignore)
    return dst


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k not in ("COURSEKIT_COURSE", "COURSEKIT_NARRATION")}
    out.update(extra)
    return out


def run(course: Path, *args: str, timeout: float = 600, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-u", str(ROOT / "render.py"), *args, "--course", str(course)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env(**extra),
        timeout=timeout,
    )


def start(course: Path, *args: str, **extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-u", str(ROOT / "render.py"), *args, "--course", str(course)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(**extra),
        start_new_session=True,
    )


def here(monkeypatch, capfd, *argv: str, **extra: str) -> subprocess.CompletedProcess:
    """`render.py ARGV` run in this process: the command line's entry (``coursekit.cli.main.main``, all that
    render.py runs), from the project's folder, in the environment of :func:`env` plus ``extra``. What it
    changes is put back when the test ends: ``--course`` switches the course straight in ``os.environ``
    (``use_course``, for the processes it starts), so the course variables are set before they are removed
    (a ``delenv`` of an unset variable records nothing to undo), and sys.path is restored. Its exit status and
    output, as a finished process's."""
    from coursekit.cli.main import main

    for name in ("COURSEKIT_COURSE", "COURSEKIT_NARRATION"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    for k, v in extra.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.chdir(ROOT)
    capfd.readouterr()
    code = main(list(argv))
    out, err = capfd.readouterr()
    return subprocess.CompletedProcess(list(argv), code, out, err)


def ok(res: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert res.returncode == 0, (res.returncode, res.stderr[-3000:], res.stdout[-2000:])
    return res


def finals(course: Path) -> dict[str, bytes]:
    media = course / "media"
    found: dict[str, bytes] = {}
    for pattern in FINALS:
        for p in sorted(media.glob(pattern)):
            if p.is_file() and not _TEMPORARY.match(p.name):
                found[p.relative_to(media).as_posix()] = p.read_bytes()
    return found


def temporaries(course: Path) -> list[str]:
    media = course / "media"
    return sorted(
        p.relative_to(media).as_posix()
        for p in media.rglob("*")
        if _TEMPORARY.match(p.name) or p.name == ".render-in-progress" or p.name.endswith(".concat.txt")
    )


SITECUSTOMIZE = '''"""Fault injection for the kill tests: stop for ever just before a matching rename."""
import os, re, time
_pattern = os.environ.get("KILLPOINT_DST")
if _pattern:
    _replace = os.replace
    def replace(src, dst, *args, **kwargs):
        if re.search(_pattern, os.fspath(dst)):
            with open(os.environ["KILLPOINT_MARK"], "a") as fh:
                fh.write(f"{os.getpid()} {os.fspath(src)} -> {os.fspath(dst)}\\n")
            while True:
                time.sleep(1)
        return _replace(src, dst, *args, **kwargs)
    os.replace = replace
'''


def killpoint(tmp: Path, pattern: str) -> tuple[dict[str, str], Path]:
    folder = tmp / "killpoint"
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    mark = folder / "reached"
    mark.unlink(missing_ok=True)
    return {"PYTHONPATH": str(folder), "KILLPOINT_DST": pattern, "KILLPOINT_MARK": str(mark)}, mark


def wait_for(what, timeout: float = 300, every: float = 0.05, why: str = ""):
    """Poll ``what()`` until it returns something true (a hang guard, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(every)
    raise AssertionError(f"gave up waiting: {why}")


MANIM_SITECUSTOMIZE = '''"""Fault injection for the scene kill test: Manim stops for ever in the middle of its Nth animation."""
import os
_nth = int(os.environ.get("KILLPOINT_MANIM_SEGMENT") or 0)
if _nth:
    import importlib.abc, importlib.machinery, sys, time

    def _patch(module):
        writer = module.SceneFileWriter
        close = writer.close_partial_movie_stream
        calls = [0]

        def close_partial_movie_stream(self, *args, **kwargs):
            calls[0] += 1
            if calls[0] == _nth:        # every frame of this animation queued to its encoder, the file not sealed
                job = self._current_encode_job
                with open(os.environ["KILLPOINT_MARK"], "a") as fh:
                    fh.write(f"{os.getpid()} {job.path}\\n")
                while True:
                    time.sleep(1)
            return close(self, *args, **kwargs)

        writer.close_partial_movie_stream = close_partial_movie_stream

    class _Hook(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "manim.scene.scene_file_writer":
                return None
            sys.meta_path.remove(self)
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                _patch(module)

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _Hook())
'''


def manim_killpoint(course: Path, tmp: Path, nth: int) -> tuple[dict[str, str], Path]:
    """An environment that makes the Manim processes of a command on ``course`` stop for ever at the end of
    their ``nth`` animation (every frame of it handed to its encoder, its partial movie not sealed), and the
    file each writes there (its pid and that partial movie's path): a place mid-render to kill it that does
    not depend on timing. Manim runs with the course's root first on its PYTHONPATH
    (``coursekit.render.manim_process.manim_env``), so the ``sitecustomize`` goes there; ``render.py`` itself
    does not have the course's root on its path when Python starts, and without the variable it does nothing."""
    (course / "sitecustomize.py").write_text(MANIM_SITECUSTOMIZE, encoding="utf-8")
    mark = tmp / "manim-killpoint-reached"
    mark.unlink(missing_ok=True)
    return {"KILLPOINT_MANIM_SEGMENT": str(nth), "KILLPOINT_MARK": str(mark)}, mark
