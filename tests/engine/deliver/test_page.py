"""The course page in headless Chromium, served by render.py's Range-capable server on loopback."""

import shutil

import pytest

from coursekit.assemble.lesson_video import chapter_times
from coursekit.deliver.page import SCRIPT_PARTS, STATIC, page_script, read_template, render_page, write_page
from tests.support import browser
from tests.support.synthetic import build_assembled


def manifest_for(plan) -> dict:
    return {
        "lessons": [
            {
                "lesson": plan.lesson,
                "title": plan.title,
                "duration_s": plan.frames / plan.fps,
                "chapters": [{"start_ms": a, "end_ms": b, "title": t} for a, b, t in chapter_times(plan)],
            }
        ]
    }


def test_page_escapes_narration_text():
    m = {
        "lessons": [
            {
                "lesson": "x",
                "title": "<script>alert(1)</script> & -->",
                "duration_s": 5,
                "chapters": [{"start_ms": 0, "end_ms": 5000, "title": '"><img src=x onerror=alert(1)>'}],
            }
        ]
    }
    page = render_page(m)
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; --&gt;" in page
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


def _unjoined(static) -> tuple[list[str], list[str]]:
    """(the page's script files in ``static`` that SCRIPT_PARTS leaves out, the parts it names that are missing)"""
    files = {p.name for p in static.glob("page*.js")}
    return sorted(files - set(SCRIPT_PARTS)), sorted(set(SCRIPT_PARTS) - files)


def test_the_page_script_is_every_part_once_in_order(tmp_path):
    """The course folder's page.js is each part of static/ once, in SCRIPT_PARTS' order, each whole; a part
    left out of the list, or listed and missing, is found."""
    assert _unjoined(STATIC) == ([], [])
    joined = page_script()
    at = [joined.index(f"/* --- {name} --- */\n") for name in SCRIPT_PARTS]
    assert at == sorted(at) and at[0] == 0
    for name, start, end in zip(SCRIPT_PARTS, at, at[1:] + [len(joined)]):
        assert joined[start:end].split("\n", 1)[1].rstrip("\n") == (STATIC / name).read_text(encoding="utf-8").rstrip(
            "\n"
        )
    assert SCRIPT_PARTS[0] == "page.js" and SCRIPT_PARTS[-1] == "page.start.js"  # the core first, the start last
    seeded = tmp_path / "static"
    shutil.copytree(STATIC, seeded)
    (seeded / "page.extra.js").write_text("/* a new part */\n", encoding="utf-8")
    (seeded / "page.keys.js").unlink()
    assert _unjoined(seeded) == (["page.extra.js"], ["page.keys.js"])


def test_the_template_parts_run_from_their_line_to_the_next(tmp_path):
    path = tmp_path / "page.html"
    path.write_text(
        "<!--\nabout the file\n-->\n\n<!-- part: one -->\n  <p>${a}</p>\n<b>x</b>\n\n\n<!-- part: two -->\n<i>$b</i>\n",
        encoding="utf-8",
    )
    parts = read_template(path)
    assert {name: t.template for name, t in parts.items()} == {"one": "  <p>${a}</p>\n<b>x</b>", "two": "<i>$b</i>"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    browser.need_chromium()
    tmp = tmp_path_factory.mktemp("page")
    plan, _, outdir, _ = build_assembled(tmp)
    course = outdir.parent
    write_page(course, manifest_for(plan))
    for url in browser.served(course):
        yield plan, url


def test_server_answers_range_requests(served):
    import urllib.request

    _, url = served
    req = urllib.request.Request(url + "trig_to_rope/trig_to_rope.mp4", headers={"Range": "bytes=0-99"})
    with urllib.request.urlopen(req) as resp:
        assert resp.status == 206
        assert len(resp.read()) == 100
        assert resp.headers["Content-Range"].startswith("bytes 0-99/")


@pytest.mark.browser
def test_browser_loads_video_track_and_seeks_by_chapter(served):
    plan, url = served
    for chromium in browser.chromium():
        page = chromium.new_page()
        page.goto(url)
        page.wait_for_function("document.querySelector('video').readyState >= 1", timeout=20000)
        duration = page.evaluate("document.querySelector('video').duration")
        assert abs(duration - plan.frames / plan.fps) < 0.2
        page.evaluate("document.querySelector('video').textTracks[0].mode = 'showing'")
        page.wait_for_function(
            "document.querySelector('video').textTracks[0].cues && "
            "document.querySelector('video').textTracks[0].cues.length > 0",
            timeout=20000,
        )
        n_cues = page.evaluate("document.querySelector('video').textTracks[0].cues.length")
        assert n_cues == sum(len(c.subtitles) for s in plan.scenes for c in s.cues)
        page.locator("button.chapter").nth(1).click()
        page.wait_for_function(
            "Math.abs(document.querySelector('video').currentTime - %f) < 0.1"
            % (plan.scenes[1].start_frame / plan.fps),
            timeout=20000,
        )
