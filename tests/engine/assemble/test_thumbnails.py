"""Seek-bar thumbnails made at assembly (issue 28, coursekit/assemble/thumbnails.py): one sprite sheet and a
WebVTT track per lesson. Checked against the video itself, read here with ffprobe and ffmpeg: the cues cover
the whole video without gaps, each box lies inside the sprite's real pixel size, each tile is the video's
frame at its cue's start, and the tiles are keyframes at least EVERY_S apart."""

from __future__ import annotations

import functools
import json
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest
import webvtt
from PIL import Image

from coursekit.assemble.lesson_video import assemble_lesson
from coursekit.assemble.thumbnails import EVERY_S, SPRITE, TRACK
from coursekit.core.config import parse_config
from coursekit.plan.model import CuePlan, LessonPlan, ScenePlan, SubtitleEvent

FPS = 15
#: each scene's frames and the times (s, from its start) of its keyframes: irregular, as Manim's partial
#: movies make them, some closer together than EVERY_S and one gap longer than it
SCENES = (("alpha", 100, (0, 0.8, 2.2, 3.0, 5.4)), ("beta", 130, (0, 1.4, 2.0, 6.6, 7.0)), ("gamma", 95, (0, 3.9, 4.5)))


def _scene_video(path: Path, frames: int, hue: int, keys: tuple[float, ...]) -> Path:
    """A moving test pattern (every frame differs) with keyframes exactly at ``keys``, encoded with x264's
    superfast preset as Manim's low-quality scenes are (B-frames too: a keyframe's composition offset; a
    third of the CPU of x264's default preset)."""
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            f"testsrc2=size=854x480:rate={FPS}",
            "-vf",
            f"hue=h={hue}",
            "-frames:v",
            str(frames),
            "-c:v",
            "libx264",
            "-preset",
            "superfast",
            "-pix_fmt",
            "yuv420p",
            "-g",
            "10000",
            "-sc_threshold",
            "0",
            "-force_key_frames",
            ",".join(f"{k:g}" for k in keys),
            str(path),
        ],
        check=True,
    )
    return path


def _plan() -> LessonPlan:
    scenes, start = [], 0
    for sid, frames, _ in SCENES:
        cue = CuePlan(
            id=f"{sid}.only",
            text="指针转起来。",
            spoken="指针转起来。",
            start_frame=3,
            frames=frames - 6,
            speech_frames=frames - 6,
            audio=None,
            audio_sha256=None,
            voice="silent",
            subtitles=[SubtitleEvent(200, 1200, "指针转起来。")],
        )
        scenes.append(ScenePlan(sid, "X", sid, ["trig_to_rope §0"], start, frames, FPS, [cue]))
        start += frames
    return LessonPlan("trig_to_rope", "测试课", FPS, start, "silent", scenes)


@pytest.fixture(scope="module")
def lesson(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("thumbs")
    videos = [
        _scene_video(tmp / f"{sid}.mp4", frames, hue, keys) for (sid, frames, keys), hue in zip(SCENES, (0, 120, 240))
    ]
    outdir = tmp / "course" / "trig_to_rope"
    files = assemble_lesson(parse_config({"video": {"quality": "low"}}), _plan(), videos, outdir, work=tmp / "work")
    return outdir, files


def _probe(args: list[str]) -> dict:
    return json.loads(
        subprocess.run(
            ["ffprobe", "-v", "error", "-print_format", "json", *args], check=True, capture_output=True, text=True
        ).stdout
    )


def _seconds(stamp: str) -> float:
    h, m, s = stamp.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def _cues(outdir: Path) -> list[tuple[float, float, tuple[int, int, int, int]]]:
    out = []
    for c in webvtt.read(str(outdir / TRACK)):
        ref = c.text.strip()
        assert ref.startswith(f"{SPRITE}#xywh="), ref
        out.append((_seconds(c.start), _seconds(c.end), tuple(int(v) for v in ref.split("=", 1)[1].split(","))))
    return out


def _video(outdir: Path) -> tuple[float, list[float], tuple[int, int]]:
    """The lesson video's duration, its keyframes' times and its size, as ffprobe reads them."""
    mp4 = outdir / "trig_to_rope.mp4"
    stream = _probe(["-select_streams", "v:0", "-show_streams", str(mp4)])["streams"][0]
    packets = _probe(["-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", str(mp4)])["packets"]
    keys = sorted(float(p["pts_time"]) for p in packets if "K" in p["flags"])
    return float(stream["duration"]), keys, (int(stream["width"]), int(stream["height"]))


@functools.lru_cache(maxsize=2)
def _frames(mp4: Path, size: tuple[int, int]) -> np.ndarray:
    """Every frame of ``mp4``, in order, scaled to ``size`` by ffmpeg, as RGB: decoded once by one ffmpeg
    (a seek and a process for each frame compared cost seconds), each frame kept as decoded (passthrough:
    none dropped or repeated), and all of them there."""
    w, h = size
    raw = subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-i",
            str(mp4),
            "-vf",
            f"scale={w}:{h}",
            "-fps_mode",
            "passthrough",
            "-f",
            "rawvideo",
            "-pix_fmt",
            "rgb24",
            "-",
        ],
        check=True,
        capture_output=True,
    ).stdout
    frames = np.frombuffer(raw, np.uint8).reshape(-1, h, w, 3).astype(np.int16)
    assert len(frames) == sum(n for _, n, _ in SCENES), len(frames)
    return frames


