"""The course page for viewers (coursekit/deliver/page.py), in headless Chromium on the synthetic course
(tests/support/synthetic.py, assembled by assemble_course), served by render.py's server on loopback:
transcript, chapter marks, questions, the course's q/k widget (widgets/rotation_pair/, placed by the engine),
a phone's width, escaping; and the real narration's quiz and exercise cues carry roles.

The presented frame's time is read with requestVideoFrameCallback (mediaTime), never currentTime,
which only echoes what was set. Times on the page are whole milliseconds of the lesson, as in the
subtitle files: a frame at media time t is inside [start, end) when start <= round(1000 t) < end.
"""

import dataclasses
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

import mathcore
from coursekit.content.narration import load_course
from coursekit.core.config import load_config
from coursekit.deliver.page import chapters_vtt, questions, render_page, viewer_voice, write_page
from coursekit.deliver.widgets import course_widgets, widget_html
from coursekit.subtitles import files as subs
from mathcore.scores import angle_between
from narration import figures
from tests.support.browser import chromium, served
from tests.support.synthetic import FPS, build_course

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "tests" / ".tmp"
SCRIPT = "RoPE <script>alert(1)</script> 转座位。"
SCRIPTS = ['<script type="application/json" id="page-data">', '<script src="page.js">']  # data, then code
#: the page with the widget: its data beside it, the page's data and code, then the widget's kind's code
WIDGET_SCRIPTS = [
    '<script type="application/json" class="widget-data" data-kind="rotation_pair" data-for="l-trig_to_rope-w0">',
    *SCRIPTS,
    '<script data-widget="rotation_pair">',
]


# --- the real narration ---------------------------------------------------------------------
def _role_cues(lesson) -> list[dict]:
    return [
        {"id": c.id, "role": c.role, "text": c.text, "start_ms": 0} for s in lesson.scenes for c in s.cues if c.role
    ]


def test_real_quiz_and_exercise_cues_carry_roles():
    cfg = load_config(ROOT / "config.yaml")
    course = load_course(cfg.course.lessons, ROOT / "narration")
    for lesson_id, scene_id, n in (("word_order", "word_order_quiz", 4), ("rotation_matrix", "exercises", 3)):
        lesson = course.lesson(lesson_id)
        scene = lesson.scene(scene_id)
        roles = [c.role for c in scene.cues if c.role]
        assert roles == ["question", "think", "answer"] * n, (lesson_id, roles)
        assert all(c.pause > 0 for c in scene.cues if c.role == "think")  # the pauses are the thinking
        qs = questions(_role_cues(lesson))
        assert len(qs) == n and all(len(q["answers"]) == 1 for q in qs)
        assert {q["scene"] for q in qs} == {scene_id}
    # no other cue of the course is a question or an answer
    tagged = {c.id.split(".")[0] for s in course.scenes.values() for c in s.cues if c.role}
    assert tagged == {"word_order_quiz", "exercises"}


QUIZ_YAML = """lesson: x
title: 测试
scenes:
  - id: s
    class: S
    title: 题
    source: ["a"]
    cues:
      - id: q
        text: 面积是多少？
        role: question
        choices: CHOICES
        correct: CORRECT
      - id: a
        text: 是 16。
        role: answer
"""


@pytest.mark.parametrize(
    "choices, correct, says",
    [
        ("[4, 8, 16]", "3", None),
        ("[会, 不会]", "null", None),
        ("[只有一个]", "1", "2 to 6 choices"),
        ("[a, b]", "3", "correct names one of the choices"),
        ("[[a], b]", "1", "a list of short texts"),
    ],
)
def test_a_question_may_give_choices(tmp_path, choices, correct, says):
    from coursekit.content.narration import load_lesson
    from coursekit.core.errors import UserError

    path = tmp_path / "x.yaml"
    path.write_text(QUIZ_YAML.replace("CHOICES", choices).replace("CORRECT", correct), encoding="utf-8")
    if says:
        with pytest.raises(UserError, match=says):
            load_lesson(path)
        return
    q, a = load_lesson(path).scenes[0].cues
    assert q.choices == tuple(choices.strip("[]").split(", ")) and q.correct == (
        None if correct == "null" else int(correct)
    )
    assert a.choices == () and a.correct is None
    path.write_text(
        QUIZ_YAML.replace("CHOICES", choices)
        .replace("CORRECT", correct)
        .replace("role: answer", "role: answer\n        choices: [c, d]"),
        encoding="utf-8",
    )
    with pytest.raises(UserError, match=r"x.yaml:\d+: choices belong to a cue with role: question"):
        load_lesson(path)


