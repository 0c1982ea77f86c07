"""ffmpeg helpers (coursekit.core.media_tools): the frame count every render is checked with."""

from __future__ import annotations

import subprocess

import pytest

from coursekit.core.media_tools import video_frames
from tests.support.media import video_frame_count


def test_video_frames_counts_the_frames_ffprobe_decodes(tmp_path):
    video = tmp_path / "v.mp4"
    subprocess.run(
        ["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=15", "-frames:v", "37"]
        + ["-c:v", "libx264", "-preset", "ultrafast", "-g", "10", str(video)],
        check=True,
    )
    assert video_frames(video) == video_frame_count(video) == 37


@pytest.mark.parametrize("content", ["garbage", "missing", "sound only"])
def test_a_file_that_is_no_video_is_one_line_naming_it(tmp_path, content):
    path = tmp_path / "broken.mp4"
    if content == "garbage":
        path.write_bytes(b"not a video")
    elif content == "sound only":
        subprocess.run(
            ["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=duration=0.5", "-c:a", "aac", str(path)], check=True
        )
    with pytest.raises(RuntimeError, match="count frames of broken.mp4 failed"):
        video_frames(path)
