"""End to end: `render.py preview` of a core scene with the espeak voice, checked with ffprobe and the decoded audio."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.render   # every test here renders video with Manim

ROOT = Path(__file__).resolve().parents[2]
OUT = "tests/.tmp/e2e_media"
SCENE = "angle_addition"


@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    cfg = tmp_path_factory.mktemp("cfg") / "config.yaml"
    cfg.write_text(f"output: {OUT}\nvoice:\n  backend: espeak\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "render.py", "preview", SCENE, "--config", str(cfg)],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    media = ROOT / OUT
    plan = json.loads((media / "plan" / "15fps" / "trig_to_rope.json").read_text(encoding="utf-8"))
    scene = next(s for s in plan["scenes"] if s["id"] == SCENE)
    return media / "preview" / f"{SCENE}.mp4", scene, proc.stdout


def test_preview_prints_both_paths(preview):
    mp4, _, stdout = preview
    assert str(mp4) in stdout and str(mp4.with_suffix(".png")) in stdout
    assert mp4.with_suffix(".png").stat().st_size > 1000


def test_streams_and_durations(preview):
    mp4, scene, _ = preview
    info = json.loads(subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-print_format", "json",
                                      "-show_streams", str(mp4)], capture_output=True, text=True, check=True).stdout)
    streams = {s["codec_type"]: s for s in info["streams"]}
    assert streams["video"]["codec_name"] == "h264"
    assert streams["audio"]["codec_name"] == "aac"
    assert streams["subtitle"]["codec_name"] == "mov_text"
    assert int(streams["video"]["nb_read_frames"]) == scene["frames"]
    v, a = float(streams["video"]["duration"]), float(streams["audio"]["duration"])
    assert abs(v - scene["frames"] / 15) <= 1 / 15
    assert abs(a - v) <= 1 / 15


def test_first_cue_sound_starts_on_its_planned_frame(preview):
    mp4, scene, _ = preview
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(mp4), "-map", "0:a:0", "-ac", "1", "-ar", "24000",
                          "-f", "s16le", "-"], capture_output=True, check=True).stdout
    x = np.frombuffer(raw, dtype=np.int16).astype(np.float64) / 32768
    win = 240                                   # 10 ms windows
    rms = np.sqrt(np.mean(x[: len(x) // win * win].reshape(-1, win) ** 2, axis=1))
    onset = np.argmax(rms > 10 ** (-40 / 20)) * win / 24000
    planned = scene["cues"][0]["start_frame"] / 15
    # speech sits 30 ms after the start of its trimmed clip; allow one frame either side
    assert abs(onset - (planned + 0.03)) <= 1 / 15, (onset, planned)
    assert np.all(rms[: int(planned * 100) - 2] < 10 ** (-60 / 20))   # silence before it


def _samples(mp4: Path) -> np.ndarray:
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(mp4), "-map", "0:a:0", "-ac", "1", "-ar", "24000",
                          "-f", "s16le", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, dtype=np.int16).astype(np.float64) / 32768


def test_second_render_from_manims_cache_keeps_every_cue_of_narration(preview, tmp_path):
    """Render the same scene again with the scene output removed, so Manim runs but serves every
    animation from its own cache (no partial movie is written again). Manim skips add_sound for
    cached animations; our narration is muxed after rendering, so the sound must be identical."""
    mp4, scene, _ = preview
    first = tmp_path / "first.mp4"
    first.write_bytes(mp4.read_bytes())
    partials = sorted((ROOT / OUT / "manim" / SCENE / "videos").rglob("partial_movie_files/**/*.mp4"))
    assert partials, "Manim's per-animation cache is empty: caching is off"
    stamps = {p: p.stat().st_mtime_ns for p in partials}
    for f in mp4.parent.glob(f"{SCENE}.*"):
        f.unlink()
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"output: {OUT}\nvoice:\n  backend: espeak\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "render.py", "preview", SCENE, "--config", str(cfg)],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert {p: p.stat().st_mtime_ns for p in partials} == stamps          # every animation came from the cache
    a, b = _samples(first), _samples(mp4)
    assert len(a) == len(b) and np.array_equal(a, b)
    for cue in scene["cues"]:                                              # and each cue is audible where planned
        start = int(cue["start_frame"] / 15 * 24000)
        end = int((cue["start_frame"] + cue["frames"]) / 15 * 24000)
        assert np.sqrt(np.mean(b[start:end] ** 2)) > 10 ** (-35 / 20), cue["id"]
