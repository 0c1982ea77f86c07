"""`render.py clean`: prune caches that no current plan or scene refers to, and say how much was freed."""
from __future__ import annotations

import shutil
from pathlib import Path

from coursekit.core.config import Config
from coursekit.content.narration import Course
from coursekit.plan.model import LessonPlan


def _size(path: Path) -> int:
    if path.is_file() or path.is_symlink():
        return path.lstat().st_size
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file())


def stale_paths(cfg: Config, course: Course) -> list[Path]:
    media = cfg.output_dir
    scene_ids = set(course.scenes)
    lessons = {l.id for l in course.lessons}
    out: list[Path] = []
    referenced: set[str] = set()
    for plan_file in sorted((media / "plan").glob("*fps/*.json")):
        if plan_file.stem not in lessons:
            out.append(plan_file)
            continue
        try:
            plan = LessonPlan.read(plan_file)
        except (ValueError, KeyError, TypeError):
            out.append(plan_file)
            continue
        referenced |= {Path(c.audio).stem for s in plan.scenes for c in s.cues if c.audio}
    for scene_json in sorted((media / "plan").glob("*fps/scenes/*.json")):
        if scene_json.stem not in scene_ids:
            out.append(scene_json)
    audio = media / "cache" / "audio"
    for f in sorted(audio.glob("*.wav")) + sorted(audio.glob("*.json")):
        if f.stem not in referenced:
            out.append(f)
    for lock in sorted((audio / "locks").glob("*.lock")):
        out.append(lock)
    for d in sorted((media / "manim").glob("*")):
        name = d.name.removesuffix(".lock")
        if name not in scene_ids:
            out.append(d)
    for f in sorted((media / "scenes").glob("*/*.mp4")):
        if f.stem not in scene_ids:
            out += [f, f.with_name(f".{f.name}.key")]
    for d in (media / "work", media / "bench"):
        if d.exists():
            out.append(d)
    return [p for p in out if p.exists() or p.is_symlink()]


def clean(cfg: Config, course: Course) -> tuple[int, int]:
    """Delete stale caches; return (items removed, bytes freed)."""
    paths = stale_paths(cfg, course)
    freed = 0
    for p in paths:
        freed += _size(p)
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
    return len(paths), freed
