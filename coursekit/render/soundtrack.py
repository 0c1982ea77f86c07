"""Narration tracks built from the plan: one per scene (preview, listen) or per lesson (assembly).

The plan already knows every cue's frame, so the track is mixed once, sample-exact,
and loudness-normalised as a whole (short cues cannot be measured one by one). A scene's
track stays 24 kHz mono; the lesson's, which is what is delivered, is resampled once to
48 kHz stereo and normalised after that upmix (``encode_delivery_aac``).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coursekit.core.paths import course_root
from coursekit.plan.model import LessonPlan, ScenePlan
from coursekit.speech.audio import (
    encode_aac_atomic,
    encode_delivery_aac,
    loudness_normalise,
    mix_track,
    plain_normalise,
)


def _items(scene: ScenePlan, offset_frames: int = 0) -> list[tuple[Path | None, float]]:
    return [
        (course_root() / c.audio if c.audio else None, (offset_frames + c.start_frame) / scene.fps) for c in scene.cues
    ]


def lesson_mix(plan: LessonPlan):
    """The whole lesson's narration mixed at 24 kHz mono on the plan's frames, not normalised."""
    items = [it for s in plan.scenes for it in _items(s, s.start_frame)]
    return mix_track(items, plan.frames / plan.fps)


def write_lesson_narration(plan: LessonPlan, out: Path) -> tuple[Path, float, float]:
    """Encode the lesson's delivered narration (48 kHz stereo AAC-LC in .m4a, -16 LUFS, true peak
    <= -1 dBTP) to ``out``, atomically. Returns (out, LUFS, dBTP) measured on the encoded file."""
    return encode_delivery_aac(lesson_mix(plan), out)


def write_delivered_scene_narration(scene: ScenePlan, out: Path) -> tuple[Path, float, float]:
    """A scene delivered on its own (a lesson's overview) gets the lesson's delivered audio format."""
    return encode_delivery_aac(mix_track(_items(scene), scene.frames / scene.fps), out)


def write_scene_narration(scene: ScenePlan, out: Path, normalise=loudness_normalise) -> Path:
    """Encode the scene's narration (AAC in .m4a) to ``out``, atomically. ``normalise``: the studio's
    provisional preview passes ``audio.plain_normalise``, a plain gain instead of the limited one (0.45 s in
    all for a 99 s scene, against 1.0 s)."""

    out.parent.mkdir(parents=True, exist_ok=True)
    encode_aac_atomic(normalise(mix_track(_items(scene), scene.frames / scene.fps)), out)
    return out


class RemadeSounds:
    """The narration tracks of a preview the studio remakes (``one_scene.deliver_remade``), made one after the
    other on a side thread: the provisional preview's quick one first (when ``quick``), then the remade
    preview's, held back until ``drawn()`` (a parked process drawing the edited cue would be slowed by it).
    Leaving the ``with`` block releases the hold, so it never waits for a mix that cannot start."""

    def __init__(self, scene: ScenePlan, folder: Path, quick: bool) -> None:
        self._scene, self._folder, self._quick_wanted = scene, folder, quick
        self._go = threading.Event()

    def __enter__(self) -> RemadeSounds:
        self._side = ThreadPoolExecutor(max_workers=1)
        s, folder = self._scene, self._folder
        self._quick = (
            self._side.submit(write_scene_narration, s, folder / f"{s.id}.provisional.m4a", plain_normalise)
            if self._quick_wanted
            else None
        )
        self._full = self._side.submit(self._remade, folder / f"{s.id}.m4a")
        return self

    def _remade(self, out: Path) -> Path:
        self._go.wait()
        return write_scene_narration(self._scene, out)

    def drawn(self) -> None:
        """The edited cue is drawn (or no parked process draws it): the remade preview's sound can be mixed."""
        self._go.set()

    def provisional(self) -> Path:
        """The provisional preview's sound: the remade one if it is ready, else the quick one."""
        if self._quick is None or self._full.done():
            return self._full.result()
        return self._quick.result()

    def remade(self) -> Path:
        return self._full.result()

    def __exit__(self, *exc) -> None:
        self._go.set()
        self._side.shutdown(wait=True)
