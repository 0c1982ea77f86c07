"""The delivered lesson audio: 48 kHz stereo AAC-LC at 128 kb/s or more, -16 LUFS ± 0.5 integrated and
true peak <= -1 dBTP as ffmpeg's ebur128 measures the final MP4, two identical channels, and the audio
ending within a frame of the video. Checked on a lesson assembled from real espeak speech."""

from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from coursekit.assemble.lesson_video import assemble_lesson
from coursekit.core.config import parse_config
from coursekit.plan.model import CuePlan, LessonPlan, ScenePlan, SubtitleEvent
from coursekit.speech import audio
from coursekit.speech.voices.espeak import Espeak
from coursekit.speech.voices.espeak import EspeakSettings as EspeakConfig
from coursekit.zh.lexicon import Lexicon
from tests.support.synthetic import FPS, synthetic_plan

SENTENCES = [
    ["单位圆上有一根指针，它从正右方出发，逆时针转动。", "指针尖端的横坐标是余弦，纵坐标是正弦。"],
    [
        "把两个向量各自旋转同一个角度，它们的内积不变。",
        "所以注意力分数只取决于两个位置的距离。",
        "这就是旋转位置编码的核心想法。",
    ],
]


def ebur128(path: Path) -> tuple[float, float]:
    """Measured here independently of the engine: ffmpeg's ebur128 on the decoded audio."""
    err = subprocess.run(
        [
            "ffmpeg",
            "-nostdin",
            "-hide_banner",
            "-nostats",
            "-i",
            str(path),
            "-map",
            "0:a:0",
            "-af",
            "ebur128=peak=true:framelog=verbose",
            "-f",
            "null",
            "-",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    summary = err[err.rindex("Summary:") :]
    loud = float(re.search(r"I:\s+(\S+) LUFS", summary).group(1))
    peak = float(re.search(r"Peak:\s+(\S+) dBFS", summary).group(1))
    return loud, peak


def audio_stream(path: Path) -> dict:
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-print_format", "json", "-show_streams", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return next(s for s in json.loads(out)["streams"] if s["codec_type"] == "audio")


def decoded(path: Path) -> np.ndarray:
    raw = subprocess.run(
        [
            "ffmpeg",
            "-nostdin",
            "-v",
            "error",
            "-i",
            str(path),
            "-map",
            "0:a:0",
            "-f",
            "f32le",
            "-c:a",
            "pcm_f32le",
            "-",
        ],
        capture_output=True,
        check=True,
    ).stdout
    return np.frombuffer(raw, dtype="<f4").reshape(-1, 2)


def still_video(path: Path, frames: int) -> Path:
    """A scene video of one flat colour (``frames`` at 480p15, H.264 as the scenes are): what this file checks
    is the audio, which the video's picture does not touch. The moving test pattern of
    ``tests.support.synthetic.make_scene_video`` is for the frame checks of the assembly tests and costs
    about 3 s of x264 per scene here; this one, 0.4 s."""
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            f"color=c=0x1e2a38:size=854x480:rate={FPS}",
            "-frames:v",
            str(frames),
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-pix_fmt",
            "yuv420p",
            "-g",
            "300",
            str(path),
        ],
        check=True,
    )
    return path


@pytest.fixture(scope="module")
def spoken(tmp_path_factory):
    """A two-scene lesson of five espeak sentences (about 20 s of speech in 27 s), assembled for real."""
    tmp = tmp_path_factory.mktemp("spoken")
    voice = Espeak(EspeakConfig(speed=235), Lexicon())
    scenes, start = [], 0
    for k, texts in enumerate(SENTENCES):
        cues, frame = [], round(0.5 * FPS)
        for j, text in enumerate(texts):
            wav = voice.synthesize(text, tmp / f"s{k}c{j}.wav").wav
            speech = math.ceil(audio.duration_of(audio.conform(wav)) * FPS)
            ms = round(frame * 1000 / FPS)
            cues.append(
                CuePlan(
                    id=f"s{k}.c{j}",
                    text=text,
                    spoken=text,
                    start_frame=frame,
                    frames=speech + 5,
                    speech_frames=speech,
                    audio=str(Path(wav).resolve()),
                    audio_sha256=None,
                    voice="espeak",
                    subtitles=[SubtitleEvent(ms, ms + round(speech * 1000 / FPS), text)],
                )
            )
            frame += speech + 5
        frames = frame + round(0.8 * FPS)
        scenes.append(ScenePlan(f"s{k}", "X", f"第{k + 1}章", ["test"], start, frames, FPS, cues))
        start += frames
    plan = LessonPlan("spoken", "测试课", FPS, start, "espeak", scenes)
    videos = [still_video(tmp / f"{s.id}.mp4", s.frames) for s in scenes]
    cfg = parse_config({"video": {"quality": "low"}})
    outdir = tmp / "course" / "spoken"
    assemble_lesson(cfg, plan, videos, outdir, work=tmp / "work")
    return plan, outdir / "spoken.mp4"


def test_lesson_audio_is_48k_stereo_aac_lc(spoken):
    plan, mp4 = spoken
    assert plan.frames / FPS > 20
    s = audio_stream(mp4)
    assert (s["codec_name"], s["profile"], int(s["sample_rate"]), s["channels"]) == ("aac", "LC", 48000, 2)
    assert int(s["bit_rate"]) >= 128_000, s["bit_rate"]


def test_lesson_loudness_measured_on_the_final_file(spoken):
    _, mp4 = spoken
    loud, peak = ebur128(mp4)
    assert abs(loud + 16.0) <= 0.5, loud
    assert peak <= -1.0, peak


