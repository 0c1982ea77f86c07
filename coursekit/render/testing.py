"""Plans without audio for scene tests and silent previews, as Manim keeps ``manim.utils.testing``."""

from __future__ import annotations

from pathlib import Path

from coursekit.core.paths import use_course
from coursekit.plan.model import CuePlan, ScenePlan
from coursekit.render.registry import scene_class
from coursekit.render.viewer_check import build_dry_run


def quiet_render(media_dir: Path, fps: int | None = None) -> dict:
    """Manim's settings for a test that renders a scene in its own process: 480p (at ``fps``, else Manim's
    own), into ``media_dir``, Manim's play cache off, no progress bar, errors only. Pass it to
    ``manim.tempconfig``."""
    settings = {
        "quality": "low_quality",
        "media_dir": str(media_dir),
        "disable_caching": True,
        "progress_bar": "none",
        "verbosity": "ERROR",
    }
    return settings if fps is None else {**settings, "frame_rate": fps}


def synthetic_plan(
    scene_id: str,
    cls: str,
    cues: list[tuple[str, int, int, dict[str, int]]],
    *,
    fps: int = 15,
    lead_in: int = 0,
    gap: int = 0,
    tail: int = 0,
    title: str = "",
    lesson_title: str = "",
) -> ScenePlan:
    """A plan without audio, for tests and silent previews.

    ``cues`` holds ``(short_id, frames, speech_frames, bookmarks)`` with bookmark
    frames relative to the *cue* start; cues follow each other with ``gap``
    frames between them, after ``lead_in`` frames, and ``tail`` frames close the scene.
    ``title`` and ``lesson_title`` default to the scene id.
    """
    out: list[CuePlan] = []
    frame = lead_in
    for i, (short, frames, speech, marks) in enumerate(cues):
        if i:
            frame += gap
        out.append(
            CuePlan(
                id=f"{scene_id}.{short}",
                text=short,
                spoken=short,
                start_frame=frame,
                frames=frames,
                speech_frames=speech,
                audio=None,
                audio_sha256=None,
                voice="synthetic",
                bookmarks={k: frame + v for k, v in marks.items()},
            )
        )
        frame += frames
    return ScenePlan(
        id=scene_id,
        cls=cls,
        title=title or scene_id,
        source=[],
        start_frame=0,
        frames=frame + tail,
        fps=fps,
        cues=out,
        lesson_title=lesson_title or scene_id,
    )


def preview_plan(scene_cls: type, scene_id: str | None = None, *, fps: int = 15, seconds: float = 4.0) -> ScenePlan:
    """A synthetic plan for a scene class that declares ``CUES`` (and ``BOOKMARKS``).

    Each cue gets ``seconds`` of speech plus a short pause; bookmarks are spread
    evenly through the speech, as a narrator would reach them.
    """
    scene_id = scene_id or scene_cls.SCENE_IDS[0]
    speech = int(round(seconds * fps))
    cues = []
    for short in scene_cls.CUES:
        marks = scene_cls.BOOKMARKS.get(short, ())
        bm = {name: int(speech * (j + 1) / (len(marks) + 1)) for j, name in enumerate(marks)}
        cues.append((short, speech + fps // 3, speech, bm))
    return synthetic_plan(
        scene_id,
        scene_cls.__name__,
        cues,
        fps=fps,
        lead_in=fps // 2,
        gap=fps // 3,
        tail=fps,
        title=getattr(scene_cls, "PREVIEW_TITLE", scene_id),
    )


def build_scene(
    class_name: str, *, course: Path | None = None, media_dir: Path, scene_id: str | None = None, fps: int = 15
):
    """A course's scene class built without pixels (a dry run) from its ``preview_plan``, for the course's
    own tests: ``course`` (its folder, made the course of this process; default: the current one) holds
    ``scenes/`` with ``class_name``; Manim's scratch files go to ``media_dir``. The scene comes back with
    ``probes`` (what its ``watch()``es and ``probe()``s recorded, each with its ``frame``), ``drawn_texts``
    and ``viewer_report`` (the viewer check's findings, as ``inspect`` reports them)."""
    if course is not None:
        use_course(course)
    cls = scene_class(class_name)
    plan = preview_plan(cls, scene_id, fps=fps)
    scene, report = build_dry_run(cls, plan, media_dir=Path(media_dir), rules=cls.viewer_rules())
    scene.viewer_report = report
    return scene
