"""The course page (media/course/index.html): static files, no server code of its own.

Everything on the page comes from the manifest (``coursekit.assemble.lesson_video.assemble_course``)
and, for live widgets, from the course's own ``narration/page.py``; nothing here knows a course:

- each lesson: its video with the page's own controls (page.js: play, ±10 s, mute, subtitles drawn by
  the page, speed, subtitle size, in-video questions on or off, the list of keys, fullscreen; YouTube's
  keys) and progress bar, chapters as marks on it (and a chapters WebVTT file,
  ``<lesson>/<lesson>.chapters.vtt``, for players that take one), the seek-bar thumbnails when the
  lesson's folder has ``thumbnails.vtt``, a transcript beside it (one line per subtitle event, the
  current one highlighted and in it the current word, from the events' character times; click to seek,
  a search box), the voice in a viewer's words (``viewer_voice``; the exact line stays in the manifest);
- questions: cues whose narration ``role`` is ``question``, each with the ``answer`` cues that follow it
  in the same scene, the answer hidden until its button is pressed (``think`` cues are the pauses);
  the video also asks them itself: it pauses on the question's last frame and shows it (with its
  ``choices``, if the narration gives them), and skips the pause to think once the viewer has answered;
- the page's own words come from one table, ``ui_text.json``, which page.js reads from the page's data
  (a ``<script type="application/json">`` whose <, > and & are escaped);
- widgets: the course's own (``coursekit.deliver.widgets``: a kind is a folder ``widgets/<kind>/`` of the
  course with its markup, script and style; ``narration/page.py``'s ``WIDGETS`` says which go where, with
  their data); each is placed in its lesson after the chapters, with a button that plays its chapter, its
  kind's script and style inlined once, its data beside it.

The markup is the template ``page.html`` (``string.Template`` parts, filled here); every text from the
narration is HTML-escaped before it goes in. The script (``page.js``, its parts by job in ``static/`` joined
into one file, ``SCRIPT_PARTS``) and style (``page.css``) are written next to ``index.html``, the widgets'
inlined: no network, no CDN, no build tool.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from string import Template

from coursekit.core.atomic import write_text
from coursekit.core.paths import plain_name
from coursekit.deliver import manifest as manifest_schema
from coursekit.deliver.page_text import UI, lecture_cues, line_words, one_line, questions, ui, viewer_voice
from coursekit.deliver.widgets import (
    Widget,
    course_widgets,
    json_for_html,
    kinds_shown,
    scripts_html,
    styles_html,
    widget_html,
)

STATIC = Path(__file__).with_name("static")
#: the page's script by job (static/page.js names each part's job), in the order they run; the course folder
#: gets them joined into one page.js (one classic script: it runs from file:// too, where ES modules are refused)
SCRIPT_PARTS = (
    "page.js",
    "page.prefs.js",
    "page.transcript.js",
    "page.progress.js",
    "page.questions.js",
    "page.controls.js",
    "page.resume.js",
    "page.keys.js",
    "page.lecture.js",
    "page.start.js",
)
#: a line that starts a part of the template page.html
_PART = re.compile(r"^<!-- part: ([a-z_]+) -->\n", re.M)


def read_template(path: Path) -> dict[str, Template]:
    """The parts of the page's template (``page.html``): each from its ``<!-- part: NAME -->`` line to the next,
    its blank lines at the end left out; what comes before the first part is the file's own comment."""
    pieces = _PART.split(path.read_text(encoding="utf-8"))
    return {name: Template(body.rstrip("\n")) for name, body in zip(pieces[1::2], pieces[2::2])}


PARTS = read_template(Path(__file__).with_name("page.html"))
#: what every part may use: ``ui_<key>``, the page's words (escaped, but for the keys ending in _html, which
#: are markup), and ``icon_<name>``, the button drawings
_COMMON = {
    f"ui_{k}": v if k.endswith("_html") else html.escape(v, quote=True) for k, v in UI.items() if isinstance(v, str)
}
_COMMON |= {name: part.template for name, part in PARTS.items() if name.startswith("icon_")}


