"""The course page's player (coursekit/deliver/static/page.js) in headless Chromium, on the player's own
small course (tests/support/player_course.py: four chapters, two questions, one with choices, character times,
seek-bar thumbnails), served by render.py's server on loopback: questions asked inside the video, the
keys, the speed menu, what is remembered across a reload, the word highlight, the thumbnails.

Times are read from the presented frame (requestVideoFrameCallback's mediaTime), as in
tests/engine/deliver/test_course_page.py. Screenshots go to /tmp/player_shots/.
"""

import json
import math
from pathlib import Path

import pytest

from coursekit.deliver.page import line_words, one_line, questions, render_page
from tests.support.browser import chromium, served
from tests.support.player_course import CHOICES, LESSON, TILE_H, TILE_W, TILES_PER_ROW, shared_player_course
from tests.support.synthetic import FPS

SHOTS = Path("/tmp/player_shots")
V = "document.querySelector('video')"
L = "document.querySelector('.lesson')"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """The player's course, made once in the run (the accessibility tests read the same)."""
    return shared_player_course(tmp_path_factory)


@pytest.fixture(scope="module")
def url(course):
    yield from served(course[2])


@pytest.fixture(scope="module")
def browser(url):
    yield from chromium()


def open_page(browser, url, **options):
    context = browser.new_context(**({"viewport": {"width": 1280, "height": 900}} | options))
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function(f"{V}.readyState >= 2", timeout=20000)
    return context, page, errors


@pytest.fixture
def page(browser, url):
    context, pg, errors = open_page(browser, url)
    yield pg
    assert errors == []
    context.close()


ARM = (
    "() => { window.__frame = new Promise((ok, no) => { const t = setTimeout(() => no('no frame presented'), 8000);"
    f" {V}.requestVideoFrameCallback((now, m) => {{ clearTimeout(t); ok(m.mediaTime); }}); }}); }}"
)


def presented(page) -> float:
    """The mediaTime of the next presented frame (armed with ARM before the action that presents it)."""
    t = page.evaluate("window.__frame")
    page.wait_for_timeout(60)  # the page's own frame callback ran first; let its DOM update settle
    return t


def frame(t: float) -> int:
    return round(t * FPS)


def first_frame_at(ms: float) -> int:
    """The frame the page shows for a seek to ``ms``: the first at or after it (page.js seekTime)."""
    return max(0, math.ceil((ms - 0.5) * FPS / 1000))


def seek_frame(page, k: int) -> int:
    page.evaluate(ARM)
    page.evaluate(f"{V}.currentTime = {(k + 0.5) / FPS}")
    return frame(presented(page))


def press(page, key: str) -> int:
    """Press ``key`` and return the frame it presents."""
    page.evaluate(ARM)
    page.keyboard.press(key)
    return frame(presented(page))


def state(page) -> dict:
    return page.evaluate(f"""() => {{ const v = {V}, l = {L}, q = l.querySelector('.quiz');
        return {{paused: v.paused, muted: v.muted, rate: v.playbackRate, shown: +l.dataset.shownTime, by: l.dataset.shownBy,
                 quiz: l.dataset.quiz || null, quizShown: !q.hidden, question: q.querySelector('.quiz-question').textContent,
                 choices: [...q.querySelectorAll('.quiz-choice')].map(b => b.textContent),
                 answerShown: !q.querySelector('.quiz-answer').hidden, answer: q.querySelector('.quiz-answer').textContent,
                 feedback: q.querySelector('.quiz-feedback').textContent,
                 focus: document.activeElement.className, caps: !l.querySelector('.captions').hidden,
                 cc: l.querySelector('.ctl.cc').getAttribute('aria-pressed'), seeking: v.seeking}}; }}""")


def quiz_plan(manifest) -> list[dict]:
    qs = questions(manifest["lessons"][0]["role_cues"])
    for q in qs:
        q["pause_frame"] = round(q["end_ms"] * FPS / 1000) - 1  # the question cue's last frame
        q["think_end_frame"] = first_frame_at(q["think_end_ms"])  # the first frame after its pause to think
    return qs


