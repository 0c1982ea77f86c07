"""Find a NarratedScene subclass by class name among the modules in scenes/.

Only the module that defines the class is imported (found by a text scan for
``class <Name>(``), so one broken scene module cannot break the others.
Results are cached.
"""
from __future__ import annotations

import importlib
import inspect
import re
from functools import lru_cache
from pathlib import Path

SCENES_DIR = Path(__file__).resolve().parent
_NOT_SCENE_MODULES = {"__init__", "base", "theme", "registry"}


def _scene_files() -> list[Path]:
    return sorted(p for p in SCENES_DIR.glob("*.py") if p.stem not in _NOT_SCENE_MODULES)


@lru_cache(maxsize=None)
def scene_module_path(name: str) -> Path:
    """The file in scenes/ defining scene class ``name`` (what ``manim render`` is given)."""
    pattern = re.compile(rf"^class\s+{re.escape(name)}\s*\(", re.MULTILINE)
    hits = [p for p in _scene_files() if pattern.search(p.read_text(encoding="utf-8"))]
    if not hits:
        raise LookupError(f"no scene class {name!r} in {SCENES_DIR}")
    if len(hits) > 1:
        raise LookupError(f"scene class {name!r} is defined in several modules: {[p.name for p in hits]}")
    return hits[0]


@lru_cache(maxsize=None)
def scene_class(name: str) -> type:
    """The NarratedScene subclass called ``name``; imports its module on first use."""
    from scenes.base import NarratedScene

    module = importlib.import_module(f"scenes.{scene_module_path(name).stem}")
    obj = getattr(module, name, None)
    if not (inspect.isclass(obj) and issubclass(obj, NarratedScene)):
        raise LookupError(f"{name} in {module.__file__} is not a NarratedScene subclass")
    return obj
