"""The course page (media/course/index.html): static files, no server code of its own."""
from __future__ import annotations

import html
import json
from pathlib import Path

from coursekit.core.atomic import write_text


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def render_page(manifest: dict) -> str:
    sections = []
    for lesson in manifest["lessons"]:
        lid = lesson["lesson"]
        chapters = "\n".join(
            f'      <li><button class="chapter" data-video="v-{_e(lid)}" data-start="{c["start_ms"] / 1000:.3f}">'
            f'<span class="t">{_duration(c["start_ms"] / 1000)}</span> {_e(c["title"])}</button></li>'
            for c in lesson["chapters"])
        sections.append(f"""  <section id="{_e(lid)}">
    <h2>{_e(lesson["title"])} <small>{_duration(lesson["duration_s"])}</small></h2>
    <video id="v-{_e(lid)}" controls preload="metadata" poster="{_e(lid)}/{_e(lid)}.jpg">
      <source src="{_e(lid)}/{_e(lid)}.mp4" type="video/mp4">
      <track kind="subtitles" srclang="zh" label="中文" src="{_e(lid)}/{_e(lid)}.vtt" default>
    </video>
    <ol class="chapters">
{chapters}
    </ol>
  </section>""")
    body = "\n".join(sections) or "  <p>还没有渲染好的课。运行 <code>make video</code>。</p>"
    title = _e(manifest.get("title") or "课程")
    font = json.dumps(manifest.get("font") or "sans-serif")   # a CSS string: quoted and escaped
    return f"""<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
 body {{ font-family: {font}, sans-serif; max-width: 980px; margin: 2em auto; background: #111; color: #eee; }}
 video {{ width: 100%; background: #000; }}
 .chapters {{ list-style: none; padding: 0; columns: 2; }}
 .chapter {{ background: none; border: 0; color: #8cf; cursor: pointer; font: inherit; text-align: left; }}
 .t {{ color: #aaa; font-variant-numeric: tabular-nums; }}
 .note {{ color: #aaa; font-size: 0.9em; }}
</style>
</head>
<body>
<h1>{title}</h1>
<p class="note">用 <code>python render.py serve</code> 打开本页。直接双击打开（file://）时，浏览器会拒绝加载字幕轨，也可能无法拖动进度。</p>
{body}
<script>
document.querySelectorAll("button.chapter").forEach(function (b) {{
  b.addEventListener("click", function () {{
    var v = document.getElementById(b.dataset.video);
    v.currentTime = parseFloat(b.dataset.start);
    v.play().catch(function () {{}});
  }});
}});
</script>
</body>
</html>
"""


def write_page(course_dir: Path, manifest: dict) -> Path:
    return write_text(course_dir / "index.html", render_page(manifest))


def read_manifest(course_dir: Path) -> dict:
    return json.loads((course_dir / "manifest.json").read_text(encoding="utf-8"))
