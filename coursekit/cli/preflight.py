"""Check the machine before work starts: each missing tool or font is one line naming the Debian package."""
from __future__ import annotations

import shutil
import subprocess

from coursekit.core.config import DEFAULT_FONT
from coursekit.core.errors import UserError



def need_tool(tool: str, package: str) -> None:
    if shutil.which(tool) is None:
        raise UserError(f"{tool} not found on PATH; install the Debian package {package}: apt-get install {package}")


def need_font(family: str = DEFAULT_FONT, package: str = "fonts-noto-cjk") -> None:
    try:
        found = subprocess.run(["fc-list", f":family={family}", "family"], capture_output=True, text=True).stdout
    except OSError:
        raise UserError("fc-list not found; install the Debian package fontconfig: apt-get install fontconfig") from None
    if family not in found:
        raise UserError(f"font '{family}' not found; install the Debian package {package}: apt-get install {package}")


def for_audio() -> None:
    need_tool("ffmpeg", "ffmpeg")
    need_tool("ffprobe", "ffmpeg")


def for_render(font: str = DEFAULT_FONT) -> None:
    for_audio()
    need_font(font)
