"""Exports for the video platforms (issue 28, coursekit/deliver/export.py, `render.py export youtube|bilibili`).

- The real narration's plans (silent voice, no video): the manifest's lesson entries as assembly makes them
  (``manifest_lesson``), exported; every validator passes, the chapter times are the scenes' first frames,
  and every character of every cue's text is in the subtitles, at the plan's times.
- Each validator fails on a broken input: a chapter list starting at 0:05, two chapters, a 5 s chapter,
  out of order, a line that is not a time; BCC with from > to, overlapping events, missing keys, empty text;
  SRT likewise.
- The command on a course assembled by ``assemble_course`` (synthetic scene videos): the files land under
  media/export/<platform>/, the SRT is the delivered one byte for byte, the BCC keeps every character; a
  lesson that breaks YouTube's rules, an unknown lesson and a folder with no delivered course are one line
  and exit status 2, with nothing written.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import srt

from coursekit.assemble.lesson_video import manifest_lesson
from coursekit.content.narration import Course, load_course
from coursekit.core.config import load_config, parse_config
from coursekit.core.paths import COURSE_ENV
from coursekit.deliver.export import (
    BCC_STYLE,
    bcc,
    bilibili_clock,
    chapter_list,
    check_bcc,
    check_bilibili_chapters,
    check_srt,
    check_youtube_chapters,
    youtube_clock,
)
from coursekit.plan.model import CuePlan, LessonPlan, ScenePlan, SubtitleEvent
from tests.support.course_scenes import narration_plans

ROOT = Path(__file__).resolve().parents[3]
YOUTUBE_LINE = re.compile(r"(\d+):(\d{2}) (.+)")  # the lessons are shorter than an hour
BILIBILI_LINE = re.compile(r"(\d{2}):(\d{2}) (.+)")
BCC_KEYS = {"font_size", "font_color", "background_alpha", "background_color", "Stroke", "body"}


def _squeezed(text: str) -> str:
    return "".join(text.split())


# --- the real narration's lessons ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def real_lessons() -> list[tuple[LessonPlan, dict]]:
    cfg = load_config(None, **{"voice.backend": "silent"})
    course = load_course(cfg.lessons)
    return [(plan, manifest_lesson(cfg, course, plan, [])) for plan in narration_plans(15).values()]


def _scene_starts_s(plan: LessonPlan) -> list[int]:
    """Each scene's first frame, in whole seconds (a chapter mark is never after its scene starts)."""
    return [s.start_frame // plan.fps for s in plan.scenes]


def test_youtube_chapters_of_the_real_lessons(real_lessons):
    assert len(real_lessons) == 3
    for plan, entry in real_lessons:
        text = chapter_list(entry["chapters"], youtube_clock)
        assert check_youtube_chapters(text, entry["duration_s"]) == []
        rows = [YOUTUBE_LINE.fullmatch(line).groups() for line in text.splitlines()]
        assert [int(m) * 60 + int(s) for m, s, _ in rows] == _scene_starts_s(plan)
        assert [t for _, _, t in rows] == [s.title for s in plan.scenes]
        assert text.splitlines()[0].startswith("0:00 ")


def test_bilibili_chapters_of_the_real_lessons(real_lessons):
    for plan, entry in real_lessons:
        text = chapter_list(entry["chapters"], bilibili_clock)
        assert check_bilibili_chapters(text, entry["duration_s"]) == []
        rows = [BILIBILI_LINE.fullmatch(line).groups() for line in text.splitlines()]
        assert [int(m) * 60 + int(s) for m, s, _ in rows] == _scene_starts_s(plan)
        assert [t for _, _, t in rows] == [s.title for s in plan.scenes]
        assert text.startswith("00:00 ")


def test_bcc_of_the_real_lessons_keeps_every_character_at_the_plans_times(real_lessons):
    for plan, entry in real_lessons:
        doc = json.loads(json.dumps(bcc(entry["subtitles"]), ensure_ascii=False))  # as the file holds it
        assert check_bcc(doc, entry["duration_s"]) == []
        assert set(doc) == BCC_KEYS and all(set(item) == {"from", "to", "location", "content"} for item in doc["body"])
        assert {item["location"] for item in doc["body"]} == {2}  # bottom centre
        written = "".join(c.text for s in plan.scenes for c in s.cues)
        assert _squeezed("".join(item["content"] for item in doc["body"])) == _squeezed(written)
        # each event at its scene's start (in whole ms of the lesson) plus its own times in the scene
        planned = sorted(
            (round(s.start_frame * 1000 / s.fps) + e.start_ms, round(s.start_frame * 1000 / s.fps) + e.end_ms)
            for s in plan.scenes
            for c in s.cues
            for e in c.subtitles
        )
        assert [(round(i["from"] * 1000), round(i["to"] * 1000)) for i in doc["body"]] == planned


# --- each validator fails on a broken input --------------------------------------------------------------
GOOD_YOUTUBE = "0:00 开场\n0:12 第二章\n0:40 第三章\n"


@pytest.mark.parametrize(
    "text, duration, rule",
    [
        ("0:05 开场\n0:20 第二章\n0:40 第三章\n", 60, "first"),  # the first not at 0:00
        ("0:00 开场\n0:30 第二章\n", 60, "count"),  # two chapters
        ("0:00 开场\n0:12 第二章\n0:17 第三章\n0:40 第四章\n", 60, "length"),  # a 5 s chapter
        ("0:00 开场\n0:30 第二章\n0:20 第三章\n", 60, "order"),  # out of order
        (GOOD_YOUTUBE, 45, "length"),  # the last only 5 s to the end
        ("0:00 开场\n12 第二章\n0:40 第三章\n", 60, "format"),  # not a time
        ("0:00 开场\n0:75 第二章\n1:40 第三章\n", 120, "format"),  # 75 seconds is no clock
        ("", 60, "count"),
    ],
)
def test_youtube_chapter_rules(text, duration, rule):
    assert check_youtube_chapters(GOOD_YOUTUBE, 60) == []
    assert rule in {p.rule for p in check_youtube_chapters(text, duration)}


def test_youtube_accepts_hours_and_a_leading_zero():
    assert check_youtube_chapters("00:00 开场\n10:00 中间\n1:02:03 最后\n", 4000) == []


GOOD_BILIBILI = "00:00 开场\n00:12 第二章\n00:40 第三章\n"


@pytest.mark.parametrize(
    "text, duration, rule",
    [
        ("00:05 开场\n00:20 第二章\n", 60, "first"),
        ("00:00 开场\n00:12 第二章\n00:14 第三章\n", 60, "length"),  # a 2 s chapter
        ("00:00 开场\n00:30 第二章\n00:20 第三章\n", 60, "order"),
        ("".join(f"{k // 60:02d}:{k % 60:02d} 第{k}段\n" for k in range(0, 110, 10)), 200, "count"),  # 11 chapters
        ("00:00 开场\n00:20 " + "长" * 17 + "\n", 60, "title"),
        ("00:00 开场\n0:20 第二章\n", 60, "format"),
        ("", 60, "count"),
    ],
)
def test_bilibili_chapter_rules(text, duration, rule):
    assert check_bilibili_chapters(GOOD_BILIBILI, 60) == []
    assert rule in {p.rule for p in check_bilibili_chapters(text, duration)}


def _good_bcc() -> dict:
    return bcc(
        [
            {"start_ms": 500, "end_ms": 1800, "text": "指针转起来。"},
            {"start_ms": 1900, "end_ms": 3200, "text": "第一行\n第二行"},
        ]
    )


def _broken(change) -> dict:
    doc = copy.deepcopy(_good_bcc())
    change(doc)
    return doc


@pytest.mark.parametrize(
    "doc, rule",
    [
        (_broken(lambda d: d["body"][0].update({"from": 2.0, "to": 1.0})), "timing"),  # from > to
        (_broken(lambda d: d["body"][0].update({"to": 1.0, "from": 1.0})), "timing"),  # from = to
        (_broken(lambda d: d["body"][1].update({"from": 1.5})), "timing"),  # overlapping
        (_broken(lambda d: d["body"][0].update({"from": -0.5})), "timing"),
        (_broken(lambda d: d.pop("Stroke")), "format"),  # a missing key
        (_broken(lambda d: d.pop("body")), "format"),
        (_broken(lambda d: d["body"][1].pop("content")), "format"),
        (_broken(lambda d: d["body"][1].pop("location")), "format"),
        (_broken(lambda d: d["body"][0].update({"content": "  "})), "content"),  # empty content
        (_broken(lambda d: d["body"][0].update({"content": ""})), "content"),
        (_broken(lambda d: d["body"][0].update({"from": "0.5"})), "format"),  # a time as text
        (_broken(lambda d: d["body"][0].update({"location": True})), "format"),
        (_broken(lambda d: d.update({"font_color": "white"})), "format"),
        (_broken(lambda d: d.update({"background_alpha": 2})), "format"),
        (_broken(lambda d: d.update({"body": []})), "format"),
        ([], "format"),
    ],
)
def test_bcc_rules(doc, rule):
    assert check_bcc(_good_bcc(), 10) == []
    assert rule in {p.rule for p in check_bcc(doc)}


def test_bcc_ends_within_the_video():
    assert {p.rule for p in check_bcc(_good_bcc(), 3.0)} == {"timing"}


GOOD_SRT = "1\n00:00:00,500 --> 00:00:01,800\n指针转起来。\n\n2\n00:00:01,900 --> 00:00:03,200\n第一行\n第二行\n\n"


@pytest.mark.parametrize(
    "text, rule",
    [
        (GOOD_SRT.replace("00:00:01,800", "00:00:00,400"), "timing"),  # ends before it starts
        (GOOD_SRT.replace("00:00:01,900", "00:00:01,000"), "timing"),  # overlapping
        ("1\n00:00:00,500 --> 00:00:01,800\n\n\n", "content"),  # no text
        ("1\n00:00:00,500 -> 00:00:01,800\n指针\n", "format"),  # not SubRip
        ("", "format"),
    ],
)
def test_srt_rules(text, rule):
    assert check_srt(GOOD_SRT, 10) == []
    assert rule in {p.rule for p in check_srt(text)}


# --- the command on a delivered course ---------------------------------------------------------------------
FPS = 15
LESSON = "trig_to_rope"
TEXTS = {
    "alpha": ["指针转起来。", "RoPE 把 q 和 k 转起来，a<b & c>d。"],
    "beta": ["角<i>能</i>相加吗？", "第一行很长很长很长很长很长很长很长很长。"],
    "gamma": ["“引号”与 --> 箭头。", "收尾。"],
}
SCENES = (("alpha", "第一章：指针", 165), ("beta", "第二章：角度", 180), ("gamma", "第三章：收尾", 200))


def _plan() -> LessonPlan:
    scenes, start = [], 0
    for sid, title, frames in SCENES:
        cues = []
        for k, text in enumerate(TEXTS[sid]):
            a = 15 + k * 70
            cues.append(
                CuePlan(
                    id=f"{sid}.c{k}",
                    text=text,
                    spoken=text,
                    start_frame=a,
                    frames=60,
                    speech_frames=60,
                    audio=None,
                    audio_sha256=None,
                    voice="silent",
                    subtitles=[SubtitleEvent(a * 1000 // FPS, (a + 55) * 1000 // FPS, text)],
                )
            )
        scenes.append(ScenePlan(sid, "X", title, [f"{LESSON} §0"], start, frames, FPS, cues))
        start += frames
    return LessonPlan(LESSON, "测试课", FPS, start, "silent", scenes)


def _scene_video(path: Path, frames: int) -> Path:
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            f"testsrc2=size=320x180:rate={FPS}",
            "-frames:v",
            str(frames),
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-pix_fmt",
            "yuv420p",
            str(path),
        ],
        check=True,
    )
    return path


@pytest.fixture(scope="module")
def delivered(tmp_path_factory):
    """A course root with a delivered course (``assemble_course``): (root, plan, manifest)."""
    import os

    from coursekit.assemble.lesson_video import assemble_course
    from coursekit.core.layout import MediaLayout

    root = tmp_path_factory.mktemp("export")
    plan = _plan()
    scenes = root / "media" / "scenes" / "low"
    scenes.mkdir(parents=True)
    for sid, _, frames in SCENES:
        _scene_video(scenes / f"{sid}.mp4", frames)
    before = os.environ.get(COURSE_ENV)
    os.environ[COURSE_ENV] = str(root)
    try:
        assemble_course(parse_config({"video": {"quality": "low"}}), MediaLayout(root / "media"), Course(), [plan])
    finally:
        if before is None:
            os.environ.pop(COURSE_ENV, None)
        else:
            os.environ[COURSE_ENV] = before
    manifest = json.loads((root / "media" / "course" / "manifest.json").read_text(encoding="utf-8"))
    return root, plan, manifest


def _export(monkeypatch, capsys, root: Path, *args: str) -> tuple[int, str, str]:
    from coursekit.cli.main import main

    monkeypatch.setenv(COURSE_ENV, str(root))
    code = main(["export", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _exports(root: Path) -> dict[str, bytes]:
    folder = root / "media" / "export"
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_export_youtube(delivered, monkeypatch, capsys):
    root, plan, manifest = delivered
    code, out, err = _export(monkeypatch, capsys, root, "youtube")
    assert code == 0, err
    files = _exports(root)
    assert set(files) == {f"youtube/{LESSON}.chapters.txt", f"youtube/{LESSON}.srt"}
    assert files[f"youtube/{LESSON}.srt"] == (root / "media" / "course" / LESSON / f"{LESSON}.srt").read_bytes()
    chapters = files[f"youtube/{LESSON}.chapters.txt"].decode("utf-8")
    rows = [YOUTUBE_LINE.fullmatch(line).groups() for line in chapters.splitlines()]
    assert [(int(m) * 60 + int(s), t) for m, s, t in rows] == [
        (c["start_ms"] // 1000, c["title"]) for c in manifest["lessons"][0]["chapters"]
    ]
    assert [(int(m) * 60 + int(s)) for m, s, _ in rows] == [0, 11, 23]  # the scenes start at frames 0, 165, 345
    subs = list(srt.parse(files[f"youtube/{LESSON}.srt"].decode("utf-8")))
    assert _squeezed("".join(s.content for s in subs)) == _squeezed("".join(sum(TEXTS.values(), [])))
    assert f"media/export/youtube/{LESSON}.srt" in out


def test_export_bilibili(delivered, monkeypatch, capsys):
    root, plan, manifest = delivered
    code, _, err = _export(monkeypatch, capsys, root, "bilibili", "--lesson", LESSON)
    assert code == 0, err
    files = _exports(root)
    doc = json.loads(files[f"bilibili/{LESSON}.bcc"].decode("utf-8"))
    assert check_bcc(doc, manifest["lessons"][0]["duration_s"]) == []
    assert {k: doc[k] for k in BCC_STYLE} == {
        "font_size": 0.4,
        "font_color": "#FFFFFF",
        "background_alpha": 0.5,
        "background_color": "#9C27B0",
        "Stroke": "none",
    }
    events = [
        (s.start_frame * 1000 // FPS + e.start_ms, s.start_frame * 1000 // FPS + e.end_ms, e.text)
        for s in plan.scenes
        for c in s.cues
        for e in c.subtitles
    ]  # the scenes start on whole ms
    assert [(round(i["from"] * 1000), round(i["to"] * 1000), _squeezed(i["content"])) for i in doc["body"]] == [
        (a, b, _squeezed(t)) for a, b, t in events
    ]
    assert "a<b & c>d" in doc["body"][1]["content"] and "<i>能</i>" in doc["body"][2]["content"]
    chapters = files[f"bilibili/{LESSON}.chapters.txt"].decode("utf-8")
    assert chapters == "00:00 第一章：指针\n00:11 第二章：角度\n00:23 第三章：收尾\n"


def test_a_lesson_that_breaks_youtubes_rules_is_one_line_and_nothing_is_written(
    delivered, tmp_path, monkeypatch, capsys
):
    import shutil

    root, _, manifest = delivered
    broken = tmp_path / "course"
    shutil.copytree(root / "media" / "course", broken / "media" / "course")
    short = copy.deepcopy(manifest)
    chapters = short["lessons"][0]["chapters"]
    chapters[1]["start_ms"] = chapters[2]["start_ms"] - 5000  # the second chapter lasts 5 s
    (broken / "media" / "course" / "manifest.json").write_text(json.dumps(short, ensure_ascii=False), encoding="utf-8")
    code, out, err = _export(monkeypatch, capsys, broken, "youtube")
    assert code == 2
    (line,) = err.strip().splitlines()
    assert LESSON in line and "chapter 2 '第二章：角度'" in line and "10 s" in line and "beta" in line
    assert not (broken / "media" / "export").exists() or not _exports(broken)


def test_unknown_lesson_is_one_line(delivered, monkeypatch, capsys):
    root, _, _ = delivered
    before = _exports(root) if (root / "media" / "export").exists() else {}
    code, _, err = _export(monkeypatch, capsys, root, "youtube", "--lesson", "no_such_lesson")
    assert code == 2
    (line,) = err.strip().splitlines()
    assert "no_such_lesson" in line and LESSON in line
    assert (_exports(root) if (root / "media" / "export").exists() else {}) == before


def test_no_delivered_course_is_one_line_without_a_traceback(tmp_path):
    import os

    env = {**os.environ, COURSE_ENV: str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "render.py"), "export", "bilibili"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    (line,) = proc.stderr.strip().splitlines()
    assert "no delivered course" in line and "render.py course" in line and "Traceback" not in proc.stderr
    assert not (tmp_path / "media" / "export").exists()


@pytest.mark.parametrize(
    "manifest",
    [
        "{",  # not JSON
        json.dumps({"lessons": []}),  # no lesson
        json.dumps({"lessons": [{"lesson": LESSON, "chapters": [], "subtitles": []}]}),  # no duration
        json.dumps(
            {"lessons": [{"lesson": LESSON, "duration_s": 30, "chapters": [{"title": "无时间"}], "subtitles": []}]}
        ),  # a chapter without its time
    ],
)
def test_a_manifest_that_cannot_be_read_is_one_line(manifest, tmp_path, monkeypatch, capsys):
    course = tmp_path / "media" / "course"
    course.mkdir(parents=True)
    (course / "manifest.json").write_text(manifest, encoding="utf-8")
    code, _, err = _export(monkeypatch, capsys, tmp_path, "youtube")
    assert code == 2
    (line,) = err.strip().splitlines()
    assert "manifest" in line and "render.py course" in line
    assert not (tmp_path / "media" / "export").exists()
