"""The studio's work (``render.py studio``): what each scene's preview, plan and viewer check are, and
making them again. The HTTP side is ``coursekit.studio.server``.

Two threads do the work:

- the *builder* plans a scene's lesson (the audio cache makes an unchanged cue free; the voice stays
  loaded between builds) and renders the scene's 480p15 preview with ``deliver_scene``, exactly as
  ``render.py preview`` does, one scene at a time in the order asked. A failure (broken YAML, an
  overrun cue, an exception in the scene) is kept as one line and the last good preview stays;
- the *background* thread runs only while nothing builds: it works out each scene's status for the
  list (its scene-cache key, whether its preview is fresh) and runs the viewer check of scenes whose
  findings are not cached for their key, each in a child process (``python -m
  coursekit.studio.work check``: scene code is imported there, fresh, never in the studio) at
  low priority. A build that starts kills that child; the check runs again later.

Findings are cached per scene under the scene's cache key (``scene_cache_key``: its module and every
module it imports, its plan slice, quality, libraries, fonts), so the list opens without a dry run per
scene. Computing 29 keys takes seconds (each parses the sources a scene imports), so keys are kept by a
signature of their inputs (the plan slice and the stat of every source file) across runs.

Under the output folder's ``studio/``:

- ``previews/<scene>.json``: the plan slice and key of the last good preview (the page's timeline);
- ``findings/<scene>.json``: the viewer check's findings for one scene-cache key;
- ``plans/<lesson>.json``: a digest of what the last plan the studio made was made from;
- ``keys.json``: scene-cache keys by the signature of their inputs.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from coursekit.content.narration import Course, load_course
from coursekit.core.atomic import write_text
from coursekit.core.config import QUALITIES, Config
from coursekit.core.errors import UserError
from coursekit.core.locks import course_lock, names
from coursekit.core.media_tools import extract_frame
from coursekit.core.paths import course_packages, course_root, inside, narration_dir, source_packages
from coursekit.core.sources import plan_inputs, preview_inputs
from coursekit.core.layout import MediaLayout
from coursekit.plan.build import make_plans, plan_path
from coursekit.plan.model import LessonPlan, ScenePlan, scene_plan_from_json, scene_plan_to_json
from coursekit.render.fingerprint import render_environment
from coursekit.render.manim_process import manim_env
from coursekit.render.one_scene import deliver_scene, scene_cache_key
from coursekit.render.registry import find_scene_module, scene_class
from coursekit.render.scene_cache import is_fresh, key_path
from coursekit.render.scene_contract import building, require_fit
from coursekit.render.viewer_check import check_scene
from coursekit.speech.audio_cache import AudioCache
from coursekit.speech.voices.auto import falling_back, make_voice, resolve_voice
from coursekit.zh.lexicon import Lexicon, default_path

QUALITY = "low"                       #: what ``render.py preview`` renders: 480p15
FPS = QUALITIES[QUALITY][2]
DEBOUNCE_S = 0.3                      #: editors write a file in several events; build once after the last
GRACE_S = 3.0                         #: after a new preview, the page loads it before anything else runs


def one_line(exc: BaseException) -> str:
    """An exception as the one line the page shows."""
    text = str(exc) if isinstance(exc, UserError) else f"{type(exc).__name__}: {exc}"
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[0] if lines else type(exc).__name__


def _read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _sha(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() if isinstance(p, str) else p)
        h.update(b"\0")
    return h.hexdigest()


def _file_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _forget_course_modules() -> None:
    """Drop the course's own modules (figures, math) from this process, so the next plan reads their
    edited source. Scene code never runs here (Manim and the viewer check run it in child processes)."""
    roots = [str(p.resolve()) + os.sep for p in course_packages()]
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None)
        if f and any(str(Path(f).resolve()).startswith(r) for r in roots):
            del sys.modules[name]


class Work:
    """The studio's state and its two worker threads. ``publish(event)`` tells open pages what happened;
    ``open_scenes()`` names the scenes a page shows (their edits are rebuilt)."""

    def __init__(self, load_cfg: Callable[[], Config], publish: Callable[[dict], None],
                 open_scenes: Callable[[], set[str]], config_file: Path | None = None,
                 say: Callable[[str], None] = print, background_checks: bool = True) -> None:
        self.load_cfg = load_cfg
        self.cfg = load_cfg()
        self.publish = publish
        self.open_scenes = open_scenes
        self.config_file = (config_file or course_root() / "config.yaml").resolve()
        self.say = say
        self.background_checks = background_checks
        self._lock = threading.RLock()
        self._cv = threading.Condition(self._lock)
        self._queue: list[tuple[str, str]] = []          # builds asked for: (scene, why)
        self._building: str | None = None
        self._errors: dict[str, str] = {}                # scene -> the last build's one-line error
        self._idle = threading.Event()                   # set while nothing builds
        self._idle.set()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._check_proc: subprocess.Popen | None = None
        self._checking: str | None = None
        self._check_first: list[str] = []
        self._generation = 0                             # bumped by every edit and build
        self._status: dict[str, dict] = {}
        self._plans: dict[str, tuple[int, LessonPlan]] = {}
        self._fresh_memo: dict[tuple, bool] = {}
        self._source_sig: tuple[int, str] | None = None
        self._keys: dict[str, list[str]] = (_read_json(self.layout.studio_keys) or {}).get("keys", {})
        self._keys_dirty = False
        self._timers: dict[str, threading.Timer] = {}
        self._voice = None
        self._voice_sig: str | None = None
        self._voice_name: str | None = None
        self._voice_cfg: str | None = None
        self._course: Course | None = None
        self._course_error: str | None = None
        self._watch: dict[str, set[Path]] = {}
        self._threads: list[threading.Thread] = []
        self.course()

    # -- where things are -----------------------------------------------------------------------
    @property
    def layout(self) -> MediaLayout:
        return MediaLayout.of(self.cfg)

    def preview_path(self, scene_id: str) -> Path:
        return self.layout.preview_video(scene_id)

    def course(self) -> Course | None:
        """The course as the narration says now; after a broken edit, the last one that loaded."""
        try:
            course = load_course(self.cfg.lessons)
        except UserError as exc:
            self._course_error = one_line(exc)
            return self._course
        self._course, self._course_error = course, None
        return course

    def lesson_plan(self, lesson_id: str) -> LessonPlan | None:
        """The lesson's 15 fps plan file, read again only when it changed."""
        path = plan_path(self.cfg, lesson_id, FPS)
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

    # -- threads --------------------------------------------------------------------------------
    def start(self) -> None:
        for target, name in ((self._builder, "studio-builder"), (self._background, "studio-background")):
            t = threading.Thread(target=target, name=name, daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self) -> None:
        self._stop.set()
        self._kill_check()
        with self._cv:
            self._cv.notify_all()
        self._idle.set()
        self._wake.set()
        for t in list(self._timers.values()):
            t.cancel()
        for t in self._threads:
            t.join(timeout=5)
        self._save_keys()

    def request_build(self, scene_id: str, why: str) -> None:
        """Plan and render ``scene_id``'s preview (once, however often it is asked for before it starts)."""
        with self._cv:
            if all(s != scene_id for s, _ in self._queue):
                self._queue.append((scene_id, why))
            self._idle.clear()
            self._cv.notify_all()
        self._kill_check()

    def busy(self, scene_id: str) -> bool:
        with self._lock:
            return self._building == scene_id or any(s == scene_id for s, _ in self._queue)

    def _builder(self) -> None:
        self._warm_up()
        while not self._stop.is_set():
            with self._cv:
                while not self._queue and not self._stop.is_set():
                    self._idle.set()
                    self._wake.set()
                    self._cv.wait()
                if self._stop.is_set():
                    return
                scene_id, why = self._queue.pop(0)
                self._building = scene_id
                self._idle.clear()
            event, then = {"type": "error", "scene": scene_id, "error": "the build stopped"}, None
            try:
                event, then = self._build(scene_id, why)
            finally:
                with self._lock:
                    self._building = None
                    self._generation += 1
                self.publish(event)         # once it is no longer building: the page asks for its state then
            if event["type"] == "preview":  # the page fetches the video now: the last frame and the checks wait
                with self._cv:
                    if not self._queue:
                        self._cv.wait(timeout=GRACE_S)
            with self._lock:
                next_build = bool(self._queue)
            if then is not None and not next_build:      # the next build makes its own
                then()

    def _warm_up(self) -> None:
        """Resolve the voice and load its model now, so the first edit does not wait for either."""
        try:
            voice, _, _ = self._speech(self.cfg)
            if voice.spec.parallel == "processes":     # it runs here: loading it now is worth it
                with tempfile.TemporaryDirectory() as tmp:
                    voice.synthesize("一。", Path(tmp) / "warm.wav")
        except Exception as exc:       # the first build reports it properly
            self.say(f"studio: the voice did not warm up ({one_line(exc)})")

    # -- a build --------------------------------------------------------------------------------
    def _speech(self, cfg: Config):
        """The voice (resolved once per voice config, rebuilt when the lexicon changes), the audio cache
        and the lexicon."""
        lexicon = Lexicon.load()
        voice_cfg = json.dumps(cfg.voice.model_dump(mode="json"), sort_keys=True)
        sig = _sha(voice_cfg, _file_bytes(default_path()))
        if self._voice is None or sig != self._voice_sig:
            if self._voice_name is None or voice_cfg != self._voice_cfg:
                voice, reason = resolve_voice(cfg.voice, lexicon)
                self.say(f"studio: {reason}")
            else:                      # same voice, another lexicon: no second probe of edge-tts
                voice = make_voice(self._voice_name, cfg.voice, lexicon)
            self._voice, self._voice_sig, self._voice_name, self._voice_cfg = voice, sig, voice.name, voice_cfg
        return self._voice, AudioCache(MediaLayout.of(cfg).audio_cache), lexicon

    def _plan(self, cfg: Config, course: Course, lesson_id: str) -> LessonPlan:
        """Plan the lesson at 15 fps under its plan's course lock, as ``render.py preview`` does."""
        with course_lock(cfg.output_dir, names.plan(lesson_id, FPS), f"the plan of lesson {lesson_id} at {FPS} fps",
                         lambda line: self.say(f"studio: {line}")):
            return self._plan_locked(cfg, course, lesson_id)

    def _plan_locked(self, cfg: Config, course: Course, lesson_id: str) -> LessonPlan:
        voice, cache, lexicon = self._speech(cfg)
        inputs = self._plan_inputs(lesson_id)
        plans, used = falling_back(cfg.voice, voice, lexicon,
                                   lambda v: make_plans(course, cfg, FPS, v, cache, lexicon, [lesson_id]),
                                   lambda line: self.say(f"studio: {line}"))
        if used is not voice:
            self._voice, self._voice_name = used, used.name
        plan, path = plans[lesson_id]
        write_text(self.layout.studio_plan_record(lesson_id),
                   json.dumps({"inputs": inputs, "plan_sha256": _sha(path.read_bytes())}, sort_keys=True) + "\n")
        return plan

    def _build(self, scene_id: str, why: str) -> tuple[dict, Callable[[], None] | None]:
        """Plan the scene's lesson and render its preview; returns the event that says how it went and
        what is left to do after the page has been told."""
        t0 = time.perf_counter()
        self.publish({"type": "building", "scene": scene_id, "why": why})
        try:
            _forget_course_modules()
            self.cfg = cfg = self.load_cfg()
            course = load_course(cfg.lessons)
            self._course, self._course_error = course, None
            course.scene(scene_id)
            require_fit(course, [scene_id])          # the same lines `render.py check` prints
            lesson = course.lesson_of(scene_id)
            scene = self._plan(cfg, course, lesson.id).scene(scene_id)
            planned = time.perf_counter()
            out = self.preview_path(scene_id)
            deliver_scene(cfg, scene, QUALITY, out, subtitles=True)
            made = _read_json(key_path(out)) or {}
            if made.get("key"):                  # the key just used: the page's next look needs no second parse
                with self._lock:
                    self._source_sig = None
                self._keys[scene_id] = [self._key_inputs(scene), made["key"]]
            seconds = round(time.perf_counter() - t0, 2)
            write_text(self.layout.studio_preview_record(scene_id), json.dumps(
                {"key": made.get("key"), "sha256": made.get("sha256"), "seconds": seconds, "made": time.time(),
                 "plan": json.loads(scene_plan_to_json(scene))}, ensure_ascii=False, sort_keys=True) + "\n")
        except Exception as exc:
            line = one_line(exc)
            with self._lock:
                self._errors[scene_id] = line
            self.say(f"studio: {scene_id}: {line}")
            return {"type": "error", "scene": scene_id, "error": line}, None
        with self._lock:
            self._errors.pop(scene_id, None)
            if scene_id not in self._check_first:
                self._check_first.insert(0, scene_id)
        self.say(f"studio: {scene_id}: preview in {seconds:.1f} s: plan {planned - t0:.1f} s, render and mux "
                 f"{seconds - (planned - t0):.1f} s ({why})")

        def last_frame() -> None:     # the .png `render.py preview` leaves, made after the page has its video
            try:
                extract_frame(out, scene.frames - 1, out.with_suffix(".png"))
            except (UserError, RuntimeError) as exc:      # ffmpeg's failure: the preview itself is fine
                self.say(f"studio: {scene_id}: no last frame ({one_line(exc)})")
        return {"type": "preview", "scene": scene_id, "seconds": seconds}, last_frame

    # -- edits ----------------------------------------------------------------------------------
    def watched_paths(self) -> set[Path]:
        """Every file whose edit can change some scene's preview (``preview_inputs``, the list
        ``preview --watch`` watches, for every scene); kept per scene to tell which open scenes an edit
        concerns."""
        course = self._course
        if course is None:
            return set()
        every: set[Path] = set()
        for lesson in course.lessons:
            for scene in lesson.scenes:
                paths = set(preview_inputs(find_scene_module(scene.cls), lesson.path, self.config_file))
                self._watch[scene.id] = paths
                every |= paths
        return every

    def file_changed(self, path: Path) -> None:
        """From the watcher's thread: ``path`` was written. Open scenes that depend on it are built
        again once the edits stop for a moment; every scene's status is worked out again."""
        path = Path(path).resolve()
        with self._lock:
            self._generation += 1
            self._source_sig = None
        self._wake.set()
        self.publish({"type": "changed", "path": path.name})
        for scene_id in sorted(self.open_scenes()):
            if path in self._watch.get(scene_id, ()):
                self._debounced_build(scene_id, f"{path.name} changed")

    def _debounced_build(self, scene_id: str, why: str) -> None:
        with self._lock:
            old = self._timers.pop(scene_id, None)
            if old is not None:
                old.cancel()
            timer = threading.Timer(DEBOUNCE_S, self.request_build, (scene_id, why))
            timer.daemon = True
            self._timers[scene_id] = timer
            timer.start()

    # -- status of a scene ----------------------------------------------------------------------
    def _sources(self) -> str:
        """A signature of every source file's stat: a scene-cache key computed under the same
        signature and plan slice is still the key."""
        with self._lock:
            if self._source_sig is not None and self._source_sig[0] == self._generation:
                return self._source_sig[1]
            gen = self._generation
        files: list[Path] = []
        for pkg in source_packages():
            files += pkg.rglob("*.py")
        files += course_root().glob("*.py")
        h = hashlib.sha256()
        for f in sorted(set(files)):
            try:
                st = f.stat()
            except OSError:
                continue
            h.update(f"{f}:{st.st_mtime_ns}:{st.st_size}\n".encode())
        h.update(json.dumps(render_environment(self.cfg.course.font), sort_keys=True).encode())
        sig = h.hexdigest()
        with self._lock:
            self._source_sig = (gen, sig)
        return sig

    def _key_inputs(self, scene: ScenePlan) -> str:
        return _sha(scene_plan_to_json(dataclasses.replace(scene, start_frame=0)), self._sources(), self.cfg.course.font)

    def scene_key(self, scene: ScenePlan) -> str:
        """The preview's scene-cache key (what ``deliver_scene`` compares), from the memo when its inputs
        are unchanged."""
        sig = self._key_inputs(scene)
        memo = self._keys.get(scene.id)
        if memo and memo[0] == sig:
            return memo[1]
        _, key = scene_cache_key(scene, QUALITY, True, self.cfg.course.font)
        self._keys[scene.id] = [sig, key]
        self._keys_dirty = True
        return key

    def _save_keys(self) -> None:
        if self._keys_dirty:
            self._keys_dirty = False
            write_text(self.layout.studio_keys, json.dumps({"keys": self._keys}, sort_keys=True) + "\n")

    def _plan_files(self, lesson_id: str) -> list[Path]:
        """What the lesson's plan is made from (``plan_inputs``: its narration, the lexicon, the figures,
        the config and the course's Python, which the figures compute with)."""
        return plan_inputs(narration_dir() / f"{lesson_id}.yaml", self.config_file)

    def _plan_inputs(self, lesson_id: str) -> str:
        return _sha(*(f"{f}\0".encode() + _file_bytes(f) for f in self._plan_files(lesson_id)))

    def plan_current(self, lesson_id: str) -> bool:
        """Whether the lesson's plan file was made from its ``plan_inputs`` as they are now (by the
        studio's record; for a plan the studio did not make, by modification time)."""
        path = plan_path(self.cfg, lesson_id, FPS)
        if not path.exists():
            return False
        record = _read_json(self.layout.studio_plan_record(lesson_id))
        if record and record.get("plan_sha256") == _sha(_file_bytes(path)):
            return record.get("inputs") == self._plan_inputs(lesson_id)
        newest = max((f.stat().st_mtime for f in self._plan_files(lesson_id) if f.exists()), default=0.0)
        return path.stat().st_mtime >= newest

    def _fresh(self, mp4: Path, key: str) -> bool:
        try:
            st, kst = mp4.stat(), key_path(mp4).stat()
        except OSError:
            return False
        memo = (str(mp4), st.st_mtime_ns, st.st_size, kst.st_mtime_ns, key)
        if memo not in self._fresh_memo:
            self._fresh_memo[memo] = is_fresh(mp4, key)
        return self._fresh_memo[memo]

    def findings(self, scene_id: str, key: str | None) -> dict | None:
        """The cached viewer check of ``scene_id`` for ``key``: {"findings": [...], "steps"} or {"error"}."""
        if not key:
            return None
        got = _read_json(self.layout.studio_findings(scene_id))
        return got if got and got.get("key") == key else None

    def _refresh_status(self, scene_id: str) -> dict:
        with self._lock:
            gen = self._generation
        course = self._course
        lesson = course.lesson_of(scene_id) if course and scene_id in course.scenes else None
        lp = self.lesson_plan(lesson.id) if lesson else None
        mp4 = self.preview_path(scene_id)
        st: dict = {"gen": gen, "key": None, "duration": None, "planned": False, "plan_current": False,
                    "preview": "stale" if mp4.exists() else "none", "findings": None}
        try:
            scene = lp.scene(scene_id) if lp else None
        except KeyError:
            scene = None
        if scene is not None and find_scene_module(scene.cls) is not None:
            key = self.scene_key(scene)
            current = self.plan_current(lesson.id)
            st.update(key=key, duration=round(scene.duration, 2), planned=True, plan_current=current,
                      findings=self.findings(scene_id, key))
            if mp4.exists() and current and self._fresh(mp4, key):
                st["preview"] = "fresh"
        elif scene is not None:
            st.update(duration=round(scene.duration, 2))
        with self._lock:
            self._status[scene_id] = st
        return st

    def row(self, scene_id: str) -> dict:
        """One line of the scene list."""
        with self._lock:
            st = self._status.get(scene_id)
            pending = st is None or st["gen"] != self._generation
            error = self._errors.get(scene_id)
        st = st or {}
        found = st.get("findings")
        return {"scene": scene_id, "duration": st.get("duration"), "preview": st.get("preview", "unknown"),
                "pending": pending, "building": self.busy(scene_id), "error": error,
                "findings": len(found["findings"]) if found and "findings" in found else None,
                "findings_error": found.get("error") if found else None,
                "checking": self._checking == scene_id}

    def scene_list(self) -> dict:
        course = self.course()
        self._wake.set()
        lessons = []
        for lesson in course.lessons if course else []:
            rows = []
            for s in lesson.scenes:
                rows.append({**self.row(s.id), "title": s.title, "cues": len(s.cues), "cls": s.cls})
            lessons.append({"lesson": lesson.id, "title": lesson.title, "scenes": rows})
        return {"title": self.cfg.course.title, "error": self._course_error, "lessons": lessons}

    # -- a scene's page -------------------------------------------------------------------------
    def shown(self, scene_id: str) -> tuple[ScenePlan | None, str | None, str | None]:
        """(the plan slice the preview on disk was made from, its key, its sha256): the studio's record of
        its last good build, else the plan file's slice for a preview made elsewhere."""
        mp4 = self.preview_path(scene_id)
        made = _read_json(key_path(mp4)) if mp4.exists() else None
        record = _read_json(self.layout.studio_preview_record(scene_id))
        if made and record and record.get("sha256") == made.get("sha256"):
            return scene_plan_from_json(json.dumps(record["plan"])), record.get("key"), made.get("sha256")
        course = self._course
        if course is None or scene_id not in course.scenes:
            return None, None, None
        lp = self.lesson_plan(course.lesson_of(scene_id).id)
        try:
            scene = lp.scene(scene_id) if lp else None
        except KeyError:
            scene = None
        if made is None:
            return scene, None, None
        return scene, made.get("key"), made.get("sha256")

    def scene_view(self, scene_id: str) -> dict | None:
        course = self.course()
        if course is None or scene_id not in course.scenes:
            return None
        lesson = course.lesson_of(scene_id)
        narrated = course.scenes[scene_id]
        with self._lock:
            st = self._status.get(scene_id)
            pending = st is None or st["gen"] != self._generation
        if pending:                     # one key, now: the page decides from it whether to build
            self._refresh_status(scene_id)
        plan, key, sha = self.shown(scene_id)
        st = self.row(scene_id)
        found = self.findings(scene_id, key)
        record = _read_json(self.layout.studio_preview_record(scene_id)) or {}
        view = {"scene": scene_id, "title": narrated.title, "lesson": lesson.id, "lesson_title": lesson.title,
                "cls": narrated.cls, "course_error": self._course_error, "fps": FPS,
                "video": f"/preview/{scene_id}.mp4?v={sha[:16]}" if sha else None,
                "made": record.get("made") if record.get("sha256") == sha else None,
                "seconds": record.get("seconds") if record.get("sha256") == sha else None,
                "status": st, "findings": found, "plan": None}
        if plan is not None:
            view["plan"] = {"frames": plan.frames, "fps": plan.fps, "duration": plan.duration, "cues": [
                {"id": c.id, "short": c.id.split(".", 1)[1], "text": c.text, "spoken": c.spoken,
                 "start": c.start_frame, "end": c.end_frame, "frames": c.frames, "speech_frames": c.speech_frames,
                 "role": c.role, "bookmarks": c.bookmarks, "voice": c.voice,
                 "audio": f"/audio/{scene_id}/{c.id.split('.', 1)[1]}" if c.audio else None,
                 "subtitles": [dataclasses.asdict(e) for e in c.subtitles]} for c in plan.cues]}
        return view

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
        path = (course_root() / cue.audio).resolve()
        return path if path.is_file() and inside(path, course_root()) else None

    # -- the background: statuses, then viewer checks ---------------------------------------------
    def _order(self) -> list[str]:
        course = self._course
        every = list(course.scenes) if course else []
        with self._lock:
            first = [s for s in self._check_first if s in every]
        opened = [s for s in sorted(self.open_scenes()) if s in every and s not in first]
        return first + opened + [s for s in every if s not in first and s not in opened]

    def _next_task(self) -> tuple[str, str] | None:
        order = self._order()
        with self._lock:
            gen = self._generation
            stale = [s for s in order if s not in self._status or self._status[s]["gen"] != gen]
        if stale:
            return "status", stale[0]
        self._save_keys()
        if not self.background_checks:
            return None
        for s in order:
            st = self._status.get(s) or {}
            if st.get("planned") and st.get("key") and st.get("findings") is None:
                return "check", s
        return None

    def _background(self) -> None:
        while not self._stop.is_set():
            self._idle.wait()
            if self._stop.is_set():
                return
            try:
                task = self._next_task()
            except Exception as exc:
                self.say(f"studio: scene status: {one_line(exc)}")
                task = None
            if task is None:
                self._wake.wait(timeout=5)
                self._wake.clear()
                continue
            kind, scene_id = task
            try:
                if kind == "status":
                    before = self.row(scene_id)
                    self._refresh_status(scene_id)
                    after = self.row(scene_id)
                    if {k: v for k, v in before.items() if k != "pending"} != \
                            {k: v for k, v in after.items() if k != "pending"} or before["pending"]:
                        self.publish({"type": "status", "scene": scene_id, "row": after})
                else:
                    self._check(scene_id)
            except Exception as exc:       # keep going; mark it so it is not retried in a loop
                with self._lock:
                    self._status.setdefault(scene_id, {})
                    self._status[scene_id].update(gen=self._generation, findings={"error": one_line(exc)})
                self.say(f"studio: {scene_id}: {one_line(exc)}")

    def _kill_check(self) -> None:
        proc = self._check_proc
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass

    def _check(self, scene_id: str) -> None:
        """The viewer check of one scene in a child process; its findings cached under the scene's key."""
        st = self._status[scene_id]
        course = self._course
        lp = self.lesson_plan(course.lesson_of(scene_id).id)
        scene = lp.scene(scene_id)
        key = st["key"]
        work = self.layout.studio_check
        plan_file = write_text(work / f"{scene_id}.plan.json", scene_plan_to_json(scene))
        out = work / f"{scene_id}.out.json"
        out.unlink(missing_ok=True)
        args = [sys.executable, "-m", "coursekit.studio.work", "check", str(plan_file), str(out),
                str(self.layout.inspect)]
        env = manim_env(plan_file)          # the course's and the engine's packages on the path, threads pinned
        with self._lock:
            if not self._idle.is_set():
                return
            self._checking = scene_id
            self._check_proc = proc = subprocess.Popen(
                args, env=env, cwd=course_root(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                start_new_session=True)
            try:
                os.setpriority(os.PRIO_PROCESS, proc.pid, 10)     # behind renders and the author's own work
            except OSError:
                pass
        self.publish({"type": "status", "scene": scene_id, "row": self.row(scene_id)})
        try:
            _, err = proc.communicate()
        finally:
            with self._lock:
                self._check_proc = None
                self._checking = None
        if proc.returncode < 0:          # killed for a build: run again later
            self.publish({"type": "status", "scene": scene_id, "row": self.row(scene_id)})
            return
        if proc.returncode == 0 and (got := _read_json(out)) is not None:
            result = {"key": key, "steps": got["steps"], "findings": got["findings"]}
        else:
            lines = [l for l in err.decode("utf-8", "replace").splitlines() if l.strip()]
            result = {"key": key, "error": lines[-1] if lines else f"the check exited with {proc.returncode}"}
        write_text(self.layout.studio_findings(scene_id), json.dumps(result, ensure_ascii=False) + "\n")
        with self._lock:
            if scene_id in self._check_first:
                self._check_first.remove(scene_id)
            if self._status.get(scene_id, {}).get("key") == key:
                self._status[scene_id]["findings"] = result
        self.publish({"type": "findings", "scene": scene_id, "row": self.row(scene_id)})


# -- the child process of a viewer check --------------------------------------------------------
def check_main(argv: Iterable[str]) -> int:
    """``check PLAN.json OUT.json MEDIA_DIR``: the viewer check of the scene in PLAN.json (a dry run),
    its findings written to OUT.json; a failure is one line on stderr and exit status 1."""
    _, plan_file, out, media_dir = list(argv)
    try:
        plan = scene_plan_from_json(Path(plan_file).read_text(encoding="utf-8"))
        with building(plan.id, plan.cls):
            cls = scene_class(plan.cls)
            report = check_scene(cls, plan, cls.viewer_rules(), media_dir=Path(media_dir))
    except Exception as exc:
        print(one_line(exc), file=sys.stderr)
        return 1
    write_text(Path(out), json.dumps({"steps": report.steps, "findings": [dataclasses.asdict(f) for f in report.findings]},
                                     ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(check_main(sys.argv[1:]))