def play_into(page, q: dict, lead_frames: int = 10) -> dict:
    """Play from ``lead_frames`` before the question's pause frame until the page asks it; its state."""
    page.evaluate(f"{V}.currentTime = {(q['pause_frame'] - lead_frames + 0.5) / FPS}")
    page.wait_for_function(f"!{V}.seeking")
    page.evaluate(f"{V}.play()")
    page.wait_for_function(f"{L}.dataset.quiz === {json.dumps(q['id'])}", timeout=15000)
    page.wait_for_function(f"!{V}.seeking && {V}.paused")
    page.wait_for_timeout(250)
    return state(page)


# --- questions inside the video --------------------------------------------------------------------
@pytest.mark.browser
def test_the_video_pauses_at_each_question_and_resumes(page, course):
    _, manifest, _ = course
    beta, gamma = quiz_plan(manifest)
    assert (beta["id"], gamma["id"]) == ("beta.ask", "gamma.ask")
    assert beta["choices"] == [] and gamma["choices"] == list(CHOICES) and gamma["correct"] == 2

    # beta, no choices: it pauses on the question's last frame and asks; continuing unanswered plays the pause
    s = play_into(page, beta)
    assert s["paused"] and s["by"] == "frame" and frame(s["shown"]) == beta["pause_frame"]
    assert s["quizShown"] and s["question"] == beta["text"] and s["choices"] == [] and not s["answerShown"]
    assert s["focus"] == "quiz-reveal"  # the keyboard is at the question
    page.evaluate(ARM)
    page.locator(".quiz-continue").click()
    k = frame(presented(page))
    assert beta["pause_frame"] < k < beta["think_end_frame"]  # not answered: the pause to think plays
    assert not state(page)["paused"] and not state(page)["quizShown"]
    page.evaluate(f"{V}.pause()")

    # seeking back before it asks it again; asked for the answer, continuing skips the pause to think
    s = play_into(page, beta)
    assert frame(s["shown"]) == beta["pause_frame"] and s["quizShown"]
    page.locator(".quiz-reveal").click()
    s = state(page)
    assert s["answerShown"] and s["answer"] == "答案：" + "".join(a["text"] for a in beta["answers"])
    assert page.locator(".quiz-reveal").is_hidden() and s["focus"] == "quiz-continue"
    page.evaluate(ARM)
    page.locator(".quiz-continue").click()
    assert frame(presented(page)) == beta["think_end_frame"]
    assert not state(page)["paused"]
    page.evaluate(f"{V}.pause()")

    # gamma, with choices, by keyboard: Tab to the second (right) one, Enter; Enter on continue skips the pause
    s = play_into(page, gamma)
    assert s["paused"] and frame(s["shown"]) == gamma["pause_frame"]
    assert s["choices"] == list(CHOICES) and s["focus"] == "quiz-choice"
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    s = state(page)
    assert s["feedback"].startswith("答对了。") and s["answerShown"] and s["focus"] == "quiz-continue"
    assert page.locator(".quiz-choice").nth(1).get_attribute("aria-pressed") == "true"
    assert "right" in page.locator(".quiz-choice").nth(1).get_attribute("class")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "question_paused.png"))
    page.evaluate(ARM)
    page.keyboard.press("Enter")
    assert frame(presented(page)) == gamma["think_end_frame"]
    page.evaluate(f"{V}.pause()")

    # a wrong choice says which is right; k (play) continues, the pause skipped
    play_into(page, gamma)
    page.locator(".quiz-choice").nth(2).click()
    s = state(page)
    assert s["feedback"].startswith(f"不对。正确的是：{CHOICES[1]}")
    assert "wrong" in page.locator(".quiz-choice").nth(2).get_attribute("class")
    page.evaluate(ARM)
    page.keyboard.press("k")
    assert frame(presented(page)) == gamma["think_end_frame"] and not state(page)["quizShown"]


