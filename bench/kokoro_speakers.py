"""The listening check over Kokoro's speakers and speeds, on the fixed sample (what chose the default).

    .venv/bin/python bench/kokoro_speakers.py                          # the 8 Mandarin speakers + jf_gongitsune, speed 1.2
    .venv/bin/python bench/kokoro_speakers.py --speakers zf_xiaobei --speeds 1.0 1.1 1.2
    .venv/bin/python bench/kokoro_speakers.py --n 0 --speakers zf_xiaoyi   # every cue of the course

For each (speaker, speed): synthesis of the sample's cues (through the audio cache, in parallel as a
plan does), the recogniser (Whisper base), and per cue the CER and the toneless-syllable error
(``coursekit.speech.listening``). Printed: mean and median of both, flagged cues, and the worst cues
with what was said and what was heard. With ``--hard``, the worst cues among the hardest material
(formulas of letters, long numbers, 想一想 questions). Results go to media/bench/kokoro_speakers.json.
It asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from coursekit.core.atomic import write_text  # noqa: E402
from coursekit.speech import listening as L  # noqa: E402
from coursekit.speech.voices import kokoro_speakers as KS  # noqa: E402

RESULTS = ROOT / "media" / "bench" / "kokoro_speakers.json"
_LATIN_FORMULA = re.compile(r"[A-Za-z]\s*[(（=+·]|[A-Za-z]{2,}")
_LONG_NUMBER = re.compile(r"\d[\d.,]{3,}|\d+\s*[×x]\s*10")


def hard(spoken: str) -> bool:
    """Formulas of letters, long numbers or a 想一想 question: the material a voice gets wrong first."""
    return bool(_LATIN_FORMULA.search(spoken) or _LONG_NUMBER.search(spoken) or "想一想" in spoken)


def _stats(values):
    return {"mean": statistics.fmean(values), "median": statistics.median(values)} if values else {}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--speakers", nargs="+", default=[*KS.MANDARIN, "jf_gongitsune"])
    ap.add_argument("--speeds", nargs="+", type=float, default=[1.2])
    ap.add_argument("--read-latin", choices=["config", "true", "false"], default="config")
    ap.add_argument("--n", type=int, default=36, help="sample size (0: every cue of the course)")
    ap.add_argument("--worst", type=int, default=3, help="worst cues shown per speaker")
    ap.add_argument("--hard", action="store_true", help="also show the worst cues of the hardest material")
    args = ap.parse_args(argv)

    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from coursekit.speech.audio_cache import AudioCache
    from coursekit.speech.voices.auto import make_voice
    from coursekit.zh.lexicon import Lexicon

    cfg = load_config(None)
    course = load_course(cfg.lessons)
    lexicon = Lexicon.load()
    cues = L.sample_cues(course, [l.id for l in course.lessons], args.n or None)
    cache = AudioCache(cfg.output_dir / "cache" / "audio")
    rec = L.Recogniser(cache_root=cfg.output_dir / "cache" / "transcripts", hotwords=cfg.course.listening_words)
    print(f"sample: {len(cues)} cues; recogniser: Whisper base int8, {rec.jobs} workers")
    results = {"date": time.strftime("%Y-%m-%d"), "n": len(cues), "runs": []}
    rows = []
    for speaker in args.speakers:
        for speed in args.speeds:
            kk = {"speaker": speaker, "speed": speed}
            if args.read_latin != "config":
                kk["read_latin"] = args.read_latin == "true"
            vcfg = cfg.voice.model_copy(update={"kokoro": cfg.voice.kokoro.model_copy(update=kk)})
            run_cfg = cfg.model_copy(update={"voice": vcfg})
            voice = make_voice("kokoro", vcfg, lexicon)
            t0 = time.perf_counter()
            try:
                L.prefetch(course, run_cfg, cues, voice, cache, lexicon, say=lambda *_: None)
                items = L.synthesise(cues, voice, cache, lexicon)
            finally:
                voice.close()
            synth_s = time.perf_counter() - t0
            report = L.check_items(items, rec, voice.describe())
            cer = _stats([r.score.cer for r in report.results])
            syl = _stats([r.score.syllable_error for r in report.results])
            hard_rs = [r for r in report.results if hard(r.spoken)]
            run = {
                "speaker": speaker,
                "speed": speed,
                "read_latin": voice.reads_latin,
                "cer": cer,
                "syllable_error": syl,
                "flagged": [r.cue_id for r in report.flagged],
                "audio_s": sum(r.audio_s for r in report.results),
                "synth_wall_s": synth_s,
                "hard": {
                    "cues": len(hard_rs),
                    "cer": _stats([r.score.cer for r in hard_rs]),
                    "syllable_error": _stats([r.score.syllable_error for r in hard_rs]),
                },
                "worst": [
                    (r.cue_id, round(r.score.cer, 3), round(r.score.syllable_error, 3), r.spoken, r.transcript)
                    for r in report.results[: args.worst]
                ],
                "worst_hard": [
                    (r.cue_id, round(r.score.cer, 3), round(r.score.syllable_error, 3), r.spoken, r.transcript)
                    for r in hard_rs[: args.worst]
                ],
            }
            results["runs"].append(run)
            rows.append(run)
            print(
                f"\n{speaker} speed {speed:g}{' reads Latin' if voice.reads_latin else ''}: "
                f"CER {cer['mean']:.3f} / {cer['median']:.3f}, syllables {syl['mean']:.3f} / {syl['median']:.3f}, "
                f"flagged {len(report.flagged)}/{len(report.results)}, {run['audio_s']:.0f} s of speech, "
                f"synthesis {synth_s:.0f} s"
            )
            for key, title in (("worst", "worst"), ("worst_hard", "hardest")):
                if key == "worst_hard" and not args.hard:
                    continue
                for cue_id, c, s, said, heard in run[key]:
                    print(f"  {title}: {cue_id} CER {c:.2f} syl {s:.2f}\n    said:  {said}\n    heard: {heard[:200]}")
    print(
        f"\n{'speaker':14s} {'speed':>5s} {'CER mean':>9s} {'median':>7s} {'syl mean':>9s} {'median':>7s} "
        f"{'flagged':>8s} {'hard CER':>9s} {'hard syl':>9s} {'speech s':>9s}"
    )
    for r in rows:
        print(
            f"{r['speaker']:14s} {r['speed']:5.2f} {r['cer']['mean']:9.3f} {r['cer']['median']:7.3f} "
            f"{r['syllable_error']['mean']:9.3f} {r['syllable_error']['median']:7.3f} "
            f"{len(r['flagged']):>4d}/{results['n']:<3d} {r['hard']['cer'].get('mean', 0):9.3f} "
            f"{r['hard']['syllable_error'].get('mean', 0):9.3f} {r['audio_s']:9.0f}"
        )
    write_text(RESULTS, json.dumps(results, ensure_ascii=False, indent=1))
    print(f"\nwritten {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
