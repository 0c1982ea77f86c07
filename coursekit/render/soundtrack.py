"""Narration tracks built from the plan: one per scene (preview, listen) or per lesson (assembly).

The plan already knows every cue's frame, so the track is mixed once, sample-exact,
and loudness-normalised as a whole (short cues cannot be measured one by one).
"""
from __future__ import annotations

from pathlib import Path

from coursekit.core.paths import course_root
from coursekit.plan.model import LessonPlan, ScenePlan
from coursekit.speech.audio import loudness_normalise, mix_track
from coursekit.speech.audio import encode_aac_atomic


def _items(scene: ScenePlan, offset_frames: int = 0) -> list[tuple[Path | None, float]]:
    return [(course_root() / c.audio if c.audio else None, (offset_frames + c.start_frame) / scene.fps)
            for c in scene.cues]


def scene_track(scene: ScenePlan):
    return loudness_normalise(mix_track(_items(scene), scene.frames / scene.fps))


def lesson_track(plan: LessonPlan):
    items = [it for s in plan.scenes for it in _items(s, s.start_frame)]
    return loudness_normalise(mix_track(items, plan.frames / plan.fps))


def write_scene_narration(scene: ScenePlan, out: Path) -> Path:
    """Encode the scene's narration (AAC in .m4a) to ``out``, atomically."""

    out.parent.mkdir(parents=True, exist_ok=True)
    encode_aac_atomic(scene_track(scene), out)
    return out
