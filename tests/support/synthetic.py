"""A tiny synthetic two-scene lesson, assembled without Manim (shared by assembly and page tests)."""

import subprocess
from pathlib import Path

from coursekit.assemble.lesson_video import assemble_lesson
from coursekit.core.config import parse_config
from coursekit.plan.model import CuePlan, LessonPlan, ScenePlan, SubtitleEvent

FPS = 15


def make_scene_video(path: Path, frames: int, hue: int) -> Path:
    # every frame differs (moving test pattern + frame counter), so a duplicated or dropped frame shows
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            f"testsrc2=size=854x480:rate={FPS}",
            "-vf",
            f"hue=h={hue}",
            "-frames:v",
            str(frames),
            "-c:v",
            "libx264",
            "-preset",
            "superfast",
            "-pix_fmt",
            "yuv420p",
            "-g",
            "300",
            str(path),
        ],
        check=True,
    )
    return path


def framemd5(path: Path) -> list[str]:
    out = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:v:0", "-f", "framemd5", "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line.rsplit(",", 1)[1].strip() for line in out.splitlines() if line and not line.startswith("#")]


def synthetic_plan() -> LessonPlan:
    """Two scenes (37 + 46 frames at 15 fps), five subtitle events with gaps between them, tag-like and
    <script> text, and a question, its pause to think and its answer (cue roles) in the second scene."""

    def cue(sid, name, start, frames, events, role=None):
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

    def scene(sid, title, start, frames, cues):
        return ScenePlan(sid, "X", title, ["trig_to_rope §0"], start, frames, FPS, cues)

    a = scene(
        "alpha",
        "第一章：指针",
        0,
        37,
        [
            cue("alpha", "only", 8, 12, [(533, 1300, "指针转起来。")]),
            cue("alpha", "seat", 21, 14, [(1400, 2300, "RoPE <script>alert(1)</script> 转座位。")]),
        ],
    )
    b = scene(
        "beta",
        "第二章 <旋转> & 角度",
        37,
        46,
        [
            cue("beta", "ask", 3, 12, [(200, 1000, "问：角<i>能</i>相加吗？")], role="question"),
            cue("beta", "think", 16, 9, [(1100, 1600, "想一想。")], role="think"),
            cue("beta", "only", 27, 17, [(1900, 2900, "角<b>可</b>&加-->。")], role="answer"),
        ],
    )
    return LessonPlan("trig_to_rope", "测试课", FPS, 83, "silent", [a, b])


def build_assembled(tmp: Path):
    plan = synthetic_plan()
    videos = [make_scene_video(tmp / "alpha.mp4", 37, 0), make_scene_video(tmp / "beta.mp4", 46, 120)]
    cfg = parse_config({"video": {"quality": "low"}})
    outdir = tmp / "course" / "trig_to_rope"
    files = assemble_lesson(cfg, plan, videos, outdir, work=tmp / "work")
    return plan, videos, outdir, files


def build_course(tmp: Path) -> tuple[LessonPlan, dict, Path]:
    """The synthetic lesson made the way ``render.py course`` makes a course (``assemble_course``) in a
    course root of its own, ``tmp``: returns the plan, the manifest and media/course."""
    import json
    import os

    from coursekit.assemble.lesson_video import assemble_course
    from coursekit.content.narration import Course
    from coursekit.core.layout import MediaLayout
    from coursekit.core.paths import COURSE_ENV

    plan = synthetic_plan()
    scenes = tmp / "media" / "scenes" / "low"
    scenes.mkdir(parents=True, exist_ok=True)
    for s, hue in zip(plan.scenes, (0, 120)):
        make_scene_video(scenes / f"{s.id}.mp4", s.frames, hue)
    before = os.environ.get(COURSE_ENV)
    os.environ[COURSE_ENV] = str(tmp)
    try:
        cfg = parse_config({"video": {"quality": "low"}})
        assemble_course(cfg, MediaLayout(tmp / "media"), Course(), [plan])
    finally:
        if before is None:
            os.environ.pop(COURSE_ENV, None)
        else:
            os.environ[COURSE_ENV] = before
    course_dir = tmp / "media" / "course"
    return plan, json.loads((course_dir / "manifest.json").read_text(encoding="utf-8")), course_dir
