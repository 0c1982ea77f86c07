"""bench/levers_compare.py: it finds a changed frame count, chapter, audio or picture between two renders."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
spec = importlib.util.spec_from_file_location("levers_compare", ROOT / "bench" / "levers_compare.py")
lc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lc)

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def lesson(path: Path, *, seconds=2, tone=440, crf=18, title="一") -> Path:
    """A tiny lesson: a test pattern at 15 fps, a tone, two chapters."""
    meta = path.with_suffix(".txt")
    half = seconds * 500
    meta.write_text(
        ";FFMETADATA1\n"
        f"[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND={half}\ntitle={title}\n"
        f"[CHAPTER]\nTIMEBASE=1/1000\nSTART={half}\nEND={2 * half}\ntitle=二\n",
        encoding="utf-8",
    )
    subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=160x90:rate=15:duration={seconds}"]
        + ["-f", "lavfi", "-i", f"sine=frequency={tone}:duration={seconds}", "-i", str(meta)]
        + ["-map", "0:v", "-map", "1:a", "-map_metadata", "2", "-map_chapters", "2"]
        + ["-c:v", "libx264", "-crf", str(crf), "-pix_fmt", "yuv420p", "-c:a", "aac", str(path)],
        check=True,
    )
    return path


@pytest.fixture
def folders(tmp_path):
    on, off = tmp_path / "on", tmp_path / "off"
    on.mkdir()
    off.mkdir()
    lesson(on / "a.mp4")
    return on, off


def test_the_same_lessons_compare_equal_at_every_sampled_time(folders):
    on, off = folders
    shutil.copy(on / "a.mp4", off / "a.mp4")
    problems, figures = lc.compare(on, off, samples=6)
    assert problems == []
    assert figures["lessons"]["a.mp4"] == {"frames": [30, 30], "chapters": 2, "audio_same": True}
    assert [p for _, _, p in figures["psnr"]] == [float("inf")] * 6


def test_each_kind_of_difference_is_named(folders):
    on, off = folders
    lesson(off / "a.mp4", seconds=3, tone=300, crf=45, title="别的")
    problems, _ = lc.compare(on, off, samples=6, min_psnr=45)
    assert "a.mp4: 30 frames with the levers on, 45 off" in problems
    assert "a.mp4: the chapters differ" in problems
    assert "a.mp4: the audio differs" in problems
    assert any(p.startswith("a.mp4 at ") and "PSNR" in p for p in problems)


def test_the_sampled_times_are_midpoints_spread_over_the_lessons_in_order():
    times = lc.sample_times({"a": 3.0, "b": 1.0}, 4)
    assert times == [("a", 0.5), ("a", 1.5), ("a", 2.5), ("b", 0.5)]
