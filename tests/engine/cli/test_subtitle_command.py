"""`render.py subtitles`: from the plan, without Manim; stale audio is reported instead of wrong subtitles.

The subtitles written from the plan are made by a fresh Python (what it imports is checked); the plan before
them and the two refusals after run through the command line's entry in this process (``mini_runs.here``)."""

import shutil
import subprocess
import sys
from pathlib import Path

import srt
import webvtt
import yaml

from tests.support.mini_runs import here

ROOT = Path(__file__).resolve().parents[3]
OUT = "tests/.tmp/subs_media"


def run(args, env=None, code=None):
    prog = (
        code
        or "import sys; from coursekit.cli.main import main; rc = main(sys.argv[1:]); "
        "print('MANIM_IMPORTED' if 'manim' in sys.modules else 'NO_MANIM'); sys.exit(rc)"
    )
    return subprocess.run([sys.executable, "-c", prog, *args], cwd=ROOT, capture_output=True, text=True, env=env)


def test_subtitles_from_plan_without_manim_and_stale_detection(tmp_path, monkeypatch, capfd):
    shutil.rmtree(ROOT / OUT, ignore_errors=True)
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"output: {OUT}\nvoice:\n  backend: silent\n", encoding="utf-8")
    res = here(monkeypatch, capfd, "plan", "--config", str(cfg))
    assert res.returncode == 0, res.stderr[-2000:]
    proc = run(["subtitles", "--config", str(cfg)])
    assert proc.returncode == 0, proc.stderr
    assert "NO_MANIM" in proc.stdout
    from coursekit.plan.model import LessonPlan

    for lesson in ("trig_to_rope", "word_order", "rotation_matrix"):
        d = ROOT / OUT / "course" / lesson
        subs = list(srt.parse((d / f"{lesson}.srt").read_text(encoding="utf-8")))
        vtt = webvtt.read(str(d / f"{lesson}.vtt"))
        plan = LessonPlan.read(ROOT / OUT / "plan" / "60fps" / f"{lesson}.json")
        n = sum(len(c.subtitles) for s in plan.scenes for c in s.cues)
        assert len(subs) == len(vtt.captions) == n
        written = "".join(c.text for s in plan.scenes for c in s.cues)
        assert "".join(s.content for s in subs).replace("\n", "").replace(" ", "") == written.replace(" ", "")
    # change one cue's text: the audio is now stale, and subtitles refuse with the cue named
    narr = tmp_path / "narration"
    shutil.copytree(ROOT / "narration", narr)
    f = narr / "word_order.yaml"
    text = f.read_text(encoding="utf-8")
    first = text.index('text: "') + len('text: "')  # the lesson's first cue, whatever it says
    f.write_text(text[:first] + "嗯，" + text[first:], encoding="utf-8")
    doc = yaml.safe_load(text)
    cue = f"{doc['scenes'][0]['id']}.{doc['scenes'][0]['cues'][0]['id']}"
    env = {"COURSEKIT_NARRATION": str(narr)}
    proc = here(monkeypatch, capfd, "subtitles", "--config", str(cfg), "--lesson", "word_order", **env)
    assert proc.returncode == 2
    err = proc.stderr.strip()
    assert len(err.splitlines()) == 1 and "stale" in err and cue in err
    # the whole course: one stale lesson stops the command before any lesson's files are rewritten
    files = sorted((ROOT / OUT / "course").glob("*/*.*t"))
    before = {f: f.stat().st_mtime_ns for f in files}
    proc = here(monkeypatch, capfd, "subtitles", "--config", str(cfg), **env)
    assert proc.returncode == 2 and cue in proc.stderr
    assert len(files) == 6 and {f: f.stat().st_mtime_ns for f in files} == before