def _frame(mp4: Path, t: float, size: tuple[int, int]) -> np.ndarray:
    """The frame shown at ``t`` (seconds), scaled to ``size`` by ffmpeg, as RGB: the first frame at or after
    half a frame before ``t``, as a seek there (``-ss``) presents it."""
    return _frames(mp4, size)[max(0, math.ceil(t * FPS - 0.5))]


def test_assembly_writes_the_sprite_and_its_track(lesson):
    outdir, files = lesson
    assert outdir / SPRITE in files and outdir / TRACK in files
    assert (outdir / SPRITE).read_bytes()[:2] == b"\xff\xd8"  # a JPEG


def test_the_cues_cover_the_whole_video_without_gaps(lesson):
    outdir, _ = lesson
    cues = _cues(outdir)
    duration, _, _ = _video(outdir)
    assert len(cues) >= 3
    assert cues[0][0] == 0
    for (a, b, _), (c, _, _) in zip(cues, cues[1:]):
        assert a < b == c
    assert abs(cues[-1][1] - duration) <= 1 / FPS


def test_every_box_lies_inside_the_sprite(lesson):
    outdir, _ = lesson
    sprite = _probe(["-show_streams", str(outdir / SPRITE)])["streams"][0]
    width, height = int(sprite["width"]), int(sprite["height"])
    _, _, (vw, vh) = _video(outdir)
    boxes = [box for _, _, box in _cues(outdir)]
    assert len(set(boxes)) == len(boxes)  # one tile per cue
    for x, y, w, h in boxes:
        assert w == 160 and abs(h - 160 * vh / vw) <= 1  # small, the video's shape
        assert 0 <= x and x + w <= width and 0 <= y and y + h <= height


def test_the_tiles_are_keyframes_a_few_seconds_apart(lesson):
    outdir, _ = lesson
    _, keys, _ = _video(outdir)
    starts = [a for a, _, _ in _cues(outdir)]
    taken = [keys[0]]
    for k in keys[1:]:  # the first keyframe, then each next one EVERY_S after the last
        if k - taken[-1] >= EVERY_S - 1e-6:
            taken.append(k)
    assert starts == pytest.approx(taken, abs=0.0006)
    # the keyframes stand where the scenes put them (the input is as this test means it)
    assert len(keys) == sum(len(k) for _, _, k in SCENES)


def test_each_tile_is_the_frame_at_its_cue_start(lesson):
    """Against the frames around it (every frame of the test pattern differs), a tile matches the one at its
    cue's start best, and within what JPEG and a different scaler leave (a mean of 10 in 255)."""
    outdir, _ = lesson
    mp4 = outdir / "trig_to_rope.mp4"
    sprite = np.asarray(Image.open(outdir / SPRITE).convert("RGB")).astype(np.int16)
    for a, _, (x, y, w, h) in _cues(outdir):
        tile = sprite[y : y + h, x : x + w]
        offsets = [d for d in (-2 / FPS, -1 / FPS, 0.0, 1 / FPS, 2 / FPS, 1.0) if a + d >= 0]
        diffs = {d: float(np.abs(tile - _frame(mp4, a + d, (w, h))).mean()) for d in offsets}
        assert min(diffs, key=diffs.get) == 0.0 and diffs[0.0] < 10, (a, diffs)
