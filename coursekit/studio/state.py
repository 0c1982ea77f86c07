"""What every part of the studio's work reads: the project (``coursekit.project``: the config, the layout,
the course, the voice), the course as its narration says now, the lessons' preview plans, the generation
(bumped by every edit and build) and the events the threads meet at; and the small helpers they share.

The parts (``coursekit.studio.work`` puts them together):

- ``freshness``: scene-cache keys, and whether a plan and a preview are current;
- ``status``: each scene's row in the list, its page's view, the cached viewer-check findings;
- ``builder``: the thread that plans a lesson and renders a scene's preview;
- ``checks``: the background thread (statuses, then viewer checks in a child process).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from pathlib import Path

from coursekit.content.narration import Course, load_course
from coursekit.core.config import Config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.plan.model import LessonPlan
from coursekit.project.base import PREVIEW
from coursekit.project.project import Project


def one_line(exc: BaseException) -> str:
    """An exception as the one line the page shows."""
    text = str(exc) if isinstance(exc, UserError) else f"{type(exc).__name__}: {exc}"
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[0] if lines else type(exc).__name__


def read_json(path: Path) -> dict | None:
    """The JSON in ``path``, or None if it is missing or not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def sha(*parts: bytes | str) -> str:
    """The sha256 of ``parts``, each ended by a NUL byte."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() if isinstance(p, str) else p)
        h.update(b"\0")
    return h.hexdigest()


def preview_version(video_sha256: str | None) -> str | None:
    """A preview's version: the ``v`` of the video's URL on the page, which the server hands back to the
    builder when the page fetches it (the start of the video's sha256; None without a video)."""
    return video_sha256[:16] if video_sha256 else None


def preview_url(scene_id: str, video_sha256: str | None) -> str | None:
    """Where the page fetches a scene's preview of that sha256 (None without a video)."""
    return f"/preview/{scene_id}.mp4?v={preview_version(video_sha256)}" if video_sha256 else None


def file_bytes(path: Path) -> bytes:
    """The bytes of ``path``, or none if it cannot be read."""
    try:
        return path.read_bytes()
    except OSError:
        return b""


class Shared:
    """The studio's state that every part reads. ``publish(event)`` tells open pages what happened;
    ``open_scenes()`` names the scenes a page shows (their edits are rebuilt); the project's lines go to
    ``say``, after "studio: "."""

    def __init__(
        self,
        project: Project,
        publish: Callable[[dict], None],
        open_scenes: Callable[[], set[str]],
        say: Callable[[str], None] = print,
    ) -> None:
        self.project = project
        project.say = lambda line: say(f"studio: {line}")
        self.publish = publish
        self.open_scenes = open_scenes
        self.say = say
        self.lock = threading.RLock()
        self.generation = 0  # bumped by every edit and build
        self.idle = threading.Event()  # set while nothing builds
        self.idle.set()
        self.wake = threading.Event()  # the background has something to look at
        self.stopping = threading.Event()  # the studio is closing
        self.course_error: str | None = None
        self._course: Course | None = None
        self._plans: dict[str, tuple[int, LessonPlan]] = {}

    # -- where things are -----------------------------------------------------------------------
    @property
    def cfg(self) -> Config:
        """The config as the last build read it."""
        return self.project.config

    @property
    def config_file(self) -> Path:
        return self.project.config_file

    @property
    def layout(self) -> MediaLayout:
        return self.project.layout

    def preview_path(self, scene_id: str) -> Path:
        return self.layout.preview_video(scene_id)

    # -- the course and its plans -----------------------------------------------------------------
    @property
    def last_course(self) -> Course | None:
        """The course as it last loaded, without reading the narration again."""
        return self._course

    def course(self) -> Course | None:
        """The course as the narration says now; after a broken edit, the last one that loaded."""
        try:
            course = load_course(self.cfg.lessons, allowed_format=self.cfg.course.allowed_format)
        except UserError as exc:
            self.course_error = one_line(exc)
            return self._course
        self._course, self.course_error = course, None
        return course

    def reload(self) -> Project:
        """The project with its config and course read again, for a build; a broken one raises."""
        course = self.project.reload().course
        self._course, self.course_error = course, None
        return self.project

    def lesson_plan(self, lesson_id: str) -> LessonPlan | None:
        """The lesson's preview plan file (``PREVIEW``'s frame rate), read again only when it changed."""
        path = self.layout.lesson_plan(lesson_id, PREVIEW.fps)
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            return None
        got = self._plans.get(lesson_id)
        if got is None or got[0] != stamp:
            try:
                got = (stamp, LessonPlan.read(path))
            except (OSError, ValueError, TypeError, KeyError):
                return None
            self._plans[lesson_id] = got
        return got[1]
