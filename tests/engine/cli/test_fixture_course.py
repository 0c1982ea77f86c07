"""A second course, tests/fixtures/mini_course/, made end to end by the same `render.py` commands with
`--course`: its own narration, figures, lexicon and scenes, and nothing of the main course.

It is copied to a temporary folder first (its output stays inside it). The espeak voice narrates it
at 480p15. Checked: the plan quotes its figures, each command runs, the lesson video holds exactly the
planned frames with audio, subtitles and chapters, the overview scene marked in its narration is
delivered alone, the page and manifest carry its own title, and nothing was written into the project.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import srt

ROOT = Path(__file__).resolve().parents[3]


def render(course: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COURSEKIT_COURSE", "COURSEKIT_NARRATION")}
    return subprocess.run(
        [sys.executable, str(ROOT / "render.py"), *args, "--course", str(course)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


def ok(res: subprocess.CompletedProcess) -> str:
    assert res.returncode == 0, res.stderr[-3000:] + res.stdout[-2000:]
    return res.stdout


def probe(path: Path) -> dict:
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-show_streams", "-show_chapters", "-of", "json", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)


@pytest.fixture(scope="module")
def course(made_mini) -> Path:
    """The mini course made once for the run (conftest's made_mini: check, plan, course, subtitles, preview)."""
    return made_mini.course


@pytest.fixture(scope="module")
def made(made_mini):
    """Each command's output, and the project's media/plan listing before and after the runs."""
    outs = {name: res.stdout for name, res in made_mini.outputs.items()}
    return (outs, *made_mini.project_plans)


@pytest.mark.render
def test_check_counts_the_mini_course(made):
    outs, _, _ = made
    assert "1 lessons, 2 scenes, 4 cues" in outs["check"] or "1 lesson, 2 scenes, 4 cues" in outs["check"]


@pytest.mark.render
def test_plan_quotes_the_course_figures(course, made):
    plan = json.loads((course / "media" / "plan" / "15fps" / "counting.json").read_text(encoding="utf-8"))
    cues = {c["id"]: c for s in plan["scenes"] for c in s["cues"]}
    assert cues["count_dots.show"]["text"] == "屏幕上有3个点。"
    assert cues["count_dots.answer"]["text"] == "是4个。"
    assert cues["count_dots.ask"]["role"] == "question" and cues["count_dots.answer"]["role"] == "answer"
    assert [s["overview"] for s in plan["scenes"]] == [False, True]
    assert all(c["audio"] and not Path(c["audio"]).is_absolute() for c in cues.values())
    assert all((course / c["audio"]).is_file() for c in cues.values())  # relative to the course


@pytest.mark.render
def test_lesson_video_has_every_planned_frame(course, made):
    plan = json.loads((course / "media" / "plan" / "15fps" / "counting.json").read_text(encoding="utf-8"))
    mp4 = course / "media" / "course" / "counting" / "counting.mp4"
    info = probe(mp4)
    video = next(s for s in info["streams"] if s["codec_type"] == "video")
    kinds = sorted(s["codec_type"] for s in info["streams"])
    assert int(video["nb_read_frames"]) == plan["frames"]
    assert (video["width"], video["height"]) == (854, 480)
    assert {"audio", "subtitle", "video"} <= set(kinds)  # (the chapter list is a data stream)
    assert [c["tags"]["title"] for c in info["chapters"]] == ["数点", "结束"]


@pytest.mark.render
def test_subtitles_keep_every_character(course, made):
    plan = json.loads((course / "media" / "plan" / "15fps" / "counting.json").read_text(encoding="utf-8"))
    text = (course / "media" / "course" / "counting" / "counting.srt").read_text(encoding="utf-8")
    shown = "".join(e.content.replace("\n", "") for e in srt.parse(text))
    assert shown == "".join(c["text"] for s in plan["scenes"] for c in s["cues"])


def _video_md5(path: Path) -> str:
    return subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:v:0", "-c", "copy", "-f", "md5", "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


@pytest.mark.render
def test_overview_marked_in_the_narration_is_delivered_alone(course, made):
    """The scene's picture, stream-copied, with the lesson's delivered sound (48 kHz stereo AAC)."""
    overview = course / "media" / "course" / "counting" / "overview.mp4"
    scene = course / "media" / "scenes" / "low" / "closing.mp4"
    assert _video_md5(overview) == _video_md5(scene)
    audio = next(s for s in probe(overview)["streams"] if s["codec_type"] == "audio")
    assert (audio["codec_name"], int(audio["sample_rate"]), audio["channels"]) == ("aac", 48000, 2)


@pytest.mark.render
def test_page_and_manifest_carry_the_course_title(course, made):
    manifest = json.loads((course / "media" / "course" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["title"] == "小小测试课"
    assert [l["lesson"] for l in manifest["lessons"]] == ["counting"]
    page = (course / "media" / "course" / "index.html").read_text(encoding="utf-8")
    assert "<title>小小测试课</title>" in page and "Transformer" not in page


@pytest.mark.render
def test_preview_of_one_scene(course, made):
    assert (course / "media" / "preview" / "closing.mp4").stat().st_size > 0
    assert (course / "media" / "preview" / "closing.png").stat().st_size > 0


@pytest.mark.render
def test_nothing_was_written_into_the_project(made):
    _, before, after = made
    assert after == before


def test_a_folder_that_is_not_a_course_is_one_line(tmp_path):
    res = render(tmp_path, "check")
    assert res.returncode == 2
    assert res.stderr.strip().count("\n") == 0 and "not a course (no narration/ folder" in res.stderr
    res = render(tmp_path / "nowhere", "check")
    assert res.returncode == 2 and "no such folder" in res.stderr