def test_the_plan_keeps_each_characters_time_and_the_manifest_each_events():
    """The real narration's plans (silent voice): every cue's written characters have a time, in order,
    inside the cue; every subtitle event the page lists carries its characters' times, inside the event."""
    from coursekit.subtitles.rules import squeeze
    from coursekit.subtitles.word_times import page_subtitles
    from tests.support.course_scenes import narration_plans

    for plan in narration_plans(15).values():
        for s in plan.scenes:
            for c in s.cues:
                times = plan.char_ms[c.id]
                assert len(times) == len(c.text) + 1 and times == sorted(times)
                start = round(c.start_frame * 1000 / s.fps)
                assert start <= times[0] and times[-1] <= round((c.start_frame + c.speech_frames) * 1000 / s.fps) + 1
        rows = page_subtitles(plan)
        assert rows and all(len(r["chars"]) == len(squeeze(r["text"])) for r in rows)
        for r in rows:
            assert r["chars"] == sorted(r["chars"])
            # an event starts up to 100 ms before its speech and ends near its speech's end (closing
            # punctuation, timed at the end of the speech, may fall just after it)
            assert r["start_ms"] - 150 <= r["chars"][0] < r["end_ms"] and r["chars"][-1] <= r["end_ms"] + 500, r


def test_the_widget_takes_theta_and_seats_from_the_course_figures():
    (w,) = course_widgets(ROOT / "narration")
    assert w.kind.name == "rotation_pair" and w.kind.folder == ROOT / "widgets" / "rotation_pair"
    assert w.lesson == "word_order" and w.scene == "qk_widget"
    assert w.data["theta_deg"] == figures.THETA_DEG and w.data["seats"] * figures.THETA_DEG == 360
    assert (w.data["m"], w.data["n"]) == figures.WIDGET_SEATS[0]
    assert w.data["q"] == list(figures.WIDGET_Q) and w.data["k"] == list(figures.WIDGET_K)
    assert w.data["lead_deg"] == figures.ROPE_PAIR_K_LEAD_DEG and w.data["lead_text"] == figures.value(
        "rope_pair_lead_deg"
    )
    assert w.data["lead_on"] is False  # it starts as the video beside it: both arrows pointing right


def _lesson_one(m: int, n: int) -> tuple[str, str]:
    """Lesson 1's pair (k starting ROPE_PAIR_K_LEAD_DEG ahead of q, |q||k| = 1) with q on seat m, k on seat n:
    the angle between them and the score, as the figures write them, by mathcore."""
    theta = np.radians(figures.THETA_DEG)
    tq, tk = mathcore.rope_2d(figures.ROPE_PAIR_Q, m, theta), mathcore.rope_2d(figures.ROPE_PAIR_K, n, theta)
    angle = figures.fmt_dec(np.degrees(angle_between(tq, tk)))
    return angle, figures.fmt_dec(mathcore.rope_score(figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K, m, n, theta))


GAP = figures.ROPE_PAIRS[0][1] - figures.ROPE_PAIRS[0][0]  # lesson 1's pairs: k this many seats after q


def test_the_widgets_tables_are_mathcores_and_its_note_lesson_ones():
    """Every number the widget shows is in its data, computed by mathcore for every seat pair and both starts
    of k (as given; led by the figures' lead), written by the figures' formatter; its note quotes lesson 1's
    before and after (110°, −0.34 and 70°, 0.34, from lesson 1's own pair)."""
    (w,) = course_widgets(ROOT / "narration")
    d, theta = w.data, np.radians(figures.THETA_DEG)
    seats = d["seats"]
    k_led = mathcore.rotate(figures.WIDGET_K, np.radians(figures.ROPE_PAIR_K_LEAD_DEG))
    assert [s["k"] for s in d["states"]] == [list(figures.WIDGET_K), [float(c) for c in k_led]]
    for state, k in zip(d["states"], (figures.WIDGET_K, k_led)):
        for m in range(seats):
            assert np.allclose(state["q_at"][m], mathcore.rope_2d(figures.WIDGET_Q, m, theta), atol=1e-15)
            assert np.allclose(state["k_at"][m], mathcore.rope_2d(k, m, theta), atol=1e-15)
            for n in range(seats):
                score = mathcore.rope_score(figures.WIDGET_Q, k, m, n, theta)
                angle = np.degrees(
                    angle_between(mathcore.rope_2d(figures.WIDGET_Q, m, theta), mathcore.rope_2d(k, n, theta))
                )
                assert state["score"][m][n] == score and state["score_text"][m][n] == figures.fmt_dec(score)
                assert state["angle_text"][m][n] == figures.fmt_dec(angle)
    assert d["turn_text"] == [figures.fmt_dec(s * figures.THETA_DEG) for s in range(seats)]
    assert d["gap_text"][seats - 1 + GAP] == figures.fmt_dec(GAP * figures.THETA_DEG)
    # with k started ahead, k's turn relative to q is the lead plus (n − m)θ: lesson 1's 110°, not 90°
    lead = figures.ROPE_PAIR_K_LEAD_DEG
    assert d["lead_gap_text"] == [figures.fmt_dec(lead + g * figures.THETA_DEG) for g in range(1 - seats, seats)]
    assert d["lead_gap_text"][seats - 1 + GAP] == figures.value("rope_pair_gap_deg")
    led = d["states"][1]
    after, before = _lesson_one(0, GAP), _lesson_one(GAP, 0)
    assert after == (figures.value("rope_pair_gap_deg"), figures.value("rope_pair_score")) != before
    assert (led["angle_text"][0][GAP], led["score_text"][0][GAP]) == after
    assert (led["angle_text"][GAP][0], led["score_text"][GAP][0]) == before
    note = d["note"]
    for said in (
        f"{after[0]}°，分数 {after[1]}",
        f"{before[0]}°，分数 {before[1]}",
        f"多偏 {figures.value('rope_pair_lead_deg')}°",
    ):
        assert said in note, (said, note)
    assert not re.search(r"[{}]", note)


