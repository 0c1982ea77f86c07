"""What every part of the studio's work reads: the config, the course, the lessons' plans, the generation
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
from coursekit.core.config import QUALITIES, Config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.core.paths import course_root
from coursekit.plan.model import LessonPlan

QUALITY = "low"  #: what ``render.py preview`` renders: 480p15
FPS = QUALITIES[QUALITY][2]


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


def file_bytes(path: Path) -> bytes:
    """The bytes of ``path``, or none if it cannot be read."""
    try:
        return path.read_bytes()
    except OSError:
        return b""


class Shared:
    """The studio's state that every part reads. ``publish(event)`` tells open pages what happened;
    ``open_scenes()`` names the scenes a page shows (their edits are rebuilt)."""

    def __init__(
        self,
        load_cfg: Callable[[], Config],
        publish: Callable[[dict], None],
        open_scenes: Callable[[], set[str]],
        config_file: Path | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        self.load_cfg = load_cfg
        self.cfg = load_cfg()
        self.publish = publish
        self.open_scenes = open_scenes
        self.config_file = (config_file or course_root() / "config.yaml").resolve()
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
    def layout(self) -> MediaLayout:
        return MediaLayout.of(self.cfg)

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
            course = load_course(self.cfg.lessons)
        except UserError as exc:
            self.course_error = one_line(exc)
            return self._course
        self._course, self.course_error = course, None
        return course

    def reload(self) -> tuple[Config, Course]:
        """The config and the course read again, for a build; a broken one raises."""
        self.cfg = cfg = self.load_cfg()
        course = load_course(cfg.lessons)
        self._course, self.course_error = course, None
        return cfg, course

    def lesson_plan(self, lesson_id: str) -> LessonPlan | None:
        """The lesson's 15 fps plan file, read again only when it changed."""
        path = self.layout.lesson_plan(lesson_id, FPS)
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
