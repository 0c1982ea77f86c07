"""Assemble lesson videos: scene videos joined with streams copied, one narration track,
chapters, a soft subtitle track, side files, a poster, seek-bar thumbnails, and the course manifest and page."""

from __future__ import annotations

import contextlib
import importlib.metadata as md
import json
import os
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coursekit.assemble.thumbnails import write_thumbnails
from coursekit.content.narration import Course
from coursekit.core import stopping
from coursekit.core.atomic import replacing, write_text
from coursekit.core.config import DEFAULT_FONT, Config
from coursekit.core.layout import MediaLayout
from coursekit.core.media_tools import extract_frame, mux, need, run
from coursekit.core.paths import ENGINE_ROOT
from coursekit.plan.model import LessonPlan
from coursekit.render.soundtrack import write_delivered_scene_narration, write_lesson_narration
from coursekit.subtitles import files as subs
from coursekit.subtitles.word_times import page_subtitles


def _ffmeta_escape(text: str) -> str:
    out = text
    for ch in ("\\", "=", ";", "#"):
        out = out.replace(ch, "\\" + ch)
    return out.replace("\n", " ")


def chapter_times(plan: LessonPlan) -> list[tuple[int, int, str]]:
    """(start_ms, end_ms, title) for each scene, from whole frames."""
    return [
        (round(s.start_frame * 1000 / plan.fps), round((s.start_frame + s.frames) * 1000 / plan.fps), s.title)
        for s in plan.scenes
    ]