def test_the_widget_names_its_seats_m_and_n_as_the_videos_do():
    (w,) = course_widgets(ROOT / "narration")
    from narration.page import rotation_pair

    text = widget_html(w, "w")
    assert "座位 m" in text and "座位 n" in text and "(n−m)θ" in text and "夹角" in text
    assert "座位 i" not in text and "(j−i)" not in text
    with pytest.raises(TypeError, match="'i'"):  # the seats are m and n, as in the videos
        rotation_pair(theta_deg=30, seats=12, q=(1, 0), k=(1, 0), i=2, j=4)
    with pytest.raises(ValueError, match="m and n must be seats"):
        rotation_pair(theta_deg=30, seats=12, q=(1, 0), k=(1, 0), m=2, n=12)


def test_questions_pair_within_a_scene():
    cues = [
        {"id": "a.q", "role": "question", "text": "Q1", "start_ms": 0},
        {"id": "a.t", "role": "think", "text": "想", "start_ms": 1},
        {"id": "a.x", "role": "answer", "text": "A1", "start_ms": 2},
        {"id": "b.x", "role": "answer", "text": "stray", "start_ms": 3},  # no question in its scene
        {"id": "b.q", "role": "question", "text": "Q2", "start_ms": 4},
    ]  # no answer
    qs = questions(cues)
    assert [(q["text"], [a["text"] for a in q["answers"]]) for q in qs] == [("Q1", ["A1"]), ("Q2", [])]


# --- the synthetic course ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def made(tmp_path_factory):
    plan, manifest, course_dir = build_course(tmp_path_factory.mktemp("course"))
    (real,) = course_widgets(ROOT / "narration")
    widget = dataclasses.replace(real, lesson=plan.lesson, scene=plan.scenes[1].id)  # the course's, on this lesson
    write_page(course_dir, manifest, [widget])
    return plan, manifest, course_dir, widget


def test_manifest_carries_subtitle_events_and_role_cues(made):
    plan, manifest, _, _ = made
    (lesson,) = manifest["lessons"]
    events = subs.lesson_events(plan)
    assert [(e["start_ms"], e["end_ms"], e["text"]) for e in lesson["subtitles"]] == [
        (round(e.start.total_seconds() * 1000), round(e.end.total_seconds() * 1000), e.content) for e in events
    ]
    assert [(c["id"], c["role"]) for c in lesson["role_cues"]] == [
        ("beta.ask", "question"),
        ("beta.think", "think"),
        ("beta.only", "answer"),
    ]
    assert lesson["role_cues"][0]["start_ms"] == round((37 + 3) * 1000 / FPS)


def vtt_time(ms: int) -> str:
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def test_chapters_webvtt_file(made):
    import webvtt

    _, manifest, course_dir, _ = made
    chapters = manifest["lessons"][0]["chapters"]
    path = course_dir / "trig_to_rope" / "trig_to_rope.chapters.vtt"
    captions = webvtt.read(str(path))
    assert len(captions) == len(chapters) == 2
    for cap, ch in zip(captions, chapters):
        assert (cap.start, cap.end) == (vtt_time(ch["start_ms"]), vtt_time(ch["end_ms"]))
    assert captions[1].text == "第二章 &lt;旋转&gt; &amp; 角度"
    assert "-->" not in chapters_vtt([{"start_ms": 0, "end_ms": 1, "title": "a --> b\nc"}]).split("\n", 4)[4]


def test_narration_text_is_escaped_in_the_html(made):
    _, manifest, course_dir, _ = made
    page = (course_dir / "index.html").read_text(encoding="utf-8")
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<i>能</i>" not in page and "<b>可</b>" not in page and "&lt;b&gt;可&lt;/b&gt;&amp;加--&gt;" in page
    assert re.findall(r"<script\b[^>]*>", page) == WIDGET_SCRIPTS
    hostile = {
        "title": "</style><script>x()</script>",
        "font": 'a"</style><script>y()</script>',
        "lessons": [
            {
                **manifest["lessons"][0],
                "voice": "<img src=x onerror=z()>",
                "voice_licence": '"><script>w()</script>',
                "role_cues": [
                    {
                        "id": "beta.ask",
                        "role": "question",
                        "text": "</script><script>q()</script>",
                        "start_ms": 0,
                        "end_ms": 10,
                        "choices": ["<!--", "</SCRIPT >"],
                    }
                ],
            }
        ],
    }
    html = render_page(hostile)
    assert re.findall(r"<script\b[^>]*>", html) == SCRIPTS and "<img" not in html
    assert html.count("</style>") == 1 and html.count("</script>") == 2
    # the page's data (the in-video questions' text) is JSON with no < > & left in it: nothing ends its element
    data = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S).group(1)
    assert not set(data) & set("<>&")
    (q,) = json.loads(data)["lessons"]["trig_to_rope"]["questions"]
    assert q["text"] == "</script><script>q()</script>" and q["choices"] == ["<!--", "</SCRIPT >"]


# --- in Chromium ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def url(made):
    yield from served(made[2])


