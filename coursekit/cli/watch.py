"""`preview SCENE --watch`: preview again whenever a file the preview depends on changes
(``coursekit.core.sources.preview_inputs``: the scene's narration, the lexicon, the figures, the config,
the course's Python source and the modules the scene imports)."""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

from coursekit.content.narration import load_course
from coursekit.core.config import Config
from coursekit.core.errors import UserError
from coursekit.core.sources import preview_inputs
from coursekit.render.registry import find_scene_module


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
    # what a preview depends on: the same list the studio's fresh/stale state and the scene cache use
    targets = set(preview_inputs(find_scene_module(scene.cls), lesson.path, config_file))
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
