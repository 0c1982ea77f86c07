"""A small course for the player's tests (tests/engine/deliver/test_player.py, tests/engine/deliver/test_accessibility.py), assembled
without Manim the way ``render.py course`` assembles one (``assemble_course``), then its page written:

- four scenes at 15 fps (22.3 s): ``alpha`` (two lines), ``beta`` (a question without choices, its pause
  to think, its answer), ``gamma`` (a question with three choices, the second right, given by the
  narration), ``delta`` (a long last chapter, so ±10 s has room);
- every cue has character times (``LessonPlan.char_ms``), spread over its subtitle events as a voice
  without word boundaries would (``proportional_char_times``), so the transcript lights words;
- ``write_thumbnails`` makes seek-bar thumbnails as assembly will (``<lesson>/thumbnails.jpg``, a sprite
  of one 160×90 tile a second, and ``thumbnails.vtt`` whose cues are ``thumbnails.jpg#xywh=X,Y,W,H``).

``shared_player_course`` is that course made once per test run for the files that only read it (the player's
and the accessibility tests: about 10 CPU seconds of ffmpeg each time it is made).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from coursekit.content.narration import Course, Cue, Lesson, Scene
from coursekit.plan.model import CuePlan, LessonPlan, ScenePlan, SubtitleEvent
from coursekit.subtitles.events import proportional_char_times
from tests.support.synthetic import FPS, make_scene_video

LESSON = "trig_to_rope"
CHOICES = ("角不能相加", "角可以相加，两次旋转合成一次", "只有 90° 可以")
TILE_W, TILE_H, TILES_PER_ROW = 160, 90, 5


def _cue(sid, name, start, frames, events, role=None):
    text = "".join(t for _, _, t in events)
    return CuePlan(
        id=f"{sid}.{name}",
        text=text,
        spoken=text,
        start_frame=start,
        frames=frames,
        speech_frames=frames,
        audio=None,
        audio_sha256=None,
        voice="silent",
        subtitles=[SubtitleEvent(a, b, t) for a, b, t in events],
        role=role,
    )


def player_plan() -> LessonPlan:
    def scene(sid, title, start, frames, cues):
        return ScenePlan(sid, "X", title, [f"{LESSON} §0"], start, frames, FPS, cues)

    scenes = [
        scene(
            "alpha",
            "第一章：指针",
            0,
            37,
            [
                _cue("alpha", "only", 8, 12, [(533, 1300, "指针转起来。")]),
                _cue("alpha", "seat", 21, 14, [(1400, 2300, "RoPE 转座位，q 和 k。")]),
            ],
        ),
        scene(
            "beta",
            "第二章：角度",
            37,
            46,
            [
                _cue("beta", "ask", 3, 12, [(200, 1000, "问：角能相加吗？")], role="question"),
                _cue("beta", "think", 16, 9, [(1100, 1600, "想一想。")], role="think"),
                _cue("beta", "only", 27, 17, [(1900, 2900, "角可以相加。")], role="answer"),
            ],
        ),
        scene(
            "gamma",
            "第三章：选一选",
            83,
            52,
            [
                _cue("gamma", "ask", 3, 15, [(200, 1000, "选一选：两次旋转合起来是什么？")], role="question"),
                _cue("gamma", "think", 19, 12, [(1300, 2000, "先想一想。")], role="think"),
                _cue("gamma", "ans", 33, 17, [(2200, 3300, "一次转过两个角之和的旋转。")], role="answer"),
            ],
        ),
        scene(
            "delta",
            "第四章：长长的一章",
            135,
            200,
            [
                _cue("delta", "one", 6, 60, [(400, 3900, "这一章很长，留出前进和后退的余地。")]),
                _cue("delta", "two", 70, 120, [(4700, 9000, "Transformer 读的是一袋词，座位要另外告诉它。")]),
            ],
        ),
    ]
    char_ms: dict[str, list[int]] = {}
    for s in scenes:
        for c in s.cues:
            times = []
            for a, b, text in ((e.start_ms, e.end_ms, e.text) for e in c.subtitles):
                spans = proportional_char_times(text, a, b - 150)
                times += [round(x) for x, _ in spans]
            char_ms[c.id] = times + [c.subtitles[-1].end_ms - 150]
    frames = sum(s.frames for s in scenes)
    return LessonPlan(LESSON, "测试课", FPS, frames, "silent", scenes, char_ms)


def player_narration(plan: LessonPlan) -> Course:
    """The narration the plan was made from, as far as the manifest reads it: gamma's question gives choices."""
    scenes = []
    for s in plan.scenes:
        cues = tuple(
            Cue(
                c.id,
                c.text,
                None,
                0.0,
                1,
                c.role,
                choices=CHOICES if c.id == "gamma.ask" else (),
                correct=2 if c.id == "gamma.ask" else None,
            )
            for c in s.cues
        )
        scenes.append(Scene(s.id, s.cls, s.title, tuple(s.source), cues, plan.lesson, 1))
    return Course([Lesson(plan.lesson, plan.title, tuple(scenes), Path("narration") / f"{plan.lesson}.yaml")])