def _fill(part: str, **values: object) -> str:
    """The template's ``part`` with its places filled: ``values`` (already escaped), the page's words, the icons."""
    return PARTS[part].substitute(_COMMON, **{k: str(v) for k, v in values.items()})


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _css_string(text: str) -> str:
    """A quoted CSS string whose every character but letters, digits, space, - and _ is a CSS escape
    (so nothing in it can end the string or the <style> element)."""
    return '"' + "".join(c if c.isalnum() or c in " -_" else f"\\{ord(c):x} " for c in str(text)) + '"'


def _lesson_dir(lesson: dict) -> str:
    return plain_name(lesson["lesson"], "manifest: lesson id", manifest_schema.FIX, snake_case=True)


def _clock(ms: int) -> str:
    """A time on the page: ``1:05``, or ``1:02:05`` past an hour (whole seconds, rounded down)."""
    s = int(ms) // 1000
    return f"{s // 3600}:{(s // 60) % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _line_html(ev: dict, own: list[tuple[int, int]] = ()) -> str:
    """A transcript line's words; marked as the author's own voice if it starts inside a recorded cue
    (``own``: their lesson times)."""
    text = one_line(ev["text"])
    parts = line_words(text, ev.get("chars"))
    mark = _fill("own", label=_e(ui("own_voice"))) if any(a <= int(ev["start_ms"]) < b for a, b in own) else ""
    if len(parts) == 1 and parts[0][1] is None:
        return _e(text) + mark
    return "".join(_fill("word", at=at, text=_e(p)) if at is not None else _e(p) for p, at in parts) + mark


# --- the page -----------------------------------------------------------------------------
def _lesson_data(lesson: dict, thumbnails: str | None) -> dict:
    """What page.js needs of a lesson beyond its markup: the in-video questions, the thumbnails' track, the
    cues (lecture mode, ``lecture_cues``)."""
    qs = [
        {
            "id": str(q["id"]),
            "text": str(q["text"]),
            "start_ms": int(q["start_ms"]),
            "end_ms": None if q["end_ms"] is None else int(q["end_ms"]),
            "think_end_ms": None if q["think_end_ms"] is None else int(q["think_end_ms"]),
            "answers": [str(a["text"]) for a in q["answers"]],
            "choices": q["choices"],
            "correct": int(q["correct"]) if q["choices"] and q["correct"] is not None else None,
        }
        for q in questions(lesson.get("role_cues") or [])
    ]
    return {"questions": qs, "thumbnails": thumbnails, "cues": lecture_cues(lesson)}


def _options(choices: list[tuple[str, str]], chosen: str) -> str:
    """A <select>'s options from (value, label) pairs, both escaped already; the one whose value is ``chosen``
    is selected."""
    return "".join(
        _fill("option", value=value, selected=" selected" if value == chosen else "", label=label)
        for value, label in choices
    )


def _seek_html(chapter: dict | None) -> str:
    """A widget's button that plays its chapter (the widget's ``{{seek}}``); no chapter: nothing."""
    if not chapter:
        return ""
    return _fill("widget_seek", start=int(chapter["start_ms"]), label=_e(ui("widget_seek", title=chapter["title"])))


def _questions_html(uid: str, qs: list[dict], by_scene: dict) -> list[str]:
    """The questions under the video, a block per scene headed by its chapter's title, each answer hidden
    until its button is pressed."""
    blocks = []
    for scene in dict.fromkeys(q["scene"] for q in qs):
        items = []
        for q in (q for q in qs if q["scene"] == scene):
            qid = f"{uid}-{re.sub(r'[^A-Za-z0-9_-]', '_', str(q['id']))}"
            answer = "".join(_fill("answer", text=_e(a["text"])) for a in q["answers"])
            items.append(
                _fill(
                    "question",
                    qid=qid,
                    text=_e(q["text"]),
                    reveal=_fill("reveal", qid=qid) if answer else _fill("no_answer"),
                    start=int(q["start_ms"]),
                    watch=_e(ui("watch_at", t=_clock(q["start_ms"]))),
                    answer=answer,
                )
            )
        heading = by_scene.get(scene, {}).get("title") or ui("questions")
        blocks.append(_fill("questions", heading=_e(heading), items="\n".join(items)))
    return blocks


