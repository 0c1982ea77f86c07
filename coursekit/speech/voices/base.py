"""The speech interface: one abstract method, and what it returns."""
from __future__ import annotations

import bisect
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

from coursekit.core.errors import UserError


@dataclass(frozen=True)
class Speech:
    """What a voice made of one spoken string.

    ``timings`` are (offset into the spoken text, seconds from the audio start) at each
    boundary the backend knows (clause, word or sentence starts), increasing in both; the
    first is always (0, 0.0).
    """

    wav: Path | None          # 24 kHz mono 16-bit WAV, silence trimmed (None for silent)
    duration: float           # seconds
    timings: list[tuple[int, float]]
    voice: str                # e.g. "espeak-ng 1.51 cmn-latn-pinyin s150 p50"

    def time_at(self, offset: int, text_length: int) -> float:
        """Seconds at which the character at ``offset`` is spoken, interpolating linearly
        between the known boundaries (and the end of the audio at ``text_length``)."""
        points = list(self.timings) + [(text_length, self.duration)]
        offsets = [p[0] for p in points]
        k = bisect.bisect_right(offsets, offset) - 1
        k = max(0, min(k, len(points) - 2))
        (o0, t0), (o1, t1) = points[k], points[k + 1]
        if o1 <= o0:
            return t0
        frac = min(1.0, max(0.0, (offset - o0) / (o1 - o0)))
        return t0 + frac * (t1 - t0)


def warn_on_stderr(line: str) -> None:
    """How a voice warns by default (a slow start, a fallback): one line on stderr, at once."""
    print(line, file=sys.stderr, flush=True)


class Voice(ABC):
    """A speech backend. ``identity()`` holds everything that changes the sound, so it
    (plus the spoken text) is the cache key."""

    name: str = "voice"
    #: Whether the voice reads Latin script itself (English terms like "RoPE", "softmax").
    #: The lexicon gives such voices a term's written form and the others its transliteration.
    reads_latin: bool = False
    #: The terms under which the voice's audio may be used (recorded in the course manifest).
    licence: str = ""

    @classmethod
    def licence_of(cls, line: str) -> str:
        """The licence of the voice a ``describe()`` line names (a backend whose speakers come from
        different packages says which)."""
        return cls.licence

    def version(self) -> str:
        return self.name

    def identity(self) -> dict:
        return {"backend": self.name, "version": self.version()}

    def describe(self) -> str:
        """One line naming the voice and its settings (what ``Speech.voice`` holds)."""
        return self.version()

    @abstractmethod
    def synthesize(self, spoken: str, out_wav: Path) -> Speech:
        """Write ``out_wav`` (if the voice makes audio) and return its timings.
        Raise rather than return a partial result."""

    def close(self) -> None:
        """Release what the voice holds (e.g. a worker process). It may still be used afterwards:
        whatever it needs is started again on demand."""


class VoiceFailed(UserError):
    """A voice gave up on one spoken string after its retries. Voices see only the spoken text; the
    timeline re-raises it with ``for_cue`` so the one-line message names the cue."""

    def for_cue(self, where: str) -> "VoiceFailed":
        return type(self)(f"{where}: {self}")


def clean_timings(timings: list[tuple[int, float]], length: int, duration: float) -> list[tuple[int, float]]:
    """Sort, clamp and make strictly increasing in offset (times non-decreasing); first is (0, 0.0)."""
    out: list[tuple[int, float]] = [(0, 0.0)]
    for off, t in sorted(timings):
        off = max(0, min(int(off), length))
        t = max(0.0, min(float(t), duration))
        if off <= out[-1][0]:
            continue
        out.append((off, max(t, out[-1][1])))
    return out
