"""The no-audio voice: durations from a reading rate, timings at clause starts."""

from __future__ import annotations

from pydantic import Field

from coursekit.core.voice_registry import VoiceSpec
from coursekit.speech.voices.base import Voice, VoiceSettings
from coursekit.zh.chars import clauses, is_cjk
from coursekit.zh.numbers import NUMBER_RE, number_to_chinese

CLAUSE_PAUSE_S = 0.18
SENTENCE_PAUSE_S = 0.36


class SilentSettings(VoiceSettings):
    """``voice.silent``: the no-audio voice's reading rate."""

    chars_per_second: float = Field(4.5, gt=0.5, le=20)


def syllables(text: str) -> int:
    """Chinese characters plus the syllables numbers are read with (60611 -> 8)."""
    count = 0
    pos = 0
    for m in NUMBER_RE.finditer(text):
        count += sum(map(is_cjk, text[pos : m.start()])) + len(number_to_chinese(m.group()))
        pos = m.end()
    return count + sum(map(is_cjk, text[pos:]))


class Silent(Voice):
    spec = VoiceSpec(
        name="silent", licence="no audio", parallel="none", makes_audio=False, auto=40, settings=SilentSettings
    )

    def __init__(self, cfg: SilentSettings | None = None) -> None:
        self.cfg = cfg or SilentSettings()

    @classmethod
    def from_config(cls, cfg, lexicon) -> "Silent":
        return cls(cfg.section("silent"))

    def version(self) -> str:
        return "silent 1"

    def describe(self) -> str:
        return f"silent {self.cfg.chars_per_second:g} chars/s"

    def identity(self) -> dict:
        return {
            "backend": self.name,
            "version": self.version(),
            "chars_per_second": self.cfg.chars_per_second,
            "pauses": [CLAUSE_PAUSE_S, SENTENCE_PAUSE_S],
        }

    def _render(self, spoken: str, attempt: int):
        cps = self.cfg.chars_per_second
        t = 0.0
        timings: list[tuple[int, float]] = []
        pending = 0.0
        for start, end, kind in clauses(spoken):
            n = syllables(spoken[start:end])
            if n:
                if timings:
                    t += pending
                timings.append((start, round(t, 6)))
                t += n / cps
                pending = 0.0
            pending = max(
                pending, SENTENCE_PAUSE_S if kind == "sentence" else CLAUSE_PAUSE_S if kind == "clause" else 0.0
            )
        return round(max(t, 1.0 / cps), 6), timings
