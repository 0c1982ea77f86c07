"""`render.py clean` removes only what no current plan or scene refers to, and reports the bytes freed; after
a full run of the mini course and a studio run it leaves exactly what the output folder's layout
(coursekit/core/layout.py) says it keeps."""

import json
import re
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from coursekit.cli.clean import clean
from coursekit.content.narration import load_course
from coursekit.core.config import parse_config
from coursekit.core.layout import ENTRIES, KEPT, REMOVED, STALE, MediaLayout
from coursekit.core.paths import COURSE_ENV, NARRATION_ENV
from coursekit.plan.build import plan_lesson
from coursekit.plan.model import LessonPlan
from coursekit.speech.audio_cache import AudioCache
from coursekit.speech.voices.auto import make_voice
from coursekit.zh.lexicon import Lexicon
from tests.support import mini_runs

ROOT = Path(__file__).resolve().parents[3]


def test_clean_keeps_referenced_and_removes_stale(mini, tmp_path, monkeypatch):
    """On a copy of the mini course, in this process: its lesson's plan (the silent voice) refers to two
    audio clips, and clean removes only the clips and the Manim folder that nothing refers to."""
    monkeypatch.setenv(COURSE_ENV, str(mini))
    monkeypatch.delenv(NARRATION_ENV, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the course's folder goes first on it: taken back after
    out = "clean_media"
    media = mini / out
    cfg = parse_config({"output": out})
    course = load_course(cfg.lessons)
    lexicon = Lexicon.load()
    plan = plan_lesson(
        course.lesson("counting"),
        cfg,
        15,
        make_voice("silent", cfg.voice, lexicon),
        AudioCache(tmp_path / "plan_audio"),
        lexicon,
    )
    (media / "plan" / "15fps").mkdir(parents=True)
    # give two cues an audio file so the plan refers to them
    import dataclasses

    s0 = plan.scenes[0]
    cues = [dataclasses.replace(c, audio=f"{out}/cache/audio/{'a' * 63}{i}.wav") for i, c in enumerate(s0.cues[:2])]
    plan = dataclasses.replace(plan, scenes=[dataclasses.replace(s0, cues=cues + s0.cues[2:])] + plan.scenes[1:])
    (media / "plan" / "15fps" / "counting.json").write_text(plan.to_json(), encoding="utf-8")
    audio = media / "cache" / "audio"
    audio.mkdir(parents=True)
    keep = [audio / f"{'a' * 63}{i}{ext}" for i in range(2) for ext in (".wav", ".json")]
    stale = [audio / f"{'b' * 64}{ext}" for ext in (".wav", ".json")]
    for f in keep + stale:
        f.write_bytes(b"x" * 1000)
    (media / "manim" / "count_dots").mkdir(parents=True)
    (media / "manim" / "gone_scene").mkdir(parents=True)
    (media / "manim" / "gone_scene" / "v.mp4").write_bytes(b"y" * 5000)
    n, freed = clean(MediaLayout(media), course)
    assert all(f.exists() for f in keep)
    assert not any(f.exists() for f in stale)
    assert (media / "manim" / "count_dots").exists() and not (media / "manim" / "gone_scene").exists()
    assert n == 3 and freed == 2000 + 5000
    shutil.rmtree(media)


# -- after a real run: clean leaves exactly what the layout keeps (issue 27) ---------------------------
def _studio_run(course: Path) -> dict:
    """`render.py studio` on the course: build count_dots's preview, wait until every scene's preview is
    fresh and its viewer check cached, then stop it with SIGINT (as its author does, with Ctrl-C)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = course / "studio.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "render.py"), "studio", "--course", str(course), "--port", str(port)],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=mini_runs.env(),
        )

    def call(path: str, method: str = "GET", headers: dict | None = None) -> dict:
        req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, headers=headers or {})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())

    def checked() -> dict | None:
        assert proc.poll() is None, log.read_text()
        rows = {r["scene"]: r for lesson in call("/api/scenes")["lessons"] for r in lesson["scenes"]}
        return rows if all(r["preview"] == "fresh" and r["findings"] is not None for r in rows.values()) else None

    try:
        mini_runs.wait_for(
            lambda: proc.poll() is not None or re.search(r"studio: http://", log.read_text()),
            120,
            0.2,
            "the studio to listen",
        )
        assert proc.poll() is None, log.read_text()
        call("/api/scene/count_dots/build", "POST", {"X-Coursekit-Studio": "1"})
        return mini_runs.wait_for(checked, 900, 1.0, "the studio's preview and viewer checks")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        shutil.copytree(src, dst)
    else:
        shutil.copy2(src, dst)


def _files(media: Path) -> dict[str, bytes]:
    return {p.relative_to(media).as_posix(): p.read_bytes() for p in sorted(media.rglob("*")) if p.is_file()}


@pytest.mark.render
def test_after_a_full_run_and_a_studio_run_clean_leaves_only_what_the_layout_keeps(made_mini, tmp_path):
    """The mini course made by every command that writes (course, subtitles, preview, listen, inspect,
    export handout, the listening check) and by the studio; then a stale copy of one of everything that belongs to a lesson, a
    scene or an audio clip, under names the course does not have, and a killed writer's temporary file.
    Every file on disk is one of the layout's entries, before clean and after (a new output the layout does
    not list fails here); after clean, only what the layout keeps is left, unchanged, and the entries it
    removes are gone. It starts from a copy of the run's made mini course (check, plan, course, subtitles,
    preview closing: what those commands write is there, and run again on the copy they would add no file),
    and runs the commands that write the rest."""
    course = tmp_path / "mini"
    shutil.copytree(made_mini.course, course)
    for args in (("listen", "closing"), ("inspect",), ("export", "handout")):
        mini_runs.ok(mini_runs.run(course, *args))
    speech = mini_runs.run(course, "check", "--speech", "--sample", "1")  # exit 1: espeak is flagged
    assert speech.returncode in (0, 1) and "Traceback" not in speech.stderr, speech.stderr[-2000:]
    _studio_run(course)

    media = course / "media"
    layout = MediaLayout(media)
    assert layout.unlisted() == [], "files that no entry of coursekit/core/layout.py names"
    made = {e.name for e in ENTRIES if layout.found(e)}
    # the exports: the mini course is too short for the platforms' chapter rules, so `export` refuses it and
    # writes nothing (tests/engine/deliver/test_export.py makes them from the real course's plans)
    exports = {"youtube_chapters", "youtube_subtitles", "bilibili_chapters", "bilibili_subtitles"}
    assert made == {e.name for e in ENTRIES} - {"bench", "temporary"} - exports, "entries the runs did not exercise"

    scenes, lessons = {"count_dots", "closing"}, {"counting"}  # the mini course's
    plan = LessonPlan.read(layout.lesson_plan("counting", 15))
    clips = {Path(c.audio).stem for s in plan.scenes for c in s.cues if c.audio}
    digests = {c.audio_sha256 for s in plan.scenes for c in s.cues if c.audio_sha256}
    stale: list[Path] = []
    for entry in ENTRIES:
        if entry.clean != STALE or entry.name == "temporary" or entry.name in exports:
            continue
        path, got = layout.found(entry)[0]
        if entry.of in ("scene", "lesson", "plan"):
            copy = media / entry.relative(**{**got, "scene" if entry.of == "scene" else "lesson": "gone_away"})
        else:  # an audio clip, or a transcript, that no plan uses
            copy = media / entry.relative(**{**got, "key": "f" * 64})
        _copy(path, copy)
        if entry.of == "transcript":
            doc = json.loads(copy.read_text(encoding="utf-8"))
            copy.write_text(json.dumps({**doc, "audio_sha256": "e" * 64}), encoding="utf-8")
        stale.append(copy)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    leftover = layout.previews / f".closing.{dead.pid}-1.tmp.mp4"  # a writer killed mid-write
    leftover.write_bytes(b"half a video")
    assert layout.entry_of(leftover)[0].name == "temporary" and layout.unlisted() == []
    before = _files(media)

    out = mini_runs.ok(mini_runs.run(course, "clean")).stdout
    assert re.search(r"removed \d+ .*freed", out), out

    after = _files(media)
    assert layout.unlisted() == [], "clean left files that no entry names"
    assert [p for p in stale + [leftover] if p.exists()] == []
    for entry in ENTRIES:
        if entry.clean == REMOVED:
            assert not layout.found(entry), f"{entry.path}: the layout says clean removes it"
    for rel, data in after.items():
        entry, got = layout.entry_of(media / rel)
        assert entry.clean in (KEPT, STALE), f"{rel}: {entry.path} is {entry.clean}"
        if entry.clean == STALE:
            current = {
                "scene": lambda: got["scene"] in scenes,
                "lesson": lambda: got["lesson"] in lessons,
                "plan": lambda: got["lesson"] in lessons,
                "audio": lambda: got["key"] in clips,
                "transcript": lambda: json.loads(data)["audio_sha256"] in digests,
            }[entry.of]()
            assert current, f"{rel}: {entry.path} is {entry.when_cleaned}"
        assert data == before[rel], f"{rel}: changed by clean"
    kept = {rel for rel in before if layout.entry_of(media / rel)[0].clean == KEPT}
    assert kept <= set(after), f"kept entries removed: {sorted(kept - set(after))}"
    current = {
        rel
        for rel in before
        if layout.entry_of(media / rel)[0].clean == STALE
        and not rel.startswith(tuple(layout.relative(p).as_posix() for p in stale + [leftover]))
    }
    assert current <= set(after), f"current files removed: {sorted(current - set(after))}"
