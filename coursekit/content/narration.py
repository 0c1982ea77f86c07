"""Narration as data: narration/<lesson>.yaml, validated, with line numbers in every error.

Schema (one file per lesson)::
    lesson: first_steps           # the file's own name, one of the course's lessons
    title: 第一课
    scenes:
      - id: opening               # snake_case, unique across the whole course
        class: Opening            # the Manim class in the course's scenes/ that draws it
        title: 开场                 # chapter title
        source: ["notes §1"]      # where its facts come from
        overview: false           # optional: true also delivers this scene alone as <lesson>/overview.mp4
        cues:
          - id: sweep             # full id: opening.sweep
            text: 指针转一圈，{@tip}指尖画出一个圆。
            say: 指针转一圈，{@tip}指尖画出一个圆。   # optional spoken form
            pause: 0              # optional silent seconds after the cue
            role: question        # optional: question | answer | think (a quiz's parts, for the course page)
            choices: [会, 不会]    # optional, on a question: the choices the course page offers in the video
            correct: 2            # optional, with choices: which one is right (counted from 1)

Inside ``text`` and ``say``:

- ``{@name}`` places a bookmark that animations can wait for (``cue.until("name")``);
- ``{name}`` is a figure computed by the course's ``figures.py`` beside its narration (see
  ``coursekit.content.figures``), filled in when the plan is made, so no computed number is typed.

A narration file holds no invisible format character (``coursekit.core.invisible``) but those the
course declares in its config.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from coursekit.content.figures import NO_FIGURES, CourseFigures, Figures
from coursekit.content.wording import BOOKMARK_RE, FIGURE_RE, placeholders, spoken, text_field
from coursekit.core.config import declared_format_characters
from coursekit.core.errors import UserError
from coursekit.core.invisible import refuse_format_characters
from coursekit.core.paths import narration_dir as course_narration_dir
from coursekit.core.paths import plain_name, shown
from coursekit.core.safeyaml import load_lined, read_text

CLASS_RE = re.compile(r"^[A-Z][A-Za-z0-9]*$")
ROLES = ("question", "answer", "think")


@dataclass(frozen=True)
class Cue:
    """One narrated beat. ``text`` is what subtitles show, ``say`` what the voice reads."""

    id: str  # full id, "<scene>.<cue>"
    text: str  # written form, bookmarks and figure placeholders still in it
    say: str | None
    pause: float
    line: int
    role: str | None = None  # question | answer | think: what the cue is in a quiz
    #: the course's figures, which fill ``{name}`` placeholders (see coursekit.content.figures)
    figures: Figures = field(default=NO_FIGURES, compare=False, repr=False)
    choices: tuple[str, ...] = ()  # a question's choices, for the course page (not spoken, not drawn)
    correct: int | None = None  # which choice is right, counted from 1 (None: the page only shows the answer)

    @property
    def short_id(self) -> str:
        return self.id.split(".", 1)[1]

    @property
    def bookmarks(self) -> list[str]:
        return BOOKMARK_RE.findall(self.say if self.say is not None else self.text)


@dataclass(frozen=True)
class Scene:
    id: str
    cls: str
    title: str
    source: tuple[str, ...]
    cues: tuple[Cue, ...]
    lesson: str
    line: int
    overview: bool = False  # also delivered alone, as <lesson>/overview.mp4


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    scenes: tuple[Scene, ...]
    path: Path

    def scene(self, scene_id: str) -> Scene:
        for s in self.scenes:
            if s.id == scene_id:
                return s
        raise KeyError(scene_id)


@dataclass
class Course:
    lessons: list[Lesson] = field(default_factory=list)

    @cached_property
    def scenes(self) -> dict[str, Scene]:
        return {s.id: s for lesson in self.lessons for s in lesson.scenes}

    def lesson(self, lesson_id: str) -> Lesson:
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise UserError(unknown("lesson", lesson_id, [l.id for l in self.lessons]))

    def scene(self, scene_id: str) -> Scene:
        if scene_id not in self.scenes:
            raise UserError(unknown("scene", scene_id, list(self.scenes)))
        return self.scenes[scene_id]

    def lesson_of(self, scene_id: str) -> Lesson:
        return next(l for l in self.lessons if any(s.id == scene_id for s in l.scenes))


def unknown(kind: str, name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
    hint = (
        f"close matches: {', '.join(close)}"
        if close
        else f"known: {', '.join(known[:12])}{' …' if len(known) > 12 else ''}"
    )
    return f"unknown {kind} '{name}'; {hint}"


def _snake(v: str, field: str) -> str:
    return plain_name(v, field, snake_case=True)  # scene and lesson ids name files: media/scenes/<id>.mp4


def _checked(check, field: str) -> AfterValidator:
    """A field validated by ``check(value, field)`` (``text_field`` or ``_snake``)."""
    return AfterValidator(lambda v: check(v, field))


def _some(missing: str) -> AfterValidator:
    """A list that must not be empty; ``missing`` says so and how to fix it."""

    def check(v: list) -> list:
        if not v:
            raise ValueError(missing)
        return v

    return AfterValidator(check)


class _Schema(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CueSchema(_Schema):
    """One cue as written in the file."""

    id: Annotated[str, _checked(_snake, "cue id")]
    text: str
    say: str | None = None
    pause: float = 0.0
    role: str | None = None
    choices: list[str] | None = None
    correct: int | None = None

    @field_validator("text", "say")
    @classmethod
    def _words(cls, v: str | None, info: ValidationInfo) -> str | None:
        if v is None:
            return None
        field = f"cue {info.field_name}"
        return spoken(placeholders(text_field(v, field), field), field)

    @field_validator("pause", mode="before")
    @classmethod
    def _pause(cls, v: object) -> float:
        try:
            pause = float(v)
        except (TypeError, ValueError):
            raise ValueError("pause must be a number of seconds, like 3") from None
        if not 0 <= pause <= 30:
            raise ValueError(f"pause {pause:g} is out of range; use 0 to 30 seconds")
        return pause

    @field_validator("role")
    @classmethod
    def _role(cls, v: str | None) -> str | None:
        if v is not None and v not in ROLES:
            raise ValueError(unknown("role", v, list(ROLES)))
        return v

    @field_validator("choices", mode="before")
    @classmethod
    def _choices(cls, v: object) -> list[str] | None:
        if v is None:
            return v
        if not isinstance(v, list) or any(isinstance(c, (list, dict)) or c is None for c in v):
            raise ValueError("choices must be a list of short texts, like [会, 不会]")
        if not 2 <= len(v) <= 6:
            raise ValueError(f"a question has 2 to 6 choices, not {len(v)}")
        return [text_field(str(c), "a choice") for c in v]  # a number (4, 0.5) is the text it is written as

    @model_validator(mode="after")
    def _quiz(self) -> "CueSchema":
        if self.choices is not None and self.role != "question":
            raise ValueError("choices belong to a cue with role: question")
        if self.correct is not None and (self.choices is None or not 1 <= self.correct <= len(self.choices)):
            raise ValueError("correct names one of the choices, counted from 1 (1 to the number of choices)")
        return self


class SceneSchema(_Schema):
    """One scene as written in the file."""

    id: Annotated[str, _checked(_snake, "scene id")]
    cls: str = Field(alias="class")
    title: Annotated[str, _checked(text_field, "the scene title")]
    source: list[str]
    cues: Annotated[list[CueSchema], _some("the scene has no cues; add at least one")]
    overview: bool = False

    @field_validator("cls")
    @classmethod
    def _cls(cls, v: str) -> str:
        if not CLASS_RE.match(v):
            raise ValueError(f"class '{v}' must be a Python class name like 'UnitCircle'")
        return v

    @field_validator("overview", mode="before")
    @classmethod
    def _flag(cls, v: object) -> object:
        if not isinstance(v, bool):
            raise ValueError("overview must be true or false")
        return v


class LessonSchema(_Schema):
    """A narration file: ``lesson``, ``title`` and its ``scenes``."""

    lesson: Annotated[str, _checked(_snake, "lesson id")]
    title: Annotated[str, _checked(text_field, "the lesson title")]
    scenes: Annotated[list[SceneSchema], _some("the lesson has no scenes")]


def _shown(path: Path) -> str:
    """The file as its errors name it (as ``LinedDocument.where`` does): relative to the working folder."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def load_lesson(path: Path, figures: Figures = NO_FIGURES, allowed_format: Iterable[str] | None = None) -> Lesson:
    """Load and validate one narration file (the schema is ``LessonSchema``, checked by pydantic).
    Raises UserError naming file:line. ``figures`` fill the cues' ``{name}`` placeholders (the
    course's ``figures.py``, see :func:`load_course`). No invisible format character (bidi controls,
    zero-width characters) may appear anywhere in the file but those ``allowed_format`` holds (default:
    the ones the course's config declares, ``course.format_characters``)."""
    doc = load_lined(path)
    allowed = declared_format_characters() if allowed_format is None else allowed_format
    refuse_format_characters(read_text(path), _shown(path), allowed)
    if not isinstance(doc.data, dict):
        raise doc.fail_at((), "the lesson file must be a mapping with keys lesson, title and scenes")
    try:
        lesson = LessonSchema.model_validate(doc.data)
    except ValidationError as exc:
        errors = exc.errors()
        # a misspelt key is also a missing one: name the misspelling, which says how to fix both
        first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        raise doc.describe(first, LessonSchema) from None
    scenes: list[Scene] = []
    seen_scene: dict[str, int] = {}
    for i, s in enumerate(lesson.scenes):
        here = ("scenes", i)
        if s.id in seen_scene:
            raise doc.fail_at(
                here + ("id",), f"duplicate scene id '{s.id}' (first at line {seen_scene[s.id]}); rename one"
            )
        seen_scene[s.id] = doc.lines[here + ("id",)]
        cues: list[Cue] = []
        seen_cue: dict[str, int] = {}
        for j, c in enumerate(s.cues):
            at = here + ("cues", j)
            if c.id in seen_cue:
                raise doc.fail_at(
                    at + ("id",), f"duplicate cue id '{s.id}.{c.id}' (first at line {seen_cue[c.id]}); rename one"
                )
            seen_cue[c.id] = doc.lines[at + ("id",)]
            marks_text = BOOKMARK_RE.findall(c.text)
            if len(set(marks_text)) != len(marks_text):
                raise doc.fail_at(at + ("text",), f"cue '{s.id}.{c.id}' places a bookmark twice")
            if c.say is not None:
                marks_say = BOOKMARK_RE.findall(c.say)
                missing = [m for m in marks_text if m not in marks_say]
                if missing:
                    raise doc.fail_at(
                        at + ("say",),
                        f"bookmark '{missing[0]}' is used in text but never placed in say; "
                        f"add {{@{missing[0]}}} to say",
                    )
                extra = [m for m in marks_say if m not in marks_text]
                if extra:
                    raise doc.fail_at(
                        at + ("say",),
                        f"bookmark '{extra[0]}' is placed in say but not in text; add {{@{extra[0]}}} to text",
                    )
            cues.append(
                Cue(
                    f"{s.id}.{c.id}",
                    c.text,
                    c.say,
                    c.pause,
                    doc.lines[at + ("id",)],
                    c.role,
                    figures,
                    tuple(c.choices or ()),
                    c.correct,
                )
            )
        scenes.append(
            Scene(
                s.id, s.cls, s.title, tuple(s.source), tuple(cues), lesson.lesson, doc.lines[here + ("id",)], s.overview
            )
        )
    return Lesson(lesson.lesson, lesson.title, tuple(scenes), path)