def test_the_two_channels_are_identical(spoken):
    _, mp4 = spoken
    x = decoded(mp4)
    assert np.abs(x[:, 0]).max() > 0.3  # really speech, not silence
    assert np.array_equal(x[:, 0], x[:, 1])


def test_audio_ends_with_the_video(spoken):
    plan, mp4 = spoken
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-print_format", "json", "-show_streams", str(mp4)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    kinds = {s["codec_type"]: s for s in json.loads(out)["streams"]}
    a_dur, v_dur = float(kinds["audio"]["duration"]), float(kinds["video"]["duration"])
    assert abs(a_dur - v_dur) <= 1 / FPS
    assert abs(a_dur - plan.frames / FPS) <= 1 / FPS
    # decoded samples too, not only the container's figure
    assert abs(len(decoded(mp4)) / 48000 - plan.frames / FPS) <= 1 / FPS


def test_speech_stays_where_the_plan_put_it(spoken):
    """The resample, gain and limiter move nothing in time: the first sound is at the first cue's start."""
    plan, mp4 = spoken
    x = np.abs(decoded(mp4)[:, 0])
    onset = int(np.argmax(x > 0.01)) / 48000
    cue0 = plan.scenes[0].cues[0].start_frame / FPS
    assert cue0 <= onset <= cue0 + 0.1, (onset, cue0)


def test_silent_lesson_is_delivered_silent_at_48k_stereo(tmp_path):
    # the silent voice: nothing to normalise, the track is still the delivery format and as long as the video
    # (the synthetic lesson over still scene videos: what is checked is the audio, as for ``spoken``)
    plan = synthetic_plan()
    videos = [still_video(tmp_path / f"{s.id}.mp4", s.frames) for s in plan.scenes]
    outdir = tmp_path / "course" / "trig_to_rope"
    assemble_lesson(parse_config({"video": {"quality": "low"}}), plan, videos, outdir, work=tmp_path / "work")
    mp4 = outdir / "trig_to_rope.mp4"
    s = audio_stream(mp4)
    assert (s["codec_name"], int(s["sample_rate"]), s["channels"]) == ("aac", 48000, 2)
    assert abs(float(s["duration"]) - plan.frames / FPS) <= 1 / FPS
    assert not decoded(mp4).any()


# ---------------------------------------------------------------- the encoder on its own


def _tone(seconds: float, amp: float, freq: float = 440.0) -> np.ndarray:
    t = np.arange(int(round(seconds * 24000))) / 24000
    return amp * 32767 * np.sin(2 * np.pi * freq * t)


def test_peaky_audio_is_limited_not_left_quiet(tmp_path):
    # a quiet tone with loud clicks: a plain gain to -16 LUFS would put the clicks far above 0 dBFS
    x = _tone(8.0, 0.02)
    x[::12000] = 30000
    out, loud, peak = audio.encode_delivery_aac(audio.from_samples(x), tmp_path / "p.m4a")
    assert (loud, peak) == ebur128(out)
    assert abs(loud + 16.0) <= 0.5 and peak <= -1.0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.m4a"]


def test_an_encoded_file_out_of_bounds_is_corrected(tmp_path, monkeypatch):
    # aim the PCM at 0 dBTP: the first encode is over -1 dBTP, so the ceiling is lowered and it is encoded again
    monkeypatch.setattr(audio, "DELIVERY_CEILING", 0.0)
    x = _tone(8.0, 0.02)
    x[::12000] = 30000
    out, loud, peak = audio.encode_delivery_aac(audio.from_samples(x), tmp_path / "c.m4a")
    assert (loud, peak) == ebur128(out)
    assert abs(loud + 16.0) <= 0.5 and peak <= -1.0


def test_quiet_audio_gets_a_plain_gain(tmp_path):
    out, loud, peak = audio.encode_delivery_aac(audio.from_samples(_tone(3.0, 0.01)), tmp_path / "q.m4a")
    assert abs(loud + 16.0) <= 0.5 and peak <= -1.0
    x = decoded(out)
    assert np.array_equal(x[:, 0], x[:, 1])


def test_a_failed_encode_leaves_nothing(tmp_path):
    with pytest.raises(RuntimeError):
        audio.encode_delivery_aac(tmp_path / "missing.wav", tmp_path / "m.m4a")
    assert list(tmp_path.iterdir()) == []


def test_two_identical_channels_measure_as_one_plus_3_01_lu(tmp_path):
    """What the delivery's settings are found with: the mono track measured, plus 10·log10(2) LU, is
    what the stereo upmix measures; the true peak is the same."""
    rng = np.random.default_rng(3)
    t = np.arange(24000 * 20) / 24000
    x = 0.3 * np.sin(2 * np.pi * 220 * t) * (np.sin(2 * np.pi * 0.7 * t) > 0)  # bursts, then pauses
    x += 0.05 * rng.standard_normal(t.size)
    src = tmp_path / "mono.wav"
    src.write_bytes(audio.wav_bytes(audio.from_samples((np.clip(x, -1, 1) * 32767).astype(np.int16))))
    mono_loud, mono_peak = audio.ebur128(src, audio.DELIVERY_RESAMPLE)
    stereo_loud, stereo_peak = audio.ebur128(src, audio.DELIVERY_UPMIX)
    assert mono_loud > -40  # measured sound, not the silence gate
    assert abs(mono_loud + audio.STEREO_GAIN_LU - stereo_loud) <= 0.1
    assert mono_peak == stereo_peak
