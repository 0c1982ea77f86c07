"""The delivered course as its readers take it from disk: the manifest's schema, and its subtitle files read back.

``media/course/manifest.json`` is written by assembly (``coursekit.assemble.lesson_video``) and read by the
course page, ``export`` and ``serve``. Once on disk it is input like any other: a run that was stopped, a
hand edit, another version of the engine. ``Manifest`` is its schema (pydantic): every key with its type and
range, times whole milliseconds of 0 or more, a duration a finite number of seconds, and every id that
becomes part of a path (a lesson's, a scene's) a plain name (``coursekit.core.paths.plain_name``), so that
``export`` can never be led out of the output folder by a ``../`` in it. ``read_manifest`` reads it: a file
that is missing, not UTF-8, not JSON or not of the schema is one line (``UserError``) naming the file, the
place in it and the fix, never a traceback. What assembly writes is checked against the same schema before it
is written (``checked``).

The lessons' delivered SRT and WebVTT files are read back by ``read_subtitles``: events in whole
milliseconds, or one line if a file is not UTF-8 or not of its format. ``check_delivery`` reads the manifest
and every lesson's subtitle files: ``serve`` and ``export`` run it before they start.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Literal

import srt
import webvtt
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.core.paths import plain_name, shown

#: what mends a damaged delivery: making it again
FIX = "run: python render.py course (it delivers the course and writes its manifest)"
#: a manifest larger than this is not one assembly wrote (the course's three lessons: about 1 MB)
MAX_BYTES = 64_000_000
#: the longest lesson and the furthest time in it the schema takes (a day, in ms)
MAX_MS = 86_400_000


def _id(what: str):
    return AfterValidator(lambda v: plain_name(v, what, snake_case=True))


def _file(v: str) -> str:
    """A delivered file, relative to the output folder: plain names joined by '/'."""
    for part in v.split("/"):
        plain_name(part, "a delivered file's name")
    return v


def _cue_id(v: str) -> str:
    scene, _, cue = v.partition(".")
    plain_name(scene, "a cue's scene", snake_case=True)
    plain_name(cue, "a cue's id", snake_case=True)
    return v


Ms = Annotated[int, Field(ge=0, le=MAX_MS)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, defer_build=True)


class Chapter(_Strict):
    start_ms: Ms
    end_ms: Ms
    title: str


class Event(_Strict):
    """A subtitle event in lesson time; ``chars``: each character's start (the page's word highlight)."""

    start_ms: Ms
    end_ms: Ms
    text: str
    chars: list[Ms] | None = None


class RoleCue(_Strict):
    """A cue with a role in a quiz (the course page's questions)."""

    id: Annotated[str, AfterValidator(_cue_id)]
    role: Literal["question", "answer", "think"]
    text: str
    start_ms: Ms
    end_ms: Ms | None = None
    choices: list[str] | None = None
    correct: int | None = Field(None, ge=1, le=6)


class Cue(_Strict):
    """A cue in lesson time: the page's lecture mode stops at its end, the handout shows its last frame."""

    id: Annotated[str, AfterValidator(_cue_id)]
    text: str
    start_ms: Ms
    end_ms: Ms
    recorded: bool = False  #: the author's own voice (a take, ``coursekit.speech.takes``), not synthesised


class Sources(_Strict):
    digest: str
    files: int = Field(ge=0)


class Lesson(_Strict):
    """One delivered lesson: what the page, ``export`` and ``serve`` read of it."""

    lesson: Annotated[str, _id("lesson id")]
    title: str
    fps: int = Field(ge=1, le=120)
    duration_s: float = Field(gt=0, le=MAX_MS / 1000)
    voice: str | None = None
    quality: str
    voice_licence: str | None = None
    scenes: list[Annotated[str, _id("scene id")]]
    chapters: list[Chapter]
    subtitles: list[Event]
    role_cues: list[RoleCue] = []
    cues: list[Cue] = []
    files: list[Annotated[str, AfterValidator(_file)]] = []


class Manifest(_Strict):
    """``media/course/manifest.json``."""

    title: str
    font: str
    quality: str
    versions: dict[str, str] = {}
    sources: Sources | None = None
    lessons: list[Lesson]


def _where(loc: tuple, data: object) -> str:
    """A place in the manifest as a reader names it: ``lesson 1 (counting): chapters 2: start_ms``."""
    out, node = [], data
    for i, part in enumerate(loc):
        if isinstance(part, int):
            name = "lesson" if loc[i - 1 : i] == ("lessons",) else str(loc[i - 1]).rstrip("s")
            lid = node[part].get("lesson") if isinstance(node, list) and isinstance(node[part], dict) else None
            label = isinstance(lid, str) and len(lid) < 40 and loc[i + 1 : i + 2] != ("lesson",)
            out[-1] = f"{name} {part + 1}" + (f" ({lid})" if label else "")
        else:
            out.append(str(part))
        node = node[part] if isinstance(node, (dict, list)) and _has(node, part) else None
    return ": ".join(out) or "the top level"


def _has(node: dict | list, part: object) -> bool:
    return part in node if isinstance(node, dict) else isinstance(part, int) and 0 <= part < len(node)


def _problem(err: dict) -> str:
    msg = err["msg"].removeprefix("Value error, ")
    if err["type"] == "missing":
        return "missing"
    if err["type"] == "extra_forbidden":
        return "not a key of the manifest"
    value = err.get("input")
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value} is not a finite number"
    return msg[:1].lower() + msg[1:]