@pytest.fixture(scope="module")
def browser(url):
    yield from chromium()


@pytest.fixture
def page(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    dialogs = []
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    pg.goto(url)
    pg.wait_for_function("document.querySelector('video').readyState >= 2", timeout=20000)
    yield pg
    assert not dialogs, f"a dialog opened: {dialogs}"  # nothing from the narration ran
    context.close()


ARM = (
    "() => { window.__frame = new Promise((ok, no) => { const t = setTimeout(() => no('no frame presented'), 8000);"
    " document.querySelector('video').requestVideoFrameCallback((now, m) => { clearTimeout(t); ok(m.mediaTime); }); }); }"
)


def presented(page) -> float:
    """The mediaTime of the next presented frame (armed with ARM before the action that presents it)."""
    t = page.evaluate("window.__frame")
    page.wait_for_timeout(60)  # the page's own frame callback ran first; let its DOM update settle
    return t


def current_lines(page) -> list[list[int]]:
    return page.evaluate("[...document.querySelectorAll('.line.current')].map(b => [+b.dataset.start, +b.dataset.end])")


def containing(events: list[dict], media_time: float) -> list[list[int]]:
    ms = round(media_time * 1000)
    return [[e["start_ms"], e["end_ms"]] for e in events if e["start_ms"] <= ms < e["end_ms"]]


@pytest.mark.browser
def test_seek_highlights_the_line_of_the_presented_frame(page, made):
    _, manifest, _, _ = made
    events = manifest["lessons"][0]["subtitles"]
    # inside each event, in gaps between them, and a hair either side of a boundary
    targets = [0.9, 1.34, 0.52, 0.54, 1.32, 1.9, 2.45, 3.0, 3.52, 3.8, 4.39, 4.2, 4.9, 5.45, 1.37]
    seen_line = seen_gap = 0
    for t in targets:
        page.evaluate(ARM)
        page.evaluate(f"document.querySelector('video').currentTime = {t}")
        mt = presented(page)
        assert abs(mt * FPS - round(mt * FPS)) < 0.02, mt  # a frame's time, not the seek target
        expected = containing(events, mt)
        assert current_lines(page) == expected, (t, mt)
        assert page.evaluate("document.querySelector('.lesson').dataset.shownBy") == "frame"
        seen_line += bool(expected)
        seen_gap += not expected
    assert seen_line >= 5 and seen_gap >= 3


@pytest.mark.browser
def test_clicking_a_line_seeks_to_its_first_frame(page, made):
    _, manifest, _, _ = made
    events = manifest["lessons"][0]["subtitles"]
    for n in (3, 0, 4, 1, 2):
        page.evaluate(ARM)
        page.locator(".lines .line").nth(n).click()
        mt = presented(page)
        frame = round(mt * FPS)
        assert containing(events, mt) == [[events[n]["start_ms"], events[n]["end_ms"]]]
        assert round((frame - 1) * 1000 / FPS) < events[n]["start_ms"]  # the event's first frame
        assert current_lines(page) == [[events[n]["start_ms"], events[n]["end_ms"]]]


@pytest.mark.browser
def test_search_filters_the_transcript(page, made):
    _, manifest, _, _ = made
    texts = [e["text"] for e in manifest["lessons"][0]["subtitles"]]
    visible = "[...document.querySelectorAll('.lines li')].filter(li => !li.hidden).map(li => li.querySelector('.x').textContent)"
    box = page.locator(".search")
    box.fill("座位")
    assert page.evaluate(visible) == [t for t in texts if "座位" in t] == [SCRIPT]
    assert page.locator(".count").text_content() == "1 条"
    assert page.locator(".lines mark").all_text_contents() == ["座位"]
    box.fill("<script>")  # the narration's tag-like text, found as text
    assert page.evaluate(visible) == [SCRIPT]
    assert page.locator(".lines mark").all_text_contents() == ["<script>"]
    box.fill("rope")  # case does not matter
    assert page.evaluate(visible) == [SCRIPT]
    box.fill("没有这句")
    assert page.evaluate(visible) == [] and page.locator(".count").text_content() == "0 条"
    box.press("Escape")
    assert page.evaluate(visible) == texts and page.locator(".count").text_content() == ""


@pytest.mark.browser
def test_one_chapter_mark_per_chapter(page, made):
    plan, manifest, _, _ = made
    chapters = manifest["lessons"][0]["chapters"]
    marks = page.locator(".progress .mark")
    assert marks.count() == len(chapters) == len(plan.scenes)
    bar = page.locator(".progress").bounding_box()
    duration_ms = plan.frames * 1000 / FPS
    for n, ch in enumerate(chapters):
        m = marks.nth(n)
        assert m.get_attribute("data-title") == ch["title"]
        assert ch["title"] in m.get_attribute("title")
        box = m.bounding_box()
        assert abs(box["x"] + box["width"] / 2 - (bar["x"] + bar["width"] * ch["start_ms"] / duration_ms)) < 1.5
    # the chapters track is valid WebVTT to the browser
    cues = page.evaluate("""async () => {
        const element = document.querySelector('track[kind=chapters]'), track = element.track;
        track.mode = 'hidden';
        for (let n = 0; n < 200 && element.readyState !== HTMLTrackElement.LOADED; n++) await new Promise(r => setTimeout(r, 50));
        return [...track.cues].map(c => [Math.round(c.startTime * 1000), c.getCueAsHTML().textContent]);
    }""")
    assert cues == [[c["start_ms"], c["title"]] for c in chapters]
    # a press on the bar just after the second mark seeks into the second chapter, whose title shows
    page.evaluate(ARM)
    second = marks.nth(1).bounding_box()
    page.mouse.click(second["x"] + second["width"] / 2 + 6, bar["y"] + bar["height"] / 2)
    mt = presented(page)
    assert chapters[1]["start_ms"] <= round(mt * 1000) < chapters[1]["end_ms"]
    assert page.locator(".now-chapter").text_content() == f"第 2 章：{chapters[1]['title']}"
    # keys: Home, then PageDown to the next chapter's first frame
    page.locator(".progress").focus()
    page.evaluate(ARM)
    page.keyboard.press("Home")
    assert round(presented(page) * 1000) < chapters[0]["end_ms"]
    page.evaluate(ARM)
    page.keyboard.press("PageDown")
    mt = presented(page)
    assert round(mt * FPS) == plan.scenes[1].start_frame


@pytest.mark.browser
def test_answer_hidden_until_its_button_is_pressed(page):
    qa = page.locator(".qa")
    assert qa.count() == 1
    assert qa.locator(".question").text_content() == "问：角<i>能</i>相加吗？"
    answer, button = qa.locator(".answer"), qa.locator("button.reveal")
    assert answer.is_hidden() and button.get_attribute("aria-expanded") == "false"
    assert page.locator(".questions h3").text_content() == "第二章 <旋转> & 角度"
    button.click()
    assert answer.is_visible() and answer.text_content() == "角<b>可</b>&加-->。"
    assert button.get_attribute("aria-expanded") == "true"
    button.click()
    assert answer.is_hidden()
    # the question's own seek button goes to where it is asked
    page.evaluate(ARM)
    qa.locator("button.seek").click()
    assert round(presented(page) * FPS) == 37 + 3


def _widget_state(page) -> dict:
    return page.evaluate("""() => { const w = document.querySelector('.widget');
        const tip = a => w.querySelector(a + ' polygon').getAttribute('points').split(' ').slice(0, 2).map(Number);
        const arc = w.querySelector('.arc').getAttribute('d').split(' ');
        return {m: +w.querySelector('input[data-var=m]').value, n: +w.querySelector('input[data-var=n]').value,
                theta: JSON.parse(document.querySelector('script.widget-data').textContent).theta_deg, score: +w.querySelector('.score').dataset.value,
                shown: w.querySelector('.score').textContent, angle: w.querySelector('.angle').textContent,
                turn: w.querySelector('.turn').textContent, turn_label: w.querySelector('.turn').previousElementSibling.innerText,
                arc: arc.length > 1 ? {start: [+arc[1], +arc[2]], end: [+arc[9], +arc[10]], large: +arc[7]} : null,
                q: tip('.arrow-q'), k: tip('.arrow-k')}; }""")


def _deg_text(text: str) -> float:
    """``−90°`` → -90.0 (the page writes U+2212)."""
    assert text.endswith("°"), text
    return float(text[:-1].replace("−", "-"))


def _check_widget(state: dict, widget: dict, k_start=None) -> None:
    """The widget as drawn and read against mathcore; ``k_start``: where k starts (default: the data's k,
    along q, so the score is cos((n − m)θ))."""
    m, n = state["m"], state["n"]
    theta = np.radians(figures.THETA_DEG)
    q, k = widget.data["q"], widget.data["k"] if k_start is None else k_start
    expected = mathcore.rope_score(q, k, m, n, theta)
    assert state["theta"] == figures.THETA_DEG
    assert abs(state["score"] - expected) < 1e-12
    assert k_start is not None or abs(expected - math.cos((n - m) * theta)) < 1e-12
    assert state["shown"] == figures.fmt_dec(expected)  # written as the narration writes its scores
    # k's turn relative to q: (n − m)θ, signed, plus how far k starts ahead of q (the switch's lead), and the
    # label says which; the 夹角: mathcore's angle between the turned arrows, in [0°, 180°]
    lead = float(np.degrees(np.arctan2(k[1], k[0]) - np.arctan2(q[1], q[0])))
    turn = lead + (n - m) * figures.THETA_DEG
    assert state["turn"] == figures.fmt_dec(turn) + "°", (state["turn"], turn)
    added = f"{figures.fmt_dec(lead)}°+" if abs(lead) > 1e-9 else ""
    assert state["turn_label"].replace(" ", "") == f"k相对q转过{added}(n−m)θ", state["turn_label"]
    tq, tk = mathcore.rope_2d(q, m, theta), mathcore.rope_2d(k, n, theta)
    between = float(np.degrees(angle_between(tq, tk)))
    assert abs(abs((turn + 180.0) % 360.0 - 180.0) - between) <= 0.005  # the turn, folded, is the 夹角 drawn
    assert 0.0 <= _deg_text(state["angle"]) <= 180.0
    assert abs(_deg_text(state["angle"]) - between) <= 0.005
    for tip, v, seat in ((state["q"], q, m), (state["k"], k, n)):  # the arrows drawn
        x, y = mathcore.rope_2d(v, seat, theta)
        assert abs(tip[0] - x) < 1e-3 and abs(tip[1] + y) < 1e-3  # SVG's y points down
    # the arc drawn between them sweeps the 夹角 (the shorter way, never the long way round)
    if between > 1e-6:
        a, b = np.array(state["arc"]["start"]), np.array(state["arc"]["end"])
        drawn = np.degrees(np.arccos(np.clip(a @ b / np.linalg.norm(a) / np.linalg.norm(b), -1, 1)))
        assert state["arc"]["large"] == 0 and abs(drawn - between) < 0.05
        assert abs(np.degrees(np.arctan2(-a[1], a[0])) - np.degrees(np.arctan2(tq[1], tq[0]))) < 0.05  # from q


@pytest.mark.browser
def test_widget_score_equals_mathcore_for_three_seat_pairs(page, made):
    _, _, _, widget = made
    state = _widget_state(page)
    assert (state["m"], state["n"]) == figures.WIDGET_SEATS[0]  # the video's first pair
    _check_widget(state, widget)
    pairs = []
    page.locator("input[data-var=m]").fill("5")  # a slider set
    page.locator("input[data-var=n]").fill("7")
    pairs.append(_widget_state(page))
    page.locator("input[data-var=n]").focus()  # keyboard: n 7 -> 4
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.locator(".seat-m button.step[data-step='1']").click()  # buttons: m 5 -> 7
    page.locator(".seat-m button.step[data-step='1']").click()
    pairs.append(_widget_state(page))
    page.locator("input[data-var=m]").fill("0")
    page.locator("input[data-var=n]").fill("11")
    pairs.append(_widget_state(page))
    page.locator("input[data-var=m]").fill("5")
    page.locator("input[data-var=n]").fill("2")
    pairs.append(_widget_state(page))
    assert [(s["m"], s["n"]) for s in pairs] == [(5, 7), (7, 4), (0, 11), (5, 2)]
    for s in pairs:
        _check_widget(s, widget)
    # the directed turn keeps its sign and its size; the 夹角 is folded into [0°, 180°]
    by_seats = {(s["m"], s["n"]): s for s in pairs}
    assert (by_seats[(5, 2)]["turn"], by_seats[(5, 2)]["angle"]) == ("−90°", "90°")
    assert (by_seats[(0, 11)]["turn"], by_seats[(0, 11)]["angle"]) == ("330°", "30°")
    assert (by_seats[(7, 4)]["turn"], by_seats[(7, 4)]["angle"]) == ("−90°", "90°")


def _set_lead(page, on: bool) -> None:
    switch = page.locator(".widget .lead-switch")
    if (switch.get_attribute("aria-pressed") == "true") != on:
        switch.click()
    assert switch.get_attribute("aria-pressed") == str(on).lower()


def _reads(page, m: int, n: int) -> tuple[str, str]:
    """The widget's angle (without its °) and score as shown, with q on seat m and k on seat n."""
    page.locator(".widget input[data-var=m]").fill(str(m))
    page.locator(".widget input[data-var=n]").fill(str(n))
    state = _widget_state(page)
    return state["angle"].removesuffix("°"), state["shown"]


def _check_before_after(page) -> None:
    """With k started ahead: k GAP seats after q reads lesson 1's angle and score, GAP seats before reads
    lesson 1's other pair (mathcore on lesson 1's own q and k), and the two differ; with the switch off,
    both orders read the same, the aligned unit pair's (mathcore)."""
    _set_lead(page, True)
    after, before = _reads(page, 0, GAP), _reads(page, GAP, 0)
    assert after == _lesson_one(0, GAP) and before == _lesson_one(GAP, 0) and after != before, (after, before)
    _set_lead(page, False)
    theta = np.radians(figures.THETA_DEG)
    tq, tk = mathcore.rope_2d(figures.WIDGET_Q, 0, theta), mathcore.rope_2d(figures.WIDGET_K, GAP, theta)
    aligned = (
        figures.fmt_dec(np.degrees(angle_between(tq, tk))),
        figures.fmt_dec(mathcore.rope_score(figures.WIDGET_Q, figures.WIDGET_K, 0, GAP, theta)),
    )
    assert [_reads(page, 0, GAP), _reads(page, GAP, 0)] == [aligned, aligned]


@pytest.mark.browser
def test_widget_tells_before_from_after_when_k_starts_ahead(page, made):
    """The payoff of lesson 1's pair: k three seats after q and three seats before score differently once k
    starts ahead (110°, −0.34 and 70°, 0.34), alike when both start pointing right. The switch works by
    keyboard; the arrows and the arc drawn with k ahead are mathcore's; the rule under the score says so."""
    _, _, _, widget = made
    switch = page.locator(".widget .lead-switch")
    assert switch.is_visible() and switch.get_attribute("aria-pressed") == "false"
    assert switch.text_content() == f"k 起初多偏 {figures.value('rope_pair_lead_deg')}°"
    assert page.locator(".widget .widget-note").text_content() == widget.data["note"]
    _check_before_after(page)
    switch.focus()
    page.keyboard.press("Space")
    assert switch.get_attribute("aria-pressed") == "true"
    k_led = mathcore.rotate(figures.WIDGET_K, np.radians(figures.ROPE_PAIR_K_LEAD_DEG))
    for m, n in ((0, GAP), (GAP, 0), (5, 2), (0, 11)):
        page.locator(".widget input[data-var=m]").fill(str(m))
        page.locator(".widget input[data-var=n]").fill(str(n))
        _check_widget(_widget_state(page), widget, k_start=k_led)
    rule = page.locator(".widget .score-rule:visible")
    assert rule.count() == 1 and rule.text_content() == f" = cos({figures.value('rope_pair_lead_deg')}° + (n−m)θ)"
    switch.focus()
    page.keyboard.press("Enter")
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.locator(".widget .score-rule:visible").text_content() == " = cos((n−m)θ)"


@pytest.mark.parametrize("seed", ["lead never applied", "lead always applied"])
@pytest.mark.browser
def test_the_before_after_check_fails_on_a_widget_that_ignores_its_switch(browser, made, tmp_path, seed):
    """Seeded: the widget's second start of k replaced by its first (the lead never applied), or its first
    by its second (always applied): the before/after check fails."""
    _, manifest, _, widget = made
    aligned, led = widget.data["states"]
    states = [aligned, aligned] if seed == "lead never applied" else [led, led]
    write_page(tmp_path, manifest, [dataclasses.replace(widget, data={**widget.data, "states": states})])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((tmp_path / "index.html").as_uri())
    assert _widget_state(page)["shown"]  # the widget runs: the check fails on what it reads
    with pytest.raises(AssertionError) as failed:
        _check_before_after(page)
    expected = "after == _lesson_one" if seed == "lead never applied" else "[aligned, aligned]"
    assert expected in str(failed.traceback[-1].statement), failed.traceback[-1].statement
    context.close()


@pytest.mark.browser
def test_the_widget_check_fails_on_a_turn_label_that_ignores_the_lead(browser, made, tmp_path):
    """Seeded: the old widget's label, k's turn relative to q read as (n − m)θ with the switch on (90° while the
    arrows and the arc show 110°): the widget check fails on it."""
    _, manifest, _, widget = made
    seeded = {**widget.data, "lead_gap_text": widget.data["gap_text"]}
    write_page(tmp_path, manifest, [dataclasses.replace(widget, data=seeded)])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((tmp_path / "index.html").as_uri())
    _set_lead(page, True)
    page.locator(".widget input[data-var=m]").fill("0")
    page.locator(".widget input[data-var=n]").fill(str(GAP))
    state = _widget_state(page)
    assert state["turn"] == f"{figures.fmt_dec(GAP * figures.THETA_DEG)}°"  # the old label's 90°
    k_led = mathcore.rotate(figures.WIDGET_K, np.radians(figures.ROPE_PAIR_K_LEAD_DEG))
    with pytest.raises(AssertionError, match=f"{figures.value('rope_pair_gap_deg')}°"):  # lesson 1's 110°
        _check_widget(state, widget, k_start=k_led)
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 390])
def test_the_widget_passes_axe_in_both_states(browser, url, width):
    """axe-core's WCAG 2.2 A/AA rules on the page with the widget, its switch off and on, at a desktop's width
    and a phone's: 0 violations."""
    from tests.engine.deliver.test_accessibility import TAGS, axe_violations

    assert "wcag22aa" in TAGS
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("document.querySelector('video').readyState >= 1", timeout=20000)
    page.locator(".widget").scroll_into_view_if_needed()
    assert axe_violations(page) == []
    _set_lead(page, True)
    assert axe_violations(page) == []
    context.close()


