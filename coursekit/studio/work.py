"""The studio's work (``render.py studio``): its parts put together, their two threads, and the edits the
file watcher reports. The HTTP side is ``coursekit.studio.server``.

The parts share one :class:`~coursekit.studio.state.Shared` (the project, which holds the config, the
layout, the course and the voice and conducts a build; the plans, the generation every edit and build
bumps, the events the threads meet at):

- :class:`~coursekit.studio.freshness.Freshness`: scene-cache keys, and whether a plan and a preview are
  current;
- :class:`~coursekit.studio.status.Status`: each scene's row in the list, its page's view, the findings;
- :class:`~coursekit.studio.builder.Builder`: the *builder* thread, which plans a scene's lesson and renders
  its 480p15 preview, one scene at a time in the order asked;
- :class:`~coursekit.studio.checks.Checks`: the *background* thread, which runs only while nothing builds:
  each scene's status for the list, then the viewer check of scenes whose findings are not cached for
  their key, each in a child process at low priority, killed by a build that starts.

Under the output folder's ``studio/``: ``previews/<scene>.json`` (the builder), ``findings/<scene>.json``
(the checks), ``plans/<lesson>.json`` and ``keys.json`` (the freshness).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from coursekit.content.narration import Course
from coursekit.core.errors import UserError
from coursekit.core.sources import preview_inputs
from coursekit.project.project import Project
from coursekit.render.registry import find_scene_module
from coursekit.studio import recording
from coursekit.studio.builder import Builder
from coursekit.studio.checks import Checks
from coursekit.studio.freshness import Freshness
from coursekit.studio.state import Shared, one_line
from coursekit.studio.status import Status

DEBOUNCE_S = 0.3  #: editors write a file in several events; build once after the last
WHOLE_DEBOUNCE_S = 0.0  #: ... but at once after a write is closed or a file renamed onto it (``watcher.WHOLE``)


class Work:
    """The studio's state and its two worker threads, on ``project`` (its config is read again before
    every build). ``publish(event)`` tells open pages what happened; ``open_scenes()`` names the scenes a
    page shows (their edits are rebuilt)."""

    def __init__(
        self,
        project: Project,
        publish: Callable[[dict], None],
        open_scenes: Callable[[], set[str]],
        say: Callable[[str], None] = print,
        background_checks: bool = True,
    ) -> None:
        self.shared = Shared(project, publish, open_scenes, say)
        self.fresh = Freshness(self.shared)
        self.status = Status(self.shared, self.fresh, busy=self._busy)
        self.checks = Checks(self.shared, self.fresh, self.status, enabled=background_checks)
        self.builder = Builder(self.shared, self.fresh, self.status, self.checks)
        self._timers: dict[str, threading.Timer] = {}
        self._watch: dict[str, set[Path]] = {}
        self._threads: list[threading.Thread] = []
        self.shared.course()

    def _busy(self, scene_id: str) -> bool:
        return self.builder.busy(scene_id)

    # -- what the server asks -------------------------------------------------------------------------
    def course(self) -> Course | None:
        """The course as the narration says now; after a broken edit, the last one that loaded."""
        return self.shared.course()

    def preview_path(self, scene_id: str) -> Path:
        return self.shared.preview_path(scene_id)

    def scene_list(self) -> dict:
        return self.status.scene_list()

    def scene_view(self, scene_id: str) -> dict | None:
        return self.status.scene_view(scene_id)

    def cue_audio(self, scene_id: str, short_id: str) -> Path | None:
        return self.status.cue_audio(scene_id, short_id)

    def take_audio(self, scene_id: str, short_id: str) -> Path | None:
        return self.status.take_audio(scene_id, short_id)

    def store_take(self, scene_id: str, short_id: str, body: bytes, ctype: str, marks: str) -> tuple[int, dict]:
        """A take of cue ``short_id`` of ``scene_id`` recorded on its page (``recording.store``): (200, the
        scene's lane) once stored, and the scene is built again (its plan reads the take); else (400 or
        404, ``{"error": one line}``) and nothing is written."""
        course = self.shared.course()
        if course is None or scene_id not in course.scenes:
            return 404, {"error": f"no scene {scene_id}: {self.shared.course_error or 'the course has none'}"}
        if self.shared.course_error:  # the narration does not load: a take would be keyed by the last good words
            return 400, {
                "error": f"the narration does not load, so the take cannot be keyed: {self.shared.course_error}"
            }
        try:
            take = recording.store(course, scene_id, short_id, body, ctype, recording.parse_marks(marks))
        except UserError as exc:
            return (404 if isinstance(exc, recording.UnknownCue) else 400), {"error": one_line(exc)}
        self.shared.say(f"studio: {take.cue}: a take of {take.duration:.2f} s stored in {take.audio.name}")
        with self.shared.lock:
            self.shared.generation += 1
            self.fresh.forget_sources()
        self.shared.wake.set()
        self.shared.publish({"type": "take", "scene": scene_id, "cue": take.cue})
        self._debounced_build(scene_id, f"take of {take.cue} recorded")
        return 200, {"stored": take.cue, "record": self.status.record_lane(scene_id)}

    def preview_served(self, scene_id: str, version: str) -> None:
        """A page fetched the preview ``version`` of ``scene_id`` (the builder's grace ends)."""
        self.builder.served(scene_id, version)

    def request_build(self, scene_id: str, why: str) -> None:
        """Plan and render ``scene_id``'s preview (once, however often it is asked for before it starts)."""
        self.builder.request(scene_id, why)

    def focus(self, scene_id: str, short: str) -> None:
        """The page of ``scene_id`` stopped at cue ``short``: get ready to draw an edit of it
        (``Builder.focus``)."""
        self.builder.focus(scene_id, short)

    # -- threads --------------------------------------------------------------------------------
    def start(self) -> None:
        for target, name in ((self.builder.run, "studio-builder"), (self.checks.run, "studio-background")):
            t = threading.Thread(target=target, name=name, daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self) -> None:
        shared = self.shared
        shared.stopping.set()
        self.checks.kill()
        self.builder.wake()
        shared.idle.set()
        shared.wake.set()
        for t in list(self._timers.values()):
            t.cancel()
        for t in self._threads:
            t.join(timeout=5)
        self.fresh.save()

    # -- edits ----------------------------------------------------------------------------------
    def watched_paths(self) -> set[Path]:
        """Every file whose edit can change some scene's preview (``preview_inputs``, the list
        ``preview --watch`` watches, for every scene); kept per scene to tell which open scenes an edit
        concerns."""
        course = self.shared.last_course
        if course is None:
            return set()
        every: set[Path] = set()
        for lesson in course.lessons:
            for scene in lesson.scenes:
                paths = set(preview_inputs(find_scene_module(scene.cls), lesson.path, self.shared.config_file))
                self._watch[scene.id] = paths
                every |= paths
        return every

    def file_changed(self, path: Path, whole: bool = False) -> None:
        """From the watcher's thread: ``path`` was written (``whole``: and is whole again). Open scenes that
        depend on it are built again once the edits stop for a moment; every scene's status is worked out
        again."""
        shared = self.shared
        path = Path(path).resolve()
        with shared.lock:
            shared.generation += 1
            self.fresh.forget_sources()
        shared.wake.set()
        shared.publish({"type": "changed", "path": path.name})
        for scene_id in sorted(shared.open_scenes()):
            if path in self._watch.get(scene_id, ()):
                self._debounced_build(scene_id, f"{path.name} changed", WHOLE_DEBOUNCE_S if whole else DEBOUNCE_S)

    def _debounced_build(self, scene_id: str, why: str, wait_s: float = DEBOUNCE_S) -> None:
        with self.shared.lock:
            old = self._timers.pop(scene_id, None)
            if old is not None:
                old.cancel()
            timer = threading.Timer(wait_s, self.request_build, (scene_id, why))
            timer.daemon = True
            self._timers[scene_id] = timer
            timer.start()
