"""Whether a scene's preview and a lesson's plan are current, without a dry run per scene.

A preview is fresh when it was made under the scene's scene-cache key (``scene_cache_key``: its module and
every module it imports, its plan slice, quality, libraries, fonts) and its lesson's plan is current.
Computing 29 keys takes seconds (each parses the sources a scene imports), so keys are kept by a signature
of their inputs (the plan slice and the stat of every source file) across runs, in the output folder's
``studio/keys.json``. A plan is current when it was made from its ``plan_inputs`` as they are now: by the
studio's record of the plan it made (``studio/plans/<lesson>.json``), else by modification time.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from coursekit.core.atomic import write_text
from coursekit.core.paths import narration_dir, source_packages
from coursekit.core.sources import plan_inputs
from coursekit.plan.model import LessonPlan, ScenePlan, scene_plan_to_json
from coursekit.project.base import PREVIEW
from coursekit.render.fingerprint import render_environment
from coursekit.render.one_scene import scene_cache_key
from coursekit.render.scene_cache import is_fresh, key_path
from coursekit.studio.state import Shared, file_bytes, read_json, sha


class Freshness:
    """Scene-cache keys by the signature of their inputs, and the plan and preview checks built on them."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self._keys: dict[str, list[str]] = (read_json(shared.layout.studio_keys) or {}).get("keys", {})
        self._keys_dirty = False
        self._source_sig: tuple[int, str] | None = None
        self._fresh_memo: dict[tuple, bool] = {}

    # -- scene-cache keys -------------------------------------------------------------------------
    def _sources(self) -> str:
        """A signature of every source file's stat: a scene-cache key computed under the same
        signature and plan slice is still the key."""
        shared = self.shared
        with shared.lock:
            if self._source_sig is not None and self._source_sig[0] == shared.generation:
                return self._source_sig[1]
            gen = shared.generation
        files: list[Path] = []
        for pkg in source_packages():
            files += pkg.rglob("*.py")
        files += shared.project.root.glob("*.py")
        h = hashlib.sha256()
        for f in sorted(set(files)):
            try:
                st = f.stat()
            except OSError:
                continue
            h.update(f"{f}:{st.st_mtime_ns}:{st.st_size}\n".encode())
        h.update(json.dumps(render_environment(shared.cfg.course.font), sort_keys=True).encode())
        sig = h.hexdigest()
        with shared.lock:
            self._source_sig = (gen, sig)
        return sig

    def forget_sources(self) -> None:
        """The source files may have changed: their signature is worked out again when next asked for."""
        with self.shared.lock:
            self._source_sig = None

    def _key_inputs(self, scene: ScenePlan) -> str:
        return sha(
            scene_plan_to_json(dataclasses.replace(scene, start_frame=0)), self._sources(), self.shared.cfg.course.font
        )

    def scene_key(self, scene: ScenePlan) -> str:
        """The preview's scene-cache key (what ``deliver_scene`` compares), from the memo when its inputs
        are unchanged."""
        sig = self._key_inputs(scene)
        memo = self._keys.get(scene.id)
        if memo and memo[0] == sig:
            return memo[1]
        _, key = scene_cache_key(scene, PREVIEW.quality, True, self.shared.cfg.course.font)
        self._keys[scene.id] = [sig, key]
        self._keys_dirty = True
        return key

    def remember(self, scene: ScenePlan, key: str) -> None:
        """``key`` is the one a build just used: the page's next look needs no second parse."""
        self.forget_sources()
        self._keys[scene.id] = [self._key_inputs(scene), key]

    def save(self) -> None:
        """Write the keys, if some are new since the last time."""
        if self._keys_dirty:
            self._keys_dirty = False
            write_text(self.shared.layout.studio_keys, json.dumps({"keys": self._keys}, sort_keys=True) + "\n")

    # -- plans ----------------------------------------------------------------------------------
    def _plan_files(self, lesson_id: str) -> list[Path]:
        """What the lesson's plan is made from (``plan_inputs``: its narration, the lexicon, the figures,
        the config and the course's Python, which the figures compute with)."""
        return plan_inputs(narration_dir() / f"{lesson_id}.yaml", self.shared.config_file)

    def plan_inputs(self, lesson_id: str) -> str:
        """A digest of the lesson's ``plan_inputs`` as they are now."""
        return sha(*(f"{f}\0".encode() + file_bytes(f) for f in self._plan_files(lesson_id)))

    def plan_made(self, lesson_id: str, inputs: str, plan: LessonPlan) -> None:
        """Record that the studio made ``plan`` from ``inputs`` (``plan_inputs`` as they were before it
        was planned): ``plan_current`` reads the record."""
        write_text(
            self.shared.layout.studio_plan_record(lesson_id),
            json.dumps({"inputs": inputs, "plan_sha256": sha(plan.to_json())}, sort_keys=True) + "\n",
        )

    def plan_current(self, lesson_id: str) -> bool:
        """Whether the lesson's plan file was made from its ``plan_inputs`` as they are now (by the
        studio's record; for a plan the studio did not make, by modification time)."""
        path = self.shared.layout.lesson_plan(lesson_id, PREVIEW.fps)
        if not path.exists():
            return False
        record = read_json(self.shared.layout.studio_plan_record(lesson_id))
        if record and record.get("plan_sha256") == sha(file_bytes(path)):
            return record.get("inputs") == self.plan_inputs(lesson_id)
        newest = max((f.stat().st_mtime for f in self._plan_files(lesson_id) if f.exists()), default=0.0)
        return path.stat().st_mtime >= newest

    # -- previews -------------------------------------------------------------------------------
    def fresh(self, mp4: Path, key: str) -> bool:
        """Whether the preview ``mp4`` was made under ``key`` (memoised by the files' stat)."""
        try:
            st, kst = mp4.stat(), key_path(mp4).stat()
        except OSError:
            return False
        memo = (str(mp4), st.st_mtime_ns, st.st_size, kst.st_mtime_ns, key)
        if memo not in self._fresh_memo:
            self._fresh_memo[memo] = is_fresh(mp4, key)
        return self._fresh_memo[memo]