@pytest.mark.browser
def test_desktop_layout_and_screenshot(page):
    """At 1280 px: the video is whole on screen, as wide as its column, 16:9; the transcript sits beside
    it without overlapping it or the controls; the screenshot shows the frame (not a blank page)."""
    from PIL import Image

    page.locator(".lines .line").nth(1).click()
    page.wait_for_timeout(300)

    def box(sel):
        return page.locator(sel).first.bounding_box()

    video, screen, transcript = box("video"), box(".screen"), box(".transcript")
    controls, progress = box(".controls"), box(".progress")
    assert video["x"] >= 0 and video["x"] + video["width"] <= 1280 and video["y"] >= 0
    assert abs(video["width"] - screen["width"]) < 1 and abs(video["width"] / video["height"] - 16 / 9) < 0.02
    assert video["width"] >= 700  # the video is the page's main thing

    def apart(a, b):
        return (
            a["x"] + a["width"] <= b["x"]
            or b["x"] + b["width"] <= a["x"]
            or a["y"] + a["height"] <= b["y"]
            or b["y"] + b["height"] <= a["y"]
        )

    for other in (video, controls, progress):
        assert apart(transcript, other)
    assert transcript["x"] >= video["x"] + video["width"]  # beside it, on the right
    assert progress["y"] >= video["y"] + video["height"] and controls["y"] >= progress["y"] + progress["height"] - 1
    # every control of the bar is inside the video's column (none wraps out under the transcript)
    right = page.evaluate(
        "Math.max(...[...document.querySelectorAll('.controls > *')].map(e => e.getBoundingClientRect().right))"
    )
    assert right <= video["x"] + video["width"] + 0.5
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / "course_page_desktop.png"
    page.screenshot(path=str(shot), full_page=True)
    img = np.asarray(Image.open(shot).convert("RGB"), dtype=float)
    inside = img[
        int(video["y"]) : int(video["y"] + video["height"]), int(video["x"]) : int(video["x"] + video["width"])
    ]
    assert inside.std() > 20  # the test pattern, not black
    assert len(np.unique(inside.reshape(-1, 3)[::97], axis=0)) > 50


