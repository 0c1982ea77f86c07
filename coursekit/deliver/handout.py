"""The course's handout for students (``render.py export handout``): a PDF, lesson by lesson and chapter by
chapter, with each cue's last frame beside its text and its times in the lesson.

Everything comes from the delivered course, nothing is rendered again: the cues and their lesson times from
the manifest (``manifest.json``'s ``cues``, written at assembly), each frame from the delivered lesson video
(``ffmpeg``, at the cue's last frame: ``round(end_ms * fps / 1000) - 1``, as the page's lecture mode stops
on it), scaled to ``FRAME_WIDTH`` pixels and kept as JPEG. Typst (already what draws the scenes' formulas)
lays it out from ``handout.typ``, which reads the texts from a JSON file as strings, never as markup. The
PDF is written to ``export/handout/course.pdf`` (``--lesson``: ``<lesson>.pdf``).

A missing or damaged delivery (no manifest, not JSON, a lesson without its cues or its video) is one line
that says how to make it again, exit status 2.
"""

from __future__ import annotations

import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import typst

from coursekit.core.atomic import write_bytes
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.core.media_tools import need, run
from coursekit.deliver import manifest as manifest_schema

TEMPLATE = Path(__file__).with_name("handout.typ")
FIX = "run: python render.py course (it delivers the course and writes its manifest)"
#: the frames' width in the PDF's images (px): sharp at the printed width (about 10 cm), small in the file
FRAME_WIDTH = 960


def _clock(ms: int) -> str:
    s = int(ms) // 1000
    return f"{s // 3600}:{(s // 60) % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _delivered(layout: MediaLayout) -> dict:
    """The manifest, checked against its schema (:mod:`coursekit.deliver.manifest`), as JSON data; one line if
    it is missing, damaged, or has nothing the handout can show."""
    path = layout.manifest
    if not path.is_file():
        raise UserError(f"export handout: no delivered course in {layout.course} (no manifest.json); {FIX}")
    manifest = manifest_schema.read_manifest(path).model_dump()
    if not manifest["lessons"]:
        raise UserError(f"export handout: the delivered course ({path}) has no lesson; {FIX}")
    for lesson in manifest["lessons"]:
        problem = _lesson_problem(lesson)
        if problem:
            raise UserError(f"export handout: {path}: lesson {lesson['lesson']}: {problem}; {FIX}")
    return manifest


def _lesson_problem(lesson: dict) -> str | None:
    """What the handout cannot show of a lesson the schema let through, or None."""
    if not lesson["cues"]:
        return "lists no cues (it was delivered before the manifest listed them)"
    if len(lesson["chapters"]) != len(lesson["scenes"]):
        return "its chapters are not one titled chapter per scene"
    return None


def _frame(video: Path, frame: int, fps: int, out: Path) -> Path:
    """Frame ``frame`` (from 0) of ``video`` as a JPEG ``FRAME_WIDTH`` wide: ffmpeg seeks to half a frame
    before it and keeps the first frame it reaches (``coursekit.core.media_tools.extract_frame``'s way)."""
    at = max(0.0, (frame - 0.5) / fps) if frame else 0.0
    run(
        [
            need("ffmpeg"),
            "-v",
            "error",
            "-y",
            "-ss",
            f"{at:.6f}",
            "-i",
            str(video),
            "-frames:v",
            "1",
            "-vf",
            f"scale={FRAME_WIDTH}:-2",
            "-q:v",
            "3",
            str(out),
        ],
        f"the frame at {at:.3f} s of {video.name}",
    )
    if not out.is_file():
        raise UserError(f"export handout: {video} has no frame {frame} ({at:.3f} s); {FIX}")
    return out


def handout_data(manifest: dict, lessons: list[dict], images: dict[tuple[str, str], str]) -> dict:
    """What ``handout.typ`` lays out: the course's title and font, each lesson's chapters (one per scene,
    in order) and in each its cues: text, the time it ends, its frame's file (``images``: (lesson, cue id)
    -> a path relative to the template)."""
    out = {"title": str(manifest.get("title") or ""), "font": str(manifest.get("font") or "sans-serif"), "lessons": []}
    for lesson in lessons:
        chapters = [{"title": c["title"], "cues": []} for c in lesson["chapters"]]
        scenes = [str(s) for s in lesson["scenes"]]
        for cue in lesson["cues"]:
            scene = cue["id"].split(".", 1)[0]
            chapter = chapters[scenes.index(scene)] if scene in scenes else chapters[-1]
            chapter["cues"].append(
                {
                    "text": " ".join(cue["text"].split()),
                    "at": f"{_clock(cue['start_ms'])}–{_clock(cue['end_ms'])}",
                    "image": images[(lesson["lesson"], cue["id"])],
                }
            )
        out["lessons"].append({"title": lesson["title"], "chapters": [c for c in chapters if c["cues"]]})
    return out


def write_handout(layout: MediaLayout, lesson: str | None = None) -> Path:
    """The handout of the delivered course (or of ``lesson``), written to ``layout.handout``; its path."""
    manifest = _delivered(layout)
    lessons = manifest["lessons"]
    if lesson is not None:
        lessons = [l for l in lessons if l["lesson"] == lesson]
        if not lessons:
            known = ", ".join(l["lesson"] for l in manifest["lessons"])
            raise UserError(f"export handout: no lesson {lesson!r} in the delivered course (it has: {known}); {FIX}")
    jobs = []
    for l in lessons:
        video = layout.lesson_video(l["lesson"])
        if not video.is_file():
            raise UserError(f"export handout: lesson {l['lesson']}: its video {video} is missing; {FIX}")
        for n, cue in enumerate(l["cues"]):
            frame = max(0, round(cue["end_ms"] * l["fps"] / 1000) - 1)
            jobs.append((l["lesson"], cue["id"], video, frame, l["fps"], f"frames/{l['lesson']}-{n:04d}.jpg"))
    with tempfile.TemporaryDirectory(prefix="handout-") as tmp:
        folder = Path(tmp)
        (folder / "frames").mkdir()
        with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            list(pool.map(lambda j: _frame(j[2], j[3], j[4], folder / j[5]), jobs))
        images = {(j[0], j[1]): j[5] for j in jobs}
        data = handout_data(manifest, lessons, images)
        (folder / "handout.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        (folder / "handout.typ").write_bytes(TEMPLATE.read_bytes())
        try:
            pdf = typst.compile(str(folder / "handout.typ"), root=str(folder), format="pdf")
        except Exception as exc:  # noqa: BLE001 - TypstError: its first line says what
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
            raise UserError(f"export handout: Typst could not lay out the handout ({first}); check: render.py doctor")
    return write_bytes(layout.handout("course" if lesson is None else lesson), pdf)
