"""A course's scene classes, found by name in its ``scenes/`` folder and loaded by path.

Only the module that defines the class is imported (found by a text scan for ``class <Name>(``),
so one broken scene module cannot break the others, and Manim is imported only then. Modules are
loaded by path under a name made from that path, so two courses' ``scenes`` folders cannot collide;
a module already imported from that very file is reused.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

from coursekit.core.modules import load_by_path
from coursekit.core.paths import scenes_dir

_NOT_SCENE_MODULES = {"__init__"}


def _scene_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.py") if p.stem not in _NOT_SCENE_MODULES)


def _defines(path: Path, name: str) -> bool:
    return re.search(rf"^class\s+{re.escape(name)}\s*\(", path.read_text(encoding="utf-8"), re.M) is not None


def scene_module_path(name: str, folder: Path | None = None) -> Path:
    """The file in the course's scenes/ defining scene class ``name`` (what ``manim render`` is given)."""
    folder = folder or scenes_dir()
    hits = [p for p in _scene_files(folder) if _defines(p, name)]
    if not hits:
        raise LookupError(f"no scene class {name!r} in {folder}")
    if len(hits) > 1:
        raise LookupError(f"scene class {name!r} is defined in several modules: {[p.name for p in hits]}")
    return hits[0]


def find_scene_module(name: str) -> Path | None:
    """``scene_module_path``, or None when no module (or more than one) defines the class."""
    try:
        return scene_module_path(name)
    except LookupError:
        return None


def load_module(path: Path):
    """The scene module at ``path``, loaded by path (see coursekit.core.modules)."""
    return load_by_path(path, "scenes")


def scene_class(name: str) -> type:
    """The NarratedScene subclass called ``name``; imports its module on first use."""

    module = load_module(scene_module_path(name))
    obj = getattr(module, name, None)
    # the scene module imported Manim and the engine's NarratedScene; this module does not, so that
    # finding a scene's file stays fast for commands that never build one
    base = getattr(sys.modules.get("coursekit.render.narrated_scene"), "NarratedScene", None)
    if not (inspect.isclass(obj) and base is not None and issubclass(obj, base)):
        raise LookupError(f"{name} in {module.__file__} is not a NarratedScene subclass")
    return obj
