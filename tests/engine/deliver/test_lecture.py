"""Lecture mode on the course page and its presenter view (coursekit/deliver/static/page.lecture.js), driven
by the keyboard alone in headless Chromium on the mini course as ``render.py course`` delivered it
(``made_mini``), served by render.py's server on loopback.

With "每句停" the video rests on each cue's last frame (the frame before the cue's end: index
``round(end_ms * fps / 1000) - 1``); →, Space and PageDown go on, ← goes back one cue; the presenter view,
opened from the page in a second window, shows the cue under way and the next one and sends its own keys
back. With "每章停" it rests on each chapter's last frame instead. The setting is remembered.

The frame shown is read from the page's ``data-shown-time`` (the presented frame's mediaTime, from
requestVideoFrameCallback). Screenshots of the page in lecture mode and of the presenter view, at 1280 px and
at 390 px, go to /tmp/lecture_shots/.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from tests.support.browser import chromium, served

SHOTS = Path("/tmp/lecture_shots")
V = "document.querySelector('video')"
L = "document.querySelector('.lesson')"
P = "document.querySelector('.presenter')"


@pytest.fixture(scope="module")
def delivered(made_mini):
    """The mini course's delivered folder (read only) and its manifest's one lesson."""
    folder = made_mini.course / "media" / "course"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return folder, manifest["lessons"][0]


@pytest.fixture(scope="module")
def url(delivered):
    yield from served(delivered[0])


@pytest.fixture(scope="module")
def browser(url):
    yield from chromium()


@pytest.fixture
def context(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    context.on("page", lambda p: p.on("pageerror", lambda e: errors.append(f"{p.url}: {e}")))
    yield context
    context.close()
    assert errors == []


def open_page(context, url):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = context.new_page()  # its errors: the context's hook
    page.goto(url)
    page.wait_for_function(f"{V}.readyState >= 2", timeout=20000)
    return page


def last_frame(ms: int, fps: int) -> int:
    """The last frame before lesson time ``ms`` (a cue's or chapter's end, whole ms from whole frames)."""
    return round(ms * fps / 1000) - 1


def tab_to(page, cls: str) -> None:
    """Press Tab until the element of class ``cls`` has the focus (the keyboard's way there)."""
    for _ in range(120):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.classList.contains({json.dumps(cls)})"):
            return
    raise AssertionError(f"Tab never reached .{cls}")


def choose_mode(page, value: str) -> None:
    """The lecture menu set to ``value`` by the keyboard: Tab to it, arrows, then Tab on."""
    tab_to(page, "lecture-mode")
    order = ["off", "cue", "chapter"]
    now = page.evaluate("document.activeElement.value")
    key = "ArrowDown" if order.index(value) > order.index(now) else "ArrowUp"
    for _ in range(abs(order.index(value) - order.index(now))):
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.value") == value
    page.keyboard.press("Tab")


def shown_frame(page, fps: int) -> int:
    return math.floor(page.evaluate(f"+{L}.dataset.shownTime") * fps + 0.01)


def stopped_at(page, fps: int) -> dict:
    """Wait until the video rests on a stop (lecture mode says so, no seek under way, paused); what is shown
    then, and still 400 ms later."""
    page.wait_for_function(
        f"{L}.dataset.lectureStopped === 'true' && !{V}.seeking && {V}.paused && {V}.readyState >= 2", timeout=20000
    )
    page.wait_for_timeout(250)
    first = shown_frame(page, fps)
    page.wait_for_timeout(400)
    return {
        "frame": first,
        "still": shown_frame(page, fps),
        "cue": int(page.evaluate(f"{L}.dataset.lectureCue")),
        "paused": page.evaluate(f"{V}.paused"),
        "quiz": page.evaluate(f"{L}.dataset.quiz || null"),
    }


def presenter(pres) -> dict:
    return pres.evaluate(f"""() => {{ const r = {P};
        return {{cue: r.dataset.cue === undefined ? null : +r.dataset.cue, now: r.querySelector('.p-now-text').textContent,
                 next: r.querySelector('.p-next-text').textContent, chapter: r.querySelector('.p-chapter').textContent,
                 clock: r.querySelector('.p-clock').textContent, elapsed: r.querySelector('.p-elapsed').textContent,
                 stopped: r.dataset.stopped}}; }}""")


def follows(pres, cue: int) -> dict:
    pres.wait_for_function(f"{P}.dataset.cue === '{cue}'", timeout=10000)
    return presenter(pres)


@pytest.mark.browser
@pytest.mark.render
def test_lecture_mode_by_keyboard_stops_at_each_cue_and_the_presenter_follows(context, url, delivered):
    _, lesson = delivered
    fps, cues, chapters = lesson["fps"], lesson["cues"], lesson["chapters"]
    assert [c["id"] for c in cues] == ["count_dots.show", "count_dots.ask", "count_dots.answer", "closing.bye"]
    stops = [last_frame(c["end_ms"], fps) for c in cues]
    # each stop is the cue's last frame: it starts before the cue ends, the next frame at or after
    assert all(k * 1000 / fps < c["end_ms"] <= (k + 1) * 1000 / fps + 0.5 for k, c in zip(stops, cues))
    texts = [c["text"] for c in cues]
    chapter_of = [lesson["scenes"].index(c["id"].split(".")[0]) for c in cues]

    page = open_page(context, url)
    choose_mode(page, "cue")
    assert page.evaluate("document.activeElement.className") == "presenter-open"
    with context.expect_page() as opened:
        page.keyboard.press("Enter")  # the focused button opens the presenter view
    pres = opened.value
    pres.wait_for_function(f"{P} && {P}.querySelector('.p-now-text').textContent !== ''")
    assert "?presenter=" in pres.url and pres.evaluate("document.querySelectorAll('video').length") == 0
    pres.wait_for_function(f"{P}.dataset.cue === '-1'", timeout=10000)
    before = presenter(pres)
    assert before["next"] == texts[0] and before["now"] != texts[0]
    assert re.fullmatch(r"\d\d:\d\d:\d\d", before["clock"]) and re.search(r"\d+:\d\d", before["elapsed"])

    # on: each key once, a cue at a time; the presenter window follows
    for n, key in enumerate(["Space", "ArrowRight", "PageDown", "ArrowRight"]):
        page.keyboard.press(key)
        got = stopped_at(page, fps)
        assert got == {"frame": stops[n], "still": stops[n], "cue": n, "paused": True, "quiz": None}, (key, n)
        shown = follows(pres, n)
        assert shown["now"] == texts[n] and shown["next"] == (texts[n + 1] if n + 1 < len(texts) else "（没有了）")
        assert shown["chapter"] == chapters[chapter_of[n]]["title"] and shown["stopped"] == "true"
    page.screenshot(path=str(SHOTS / "lecture-page-1280.png"))
    pres.screenshot(path=str(SHOTS / "presenter-960.png"))

    # back: ← goes to the cue before's last frame, twice; → goes on from there
    for n in (2, 1):
        page.keyboard.press("ArrowLeft")
        got = stopped_at(page, fps)
        assert (got["frame"], got["still"], got["cue"]) == (stops[n], stops[n], n)
        assert follows(pres, n)["now"] == texts[n]
    page.keyboard.press("ArrowRight")
    assert stopped_at(page, fps)["frame"] == stops[2]
    assert follows(pres, 2)["next"] == texts[3]

    # the presenter window's own keys drive the page
    pres.bring_to_front()
    pres.keyboard.press("ArrowRight")
    got = stopped_at(page, fps)
    assert (got["frame"], got["cue"]) == (stops[3], 3)
    assert follows(pres, 3)["now"] == texts[3]
    pres.keyboard.press("ArrowLeft")
    assert stopped_at(page, fps)["frame"] == stops[2]
    assert follows(pres, 2)["now"] == texts[2]

    # a phone's width: the page and the presenter view
    page.set_viewport_size({"width": 390, "height": 844})
    pres.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    page.evaluate(f"{L}.querySelector('.stage').scrollIntoView()")
    page.screenshot(path=str(SHOTS / "lecture-page-390.png"))
    pres.screenshot(path=str(SHOTS / "presenter-390.png"))
    overflow = "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    assert page.evaluate(overflow) is False and pres.evaluate(overflow) is False


@pytest.mark.browser
@pytest.mark.render
def test_chapter_stops_and_the_setting_is_remembered(context, url, delivered):
    _, lesson = delivered
    fps, cues, chapters = lesson["fps"], lesson["cues"], lesson["chapters"]
    page = open_page(context, url)
    choose_mode(page, "chapter")
    page.reload()
    page.wait_for_function(f"{V}.readyState >= 2", timeout=20000)
    assert page.evaluate(f"{L}.querySelector('.lecture-mode').value") == "chapter"  # remembered
    assert page.evaluate(f"{L}.querySelector('.lecture-badge').hidden") is False
    first = [n for n, c in enumerate(cues) if c["id"].startswith(lesson["scenes"][0] + ".")]

    page.keyboard.press("PageDown")  # past every cue of the first chapter, to its end
    got = stopped_at(page, fps)
    assert (got["frame"], got["cue"]) == (last_frame(chapters[0]["end_ms"], fps), first[-1])
    page.keyboard.press("ArrowLeft")  # back one cue, even by chapters
    got = stopped_at(page, fps)
    assert (got["frame"], got["cue"]) == (last_frame(cues[first[-2]]["end_ms"], fps), first[-2])
    page.keyboard.press("Space")  # on to the chapter's end again, not the next cue's
    assert stopped_at(page, fps)["frame"] == last_frame(chapters[0]["end_ms"], fps)

    choose_mode(page, "off")  # off: the keys are YouTube's again (→ is 5 s on, the video plays through)
    assert page.evaluate(f"{L}.querySelector('.lecture-badge').hidden") is True
    page.keyboard.press("k")
    page.wait_for_function(f"{V}.ended || {V}.currentTime * 1000 > {chapters[0]['end_ms'] + 300}", timeout=20000)
    assert page.evaluate(f"{L}.dataset.lectureStopped") == "false"
