"""Whether each scene of the narration fits the class that draws it, checked without rendering, and
any error raised while a scene is built, as one line.

``fit_errors(course)`` loads every scene class the narration names and compares it with the narration:

- the class is defined by exactly one module of the course's ``scenes/``, the module loads, and the
  class is a ``NarratedScene``;
- every cue in the class's ``CUES`` is in the scene's narration and every narration cue is in ``CUES``,
  in the same order (a beat opened after its cue's start frame cannot be played);
- every bookmark the class's ``BOOKMARKS`` expects is placed in its cue (``{@name}``), and ``BOOKMARKS``
  names only cues of ``CUES``.

Each problem is one line, ``file:line: problem; how to fix``, at the narration line for what the
narration lacks or has too much of, at the class's line for what the class declares wrongly.
``check`` reports them all; ``render``, ``course``, ``preview``, ``inspect`` and the studio refuse to
start on the scenes they make (``require_fit``). ``building(...)`` turns an exception raised while a
scene is built in this process (``PlanError`` and its kin, or any other) into one ``UserError`` line
naming the scene and the line of the course's code that raised it.
"""

from __future__ import annotations

import ast
import inspect
import sys
import traceback
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from coursekit.content.narration import Course, Lesson, Scene
from coursekit.core.errors import UserError, UserErrors
from coursekit.core.paths import course_root, inside, scenes_dir, shown
from coursekit.render.registry import load_module, scene_module_path


def _where(path: Path, line: int) -> str:
    """``file:line`` as narration errors name it: relative to the working folder when inside it."""
    try:
        name = Path(path).resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        name = Path(path)
    return f"{name}:{line}"


