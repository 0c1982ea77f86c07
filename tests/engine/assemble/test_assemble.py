"""Assembly of a tiny synthetic two-scene lesson: durations, chapters, subtitle track, seamless joins."""

import pytest

from coursekit.assemble.lesson_video import chapter_times, chapters_text
from coursekit.core.media_tools import probe
from tests.support.synthetic import FPS, build_assembled, framemd5


@pytest.fixture(scope="module")
def assembled(tmp_path_factory):
    return build_assembled(tmp_path_factory.mktemp("asm"))


def test_durations_add_up_and_streams(assembled):
    plan, videos, outdir, files = assembled
    mp4 = outdir / "trig_to_rope.mp4"
    info = probe(mp4, count_frames=True)
    kinds = {s["codec_type"]: s for s in info["streams"]}
    assert kinds["video"]["codec_name"] == "h264"
    assert kinds["audio"]["codec_name"] == "aac"
    assert kinds["subtitle"]["codec_name"] == "mov_text"
    assert kinds["subtitle"]["tags"]["language"] == "zho"
    assert int(kinds["video"]["nb_read_frames"]) == 37 + 46 == plan.frames
    a_dur, v_dur = float(kinds["audio"]["duration"]), float(kinds["video"]["duration"])
    assert abs(a_dur - plan.frames / FPS) <= 1 / FPS
    assert abs(v_dur - plan.frames / FPS) <= 1 / FPS


def test_two_chapters_at_scene_starts(assembled):
    plan, _, outdir, _ = assembled
    chapters = probe(outdir / "trig_to_rope.mp4")["chapters"]
    assert [c["tags"]["title"] for c in chapters] == ["第一章：指针", "第二章 <旋转> & 角度"]
    assert float(chapters[0]["start_time"]) == 0
    assert abs(float(chapters[1]["start_time"]) - 37 / FPS) < 1e-3
    assert chapters_text(plan).splitlines() == ["00:00 第一章：指针", "00:02 第二章 <旋转> & 角度"]
    assert chapter_times(plan)[1][0] == round(37 * 1000 / FPS)


def test_joins_are_seamless(assembled):
    _, videos, outdir, _ = assembled
    joined = framemd5(outdir / "trig_to_rope.mp4")
    assert joined == framemd5(videos[0]) + framemd5(videos[1])


def test_side_files(assembled):
    plan, _, outdir, files = assembled
    for name in (
        "trig_to_rope.srt",
        "trig_to_rope.vtt",
        "trig_to_rope.jpg",
        "trig_to_rope.txt",
        "trig_to_rope.chapters.txt",
    ):
        assert (outdir / name).exists(), name
    srt = (outdir / "trig_to_rope.srt").read_text(encoding="utf-8")
    assert "指针转起来。" in srt and "角<b>可</b>&加-->。" in srt
    vtt = (outdir / "trig_to_rope.vtt").read_text(encoding="utf-8")
    assert "角&lt;b&gt;可&lt;/b&gt;&amp;加--&gt;。" in vtt
    transcript = (outdir / "trig_to_rope.txt").read_text(encoding="utf-8")
    assert "指针转起来。" in transcript and "【第二章 <旋转> & 角度】" in transcript
    assert not list(outdir.glob(".*tmp*"))


def test_soft_subtitle_track_keeps_tag_like_text_literal(assembled):
    import subprocess

    _, _, outdir, _ = assembled
    out = subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-i",
            str(outdir / "trig_to_rope.mp4"),
            "-map",
            "0:s:0",
            "-c:s",
            "text",
            "-f",
            "data",
            "-",
        ],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    assert "角<b>可</b>&加-->。" in out, out
