"""Narration tracks built from the plan: one per scene (preview, listen) or per lesson (assembly).

The plan already knows every cue's frame, so the track is mixed once, sample-exact,
and loudness-normalised as a whole (short cues cannot be measured one by one). A scene's
track stays 24 kHz mono; the lesson's, which is what is delivered, is resampled once to
48 kHz stereo and normalised after that upmix (``encode_delivery_aac``).
"""

from __future__ import annotations

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


def scene_track(scene: ScenePlan):
    return loudness_normalise(mix_track(_items(scene), scene.frames / scene.fps))


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


def write_scene_narration(scene: ScenePlan, out: Path) -> Path:
    """Encode the scene's narration (AAC in .m4a) to ``out``, atomically."""

    out.parent.mkdir(parents=True, exist_ok=True)
    encode_aac_atomic(scene_track(scene), out)
    return out


def write_provisional_scene_narration(scene: ScenePlan, out: Path) -> Path:
    """The studio's provisional preview's sound (``one_scene.deliver_remade``): the scene's mix with a plain
    gain (``audio.plain_normalise``) instead of the limited one, encoded to ``out`` as
    ``write_scene_narration`` does; a third of its time, on the core the edited cue's drawing leaves."""
    out.parent.mkdir(parents=True, exist_ok=True)
    encode_aac_atomic(plain_normalise(mix_track(_items(scene), scene.frames / scene.fps)), out)
    return out
