"""End to end: `render.py preview` of a scene with the espeak voice, checked with ffprobe and the decoded audio.

The scene is the mini course's ``closing`` (tests/fixtures/mini_course: espeak, 480p15), previewed by the
run's made mini course (conftest's ``made_mini``: check, plan, course, subtitles, preview closing); the second
render is made on a copy of it."""

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.support import mini_runs

pytestmark = pytest.mark.render  # every test here renders video with Manim (made_mini's preview, and one more)

SCENE = "closing"


@pytest.fixture(scope="module")
def preview(made_mini):
    """The made mini course's preview of SCENE, its plan and what `render.py preview` printed."""
    media = made_mini.course.resolve() / "media"
    plan = json.loads((media / "plan" / "15fps" / "counting.json").read_text(encoding="utf-8"))
    scene = next(s for s in plan["scenes"] if s["id"] == SCENE)
    return media / "preview" / f"{SCENE}.mp4", scene, made_mini.outputs["preview"].stdout


def test_preview_prints_both_paths(preview):
    mp4, _, stdout = preview
    assert str(mp4) in stdout and str(mp4.with_suffix(".png")) in stdout
    assert mp4.with_suffix(".png").stat().st_size > 1000


def test_streams_and_durations(preview):
    mp4, scene, _ = preview
    info = json.loads(
        subprocess.run(
            ["ffprobe", "-v", "error", "-count_frames", "-print_format", "json", "-show_streams", str(mp4)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    streams = {s["codec_type"]: s for s in info["streams"]}
    assert streams["video"]["codec_name"] == "h264"
    assert streams["audio"]["codec_name"] == "aac"
    assert streams["subtitle"]["codec_name"] == "mov_text"
    assert int(streams["video"]["nb_read_frames"]) == scene["frames"]
    v, a = float(streams["video"]["duration"]), float(streams["audio"]["duration"])
    assert abs(v - scene["frames"] / 15) <= 1 / 15
    assert abs(a - v) <= 1 / 15


def _samples(mp4: Path) -> np.ndarray:
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(mp4), "-map", "0:a:0", "-ac", "1", "-ar", "24000", "-f", "s16le", "-"],
        capture_output=True,
        check=True,
    ).stdout
    return np.frombuffer(raw, dtype=np.int16).astype(np.float64) / 32768


def test_first_cue_sound_starts_on_its_planned_frame(preview):
    mp4, scene, _ = preview
    x = _samples(mp4)
    win = 240  # 10 ms windows
    rms = np.sqrt(np.mean(x[: len(x) // win * win].reshape(-1, win) ** 2, axis=1))
    onset = np.argmax(rms > 10 ** (-40 / 20)) * win / 24000
    planned = scene["cues"][0]["start_frame"] / 15
    assert planned > 0.2, planned  # so there is a silence before it to check
    # speech sits 30 ms after the start of its trimmed clip; allow one frame either side
    assert abs(onset - (planned + 0.03)) <= 1 / 15, (onset, planned)
    assert np.all(rms[: int(planned * 100) - 2] < 10 ** (-60 / 20))  # silence before it


def test_second_render_from_manims_cache_keeps_every_cue_of_narration(made_mini, preview, tmp_path):
    """Render the same scene again with the scene output removed, so Manim runs but serves every
    animation from its own cache (no partial movie is written again). Manim skips add_sound for
    cached animations; our narration is muxed after rendering, so the sound must be identical.
    On a copy of the made mini course (its preview of SCENE is the first render)."""
    _, scene, _ = preview
    course = tmp_path / "mini"
    shutil.copytree(made_mini.course, course)
    mp4 = course / "media" / "preview" / f"{SCENE}.mp4"
    first = tmp_path / "first.mp4"
    first.write_bytes(mp4.read_bytes())
    partials = sorted((course / "media" / "manim" / SCENE / "videos").rglob("partial_movie_files/**/*.mp4"))
    assert partials, "Manim's per-animation cache is empty: caching is off"
    stamps = {p: p.stat().st_mtime_ns for p in partials}
    for f in mp4.parent.glob(f"{SCENE}.*"):
        f.unlink()
    mini_runs.ok(mini_runs.run(course, "preview", SCENE))
    assert {p: p.stat().st_mtime_ns for p in partials} == stamps  # every animation came from the cache
    a, b = _samples(first), _samples(mp4)
    assert len(a) == len(b) and np.array_equal(a, b)
    for cue in scene["cues"]:  # and each cue is audible where planned
        start = int(cue["start_frame"] / 15 * 24000)
        end = int((cue["start_frame"] + cue["frames"]) / 15 * 24000)
        assert np.sqrt(np.mean(b[start:end] ** 2)) > 10 ** (-35 / 20), cue["id"]
