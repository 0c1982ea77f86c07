"""Scene-level cache: a rendered scene is reused while nothing that can change its frames or sound changed.

The key covers the scene's module and every module of the course or the engine it imports,
transitively (the course's math, mobjects and theme, the engine's scene base …:
``coursekit.core.sources.dependency_files``, part of the one list ``preview --watch`` and the studio
use), its plan slice (cue frames, audio hashes, subtitle text), the quality and fps, and ``coursekit.render.fingerprint.render_environment()`` (the
libraries that draw, encode and mix, ffmpeg, the font files by content, manim.cfg), the same
fingerprint a Dask worker is checked against.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from coursekit.core.atomic import write_text
from coursekit.core.config import DEFAULT_FONT
from coursekit.core.digest import file_sha256
from coursekit.core.paths import shown
from coursekit.core.sources import dependency_files
from coursekit.plan.model import ScenePlan, scene_plan_to_json
from coursekit.render.fingerprint import render_environment
from coursekit.render.manim_process import encoder_options


def scene_key(scene: ScenePlan, module: Path, quality: str, extra: str = "", font: str = DEFAULT_FONT) -> str:
    h = hashlib.sha256()
    for f in dependency_files(module):
        h.update(shown(f).encode())
        h.update(hashlib.sha256(f.read_bytes()).digest())
    # where the scene sits in its lesson does not change a frame or a sample of it: an edit to an
    # earlier scene shifts every later scene's start_frame, and must not re-render them
    h.update(scene_plan_to_json(dataclasses.replace(scene, start_frame=0)).encode())
    h.update(
        json.dumps(
            {
                "quality": quality,
                "fps": scene.fps,
                "extra": extra,
                "encoder": encoder_options(quality),
                **render_environment(font),
            },
            sort_keys=True,
        ).encode()
    )
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
    return (
        record.get("key") == key
        and stat.st_size > 0
        and record.get("size") == stat.st_size
        and record.get("sha256") == _digest(output)
    )


def remember(output: Path, key: str) -> None:
    record = {"key": key, "size": output.stat().st_size, "sha256": _digest(output)}
    write_text(key_path(output), json.dumps(record, sort_keys=True) + "\n")
