"""A tiny synthetic two-scene lesson, assembled without Manim (shared by assembly and page tests)."""
import subprocess
from pathlib import Path

from coursekit.assemble.lesson_video import assemble_lesson
from coursekit.core.config import parse_config
from coursekit.plan.model import CuePlan, LessonPlan, ScenePlan, SubtitleEvent

FPS = 15


def make_scene_video(path: Path, frames: int, hue: int) -> Path:
    # every frame differs (moving test pattern + frame counter), so a duplicated or dropped frame shows
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"testsrc2=size=854x480:rate={FPS}", "-vf", f"hue=h={hue}", "-frames:v", str(frames),
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "300", str(path)], check=True)
    return path


def framemd5(path: Path) -> list[str]:
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:v:0", "-f", "framemd5", "-"],
                         capture_output=True, text=True, check=True).stdout
    return [line.rsplit(",", 1)[1].strip() for line in out.splitlines() if line and not line.startswith("#")]


def synthetic_plan() -> LessonPlan:
    def scene(sid, title, start, frames, text):
        cue = CuePlan(id=f"{sid}.only", text=text, spoken=text, start_frame=8, frames=frames - 20,
                      speech_frames=frames - 20, audio=None, audio_sha256=None, voice="silent",
                      subtitles=[SubtitleEvent(533, 533 + 1500, text)])
        return ScenePlan(sid, "X", title, ["trig_to_rope §0"], start, frames, FPS, [cue])
    a = scene("alpha", "第一章：指针", 0, 37, "指针转起来。")
    b = scene("beta", "第二章 <旋转> & 角度", 37, 46, "角<b>可</b>&加-->。")
    return LessonPlan("trig_to_rope", "测试课", FPS, 83, "silent", [a, b])



def build_assembled(tmp: Path):
    plan = synthetic_plan()
    videos = [make_scene_video(tmp / "alpha.mp4", 37, 0), make_scene_video(tmp / "beta.mp4", 46, 120)]
    cfg = parse_config({"video": {"quality": "low"}})
    outdir = tmp / "course" / "trig_to_rope"
    files = assemble_lesson(cfg, plan, videos, outdir, work=tmp / "work")
    return plan, videos, outdir, files
