"""The course page (media/course/index.html): static files, no server code of its own.

Everything on the page comes from the manifest (``coursekit.assemble.lesson_video.assemble_course``)
and, for live widgets, from the course's own ``narration/page.py``; nothing here knows a course:

- each lesson: its video with the page's own progress bar, chapters as marks on it (and a chapters
  WebVTT file, ``<lesson>/<lesson>.chapters.vtt``, for players that take one), a transcript beside it
  (one line per subtitle event, the current one highlighted, click to seek, a search box), the voice
  and its licence;
- questions: cues whose narration ``role`` is ``question``, each with the ``answer`` cues that follow it
  in the same scene, the answer hidden until its button is pressed (``think`` cues are the pauses);
- widgets: ``narration/page.py`` may define ``WIDGETS``, a list of dicts; the one kind so far is
  ``rotation_pair``: q on seat m and k on seat n, each arrow turned by its seat times θ, shown live:
  how far each turned, how far k turned relative to q ((n−m)θ, signed), the angle between them
  (夹角, folded into [0°, 180°]) and the score q·k::
      {"kind": "rotation_pair", "lesson": ID, "scene": ID (optional: the chapter it belongs to),
       "title": "...", "theta_deg": 30.0, "seats": 12, "q": (1, 0), "k": (1, 0), "m": 2, "n": 4}

Every text from the narration is HTML-escaped; the script (``page.js``) and style (``page.css``) are
written next to ``index.html``: no network, no CDN.
"""
from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path

from coursekit.core.atomic import write_text
from coursekit.core.errors import UserError
from coursekit.core.modules import load_by_path
from coursekit.core.paths import narration_dir

