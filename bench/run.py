#!/usr/bin/env python3
"""Benchmark the pipeline on this machine and print one table (it reports; it asserts nothing).

    .venv/bin/python bench/run.py                      # every phase (about two hours on 2 cores)
    .venv/bin/python bench/run.py --phase preview subtitles
    .venv/bin/python bench/run.py --report             # print the table from stored results only
    .venv/bin/python bench/run.py --report --markdown  # the same as Markdown, for docs/performance.md

Each phase renders into its own fresh folder under media/bench/ (so Manim's cache and the
scene cache start cold) with the offline espeak voice. The narration audio cache is shared
with media/cache/audio and filled before timing starts, so the figures are render time, not
speech synthesis. Results are kept in media/bench/results.json, one entry per phase, so a
phase can be re-run alone; the table shows every stored phase with the commit it ran at.

Phases:
  course-high-j2, course-high-j1   the whole course at 1080p60 with --jobs 2 / --jobs 1
                                   (per-scene 1080p60 figures come from the --jobs 1 run)
  course-medium-j2                 the whole course at 720p30 with --jobs 2
  course-medium-dask               the same through the Dask executor on a 2-worker LocalCluster
  scenes-low                       every scene at 480p15, one at a time, --repeat runs, median
  rerender                         change one word of one cue, render the course again (1080p60,
                                   on top of the newest full 1080p60 run's output) and time it
                                   against course-high-j2's full time
  subtitles                        `render.py subtitles` for the whole course (median of 5)
  preview                          a cold `render.py preview` of the longest scene (median of 3)
  doctor                           `render.py doctor` on this machine (median of 5; its exit status kept)
  static-runs                      one scene (STATIC_SCENE, silent voice) at 1080p60 with the static-runs
                                   lever off and on (COURSEKIT_STATIC_RUNS), --repeat rounds in the order
                                   off, on, on, off, …: CPU seconds (user + sys of render.py and its
                                   children) and wall, the share of frames that were repeats of the frame
                                   before, and whether the two videos' streams are the same bytes
  pieces                           the same scene at 1080p60 with --jobs 2, whole (COURSEKIT_PIECES=off)
                                   and in pieces, --repeat rounds in the order off, on, on, off, …: CPU
                                   seconds and wall, the pieces' Manim times, and whether every decoded
                                   frame equals the whole render's
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

PY = sys.executable
BENCH = ROOT / "media" / "bench"
RESULTS = BENCH / "results.json"
AUDIO_CACHE = ROOT / "media" / "cache" / "audio"
PHASES = [
    "course-high-j2",
    "course-medium-j2",
    "rerender",
    "subtitles",
    "preview",
    "course-high-j1",
    "scenes-low",
    "course-medium-dask",
    "doctor",
]
EXTRA = [
    "course-low-j2",
    "course-low-dask",
    "static-runs",
    "pieces",
    "studio-edit",
]  # a quicker Dask comparison (480p15); levers
STATIC_SCENE = "angle_addition"  # about 80 s of video
EDIT = ("clock_row", "近处远处都顾得上。", "近处远处都照顾得上。")  # one word of clock_row.takeaway
console = Console(highlight=False, width=150)


# ---------------------------------------------------------------- running things


def _commit() -> str:
    res = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return (res.stdout.strip() or "unknown") + ("+dirty" if dirty else "")


def cpu_probe() -> float:
    """Seconds of a fixed pure-Python loop, best of 3: how fast this machine runs today. The VM here ran the
    same code 0.31 x video one day and 0.44 x another; a phase's figure is compared across days only
    together with this."""
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        sum(i * i for i in range(5_000_000))
        best = min(best, time.process_time() - t0)
    return best


def workspace(name: str, quality: str, fresh: bool = True, voice: str = "espeak", **render: object) -> Path:
    """media/bench/<name>/ with a config.yaml (``voice``, ``quality``) and the shared audio cache."""
    out = BENCH / name
    if fresh:
        shutil.rmtree(out, ignore_errors=True)
    (out / "cache").mkdir(parents=True, exist_ok=True)
    link = out / "cache" / "audio"
    if not link.exists():
        AUDIO_CACHE.mkdir(parents=True, exist_ok=True)
        link.symlink_to(AUDIO_CACHE, target_is_directory=True)
    lines = [
        "voice:",
        f"  backend: {voice}",
        "video:",
        f"  quality: {quality}",
        f"output: {out.relative_to(ROOT).as_posix()}",
    ]
    if render:
        lines.append("render:")
        lines += [f"  {k}: {v}" for k, v in render.items()]
    (out / "config.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def cpu_children() -> float:
    """User + system CPU seconds of this process's finished (waited-for) children and theirs."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(args: list[str], out: Path, env: dict | None = None) -> float:
    """Run ``render.py args --config out/config.yaml``; return its wall seconds. Fails loudly."""
    cmd = [PY, str(ROOT / "render.py"), *args, "--config", str(out / "config.yaml")]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env={**os.environ, **(env or {})})
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"bench: `{' '.join(cmd[1:])}` failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
    return wall


