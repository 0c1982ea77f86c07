"""Loading a course's Python file by path (its figures, page widgets, scene modules).

Loaded by path under a name made from its folder, so two courses' files of the same name cannot
collide; a module already imported from that very file is reused; the course root goes first on
``sys.path``, so the file can import the course's own packages.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from coursekit.core.digest import text_sha
from coursekit.core.paths import course_importable

#: a module's ``__file__`` -> that path resolved (a scan of ``sys.modules`` resolved every module's file
#: each time: 1,300 modules × 29 scenes was 3 s of CPU in every command on the course)
_RESOLVED: dict[str, Path] = {}


def _resolved(file: str) -> Path:
    got = _RESOLVED.get(file)
    if got is None:
        got = _RESOLVED[file] = Path(file).resolve()
    return got


def load_by_path(path: Path, kind: str) -> ModuleType:
    """The module at ``path`` (``kind`` names it: ``_coursekit_<kind>_<folder sha>.<stem>``).
    Its exceptions propagate, and a failed load leaves nothing in ``sys.modules``."""
    path = Path(path).resolve()
    for mod in list(sys.modules.values()):
        f = getattr(mod, "__file__", None)
        # the name first: resolving every loaded module's file (about 500 of them) cost 10 ms per command
        if f and f.endswith(path.name) and _resolved(f) == path:
            return mod
    name = f"_coursekit_{kind}_{text_sha(str(path.parent))[:10]}.{path.stem}"
    course_importable()
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
