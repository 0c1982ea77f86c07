"""`preview SCENE --watch`: preview again whenever the scene's code, its narration, the lexicon or mathcore change."""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

from coursekit.errors import UserError
from coursekit.paths import NARRATION_DIR, PROJECT_ROOT, SCENES_DIR


def watched_paths(scene_module: Path | None, lesson_file: Path) -> list[Path]:
    """Files whose change should re-run the preview."""
    paths = [lesson_file, NARRATION_DIR / "lexicon.yaml", PROJECT_ROOT / "config.yaml"]
    paths += sorted((PROJECT_ROOT / "mathcore").glob("*.py"))
    paths += sorted((SCENES_DIR / "mobjects").glob("*.py"))
    paths += [SCENES_DIR / "base.py", SCENES_DIR / "theme.py", PROJECT_ROOT / "coursekit" / "figures.py"]
    if scene_module is not None:
        paths.append(scene_module)
    return [p.resolve() for p in paths]


def watch_and_rerun(scene_id: str, rerun: Callable[[], None], debounce_s: float = 0.5) -> None:
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    from coursekit.config import load_config
    from coursekit.narration import load_course
    from coursekit.scene_render import find_scene_module

    course = load_course(load_config().lessons)
    scene = course.scene(scene_id)
    lesson = course.lesson_of(scene_id)
    targets = set(watched_paths(find_scene_module(scene.cls), lesson.path))
    changed = threading.Event()

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event):
            for attr in ("src_path", "dest_path"):
                p = getattr(event, attr, None)
                if p and Path(p).resolve() in targets:
                    changed.set()

    observer = Observer()
    for d in sorted({p.parent for p in targets}):
        observer.schedule(Handler(), str(d), recursive=False)
    observer.start()
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
        observer.stop()
        observer.join()
