"""The one typed configuration of a course, loaded from its config.yaml in one place."""

from __future__ import annotations

import difflib
import functools
import re
import typing
from pathlib import Path
from typing import Literal

import annotated_types as at
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator, model_validator
from pydantic.fields import FieldInfo

from coursekit.core import voice_registry
from coursekit.core.errors import UserError
from coursekit.core.invisible import code_point, parse_code_point, refuse_format_characters, unseen
from coursekit.core.paths import course_root, inside, plain_name
from coursekit.core.safeyaml import load_file, read_text

DEFAULT_FONT = "Noto Sans CJK SC"  # fonts-noto-cjk, installed by `make setup`
FPS_RANGE = (1, 120)  # frames per second: video.fps and `plan --fps`
JOBS_RANGE = (1, 256)  # parallel scene renders: render.jobs and `--jobs`
QUALITIES: dict[str, tuple[int, int, int]] = {
    "low": (854, 480, 15),
    "medium": (1280, 720, 30),
    "high": (1920, 1080, 60),
    "4k": (3840, 2160, 60),
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class VoiceConfig(BaseModel):
    """``voice:``: ``backend``, and a section ``voice.<name>`` for each voice that takes settings. No voice is
    named here: each declares its settings model in its own module (``VoiceSpec.settings``, in
    coursekit/speech/voices/<name>.py) and registers it (coursekit.core.voice_registry), and the sections
    are checked through the registry when the config is read: a bad value or an unknown key is the same one
    line as anywhere in the file. ``cfg.voice.kokoro`` is the kokoro voice's settings (its defaults if the
    file leaves the section out).

    Before any voice is registered (a process that imports no voice module, so builds no voice) the sections
    are kept as written; reading one (``section``) checks it then, with the same line."""

    model_config = ConfigDict(extra="allow", frozen=True)

    #: ``auto`` or a voice's name: the voices are those registered, so no list of them is written here.
    backend: str = Field(
        "auto", description="auto | the name of a voice (docs/voices.md; `render.py --help` lists them)"
    )

    @field_validator("backend")
    @classmethod
    def _backend(cls, v: str) -> str:
        return voice_registry.check_backend(v)

    @model_validator(mode="before")
    @classmethod
    def _sections(cls, data: object) -> object:
        """Each ``voice.<name>`` validated by its voice's settings model, a section left out at its defaults;
        an error's location is ``voice.<name>.<key>``, a section no voice declares is an unknown key."""
        if not isinstance(data, dict) or not voice_registry.names():
            return data
        own = {k: v for k, v in data.items() if k in cls.model_fields}
        given = {k: v for k, v in data.items() if k not in cls.model_fields}
        return {**own, **dict(_sections_model(tuple(voice_registry.sections().items())).model_validate(given))}

    def section(self, name: str) -> BaseModel | None:
        """The settings of voice ``name`` (``voice.<name>``), or None if it takes none. A section kept as
        written (read before the voice was registered) is checked now: a bad one is one line."""
        model = voice_registry.spec(name).settings
        if model is None:
            return None
        given = (self.__pydantic_extra__ or {}).get(name)
        if isinstance(given, model):
            return given
        try:
            return model.model_validate({} if given is None else given)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise UserError(
                f"config.yaml: {_describe({**first, 'loc': ('voice', name, *first['loc'])}, Config)}"
            ) from None

    if not typing.TYPE_CHECKING:

        def __getattr__(self, name: str) -> object:
            # ``cfg.voice.kokoro``: a registered voice's settings, checked (``section``)
            if not name.startswith("_") and name in voice_registry.sections():
                return self.section(name)
            return super().__getattr__(name)


@functools.lru_cache(maxsize=16)
def _sections_model(sections: tuple[tuple[str, type], ...]) -> type[BaseModel]:
    """The model of the voice sections: one optional key per voice that takes settings, nothing else."""
    return create_model(
        "VoiceSections",
        __config__=ConfigDict(extra="forbid", frozen=True),
        **{name: (model, Field(default_factory=model)) for name, model in sections},
    )


def _fields(model: type[BaseModel]) -> dict[str, FieldInfo]:
    """A model's keys (for ``voice:``, the registered voices' sections too)."""
    if model is VoiceConfig:
        return {**model.model_fields, **_sections_model(tuple(voice_registry.sections().items())).model_fields}
    return dict(model.model_fields)


class VideoConfig(_Strict):
    quality: Literal["low", "medium", "high", "4k"] = "high"
    fps: int | None = Field(None, ge=FPS_RANGE[0], le=FPS_RANGE[1])

    @property
    def resolution(self) -> tuple[int, int]:
        w, h, _ = QUALITIES[self.quality]
        return w, h

    @property
    def frame_rate(self) -> int:
        return self.fps or QUALITIES[self.quality][2]


class SubtitleConfig(_Strict):
    max_chars_per_line: int = Field(16, ge=4, le=42)
    max_lines: int = Field(2, ge=1, le=3)
    burn_in: bool = False
    formats: tuple[Literal["srt", "vtt"], ...] = ("srt", "vtt")
    min_duration_ms: int = Field(833, ge=100, le=3000)
    max_duration_ms: int = Field(7000, ge=1000, le=20000)
    min_gap_ms: int = Field(80, ge=0, le=1000)
    max_chars_per_second: float = Field(9.0, gt=1, le=30)


class TimelineConfig(_Strict):
    """Pauses, in seconds; the plan rounds each to whole frames."""

    cue_gap_s: float = Field(0.35, ge=0, le=5)
    scene_lead_in_s: float = Field(0.5, ge=0, le=5)
    scene_tail_s: float = Field(0.8, ge=0, le=10)


class RenderConfig(_Strict):
    """How scene renders run. ``jobs: null`` means one per core; each worker process is limited to
    ``worker_memory_gb`` of data memory, and fewer workers start when the machine has less free memory
    than jobs × that. ``executor: dask`` sends scene jobs to the Dask scheduler at ``scheduler``."""

    jobs: int | None = Field(None, ge=JOBS_RANGE[0], le=JOBS_RANGE[1])
    worker_memory_gb: float = Field(1.5, gt=0.2, le=256)
    executor: Literal["local", "dask"] = "local"
    scheduler: str | None = Field(None, description="a Dask scheduler address, like tcp://10.0.0.5:8786")
    shared_store: str | None = Field(None, description="a folder at the same path here and on every Dask worker")

    @field_validator("scheduler")
    @classmethod
    def _scheduler(cls, v: str | None) -> str | None:
        if v is not None and not re.match(r"^(tcp|tls|inproc|ws|wss)://[^\s/]+(:\d+)?$", v):
            raise ValueError("must be a Dask scheduler address like 'tcp://10.0.0.5:8786'")
        return v


class CourseConfig(_Strict):
    """What the course is: its title, every lesson in order, the font its subtitles and page use."""

    title: str = Field("", max_length=200, description="the course's title, on its page")
    lessons: tuple[str, ...] = Field(
        (), description="every lesson id of the course, in order; narration/ID.yaml holds each"
    )
    font: str = Field(
        DEFAULT_FONT,
        min_length=1,
        max_length=100,
        description="a font family installed here, for subtitles and the page",
    )
    format_characters: tuple[str, ...] = Field(
        (),
        description="invisible format characters the narration "
        "uses on purpose, as U+XXXX (like U+2060, a no-break); any "
        "other is refused",
    )
    listening_words: tuple[str, ...] = Field(
        (),
        max_length=60,
        description="the course's own words, given to "
        "the listening check's recogniser as hints (its hotwords), as a "
        "listener knows them from the context",
    )

    @field_validator("title")
    @classmethod
    def _title(cls, v: str) -> str:
        problem = unseen(v, format_characters=False)  # a format character: _seen, once the declared ones are read
        if problem:
            raise ValueError(f"holds {problem}, which a viewer cannot see; delete it")
        return v

    @model_validator(mode="after")
    def _seen(self) -> "CourseConfig":
        # a format character written as a YAML escape ("\u202e"), which the file's own check cannot see
        problem = unseen(self.title, self.allowed_format)
        if problem:
            raise ValueError(f"title holds {problem}, which a viewer cannot see; delete it")
        return self

    @field_validator("listening_words")
    @classmethod
    def _words(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for w in v:
            if not w.strip() or len(w) > 20 or any(ch.isspace() for ch in w):
                raise ValueError(f"'{w}' must be one word of at most 20 characters, without spaces")
        return v

    @field_validator("format_characters")
    @classmethod
    def _format(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(code_point(parse_code_point(c)) for c in v)

    @property
    def allowed_format(self) -> frozenset[str]:
        """The declared format characters themselves."""
        return frozenset(parse_code_point(c) for c in self.format_characters)

    @field_validator("lessons")
    @classmethod
    def _ids(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for lesson in v:
            plain_name(lesson, "lesson id", snake_case=True)  # narration/<id>.yaml, media/course/<id>/
        if len(set(v)) != len(v):
            raise ValueError("lists a lesson twice")
        return v


class Config(_Strict):
    course: CourseConfig = CourseConfig()
    voice: VoiceConfig = Field(default_factory=VoiceConfig)
    video: VideoConfig = VideoConfig()
    render: RenderConfig = RenderConfig()
    subtitles: SubtitleConfig = SubtitleConfig()
    timeline: TimelineConfig = TimelineConfig()
    output: str = Field("media", description="a folder inside the course")
    lessons: tuple[str, ...] | None = Field(
        None, description="the lessons to make, each once, in course order (default: all of course.lessons)"
    )

    @field_validator("output")
    @classmethod
    def _output(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must be a folder inside the course, like 'media'")
        if not inside(course_root() / v, course_root()):
            raise ValueError("must be a folder inside the course (no '..', absolute paths or symlinks out of it)")
        return v

    @model_validator(mode="before")
    @classmethod
    def _every_lesson(cls, data: object) -> object:
        """``lessons`` left out (or null) means every lesson of ``course.lessons``."""
        if isinstance(data, dict) and data.get("lessons") is None:
            course = data.get("course") or {}
            data = {**data, "lessons": tuple(course.get("lessons") or ()) if isinstance(course, dict) else ()}
        return data

    @field_validator("lessons")
    @classmethod
    def _lessons(cls, v: tuple[str, ...], info) -> tuple[str, ...]:
        known = info.data["course"].lessons if "course" in info.data else ()
        for lesson in v:
            if lesson not in known:
                close = difflib.get_close_matches(lesson, known, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise ValueError(f"unknown lesson '{lesson}'{hint}; course.lessons has: {', '.join(known) or 'none'}")
        if len(set(v)) != len(v):
            raise ValueError("lists a lesson twice")
        return v

    @property
    def output_dir(self) -> Path:
        return course_root() / self.output


def _allowed_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """The valid keys at the parent of ``loc`` (for 'did you mean')."""
    for part in loc[:-1]:
        field = _fields(model).get(str(part))
        ann = getattr(field, "annotation", None) if field else None
        if not (isinstance(ann, type) and issubclass(ann, BaseModel)):
            return []
        model = ann
    return list(_fields(model))


def _describe(err: dict, model: type[BaseModel]) -> str:
    loc = tuple(err["loc"])
    key = ".".join(str(p) for p in loc) or "(top level)"
    if err["type"] == "extra_forbidden":
        allowed = _allowed_keys(model, loc)
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        return f"unknown key '{key}'; {hint}allowed here: {', '.join(allowed)}"
    value = err.get("input")
    msg = err["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]
    return f"key '{key}' has bad value {value!r}: {msg}"


def _course_section() -> dict:
    """The ``course:`` section of the course's own config.yaml ({} if it has none): what the course
    is does not change with the config a run is given."""
    own = course_root() / "config.yaml"
    data = load_yaml(own) if own.is_file() else None
    course = data.get("course") if isinstance(data, dict) else None
    return course if isinstance(course, dict) else {}


def parse_config(data: object, source: str = "config.yaml") -> Config:
    """Validate already-loaded YAML data; raise UserError with one line on any problem. Data without
    a ``course:`` section takes the course's own (see ``_course_section``)."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise UserError(
            f"{source}: the top level must be a mapping of keys like 'voice:' and 'video:', not {type(data).__name__}"
        )
    if "course" not in data:
        data = {**data, "course": _course_section()}
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise UserError(f"{source}: {_describe(first, Config)}") from None


def load_yaml(path: Path) -> object:
    """Read YAML with the safe loader; syntax errors become one line with the position."""

    return load_file(path)


def load_config(path: Path | None = None, **overrides: object) -> Config:
    """Load config.yaml (default: the course's), apply CLI overrides like ``voice.backend='silent'``."""
    if path is not None and not Path(path).is_file():
        raise UserError(
            f"--config {path}: no such file; check the path, or leave --config out to use the course's config.yaml"
        )
    path = path or course_root() / "config.yaml"
    data = load_yaml(path) if path.exists() else {}
    if overrides and isinstance(data, (dict, type(None))):
        data = dict(data or {})
        for dotted, value in overrides.items():
            if value is None:
                continue
            node = data
            parts = dotted.split(".")
            for p in parts[:-1]:
                node[p] = dict(node.get(p) or {})
                node = node[p]
            node[parts[-1]] = value
    try:
        shown = str(Path(path).resolve().relative_to(course_root()))
    except ValueError:
        shown = str(path)
    if Path(path).exists():  # a title or a lesson id with an invisible character: one line, file:line
        declared = _declared_in(data)
        if declared is not None:  # else the schema names the bad declaration first
            refuse_format_characters(read_text(Path(path)), shown, declared)
    cfg = parse_config(data, shown)
    if Path(path).exists():
        refuse_format_characters(read_text(Path(path)), shown, cfg.course.allowed_format)
    return cfg


def _declared_in(data: object) -> frozenset[str] | None:
    """The format characters raw config data declares (``course.format_characters``), or None if they cannot
    be read: the file's own check runs before the schema's (which refuses one written as a YAML escape)."""
    course = data.get("course") if isinstance(data, dict) else None
    if not isinstance(course, dict):  # none: the course's own section is taken (``_course_section``)
        return None
    try:
        return frozenset(parse_code_point(c) for c in course.get("format_characters") or ())
    except (TypeError, ValueError):
        return None


def declared_format_characters() -> frozenset[str]:
    """The format characters the course's own config.yaml declares (``course.format_characters``)."""
    try:
        return CourseConfig.model_validate(_course_section()).allowed_format
    except (UserError, ValidationError, ValueError):
        return frozenset()


def reference(model: type[BaseModel] = None, prefix: str = "") -> list[tuple[str, str, str]]:
    """Every setting as (dotted key, what it accepts, default): the table in docs/settings.md,
    kept equal to this by tests/engine/core/test_config.py. Numbers say their range, choices list themselves."""

    model = model or Config
    rows: list[tuple[str, str, str]] = []
    for name, field in _fields(model).items():
        key, ann = prefix + name, field.annotation
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            rows.extend(reference(ann, key + "."))
            continue
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        base = args[0] if ann not in (int, float, str, bool) and args else ann
        ge = next((m.ge for m in field.metadata if isinstance(m, at.Ge)), None)
        gt = next((m.gt for m in field.metadata if isinstance(m, at.Gt)), None)
        le = next((m.le for m in field.metadata if isinstance(m, at.Le)), None)
        if typing.get_origin(ann) is Literal:
            accepts = " \\| ".join(str(a) for a in typing.get_args(ann))
        elif typing.get_origin(ann) is tuple:
            inner = typing.get_args(ann)[0]
            accepts = "list of " + (
                " \\| ".join(typing.get_args(inner)) if typing.get_origin(inner) is Literal else inner.__name__
            )
        elif base in (int, float):
            kind = "whole number" if base is int else "number"
            accepts = f"{kind} {ge:g} to {le:g}" if gt is None else f"{kind} more than {gt:g}, at most {le:g}"
        else:
            accepts = {str: "text", bool: "true \\| false"}.get(base, str(base))
        if field.description:
            accepts = field.description.replace("|", "\\|")
        if type(None) in typing.get_args(ann):
            accepts += " or null"
        default = field.default
        shown = (
            "null"
            if default is None
            else str(default).lower()
            if isinstance(default, bool)
            else "[" + ", ".join(default) + "]"
            if isinstance(default, tuple)
            else f"{default}"
        )
        rows.append((key, accepts, shown))
    return rows


def reference_table() -> str:
    """The settings table of docs/settings.md, in Markdown."""
    lines = ["| key | accepts | default |", "|---|---|---|"]
    lines += [f"| `{k}` | {a} | `{d}` |" for k, a, d in reference()]
    return "\n".join(lines)
