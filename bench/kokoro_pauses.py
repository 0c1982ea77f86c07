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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MARKS = {",": "，、", ";": "；", ":": "：", ".": "。", "?": "？", "!": "！", "—": "——"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--speaker", default=None)
    ap.add_argument("--speed", type=float, default=None)
    ap.add_argument("--n", type=int, default=0, help="sample size (0: every cue)")
    args = ap.parse_args(argv)

    from coursekit.content.cue_text import cue_text
    from coursekit.content.lexicon import Lexicon
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from coursekit.speech import listening as L
    from coursekit.speech.voices import kokoro as kk

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
            _, _, units = voice._infer(eng, g)
            for pos, ch in enumerate(g.phonemes):
                if ch in MARKS and pos + 1 < len(g.phonemes):      # a mark inside, not the closing one
                    t = before[pos]
                    n = units[1 + t]
                    if g.phonemes[pos + 1] == " ":
                        n += units[2 + t]
                    pauses[ch].append(float(n) * kk.UNIT / kk.RATE)
    print(f"{kcfg.speaker} speed {kcfg.speed:g}: {len(cues)} cues, {multi} read in more than one inference "
          f"({joins['clause']} joins after a clause, {joins['sentence']} after a sentence; the voice adds "
          f"{kk.CLAUSE_PAUSE_S:.2f} s / {kk.SENTENCE_PAUSE_S:.2f} s there)")
    print(f"{'mark':6s} {'n':>5s} {'median s':>9s} {'q1':>6s} {'q3':>6s}")
    for mark, values in sorted(pauses.items(), key=lambda kv: -len(kv[1])):
        q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
        print(f"{MARKS[mark]:6s} {len(values):5d} {statistics.median(values):9.3f} {q[0]:6.3f} {q[2]:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
