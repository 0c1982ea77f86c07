"""What a rendered frame or sample depends on outside the project's sources: one fingerprint for the
scene-cache key (``scene_cache``) and for the check that a Dask worker matches this machine
(``scene_job.environment``).

Python and the libraries that draw, encode and mix (Manim, ManimPango, PyAV, pycairo and cairo, typst,
numpy, scipy, pydub, pyloudnorm), ffmpeg's version line, the course font files fontconfig picks
(identified by content, not by path or mtime, so two machines with the same font agree), and
``manim.cfg`` (the x264 settings every render reads).
"""

from __future__ import annotations

import importlib.metadata as md
import platform
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import cairo

from coursekit.core.config import DEFAULT_FONT
from coursekit.core.digest import file_sha256, file_sha256_cached
from coursekit.core.paths import course_root

LIBRARIES = ("manim", "manimpango", "av", "pycairo", "typst", "numpy", "scipy", "pydub", "pyloudnorm")


@lru_cache(maxsize=1)
def _libraries() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for dist in LIBRARIES:
        try:
            found[dist] = md.version(dist)
        except md.PackageNotFoundError:
            found[dist] = "not installed"
    try:
        found["cairo"] = cairo.cairo_version_string()
    except ImportError:
        found["cairo"] = "not installed"
    exe = shutil.which("ffmpeg")
    try:
        out = subprocess.run([exe, "-version"], capture_output=True, text=True).stdout if exe else ""
    except OSError:
        out = ""
    found["ffmpeg"] = (out.splitlines() or ["not installed"])[0].split(" Copyright")[0]
    return found


def _fonts(family: str) -> dict[str, str]:
    found = {}
    for style, pattern in {"regular": family, "bold": f"{family}:bold"}.items():
        try:
            path = subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True).stdout
            found[f"font {style}"] = f"{Path(path).name} sha256:{file_sha256_cached(path)[:16]}"
        except (OSError, ValueError):
            found[f"font {style}"] = "not found"
    return found


def _manim_cfg(root: Path | None = None) -> str:
    cfg = (root or course_root()) / "manim.cfg"
    return file_sha256(cfg)[:16] if cfg.exists() else "none"


def render_environment(font: str = DEFAULT_FONT) -> dict[str, str]:
    """The fingerprint, as named entries (a difference can be reported by name); ``font`` is the
    course's font family (``course.font``), whose files are identified by content."""
    return {**_libraries(), **_fonts(font), "manim.cfg": _manim_cfg()}
