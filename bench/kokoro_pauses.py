"""How long Kokoro pauses at each punctuation mark inside one inference, against the fixed pauses the voice
puts between inferences (what decides `kokoro.CLAUSE_PAUSE_S` / `SENTENCE_PAUSE_S` and `PAUSES`).

    .venv/bin/python bench/kokoro_pauses.py                         # the configured speaker, every cue
    .venv/bin/python bench/kokoro_pauses.py --speaker zm_yunxi --n 36

Inside an inference the model times every token itself (``/encoder/Clip_output_0``, 600 samples a unit at
24 kHz); the pause at a mark is the duration of the mark's token and the space after it. Between
inferences the voice adds silence of its own. This prints, per mark (， 、 ； ： 。 ？ ！ as the model
reads them), how many there are, the model's pause (median, quartiles), and how often a cue is read in
more than one inference (where the voice's own pauses apply at all). It asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MARKS = {",": "，、", ";": "；", ":": "：", ".": "。", "?": "？", "!": "！", "—": "——"}


def _silence_at(x, start: float, end: float, window: int = 240, floor_db: float = -40.0) -> float:
    """Samples of the silent run (10 ms windows below ``floor_db`` of the inference's peak) that overlaps
    the mark's token [start, end): the pause a listener hears there."""
    n = len(x) // window
    rms = np.sqrt(np.mean(np.square(x[: n * window].reshape(n, window)), axis=1))
    quiet = 20 * np.log10(np.maximum(rms, 1e-9) / max(float(np.max(np.abs(x))), 1e-9)) < floor_db
    lo, hi = int(start // window), min(n - 1, int(end // window))
    hits = [i for i in range(lo, hi + 1) if quiet[i]]
    if not hits:
        return 0.0
    a = b = hits[0]
    while a > 0 and quiet[a - 1]:
        a -= 1
    while b + 1 < n and quiet[b + 1]:
        b += 1
    return float((b - a + 1) * window)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--speaker", default=None)
    ap.add_argument("--speed", type=float, default=None)
    ap.add_argument("--n", type=int, default=0, help="sample size (0: every cue)")
    args = ap.parse_args(argv)

    from coursekit.content.cue_text import cue_text
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from coursekit.speech import listening as L
    from coursekit.speech.voices import kokoro as kk
    from coursekit.zh.lexicon import Lexicon

    cfg = load_config(None)
    update = {k: v for k, v in (("speaker", args.speaker), ("speed", args.speed)) if v is not None}
    kcfg = cfg.voice.kokoro.model_copy(update=update)
    lexicon = Lexicon.load()
    voice = kk.Kokoro(kcfg, lexicon, warn=lambda _: None)
    course = load_course(cfg.lessons)
    cues = L.sample_cues(course, [l.id for l in course.lessons], args.n or None)
    pauses: dict[str, list[float]] = defaultdict(list)
    joins = {"clause": 0, "sentence": 0}
    multi = 0
    eng = kk.engine(voice.model_dir)
    for _, cue in cues:
        spoken = cue_text(cue, lexicon, reads_latin=voice.reads_latin).spoken
        groups = voice.phonemes(spoken)
        multi += len(groups) > 1
        for g in groups[:-1]:
            joins["sentence" if g.pause >= kk.SENTENCE_PAUSE_S else "clause"] += 1
        for g in groups:
            ids, before = voice.tokens(g.phonemes)
            x, _, units = voice._infer(eng, g)
            ends = np.cumsum(units)
            for pos, ch in enumerate(g.phonemes):
                if ch in MARKS and pos + 1 < len(g.phonemes):  # a mark inside, not the closing one
                    t = before[pos]
                    pauses[ch].append(_silence_at(x, float(ends[t]) * kk.UNIT, float(ends[t + 1]) * kk.UNIT) / kk.RATE)
    print(
        f"{kcfg.speaker} speed {kcfg.speed:g}: {len(cues)} cues, {multi} read in more than one inference "
        f"({joins['clause']} joins after a clause, {joins['sentence']} after a sentence; the voice adds "
        f"{kk.CLAUSE_PAUSE_S:.2f} s / {kk.SENTENCE_PAUSE_S:.2f} s there)"
    )
    print(f"{'mark':6s} {'n':>5s} {'median s':>9s} {'q1':>6s} {'q3':>6s}")
    for mark, values in sorted(pauses.items(), key=lambda kv: -len(kv[1])):
        q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
        print(f"{MARKS[mark]:6s} {len(values):5d} {statistics.median(values):9.3f} {q[0]:6.3f} {q[2]:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
