"""Facts about a made video, read back with ffprobe."""

from __future__ import annotations

import subprocess
from pathlib import Path


def video_frame_count(path: Path) -> int:
    """Frames in the first video stream, decoded and counted by ffprobe."""
    out = subprocess.run(
        [
            "ffprobe",
            "-v",
            "error",
            "-count_frames",
            "-select_streams",
            "v:0",
            "-show_entries",
            "stream=nb_read_frames",
            "-of",
            "csv=p=0",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return int(out)
