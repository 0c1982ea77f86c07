"""The no-audio voice: durations from a reading rate, timings at clause starts."""
from __future__ import annotations

from pathlib import Path

from coursekit.core.config import SilentVoice as SilentConfig
from coursekit.content.lexicon import NUMBER_RE, clauses, is_cjk, number_to_chinese
from coursekit.speech.voices.base import Speech, Voice, clean_timings

CLAUSE_PAUSE_S = 0.18
SENTENCE_PAUSE_S = 0.36


def syllables(text: str) -> int:
    """Chinese characters plus the syllables numbers are read with (60611 -> 8)."""
    count = 0
    pos = 0
    for m in NUMBER_RE.finditer(text):
        count += sum(map(is_cjk, text[pos:m.start()])) + len(number_to_chinese(m.group()))
        pos = m.end()
    return count + sum(map(is_cjk, text[pos:]))


class Silent(Voice):
    name = "silent"
    licence = "no audio"

    def __init__(self, cfg: SilentConfig | None = None) -> None:
        self.cfg = cfg or SilentConfig()

    def version(self) -> str:
        return "silent 1"

    def describe(self) -> str:
        return f"silent {self.cfg.chars_per_second:g} chars/s"

    def identity(self) -> dict:
        return {"backend": self.name, "version": self.version(), "chars_per_second": self.cfg.chars_per_second,
                "pauses": [CLAUSE_PAUSE_S, SENTENCE_PAUSE_S]}

    def synthesize(self, spoken: str, out_wav: Path | None = None) -> Speech:
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
            pending = max(pending, SENTENCE_PAUSE_S if kind == "sentence" else CLAUSE_PAUSE_S if kind == "clause" else 0.0)
        duration = round(max(t, 1.0 / cps), 6)
        return Speech(None, duration, clean_timings(timings, len(spoken), duration), self.describe())