def write_thumbnails(course_dir: Path, lesson: str, duration_s: float) -> tuple[Path, Path]:
    """``<lesson>/thumbnails.jpg`` (one tile a second, TILES_PER_ROW a row) and ``thumbnails.vtt``."""
    folder = course_dir / lesson
    n = int(duration_s) + (duration_s > int(duration_s))
    rows = -(-n // TILES_PER_ROW)
    jpg, vtt = folder / "thumbnails.jpg", folder / "thumbnails.vtt"
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-i",
            str(folder / f"{lesson}.mp4"),
            "-vf",
            f"fps=1,scale={TILE_W}:{TILE_H},tile={TILES_PER_ROW}x{rows}",
            "-frames:v",
            "1",
            "-q:v",
            "4",
            str(jpg),
        ],
        check=True,
    )

    def ts(s: float) -> str:
        ms = round(s * 1000)
        return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"

    cues = [
        f"{ts(k)} --> {ts(min(k + 1, duration_s))}\nthumbnails.jpg#xywh={k % TILES_PER_ROW * TILE_W},"
        f"{k // TILES_PER_ROW * TILE_H},{TILE_W},{TILE_H}\n"
        for k in range(n)
    ]
    vtt.write_text("WEBVTT\n\n" + "\n".join(cues), encoding="utf-8")
    return jpg, vtt


def build_player_course(tmp: Path, thumbnails: bool = True) -> tuple[LessonPlan, dict, Path]:
    """The course assembled in ``tmp`` (a course root of its own) and its page written: (plan, manifest,
    media/course)."""
    from coursekit.assemble.lesson_video import assemble_course
    from coursekit.core.config import parse_config
    from coursekit.core.layout import MediaLayout
    from coursekit.core.paths import COURSE_ENV
    from coursekit.deliver.page import write_page

    plan = player_plan()
    scenes = tmp / "media" / "scenes" / "low"
    scenes.mkdir(parents=True, exist_ok=True)
    for s, hue in zip(plan.scenes, (0, 120, 240, 60)):
        make_scene_video(scenes / f"{s.id}.mp4", s.frames, hue)
    before = os.environ.get(COURSE_ENV)
    os.environ[COURSE_ENV] = str(tmp)
    try:
        cfg = parse_config({"video": {"quality": "low"}})
        assemble_course(cfg, MediaLayout(tmp / "media"), player_narration(plan), [plan])
    finally:
        if before is None:
            os.environ.pop(COURSE_ENV, None)
        else:
            os.environ[COURSE_ENV] = before
    course_dir = tmp / "media" / "course"
    manifest = json.loads((course_dir / "manifest.json").read_text(encoding="utf-8"))
    if thumbnails:
        write_thumbnails(course_dir, LESSON, plan.frames / FPS)
    write_page(course_dir, manifest, [])
    return plan, manifest, course_dir


def shared_player_course(tmp_path_factory) -> tuple[LessonPlan, dict, Path]:
    """``build_player_course`` made once per test run (``tests.support.once``) and shared, read only, by the
    files that ask for it (their pages change only the browser's storage, never the served folder); the plan
    is ``player_plan()``, which is the same every time."""
    from tests.support.once import once_per_run

    course_dir = once_per_run(tmp_path_factory, "player-course", build_player_course) / "media" / "course"
    return player_plan(), json.loads((course_dir / "manifest.json").read_text(encoding="utf-8")), course_dir