def load_course(
    lesson_ids: tuple[str, ...] | list[str],
    narration_dir: Path | None = None,
    allowed_format: Iterable[str] | None = None,
) -> Course:
    """Load every lesson named, checking that scene ids are unique across the course. The figures
    the cues quote come from ``figures.py`` in the same folder (none if there is no such file).
    ``allowed_format``: the format characters the narration may hold (default: the course's declared ones)."""
    narration_dir = narration_dir or course_narration_dir()
    allowed = declared_format_characters() if allowed_format is None else frozenset(allowed_format)
    figures = CourseFigures(narration_dir / "figures.py")
    course = Course()
    seen: dict[str, Path] = {}
    for lid in lesson_ids:
        path = narration_dir / f"{lid}.yaml"
        if not path.exists():
            raise UserError(
                f"{path}: narration file for lesson '{lid}' is missing; create it or remove the lesson from config.yaml"
            )
        lesson = load_lesson(path, figures, allowed)
        if lesson.id != lid:
            raise UserError(f"{path}:1: file declares lesson '{lesson.id}' but is named for '{lid}'; make them agree")
        for s in lesson.scenes:
            if s.id in seen:
                raise UserError(
                    f"{shown(path)}:{s.line}: scene id '{s.id}' is already used in {seen[s.id].name}; scene ids "
                    "are unique across the course (its files are named by its id alone)"
                )
            seen[s.id] = path
        course.lessons.append(lesson)
    return course


def figure_problems(course: Course) -> list[str]:
    """One line per figure a cue's text or spoken form names that its course cannot give (unknown to the
    course's figures.py, or failing there): ``narration/<lesson>.yaml:<line>: cue '<id>' <field>: …``. The
    plan fills them; this says where they are before it starts."""
    lines = []
    for lesson in course.lessons:
        for scene in lesson.scenes:
            for cue in scene.cues:
                for key, words in (("text", cue.text), ("say", cue.say)):
                    for name in dict.fromkeys(FIGURE_RE.findall(words or "")):
                        try:
                            cue.figures.value(name)
                        except UserError as exc:
                            lines.append(f"{shown(lesson.path)}:{cue.line}: cue '{cue.id}' {key}: {exc}")
    return lines
