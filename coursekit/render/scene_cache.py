"""Scene-level cache: a rendered scene is reused while nothing that can change its frames or sound changed.

The key covers the scene's module and every module of the course or the engine it imports,
transitively (the course's math, mobjects and theme, the engine's scene base …), its plan slice (cue frames, audio hashes,
subtitle text), the quality and fps, and ``coursekit.render.fingerprint.render_environment()`` (the
libraries that draw, encode and mix, ffmpeg, the font files by content, manim.cfg), the same
fingerprint a Dask worker is checked against.
"""
from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
from pathlib import Path

from coursekit.core.atomic import write_text
from coursekit.core.digest import file_sha256
from coursekit.core.config import DEFAULT_FONT
from coursekit.render.fingerprint import render_environment
from coursekit.render.manim_process import encoder_options
from coursekit.core.paths import ENGINE_ROOT, course_root, shown
from coursekit.plan.model import ScenePlan, scene_plan_to_json



def _module_file(name: str) -> Path | None:
    """The source file of module ``name`` if it is the engine's or the course's (else None)."""
    parts = name.split(".")
    root = ENGINE_ROOT if parts[0] == "coursekit" else course_root()
    base = root.joinpath(*parts)
    for cand in (base.with_suffix(".py"), base / "__init__.py"):
        if cand.exists():
            return cand
    return None


def _imports(path: Path) -> set[str]:
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
    todo = [module.resolve()]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _imports(path):
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                f = _module_file(".".join(parts[:i]))
                if f is not None and f.resolve() not in seen:
                    todo.append(f.resolve())
    return sorted(seen)


def scene_key(scene: ScenePlan, module: Path, quality: str, extra: str = "", font: str = DEFAULT_FONT) -> str:
    h = hashlib.sha256()
    for f in dependency_files(module):
        h.update(shown(f).encode())
        h.update(hashlib.sha256(f.read_bytes()).digest())
    # where the scene sits in its lesson does not change a frame or a sample of it: an edit to an
    # earlier scene shifts every later scene's start_frame, and must not re-render them
    h.update(scene_plan_to_json(dataclasses.replace(scene, start_frame=0)).encode())
    h.update(json.dumps({"quality": quality, "fps": scene.fps, "extra": extra, "encoder": encoder_options(quality),
                         **render_environment(font)},
                        sort_keys=True).encode())
    return h.hexdigest()


def key_path(output: Path) -> Path:
    return output.with_name(f".{output.name}.key")


def _digest(path: Path) -> str:
    return file_sha256(path)


def is_fresh(output: Path, key: str) -> bool:
    """True if ``output`` was made with this key and is byte-for-byte what was written then.

    A truncated or altered output (size or sha256 differ from the record) counts as stale.
    """
    try:
        record = json.loads(key_path(output).read_text(encoding="utf-8"))
        stat = output.stat()
    except (OSError, ValueError):
        return False
    return (record.get("key") == key and stat.st_size > 0 and record.get("size") == stat.st_size
            and record.get("sha256") == _digest(output))


def remember(output: Path, key: str) -> None:
    record = {"key": key, "size": output.stat().st_size, "sha256": _digest(output)}
    write_text(key_path(output), json.dumps(record, sort_keys=True) + "\n")
