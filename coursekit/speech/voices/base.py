"""The speech interface: a voice renders one spoken string (``_render``); ``Voice.synthesize`` retries it
and writes the WAV and the timings. A backend's declaration (``spec``, a ``VoiceSpec``) registers it, with
its settings (``VoiceSettings``: its section of config.yaml, ``voice.<name>``)."""

from __future__ import annotations

import contextlib
import sys
from abc import ABC
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ClassVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from coursekit.core import voice_registry
from coursekit.core.errors import UserError
from coursekit.core.voice_registry import VoiceSpec
from coursekit.speech import audio, timing

if TYPE_CHECKING:
    from coursekit.core.config import VoiceConfig


class VoiceSettings(BaseModel):
    """The base of a voice's settings model (``VoiceSpec.settings``), its section ``voice.<name>`` of
    config.yaml: unknown keys are refused, the settings cannot change once read. Give every key a default,
    a range or a check with a message that says what it accepts; docs/settings.md's table is made from
    them (``description`` replaces the table's "accepts")."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def one_of(choices: tuple[str, ...], what: str) -> type:
    """A text setting that must be one of ``choices`` (a voice's speakers): a bad value is refused with the
    list ('must be a kokoro speaker: zf_xiaobei, …'), and docs/settings.md lists them."""

    def check(value: str) -> str:
        if value not in choices:
            raise ValueError(f"must be {what}: {', '.join(choices)}")
        return value

    return Annotated[str, AfterValidator(check), Field(description=" | ".join(choices))]


@dataclass(frozen=True)
class Speech:
    """What a voice made of one spoken string.

    ``timings`` are (offset into the spoken text, seconds from the audio start) at each
    boundary the backend knows (clause, word or sentence starts), increasing in both; the
    first is always (0, 0.0).
    """

    wav: Path | None  # 24 kHz mono 16-bit WAV, silence trimmed (None for silent)
    duration: float  # seconds
    timings: list[tuple[int, float]]
    voice: str  # e.g. "espeak-ng 1.51 cmn-latn-pinyin s150 p50"
    recorded: bool = False  # the author's own take (``coursekit.speech.voices.recorded``), not synthesised

    def time_at(self, offset: int, text_length: int) -> float:
        """Seconds at which the character at ``offset`` is spoken (``coursekit.speech.timing.time_at``
        over the known boundaries and the end of the audio at ``text_length``)."""
        return timing.time_at(self.timings, self.duration, text_length)(offset)


def warn_on_stderr(line: str) -> None:
    """How a voice warns by default (a slow start, a fallback): one line on stderr, at once."""
    print(line, file=sys.stderr, flush=True)


class Voice(ABC):
    """A speech backend. ``identity()`` holds everything that changes the sound, so it (plus the spoken
    text) is the cache key.

    A backend is one module with one subclass that declares ``spec`` (its name, licence, how it runs in
    parallel, what it needs; ``VoiceSpec``): defining the class registers it, and ``name``, ``licence``
    and ``reads_latin`` come from the declaration. It writes ``_render`` (one attempt at one spoken
    string) and, if it needs them, the hooks below; ``synthesize`` does the rest, the same for all.
    """

    #: The declaration. Only a subclass that sets it in its own body is registered.
    spec: ClassVar[VoiceSpec] = VoiceSpec(name="voice", licence="")
    name: str = "voice"
    #: Whether the voice reads Latin script itself (English terms like "RoPE", "softmax").
    #: The lexicon gives such voices a term's written form and the others its transliteration.
    reads_latin: bool = False
    #: The terms under which the voice's audio may be used (recorded in the plan and the manifest); an
    #: instance may say more (kokoro names its speaker's package).
    licence: str = ""
    #: Attempts at one spoken string: the first and its retries (see ``_retry_reason``).
    attempts: int = 1

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        spec = cls.__dict__.get("spec")
        if isinstance(spec, VoiceSpec):
            cls.name, cls.licence, cls.reads_latin = spec.name, spec.licence, spec.reads_latin
            voice_registry.register(spec, cls)

    # -- what it is

    @classmethod
    def from_config(cls, cfg: VoiceConfig, lexicon) -> "Voice":
        """The voice built from its section of the voice config (``voice.<name>``; None if it has none)
        and the lexicon (what ``make_voice`` calls)."""
        return cls(cfg.section(cls.spec.name), lexicon)

    @classmethod
    def available(cls, cfg: VoiceConfig) -> tuple[bool, str]:
        """Whether what the voice needs is installed (``spec.needs`` says how), and if not why; cheap:
        ``auto`` asks it before building the voice. Never installs anything."""
        return True, ""

    @classmethod
    def check_files(cls, cfg: VoiceConfig) -> None:
        """The files the voice loads (a model's), checked as building it checks them, without building it
        (``render.py check``): a missing or damaged one is one line. Default: it loads none."""

    def version(self) -> str:
        return self.name

    def identity(self) -> dict:
        return {"backend": self.name, "version": self.version()}

    def describe(self) -> str:
        """One line naming the voice and its settings (what ``Speech.voice`` holds)."""
        return self.version()

    def licence_line(self) -> str:
        """What the plan records of the voice's terms: 'kokoro: Apache-2.0 (…)'."""
        return f"{self.name}: {self.licence}" if self.licence else ""

    # -- how it runs in parallel (``spec.parallel``)

    def process_recipe(self) -> tuple[Callable, tuple, dict] | None:
        """For ``parallel='processes'``: how another process builds the same voice (factory, args, kwargs),
        or None if it cannot."""
        return None

    def concurrency(self) -> int:
        """For ``parallel='threads'``: how many syntheses may run at once."""
        return 1

    # -- speaking

    def cue_speech(self, lesson: str, cue, text, cache, where: str) -> Speech:
        """The speech of ``cue`` of ``lesson``, whose forms are ``text`` (a ``CueText``), as the plan asks
        for it (``where``: its file:line and id, for a message): default, the audio cache's entry for its
        spoken form, synthesised on a miss. The recorded voice answers with the author's take."""
        return cache.get(self, text.spoken)

    def synthesising(self) -> "Voice":
        """The voice whose missing cues are synthesised ahead of the plan (``synthesis.prefetch``):
        itself, or the recorded voice's fallback."""
        return self

    def voices_itself(self, lesson: str, cue) -> bool:
        """Whether ``cue`` of ``lesson`` needs no synthesis ahead (the recorded voice: it has a current
        take); default: False."""
        return False

    def synthesize(self, spoken: str, out_wav: Path | None = None) -> Speech:
        """Write ``out_wav`` (if the voice makes audio) and return its timings. ``_render`` is tried up to
        ``attempts`` times while ``_retry_reason`` finds the failure worth retrying; then ``_gave_up``
        says why. Nothing is written before an attempt succeeded; a partial result is never returned."""
        prepared = self._prepare(spoken)
        reasons: list[str] = []
        with self._session():
            for attempt in range(max(1, self.attempts)):
                try:
                    sound, timings = self._render(prepared, attempt)
                    break
                except Exception as exc:  # noqa: BLE001 - classified by the voice; the rest is re-raised
                    reason = self._retry_reason(exc)
                    if reason is None:
                        raise
                    reasons.append(reason)
                    if attempt + 1 < max(1, self.attempts):
                        self._before_retry(attempt)
            else:
                raise self._gave_up(reasons)
        if isinstance(sound, (int, float)):  # a voice without audio: its duration
            duration = float(sound)
            return Speech(None, duration, clean_timings(timings, len(spoken), duration), self.describe())
        if out_wav is None:
            raise ValueError(f"voice {self.name} makes audio: give the WAV to write")
        audio.write_wav_atomic(sound, out_wav)
        duration = audio.duration_of(sound)
        return Speech(Path(out_wav), duration, clean_timings(timings, len(spoken), duration), self.describe())

    def _prepare(self, spoken: str):
        """What every attempt reads (checked, and warned about, once); default: the spoken text."""
        return spoken

    def _session(self) -> contextlib.AbstractContextManager:
        """Held over all the attempts at one string (a lock, a semaphore); default: nothing."""
        return contextlib.nullcontext()

    def _render(self, prepared, attempt: int) -> tuple[object, list[tuple[int, float]]]:
        """One attempt (0 first): (the audio, a pydub segment at 24 kHz mono 16-bit, trimmed; or, for a
        voice without audio, its duration in seconds) and the (offset, seconds) it knows. Raise on any
        failure; write nothing."""
        raise NotImplementedError(f"voice {self.name} must write _render (or synthesize)")

    def _retry_reason(self, exc: Exception) -> str | None:
        """A short reason if the failure is worth another attempt, else None (it is raised as it is)."""
        return None

    def _before_retry(self, attempt: int) -> None:
        """After failed attempt ``attempt``, before the next (a back-off, a fresh worker)."""

    def _gave_up(self, reasons: list[str]) -> Exception:
        """The error once every attempt failed."""
        return VoiceFailed(
            f"{self.name} failed {len(reasons)} times ({'; then '.join(reasons)}); {self._advice(reasons)}"
        )

    def _advice(self, reasons: list[str]) -> str:
        """What to do when it gave up (the end of the ``VoiceFailed`` line)."""
        return "choose another voice with --voice"

    def close(self) -> None:
        """Release what the voice holds (e.g. a worker process). It may still be used afterwards:
        whatever it needs is started again on demand."""


class VoiceFailed(UserError):
    """A voice gave up on one spoken string after its retries. Voices see only the spoken text; the
    timeline re-raises it with ``for_cue`` so the one-line message names the cue."""

    def for_cue(self, where: str) -> "VoiceFailed":
        return type(self)(f"{where}: {self}")


class VoiceUnavailable(UserError):
    """An online voice could not be reached after its retries: with ``auto``, the plan is made again with
    the offline voice (``coursekit.project``'s ``Project.plans``)."""


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