def _lesson_html(lesson: dict, widgets: list[Widget]) -> str:
    lid = str(lesson["lesson"])
    uid = "l-" + re.sub(r"[^A-Za-z0-9_-]", "_", lid)
    duration_ms = max(1, round(float(lesson["duration_s"]) * 1000))
    chapters = lesson.get("chapters") or []
    by_scene = dict(zip(lesson.get("scenes") or [], chapters))
    marks = "\n".join(
        _fill(
            "mark",
            left=f"{100 * c['start_ms'] / duration_ms:.4f}",
            start=int(c["start_ms"]),
            end=int(c["end_ms"]),
            title=_e(c["title"]),
            at=_clock(c["start_ms"]),
        )
        for c in chapters
    )
    chapter_list = "\n".join(
        _fill("chapter", start=int(c["start_ms"]), at=_clock(c["start_ms"]), title=_e(c["title"])) for c in chapters
    )
    own = [(int(c["start_ms"]), int(c["end_ms"])) for c in lesson.get("cues") or [] if c.get("recorded")]
    lines = "\n".join(
        _fill(
            "line",
            start=int(ev["start_ms"]),
            end=int(ev["end_ms"]),
            at=_clock(ev["start_ms"]),
            text=_line_html(ev, own),
        )
        for ev in lesson.get("subtitles") or []
    )
    widget_blocks = [
        widget_html(w, f"{uid}-w{n}", _seek_html(by_scene.get(w.scene)))
        for n, w in enumerate(w for w in widgets if w.lesson == lid)
    ]
    question_blocks = _questions_html(uid, questions(lesson.get("role_cues") or []), by_scene)
    return _fill(
        "lesson",
        lid=_e(lid),
        uid=uid,
        title=_e(lesson["title"]),
        duration_ms=duration_ms,
        duration_s=duration_ms // 1000,
        duration=_clock(duration_ms),
        fps=int(lesson.get("fps") or 0),
        voice=_e(ui("voice", voice=viewer_voice(lesson.get("voice"), lesson.get("voice_licence")))),
        video_label=_e(ui("video_of", title=lesson["title"])),
        marks=marks,
        speeds=_options([(f"{s:g}", f"{s:g}×") for s in UI["speeds"]], "1"),
        sizes=_options([(_e(v), _e(n)) for v, n in UI["sizes"]], "m"),
        lecture_modes=_options([(_e(v), _e(n)) for v, n in UI["lecture_modes"]], "off"),
        lines=lines or _fill("no_lines"),
        chapters=chapter_list,
        extras="\n".join(widget_blocks + question_blocks),
    )


def render_page(
    manifest: dict, widgets: list[Widget] | None = None, thumbnails: Mapping[str, str] | None = None
) -> str:
    """The page's HTML. ``widgets``: the course's (``course_widgets``); those of a lesson in the manifest are
    shown. ``thumbnails``: lesson id -> its seek-bar thumbnails' WebVTT, relative to the page (only lessons
    that have them)."""
    lessons = manifest.get("lessons") or []
    widgets = list(widgets or [])
    if not all(isinstance(w, Widget) for w in widgets):
        raise TypeError("render_page takes the course's widgets as course_widgets() gives them")
    shown_kinds = kinds_shown([w for w in widgets if w.lesson in {str(l["lesson"]) for l in lessons}])
    thumbnails = thumbnails or {}
    data = {"ui": UI, "lessons": {str(l["lesson"]): _lesson_data(l, thumbnails.get(str(l["lesson"]))) for l in lessons}}
    page = _fill(
        "page",
        title=_e(manifest.get("title") or ui("course")),
        font=_css_string(manifest.get("font") or "sans-serif"),
        widget_styles=styles_html(shown_kinds),
        nav="".join(_fill("nav_item", lid=_e(l["lesson"]), title=_e(l["title"])) for l in lessons),
        lessons="\n".join(_lesson_html(l, widgets) for l in lessons) or _fill("no_lessons"),
        key_rows="\n".join(_fill("key_row", key=_e(k), does=_e(v)) for k, v in UI["key_rows"]),
        data=json_for_html(data),
        widget_scripts=scripts_html(shown_kinds),
    )
    return page + "\n"  # a file ends with a newline


