"""What the course's outputs are made from: the one list of source files a plan, a preview and a scene
depend on, and a digest of all the course's sources for a whole run.

- ``plan_inputs(lesson_file, config_file)``: what a lesson's plan is made from: its narration file,
  the lexicon, ``figures.py``, the config, the author's takes of its cues (``recordings/<lesson>/``:
  the recorded voice reads them) and every ``.py`` of the course's own packages (the figures import the
  course's math, so an edit there changes the numbers the narration quotes);
- ``dependency_files(module)``: a scene module and every course or engine module it imports,
  transitively: what its frames are drawn by (the scene cache's key hashes exactly these);
- ``preview_inputs(scene_module, lesson_file, config_file)``: both together: what a scene's preview
  depends on. ``preview --watch``, the studio's fresh/stale state and the scene cache all use these.
- ``run_sources(config_file)`` and ``digest(...)``: every source file of the course and the engine
  (narration, lexicon, config, figures, the author's takes, scenes, mobjects, the course's packages,
  ``manim.cfg``, the page's widgets, the engine's Python) by content, so a run can record which version it was made from
  and notice an edit saved while it runs (``changed``, ``RunSources``).
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

from coursekit.core.errors import UserError
from coursekit.core.paths import (
    ENGINE_ROOT,
    course_packages,
    course_root,
    narration_dir,
    recordings_dir,
    shown,
    source_packages,
)


def _python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def python_sources(packages: list[Path] | None = None) -> list[Path]:
    """Every ``.py`` file of ``packages`` (default: the engine's and the course's, ``source_packages``)."""
    return [f for pkg in (packages if packages is not None else source_packages()) for f in _python_files(pkg)]


def config_path(config_file: Path | None = None) -> Path:
    """The config a run reads: ``config_file`` (``--config``) or the course's ``config.yaml``."""
    return Path(config_file).resolve() if config_file else (course_root() / "config.yaml").resolve()


def plan_inputs(lesson_file: Path, config_file: Path | None = None) -> list[Path]:
    """The files a lesson's plan is made from (see the module docstring), resolved, sorted, unique."""
    paths = [
        Path(lesson_file),
        narration_dir() / "lexicon.yaml",
        narration_dir() / "figures.py",
        config_path(config_file),
    ]
    paths += takes_of(Path(lesson_file).stem)
    paths += python_sources(course_packages())
    return sorted({p.resolve() for p in paths})


def takes_of(lesson: str | None = None) -> list[Path]:
    """The files of the author's takes (audio and sidecar, ``coursekit.speech.takes``) of ``lesson`` (a
    lesson's id is its narration file's name), or of every lesson."""
    folder = recordings_dir(lesson)
    pattern = "*.*" if lesson else "*/*.*"
    return sorted(p for p in folder.glob(pattern) if p.suffix in (".flac", ".json") and p.is_file())


def _module_file(name: str, course: Path | None = None) -> Path | None:
    """The source file of module ``name`` if it is the engine's or the course's (``course``, default
    ``course_root()``), resolved; else None."""
    parts = name.split(".")
    root = ENGINE_ROOT if parts[0] == "coursekit" else course or course_root()
    base = root.joinpath(*parts)
    for cand in (base.with_suffix(".py"), base / "__init__.py"):
        if cand.exists():
            return cand.resolve()
    return None


#: each file's imports, with the (size, mtime) they were read at: the studio asks at every edit, and only an
#: edited file is parsed again
_IMPORTS: dict[Path, tuple[tuple[int, int], frozenset[str]]] = {}


def _imports(path: Path) -> frozenset[str]:
    st = path.stat()
    stamp = (st.st_size, st.st_mtime_ns)
    known = _IMPORTS.get(path)
    if known is not None and known[0] == stamp:
        return known[1]
    names = frozenset(_parsed_imports(path))
    _IMPORTS[path] = (stamp, names)
    return names


def _parsed_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def dependency_files(module: Path) -> list[Path]:
    """The scene module and every course or engine file it imports, transitively (parent packages included)."""
    seen: set[Path] = set()
    course = course_root()
    found: dict[str, Path | None] = {}  # module name -> its file, looked up once per call
    todo = [Path(module).resolve()]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _imports(path):
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                if prefix not in found:
                    found[prefix] = _module_file(prefix, course)
                f = found[prefix]
                if f is not None and f not in seen:
                    todo.append(f)
    return sorted(seen)


def preview_inputs(scene_module: Path | None, lesson_file: Path, config_file: Path | None = None) -> list[Path]:
    """What a scene's preview depends on: its lesson's ``plan_inputs`` and the scene's ``dependency_files``."""
    paths = set(plan_inputs(lesson_file, config_file))
    if scene_module is not None:
        paths.update(dependency_files(scene_module))
    return sorted(paths)


def run_sources(config_file: Path | None = None) -> list[Path]:
    """Every source file a run of the course reads: the narration folder's YAML and Python, the author's
    takes (``recordings/``), the config,
    the course's ``manim.cfg``, its page widgets' files (``widgets/``, ``coursekit.deliver.widgets``) and
    every ``.py`` of the engine and the course's packages."""
    narration = narration_dir()
    widgets = course_root() / "widgets"
    files = [
        *sorted(narration.glob("*.yaml")),
        *sorted(narration.glob("*.py")),
        config_path(config_file),
        *takes_of(),
        course_root() / "manim.cfg",
        *sorted(widgets.rglob("*")),
        *python_sources(),
    ]
    return sorted({f.resolve() for f in files if f.is_file()})


def snapshot(files: list[Path]) -> dict[str, str]:
    """``{shown path: sha256 of its content}`` for ``files`` (a missing file: ``"missing"``)."""
    out: dict[str, str] = {}
    for f in files:
        try:
            with open(f, "rb") as fh:
                out[shown(f)] = hashlib.file_digest(fh, "sha256").hexdigest()
        except OSError:
            out[shown(f)] = "missing"
    return out


def digest(snap: dict[str, str]) -> str:
    """One sha256 over a ``snapshot``: equal exactly when every file is."""
    h = hashlib.sha256()
    for name in sorted(snap):
        h.update(f"{name}\0{snap[name]}\n".encode())
    return h.hexdigest()


def changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The files that differ between two snapshots (edited, added or removed), sorted."""
    return sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))


class SourcesChanged(UserError):
    """A source file was saved while a run was using the version it started from."""


class RunSources:
    """The sources a run started from (``run_sources`` by content, taken when it is made), and the check
    every scene job makes before it starts and before its output is kept: ``check()`` raises
    ``SourcesChanged`` naming the edited files. ``record()`` is what the manifest keeps."""

    def __init__(self, config_file: Path | None = None) -> None:
        self.config_file = config_file
        self.files = snapshot(run_sources(config_file))
        self.digest = digest(self.files)

    def changes(self) -> list[str]:
        return changed(self.files, snapshot(run_sources(self.config_file)))

    def check(self) -> None:
        edited = self.changes()
        if edited:
            shown_ = ", ".join(edited[:5]) + (f" and {len(edited) - 5} more" if len(edited) > 5 else "")
            raise SourcesChanged(
                f"sources changed during the run: {shown_}; run again (every scene finished "
                f"before the edit is kept in the scene cache)"
            )

    def record(self) -> dict:
        return {"digest": self.digest, "files": len(self.files)}