def render_log(out: Path, quality: str) -> list[dict]:
    path = out / "logs" / f"render-{quality}.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def course_figures(out: Path, quality: str, wall: float) -> dict:
    rows = [r for r in render_log(out, quality) if not r.get("reused")]
    video = sum(r["video_s"] for r in rows)
    return {
        "wall_s": wall,
        "video_s": video,
        "ratio": wall / video if video else None,
        "scenes": len(rows),
        "peak_rss_mb": max((r.get("peak_rss_mb", 0) for r in rows), default=0),
        "per_scene": {
            r["scene"]: {"video_s": r["video_s"], "wall_s": r["wall_s"], "peak_rss_mb": r.get("peak_rss_mb", 0)}
            for r in rows
        },
    }


# ---------------------------------------------------------------- phases


def phase_course(quality: str, jobs: int) -> dict:
    out = workspace(f"course-{quality}-j{jobs}", quality)
    run(["plan"], out)  # fills the audio cache (untimed)
    wall = run(["course", "--jobs", str(jobs)], out)
    return {**course_figures(out, quality, wall), "jobs": jobs, "quality": quality}


def phase_course_dask(quality: str) -> dict:
    from bench.dask_cluster import render_course_on_local_cluster  # written with the Dask executor

    out = workspace(f"course-{quality}-dask", quality)
    run(["plan"], out)
    wall = render_course_on_local_cluster(out / "config.yaml", workers=2)
    return {**course_figures(out, quality, wall), "jobs": 2, "quality": quality, "executor": "dask"}


def phase_scenes_low(repeat: int) -> dict:
    per: dict[str, list[float]] = {}
    video: dict[str, float] = {}
    for _ in range(repeat):
        out = workspace("scenes-low", "low")
        run(["plan"], out)
        run(["render", "--jobs", "1"], out)
        for r in render_log(out, "low"):
            per.setdefault(r["scene"], []).append(r["wall_s"])
            video[r["scene"]] = r["video_s"]
    return {
        "repeat": repeat,
        "per_scene": {s: {"video_s": video[s], "wall_s": statistics.median(w)} for s, w in per.items()},
    }


def _edited_narration(edit: bool) -> Path:
    """A copy of narration/ with (or without) the one-word change in ``EDIT``."""
    from coursekit.content.narration import load_course  # noqa: F401  (fails early if the project is broken)

    scene, old, new = EDIT
    d = BENCH / ("narration-edited" if edit else "narration-original")
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(ROOT / "narration", d)
    if edit:
        for f in d.glob("*.yaml"):
            text = f.read_text(encoding="utf-8")
            if old in text:
                assert text.count(old) == 1, f"bench: the edit text occurs {text.count(old)} times in {f.name}"
                f.write_text(text.replace(old, new), encoding="utf-8")
                return d
        sys.exit(f"bench: the cue text to edit ({old}) is no longer in narration/; update EDIT in bench/run.py")
    return d


