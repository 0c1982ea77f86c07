"""Accessibility, measured: axe-core (axe-playwright-python) with the WCAG 2.2 A and AA rules on the course
page and on the studio, at a desktop's width and a phone's (390 px), 0 violations; and what axe does not
measure: every pointer target at least 24×24 px, the focus always visible, no motion for a viewer who asks
for less, every control named.

The course page is the player's course (tests/support/player_course.py), checked as it first loads, with a
question asked inside the video, and with the list of keys open. The studio is ``render.py studio`` on a
copy of the mini course as conftest's ``made_mini`` made it, without its previews (a Manim build: marked render).
"""

import json
from pathlib import Path

import pytest

from tests.engine.deliver.test_player import V, play_into, quiz_plan
from tests.support.browser import chromium, served
from tests.support.mini_runs import copy_made
from tests.support.studio_process import running_studio

ROOT = Path(__file__).resolve().parents[3]
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
SHOTS = Path("/tmp/player_shots")
BUILD_S = 240

pytestmark = pytest.mark.browser


def axe_violations(page) -> list[str]:
    """axe-core's WCAG 2.2 A/AA violations on the page as it is now, one line each (rule, impact, where)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    out = []
    for v in results.response["violations"]:
        for node in v["nodes"]:
            out.append(f"{v['id']} ({v['impact']}): {' '.join(node['target'])}: {node.get('failureSummary', '')[:200]}")
    return out


SMALL_TARGETS = """() => [...document.querySelectorAll('button, input, a, select, [role=slider], summary')]
    .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .map(e => { const r = e.getBoundingClientRect(); return [e.className || e.tagName, e.textContent.trim().slice(0, 20),
                                                              Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10]; })
    .filter(([, , w, h]) => w < 24 || h < 24)"""

UNNAMED = """() => [...document.querySelectorAll('button, input, a[href], select, [role=slider], video, dialog')]
    .filter(e => e.getClientRects().length || e.tagName === 'DIALOG')
    .filter(e => {
        const by = (e.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
            .map(id => (document.getElementById(id) || {}).textContent || '').join('');
        const labels = e.labels ? [...e.labels].map(l => l.textContent).join('') : '';
        return !((e.getAttribute('aria-label') || '').trim() || by.trim() || labels.trim() ||
                 (e.tagName !== 'INPUT' && e.tagName !== 'SELECT' && e.textContent.trim()));
    }).map(e => e.outerHTML.slice(0, 120))"""


def _course_states(page, manifest):
    """The states the course page is checked in: as loaded, a question asked inside the video, the keys' list."""
    yield "loaded"
    beta, gamma = quiz_plan(manifest)
    play_into(page, gamma)
    yield "question"
    page.locator(".quiz-continue").click()
    page.evaluate(f"{V}.pause()")
    page.keyboard.press("?")
    yield "keys"
    page.keyboard.press("Escape")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """The player's course, made once in the run (tests/engine/deliver/test_player.py reads the same)."""
    from tests.support.player_course import shared_player_course

    return shared_player_course(tmp_path_factory)


@pytest.fixture(scope="module")
def url(course):
    yield from served(course[2])


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


def _open(browser, url, width: str, **options):
    phone = width == "phone"
    context = browser.new_context(
        viewport=WIDTHS[width], is_mobile=phone, has_touch=phone, device_scale_factor=2 if phone else 1, **options
    )
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(f"{V}.readyState >= 2", timeout=20000)
    return context, page


# --- the course page -------------------------------------------------------------------------------
def test_the_checks_find_what_they_look_for(browser, url):
    """axe, run as below, reports a nameless button, a tiny target and an unlabelled input put on the page."""
    context, page = _open(browser, url, "desktop")
    page.evaluate("""() => { const b = document.createElement('button'); b.style.cssText = 'width:12px;height:12px';
        const i = document.createElement('input'); document.querySelector('main').append(b, i); }""")
    found = " ".join(axe_violations(page))
    assert "button-name" in found and "label" in found and "target-size" in found
    assert len(page.evaluate(SMALL_TARGETS)) >= 1 and len(page.evaluate(UNNAMED)) == 2
    context.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_axe_finds_nothing_on_the_course_page(browser, url, course, width):
    context, page = _open(browser, url, width)
    found = {}
    for name in _course_states(page, course[1]):
        found[name] = axe_violations(page)
        assert page.evaluate(SMALL_TARGETS) == [], name
        assert page.evaluate(UNNAMED) == [], name
    context.close()
    assert found == {"loaded": [], "question": [], "keys": []}


FOCUS = """() => { const e = document.activeElement, s = getComputedStyle(e);
    return [e.className || e.tagName, s.outlineStyle, parseFloat(s.outlineWidth), e.matches(':focus-visible'),
            s.outlineColor !== s.backgroundColor]; }"""


def test_the_focus_always_shows(browser, url, course):
    """Tab through the page: each control that takes the focus draws a 3 px outline (:focus-visible) in a
    colour other than its own background; in the question asked in the video and the keys' list too."""
    context, page = _open(browser, url, "desktop")
    page.locator("h1").click()
    seen = {}
    for _ in range(45):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS)
        if focus[0] != "BODY":  # past the last control the focus leaves the page
            seen.setdefault(focus[0], focus)
    for cls, style, width, visible, apart in seen.values():
        assert visible and style != "none" and width >= 2 and apart, (cls, style, width, apart)
    for cls in (
        "ctl play",
        "ctl cc",
        "speed",
        "cap-size",
        "ctl quiz-switch",
        "progress",
        "search",
        "line",
        "chapter seek",
        "reveal",
    ):
        assert cls in seen, (cls, list(seen))
    # in the list of keys too
    page.locator("h1").click()  # (not in the search box, where ? is typed)
    page.keyboard.press("?")
    assert page.evaluate("document.querySelector('#keys-dialog').open")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUS) == ["keys-close", "solid", 3, True, True]
    page.keyboard.press("Escape")
    play_into(page, quiz_plan(course[1])[0])
    assert page.evaluate(FOCUS) == ["quiz-reveal", "solid", 3, True, True]
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUS) == ["quiz-continue", "solid", 3, True, True]
    context.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_is_respected(browser, url, course, motion):
    context, page = _open(browser, url, "desktop", reduced_motion=motion)
    play_into(page, quiz_plan(course[1])[0])  # a question opens (it would fade in)
    moving = page.evaluate("""() => [...document.querySelectorAll('*')].map(e => { const s = getComputedStyle(e);
        return [e.className || e.tagName, s.transitionDuration, s.animationName, s.scrollBehavior]; })
        .filter(([, t, a, sb]) => t.split(',').some(x => parseFloat(x) > 0) || (a && a !== 'none') || sb === 'smooth')""")
    if motion == "reduce":
        assert moving == []
        assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    else:  # the same check sees motion when it is allowed
        kinds = {m[0] for m in moving}
        assert "lines" in kinds and "quiz" in kinds and "HTML" in kinds
    context.close()