def checked(data: object, source: str = "manifest.json") -> Manifest:
    """``data`` (the manifest as JSON data) if it is of the schema, else one line naming ``source``, the
    place and the fix."""
    if not isinstance(data, dict):
        raise UserError(f"{source}: the manifest must be a JSON object, not {type(data).__name__}; {FIX}")
    try:
        return Manifest.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise UserError(f"{source}: {_where(tuple(err['loc']), data)}: {_problem(err)}; {FIX}") from None


def read_text(path: Path, what: str) -> str:
    """A delivered text file (``what`` it should be, for the message): UTF-8, else one line."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{shown(path)}: missing from the delivered course; {FIX}") from None
    except OSError as exc:
        raise UserError(f"{shown(path)}: cannot be read ({exc.strerror}); make it readable, or {FIX}") from None
    if len(raw) > MAX_BYTES:
        raise UserError(f"{shown(path)}: {len(raw)} bytes is more than {what} can be; {FIX}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{shown(path)}: byte {exc.start} is not UTF-8, so it is not {what}; {FIX}") from None


def read_manifest(path: Path) -> Manifest:
    """The delivered manifest at ``path`` (``layout.manifest``), read and checked (module docstring)."""
    text = read_text(path, "the course's manifest")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        where = f" at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise UserError(f"{shown(path)}: not JSON{where}, so not the course's manifest; {FIX}") from None
    return checked(data, shown(path))


def read_subtitles(path: Path) -> list[tuple[int, int, str]]:
    """(start ms, end ms, text) of each event of a delivered ``.srt`` or ``.vtt`` file, or one line if it is
    missing, not UTF-8 or not of its format."""
    kind = "SubRip subtitles" if path.suffix == ".srt" else "WebVTT subtitles"
    text = read_text(path, kind)
    try:
        if path.suffix == ".srt":
            return [
                (round(s.start.total_seconds() * 1000), round(s.end.total_seconds() * 1000), s.content)
                for s in srt.parse(text, ignore_errors=False)
            ]
        return [
            (c.start_time.in_milliseconds(), c.end_time.in_milliseconds(), c.text) for c in webvtt.from_string(text)
        ]
    except (srt.SRTParseError, webvtt.errors.MalformedFileError, ValueError, OverflowError) as exc:
        first = (str(exc).splitlines() or [type(exc).__name__])[0][:120]
        raise UserError(f"{shown(path)}: not {kind} ({first}); {FIX}") from None


def check_delivery(layout: MediaLayout, formats: tuple[str, ...] = ("srt", "vtt")) -> Manifest:
    """The delivered course in ``layout``: its manifest (``read_manifest``; none is one line) and, of every
    lesson in it, the subtitle files of ``formats`` that the manifest lists, read back (``read_subtitles``)."""
    if not layout.manifest.is_file():
        raise UserError(f"no delivered course in {shown(layout.course)} (no manifest.json); {FIX}")
    manifest = read_manifest(layout.manifest)
    for lesson in manifest.lessons:
        listed = set(lesson.files)
        for fmt in formats:
            path = layout.lesson_subtitles(lesson.lesson, fmt)
            if path.relative_to(layout.root).as_posix() in listed or path.is_file():
                read_subtitles(path)
    return manifest
