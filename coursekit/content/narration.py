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


Inside ``text`` and ``say``:

- ``{@name}`` places a bookmark that animations can wait for (``cue.until("name")``);
- ``{name}`` is a figure computed by the course's ``figures.py`` beside its narration (see
  ``coursekit.content.figures``), filled in when the plan is made, so no computed number is typed.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import yaml

from coursekit.core.errors import UserError
from coursekit.content.figures import NO_FIGURES, Figures, load_figures
from coursekit.core.paths import narration_dir as course_narration_dir
from coursekit.core.safeyaml import MAX_BYTES
from coursekit.core.safeyaml import _Loader

ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
CLASS_RE = re.compile(r"^[A-Z][A-Za-z0-9]*$")
BOOKMARK_RE = re.compile(r"\{@([a-z][a-z0-9_]*)\}")
FIGURE_RE = re.compile(r"\{([a-z][a-z0-9_]*)\}")
MAX_CUE_CHARS = 400
SCENE_KEYS = {"id", "class", "title", "source", "cues", "overview"}
CUE_KEYS = {"id", "text", "say", "pause", "role"}
ROLES = ("question", "answer", "think")
LESSON_KEYS = {"lesson", "title", "scenes"}


@dataclass(frozen=True)
class Cue:
    """One narrated beat. ``text`` is what subtitles show, ``say`` what the voice reads."""

    id: str            # full id, "<scene>.<cue>"
    text: str          # written form, bookmarks and figure placeholders still in it
    say: str | None
    pause: float
    line: int
    role: str | None = None   # question | answer | think: what the cue is in a quiz
    #: the course's figures, which fill ``{name}`` placeholders (see coursekit.content.figures)
    figures: Figures = field(default=NO_FIGURES, compare=False, repr=False)

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
    overview: bool = False    # also delivered alone, as <lesson>/overview.mp4


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
    hint = f"close matches: {', '.join(close)}" if close else f"known: {', '.join(known[:12])}{' …' if len(known) > 12 else ''}"
    return f"unknown {kind} '{name}'; {hint}"


