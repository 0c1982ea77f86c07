"""A course's own widgets on its page (coursekit/deliver/widgets.py): the mini course
(tests/fixtures/mini_course) ships one, a dot counter (widgets/dot_counter/, placed by its
narration/page.py), and its page shows it and it works; bad widget input is one line naming the file and
the fix.

The page is made from a manifest of the mini course's narration (its lesson, title, scenes and chapter
titles; made-up chapter times), with no video: the widget needs none, and the page is opened from its file.
"""

import dataclasses
import json
import re
from pathlib import Path

import pytest

from coursekit.content.cue_text import strip_bookmarks
from coursekit.content.figures import load_figures
from coursekit.content.narration import load_course
from coursekit.core.config import load_config
from coursekit.core.errors import UserError
from coursekit.deliver.page import ui, write_page
from coursekit.deliver.widgets import course_widgets
from tests.support.browser import chromium
from tests.support.mini_runs import MINI_COURSE

FIGURES = load_figures(MINI_COURSE / "narration" / "figures.py")
CHAPTER_MS = 4000  # each made-up chapter's length


def mini_manifest() -> dict:
    """The mini course's manifest as far as the page reads it, from its narration and config."""
    cfg = load_config(MINI_COURSE / "config.yaml")
    (lesson,) = load_course(cfg.course.lessons, MINI_COURSE / "narration").lessons
    return {
        "title": cfg.course.title,
        "lessons": [
            {
                "lesson": lesson.id,
                "title": lesson.title,
                "fps": 15,
                "duration_s": CHAPTER_MS * len(lesson.scenes) / 1000,
                "voice": "silent",
                "scenes": [s.id for s in lesson.scenes],
                "chapters": [
                    {"start_ms": n * CHAPTER_MS, "end_ms": (n + 1) * CHAPTER_MS, "title": s.title}
                    for n, s in enumerate(lesson.scenes)
                ],
            }
        ],
    }


def test_the_mini_course_ships_its_widget_with_data_from_its_figures():
    (w,) = course_widgets(MINI_COURSE / "narration")
    assert w.kind.name == "dot_counter" and w.kind.folder == MINI_COURSE / "widgets" / "dot_counter"
    assert (w.lesson, w.scene) == ("counting", "count_dots")
    assert w.data == {"start": int(FIGURES.value("dot_count")), "most": int(FIGURES.value("dot_count_plus_one"))}


@pytest.fixture(scope="module")
def page_file(tmp_path_factory) -> tuple[Path, list, dict]:
    """The mini course's page with its widget twice: as the course places it, and a second one (another
    title, no chapter), to show that each widget has its own state and its kind's code comes once."""
    (w,) = course_widgets(MINI_COURSE / "narration")
    widgets = [w, dataclasses.replace(w, title="再数一次", scene=None, data={"start": 1, "most": 6})]
    manifest = mini_manifest()
    course = tmp_path_factory.mktemp("mini-page")
    return write_page(course, manifest, widgets), widgets, manifest


def test_the_kinds_code_and_style_come_once_and_each_widget_its_data(page_file):
    path, widgets, _ = page_file
    html = path.read_text(encoding="utf-8")
    assert (
        html.count('<script data-widget="dot_counter">') == 1 and html.count('<style data-widget="dot_counter">') == 1
    )
    assert html.index('<script src="page.js">') < html.index('<script data-widget="dot_counter">')  # after the page's
    found = re.findall(
        r'<script type="application/json" class="widget-data" data-kind="dot_counter" '
        r'data-for="([^"]+)">(.*?)</script>',
        html,
    )
    assert [json.loads(data) for _, data in found] == [w.data for w in widgets]
    assert [uid for uid, _ in found] == ["l-counting-w0", "l-counting-w1"]
    assert "rotation" not in html and "座位" not in html  # nothing of the main course's widget


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


STATE = """uid => { const w = document.getElementById(uid);
    return {n: +w.querySelector('input').value, min: +w.querySelector('input').min, max: +w.querySelector('input').max,
            drawn: w.querySelectorAll('svg.dots circle').length, said: w.querySelector('.dots-said').textContent,
            title: w.querySelector('h3').textContent, lesson: w.closest('.lesson').id,
            seek: [...w.querySelectorAll('button.seek')].map(b => [b.textContent, +b.dataset.start])}; }"""


