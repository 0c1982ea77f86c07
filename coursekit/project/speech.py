"""The voice, the audio cache and the lexicon, which every plan and listening check uses together.

``Speech.load(cfg, cache_root, lexicon)`` readies the three for one use. The voice is kept between uses
(its model stays loaded, a worker process is started again only when it is used): it is resolved again
(``resolve_voice``: for ``auto``, edge-tts probed) only when the voice's config changes, and built again
by name (no second probe) when only the lexicon says something else. ``fall_back`` replaces an online voice
that gave up mid-way by the offline one ``auto`` would choose, and says so; the voice kept is then that
one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from coursekit.core.config import VoiceConfig
from coursekit.speech.audio_cache import AudioCache
from coursekit.speech.voices.auto import make_voice, offline_voice, resolve_voice
from coursekit.speech.voices.base import Voice
from coursekit.zh.lexicon import Lexicon


class Speech:
    """The voice, the audio cache and the lexicon (module docstring); ``say`` gets the voice's one-line
    reason (which voice, and why) when it is resolved, and the fallback's line."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.voice: Voice | None = None
        self.cache: AudioCache | None = None
        self.lexicon: Lexicon | None = None
        self._voice_cfg: str | None = None  # the voice config the voice was resolved for, as JSON

    def load(self, cfg: VoiceConfig, cache_root: Path, lexicon: Lexicon) -> Speech:
        """The voice for ``cfg`` and ``lexicon`` (module docstring), the audio cache in ``cache_root``."""
        voice_cfg = json.dumps(cfg.model_dump(mode="json"), sort_keys=True)
        if self.voice is None or voice_cfg != self._voice_cfg:
            self.voice, reason = resolve_voice(cfg, lexicon)
            self.say(reason)
        elif lexicon != self.lexicon:  # the same voice with another lexicon (its terms, readings): no second probe
            self.voice = make_voice(self.voice.name, cfg, lexicon)
        self._voice_cfg = voice_cfg
        if self.cache is None or self.cache.root != Path(cache_root):
            self.cache = AudioCache(cache_root)
        self.lexicon = lexicon
        return self

    def fall_back(self, cfg: VoiceConfig, exc: Exception) -> Voice:
        """The online voice gave up mid-way (``exc``, after its retries): the offline voice ``auto`` would
        choose, kept from now on; its line says which and why."""
        gone = self.voice.spec.called
        self.voice, reason = offline_voice(cfg, self.lexicon)
        self.say(f"{gone} gave up mid-plan ({exc}); falling back: {reason}")
        return self.voice