STATIC = Path(__file__).with_name("static")
ASSETS = ("page.css", "page.js")
WIDGET_KINDS = ("rotation_pair",)


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
    a space (``Transformer\\n知道`` → ``Transformer 知道``), a break between Chinese characters nothing."""
    parts = [p.strip() for p in str(text).split("\n") if p.strip()]
    out = parts[0] if parts else ""
    for p in parts[1:]:
        out += (" " if _ASCII_WORD.match(out[-1]) or _ASCII_WORD.match(p[0]) else "") + p
    return out


# --- questions ---------------------------------------------------------------------------
def questions(role_cues: list[dict]) -> list[dict]:
    """The lesson's questions in order: each ``question`` cue with the ``answer`` cues after it in the
    same scene (its ``think`` cues are the pause to think, not shown). A question without an answer
    is kept, with no answer; an answer before any question of its scene is dropped."""
    found: list[dict] = []
    open_q: dict | None = None
    for cue in role_cues:
        scene = str(cue["id"]).split(".", 1)[0]
        if open_q is not None and open_q["scene"] != scene:
            open_q = None
        if cue["role"] == "question":
            open_q = {"id": cue["id"], "scene": scene, "text": cue["text"], "start_ms": cue["start_ms"],
                      "answers": []}
            found.append(open_q)
        elif cue["role"] == "answer" and open_q is not None:
            open_q["answers"].append({"id": cue["id"], "text": cue["text"], "start_ms": cue["start_ms"]})
    return found


# --- widgets ------------------------------------------------------------------------------
def course_widgets(folder: Path | None = None) -> list[dict]:
    """``WIDGETS`` of the course's ``narration/page.py`` (loaded by path, like its figures), checked;
    no file: no widgets."""
    path = (Path(folder) if folder is not None else narration_dir()) / "page.py"
    if not path.is_file():
        return []
    try:
        module = load_by_path(path, "page")
    except Exception as exc:
        raise UserError(f"{path}: the course's page widgets failed to load: {type(exc).__name__}: {exc}") from None
    widgets = getattr(module, "WIDGETS", [])
    if not isinstance(widgets, (list, tuple)):
        raise UserError(f"{path}: WIDGETS must be a list of dicts; see coursekit/deliver/page.py")
    return [check_widget(w, f"{path}: WIDGETS[{n}]") for n, w in enumerate(widgets)]


def check_widget(w: object, where: str = "widget") -> dict:
    """One widget, its numbers checked and made plain (floats, ints), or one line saying what is wrong."""
    if not isinstance(w, Mapping):
        raise UserError(f"{where} must be a dict; see coursekit/deliver/page.py")
    if w.get("kind") not in WIDGET_KINDS:
        raise UserError(f"{where}: unknown kind {w.get('kind')!r}; known: {', '.join(WIDGET_KINDS)}")
    if "i" in w or "j" in w:
        raise UserError(f"{where}: the seats are called m (q's) and n (k's), as in the videos; rename i, j to m, n")
    try:
        out = {"kind": w["kind"], "lesson": str(w["lesson"]), "scene": None if w.get("scene") is None else str(w["scene"]),
               "title": str(w.get("title") or ""), "theta_deg": float(w["theta_deg"]), "seats": int(w.get("seats", 12)),
               "q": [float(x) for x in w.get("q", (1.0, 0.0))], "k": [float(x) for x in w.get("k", (1.0, 0.0))],
               "m": int(w.get("m", 0)), "n": int(w.get("n", 0))}
    except KeyError as exc:
        raise UserError(f"{where}: missing key {exc}; see coursekit/deliver/page.py") from None
    except (TypeError, ValueError) as exc:
        raise UserError(f"{where}: {exc}; numbers expected; see coursekit/deliver/page.py") from None
    bad = []
    if not (math.isfinite(out["theta_deg"]) and 0 < abs(out["theta_deg"]) <= 360):
        bad.append("theta_deg must be a number of degrees, 0 < |θ| <= 360")
    if not 2 <= out["seats"] <= 1000:
        bad.append("seats must be 2 to 1000")
    if len(out["q"]) != 2 or len(out["k"]) != 2 or not all(map(math.isfinite, out["q"] + out["k"])):
        bad.append("q and k must be 2-D vectors")
    if not (0 <= out["m"] < out["seats"] and 0 <= out["n"] < out["seats"]):
        bad.append("m and n must be seats, 0 to seats - 1")
    if bad:
        raise UserError(f"{where}: {'; '.join(bad)}")
    return out


def _deg(x: float) -> str:
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return s.replace("-", "−")


def _widget_html(w: dict, uid: str, chapter: dict | None) -> str:
    unit_aligned = all(abs(math.hypot(*v) - 1) < 1e-12 for v in (w["q"], w["k"])) and \
        abs(math.atan2(w["q"][1], w["q"][0]) - math.atan2(w["k"][1], w["k"][0])) < 1e-12
    score_name = "分数 q·k = cos((n−m)θ)" if unit_aligned else "分数 q·k"
    top = w["seats"] - 1
    title = w["title"] or "动手试试：按座位转 q 和 k"
    seek = (f'\n      <button type="button" class="seek" data-start="{int(chapter["start_ms"])}">'
            f'看视频里的这一段：{_e(chapter["title"])}</button>') if chapter else ""

    def seat(var: str, who: str, value: int) -> str:
        return f"""      <div class="seat seat-{var}">
        <label for="{uid}-{var}">{who} 坐在座位 {var}</label>
        <div class="stepper">
          <button type="button" class="step" data-for="{uid}-{var}" data-step="-1" aria-label="{var} 减一">−</button>
          <input type="range" id="{uid}-{var}" class="seat-input" data-var="{var}" min="0" max="{top}" step="1" value="{value}">
          <button type="button" class="step" data-for="{uid}-{var}" data-step="1" aria-label="{var} 加一">+</button>
          <output for="{uid}-{var}" class="seat-value">{value}</output>
        </div>
      </div>"""

    return f"""  <section class="widget rotation-pair" id="{uid}" aria-labelledby="{uid}-title"
      data-theta-deg="{w["theta_deg"]!r}" data-q="{w["q"][0]!r},{w["q"][1]!r}" data-k="{w["k"][0]!r},{w["k"][1]!r}">
    <h3 id="{uid}-title">{_e(title)}</h3>
    <p class="widget-rule">θ = {_deg(w["theta_deg"])}°：坐在座位 m 的 q 转 mθ，坐在座位 n 的 k 转 nθ。</p>
    <div class="widget-body">
      <svg class="dial" viewBox="-1.3 -1.3 2.6 2.6" role="img" aria-labelledby="{uid}-desc">
        <desc id="{uid}-desc">q 和 k 两支箭头，按座位转过的角度</desc>
        <circle class="ring" cx="0" cy="0" r="1"></circle>
        <line class="axis" x1="-1.2" y1="0" x2="1.2" y2="0"></line>
        <line class="axis" x1="0" y1="-1.2" x2="0" y2="1.2"></line>
        <g class="seats"></g>
        <path class="arc" d=""></path>
        <g class="arrow arrow-k"><line x1="0" y1="0" x2="1" y2="0"></line><polygon points=""></polygon></g>
        <g class="arrow arrow-q"><line x1="0" y1="0" x2="1" y2="0"></line><polygon points=""></polygon></g>
      </svg>
      <div class="widget-controls">
{seat("m", "q", w["m"])}
{seat("n", "k", w["n"])}
        <dl class="readout" aria-live="polite">
          <div><dt>q 转过 mθ</dt><dd class="q-turn"></dd></div>
          <div><dt>k 转过 nθ</dt><dd class="k-turn"></dd></div>
          <div><dt>k 相对 q 转过 (n−m)θ</dt><dd class="turn"></dd></div>
          <div><dt>q 与 k 的夹角（0°–180°）</dt><dd class="angle"></dd></div>
          <div class="wide"><dt>{score_name}</dt><dd class="score"></dd></div>
        </dl>{seek}
      </div>
    </div>
  </section>"""


# --- the page -----------------------------------------------------------------------------
def _lesson_html(lesson: dict, widgets: list[dict]) -> str:
    lid = str(lesson["lesson"])
    uid = "l-" + re.sub(r"[^A-Za-z0-9_-]", "_", lid)
    duration_ms = max(1, round(float(lesson["duration_s"]) * 1000))
    chapters = lesson.get("chapters") or []
    by_scene = dict(zip(lesson.get("scenes") or [], chapters))

    marks = "\n".join(
        f'        <span class="mark" style="left: {100 * c["start_ms"] / duration_ms:.4f}%" '
        f'data-start="{int(c["start_ms"])}" data-end="{int(c["end_ms"])}" data-title="{_e(c["title"])}" '
        f'title="{_clock(c["start_ms"])} {_e(c["title"])}"></span>'
        for c in chapters)
    chapter_list = "\n".join(
        f'      <li><button type="button" class="chapter seek" data-start="{int(c["start_ms"])}">'
        f'<span class="t">{_clock(c["start_ms"])}</span> {_e(c["title"])}</button></li>'
        for c in chapters)
    lines = "\n".join(
        f'        <li><button type="button" class="line" data-start="{int(ev["start_ms"])}" data-end="{int(ev["end_ms"])}">'
        f'<span class="t">{_clock(ev["start_ms"])}</span> <span class="x">{_e(one_line(ev["text"]))}</span></button></li>'
        for ev in lesson.get("subtitles") or [])
    if not lines:
        lines = '        <li class="empty">这一课没有文字稿（manifest 里没有字幕）。</li>'

    qs = questions(lesson.get("role_cues") or [])
    q_blocks = []
    for scene in dict.fromkeys(q["scene"] for q in qs):
        items = []
        for q in (q for q in qs if q["scene"] == scene):
            qid = f"{uid}-{re.sub(r'[^A-Za-z0-9_-]', '_', str(q['id']))}"
            answer = "".join(f"<p>{_e(a['text'])}</p>" for a in q["answers"])
            reveal = (f'<button type="button" class="reveal" aria-expanded="false" aria-controls="{qid}-a">显示答案</button>'
                      if answer else '<span class="no-answer">（没有答案）</span>')
            items.append(f"""        <li class="qa" id="{qid}">
          <p class="question">{_e(q["text"])}</p>
          <div class="qa-actions">{reveal}
            <button type="button" class="seek" data-start="{int(q["start_ms"])}">在视频里看（{_clock(q["start_ms"])}）</button></div>
          <div class="answer" id="{qid}-a" hidden>{answer}</div>
        </li>""")
        heading = by_scene.get(scene, {}).get("title") or "问题"
        q_blocks.append(f"""  <section class="questions" aria-label="{_e(heading)}">
    <h3>{_e(heading)}</h3>
    <ol>
{chr(10).join(items)}
    </ol>
  </section>""")

    w_blocks = [_widget_html(w, f"{uid}-w{n}", by_scene.get(w["scene"]))
                for n, w in enumerate(w for w in widgets if w["lesson"] == lid)]
    licence = lesson.get("voice_licence") or "未记录"
    voice = f"""  <p class="voice">配音：{_e(lesson.get("voice") or "未记录")}<br>配音的许可：{_e(licence)}</p>"""
    extras = "\n".join(w_blocks + q_blocks)
    return f"""<section class="lesson" id="{_e(lid)}" data-duration-ms="{duration_ms}" data-fps="{int(lesson.get("fps") or 0)}">
  <h2>{_e(lesson["title"])} <small>{_clock(duration_ms)}</small></h2>
{voice}
  <div class="player">
    <div class="screen">
      <video id="v-{_e(lid)}" controls playsinline preload="metadata" poster="{_e(lid)}/{_e(lid)}.jpg">
        <source src="{_e(lid)}/{_e(lid)}.mp4" type="video/mp4">
        <track kind="subtitles" srclang="zh" label="中文" src="{_e(lid)}/{_e(lid)}.vtt" default>
        <track kind="chapters" srclang="zh" label="章节" src="{_e(lid)}/{_e(lid)}.chapters.vtt">
      </video>
      <div class="progress-row">
        <span class="time" aria-hidden="true">0:00 / {_clock(duration_ms)}</span>
        <div class="progress" role="slider" tabindex="0" aria-label="进度（章节：PageUp / PageDown）"
             aria-valuemin="0" aria-valuemax="{duration_ms // 1000}" aria-valuenow="0" aria-valuetext="0:00">
          <div class="track"><div class="fill"></div></div>
{marks}
          <div class="tip" hidden></div>
        </div>
      </div>
      <p class="now-chapter"></p>
    </div>
    <div class="transcript"><div class="transcript-inner">
      <div class="transcript-head">
        <h3 id="{uid}-tt">文字稿</h3>
        <input type="search" class="search" placeholder="搜索文字稿" aria-label="搜索文字稿" autocomplete="off">
        <span class="count" aria-live="polite"></span>
      </div>
      <ol class="lines" aria-labelledby="{uid}-tt">
{lines}
      </ol>
    </div></div>
  </div>
  <h3>章节</h3>
  <ol class="chapters">
{chapter_list}
  </ol>
{extras}
</section>"""


def render_page(manifest: dict, widgets: list[dict] | None = None) -> str:
    lessons = manifest.get("lessons") or []
    widgets = [check_widget(w) for w in widgets or []]
    body = "\n".join(_lesson_html(l, widgets) for l in lessons) or \
        "  <p>还没有渲染好的课。运行 <code>make video</code>。</p>"
    nav = "".join(f'<li><a href="#{_e(l["lesson"])}">{_e(l["title"])}</a></li>' for l in lessons)
    title = _e(manifest.get("title") or "课程")
    font = _css_string(manifest.get("font") or "sans-serif")
    return f"""<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="page.css">
