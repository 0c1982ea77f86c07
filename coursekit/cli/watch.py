"""`preview SCENE --watch`: preview again whenever the scene's narration, the lexicon, the figures, the
config or any of the course's Python source changes."""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

from coursekit.content.narration import load_course
from coursekit.core.config import Config
from coursekit.core.errors import UserError
from coursekit.core.paths import course_packages, course_root, narration_dir
from coursekit.render.registry import find_scene_module


def watched_paths(scene_module: Path | None, lesson_file: Path, config_file: Path | None = None) -> list[Path]:
    """Files whose change should re-run the preview: the lesson's narration, the lexicon and figures
    beside it, the config, and every .py file of the course's own packages (scenes, mobjects, math)."""
    paths = [lesson_file, narration_dir() / "lexicon.yaml", narration_dir() / "figures.py",
             config_file or course_root() / "config.yaml"]
    for pkg in course_packages():
        paths += sorted(p for p in pkg.rglob("*.py") if "__pycache__" not in p.parts)
    if scene_module is not None:
        paths.append(scene_module)
    return sorted({p.resolve() for p in paths})


#: watchdog's event kinds that mean a file was written (inotify also reports every open and read-only
#: close, and the rerun's own reads must not trigger another run)
EDITS = ("modified", "created", "moved", "deleted", "closed")


def observe(targets: set[Path] | list[Path], on_change: Callable[[Path], None]) -> Callable[[], None]:
    """Call ``on_change(path)`` (from watchdog's thread) whenever one of ``targets`` is written, created,
    moved onto or deleted; returns the function that stops watching. Used by ``preview --watch`` and
    the studio."""
    from watchdog.events import FileSystemEventHandler  # watchdog: only when watching
    from watchdog.observers import Observer  # only when watching

    wanted = {Path(p).resolve() for p in targets}

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event):
            if event.event_type not in EDITS:
                return
            for attr in ("src_path", "dest_path"):
                p = getattr(event, attr, None)
                if p and Path(p).resolve() in wanted:
                    on_change(Path(p).resolve())

    observer = Observer()
    for d in sorted({p.parent for p in wanted}):
        observer.schedule(Handler(), str(d), recursive=False)
    observer.start()

    def stop() -> None:
        observer.stop()
        observer.join()
    return stop


def watch_and_rerun(scene_id: str, rerun: Callable[[], None], cfg: Config, config_file: Path | None = None,
                    debounce_s: float = 0.5) -> None:
    course = load_course(cfg.lessons)
    scene = course.scene(scene_id)
    lesson = course.lesson_of(scene_id)
    targets = set(watched_paths(find_scene_module(scene.cls), lesson.path, config_file))
    changed = threading.Event()
    stop = observe(targets, lambda _path: changed.set())
    print(f"watching {len(targets)} files for {scene_id}; Ctrl-C to stop", flush=True)
    try:
        while True:
            changed.wait()
            time.sleep(debounce_s)
            changed.clear()
            try:
                rerun()
            except UserError as exc:  # keep watching after a mistake
                print(f"error: {exc}", flush=True)
    finally:
        stop()