@pytest.mark.browser
def test_phone_width(browser, url, made):
    _, manifest, _, _ = made
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("document.querySelector('video').readyState >= 2", timeout=20000)
    page.locator(".qa button.reveal").tap()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("document.body.scrollWidth") <= 390
    # no element sticks out to the right
    wide = page.evaluate("""[...document.querySelectorAll('body *')].filter(e => e.getClientRects().length &&
        e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && !e.closest('svg'))
        .map(e => e.className || e.tagName)""")
    assert wide == []
    # every visible text outside drawings is at least 14 px
    small = page.evaluate("""[...document.querySelectorAll('body *')].filter(e => !e.closest('svg') &&
        e.getClientRects().length && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
        .map(e => [e.className || e.tagName, parseFloat(getComputedStyle(e).fontSize)]).filter(([, px]) => px < 14)""")
    assert small == []
    # every control is big enough to touch and reachable by keyboard
    tiny = page.evaluate("""[...document.querySelectorAll('button, input, [role=slider]')].filter(e => e.getClientRects().length)
        .map(e => [e.className || e.tagName, e.getBoundingClientRect().height, e.tabIndex])
        .filter(([, h, t]) => h < 32 || t < 0)""")
    assert tiny == []
    kinds = set()
    for _ in range(40):
        page.keyboard.press("Tab")
        kinds.add(page.evaluate("document.activeElement.className || document.activeElement.tagName"))
    for cls in ("progress", "search", "line", "chapter seek", "reveal", "seat-input", "step"):
        assert cls in kinds, (cls, kinds)
    # touch: a tap on + moves k one seat, a tap on a line seeks there
    before = _widget_state(page)["n"]
    page.locator(".seat-n button.step[data-step='1']").tap()
    assert _widget_state(page)["n"] == before + 1
    events = manifest["lessons"][0]["subtitles"]
    page.evaluate(ARM)
    page.locator(".lines .line").nth(2).tap()
    assert containing(events, presented(page)) == [[events[2]["start_ms"], events[2]["end_ms"]]]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "course_page_390.png"), full_page=True)
    assert page.evaluate("window.scrollX") == 0
    context.close()