def chapters_vtt(chapters: list[dict]) -> str:
    """A chapters WebVTT file: one cue per chapter, its title as the cue text (escaped, one line)."""

    def ts(ms: int) -> str:
        ms = int(ms)
        return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"

    def esc(text: str) -> str:
        return " ".join(str(text).split()).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    cues = [
        f"chapter-{n}\n{ts(c['start_ms'])} --> {ts(c['end_ms'])}\n{esc(c['title'])}\n"
        for n, c in enumerate(chapters, 1)
    ]
    return "WEBVTT\n\n" + "\n".join(cues)


def page_script() -> str:
    """The course folder's page.js: ``SCRIPT_PARTS`` joined in their order, each under a comment naming its file."""
    return "\n".join(f"/* --- {name} --- */\n" + (STATIC / name).read_text(encoding="utf-8") for name in SCRIPT_PARTS)


def page_files(course_dir: Path, manifest: dict, widgets: list[Widget] | None = None) -> dict[Path, str]:
    """Every file of the page, by path, with its text, made before any is written: index.html, its script
    (``page_script``) and style, and each lesson's chapters WebVTT. ``widgets`` default to the course's own
    (``course_widgets``: ``narration/page.py`` and ``widgets/``). A lesson whose folder holds ``thumbnails.vtt``
    (its seek-bar thumbnails, made at assembly), or whose manifest entry lists it, shows them over the progress
    bar."""
    if widgets is None:
        widgets = course_widgets()
    thumbnails = {}
    files: dict[Path, str] = {}
    for lesson in manifest.get("lessons") or []:
        lid = _lesson_dir(lesson)
        files[course_dir / lid / f"{lid}.chapters.vtt"] = chapters_vtt(lesson.get("chapters") or [])
        listed = any(str(f).endswith(f"{lid}/thumbnails.vtt") for f in lesson.get("files") or [])
        if listed or (course_dir / lid / "thumbnails.vtt").is_file():
            thumbnails[lid] = f"{lid}/thumbnails.vtt"
    files[course_dir / "page.css"] = (STATIC / "page.css").read_text(encoding="utf-8")
    files[course_dir / "page.js"] = page_script()
    files[course_dir / "index.html"] = render_page(manifest, widgets, thumbnails)
    return files


def page_for(course_dir: Path, widgets: list[Widget] | None = None) -> Callable[[dict], dict[Path, str]]:
    """What assembly makes the page with (``assemble_course``'s ``page``): the new manifest checked against
    its schema (``coursekit.deliver.manifest``: what readers will take from disk), then the page's files
    made from it (``page_files``), before anything delivered changes."""

    def make(manifest: dict) -> dict[Path, str]:
        manifest_schema.checked(manifest, "the manifest assembly made")
        return page_files(course_dir, manifest, widgets)

    return make


def write_page(course_dir: Path, manifest: dict, widgets: list[Widget] | None = None) -> Path:
    """The page's files (``page_files``), each written under a temporary name and renamed; returns index.html."""
    for path, text in page_files(course_dir, manifest, widgets).items():
        write_text(path, text)
    return course_dir / "index.html"


def read_manifest(course_dir: Path) -> dict:
    """The delivered manifest of ``course_dir``, its schema checked (``coursekit.deliver.manifest``), as JSON data."""
    return manifest_schema.read_manifest(course_dir / "manifest.json").model_dump()
