"""The common audio format, exact-sample mixing, loudness and atomic writes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from coursekit.speech import audio
from coursekit.speech.voices.espeak import Espeak
from coursekit.speech.voices.espeak import EspeakSettings as EspeakConfig
from coursekit.zh.lexicon import Lexicon

SR = 24000


def _tone(seconds: float, amp: float = 0.3, freq: float = 440.0, rate: int = SR) -> np.ndarray:
    t = np.arange(int(round(seconds * rate))) / rate
    return (amp * 32767 * np.sin(2 * np.pi * freq * t)).astype(np.int16)


def _write(path: Path, x: np.ndarray, rate: int = SR) -> Path:
    audio.write_wav_atomic(audio.from_samples(x, rate), path)
    return path


@pytest.fixture(scope="module")
def speech(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("speech")
    text = "单位圆上有一根指针，它从正右方出发，逆时针转动。指针尖端的横坐标是余弦，纵坐标是正弦。"
    return Espeak(EspeakConfig(speed=240), Lexicon()).synthesize(text, d / "speech.wav").wav


# ---------------------------------------------------------------- mixing


def test_mix_places_audio_on_the_exact_sample(tmp_path):
    clip = np.array([1000, 2000, 3000, -4000], dtype=np.int16)
    a = _write(tmp_path / "a.wav", clip)
    track = audio.mix_track([(a, 0.123456), (None, 0.5), (a, 1.0)], 1.5)
    x = audio.samples(track)
    assert track.frame_rate == SR and track.channels == 1 and track.sample_width == 2
    assert len(x) == round(1.5 * SR)
    s = round(0.123456 * SR)
    assert list(x[s : s + 4]) == [1000, 2000, 3000, -4000]
    assert list(x[SR : SR + 4]) == [1000, 2000, 3000, -4000]
    assert np.count_nonzero(x) == 8


def test_mix_adds_overlaps_and_clips(tmp_path):
    a = _write(tmp_path / "a.wav", np.array([30000, 100], dtype=np.int16))
    x = audio.samples(audio.mix_track([(a, 0.0), (a, 0.0)], 0.01))
    assert list(x[:2]) == [32767, 200]


def test_mix_refuses_a_clip_past_the_end(tmp_path):
    a = _write(tmp_path / "a.wav", _tone(0.5))
    with pytest.raises(ValueError, match="past the track's end"):
        audio.mix_track([(a, 0.8)], 1.0)
    # a rounding overrun of under 1 ms is cut
    assert len(audio.samples(audio.mix_track([(a, 0.5 + 10 / SR)], 1.0))) == SR


def test_mix_conforms_other_formats(tmp_path):
    stereo = audio._pydub()(
        data=np.repeat(_tone(0.1, rate=44100), 2).tobytes(), sample_width=2, frame_rate=44100, channels=2
    )
    p = tmp_path / "s.wav"
    stereo.export(str(p), format="wav")
    x = audio.samples(audio.mix_track([(p, 0.0)], 0.2))
    assert len(x) == round(0.2 * SR) and np.abs(x[: round(0.1 * SR) - 10]).max() > 5000


# ---------------------------------------------------------------- trimming


def test_trim_keeps_30_ms_each_side(tmp_path):
    x = np.concatenate([np.zeros(int(0.2 * SR), np.int16), _tone(0.5), np.zeros(int(0.3 * SR), np.int16)])
    seg, shift = audio.normalise_with_shift(_write(tmp_path / "t.wav", x))
    assert audio.duration_of(seg) == pytest.approx(0.56, abs=0.006)
    assert shift == pytest.approx(0.03 - 0.2, abs=0.006)
    y = audio.samples(seg)
    assert np.abs(y[: int(0.025 * SR)]).max() == 0 and np.abs(y[-int(0.025 * SR) :]).max() == 0


def test_trim_pads_audio_that_starts_at_once(tmp_path):
    seg, shift = audio.normalise_with_shift(_write(tmp_path / "t.wav", _tone(0.3)))
    assert audio.duration_of(seg) == pytest.approx(0.36, abs=0.002)
    assert shift == pytest.approx(0.03)


def test_normalise_resamples_to_24k_mono(tmp_path):
    seg = audio.normalise(_write(tmp_path / "t.wav", _tone(0.5, rate=22050), rate=22050))
    assert (seg.frame_rate, seg.channels, seg.sample_width) == (24000, 1, 2)
    assert audio.duration_of(seg) == pytest.approx(0.56, abs=0.006)


def test_silence_trims_to_nothing(tmp_path):
    seg = audio.normalise(_write(tmp_path / "z.wav", np.zeros(SR, np.int16)))
    assert len(seg) == 0


# ---------------------------------------------------------------- loudness


def test_loudness_normalise_speech_hits_target_and_peak(speech):
    track = audio.mix_track([(speech, 0.5)], audio.duration_of(audio.conform(speech)) + 1.0)
    out = audio.loudness_normalise(track)
    assert len(audio.samples(out)) == len(audio.samples(track))
    assert audio.integrated_loudness(out) == pytest.approx(-16.0, abs=0.5)
    assert audio.true_peak(out) <= -1.0
    # nothing moved in time: the first loud sample is where it was
    a, b = audio.samples(track), audio.samples(out)
    assert abs(int(np.argmax(np.abs(a) > 500)) - int(np.argmax(np.abs(b) > 500))) < 48


def test_loudness_normalise_quiet_tone_is_a_plain_gain(tmp_path):
    seg = audio.from_samples(_tone(2.0, amp=0.01))
    out = audio.loudness_normalise(seg)
    assert audio.integrated_loudness(out) == pytest.approx(-16.0, abs=0.1)
    assert audio.true_peak(out) <= -1.0


def test_loudness_leaves_short_or_silent_audio_alone():
    short = audio.from_samples(_tone(0.3))
    assert audio.loudness_normalise(short) is short
    quiet = audio.from_samples(np.zeros(SR * 2, np.int16))
    assert audio.loudness_normalise(quiet) is quiet


def _dbfs_peak(seg) -> float:
    return 20 * np.log10(np.abs(audio.samples(seg).astype(np.int32)).max() / 32768.0)


def test_plain_normalise_is_a_plain_gain_to_the_target_where_the_peaks_leave_room():
    seg = audio.from_samples(_tone(2.0, amp=0.01))
    out = audio.plain_normalise(seg)
    assert audio.integrated_loudness(out) == pytest.approx(-16.0, abs=0.1)
    assert _dbfs_peak(out) <= -1.0


def test_plain_normalise_stops_where_a_sample_would_pass_the_ceiling():
    """A quiet tone with one loud click: the gain to -16 LUFS would clip the click, so the gain stops where
    the click reaches -1 dBFS; the track is then quieter than the target, and nothing moves in time."""
    x = _tone(2.0, amp=0.02)
    x[SR] = 20000  # the click, -4.3 dBFS
    seg = audio.from_samples(x)
    out = audio.plain_normalise(seg)
    y = audio.samples(out)
    assert len(y) == len(x) and int(np.argmax(np.abs(y))) == SR
    assert _dbfs_peak(out) == pytest.approx(-1.0, abs=0.01)
    assert audio.integrated_loudness(out) < -16.5
    short, quiet = audio.from_samples(_tone(0.3)), audio.from_samples(np.zeros(SR * 2, np.int16))
    assert audio.plain_normalise(short) is short and audio.plain_normalise(quiet) is quiet


# ---------------------------------------------------------------- writing


def test_write_wav_atomic_leaves_no_temp(tmp_path):
    p = _write(tmp_path / "sub" / "a.wav", _tone(0.1))
    assert p.exists() and sorted(x.name for x in p.parent.iterdir()) == ["a.wav"]


def test_encode_aac_atomic(tmp_path, speech):
    out = audio.encode_aac_atomic(audio.conform(speech), tmp_path / "t.m4a")
    probe = subprocess.run(
        ["ffprobe", "-v", "error", "-print_format", "json", "-show_streams", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    s = json.loads(probe.stdout)["streams"][0]
    assert s["codec_name"] == "aac" and int(s["sample_rate"]) == 24000 and s["channels"] == 1
    assert sorted(x.name for x in tmp_path.iterdir()) == ["t.m4a"]
    # from a path too, and a failure leaves nothing behind
    audio.encode_aac_atomic(speech, tmp_path / "u.m4a")
    with pytest.raises(RuntimeError):
        audio.encode_aac_atomic(tmp_path / "missing.wav", tmp_path / "v.m4a")
    assert sorted(x.name for x in tmp_path.iterdir()) == ["t.m4a", "u.m4a"]
