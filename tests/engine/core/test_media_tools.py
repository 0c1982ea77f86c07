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


@pytest.mark.parametrize("content", [b"not a video", None])
def test_a_file_that_is_no_video_is_one_line_naming_it(tmp_path, content):
    path = tmp_path / "broken.mp4"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(RuntimeError, match="count frames of broken.mp4 failed"):
        video_frames(path)
