"""`preview SCENE --watch`: preview again whenever a file the preview depends on changes
(``coursekit.core.sources.preview_inputs``: the scene's narration, the lexicon, the figures, the config,
the course's Python source and the modules the scene imports), with the studio's file watcher
(``coursekit.studio.watcher``)."""

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
from coursekit.studio.watcher import observe


def watch_and_rerun(
    scene_id: str, rerun: Callable[[], None], cfg: Config, config_file: Path | None = None, debounce_s: float = 0.5
) -> None:
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
