"""espeak-ng, reading tone-numbered pinyin with its ``cmn-latn-pinyin`` voice.

The plain ``cmn`` voice's dictionary is incomplete (it spells many characters out as
English letters), so the spoken text is converted to pinyin by ``Lexicon.pinyin`` (pinned
readings win) and read by ``cmn-latn-pinyin``, which reads pinyin correctly. The text is
synthesised clause by clause; clauses are joined with fixed pauses, and the clause starts
are the timings.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import tempfile
from importlib.metadata import version
from pathlib import Path

from pydantic import Field

from coursekit.core.errors import UserError
from coursekit.core.voice_registry import VoiceSpec
from coursekit.speech import audio
from coursekit.speech.voices.base import Voice, VoiceSettings
from coursekit.zh.chars import clauses
from coursekit.zh.lexicon import Lexicon

NOT_FOUND = "espeak-ng not found; install the Debian package espeak-ng: apt-get install espeak-ng"
CLAUSE_PAUSE_S = 0.18
SENTENCE_PAUSE_S = 0.36
_MANDARIN = {"cmn", "zh", "zh-cmn", "cmn-latn-pinyin"}


class EspeakSettings(VoiceSettings):
    """``voice.espeak``: espeak-ng settings. speed is espeak's -s value; 235 gives about 4.4 Chinese
    characters a second (measured over the whole narration, clause pauses included)."""

    voice: str = Field("cmn", description="an espeak-ng voice (espeak-ng --voices)")
    speed: int = Field(235, ge=80, le=450)
    pitch: int = Field(50, ge=0, le=99)


def espeak_binary() -> str:
    exe = shutil.which("espeak-ng")
    if not exe:
        raise UserError(NOT_FOUND)
    return exe


@functools.lru_cache(maxsize=None)
def espeak_version(exe: str) -> str:
    """'espeak-ng 1.51' from ``espeak-ng --version``."""
    res = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10)
    m = re.search(r"text-to-speech:\s*([0-9][\w.\-]*)", res.stdout)
    return f"espeak-ng {m.group(1) if m else 'unknown'}"


def espeak_voice_name(configured: str) -> str:
    """Map the configured voice to the pinyin-reading one: 'cmn' -> 'cmn-latn-pinyin',
    'cmn+f3' -> 'cmn-latn-pinyin+f3'."""
    base, plus, variant = configured.partition("+")
    if base.lower() not in _MANDARIN:
        raise UserError(
            f"config.yaml: voice.espeak.voice '{configured}' is not supported; use 'cmn' "
            "(optionally with a variant, like 'cmn+f3')"
        )
    if variant and not re.fullmatch(r"[A-Za-z0-9_]+", variant):
        raise UserError(
            f"config.yaml: voice.espeak.voice '{configured}': bad variant '{variant}'; use one like 'f3' or 'm2'"
        )
    return "cmn-latn-pinyin" + (plus + variant if variant else "")


class Espeak(Voice):
    # a worker process costs about 2.5 s of CPU to start (Python, the lexicon, pypinyin's dictionaries), a cue
    # about 0.15 s once they are loaded: a pool pays from about 20 cues (the mini course's 4 cues: 6.1 s of
    # CPU in a pool of two, 1.8 s here, measured 2026-12-04 on the 2-core build machine)
    spec = VoiceSpec(
        name="espeak",
        licence="GPL-3.0 (espeak-ng)",
        parallel="processes",
        pool_from=20,
        auto=30,
        needs="apt-get install espeak-ng",
        settings=EspeakSettings,
    )

    def __init__(self, cfg: EspeakSettings | None = None, lexicon: Lexicon | None = None) -> None:
        self.cfg = cfg or EspeakSettings()
        self.lexicon = lexicon if lexicon is not None else Lexicon()
        self.exe = espeak_binary()
        self.voice = espeak_voice_name(self.cfg.voice)

    @classmethod
    def available(cls, cfg) -> tuple[bool, str]:
        return (True, "") if shutil.which("espeak-ng") else (False, "espeak-ng not installed")

    def process_recipe(self):
        return Espeak, (self.cfg, self.lexicon), {}

    def version(self) -> str:
        return espeak_version(self.exe)

    def describe(self) -> str:
        return f"{self.version()} {self.voice} s{self.cfg.speed} p{self.cfg.pitch}"

    def identity(self) -> dict:
        return {
            "backend": self.name,
            "version": self.version(),
            "voice": self.voice,
            "speed": self.cfg.speed,
            "pitch": self.cfg.pitch,
            "pauses": [CLAUSE_PAUSE_S, SENTENCE_PAUSE_S],
            "pinyin": f"pypinyin {version('pypinyin')}",
            "readings": self.lexicon.readings_digest,
            "format": audio.FORMAT_ID,
        }

    def _say(self, pinyin: str, wav: Path) -> None:
        args = [
            self.exe,
            "-v",
            self.voice,
            "-s",
            str(self.cfg.speed),
            "-p",
            str(self.cfg.pitch),
            "-w",
            str(wav),
            "--stdin",
        ]
        try:
            res = subprocess.run(args, input=pinyin, capture_output=True, text=True, timeout=120)
        except FileNotFoundError:
            raise UserError(NOT_FOUND) from None
        if res.returncode or not wav.exists():
            raise RuntimeError(f"espeak-ng failed (exit {res.returncode}): {res.stderr.strip()[-300:]}")

    def _render(self, spoken: str, attempt: int):
        AudioSegment = audio._pydub()
        track = AudioSegment.empty()
        timings: list[tuple[int, float]] = []
        pending_pause = 0.0
        with tempfile.TemporaryDirectory(prefix="coursekit-espeak-") as td:
            for k, (start, end, kind) in enumerate(clauses(spoken)):
                # erhua unmerged (na3 er5): cmn-latn-pinyin misreads a merged syllable (nar3 as na55 'er214)
                syl = self.lexicon.pinyin(spoken[start:end], erhua=False)
                if syl:
                    wav = Path(td) / f"c{k}.wav"
                    self._say(" ".join(syl), wav)
                    seg = audio.normalise(wav)
                    if len(audio.samples(seg)):
                        if len(track):
                            track += audio.silence(pending_pause)
                        offset = start + (len(spoken[start:end]) - len(spoken[start:end].lstrip()))
                        timings.append((offset, audio.duration_of(track)))
                        track += seg
                        pending_pause = 0.0
                pause = SENTENCE_PAUSE_S if kind == "sentence" else CLAUSE_PAUSE_S if kind == "clause" else 0.0
                pending_pause = max(pending_pause, pause)
        if not len(track):
            raise RuntimeError(f"espeak-ng produced no audio for {spoken!r}")
        return audio.conform(track), timings
