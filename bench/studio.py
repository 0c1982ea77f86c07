#!/usr/bin/env python3
"""The studio's edit-to-preview time: one word of one cue changed, until the open page shows the new preview.

    .venv/bin/python bench/studio.py                       # unit_circle, kokoro, 3 edits, into media/bench/studio
    .venv/bin/python bench/studio.py --output tests/.tmp/studio-bench --edits 5
    .venv/bin/python bench/studio.py --scene shift_machine --edits 10   # bench/run.py --phase studio-edit: both

What it does (it reports; it asserts nothing):

1. A private copy of the course's inputs in the output folder: ``config.yaml`` with ``output`` pointing
   there, the narration (``COURSEKIT_NARRATION``), and the audio cache hard-linked from
   ``media/cache/audio`` (so only the edited cue is synthesised). Manim's caches and the previews start
   cold (removed first).
2. ``render.py studio --config COPY --voice kokoro`` (the default offline voice), and the scene's page
   in headless Chromium. Opening it renders the preview once (not timed). Then it clicks the edited cue's
   bar (the author stops on the cue to read it) and waits ``--settle`` seconds, as an author would, with
   the studio's background work (statuses, viewer checks) running.
3. Each edit replaces one word of the cue (the verb of "从轮轴到座舱连一根指针": 连 → 拉 → 接 → 画 …),
   each word new in the run; the audio cache entries of the edited text are dropped from the private
   copy first, so the cue is really synthesised. Timed: from writing the narration file to the page's
   video element having loaded the new preview (``readyState >= 2`` on the new source) with the new cue
   text on the timeline: the edited cue is playable (a provisional preview, the edited cue with the last
   preview's frames after it, when the studio could make one); then to the remade preview (the page says
   fresh). The studio's own build time (plan + render + mux) is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
AUDIO_CACHE = ROOT / "media" / "cache" / "audio"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--autoplay-policy=no-user-gesture-required",
]
#: the scenes it can edit: (lesson, cue, the phrase with the word that changes, the original word first, then
#: one new word per edit); unit_circle (47 s) edits its second cue, shift_machine (99 s) one in its middle
SCENES = {
    "unit_circle": ("trig_to_rope", "pointer", "到座舱{}一根指针", "连拉接画搭牵引放架添插"),
    "shift_machine": ("rotation_matrix", "no_learning", "照公式{}出来的", "写列排算推定造搭拼摆做"),
}
SCENE, LESSON, CUE = "unit_circle", "trig_to_rope", "pointer"
SLOT = "到座舱{}一根指针"
WORDS = list(SCENES[SCENE][3])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(out: Path) -> tuple[Path, Path]:
    """The config copy and the narration copy in ``out``; cold Manim caches and previews."""
    out.mkdir(parents=True, exist_ok=True)
    for sub in ("manim", "preview", "studio", "work", "plan", "inspect"):
        shutil.rmtree(out / sub, ignore_errors=True)
    rel = os.path.relpath(out, ROOT)
    text = (ROOT / "config.yaml").read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^output:.*$", f"output: {rel}", text)
    if not n:
        text += f"\noutput: {rel}\n"
    config = out / "config.yaml"
    config.write_text(text, encoding="utf-8")
    narration = out / "narration"
    shutil.rmtree(narration, ignore_errors=True)
    shutil.copytree(ROOT / "narration", narration, ignore=shutil.ignore_patterns("__pycache__"))
    cache = out / "cache" / "audio"
    cache.mkdir(parents=True, exist_ok=True)
    have = {p.name for p in cache.iterdir()}
    for f in AUDIO_CACHE.iterdir() if AUDIO_CACHE.is_dir() else []:
        if f.is_file() and f.name not in have:
            os.link(f, cache / f.name)  # shared files are replaced, never written in place
    return config, narration


def drop_cached(cache: Path, phrase: str) -> int:
    """Remove from the private cache every entry whose spoken text contains ``phrase``."""
    n = 0
    for meta in cache.glob("*.json"):
        try:
            doc = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if phrase in str(doc.get("spoken", "")):
            meta.unlink(missing_ok=True)
            meta.with_suffix(".wav").unlink(missing_ok=True)
            n += 1
    return n


def main() -> int:
    global SCENE, LESSON, CUE, SLOT, WORDS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--output",
        type=Path,
        default=ROOT / "media" / "bench" / "studio",
        help="a folder inside the project for the copies and the renders (default media/bench/studio)",
    )
    ap.add_argument("--scene", choices=sorted(SCENES), default="unit_circle", help="the scene to edit")
    ap.add_argument("--edits", type=int, default=3, help=f"timed edits, 1 to {len(WORDS) - 1} (default 3)")
    ap.add_argument("--voice", default="kokoro", help="the voice (default kokoro, the default offline voice)")
    ap.add_argument("--settle", type=float, default=10.0, help="seconds between the first preview and the first edit")
    args = ap.parse_args()
    SCENE = args.scene
    LESSON, CUE, SLOT, words = SCENES[SCENE]
    WORDS = list(words)
    if not 1 <= args.edits < len(WORDS):
        ap.error(f"--edits must be from 1 to {len(WORDS) - 1}")
    out = args.output.resolve()
    config, narration = prepare(out)
    lesson_file = narration / f"{LESSON}.yaml"
    if SLOT.format(WORDS[0]) not in lesson_file.read_text(encoding="utf-8"):
        print(
            f"{lesson_file}: the cue {SCENE}.{CUE} no longer says {SLOT.format(WORDS[0])!r}; update SLOT in "
            "bench/studio.py",
            file=sys.stderr,
        )
        return 2

    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "COURSEKIT_COURSE"}
    env["COURSEKIT_NARRATION"] = str(narration)
    log = out / "studio.log"
    with log.open("w") as f:
        proc = subprocess.Popen(
            [
                PY,
                str(ROOT / "render.py"),
                "studio",
                "--config",
                str(config),
                "--voice",
                args.voice,
                "--port",
                str(port),
            ],
            cwd=ROOT,
            stdout=f,
            stderr=subprocess.STDOUT,
            env=env,
        )
    rows = []
    try:
        while not re.search(r"studio: http://", log.read_text()):
            if proc.poll() is not None:
                print(log.read_text(), file=sys.stderr)
                return 1
            time.sleep(0.2)
        url = f"http://127.0.0.1:{port}/"
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            page = browser.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=True).new_page()
            t0 = time.perf_counter()
            page.goto(url + f"scene/{SCENE}")
            page.wait_for_function(
                "() => { const v = document.querySelector('video'); return v && !v.hidden && "
                "v.readyState >= 2 && document.querySelector('#state').textContent === 'fresh'; }",
                timeout=900_000,
            )
            print(
                f"first preview (cold Manim cache, page opened on a missing preview): {time.perf_counter() - t0:.1f} s",
                flush=True,
            )
            # the author stops on the cue to read it before editing it (the page then tells the studio, which
            # gets a Manim process ready there: coursekit/render/parked.py)
            page.click(f'.cue-bar[data-cue="{SCENE}.{CUE}"]', position={"x": 8, "y": 40})
            time.sleep(args.settle)
            for k in range(1, args.edits + 1):
                old, new = SLOT.format(WORDS[k - 1]), SLOT.format(WORDS[k])
                dropped = drop_cached(out / "cache" / "audio", new)
                src = page.evaluate("() => document.querySelector('video').src")
                text = lesson_file.read_text(encoding="utf-8")
                t0 = time.perf_counter()
                lesson_file.write_text(text.replace(old, new, 1), encoding="utf-8")
                page.wait_for_function(
                    "([src, cue, phrase]) => { const v = document.querySelector('video');"
                    ' const bar = document.querySelector(`.cue-bar[data-cue="${cue}"] .cue-text`);'
                    " return v.src !== src && v.readyState >= 2 && bar && bar.textContent.includes(phrase); }",
                    arg=[src, f"{SCENE}.{CUE}", new],
                    timeout=900_000,
                    polling=50,
                )
                wall = time.perf_counter() - t0
                first = json.loads(page.evaluate(f"() => fetch('/api/scene/{SCENE}').then(r => r.text())"))
                # then the remade preview (after a provisional one: the edited cue with the old frames after it)
                page.wait_for_function(
                    "() => { const v = document.querySelector('video');"
                    " return document.querySelector('#state').textContent === 'fresh' && v.readyState >= 2; }",
                    timeout=900_000,
                    polling=50,
                )
                final = time.perf_counter() - t0
                view = json.loads(page.evaluate(f"() => fetch('/api/scene/{SCENE}').then(r => r.text())"))
                rows.append(
                    {
                        "edit": f"{WORDS[k - 1]} → {WORDS[k]}",
                        "wall_s": round(wall, 2),
                        "build_s": view.get("seconds"),
                        "provisional": first.get("video") != view.get("video"),
                        "remade_s": round(final, 2),
                        "dropped_cache_entries": dropped,
                    }
                )
                print(
                    f"edit {k}: {WORDS[k - 1]} → {WORDS[k]}: the edited cue plays after {wall:.1f} s, the "
                    f"remade preview after {final:.1f} s (studio build {view.get('seconds')} s)",
                    flush=True,
                )
                time.sleep(args.settle)
            # pictures to look at: the scene on its sweep cue once its viewer check is in, and the list
            try:
                page.wait_for_function(
                    "() => !/checking|not checked/.test(document.querySelector('#findings').textContent)",
                    timeout=180_000,
                    polling=500,
                )
            except PlaywrightError:
                pass
            page.click(f'.cue-bar[data-cue="{SCENE}.{CUE}"]', position={"x": 8, "y": 40})
            page.wait_for_timeout(1500)
            page.screenshot(path=str(out / f"studio-{SCENE}.png"), full_page=True)
            page.goto(url)
            page.wait_for_function("() => document.querySelectorAll('tr[data-scene]').length > 0")
            page.wait_for_timeout(3000)
            page.screenshot(path=str(out / "studio-list.png"), full_page=True)
            browser.close()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
    walls = [r["wall_s"] for r in rows]
    load = os.getloadavg()
    result = {
        "scene": SCENE,
        "cue": CUE,
        "voice": args.voice,
        "cores": os.cpu_count(),
        "edits": rows,
        "median_wall_s": statistics.median(walls),
        "median_remade_s": statistics.median(r["remade_s"] for r in rows),
        "max_wall_s": max(walls),
        "loadavg_after": [round(x, 2) for x in load],
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip(),
    }
    (out / "results.json").write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(
        f"{SCENE}: edited cue playable on the page: median {result['median_wall_s']:.1f} s, worst "
        f"{result['max_wall_s']:.1f} s; remade preview: median {result['median_remade_s']:.1f} s "
        f"over {len(rows)} edits ({os.cpu_count()} cores, load average {load[0]:.2f}); studio log: {log}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