<style>body {{ font-family: {font}, sans-serif; }}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<nav aria-label="课"><ol>{nav}</ol></nav>
<p class="note">用 <code>python render.py serve</code> 打开本页。直接双击打开（file://）时，浏览器会拒绝加载字幕轨，也可能无法拖动进度。</p>
</header>
<main>
{body}
</main>
<script src="page.js"></script>
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

    cues = [f"chapter-{n}\n{ts(c['start_ms'])} --> {ts(c['end_ms'])}\n{esc(c['title'])}\n"
            for n, c in enumerate(chapters, 1)]
    return "WEBVTT\n\n" + "\n".join(cues)


def write_page(course_dir: Path, manifest: dict, widgets: list[dict] | None = None) -> Path:
    """index.html, its script and style, and each lesson's chapters WebVTT. ``widgets`` default to the
    course's own (``narration/page.py``)."""
    if widgets is None:
        widgets = course_widgets()
    for lesson in manifest.get("lessons") or []:
        lid = _lesson_dir(lesson)
        write_text(course_dir / lid / f"{lid}.chapters.vtt", chapters_vtt(lesson.get("chapters") or []))
    for name in ASSETS:
        write_text(course_dir / name, (STATIC / name).read_text(encoding="utf-8"))
    return write_text(course_dir / "index.html", render_page(manifest, widgets))


def read_manifest(course_dir: Path) -> dict:
    return json.loads((course_dir / "manifest.json").read_text(encoding="utf-8"))
