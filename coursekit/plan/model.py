"""The timeline plan: every scene and cue placed in whole frames, written as JSON.

A plan is made per lesson and frame rate, in ``media/plan/<fps>fps/<lesson>.json``.
Scenes read their slice of it (``ScenePlan``); subtitles, chapters and the audio
track are derived from it. The same inputs give byte-identical JSON.

Frame numbers in a ``CuePlan`` are relative to the start of its scene; a
``ScenePlan.start_frame`` is relative to the start of the lesson. Subtitle times are
in milliseconds relative to the start of the scene. Reading a plan validates it against these
types (pydantic), so a damaged or foreign file is one line naming the file and the key.
"""

from __future__ import annotations

import functools
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from coursekit.core.errors import UserError
from coursekit.subtitles.events import SubtitleEvent  # a cue's subtitles, as the plan keeps them

__all__ = ["SubtitleEvent", "CuePlan", "ScenePlan", "LessonPlan", "scene_plan_from_json", "scene_plan_to_json"]


@dataclass(frozen=True)
class CuePlan:
    id: str  # "<scene>.<cue>"
    text: str  # written form shown in subtitles (figures filled, bookmarks removed)
    spoken: str  # what the voice read
    start_frame: int  # relative to the scene's first frame
    frames: int  # speech frames + pause frames
    speech_frames: int  # frames covered by the audio
    audio: str | None  # path relative to the course root (None for the silent voice)
    audio_sha256: str | None
    voice: str  # which voice made it, with its version
    bookmarks: dict[str, int] = field(default_factory=dict)  # name -> frame relative to the scene
    subtitles: list[SubtitleEvent] = field(default_factory=list)
    role: str | None = None  # question | answer | think (the narration's cue role), else None

    @property
    def end_frame(self) -> int:
        return self.start_frame + self.frames


@dataclass(frozen=True)
class ScenePlan:
    id: str
    cls: str
    title: str
    source: list[str]
    start_frame: int  # relative to the lesson's first frame
    frames: int
    fps: int
    cues: list[CuePlan]
    overview: bool = False  # also delivered alone as <lesson>/overview.mp4
    lesson_title: str = ""  # the title of its lesson, for a scene that shows it (an opening)

    def cue(self, short_or_full_id: str) -> CuePlan:
        full = short_or_full_id if "." in short_or_full_id else f"{self.id}.{short_or_full_id}"
        for c in self.cues:
            if c.id == full:
                return c
        raise KeyError(full)

    @property
    def duration(self) -> float:
        return self.frames / self.fps


@dataclass(frozen=True)
class LessonPlan:
    lesson: str
    title: str
    fps: int
    frames: int
    voice: str
    scenes: list[ScenePlan]
    #: cue id -> when each character of its written text starts to be spoken, in ms from the scene's
    #: start (one entry per character, and one more: the end of its speech). Kept beside the scenes,
    #: not in them, so a scene's render key does not change with it; the course page's word highlight.
    char_ms: dict[str, list[int]] = field(default_factory=dict)
    #: the terms of the voice that voiced it, from the voice's declaration ("kokoro: Apache-2.0 (…)";
    #: ``Voice.licence_line``); the manifest records it beside ``voice``. Empty in plans made before.
    voice_licence: str = ""
    #: the cues voiced by the author's own takes (the recorded voice), in order; every other cue synthesised
    recorded: list[str] = field(default_factory=list)

    def scene(self, scene_id: str) -> ScenePlan:
        for s in self.scenes:
            if s.id == scene_id:
                return s
        raise KeyError(scene_id)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    @staticmethod
    def from_dict(d: object, source: str = "the plan") -> "LessonPlan":
        """A plan from its JSON data, validated (pydantic); a bad one is one line naming ``source``."""
        return _validated(LessonPlan, d, source)

    @staticmethod
    def read(path: Path) -> "LessonPlan":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise UserError(f"{path}: cannot read the plan ({exc}); make it again with `render.py plan`") from None
        return LessonPlan.from_dict(data, str(path))


@functools.cache
def _adapter(kind: type) -> TypeAdapter:
    return TypeAdapter(kind)


def _validated(kind: type, data: object, source: str):
    try:
        return _adapter(kind).validate_python(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "the top level"
        raise UserError(f"{source}: {where}: {err['msg']}; make the plan again with `render.py plan`") from None


def scene_plan_from_json(text: str, source: str = "the scene plan") -> ScenePlan:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{source}: not JSON ({exc}); make the plan again with `render.py plan`") from None
    return _validated(ScenePlan, data, source)


def scene_plan_to_json(plan: ScenePlan) -> str:
    return json.dumps(asdict(plan), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