# --- the studio ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def studio(tmp_path_factory, made_mini):
    """The studio on a copy of the made mini course without its previews: count_dots is built on its page,
    as on a fresh copy, but from the voice's audio cache and Manim's partial movies."""
    course = copy_made(made_mini.course, tmp_path_factory.mktemp("a11y-studio") / "mini_course", without=("preview",))
    yield from running_studio(course)


@pytest.mark.render
def test_axe_finds_nothing_on_the_studio(browser, studio):
    found = {}
    for width in WIDTHS:
        # the studio's CSP forbids string evaluation, which axe's injection needs
        context = browser.new_context(
            viewport=WIDTHS[width], bypass_csp=True, is_mobile=width == "phone", has_touch=width == "phone"
        )
        page = context.new_page()
        page.goto(studio)
        page.wait_for_function("() => document.querySelectorAll('main a').length > 0", timeout=60000)
        found[f"index {width}"] = axe_violations(page)
        found[f"index {width} small targets"] = page.evaluate(SMALL_TARGETS)
        page.goto(studio + "scene/count_dots")
        page.wait_for_function(
            "() => { const v = document.querySelector('video'); return v && !v.hidden && v.readyState >= 2; }",
            timeout=BUILD_S * 1000,
        )
        page.wait_for_function("() => document.querySelectorAll('.cue-bar').length > 0")
        found[f"scene {width}"] = axe_violations(page)
        page.locator(".cue-bar").nth(1).click()  # a cue playing: its bar and row lit
        page.wait_for_function("() => document.querySelector('.cue-bar.on')")
        found[f"scene {width}, a cue on"] = axe_violations(page)
        found[f"scene {width} small targets"] = page.evaluate(SMALL_TARGETS)
        found[f"scene {width} unnamed"] = page.evaluate(UNNAMED)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"studio_{width}.png"), full_page=True)
        context.close()
    assert all(v == [] for v in found.values()), json.dumps(found, ensure_ascii=False, indent=1)
