"""coursekit.core.atomic.replacing: a final file is either the old one or the complete new one, and a
failed writer (ffmpeg included) leaves no temporary file behind."""

import subprocess

import pytest

from coursekit.core.atomic import replacing, write_text
from coursekit.core.media_tools import extract_frame, mux


def _left(folder):
    return sorted(p.name for p in folder.iterdir())


def test_a_finished_block_replaces_the_file(tmp_path):
    out = tmp_path / "a.txt"
    out.write_text("old")
    with replacing(out) as tmp:
        assert tmp.parent == out.parent and tmp.suffix == ".txt" and tmp != out
        tmp.write_text("new")
        assert out.read_text() == "old"  # nothing changes before the block ends
    assert out.read_text() == "new" and _left(tmp_path) == ["a.txt"]


def test_a_failed_block_keeps_the_old_file_and_no_temporary(tmp_path):
    out = tmp_path / "a.txt"
    out.write_text("old")
    with pytest.raises(ValueError), replacing(out) as tmp:
        tmp.write_text("half")
        raise ValueError("writer died")
    assert out.read_text() == "old" and _left(tmp_path) == ["a.txt"]


def test_a_block_that_writes_nothing_changes_nothing(tmp_path):
    out = tmp_path / "a.txt"
    with replacing(out):
        pass
    assert _left(tmp_path) == []
    write_text(out, "x")
    assert out.read_text() == "x" and _left(tmp_path) == ["a.txt"]


def test_ffmpeg_failing_leaves_the_old_output_and_no_temporary(tmp_path):
    broken = tmp_path / "broken.mp4"
    broken.write_bytes(b"not a video")
    png = tmp_path / "frame.png"
    png.write_bytes(b"old frame")
    with pytest.raises(RuntimeError, match="extract frame"):
        extract_frame(broken, 0, png)
    assert png.read_bytes() == b"old frame"
    out = tmp_path / "out.mp4"
    with pytest.raises(RuntimeError, match="mux"):
        mux(broken, broken, out)
    assert _left(tmp_path) == ["broken.mp4", "frame.png"]


def test_ffmpeg_output_lands_under_the_final_name(tmp_path):
    src = tmp_path / "src.mp4"
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-f",
            "lavfi",
            "-i",
            "color=c=red:s=64x64:r=10:d=0.5",
            "-pix_fmt",
            "yuv420p",
            str(src),
        ],
        check=True,
    )
    png = extract_frame(src, 2, tmp_path / "frame.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert _left(tmp_path) == ["frame.png", "src.mp4"]


def test_extract_frame_is_exactly_the_frame_asked_for(tmp_path):
    """The seek lands on the frame itself: each PNG equals the frame ffmpeg's select filter picks after
    decoding from the start, including frames right after, on and before a keyframe (every 4th). The
    reference frames come from one decoding pass, and both sides' pixels are read with Pillow (a PNG's pixels
    as stored), not a process for each."""
    from PIL import Image

    src = tmp_path / "src.mp4"
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-f",
            "lavfi",
            "-i",
            "testsrc2=s=96x64:r=15:d=3",
            "-pix_fmt",
            "yuv420p",
            "-c:v",
            "libx264",
            "-g",
            "4",
            str(src),
        ],
        check=True,
    )

    def pixels(png):
        with Image.open(png) as im:
            return im.mode, im.size, im.tobytes()

    wanted = (0, 1, 3, 4, 5, 22, 44)
    select = "+".join(f"eq(n\\,{n})" for n in wanted)
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-i",
            str(src),
            "-vf",
            f"select={select}",
            "-fps_mode",
            "passthrough",
            str(tmp_path / "ref%d.png"),
        ],
        check=True,
    )
    refs = sorted(tmp_path.glob("ref*.png"), key=lambda p: int(p.stem[3:]))
    assert len(refs) == len(wanted)
    shown = set()
    for n, ref in zip(wanted, refs):
        png = extract_frame(src, n, tmp_path / "frame.png")
        assert pixels(png) == pixels(ref), n
        shown.add(pixels(png))
    assert len(shown) == 7  # testsrc2 draws a different picture on every frame