@pytest.mark.browser
def test_the_page_shows_the_mini_courses_widget_and_it_counts(browser, page_file):
    path, widgets, manifest = page_file
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    first, second = (page.evaluate(STATE, uid) for uid in ("l-counting-w0", "l-counting-w1"))
    chapter = manifest["lessons"][0]["chapters"][0]
    # placed in its lesson, under its title, with a button to its chapter ("数点", the scene count_dots)
    assert first["lesson"] == "counting" and first["title"] == widgets[0].title
    assert first["seek"] == [[ui("widget_seek", title=chapter["title"]), chapter["start_ms"]]]
    assert second["seek"] == [] and second["title"] == "再数一次"
    # it starts where the video is: the dots drawn and said as the narration's first cue says them
    (lesson,) = load_course(["counting"], MINI_COURSE / "narration").lessons
    shown = FIGURES.fill(strip_bookmarks(lesson.scenes[0].cues[0].text)[0])
    dots = int(FIGURES.value("dot_count"))  # what the scene draws
    assert shown == f"屏幕上有{dots}个点。"
    assert (first["n"], first["drawn"], first["said"]) == (dots, dots, shown)
    assert (first["min"], first["max"]) == (1, widgets[0].data["most"])
    assert (second["n"], second["drawn"], second["max"]) == (1, 1, 6)
    # moving the slider draws as many dots as it says, each widget on its own
    for n in (4, 1, 2):
        page.locator("#l-counting-w0-n").fill(str(n))
        s = page.evaluate(STATE, "l-counting-w0")
        assert (s["n"], s["drawn"], s["said"]) == (n, n, f"屏幕上有{n}个点。")
    page.locator("#l-counting-w0-n").focus()
    page.keyboard.press("End")  # the slider's end: the answer's count
    s = page.evaluate(STATE, "l-counting-w0")
    assert (s["n"], s["drawn"]) == (widgets[0].data["most"], int(FIGURES.value("dot_count_plus_one")))
    page.locator("#l-counting-w1-n").fill("6")
    assert page.evaluate(STATE, "l-counting-w1")["drawn"] == 6
    assert page.evaluate(STATE, "l-counting-w0")["drawn"] == 4  # the first kept its own count
    assert errors == []
    page.close()


# --- bad widget input: one line, the file, the fix ---------------------------------------------
def _page_py(course: Path, text: str) -> None:
    (course / "narration" / "page.py").write_text(text, encoding="utf-8")


ENTRY = '{"kind": "dot_counter", "lesson": "counting", "title": "t", "data": {"start": 1, "most": 2}}'


def _bad(course: Path, says: str) -> str:
    with pytest.raises(UserError) as err:
        course_widgets(course / "narration")
    message = str(err.value)
    assert "\n" not in message and re.search(says, message), message
    return message


@pytest.mark.parametrize(
    "entry, says",
    [
        (
            ENTRY.replace("dot_counter", "dot_countr"),
            r"page\.py: WIDGETS\[0\]: unknown kind 'dot_countr': no folder .*widgets/dot_countr/ \(known: dot_counter\); make it",
        ),
        (ENTRY.replace('"title": "t", ', ""), r"page\.py: WIDGETS\[0\]: title is missing or not text; a widget is"),
        (ENTRY.replace('"data"', '"theta_deg": 30, "data"'), r"WIDGETS\[0\]: unknown key 'theta_deg'; .* goes in data"),
        (ENTRY.replace('"most": 2', '"most": float("nan")'), r"WIDGETS\[0\]: data\.most: nan is not a finite number"),
        (ENTRY.replace('"most": 2', '"most": {1, 2}'), r"WIDGETS\[0\]: data\.most: set is not JSON"),
        (ENTRY.replace('"kind": "dot_counter"', '"kind": "../x"'), r"kind '\.\./x' is not a folder name in snake_case"),
    ],
)
def test_a_bad_entry_is_one_line(mini, entry, says):
    _page_py(mini, f"WIDGETS = [{entry}]\n")
    assert "narration/page.py" in _bad(mini, says)


def test_a_page_py_that_fails_names_itself(mini):
    _page_py(mini, "WIDGETS = [1 / 0]\n")
    _bad(mini, r"narration/page\.py: the course's page widgets failed to load: ZeroDivisionError")
    _page_py(mini, "WIDGETS = {}\n")
    _bad(mini, r"narration/page\.py: WIDGETS must be a list of dicts")


@pytest.mark.parametrize(
    "file, change, says",
    [
        (
            "widget.js",
            None,
            r"widgets/dot_counter/widget\.js: missing; a widget kind's folder holds .* write its script",
        ),
        ("widget.html", None, r"widgets/dot_counter/widget\.html: missing; .* write its markup"),
        (
            "widget.html",
            lambda t: t.replace("{{title}}", "{{heading}}"),
            r"widget\.html: unknown placeholder \{\{heading\}\}; the engine fills \{\{uid\}\}, \{\{title\}\}, \{\{seek\}\}",
        ),
        (
            "widget.html",
            lambda t: t.replace('id="{{uid}}" ', "", 1),
            r'widget\.html: the outermost element needs id="\{\{uid\}\}"',
        ),
        ("widget.js", lambda t: t + '\nvar x = "</script>";\n', r"widget\.js: holds </script or <!--"),
        ("widget.css", lambda t: t + "\n/* </style> */\n", r"widget\.css: holds </style"),
    ],
)
def test_a_bad_kind_folder_is_one_line(mini, file, change, says):
    path = mini / "widgets" / "dot_counter" / file
    if change is None:
        path.unlink()
    else:
        path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
    _bad(mini, says)


def test_the_style_is_optional_and_no_page_py_is_no_widgets(mini):
    (mini / "widgets" / "dot_counter" / "widget.css").unlink()
    (w,) = course_widgets(mini / "narration")
    assert w.kind.style == ""
    (mini / "narration" / "page.py").unlink()
    assert course_widgets(mini / "narration") == []