def _full_course_1080p(results: dict) -> Path:
    """The workspace of the newest complete 1080p60 course run (course-high-j2 or -j1), to edit on top of."""
    runs = [
        (results[k]["date"], k)
        for k in ("course-high-j2", "course-high-j1")
        if k in results and (BENCH / k / "config.yaml").exists()
    ]
    if not runs:
        sys.exit("bench: run the course-high-j2 or course-high-j1 phase first")
    return BENCH / max(runs)[1]


def phase_rerender(results: dict) -> dict:
    """The re-render after one edit, against the full course with --jobs 2 (the same --jobs)."""
    base = results.get("course-high-j2")
    if base is None:
        sys.exit("bench: run the course-high-j2 phase before rerender (the full-course time to compare with)")
    out = _full_course_1080p(results)
    workspace(out.name, "high", fresh=False)
    # back to the original text first (untimed), so the timed run is exactly one edit
    run(["course", "--jobs", "2"], out, {"COURSEKIT_NARRATION": str(_edited_narration(False))})
    edited = {"COURSEKIT_NARRATION": str(_edited_narration(True))}
    log = out / "logs" / "render-high.jsonl"
    before = len(render_log(out, "high"))
    run(["plan"], out, edited)  # the changed cue's audio (untimed; speech, not rendering)
    wall = run(["course", "--jobs", "2"], out, edited)
    rows = render_log(out, "high")[before:]
    rendered = [r["scene"] for r in rows if not r.get("reused")]
    run(["course", "--jobs", "2"], out, {"COURSEKIT_NARRATION": str(_edited_narration(False))})
    del log
    return {
        "wall_s": wall,
        "full_s": base["wall_s"],
        "share": wall / base["wall_s"],
        "rendered": rendered,
        "edit": f"{EDIT[0]}: {EDIT[1]} -> {EDIT[2]}",
        "on_top_of": out.name,
    }


def phase_subtitles(results: dict) -> dict:
    out = _full_course_1080p(results)
    walls = [run(["subtitles"], out) for _ in range(5)]
    return {"wall_s": statistics.median(walls), "runs": walls}


