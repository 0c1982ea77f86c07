"""What the studio's pages are shown: each scene's status (its row in the list), a scene's page (the
preview on disk with the plan slice it was made from), its cues' narration clips, and the viewer check's
findings as cached under the output folder's ``studio/``:

- ``previews/<scene>.json``: the plan slice and key of the last good preview (the page's timeline);
- ``findings/<scene>.json``: the viewer check's findings for one scene-cache key.

A status is worked out for one generation (``Shared.generation``: every edit and build bumps it); the
background (``coursekit.studio.checks``) works out the stale ones while nothing builds. The builder and
the checks record here what the list shows of them: a build's one-line error, the scene being checked,
its findings.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from pathlib import Path

from coursekit.core.errors import UserError
from coursekit.core.paths import inside
from coursekit.plan.model import ScenePlan, scene_plan_from_json
from coursekit.project.base import PREVIEW
from coursekit.render.registry import find_scene_module
from coursekit.render.scene_cache import key_path
from coursekit.speech import takes
from coursekit.speech.voices.recorded import NAME as RECORDED
from coursekit.studio import recording
from coursekit.studio.freshness import Freshness
from coursekit.studio.state import Shared, one_line, preview_url, read_json
from coursekit.zh.lexicon import Lexicon


class Status:
    """Each scene's status, kept per generation; ``busy(scene)`` says whether the builder has it."""

    def __init__(self, shared: Shared, fresh: Freshness, busy: Callable[[str], bool]) -> None:
        self.shared = shared
        self.fresh = fresh
        self.busy = busy
        self.checking: str | None = None  # the scene whose viewer check runs now
        self._status: dict[str, dict] = {}
        self._errors: dict[str, str] = {}  # scene -> the last build's one-line error

    # -- what the builder and the checks record -------------------------------------------------------
    def build_failed(self, scene_id: str, line: str) -> None:
        with self.shared.lock:
            self._errors[scene_id] = line

    def build_ok(self, scene_id: str) -> None:
        with self.shared.lock:
            self._errors.pop(scene_id, None)

    def stale(self, order: Iterable[str]) -> list[str]:
        """The scenes of ``order`` whose status is not of the current generation, in that order."""
        with self.shared.lock:
            gen = self.shared.generation
            return [s for s in order if s not in self._status or self._status[s]["gen"] != gen]

    def unchecked(self, order: Iterable[str]) -> str | None:
        """The first scene of ``order`` that is planned, has a key and no findings for it."""
        for s in order:
            st = self._status.get(s) or {}
            if st.get("planned") and st.get("key") and st.get("findings") is None:
                return s
        return None

    def key_of(self, scene_id: str) -> str:
        """The scene-cache key of the scene's current status."""
        return self._status[scene_id]["key"]

    def failed(self, scene_id: str, line: str) -> None:
        """Working out the scene's status or findings failed: marked, so it is not retried in a loop."""
        with self.shared.lock:
            self._status.setdefault(scene_id, {})
            self._status[scene_id].update(gen=self.shared.generation, findings={"error": line})

    def found(self, scene_id: str, key: str, result: dict) -> None:
        """The viewer check's ``result`` for ``key``, if that is still the scene's key."""
        with self.shared.lock:
            if self._status.get(scene_id, {}).get("key") == key:
                self._status[scene_id]["findings"] = result

    # -- the scene list ---------------------------------------------------------------------------
    def findings(self, scene_id: str, key: str | None) -> dict | None:
        """The cached viewer check of ``scene_id`` for ``key``: {"findings": [...], "steps"} or {"error"}."""
        if not key:
            return None
        got = read_json(self.shared.layout.studio_findings(scene_id))
        return got if got and got.get("key") == key else None

    def refresh(self, scene_id: str) -> dict:
        """Work out the scene's status for the current generation."""
        shared = self.shared
        with shared.lock:
            gen = shared.generation
        course = shared.last_course
        lesson = course.lesson_of(scene_id) if course and scene_id in course.scenes else None
        lp = shared.lesson_plan(lesson.id) if lesson else None
        mp4 = shared.preview_path(scene_id)
        st: dict = {
            "gen": gen,
            "key": None,
            "duration": None,
            "planned": False,
            "plan_current": False,
            "preview": "stale" if mp4.exists() else "none",
            "findings": None,
        }
        try:
            scene = lp.scene(scene_id) if lp else None
        except KeyError:
            scene = None
        if scene is not None and find_scene_module(scene.cls) is not None:
            key = self.fresh.scene_key(scene)
            current = self.fresh.plan_current(lesson.id)
            st.update(
                key=key,
                duration=round(scene.duration, 2),
                planned=True,
                plan_current=current,
                findings=self.findings(scene_id, key),
            )
            if mp4.exists() and current and self.fresh.fresh(mp4, key):
                st["preview"] = "fresh"
        elif scene is not None:
            st.update(duration=round(scene.duration, 2))
        with shared.lock:
            self._status[scene_id] = st
        return st

    def row(self, scene_id: str) -> dict:
        """One line of the scene list."""
        with self.shared.lock:
            st = self._status.get(scene_id)
            pending = st is None or st["gen"] != self.shared.generation
            error = self._errors.get(scene_id)
        st = st or {}
        found = st.get("findings")
        return {
            "scene": scene_id,
            "duration": st.get("duration"),
            "preview": st.get("preview", "unknown"),
            "pending": pending,
            "building": self.busy(scene_id),
            "error": error,
            "findings": len(found["findings"]) if found and "findings" in found else None,
            "findings_error": found.get("error") if found else None,
            "checking": self.checking == scene_id,
        }

    def scene_list(self) -> dict:
        shared = self.shared
        course = shared.course()
        shared.wake.set()
        lessons = []
        for lesson in course.lessons if course else []:
            rows = []
            for s in lesson.scenes:
                rows.append({**self.row(s.id), "title": s.title, "cues": len(s.cues), "cls": s.cls})
            lessons.append({"lesson": lesson.id, "title": lesson.title, "scenes": rows})
        return {"title": shared.cfg.course.title, "error": shared.course_error, "lessons": lessons}

    # -- a scene's page -------------------------------------------------------------------------
    def shown(self, scene_id: str) -> tuple[ScenePlan | None, str | None, str | None]:
        """(the plan slice the preview on disk was made from, its key, its sha256): the studio's record of
        its last good build, else the plan file's slice for a preview made elsewhere."""
        shared = self.shared
        mp4 = shared.preview_path(scene_id)
        made = read_json(key_path(mp4)) if mp4.exists() else None
        record = read_json(shared.layout.studio_preview_record(scene_id))
        if made and record and record.get("sha256") == made.get("sha256"):
            return scene_plan_from_json(json.dumps(record["plan"])), record.get("key"), made.get("sha256")
        course = shared.last_course
        if course is None or scene_id not in course.scenes:
            return None, None, None
        lp = shared.lesson_plan(course.lesson_of(scene_id).id)
        try:
            scene = lp.scene(scene_id) if lp else None
        except KeyError:
            scene = None
        if made is None:
            return scene, None, None
        return scene, made.get("key"), made.get("sha256")

    def scene_view(self, scene_id: str) -> dict | None:
        shared = self.shared
        course = shared.course()
        if course is None or scene_id not in course.scenes:
            return None
        lesson = course.lesson_of(scene_id)
        narrated = course.scenes[scene_id]
        with shared.lock:
            st = self._status.get(scene_id)
            pending = st is None or st["gen"] != shared.generation
        if pending:  # one key, now: the page decides from it whether to build
            self.refresh(scene_id)
        plan, key, sha = self.shown(scene_id)
        st = self.row(scene_id)
        found = self.findings(scene_id, key)
        record = read_json(shared.layout.studio_preview_record(scene_id)) or {}
        view = {
            "record": self.record_lane(scene_id),
            "scene": scene_id,
            "title": narrated.title,
            "lesson": lesson.id,
            "lesson_title": lesson.title,
            "cls": narrated.cls,
            "course_error": shared.course_error,
            "fps": PREVIEW.fps,
            "video": preview_url(scene_id, sha),
            "made": record.get("made") if record.get("sha256") == sha else None,
            "seconds": record.get("seconds") if record.get("sha256") == sha else None,
            "status": st,
            "findings": found,
            "plan": None,
        }
        if plan is not None:
            view["plan"] = {
                "frames": plan.frames,
                "fps": plan.fps,
                "duration": plan.duration,
                "cues": [
                    {
                        "id": c.id,
                        "short": c.id.split(".", 1)[1],
                        "text": c.text,
                        "spoken": c.spoken,
                        "start": c.start_frame,
                        "end": c.end_frame,
                        "frames": c.frames,
                        "speech_frames": c.speech_frames,
                        "role": c.role,
                        "bookmarks": c.bookmarks,
                        "voice": c.voice,
                        "audio": f"/audio/{scene_id}/{c.id.split('.', 1)[1]}" if c.audio else None,
                        "subtitles": [dataclasses.asdict(e) for e in c.subtitles],
                    }
                    for c in plan.cues
                ],
            }
        return view

    def record_lane(self, scene_id: str) -> dict | None:
        """The scene's recording lane (``coursekit.studio.recording.lane``) from the course as it last
        loaded; a lexicon or figure that does not load is its one line."""
        shared = self.shared
        course = shared.last_course
        if course is None or scene_id not in course.scenes:
            return None
        voice = shared.cfg.voice
        fallback = voice.section(RECORDED).fallback if voice.backend == RECORDED else None
        try:
            return recording.lane(course, scene_id, Lexicon.load(check_readings=False), voice.backend, fallback)
        except UserError as exc:
            return {"error": one_line(exc), "cues": []}

    def take_audio(self, scene_id: str, short_id: str) -> Path | None:
        """The stored take (current or stale) of one cue of ``scene_id``, as the course last loaded."""
        course = self.shared.last_course
        if course is None or scene_id not in course.scenes:
            return None
        flac, _ = takes.paths(course.lesson_of(scene_id).id, f"{scene_id}.{short_id}")
        return flac if flac.is_file() else None

    def cue_audio(self, scene_id: str, short_id: str) -> Path | None:
        """The narration clip of one cue of the shown preview's plan (a file inside the course)."""
        plan, _, _ = self.shown(scene_id)
        if plan is None:
            return None
        try:
            cue = plan.cue(short_id)
        except KeyError:
            return None
        if not cue.audio:
            return None
        root = self.shared.project.root
        path = (root / cue.audio).resolve()
        return path if path.is_file() and inside(path, root) else None