@pytest.mark.browser
def test_questions_by_touch_and_the_remembered_off_switch(browser, url, course):
    _, manifest, _ = course
    beta, gamma = quiz_plan(manifest)
    context, page, errors = open_page(
        browser, url, viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    s = play_into(page, beta)
    assert s["quizShown"] and frame(s["shown"]) == beta["pause_frame"]
    # on a phone the question sits under the video, the frame it paused on left in view
    video, quiz = page.locator("video").bounding_box(), page.locator(".quiz").bounding_box()
    assert quiz["y"] >= video["y"] + video["height"] - 1 and quiz["x"] + quiz["width"] <= 390
    page.locator(".quiz-reveal").tap()
    page.evaluate(ARM)
    page.locator(".quiz-continue").tap()
    assert frame(presented(page)) == beta["think_end_frame"]
    page.evaluate(f"{V}.pause()")
    play_into(page, gamma)
    page.locator(".quiz-choice").nth(1).tap()
    assert state(page)["feedback"].startswith("答对了。")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone_390_question.png"), full_page=True)
    page.locator(".quiz-continue").tap()
    page.evaluate(f"{V}.pause()")

    # the switch turns them off, and stays off after a reload: the video plays through the question
    switch = page.locator(".ctl.quiz-switch")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.tap()
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.evaluate("JSON.parse(localStorage.getItem('coursekit:prefs')).quiz") is False
    page.reload()
    page.wait_for_function(f"{V}.readyState >= 2", timeout=20000)
    assert page.locator(".ctl.quiz-switch").get_attribute("aria-pressed") == "false"
    page.evaluate(f"{V}.currentTime = {(beta['pause_frame'] - 8 + 0.5) / FPS}; {V}.play()")
    page.wait_for_function(f"+{L}.dataset.shownTime * {FPS} > {beta['think_end_frame'] + 3}", timeout=15000)
    s = state(page)
    assert s["quiz"] is None and not s["quizShown"] and not s["paused"]
    page.evaluate(f"{V}.pause()")
    page.screenshot(path=str(SHOTS / "phone_390.png"), full_page=True)
    assert errors == []
    context.close()


# --- the keys ------------------------------------------------------------------------------------------
@pytest.mark.browser
def test_every_shortcut(page, course):
    plan, manifest, _ = course
    starts = [s.start_frame for s in plan.scenes]
    duration_ms = page.evaluate(f"{V}.duration") * 1000
    page.locator("h2").first.click()  # the page has focus, no control does
    assert page.evaluate("document.activeElement === document.body")

    # k and space: play / pause
    for key in ("k", " "):
        page.keyboard.press(key)
        page.wait_for_function(f"!{V}.paused")
        page.keyboard.press(key)
        page.wait_for_function(f"{V}.paused")

    def now_ms() -> int:
        return round(page.evaluate(f"{V}.currentTime") * 1000)

    # j / l: ±10 s; ← / →: ±5 s (each to the first frame at or after its target)
    seek_frame(page, 90)
    for key, step in (("l", 10000), ("j", -10000), ("ArrowRight", 5000), ("ArrowLeft", -5000)):
        target = now_ms() + step
        assert press(page, key) == first_frame_at(target), key

    # , / . : one frame back / forward, when paused
    k = seek_frame(page, 100)
    assert press(page, ".") == k + 1
    assert press(page, ".") == k + 2
    assert press(page, ",") == k + 1

    # 0-9: that tenth of the lesson
    for n in (5, 0, 9, 3):
        assert press(page, str(n)) == first_frame_at(duration_ms * n / 10), n

    # Shift+N / Shift+P: next / previous chapter (previous: this chapter's start if 2 s or more into it)
    seek_frame(page, starts[1] + 5)
    assert press(page, "Shift+N") == starts[2]
    assert press(page, "Shift+N") == starts[3]
    seek_frame(page, starts[3] + 10)  # under 2 s into delta: back to gamma
    assert press(page, "Shift+P") == starts[2]
    seek_frame(page, starts[3] + 60)  # 4 s in: delta's own start
    assert press(page, "Shift+P") == starts[3]

    # c: subtitles on / off (remembered); m: mute; f: fullscreen
    seek_frame(page, first_frame_at(manifest["lessons"][0]["subtitles"][1]["start_ms"] + 100))
    assert state(page)["caps"] and state(page)["cc"] == "true"
    page.keyboard.press("c")
    assert not state(page)["caps"] and state(page)["cc"] == "false"
    assert page.evaluate("JSON.parse(localStorage.getItem('coursekit:prefs')).subs") is False
    page.keyboard.press("c")
    assert state(page)["caps"] and state(page)["cc"] == "true"
    page.keyboard.press("m")
    assert state(page)["muted"] and page.locator(".ctl.mute").get_attribute("aria-pressed") == "true"
    page.keyboard.press("m")
    assert not state(page)["muted"]
    page.keyboard.press("f")
    # the button's state is set by the fullscreenchange event, which fires after fullscreenElement is set:
    # waited for (a timeout fails the test), not read at once (which raced it: 'false' in one full run)
    page.wait_for_function("document.fullscreenElement === document.querySelector('.stage')")
    page.wait_for_function("document.querySelector('.ctl.full').getAttribute('aria-pressed') === 'true'", timeout=5000)
    assert page.locator(".ctl.full").get_attribute("aria-pressed") == "true"
    page.keyboard.press("f")
    page.wait_for_function("document.fullscreenElement === null")
    page.wait_for_function("document.querySelector('.ctl.full').getAttribute('aria-pressed') === 'false'", timeout=5000)

    # ?: the list of keys, a dialog; Esc closes it
    dialog = page.locator("#keys-dialog")
    assert dialog.is_hidden()
    page.keyboard.press("?")
    assert dialog.is_visible() and page.evaluate("document.querySelector('#keys-dialog').open")
    # YouTube's ten, lecture mode's three (→ / Space / PageDown, ← / PageUp, p)
    assert dialog.locator("tr").count() == 13 and "Shift + N" in dialog.text_content()
    assert "讲课模式：← / PageUp" in dialog.text_content()
    page.keyboard.press("k")  # keys do nothing to the video under it
    assert state(page)["paused"]
    page.keyboard.press("Escape")
    assert dialog.is_hidden()
    page.locator(".ctl.keys").click()  # its button opens it too; 关闭 closes it
    assert dialog.is_visible()
    dialog.locator(".keys-close").click()
    assert dialog.is_hidden()

    # never while typing in the search box
    before = state(page)
    box = page.locator(".search")
    box.click()
    page.keyboard.type("kcm5lf")
    assert box.input_value() == "kcm5lf"
    after = state(page)
    assert (after["paused"], after["muted"], after["cc"], after["shown"]) == (
        before["paused"],
        before["muted"],
        before["cc"],
        before["shown"],
    )
    assert page.evaluate("document.fullscreenElement") is None
    box.fill("")
    # a transcript line has the focus: the keys still work
    page.locator(".lines .line").nth(0).focus()
    k = seek_frame(page, 60)
    assert press(page, ".") == k + 1


@pytest.mark.browser
def test_the_speed_menu(page):
    speed = page.get_by_label("速度")
    assert speed.evaluate("e => e.tagName") == "SELECT"
    assert speed.evaluate("e => [...e.options].map(o => +o.value)") == [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2]
    assert speed.input_value() == "1"
    for value in ("1.5", "0.5", "2"):
        speed.select_option(value)
        assert state(page)["rate"] == float(value)
    page.evaluate(f"{V}.playbackRate = 0.75")  # set elsewhere: the menu follows (on ratechange)
    page.wait_for_function("document.querySelector('.speed').value === '0.75'", timeout=5000)
    # at 2× the video runs twice as fast: media time against the page's clock while it plays (in the last
    # chapter, past the questions, which would pause it)
    speed.select_option("2")
    rate = page.evaluate(f"""() => new Promise((ok, no) => {{ const v = {V}; let first = null;
        setTimeout(() => no('the video did not play'), 15000);
        v.currentTime = 10; v.play();
        const tick = (now, m) => {{ if (first === null) first = [now, m.mediaTime];
            if (now - first[0] > 1500) {{ v.pause(); ok((m.mediaTime - first[1]) * 1000 / (now - first[0])); }}
            else v.requestVideoFrameCallback(tick); }};
        v.requestVideoFrameCallback(tick); }})""")
    assert 1.6 < rate < 2.4, rate


# --- remembered ---------------------------------------------------------------------------------------
@pytest.mark.browser
def test_position_and_subtitles_are_remembered_across_a_reload(page, course):
    page.get_by_label("字幕大小").select_option("l")
    page.locator(".ctl.cc").click()  # subtitles off
    k = seek_frame(page, 100)
    page.wait_for_timeout(100)
    page.add_init_script("""(() => { const set = Storage.prototype.setItem; window.__writes = [];
        Storage.prototype.setItem = function (k, v) { if (k.startsWith('coursekit:pos:')) window.__writes.push([performance.now(), v]);
                                                   return set.call(this, k, v); }; })()""")
    page.reload()
    page.wait_for_function(f"{V}.readyState >= 2 && {L}.dataset.shownBy === 'frame'", timeout=20000)
    page.wait_for_function(f"!{V}.seeking")
    page.wait_for_timeout(200)
    s = state(page)
    assert frame(s["shown"]) == k and s["paused"]
    resume = page.locator(".resume")
    assert resume.is_visible() and resume.locator(".resume-text").text_content() == "从 0:06 接着看。"
    assert page.get_by_label("字幕大小").input_value() == "l"
    assert page.locator(".stage").get_attribute("data-cap-size") == "l" and s["cc"] == "false"
    # while it plays, the position is written at most once every 2 s
    page.evaluate("window.__writes = []")
    page.evaluate(f"{V}.play()")
    page.wait_for_timeout(3300)
    page.evaluate(f"{V}.pause()")
    writes = page.evaluate("window.__writes")
    gaps = [b[0] - a[0] for a, b in zip(writes, writes[1:])]
    assert 1 <= len(writes) <= 3 and all(g >= 1900 for g in gaps[:-1]), writes  # the last: written on pause
    # 从头看: from the first frame, and nothing remembered for now (armed once the pause's own frame is
    # presented: under load that frame came after the arming, and was taken for 从头看's)
    page.wait_for_function(f"{V}.paused && !{V}.seeking")
    page.evaluate(
        "() => new Promise(ok => { const t = setTimeout(ok, 500);"
        f" {V}.requestVideoFrameCallback(() => {{ clearTimeout(t); ok(); }}); }})"
    )
    page.evaluate(ARM)
    resume.locator(".restart").click()
    assert frame(presented(page)) <= 2
    assert resume.is_hidden()
    page.evaluate(f"{V}.pause()")
    page.evaluate(f"{V}.currentTime = 0")
    page.wait_for_timeout(100)
    page.reload()
    page.wait_for_function(f"{V}.readyState >= 2", timeout=20000)
    assert page.locator(".resume").is_hidden()


# --- the word highlight ----------------------------------------------------------------------------------
@pytest.mark.browser
def test_the_current_word_is_lit_at_three_seeks(page, course):
    _, manifest, _ = course
    events = manifest["lessons"][0]["subtitles"]
    assert all("chars" in e for e in events)
    by_text = {one_line(e["text"]): e for e in events}
    # a Chinese character, a Latin word, punctuation kept with the character before it
    picks = [
        ("RoPE 转座位，q 和 k。", "位，"),
        ("Transformer 读的是一袋词，座位要另外告诉它。", "Transformer"),
        ("这一章很长，留出前进和后退的余地。", "后"),
    ]
    seen = []
    for text, piece in picks:
        e = by_text[text]
        parts = line_words(text, e["chars"])
        at = next(a for p, a in parts if p == piece)
        page.evaluate(ARM)
        page.evaluate(f"{V}.currentTime = {(first_frame_at(at + 20) + 0.5) / FPS}")  # the first frame after it starts
        mt = presented(page)
        ms = round(mt * 1000)
        assert e["start_ms"] <= ms < e["end_ms"]
        expected = [(p, a) for p, a in parts if a is not None and a <= ms][-1]
        lit = page.evaluate(
            "[...document.querySelectorAll('.line.current .w.now')].map(w => [w.textContent, +w.dataset.at])"
        )
        assert lit == [list(expected)], (text, ms, lit)
        assert page.locator(".line.current .x").text_content() == text
        seen.append(expected[0])
    assert len(set(seen)) == 3 and "Transformer" in seen
    # between lines nothing is lit
    gap = events[0]["end_ms"] + 30
    page.evaluate(ARM)
    page.evaluate(f"{V}.currentTime = {(first_frame_at(gap) + 0.5) / FPS}")
    ms = round(presented(page) * 1000)
    assert not any(e["start_ms"] <= ms < e["end_ms"] for e in events)
    assert page.locator(".w.now").count() == 0
    # a search marks the text; cleared, the words are back and lit again
    page.evaluate(ARM)
    page.evaluate(f"{V}.currentTime = {(first_frame_at(by_text[picks[0][0]]['chars'][6] + 20) + 0.5) / FPS}")
    presented(page)
    assert page.locator(".line.current .w.now").count() == 1
    page.locator(".search").fill("座位")
    assert page.locator(".lines mark").count() >= 1
    page.locator(".search").fill("")
    page.wait_for_timeout(50)
    assert page.locator(".line.current .w.now").count() == 1


# --- the seek-bar thumbnails ------------------------------------------------------------------------------
def _thumbnail_cues(course_dir: Path) -> list[tuple[float, float, tuple[int, ...]]]:
    import webvtt

    out = []
    for c in webvtt.read(str(course_dir / LESSON / "thumbnails.vtt")):
        ref = c.text.strip()
        assert ref.startswith("thumbnails.jpg#xywh=")
        out.append((c.start_in_seconds, c.end_in_seconds, tuple(int(x) for x in ref.split("=", 1)[1].split(","))))
    return out


@pytest.mark.browser
def test_hovering_the_seek_bar_shows_its_thumbnail_and_chapter(page, course):
    plan, manifest, course_dir = course
    cues = _thumbnail_cues(course_dir)
    chapters = manifest["lessons"][0]["chapters"]
    page.wait_for_function(f"+{L}.dataset.thumbnails > 0", timeout=10000)
    assert int(page.evaluate(f"{L}.dataset.thumbnails")) == len(cues)
    bar = page.locator(".progress").bounding_box()
    duration = page.evaluate(f"{V}.duration")
    tip, thumb = page.locator(".progress .tip"), page.locator(".progress .thumb")
    assert tip.is_hidden()
    for share in (0.07, 0.33, 0.58, 0.91):
        page.mouse.move(bar["x"] + bar["width"] * share, bar["y"] + bar["height"] / 2)
        s = share * duration
        (xywh,) = [box for a, b, box in cues if a <= s < b]
        title = [c["title"] for c in chapters if c["start_ms"] <= s * 1000][-1]
        assert tip.is_visible() and thumb.is_visible()
        assert thumb.get_attribute("data-xywh") == ",".join(map(str, xywh))
        assert title in tip.text_content()
        style = thumb.evaluate(
            "e => [getComputedStyle(e).backgroundImage, getComputedStyle(e).backgroundPosition, e.offsetWidth, e.offsetHeight]"
        )
        assert "thumbnails.jpg" in style[0] and style[1] == f"-{xywh[0]}px -{xywh[1]}px".replace("-0px", "0px")
        assert style[2:] == [TILE_W, TILE_H]
        # the tip stays over the bar, inside the page
        box = tip.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1280 and box["y"] + box["height"] <= bar["y"] + 1
    sprite = page.evaluate("""() => new Promise(ok => { const i = new Image(); i.onload = () => ok([i.naturalWidth, i.naturalHeight]);
        i.src = 'trig_to_rope/thumbnails.jpg'; })""")
    assert sprite[0] == TILE_W * TILES_PER_ROW and sprite[1] % TILE_H == 0
    page.mouse.move(bar["x"] + bar["width"] * 0.58, bar["y"] + bar["height"] / 2)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "thumbnail_hover.png"))
    # dragging shows them too, and seeks
    page.mouse.down()
    page.evaluate(ARM)
    page.mouse.move(bar["x"] + bar["width"] * 0.2, bar["y"] + bar["height"] / 2, steps=4)
    presented(page)
    assert thumb.get_attribute("data-xywh") == ",".join(map(str, [b for a, e, b in cues if a <= 0.2 * duration < e][0]))
    page.mouse.up()
    page.mouse.move(bar["x"] + bar["width"] * 0.2, bar["y"] - 200)
    assert tip.is_hidden()
    assert abs(page.evaluate(f"{V}.currentTime") - 0.2 * duration) < 0.2


def test_a_lesson_without_thumbnails_asks_for_none(course):
    _, manifest, _ = course
    html = render_page(manifest)
    data = json.loads(html.split('id="page-data">', 1)[1].split("</script>", 1)[0])
    assert data["lessons"][LESSON]["thumbnails"] is None
    html = render_page(manifest, thumbnails={LESSON: f"{LESSON}/thumbnails.vtt"})
    data = json.loads(html.split('id="page-data">', 1)[1].split("</script>", 1)[0])
    assert data["lessons"][LESSON]["thumbnails"] == f"{LESSON}/thumbnails.vtt"