def phase_doctor() -> dict:
    """`render.py doctor` on the project's own config, as a user runs it (exit 1 is a finding, not a
    bench failure: its status is kept with the times). One run first, not timed, so the course's facts
    are kept (doctor's cache, as after any earlier run); the 1-minute load average is kept with each
    run, since on a shared machine it decides the figure."""
    subprocess.run([PY, str(ROOT / "render.py"), "doctor"], cwd=ROOT, capture_output=True, text=True)
    walls, codes, loads = [], [], []
    for _ in range(5):
        loads.append(round(os.getloadavg()[0], 2))
        t0 = time.perf_counter()
        proc = subprocess.run([PY, str(ROOT / "render.py"), "doctor"], cwd=ROOT, capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        codes.append(proc.returncode)
    return {"wall_s": statistics.median(walls), "runs": walls, "exit": codes, "load": loads}


def phase_preview() -> dict:
    from coursekit.core.config import load_config
    from coursekit.core.layout import MediaLayout
    from coursekit.plan.model import LessonPlan

    out = workspace("preview", "low")
    run(["plan"], out)
    cfg = load_config(out / "config.yaml")
    layout = MediaLayout(out)  # the workspace's config.yaml writes into it
    scenes = [s for lesson in cfg.lessons for s in LessonPlan.read(layout.lesson_plan(lesson, 15)).scenes]
    longest = max(scenes, key=lambda s: s.duration)
    walls = []
    for _ in range(3):
        # cold: nothing of this scene's earlier preview is left, the studio's stretches included
        shutil.rmtree(out / "manim" / longest.id, ignore_errors=True)
        shutil.rmtree(out / "preview" / "stretches" / longest.id, ignore_errors=True)
        for f in [*(out / "preview").glob(f"{longest.id}.*"), *(out / "work").glob(f"*/{longest.id}.*")]:
            f.unlink()
        walls.append(run(["preview", longest.id], out))
    wall = statistics.median(walls)
    return {
        "scene": longest.id,
        "video_s": longest.duration,
        "wall_s": wall,
        "runs": walls,
        "target_s": 0.3 * longest.duration + 3,
    }


def phase_studio_edit() -> dict:
    """The studio's edit to a playable preview on unit_circle (47 s) and shift_machine (99 s): ``bench/studio.py``
    with ``--edits 10`` on each, through the page in Chromium (the target: a median under 4 s on both)."""
    out = {}
    for scene in ("unit_circle", "shift_machine"):
        folder = ROOT / "media" / "bench" / f"studio-{scene}"
        subprocess.run(
            [sys.executable, str(ROOT / "bench" / "studio.py"), "--scene", scene, "--edits", "10", "--output", folder],
            cwd=ROOT,
            check=True,
        )
        r = json.loads((folder / "results.json").read_text(encoding="utf-8"))
        out[scene] = {k: r[k] for k in ("median_wall_s", "max_wall_s", "median_remade_s", "edits")}
    out["target_s"] = 4.0
    return out


def _video_stream(path: Path) -> tuple[int, str]:
    """The video stream's frame count and the MD5 of its packets (stream-copied: no decoding)."""
    frames = subprocess.run(
        [
            "ffprobe",
            "-v",
            "error",
            "-select_streams",
            "v:0",
            "-show_entries",
            "stream=nb_frames",
            "-of",
            "csv=p=0",
            path,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    md5 = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-map", "0:v:0", "-c", "copy", "-f", "md5", "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return int(frames), md5.removeprefix("MD5=")


def _off_on(repeat: int) -> list[str]:
    """A lever's runs in rounds off, on, on, off, …: a drift in the machine's load weighs on both alike."""
    return [x for k in range(repeat) for x in (("off", "on") if k % 2 == 0 else ("on", "off"))]


def _medians(runs: dict[str, list[dict]]) -> dict[str, dict[str, float]]:
    """Each lever's median CPU and wall seconds."""
    return {k: {m: statistics.median(r[m] for r in v) for m in ("cpu_s", "wall_s")} for k, v in runs.items()}


def phase_static_runs(repeat: int) -> dict:
    """STATIC_SCENE at 1080p60 with the static-runs lever off and on, in rounds off, on, on, off, … (so a
    drift in the machine's load weighs on both alike); each render from a fresh workspace (cold caches)."""
    from coursekit.render.static_runs import STATS_ENV, SWITCH_ENV

    runs: dict[str, list[dict]] = {"off": [], "on": []}
    for lever in _off_on(repeat):
        out = workspace(f"static-runs-{lever}", "high", voice="silent")
        run(["plan"], out)
        stats = out / "static-runs.jsonl"
        env = {SWITCH_ENV: lever, STATS_ENV: str(stats)}
        cpu0 = cpu_children()
        wall = run(["render", "--scene", STATIC_SCENE, "--jobs", "2"], out, env)
        cpu = cpu_children() - cpu0
        counted = [json.loads(line) for line in stats.read_text(encoding="utf-8").splitlines()]
        frames = sum(c["frames"] for c in counted if c["on"])
        converted = sum(c["converted"] for c in counted if c["on"])
        video = out / "scenes" / "high" / f"{STATIC_SCENE}.mp4"
        n, md5 = _video_stream(video)
        runs[lever].append(
            {
                "cpu_s": round(cpu, 2),
                "wall_s": round(wall, 2),
                "frames": n,
                "md5": md5,
                "load": round(os.getloadavg()[0], 2),
                **({"written": frames, "converted": converted} if lever == "on" else {}),
            }
        )
        console.print(f"  lever {lever}: {cpu:.1f} CPU s, {wall:.1f} s wall, {n} frames")
    video_s = runs["on"][0]["frames"] / 60
    med = _medians(runs)
    on = runs["on"][0]
    return {
        "scene": STATIC_SCENE,
        "video_s": video_s,
        "repeat": repeat,
        "runs": runs,
        "off": med["off"],
        "on": med["on"],
        "cpu_saved": 1 - med["on"]["cpu_s"] / med["off"]["cpu_s"],
        "static_share": 1 - on["converted"] / on["written"] if on["written"] else None,
        "same_frames": len({r["frames"] for v in runs.values() for r in v}) == 1,
        "same_bytes": len({r["md5"] for v in runs.values() for r in v}) == 1,
    }


def _decoded_digests(video: Path) -> list[str]:
    """md5 of every decoded frame's planes, in order."""
    import hashlib

    import av

    with av.open(str(video)) as c:
        return [
            hashlib.md5(b"".join(bytes(p) for p in f.planes)).hexdigest()  # noqa: S324 - a fingerprint
            for f in c.decode(video=0)
        ]


def phase_pieces(repeat: int) -> dict:
    """STATIC_SCENE at 1080p60 with --jobs 2, whole and in pieces, in rounds off, on, on, off, … (a drift in
    the machine's load weighs on both alike); each render from a fresh workspace (cold caches). Every
    render's decoded frames are compared with the first whole render's."""
    from coursekit.render.pieces import SWITCH_ENV

    runs: dict[str, list[dict]] = {"off": [], "on": []}
    reference: list[str] = []  # the first render's (whole: every round order starts with off)
    for lever in _off_on(repeat):
        out = workspace(f"pieces-{lever}", "high", voice="silent")
        run(["plan"], out)
        cpu0 = cpu_children()
        wall = run(["render", "--scene", STATIC_SCENE, "--jobs", "2"], out, {SWITCH_ENV: lever})
        cpu = cpu_children() - cpu0
        load = round(os.getloadavg()[0], 2)
        (row,) = [r for r in render_log(out, "high") if r["scene"] == STATIC_SCENE]
        digests = _decoded_digests(out / "scenes" / "high" / f"{STATIC_SCENE}.mp4")
        reference = reference or digests
        differ = sum(a != b for a, b in zip(digests, reference)) + abs(len(digests) - len(reference))
        runs[lever].append(
            {
                "cpu_s": round(cpu, 2),
                "wall_s": round(wall, 2),
                "frames": len(digests),
                "frames_differ": differ,
                "load": load,
                "pieces": row.get("pieces", 1),
                "piece_manim_s": row.get("piece_manim_s"),
                "piece_manim_cpu_s": row.get("piece_manim_cpu_s"),
                "piece_frames": row.get("piece_frames"),
            }
        )
        console.print(
            f"  pieces {lever}: {cpu:.1f} CPU s, {wall:.1f} s wall, {len(digests)} frames "
            f"({differ} differ from the whole render), load {load}"
        )
    video_s = runs["off"][0]["frames"] / 60
    med = _medians(runs)
    return {
        "scene": STATIC_SCENE,
        "video_s": video_s,
        "repeat": repeat,
        "runs": runs,
        "off": med["off"],
        "on": med["on"],
        "same_frames": all(r["frames_differ"] == 0 for v in runs.values() for r in v),
    }


# ---------------------------------------------------------------- the table


def _f(x: float | None, fmt: str = ".1f") -> str:
    return "—" if x is None else format(x, fmt)


COLUMNS = ("figure", "video s", "wall s", "wall/video", "peak RSS/worker", "target", "commit")


def table_rows(results: dict) -> list[tuple[str, ...]]:
    """One row per stored figure, in the columns of ``COLUMNS``."""
    rows: list[tuple[str, ...]] = []
    low = results.get("scenes-low", {}).get("per_scene", {})
    high = results.get("course-high-j1", {}).get("per_scene", {})
    for sid in list(dict.fromkeys([*high, *low])):
        lo, hi = low.get(sid), high.get(sid)
        video = (lo or hi)["video_s"]
        peak = hi.get("peak_rss_mb") if hi else None
        rows.append(
            (
                f"scene {sid}: 480p15 | 1080p60",
                _f(video),
                f"{_f(lo and lo['wall_s'])} | {_f(hi and hi['wall_s'])}",
                f"{_f(lo and lo['wall_s'] / video, '.2f')} | {_f(hi and hi['wall_s'] / video, '.2f')}",
                f"{peak:.0f} MB" if peak else "",
                f"480p15 ≤ {0.3 * video + 3:.1f} s",
                " | ".join(
                    dict.fromkeys(
                        r["commit"]
                        for r in (results.get("scenes-low"), results.get("course-high-j1"))
                        if r and sid in r.get("per_scene", {})
                    )
                ),
            )
        )
    targets = {"course-high-j2": "≤ 1.5×", "course-medium-j2": "≤ 0.5×"}
    for key, label in (
        ("course-high-j1", "course 1080p60 --jobs 1"),
        ("course-high-j2", "course 1080p60 --jobs 2"),
        ("course-medium-j2", "course 720p30 --jobs 2"),
        ("course-medium-dask", "course 720p30 --executor dask (2-worker LocalCluster)"),
        ("course-low-j2", "course 480p15 --jobs 2"),
        ("course-low-dask", "course 480p15 --executor dask (2-worker LocalCluster)"),
    ):
        r = results.get(key)
        if r:
            rows.append(
                (
                    label,
                    _f(r["video_s"]),
                    _f(r["wall_s"]),
                    _f(r["ratio"], ".2f"),
                    f"{r['peak_rss_mb']:.0f} MB",
                    targets.get(key, "< 1.5 GB/worker"),
                    r["commit"],
                )
            )
    r = results.get("rerender")
    if r:
        rows.append(
            (
                f"re-render after one cue edit ({', '.join(r['rendered']) or 'nothing'} re-rendered)",
                "",
                _f(r["wall_s"]),
                f"{r['share']:.1%} of full",
                "",
                "≤ 15% of full",
                r["commit"],
            )
        )
    r = results.get("subtitles")
    if r:
        rows.append(
            (
                "render.py subtitles, whole course (median of 5)",
                "",
                _f(r["wall_s"], ".2f"),
                "",
                "",
                "< 2 s",
                r["commit"],
            )
        )
    r = results.get("doctor")
    if r:
        load = f", load {statistics.median(r['load']):.1f}" if r.get("load") else ""
        rows.append(
            (
                f"render.py doctor (median of 5, exit {'/'.join(map(str, sorted(set(r['exit']))))}{load})",
                "",
                _f(r["wall_s"], ".2f"),
                "",
                "",
                "about 1 s",
                r["commit"],
            )
        )
    r = results.get("static-runs")
    if r:
        for lever in ("off", "on"):
            m = r[lever]
            rows.append(
                (
                    f"scene {r['scene']} 1080p60, static runs {lever} (median of {r['repeat']}): "
                    f"{m['cpu_s']:.1f} CPU s"
                    + (
                        f", {-r['cpu_saved']:+.1%} CPU, {r['static_share']:.0%} of frames repeats"
                        if lever == "on"
                        else ""
                    ),
                    _f(r["video_s"]),
                    _f(m["wall_s"]),
                    _f(m["wall_s"] / r["video_s"], ".2f"),
                    "",
                    "same frames" if r["same_bytes"] else ("same frame count" if r["same_frames"] else "FRAMES DIFFER"),
                    r["commit"],
                )
            )
    r = results.get("pieces")
    if r:
        for lever in ("off", "on"):
            m = r[lever]
            rows.append(
                (
                    f"scene {r['scene']} 1080p60 --jobs 2, pieces {lever} (median of {r['repeat']}): "
                    f"{m['cpu_s']:.1f} CPU s",
                    _f(r["video_s"]),
                    _f(m["wall_s"]),
                    _f(m["wall_s"] / r["video_s"], ".2f"),
                    "",
                    "≤ 0.6×" + ("" if r["same_frames"] else ", FRAMES DIFFER"),
                    r["commit"],
                )
            )
    r = results.get("preview")
    if r:
        rows.append(
            (
                f"cold preview of the longest scene, {r['scene']} (median of 3)",
                _f(r["video_s"]),
                _f(r["wall_s"]),
                _f(r["wall_s"] / r["video_s"], ".2f"),
                "",
                f"≤ {r['target_s']:.1f} s",
                r["commit"],
            )
        )
    for key, base_key in (("course-medium-dask", "course-medium-j2"), ("course-low-dask", "course-low-j2")):
        r, base = results.get(key), results.get(base_key)
        if r and base:
            rows.append(
                (
                    f"Dask overhead against --jobs 2 ({r['quality']})",
                    "",
                    _f(r["wall_s"] - base["wall_s"]),
                    f"{r['wall_s'] / base['wall_s'] - 1:+.1%}",
                    "",
                    "small",
                    " | ".join(dict.fromkeys((base["commit"], r["commit"]))),
                )
            )
    return rows


def print_table(results: dict, markdown: bool = False) -> None:
    rows = table_rows(results)
    if markdown:  # for docs/performance.md
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "|".join("---" if c in ("figure", "target", "commit") else "---:" for c in COLUMNS) + "|")
        for row in rows:
            print("| " + " | ".join(c.replace("|", "/") for c in row) + " |")
        return
    cores = os.cpu_count()
    t = Table(title=f"bench/run.py on {cores} cores (espeak voice, cold caches)", show_lines=False)
    for col in COLUMNS:
        t.add_column(col, justify="left" if col in ("figure", "target", "commit") else "right")
    for row in rows:
        t.add_row(*row)
    console.print(t)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phase", nargs="+", choices=PHASES + EXTRA, help="run only these phases (default: all)")
    ap.add_argument(
        "--repeat", type=int, default=3, help="runs of scenes-low (median per scene), rounds of static-runs"
    )
    ap.add_argument("--report", action="store_true", help="print the stored results; run nothing")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown (for docs/performance.md)")
    args = ap.parse_args()

    results = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
    # Every process it starts (render.py, Manim, Dask workers) caches its compiled modules, as a user's do and
    # as under `make bench` (the Makefile unexports it); the build machine's environment sets it, and each
    # process would otherwise compile the project's code again (0.19 s of `render.py subtitles`' 2.2 s).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if not args.report:
        console.print(f"{os.cpu_count()} cores; results go to {RESULTS.relative_to(ROOT)}")
        for phase in args.phase or PHASES:
            console.print(f"[bold]{phase}[/bold] …")
            t0 = time.perf_counter()
            commit = _commit()  # what the phase runs (helpers may commit meanwhile)
            probe = cpu_probe()
            if phase.startswith("course-") and phase.endswith("-dask"):
                r = phase_course_dask(phase.split("-")[1])
            elif phase.startswith("course-"):
                _, quality, jobs = phase.split("-")
                r = phase_course(quality, int(jobs[1:]))
            elif phase == "scenes-low":
                r = phase_scenes_low(args.repeat)
            elif phase == "rerender":
                r = phase_rerender(results)
            elif phase == "subtitles":
                r = phase_subtitles(results)
            elif phase == "doctor":
                r = phase_doctor()
            elif phase == "static-runs":
                r = phase_static_runs(args.repeat)
            elif phase == "pieces":
                r = phase_pieces(args.repeat)
            elif phase == "studio-edit":
                r = phase_studio_edit()
            else:
                r = phase_preview()
            r.update(commit=commit, date=time.strftime("%Y-%m-%d %H:%M"), cores=os.cpu_count(), cpu_probe_s=probe)
            results[phase] = r
            BENCH.mkdir(parents=True, exist_ok=True)
            from coursekit.core.atomic import write_text

            write_text(RESULTS, json.dumps(results, indent=1, ensure_ascii=False, sort_keys=True))
            console.print(f"  done in {time.perf_counter() - t0:.0f} s (CPU probe before it: {probe:.3f} s)")
    print_table(results, markdown=args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