KOKORO = "kokoro Kokoro-82M v1.0 int8 jf_gongitsune speed 1.2, onnxruntime 1.32.0 (weights Apache-2.0)"


@pytest.mark.browser
def test_each_lesson_names_its_voice_in_viewer_words(page, made):
    """The page says the voice as a viewer reads it; the manifest keeps the exact line (engineer words)."""
    _, manifest, _, _ = made
    lesson = manifest["lessons"][0]
    assert lesson["voice"].startswith("silent")  # the exact line stays in the manifest
    assert page.locator(".lesson .voice").text_content() == "配音：无（这一课没有声音）"
    html = render_page(
        {
            "lessons": [
                {
                    **lesson,
                    "voice": KOKORO,
                    "voice_licence": "kokoro: Apache-2.0 (Kokoro-82M weights; speaker jf_gongitsune)",
                }
            ]
        }
    )
    shown = re.search(r'<p class="voice">(.*?)</p>', html).group(1)
    assert shown == "配音：Kokoro-82M 合成语音（Apache-2.0）"
    for engineer in ("onnxruntime", "int8", "jf_gongitsune", "speed", "v1.0"):
        assert engineer not in shown
    two = viewer_voice(
        "edge-tts 7.2.3 zh-CN-XiaoxiaoNeural, " + KOKORO,
        "edge: Microsoft online service terms (edge-tts); kokoro: Apache-2.0",
    )
    assert two == "微软在线合成语音、Kokoro-82M 合成语音（Apache-2.0、微软在线服务条款）"
    assert viewer_voice("espeak-ng 1.52 cmn s150 p50", "espeak: GPL-3.0 (espeak-ng)") == "eSpeak NG 合成语音（GPL-3.0）"
    assert viewer_voice(None, None) == "未记录"
    html = render_page({"lessons": [{**lesson, "voice": "<img src=x> v1", "voice_licence": "<b>"}]})
    assert "<img" not in html and "配音：&lt;img 合成语音" in html


@pytest.mark.browser
def test_the_file_note_shows_only_when_opened_from_a_file(browser, page, made):
    note = page.locator(".file-note")
    assert note.count() == 1 and note.is_hidden()  # served: nothing to say
    _, _, course_dir, _ = made
    context = browser.new_context()
    local = context.new_page()
    local.goto((course_dir / "index.html").as_uri())
    assert local.evaluate("location.protocol") == "file:"
    assert local.locator(".file-note").is_visible()
    assert "python render.py serve" in local.locator(".file-note").text_content()
    context.close()
