"""File locks that say what they wait for: one writer per output, across every command and thread.

- ``waiting_lock(path, holder)``: hold the lock file ``path``; if another process holds it, say
  ``waiting for {holder} to finish …`` once and wait (a scene's Manim folder uses it).
- ``course_lock(output_dir, name, what)``: a *course lock*, ``<output>/locks/<name>.lock``, held by
  every command while it writes (or reads, and needs unchanged) the files the name stands for. The
  holder leaves a note beside the lock (``<name>.holder``: its pid and command), so a second command
  says whom it waits for: ``waiting for render.py course (pid 4242) to finish with the plan of lesson
  counting at 15 fps …``. A thread that already holds a course lock may take it again (nested use by
  one command); other threads and processes wait. The names (``coursekit.core.locks.names``): the plan
  of one lesson at one frame rate, the course's delivered files (``media/course/``), and one rendered
  output file (a scene video, a preview).

The locks are flock(2) locks (filelock): a killed holder's lock is released by the kernel, so a
stale lock never blocks the next run. Waiting polls, so SIGTERM and Ctrl-C stop a waiting command.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from coursekit.core.atomic import process_running, write_text
from coursekit.core.layout import MediaLayout

_held = threading.local()  # names of the course locks this thread holds, with their depth


@contextmanager
def waiting_lock(path: Path | str, holder: str, say: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the lock file ``path``; if another process holds it, say ``waiting for {holder} to finish …``
    once and wait for it."""
    lock = FileLock(str(path))
    _acquire(lock, say, lambda: f"waiting for {holder} to finish …")
    try:
        yield
    finally:
        lock.release()


def _acquire(lock: FileLock, say: Callable[[str], None] | None, waiting: Callable[[], str]) -> None:
    """Take ``lock``; when another process holds it, say the ``waiting`` line once and wait for it."""
    try:
        lock.acquire(timeout=0)
    except Timeout:
        (say or (lambda line: print(line, flush=True)))(waiting())
        lock.acquire()


class names:
    """The course locks' names."""

    @staticmethod
    def plan(lesson: str, fps: int) -> str:
        return f"plan-{fps}fps-{lesson}"

    @staticmethod
    def course() -> str:
        return "course"

    @staticmethod
    def output(output_dir: Path, path: Path) -> str:
        """The lock of one output file, by its path under the output folder."""
        try:
            rel = Path(path).resolve().relative_to(Path(output_dir).resolve())
        except ValueError:
            rel = Path(Path(path).name)
        return "file-" + "-".join(rel.parts)


def this_command() -> str:
    """How the running command is named to someone who waits for it: ``render.py course``."""
    argv = [a for a in sys.argv if a]
    if not argv:
        return "another command"
    words = [os.path.basename(argv[0])] + [a for a in argv[1:2] if not a.startswith("-")]
    return " ".join(words)


def _holder(note: Path) -> str:
    """Who holds a course lock, from its note, or "another command"."""
    try:
        doc = json.loads(note.read_text(encoding="utf-8"))
        pid = int(doc["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return "another command"
    if not process_running(pid):
        return "another command"
    who = doc.get("command") or "another command"
    return f"{who} (pid {pid}{', this process' if pid == os.getpid() else ''})"


def _write_note(note: Path) -> None:
    try:
        write_text(note, json.dumps({"pid": os.getpid(), "command": this_command()}) + "\n")
    except OSError:
        pass  # the note only names the holder; the lock itself is held


def holds(name: str) -> bool:
    """Whether this thread holds the course lock ``name``."""
    return getattr(_held, "depth", {}).get(name, 0) > 0


@contextmanager
def course_lock(output_dir: Path, name: str, what: str, say: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the course lock ``name`` (see the module docstring); while another command (or thread)
    holds it, say once ``waiting for <holder> to finish with <what> …`` and wait."""
    depth = getattr(_held, "depth", None)
    if depth is None:
        depth = _held.depth = {}
    if depth.get(name, 0) > 0:  # this thread holds it already
        depth[name] += 1
        try:
            yield
        finally:
            depth[name] -= 1
        return
    layout = MediaLayout(output_dir)
    layout.locks.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(layout.course_lock(name)))
    note = layout.course_lock_note(name)
    _acquire(lock, say, lambda: f"waiting for {_holder(note)} to finish with {what} …")
    try:
        _write_note(note)
        depth[name] = 1
        try:
            yield
        finally:
            depth[name] = 0
    finally:
        lock.release()
