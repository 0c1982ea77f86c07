"""Check the machine before work starts: each missing tool or font is one line naming the Debian package.

The checks are ``render.py doctor``'s (``coursekit.cli.doctor``), defined there once; here a failing one
is raised as its one line."""

from __future__ import annotations

from coursekit.cli import doctor
from coursekit.core.config import DEFAULT_FONT
from coursekit.core.errors import UserError


def _require(check: doctor.Check) -> None:
    if check.failed:
        raise UserError(check.line())


def need_tool(tool: str, package: str) -> None:
    _require(doctor.tool(tool, package))


def need_font(family: str = DEFAULT_FONT, package: str = "fonts-noto-cjk") -> None:
    _require(doctor.font(family, package))


def for_audio() -> None:
    need_tool("ffmpeg", "ffmpeg")
    need_tool("ffprobe", "ffmpeg")


def for_render(font: str = DEFAULT_FONT) -> None:
    for_audio()
    need_font(font)
