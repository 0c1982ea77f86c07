"""The studio's builder: the thread that plans a scene's lesson and renders the scene's 480p15 preview.

One scene at a time, in the order asked, through the project as ``render.py preview`` does
(``coursekit.project.Project``): the config and the course are read again, the lesson is planned at the
preview's frame rate under its plan's course lock (the audio cache makes an unchanged cue free; the voice
stays loaded between builds), then the preview is rendered and muxed. A failure (broken YAML, an overrun
cue, an exception in the scene) is kept as one line and the last good preview stays. While it builds, the
background (``coursekit.studio.checks``) waits, and a build that starts kills a running viewer check.

Under the output folder's ``studio/``: ``previews/<scene>.json``, the plan slice and key of the last good
preview (the page's timeline), and ``plans/<lesson>.json``, a digest of what the last plan the studio made
was made from.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from coursekit.core.atomic import write_text
from coursekit.core.errors import UserError
from coursekit.core.media_tools import extract_frame
from coursekit.core.paths import course_packages
from coursekit.core.sources import python_sources
from coursekit.project.base import PREVIEW
from coursekit.render.scene_cache import key_path, remember
from coursekit.render.scene_contract import require_fit
from coursekit.studio.checks import Checks
from coursekit.studio.freshness import Freshness
from coursekit.studio.state import Shared, one_line, preview_url, preview_version, read_json
from coursekit.studio.status import Status

#: after a new preview, the page that shows the scene fetches it before anything else runs: at most this
#: long, and not at all when no page shows the scene or a page has already fetched that very video
GRACE_S = 3.0
#: the key a provisional preview is recorded under: no scene-cache key equals it
PROVISIONAL_KEY = "provisional"


#: the course's Python files (size, mtime) when its modules were last dropped, per course root
_SOURCES_SEEN: dict[Path, dict[Path, tuple[int, int]]] = {}


def _forget_course_modules(root: Path) -> None:
    """Drop the course's own modules (figures, math) from this process, so the next plan reads their
    edited source (``root``: the course's), unless none of its Python files changed since they were last
    dropped: the modules imported since then are the files as they are. Scene code never runs here (Manim
    and the viewer check run it in child processes)."""
    packages = course_packages(root)
    stamps = {}
    for f in python_sources(packages):
        try:
            st = f.stat()
        except OSError:
            continue
        stamps[f] = (st.st_size, st.st_mtime_ns)
    if _SOURCES_SEEN.get(root) == stamps:
        return
    roots = tuple(dict.fromkeys(s for p in packages for s in (str(p) + os.sep, str(p.resolve()) + os.sep)))
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None)
        if f and str(f).startswith(roots):
            del sys.modules[name]
    _SOURCES_SEEN[root] = stamps


class Builder:
    """The build queue and its thread (``run``)."""

    def __init__(
        self, shared: Shared, fresh: Freshness, status: Status, checks: Checks, grace_s: float = GRACE_S
    ) -> None:
        self.shared = shared
        self.grace_s = grace_s
        self.fresh = fresh
        self.status = status
        self.checks = checks
        self._cv = threading.Condition(shared.lock)
        self._queue: list[tuple[str, str]] = []  # builds asked for: (scene, why)
        self._building: str | None = None
        self._served: set[tuple[str, str]] = set()  # (scene, video version) a page has fetched
        self._focus: dict[str, str] = {}  # scene -> the cue its page stopped at, to park a process at

    def request(self, scene_id: str, why: str) -> None:
        """Plan and render ``scene_id``'s preview (once, however often it is asked for before it starts)."""
        with self._cv:
            if all(s != scene_id for s, _ in self._queue):
                self._queue.append((scene_id, why))
            self.shared.idle.clear()
            self._cv.notify_all()
        self.checks.kill()

    def served(self, scene_id: str, version: str) -> None:
        """From the server: a page fetched ``scene_id``'s preview ``version`` (the ``v`` of its URL, the
        start of the video's sha256); the grace after that preview ends."""
        with self._cv:
            self._served.add((scene_id, version))
            self._cv.notify_all()

    def grace(self, scene_id: str, version: str | None) -> str:
        """After a new preview: wait, at most ``grace_s``, for the page that shows the scene to fetch the
        video before the last frame and the checks run. Returns why the wait ended: "no page" (none shows
        the scene), "fetched", "next build" (one was asked for), "stopping" or "timeout"."""
        deadline = time.monotonic() + self.grace_s
        with self._cv:
            while True:
                if self._queue:
                    return "next build"
                if self.shared.stopping.is_set():
                    return "stopping"
                if scene_id not in self.shared.open_scenes():
                    return "no page"
                if version is not None and (scene_id, version) in self._served:
                    return "fetched"
                left = deadline - time.monotonic()
                if left <= 0:
                    return "timeout"
                self._cv.wait(timeout=left)

    def focus(self, scene_id: str, short: str) -> None:
        """From the server: the page of ``scene_id`` stopped at cue ``short``; once no build waits, a Manim
        process is parked there for its next edit (``Project.park_preview``)."""
        with self._cv:
            self._focus[scene_id] = short
            self._cv.notify_all()

    def _park_focus(self, scene_id: str, short: str) -> None:
        """Park a process at cue ``short`` of the plan the scene's preview on disk was made from
        (``Status.shown``); none while that preview is provisional or missing (the build that makes it plans it
        again)."""
        try:
            plan, key, _ = self.status.shown(scene_id)
            if plan is None or key in (None, PROVISIONAL_KEY):
                return
            if self.shared.project.park_preview(plan, short):
                self.shared.say(f"studio: {scene_id}: a Manim process waits at {short} for its next edit")
        except Exception as exc:  # a stale record, a cue gone: the next edit renders as before
            self.shared.say(f"studio: {scene_id}: no process waits at {short} ({one_line(exc)})")

    def busy(self, scene_id: str) -> bool:
        with self.shared.lock:
            return self._building == scene_id or any(s == scene_id for s, _ in self._queue)

    def wake(self) -> None:
        """The studio stops: a builder waiting for work looks up."""
        with self._cv:
            self._cv.notify_all()

    def run(self) -> None:
        """The builder thread: the builds asked for, one at a time, until the studio stops."""
        shared = self.shared
        self._warm_up()
        while not shared.stopping.is_set():
            with self._cv:
                while not self._queue and not self._focus and not shared.stopping.is_set():
                    shared.idle.set()
                    shared.wake.set()
                    self._cv.wait()
                if shared.stopping.is_set():
                    return
                if not self._queue:  # a cue its page stopped at: ready a process there, then look again
                    focus = self._focus.popitem()
                else:
                    focus = None
                    scene_id, why = self._queue.pop(0)
                    self._building = scene_id
                    shared.idle.clear()
            if focus is not None:
                self._park_focus(*focus)
                continue
            event, then = {"type": "error", "scene": scene_id, "error": "the build stopped"}, None
            try:
                event, then = self.build(scene_id, why)
            finally:
                with shared.lock:
                    self._building = None
                    shared.generation += 1
                shared.publish(event)  # once it is no longer building: the page asks for its state then
            if event["type"] == "preview":  # the page fetches the video now: the last frame and the checks wait
                self.grace(scene_id, event.get("version"))
            with shared.lock:
                next_build = bool(self._queue)
            if then is not None and not next_build:  # the next build makes its own
                then()

    def _warm_up(self) -> None:
        """Resolve the voice and load its model now, so the first edit does not wait for either."""
        try:
            voice = self.shared.project.speech().voice
            if voice.spec.parallel == "processes":  # it runs here: loading it now is worth it
                with tempfile.TemporaryDirectory() as tmp:
                    voice.synthesize("一。", Path(tmp) / "warm.wav")
        except Exception as exc:  # the first build reports it properly
            self.shared.say(f"studio: the voice did not warm up ({one_line(exc)})")

    # -- a build --------------------------------------------------------------------------------
    def plan(self, lesson_id: str):
        """Plan the lesson at the preview's frame rate (``Project.plans``: under its plan's course lock, the
        voice kept between builds) and record what it was made from (``Freshness.plan_made``)."""
        inputs = self.fresh.plan_inputs(lesson_id)  # before it is planned: an edit meanwhile makes it stale
        plan, _ = self.shared.project.plans(PREVIEW.fps, [lesson_id])[lesson_id]
        self.fresh.plan_made(lesson_id, inputs, plan)
        return plan

    def _provisional(self, scene, video: Path, t0: float) -> None:
        """A provisional preview of ``scene`` is in place (``Project.remake_preview``): record it, with a key
        that no scene-cache key equals (so it is never fresh), and tell the page."""
        remember(video, PROVISIONAL_KEY)
        sha = (read_json(key_path(video)) or {}).get("sha256")
        seconds = round(time.perf_counter() - t0, 2)
        record = {"key": PROVISIONAL_KEY, "sha256": sha, "seconds": seconds, "made": time.time()}
        record["plan"] = dataclasses.asdict(scene)
        write_text(
            self.shared.layout.studio_preview_record(scene.id),
            json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n",
        )
        self.shared.say(f"studio: {scene.id}: provisional preview in {seconds:.1f} s")
        self.shared.publish(
            {
                "type": "preview",
                "scene": scene.id,
                "seconds": seconds,
                "version": preview_version(sha),
                "video": preview_url(scene.id, sha),
                "provisional": True,
            }
        )

    def build(self, scene_id: str, why: str) -> tuple[dict, Callable[[], None] | None]:
        """Plan the scene's lesson and render its preview; returns the event that says how it went and
        what is left to do after the page has been told."""
        shared = self.shared
        t0 = time.perf_counter()
        shared.publish({"type": "building", "scene": scene_id, "why": why})
        try:
            _forget_course_modules(shared.project.root)
            course = shared.reload().course
            course.scene(scene_id)
            require_fit(course, [scene_id])  # the same lines `render.py check` prints
            scene = self.plan(course.lesson_of(scene_id).id).scene(scene_id)
            planned = time.perf_counter()
            # only what the edit changed is rendered again; the page gets a provisional preview first when
            # one can be made (the edited cue, then the last preview's frames after it)
            stats: dict = {}
            out = shared.project.remake_preview(scene, lambda video: self._provisional(scene, video, t0), stats)
            made = read_json(key_path(out)) or {}
            if made.get("key"):  # the key just used: the page's next look needs no second parse
                self.fresh.remember(scene, made["key"])
            seconds = round(time.perf_counter() - t0, 2)
            write_text(
                shared.layout.studio_preview_record(scene_id),
                json.dumps(
                    {
                        "key": made.get("key"),
                        "sha256": made.get("sha256"),
                        "seconds": seconds,
                        "made": time.time(),
                        "plan": dataclasses.asdict(scene),
                    },
                    ensure_ascii=False,
                    sort_keys=True,
                )
                + "\n",
            )
        except Exception as exc:
            line = one_line(exc)
            self.status.build_failed(scene_id, line)
            shared.say(f"studio: {scene_id}: {line}")
            return {"type": "error", "scene": scene_id, "error": line}, None
        with shared.lock:
            self.status.build_ok(scene_id)
            self.checks.first(scene_id)
        parked = [t["parked"] for t in stats.get("stretches", {}).get("manim", {}).values() if t.get("parked")]
        shared.say(
            f"studio: {scene_id}: preview in {seconds:.1f} s: plan {planned - t0:.1f} s, render and mux "
            f"{seconds - (planned - t0):.1f} s ({why})"
            + ("; a stretch drawn by the process parked at its start" if True in parked else "")
            + "".join(f"; the parked process was not used: {p}" for p in parked if p is not True)
        )

        def last_frame() -> None:  # the .png `render.py preview` leaves, made after the page has its video
            try:
                extract_frame(out, scene.frames - 1, shared.layout.preview_frame(scene_id))
            except (UserError, RuntimeError) as exc:  # ffmpeg's failure: the preview itself is fine
                self.shared.say(f"studio: {scene_id}: no last frame ({one_line(exc)})")

        return {
            "type": "preview",
            "scene": scene_id,
            "seconds": seconds,
            "version": preview_version(made.get("sha256")),
            "video": preview_url(scene_id, made.get("sha256")),
        }, last_frame
