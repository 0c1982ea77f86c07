"""What a command writes under the output folder: checked before it starts, swept of what killed runs
left, and locked while it writes.

- ``prepare(layout, output, command)``: the output folder and each folder under it the command writes
  into must be folders that can be written (one line otherwise, before any work); temporary files left
  by a process that no longer runs (a run killed with SIGKILL) are removed.
- ``plan_locks(layout, fps, lessons)``: the course locks of the lessons' plans at ``fps``, taken in one
  order (sorted) so two commands never wait for each other in a circle; every command that plans holds
  them while it writes the plans (``course`` and ``render`` for their whole run: what they deliver must
  stay what the plan says).
- ``course_files_lock(layout)``: the lock of ``media/course/`` (assembly, ``subtitles``, ``export``).

Lock order, for every command: plans, then the course's files, then one output file, then a scene's
Manim folder.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from coursekit.core.atomic import sweep_stale
from coursekit.core.layout import MediaLayout
from coursekit.core.locks import course_lock, names
from coursekit.core.paths import writable_folder

#: the folders under the output folder each command writes into, by their names in the layout
#: (``coursekit.core.layout.MediaLayout``'s attributes)
WRITES: dict[str, tuple[str, ...]] = {
    "plan": ("plans", "audio_cache", "locks"),
    "subtitles": ("course", "locks"),
    "listen": ("plans", "audio_cache", "previews", "locks"),
    "preview": ("plans", "audio_cache", "previews", "manim", "work", "locks"),
    "inspect": ("plans", "audio_cache", "inspect", "locks"),
    "render": ("plans", "audio_cache", "scenes", "manim", "work", "logs", "locks"),
    "course": ("plans", "audio_cache", "scenes", "manim", "work", "logs", "course", "locks"),
    "studio": ("plans", "audio_cache", "previews", "manim", "work", "studio", "inspect", "locks"),
    "check": ("audio_cache", "transcripts", "locks"),
    "export": ("exports", "locks"),
    "clean": (),
}


def prepare(layout: MediaLayout, output: str, command: str, also: tuple[Path, ...] | list[Path] = ()) -> None:
    """Check the folders ``command`` writes (``WRITES``, and ``also``: folders under the output folder
    such as ``layout.lesson_dir(lesson)``) and sweep stale temporary files (module docstring). ``output``
    is the folder as config.yaml names it, for the message."""
    fix = "set output in config.yaml to another folder"
    writable_folder(layout.root, f"output folder ({output})", fix)
    for folder in (*(getattr(layout, name) for name in WRITES.get(command, ())), *also):
        writable_folder(folder, f"output folder ({output})", fix)
    if layout.root.is_dir():
        sweep_stale(layout.root)


@contextmanager
def plan_locks(
    layout: MediaLayout, fps: int, lessons: list[str], say: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the course locks of the plans of ``lessons`` at ``fps`` (see the module docstring)."""
    with ExitStack() as held:
        for lesson in sorted(set(lessons)):
            held.enter_context(
                course_lock(layout.root, names.plan(lesson, fps), f"the plan of lesson {lesson} at {fps} fps", say)
            )
        yield


def course_files_lock(layout: MediaLayout, say: Callable[[str], None] | None = None):
    """The course lock of the delivered files in ``media/course/``."""
    return course_lock(layout.root, names.course(), "the course's delivered files", say)
