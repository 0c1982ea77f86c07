#!/usr/bin/env python3
"""A stand-in for coursekit/speech/voices/zhtts_worker.py that speaks the same JSON-lines protocol with
stdlib only, for the protocol tests.

    python tests/support/fake_zhtts_worker.py STATE_DIR [ACTION ...]

Each process appends its pid to STATE_DIR/pids and each request to STATE_DIR/requests.jsonl. The
n-th request over all processes (counting from 0) gets ACTION n (the last one repeats; default ok):

    ok       a reply with audio: a 220 Hz tone, 0.2 s per syllable, per clause
    die      exit with status 3 without answering
    hang     never answer
    silent   all-zero audio          nan      report non-finite samples
    rate     a 16 kHz reply           garbage  a line that is not JSON
    error    {"ok": false, ...}       short    a reply claiming more samples than the WAV holds
    noready  (as the first action)    exit at start with a not-ready line
"""

import json
import math
import os
import struct
import sys
import time
import wave

RATE = 24000


def tone(n_syllables: int, rate: int = RATE) -> bytes:
    n = int(0.2 * n_syllables * rate)
    out = bytearray()
    for i in range(n):
        env = 0.5 - 0.5 * math.cos(2 * math.pi * i / (0.2 * rate))  # one swell per syllable
        out += struct.pack("<h", int(12000 * env * math.sin(2 * math.pi * 220 * i / rate)))
    return bytes(out)


def main() -> int:
    state, actions = sys.argv[1], sys.argv[2:] or ["ok"]
    with open(os.path.join(state, "pids"), "a") as fh:
        fh.write(f"{os.getpid()}\n")
    if actions[0] == "noready":
        print(json.dumps({"ready": False, "error": "ImportError: no module named tensorflow"}), flush=True)
        return 1
    print(json.dumps({"ready": True, "protocol": 1, "frontend": 1, "rate": RATE, "zhtts": "fake"}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("op") == "quit":
            return 0
        log = os.path.join(state, "requests.jsonl")
        n = sum(1 for _ in open(log)) if os.path.exists(log) else 0
        with open(log, "a") as fh:
            fh.write(json.dumps(req, ensure_ascii=False) + "\n")
        action = actions[min(n, len(actions) - 1)]
        if action == "die":
            return 3
        if action == "hang":
            time.sleep(3600)
        if action == "garbage":
            print("Traceback (most recent call last): oops", flush=True)
            continue
        if action == "error":
            print(json.dumps({"id": req["id"], "ok": False, "error": "RuntimeError: tflite invoke failed"}), flush=True)
            continue
        rate = 16000 if action == "rate" else RATE
        pcm, spans, pos = b"", [], 0
        for syl in req["clauses"]:
            chunk = tone(len(syl), rate)
            if action == "silent":
                chunk = bytes(len(chunk))
            pcm += chunk
            spans.append([pos, pos + len(chunk) // 2])
            pos += len(chunk) // 2
        with wave.open(req["out"], "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(pcm)
        samples = pos + (1000 if action == "short" else 0)
        print(
            json.dumps(
                {
                    "id": req["id"],
                    "ok": True,
                    "path": req["out"],
                    "rate": rate,
                    "samples": samples,
                    "spans": spans,
                    "peak": 0.37,
                    "rms": 0.1,
                    "nonfinite": 7 if action == "nan" else 0,
                    "gain": 1.0,
                    "skipped": [],
                    "seconds": 0.01,
                }
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
