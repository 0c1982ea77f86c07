"""`render.py clean`: remove what the output folder's layout (``coursekit.core.layout.ENTRIES``) says clean
removes, prune what it says is kept only while current, and say how much was freed.

Every path under the output folder is one of the layout's entries, and each says what clean does with it:
``removed`` (the audio cache's locks, ``work/``, ``inspect/``, the studio's check files, ``bench/``),
``stale`` (kept while its lesson or scene is in the course, or while a kept lesson plan uses its audio),
or ``kept`` (the delivered course, the render logs, the course locks, the studio's key memo). Temporary
files of writers that no longer run are removed everywhere; a running command's are left alone.
``render.py clean --help`` lists the entries (``layout.clean_help()``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from coursekit.content.narration import Course
from coursekit.core.atomic import process_running
from coursekit.core.layout import BY_NAME, ENTRIES, REMOVED, STALE, MediaLayout
from coursekit.plan.model import LessonPlan


def _size(path: Path) -> int:
    if path.is_file() or path.is_symlink():
        return path.lstat().st_size
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file())


def _transcript_audio(path: Path) -> str | None:
    try:
        return str(json.loads(path.read_text(encoding="utf-8"))["audio_sha256"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def stale_paths(layout: MediaLayout, course: Course) -> list[Path]:
    """What clean removes from ``layout``, by its entries (module docstring)."""
    temporary = BY_NAME["temporary"]

    def is_temporary(path: Path) -> bool:
        return temporary.fields(layout.relative(path)) is not None

    scenes = set(course.scenes)
    lessons = {l.id for l in course.lessons}
    out: list[Path] = []
    kept_plans: set[Path] = set()  # the plans of the course's lessons that can be read
    clips: set[str] = set()  # the audio-cache keys they use
    digests: set[str] = set()  # and their audio's sha256
    for plan_file, got in layout.found(BY_NAME["lesson_plan"]):
        if is_temporary(plan_file) or got["lesson"] not in lessons:
            continue
        try:
            plan = LessonPlan.read(plan_file)
        except (ValueError, KeyError, TypeError):
            continue
        kept_plans.add(plan_file)
        cues = [c for s in plan.scenes for c in s.cues if c.audio]
        clips |= {Path(c.audio).stem for c in cues}
        digests |= {c.audio_sha256 for c in cues if c.audio_sha256}

    def current(entry, path: Path, got: dict[str, str]) -> bool:
        if entry.of == "plan":
            return path in kept_plans
        if entry.of == "lesson":
            return got["lesson"] in lessons
        if entry.of == "scene":
            return got["scene"] in scenes
        if entry.of == "audio":
            return got["key"] in clips
        if entry.of == "transcript":
            return _transcript_audio(path) in digests
        if entry.of == "writer":
            return int(got["pid"]) == os.getpid() or process_running(int(got["pid"]))
        raise AssertionError(f"layout entry {entry.name}: no rule for {entry.of!r}")

    for entry in ENTRIES:
        if entry.clean not in (REMOVED, STALE):
            continue
        for path, got in layout.found(entry):
            if entry is not temporary and is_temporary(path):
                continue  # judged as what it is: a file being written
            if entry.clean == REMOVED or not current(entry, path, got):
                out.append(path)
    gone = set(out)
    return [p for p in out if not gone.intersection(p.parents) and (p.exists() or p.is_symlink())]


def clean(layout: MediaLayout, course: Course) -> tuple[int, int]:
    """Delete what ``stale_paths`` finds; return (items removed, bytes freed)."""
    paths = stale_paths(layout, course)
    freed = 0
    for p in paths:
        freed += _size(p)
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
    return len(paths), freed