def write_ffmetadata(plan: LessonPlan, path: Path) -> Path:
    lines = [";FFMETADATA1", f"title={_ffmeta_escape(plan.title)}"]
    for start, end, title in chapter_times(plan):
        lines += ["[CHAPTER]", "TIMEBASE=1/1000", f"START={start}", f"END={end}", f"title={_ffmeta_escape(title)}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def timestamp(ms: int) -> str:
    s = ms // 1000
    h, m, sec = s // 3600, (s // 60) % 60, s % 60
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"


def chapters_text(plan: LessonPlan) -> str:
    return "".join(f"{timestamp(start)} {title}\n" for start, _, title in chapter_times(plan))


def transcript_text(plan: LessonPlan) -> str:
    parts = [plan.title, ""]
    for s in plan.scenes:
        parts.append(f"【{s.title}】")
        parts.append("".join(c.text for c in s.cues))
        parts.append("")
    return "\n".join(parts)


def concat_video(scene_videos: list[Path], out: Path) -> Path:
    """Join the scenes' video streams with the concat demuxer, streams copied (no re-encode)."""
    listing = out.with_suffix(".concat.txt")
    try:
        listing.write_text("".join(f"file '{p.resolve().as_posix()}'\n" for p in scene_videos), encoding="utf-8")
        with replacing(out) as tmp:
            run(
                [
                    need("ffmpeg"),
                    "-v",
                    "error",
                    "-y",
                    "-f",
                    "concat",
                    "-safe",
                    "0",
                    "-i",
                    str(listing),
                    "-map",
                    "0:v:0",
                    "-c",
                    "copy",
                    "-f",
                    "mp4",
                    str(tmp),
                ],
                f"join scenes into {out.name}",
            )
    finally:
        listing.unlink(missing_ok=True)
    return out


def assemble_lesson(
    cfg: Config,
    plan: LessonPlan,
    scene_videos: list[Path],
    outdir: Path,
    work: Path,
    thumbnails: bool = True,
) -> list[Path]:
    """The lesson's video and its side files in ``outdir``, its intermediate files in ``work``; with
    ``thumbnails``, the seek-bar thumbnails (``coursekit.assemble.thumbnails``: a sprite and its WebVTT
    track) made from the finished video."""

    lid = plan.lesson
    outdir.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    video = concat_video(scene_videos, work / "video.mp4")
    # the lesson's one narration track, 48 kHz stereo AAC, muxed below with its stream copied
    audio, _, _ = write_lesson_narration(plan, work / "narration.m4a")
    meta = write_ffmetadata(plan, work / "chapters.ffmeta")
    events = subs.lesson_events(plan, cfg.subtitles)
    srt = outdir / f"{lid}.srt"
    vtt = outdir / f"{lid}.vtt"
    subs.write_srt(events, srt, cfg.subtitles)
    subs.write_vtt(events, vtt, cfg.subtitles)  # the soft track is made from the VTT: ffmpeg's SRT reader drops tags
    mp4 = outdir / f"{lid}.mp4"
    with replacing(mp4) as tmp:
        run(
            [
                need("ffmpeg"),
                "-v",
                "error",
                "-y",
                "-i",
                str(video),
                "-i",
                str(audio),
                "-i",
                str(vtt),
                "-i",
                str(meta),
                "-map",
                "0:v:0",
                "-map",
                "1:a:0",
                "-map",
                "2:s:0",
                "-map_metadata",
                "3",
                "-map_chapters",
                "3",
                "-c:v",
                "copy",
                "-c:a",
                "copy",
                "-c:s",
                "mov_text",
                "-metadata:s:s:0",
                "language=zho",
                "-metadata:s:a:0",
                "language=zho",
                "-movflags",
                "+faststart",
                "-f",
                "mp4",
                str(tmp),
            ],
            f"assemble {mp4.name}",
        )
    outputs = [mp4, srt, vtt]
    poster_scene = plan.scenes[min(1, len(plan.scenes) - 1)]
    poster_png = extract_frame(mp4, poster_scene.start_frame + poster_scene.frames // 2, work / "poster.png")
    poster = outdir / f"{lid}.jpg"
    with replacing(poster) as tmp:
        run([need("ffmpeg"), "-v", "error", "-y", "-i", str(poster_png), "-q:v", "3", str(tmp)], "poster")
    outputs.append(poster)
    outputs.append(write_text(outdir / f"{lid}.txt", transcript_text(plan)))
    outputs.append(write_text(outdir / f"{lid}.chapters.txt", chapters_text(plan)))
    if thumbnails:
        outputs += write_thumbnails(mp4, outdir, plan.frames / plan.fps)
    if cfg.subtitles.burn_in:
        outputs.append(burn_in(mp4, srt, outdir / f"{lid}.burned.mp4", cfg.course.font))
    return outputs


def burn_in(mp4: Path, srt: Path, out: Path, font: str = DEFAULT_FONT) -> Path:
    """The one re-encoded output: subtitles drawn into the picture in the course's font."""
    style = f"FontName={font},FontSize=20,Outline=1,MarginV=18"
    srt_arg = str(srt).replace("\\", "\\\\").replace(":", "\\:").replace("'", "\\'")
    with replacing(out) as tmp:
        run(
            [
                need("ffmpeg"),
                "-v",
                "error",
                "-y",
                "-i",
                str(mp4),
                "-map",
                "0:v:0",
                "-map",
                "0:a:0",
                "-vf",
                f"subtitles='{srt_arg}':force_style='{style}'",
                "-c:v",
                "libx264",
                "-crf",
                "20",
                "-preset",
                "medium",
                "-c:a",
                "copy",
                "-map_chapters",
                "0",
                "-movflags",
                "+faststart",
                "-f",
                "mp4",
                str(tmp),
            ],
            f"burn subtitles into {out.name}",
        )
    return out


def _versions() -> dict[str, str]:
    def git_commit() -> str:
        try:
            return subprocess.run(
                ["git", "rev-parse", "HEAD"], cwd=ENGINE_ROOT, capture_output=True, text=True, check=True
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "unknown"

    ff = subprocess.run([need("ffmpeg"), "-version"], capture_output=True, text=True).stdout.split("\n", 1)[0]
    return {"git_commit": git_commit(), "manim": md.version("manim"), "edge_tts": md.version("edge-tts"), "ffmpeg": ff}


def _quiz_of(course: Course, cue_id: str) -> dict:
    """A question cue's ``choices`` and ``correct`` as its narration gives them (none: nothing)."""
    scene = course.scenes.get(cue_id.split(".", 1)[0])
    cue = next((c for c in scene.cues if c.id == cue_id), None) if scene is not None else None
    if cue is None or not cue.choices:
        return {}
    return {"choices": list(cue.choices), "correct": cue.correct}


def _staging(layout: MediaLayout, plan: LessonPlan) -> Path:
    """Where a lesson's delivered files are made before they are put in place: its work folder's delivery/."""
    return layout.lesson_work(plan.lesson, plan.fps) / "delivery"


def assemble_course(
    cfg: Config,
    layout: MediaLayout,
    course: Course,
    plans: list[LessonPlan],
    sources: dict | None = None,
    page: Callable[[dict], dict[Path, str]] | None = None,
) -> list[Path]:
    """Assemble every lesson whose scenes are all rendered in ``layout``; write the manifest (which the
    course page is made from, see coursekit.deliver.page). ``sources`` is the run's record of the sources
    it was made from (``RunSources.record()``: their digest), kept in the manifest. ``page``: the course
    page's files made from the manifest (``coursekit.deliver.page.page_files``; it may refuse the manifest),
    written with it.

    The delivery changes as one unit: each lesson is made beside it first (``_staging``, in its work
    folder), and only when every lesson is made and the page is made from the new manifest are they put in
    place: the lessons' files renamed into their folders, then the page's files, the manifest last. A run
    that fails or is stopped before then leaves every delivered file as it was."""

    quality = cfg.video.quality
    manifest = {
        "title": cfg.course.title,
        "font": cfg.course.font,
        "quality": quality,
        "versions": _versions(),
        "sources": sources,
        "lessons": [],
    }
    ready: list[tuple[LessonPlan, list[Path]]] = []
    for plan in plans:
        videos = [layout.scene_video(s.id, quality) for s in plan.scenes]
        missing = [p.stem for p in videos if not p.exists()]
        if missing:
            print(f"lesson {plan.lesson}: not assembled, scenes not rendered yet: {', '.join(missing)}")
            continue
        ready.append((plan, videos))

    def one_lesson(item: tuple[LessonPlan, list[Path]]) -> list[Path]:
        plan, videos = item
        stopping.check()  # a stopping command starts no further lesson
        stage = _staging(layout, plan)
        files = assemble_lesson(cfg, plan, videos, stage, layout.lesson_work(plan.lesson, plan.fps))
        for scene, video in zip(plan.scenes, videos):
            if scene.overview:  # the narration marks it: delivered alone as well
                work = layout.lesson_work(plan.lesson, plan.fps)
                audio, _, _ = write_delivered_scene_narration(scene, work / "overview.m4a")
                files.append(mux(video, audio, stage / layout.overview_video(plan.lesson).name))
        return files

    # Lessons side by side, one per core: each is ffmpeg processes (the delivered audio's measuring and
    # encoding, single-threaded, is most of it) and writes only into its own folders.
    with ThreadPoolExecutor(max_workers=max(1, min(len(ready), os.cpu_count() or 1))) as pool:
        done = list(pool.map(one_lesson, ready))
    moves: dict[Path, Path] = {}  # each made file -> its place in the delivered course
    for (plan, _), files in zip(ready, done):
        stage = _staging(layout, plan)
        final = [layout.lesson_dir(plan.lesson) / f.relative_to(stage) for f in files]
        moves.update(zip(files, final))
        manifest["lessons"].append(manifest_lesson(cfg, course, plan, final))
    page_texts = page(manifest) if page is not None else {}
    stopping.check()  # stopped now: nothing delivered has changed
    for made, final in moves.items():
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(made, final)
    for plan, _ in ready:
        with contextlib.suppress(OSError):
            _staging(layout, plan).rmdir()
    outputs = list(moves.values())
    outputs += [write_text(path, text) for path, text in page_texts.items()]
    man = layout.manifest
    man.parent.mkdir(parents=True, exist_ok=True)
    write_text(man, json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
    outputs.append(man)
    return outputs


def manifest_lesson(cfg: Config, course: Course, plan: LessonPlan, files: list[Path]) -> dict:
    """A lesson's entry in the manifest: what the page and the exports (``coursekit.deliver``) read of it;
    ``files``, the lesson's delivered files, are listed relative to the output folder."""
    return {
        "lesson": plan.lesson,
        "title": plan.title,
        "fps": plan.fps,
        "duration_s": round(plan.frames / plan.fps, 3),
        "voice": plan.voice,
        "quality": cfg.video.quality,
        "voice_licence": plan.voice_licence or None,  # from the voice's declaration, via the plan
        "scenes": [s.id for s in plan.scenes],
        "chapters": [{"start_ms": a, "end_ms": b, "title": t} for a, b, t in chapter_times(plan)],
        # for the page's transcript and questions (coursekit.deliver.page): lesson times in ms
        # (each event with its characters' times, for the word highlight)
        "subtitles": page_subtitles(plan, cfg.subtitles),
        "role_cues": [
            {
                "id": c.id,
                "role": c.role,
                "text": c.text,
                "start_ms": round((s.start_frame + c.start_frame) * 1000 / plan.fps),
                "end_ms": round((s.start_frame + c.end_frame) * 1000 / plan.fps),
                **_quiz_of(course, c.id),
            }
            for s in plan.scenes
            for c in s.cues
            if c.role
        ],
        # every cue in lesson time (ms): the page's lecture mode stops at their ends, the handout shows them;
        # which are the author's own voice (the page marks their transcript lines)
        "cues": [
            {
                "id": c.id,
                "text": c.text,
                "start_ms": round((s.start_frame + c.start_frame) * 1000 / plan.fps),
                "end_ms": round((s.start_frame + c.end_frame) * 1000 / plan.fps),
                "recorded": c.id in plan.recorded,  # the author's own voice
            }
            for s in plan.scenes
            for c in s.cues
        ],
        "files": [str(p.relative_to(cfg.output_dir)) for p in files],
    }