class _Doc:
    """A YAML document kept as nodes, so every error can name its line."""

    def __init__(self, path: Path, text: str):
        self.path = path
        loader = None
        try:
            loader = _Loader(text)
            self.root = loader.get_single_node()
        except yaml.reader.ReaderError as exc:
            line = text[: exc.position].count("\n") + 1
            raise UserError(f"{self.where(line)}: control character U+{exc.character:04X} is not allowed; delete it") from None
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark
            raise UserError(f"{self.where(mark.line + 1 if mark else 0)}: {exc.problem}; fix the YAML syntax there") from None
        except yaml.YAMLError as exc:
            raise UserError(f"{path}: {exc}") from None
        finally:
            if loader is not None:
                loader.dispose()

    def where(self, line: int) -> str:
        try:
            shown = self.path.relative_to(Path.cwd())
        except ValueError:
            shown = self.path
        return f"{shown}:{line}"

    def fail(self, node: yaml.Node | None, problem: str) -> UserError:
        line = node.start_mark.line + 1 if node is not None else 1
        return UserError(f"{self.where(line)}: {problem}")

    def mapping(self, node: yaml.Node | None, what: str, allowed: set[str]) -> dict[str, yaml.Node]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping with keys {', '.join(sorted(allowed))}")
        out: dict[str, yaml.Node] = {}
        for k, v in node.value:
            key = k.value if isinstance(k, yaml.ScalarNode) else None
            if key not in allowed:
                close = difflib.get_close_matches(str(key), sorted(allowed), n=1)
                hint = f"did you mean '{close[0]}'? " if close else ""
                raise self.fail(k, f"unknown key '{key}' in {what}; {hint}allowed: {', '.join(sorted(allowed))}")
            if key in out:
                raise self.fail(k, f"key '{key}' appears twice in {what}")
            out[key] = v
        return out

    def scalar(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag.endswith(":null"):
            raise self.fail(node, f"{what} must be a single value")
        if node.tag not in ("tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
            raise self.fail(node, f"{what} must be text or a number, not {node.tag.rsplit(':', 1)[-1]}")
        return node.value

    def sequence(self, node: yaml.Node, what: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{what} must be a list")
        return list(node.value)


def _check_text(doc: _Doc, node: yaml.Node, text: str, what: str) -> str:
    if not text.strip():
        raise doc.fail(node, f"{what} is empty; write the sentence or remove the cue")
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cs":
            raise doc.fail(node, f"{what} contains an unpaired surrogate; retype that character")
        if cat == "Cc" and ch not in "\n":
            raise doc.fail(node, f"{what} contains control character U+{ord(ch):04X}; delete it")
    if len(text) > MAX_CUE_CHARS:
        raise doc.fail(node, f"{what} has {len(text)} characters, more than {MAX_CUE_CHARS}; split it into several cues")
    return " ".join(text.split()) if "\n" in text else text.strip()


def load_lesson(path: Path, figures: Figures = NO_FIGURES) -> Lesson:
    """Load and validate one narration file. Raises UserError naming file:line. ``figures`` fill the
    cues' ``{name}`` placeholders (the course's ``figures.py``, see :func:`load_course`)."""

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror}); check the path") from None
    if len(raw) > MAX_BYTES:
        raise UserError(f"{path}: file is larger than {MAX_BYTES} bytes; split it")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: byte {exc.start} is not UTF-8; save the file as UTF-8") from None
    doc = _Doc(path, text)
    top = doc.mapping(doc.root, "the lesson file", LESSON_KEYS)
    for key in ("lesson", "title", "scenes"):
        if key not in top:
            raise doc.fail(doc.root, f"missing key '{key}' at the top level")
    lesson_id = doc.scalar(top["lesson"], "lesson")
    if not ID_RE.match(lesson_id):
        raise doc.fail(top["lesson"], f"lesson id '{lesson_id}' must be snake_case (a-z, 0-9, _), starting with a letter")
    title = _check_text(doc, top["title"], doc.scalar(top["title"], "title"), "the lesson title")
    scenes: list[Scene] = []
    seen_scene: dict[str, int] = {}
    for snode in doc.sequence(top["scenes"], "scenes"):
        s = doc.mapping(snode, "a scene", SCENE_KEYS)
        for key in ("id", "class", "title", "source", "cues"):
            if key not in s:
                raise doc.fail(snode, f"scene is missing key '{key}'")
        sid = doc.scalar(s["id"], "scene id")
        if not ID_RE.match(sid):
            raise doc.fail(s["id"], f"scene id '{sid}' must be snake_case (a-z, 0-9, _), starting with a letter")
        if sid in seen_scene:
            raise doc.fail(s["id"], f"duplicate scene id '{sid}' (first at line {seen_scene[sid]}); rename one")
        seen_scene[sid] = s["id"].start_mark.line + 1
        cls = doc.scalar(s["class"], "scene class")
        if not CLASS_RE.match(cls):
            raise doc.fail(s["class"], f"class '{cls}' must be a Python class name like 'UnitCircle'")
        stitle = _check_text(doc, s["title"], doc.scalar(s["title"], "scene title"), f"title of scene '{sid}'")
        source = tuple(doc.scalar(n, "source entry") for n in doc.sequence(s["source"], "source"))
        cue_nodes = doc.sequence(s["cues"], "cues")
        if not cue_nodes:
            raise doc.fail(s["cues"], f"scene '{sid}' has no cues; add at least one")
        cues: list[Cue] = []
        seen_cue: dict[str, int] = {}
        for cnode in cue_nodes:
            c = doc.mapping(cnode, "a cue", CUE_KEYS)
            for key in ("id", "text"):
                if key not in c:
                    raise doc.fail(cnode, f"cue is missing key '{key}'")
            cid = doc.scalar(c["id"], "cue id")
            if not ID_RE.match(cid):
                raise doc.fail(c["id"], f"cue id '{cid}' must be snake_case")
            if cid in seen_cue:
                raise doc.fail(c["id"], f"duplicate cue id '{sid}.{cid}' (first at line {seen_cue[cid]}); rename one")
            seen_cue[cid] = c["id"].start_mark.line + 1
            ctext = _check_text(doc, c["text"], doc.scalar(c["text"], "cue text"), f"cue '{sid}.{cid}' text")
            say = None
            if "say" in c:
                say = _check_text(doc, c["say"], doc.scalar(c["say"], "cue say"), f"cue '{sid}.{cid}' say")
            marks_text = BOOKMARK_RE.findall(ctext)
            if len(set(marks_text)) != len(marks_text):
                raise doc.fail(c["text"], f"cue '{sid}.{cid}' places a bookmark twice")
            if say is not None:
                marks_say = BOOKMARK_RE.findall(say)
                missing = [m for m in marks_text if m not in marks_say]
                if missing:
                    raise doc.fail(c["say"], f"bookmark '{missing[0]}' is used in text but never placed in say; add {{@{missing[0]}}} to say")
                extra = [m for m in marks_say if m not in marks_text]
                if extra:
                    raise doc.fail(c["say"], f"bookmark '{extra[0]}' is placed in say but not in text; add {{@{extra[0]}}} to text")
            pause = 0.0
            if "pause" in c:
                try:
                    pause = float(doc.scalar(c["pause"], "pause"))
                except ValueError:
                    raise doc.fail(c["pause"], "pause must be a number of seconds, like 3") from None
                if not 0 <= pause <= 30:
                    raise doc.fail(c["pause"], f"pause {pause} is out of range; use 0 to 30 seconds")
            role = None
            if "role" in c:
                role = doc.scalar(c["role"], "role")
                if role not in ROLES:
                    raise doc.fail(c["role"], unknown("role", role, list(ROLES)))
            cues.append(Cue(f"{sid}.{cid}", ctext, say, pause, c["id"].start_mark.line + 1, role, figures))
        overview = False
        if "overview" in s:
            node = s["overview"]
            if not (isinstance(node, yaml.ScalarNode) and node.tag.endswith(":bool")):
                raise doc.fail(node, "overview must be true or false")
            overview = node.value.lower() in ("true", "yes", "on")
        scenes.append(Scene(sid, cls, stitle, source, tuple(cues), lesson_id, s["id"].start_mark.line + 1, overview))
    if not scenes:
        raise doc.fail(top["scenes"], "the lesson has no scenes")
    return Lesson(lesson_id, title, tuple(scenes), path)


def load_course(lesson_ids: tuple[str, ...] | list[str], narration_dir: Path | None = None) -> Course:
    """Load every lesson named, checking that scene ids are unique across the course. The figures
    the cues quote come from ``figures.py`` in the same folder (none if there is no such file)."""
    narration_dir = narration_dir or course_narration_dir()
    figures = load_figures(narration_dir / "figures.py")
    course = Course()
    seen: dict[str, Path] = {}
    for lid in lesson_ids:
        path = narration_dir / f"{lid}.yaml"
        if not path.exists():
            raise UserError(f"{path}: narration file for lesson '{lid}' is missing; create it or remove the lesson from config.yaml")
        lesson = load_lesson(path, figures)
        if lesson.id != lid:
            raise UserError(f"{path}:1: file declares lesson '{lesson.id}' but is named for '{lid}'; make them agree")
        for s in lesson.scenes:
            if s.id in seen:
                raise UserError(f"{path}:{s.line}: scene id '{s.id}' is already used in {seen[s.id].name}; scene ids are unique across the course")
            seen[s.id] = path
        course.lessons.append(lesson)
    return course
