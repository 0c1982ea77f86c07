"""`preview SCENE --watch`: preview again whenever a file the preview depends on changes
(``coursekit.core.sources.preview_inputs``: the scene's narration, the lexicon, the figures, the config,
the course's Python source and the modules the scene imports), with the studio's file watcher
(``coursekit.studio.watcher``). Before each run the project reads its config and course again."""

from __future__ import annotations

import threading
import time
from typing import Callable

from coursekit.core.errors import UserError
from coursekit.core.sources import preview_inputs
from coursekit.project.project import Project
from coursekit.render.registry import find_scene_module
from coursekit.studio.watcher import observe


def watch_and_rerun(project: Project, scene_id: str, rerun: Callable[[], None], debounce_s: float = 0.5) -> None:
    scene = project.course.scene(scene_id)
    lesson = project.course.lesson_of(scene_id)
    # what a preview depends on: the same list the studio's fresh/stale state and the scene cache use
    targets = set(preview_inputs(find_scene_module(scene.cls), lesson.path, project.config_file))
    changed = threading.Event()
    stop = observe(targets, lambda _path, _whole: changed.set())
    print(f"watching {len(targets)} files for {scene_id}; Ctrl-C to stop", flush=True)
    try:
        while True:
            changed.wait()
            time.sleep(debounce_s)
            changed.clear()
            try:
                project.reload()
                rerun()
            except UserError as exc:  # keep watching after a mistake
                print(f"error: {exc}", flush=True)
    finally:
        stop()