def _attribute_line(module: Path, cls_name: str, attr: str) -> int:
    """The line that assigns ``attr`` in class ``cls_name`` of ``module`` (else the class's own line)."""
    try:
        tree = ast.parse(module.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return 1
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls_name:
            for item in node.body:
                targets = (
                    item.targets
                    if isinstance(item, ast.Assign)
                    else [item.target]
                    if isinstance(item, ast.AnnAssign)
                    else []
                )
                if any(isinstance(t, ast.Name) and t.id == attr for t in targets):
                    return item.lineno
            return node.lineno
    return 1


def _course_frame(tb) -> tuple[Path, int] | None:
    """The innermost frame of a traceback in the course's own files (not the engine's, not a library's)."""
    root = course_root()
    found = None
    for frame in traceback.extract_tb(tb):
        f = Path(frame.filename)
        if inside(f, root) and not inside(f, root / ".venv") and "coursekit" not in f.parts:
            found = (f, frame.lineno or 1)
    return found


def describe(exc: BaseException) -> str:
    """An exception as one line: its type and its first line of text."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _load_class(scene: Scene, lesson: Lesson) -> tuple[type | None, Path | None, str | None]:
    """(the class, its module, None) or (None, module or None, the one-line problem)."""
    at = _where(lesson.path, scene.line)
    try:
        module = scene_module_path(scene.cls)
    except LookupError as exc:
        if "several modules" in str(exc):
            return None, None, f"{at}: scene '{scene.id}': {exc}; keep one definition"
        return (
            None,
            None,
            (
                f"{at}: scene '{scene.id}' names class {scene.cls}, but no module in "
                f"{shown(scenes_dir())}/ defines it; write class {scene.cls}(NarratedScene) there "
                f"or fix 'class' in the narration"
            ),
        )
    try:
        obj = getattr(load_module(module), scene.cls, None)
    except SyntaxError as exc:
        return (
            None,
            module,
            (
                f"{_where(module, exc.lineno or 1)}: cannot load the module of scene '{scene.id}': "
                f"SyntaxError: {exc.msg}; fix the module"
            ),
        )
    except Exception as exc:  # noqa: BLE001 - the course's module raised: one line naming where
        frame = _course_frame(exc.__traceback__) or (module, 1)
        return (
            None,
            module,
            (f"{_where(*frame)}: cannot load the module of scene '{scene.id}': {describe(exc)}; fix the module"),
        )
    base = getattr(sys.modules.get("coursekit.render.narrated_scene"), "NarratedScene", None)
    if not (inspect.isclass(obj) and base is not None and issubclass(obj, base)):
        line = _attribute_line(module, scene.cls, "") if inspect.isclass(obj) else 1
        return (
            None,
            module,
            (
                f"{_where(module, line)}: {scene.cls}, which scene '{scene.id}' names, is not a "
                f"NarratedScene; make it subclass coursekit.render.narrated_scene.NarratedScene "
                f"(or the course's own base class)"
            ),
        )
    return obj, module, None


def scene_fit(scene: Scene, lesson: Lesson) -> list[str]:
    """Every way ``scene`` of the narration does not fit its class (one line each; see the module docstring)."""
    cls, module, problem = _load_class(scene, lesson)
    if problem:
        return [problem]
    assert cls is not None and module is not None
    errors: list[str] = []
    cues_at = _where(module, _attribute_line(module, scene.cls, "CUES"))
    marks_at = _where(module, _attribute_line(module, scene.cls, "BOOKMARKS"))
    declared = list(cls.CUES)
    narrated = {c.short_id: c for c in scene.cues}
    for short in declared:
        if short not in narrated:
            errors.append(
                f"{_where(lesson.path, scene.line)}: scene '{scene.id}' has no cue '{short}', which "
                f"{scene.cls} plays (CUES at {cues_at}); add the cue to the narration or take it out "
                f"of CUES and the scene"
            )
    for short, cue in narrated.items():
        if short not in declared:
            errors.append(
                f"{_where(lesson.path, cue.line)}: cue '{cue.id}' is not played by {scene.cls} (CUES at "
                f"{cues_at}: {', '.join(declared) or 'none'}); remove the cue or add it to CUES and "
                f"play it"
            )
    in_both = [s for s in declared if s in narrated]
    narrated_order = [s for s in narrated if s in declared]
    if not errors and in_both != narrated_order:
        errors.append(
            f"{_where(lesson.path, scene.line)}: scene '{scene.id}' narrates its cues in the order "
            f"{', '.join(narrated_order)}, but {scene.cls} plays them as {', '.join(in_both)} (CUES at "
            f"{cues_at}); put them in the same order"
        )
    marks = dict(getattr(cls, "BOOKMARKS", {}) or {})
    for short, names in marks.items():
        if short not in declared:
            errors.append(
                f"{marks_at}: BOOKMARKS of {scene.cls} names cue '{short}', which is not in its CUES; "
                f"fix the cue id or remove the entry"
            )
            continue
        cue = narrated.get(short)
        if cue is None:
            continue
        placed = set(cue.bookmarks)
        for name in names:
            if name not in placed:
                field = "text and say" if cue.say is not None else "text"
                errors.append(
                    f"{_where(lesson.path, cue.line)}: cue '{cue.id}' places no bookmark {{@{name}}}, "
                    f"which {scene.cls} waits for (BOOKMARKS at {marks_at}); add {{@{name}}} to the "
                    f"cue's {field} where it should happen, or remove it from BOOKMARKS"
                )
    return errors


def fit_errors(course: Course, scene_ids: Iterable[str] | None = None) -> list[str]:
    """Every problem of every scene (or only of ``scene_ids``), in course order."""
    wanted = set(scene_ids) if scene_ids is not None else None
    errors: list[str] = []
    for lesson in course.lessons:
        for scene in lesson.scenes:
            if wanted is None or scene.id in wanted:
                errors += scene_fit(scene, lesson)
    return errors


def require_fit(course: Course, scene_ids: Iterable[str] | None = None) -> None:
    """Raise ``UserErrors`` (one line per problem) unless every scene named fits its class."""
    errors = fit_errors(course, scene_ids)
    if errors:
        raise UserErrors(errors)


@contextmanager
def building(scene_id: str, cls_name: str) -> Iterator[None]:
    """Turn any exception raised while scene ``scene_id`` is built in this process (a dry run: the
    viewer check, the studio's check) into one ``UserError`` line with the course's line that raised it."""
    try:
        yield
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001 - the scene's code raised: one line, not a traceback
        frame = _course_frame(exc.__traceback__)
        where = f"{_where(*frame)}: " if frame else ""
        raise UserError(
            f"{where}scene '{scene_id}' ({cls_name}) failed while it was built: {describe(exc)}; "
            f"fix the scene or its narration"
        ) from None
