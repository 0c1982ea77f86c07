"""Property-based fuzzing (hypothesis) of every loader of the course's input and of the delivered course
(issue 41): the narration YAML (the new checks of a cue's words), the config, the lexicon, the delivered
manifest, a widget folder and the course page's ``WIDGETS``, and the SRT and WebVTT readers. For any input,
the loader succeeds or raises ``UserError`` with one line; never another exception (a traceback), and it
writes nothing (the folder it reads from is listed before and after).

Each property is shown failing on a seeded case where one exists (a known bad input ends in the one line),
so that none holds by catching everything. Examples: ``tests/support/examples.py`` (a quarter under
``make test-fast``); no property has a deadline or any other time in it."""

from __future__ import annotations

import json
import math
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from coursekit.content.narration import FIGURE_RE, load_lesson
from coursekit.core.config import load_config
from coursekit.core.errors import UserError
from coursekit.deliver.manifest import read_manifest, read_subtitles
from coursekit.deliver.widgets import course_widgets
from coursekit.zh.lexicon import Lexicon
from tests.support.examples import examples
from tests.support.mini_runs import MINI_COURSE

SETTINGS = settings(
    deadline=None,
    max_examples=examples(60),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: characters that break YAML, JSON, SRT and the schemas' rules, and a few that pass them
NOISE = st.lists(
    st.sampled_from(
        list(string.printable)
        + ["{", "}", "{{", "{@", "：", "。", "！", "…", "\x00", "\x07", "\u202e", "\u200b", "\ud800", "é", "数", "NaN"]
    ),
    max_size=10,
).map("".join)


def listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if "__pycache__" not in p.parts)


def one_line_or_nothing(load, folder: Path, name: str | None = None):
    """``load()``'s result, or None when it raised the one-line UserError (naming ``name``); the folder it
    read from holds nothing new after it."""
    before = listing(folder)
    try:
        return load()
    except UserError as exc:
        line = str(exc)
        assert "\n" not in line and line.strip(), line
        assert name is None or name in line, line
        return None
    finally:
        assert listing(folder) == before


def mutated(good: str, pos: int, cut: int, noise: str) -> str:
    pos = min(pos, len(good))
    return good[:pos] + noise + good[pos + cut :]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


# --- the narration: a cue's words --------------------------------------------------------------------------
GOOD_LESSON = (MINI_COURSE / "narration" / "counting.yaml").read_text(encoding="utf-8")


@SETTINGS
@given(words=NOISE, cue=st.integers(0, 3))
@example(words="。！……", cue=0)
@example(words="{{dot_count}}", cue=0)
def test_a_cue_loads_only_with_something_to_read_and_whole_placeholders(tmp_path, words, cue):
    texts = ["屏幕上有{@dots}{dot_count}个点。", "再加一个，是几个？", "是{dot_count_plus_one}个。", "今天就到这里。"]
    path = write(tmp_path / "counting.yaml", GOOD_LESSON.replace(texts[cue], json.dumps(words, ensure_ascii=False)))
    lesson = one_line_or_nothing(lambda: load_lesson(path), tmp_path, "counting.yaml")
    if lesson is None:
        return
    for c in (c for s in lesson.scenes for c in s.cues):
        rest = FIGURE_RE.sub("", c.text).replace("{@dots}", "")
        assert "{" not in rest and "}" not in rest, c.text  # every brace is a placeholder's
        assert any(ch.isalnum() for ch in rest) or FIGURE_RE.search(c.text), c.text  # something to read


# --- the config ------------------------------------------------------------------------------------------
GOOD_CONFIG = (MINI_COURSE / "config.yaml").read_text(encoding="utf-8") + "lessons: [counting]\noutput: media\n"


@SETTINGS
@given(pos=st.integers(0, len(GOOD_CONFIG)), cut=st.integers(0, 12), noise=NOISE)
@example(pos=GOOD_CONFIG.index("[counting]\noutput"), cut=10, noise="[../x]")
@example(pos=GOOD_CONFIG.index("media"), cut=5, noise="../../up")
def test_a_mutated_config_loads_or_is_one_line(tmp_path, pos, cut, noise):
    path = write(tmp_path / "config.yaml", mutated(GOOD_CONFIG, pos, cut, noise))
    cfg = one_line_or_nothing(lambda: load_config(path), tmp_path)
    if cfg is not None:  # what it took: ids that are plain names, an output folder inside the course
        assert all(l.isidentifier() and l == l.lower() for l in cfg.lessons), cfg.lessons
        assert ".." not in Path(cfg.output).parts


def test_a_config_that_climbs_is_one_line(tmp_path):
    for text in ("lessons: [../x]\n", "output: ../../up\n", 'course:\n  title: "a\\u202eb"\n  lessons: [a]\n'):
        path = write(tmp_path / "config.yaml", text)
        assert one_line_or_nothing(lambda path=path: load_config(path), tmp_path) is None, text


# --- the lexicon -----------------------------------------------------------------------------------------
GOOD_LEXICON = """terms:
  RoPE: {latin: RoPE, chinese: 肉普}
  sin: 赛因
readings:
  转: zhuan4
polyphones: [转]
rules:
  肉: {reading: rou4, why: "rù is archaic"}
"""


@SETTINGS
@given(pos=st.integers(0, len(GOOD_LEXICON)), cut=st.integers(0, 12), noise=NOISE)
@example(pos=GOOD_LEXICON.index("zhuan4"), cut=6, noise="zhuan9")
def test_a_mutated_lexicon_loads_or_is_one_line(tmp_path, pos, cut, noise):
    path = write(tmp_path / "lexicon.yaml", mutated(GOOD_LEXICON, pos, cut, noise))
    one_line_or_nothing(lambda: Lexicon.load(path, allowed_format=()), tmp_path, "lexicon.yaml")


# --- the delivered manifest ------------------------------------------------------------------------------
GOOD_MANIFEST = {
    "title": "小小测试课",
    "font": "Noto Sans CJK SC",
    "quality": "low",
    "lessons": [
        {
            "lesson": "counting",
            "title": "数一数",
            "fps": 15,
            "duration_s": 12.5,
            "quality": "low",
            "scenes": ["count_dots", "closing"],
            "chapters": [
                {"start_ms": 0, "end_ms": 8000, "title": "数点"},
                {"start_ms": 8000, "end_ms": 12500, "title": "结束"},
            ],
            "subtitles": [{"start_ms": 0, "end_ms": 2000, "text": "屏幕上有三个点。", "chars": [0, 100, 200]}],
            "role_cues": [{"id": "count_dots.ask", "role": "question", "text": "是几个？", "start_ms": 3000}],
            "files": ["course/counting/counting.mp4"],
        }
    ],
}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | st.sampled_from(["../x", "a/b"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def _paths(node, at=()):
    """Every place in a JSON document (a key's or an item's path)."""
    yield at
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*at, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*at, i))


PLACES = list(_paths(GOOD_MANIFEST))[1:]


@SETTINGS
@given(place=st.sampled_from(PLACES), value=JSON_VALUES)
@example(place=("lessons", 0, "duration_s"), value=math.nan)
@example(place=("lessons", 0, "lesson"), value="../../../evil")
def test_a_manifest_with_any_value_anywhere_is_read_or_one_line(tmp_path, place, value):
    data = json.loads(json.dumps(GOOD_MANIFEST))
    node = data
    for part in place[:-1]:
        node = node[part]
    node[place[-1]] = value
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    manifest = one_line_or_nothing(lambda: read_manifest(path), tmp_path, "manifest.json")
    if manifest is not None:  # what it took: ids that are plain names, finite durations
        assert all(l.lesson.isidentifier() and math.isfinite(l.duration_s) for l in manifest.lessons)


@SETTINGS
@given(pos=st.integers(0, 900), cut=st.integers(0, 12), noise=NOISE)
def test_a_mutated_manifest_file_is_read_or_one_line(tmp_path, pos, cut, noise):
    path = write(tmp_path / "manifest.json", mutated(json.dumps(GOOD_MANIFEST, ensure_ascii=False), pos, cut, noise))
    one_line_or_nothing(lambda: read_manifest(path), tmp_path, "manifest.json")


@SETTINGS
@given(data=st.binary(max_size=300))
def test_any_bytes_as_the_manifest_are_one_line(tmp_path, data):
    (tmp_path / "manifest.json").write_bytes(data)
    one_line_or_nothing(lambda: read_manifest(tmp_path / "manifest.json"), tmp_path, "manifest.json")


# --- the SRT and WebVTT readers --------------------------------------------------------------------------
GOOD_SRT = "1\n00:00:00,000 --> 00:00:02,000\n屏幕上有三个点。\n\n2\n00:00:02,500 --> 00:00:04,000\n再加一个。\n"
GOOD_VTT = "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n屏幕上有三个点。\n\n00:00:02.500 --> 00:00:04.000\n再加一个。\n"


@SETTINGS
@given(
    kind=st.sampled_from(["srt", "vtt"]),
    pos=st.integers(0, 100),
    cut=st.integers(0, 12),
    noise=NOISE | st.sampled_from(["99:99:99,999", "-->", "\n\n", "00:00:01,000 --> 00:00:00,500"]),
)
def test_a_mutated_subtitle_file_is_read_or_one_line(tmp_path, kind, pos, cut, noise):
    path = write(tmp_path / f"counting.{kind}", mutated(GOOD_SRT if kind == "srt" else GOOD_VTT, pos, cut, noise))
    events = one_line_or_nothing(lambda: read_subtitles(path), tmp_path, f"counting.{kind}")
    if events is not None:
        assert all(isinstance(a, int) and isinstance(b, int) and isinstance(t, str) for a, b, t in events)


@SETTINGS
@given(kind=st.sampled_from(["srt", "vtt"]), data=st.binary(max_size=200))
@example(kind="srt", data=GOOD_SRT.encode().replace("屏".encode(), b"\xff\xfe\xfd"))
def test_any_bytes_as_subtitles_are_read_or_one_line(tmp_path, kind, data):
    (tmp_path / f"counting.{kind}").write_bytes(data)
    one_line_or_nothing(lambda: read_subtitles(tmp_path / f"counting.{kind}"), tmp_path, f"counting.{kind}")


def test_the_subtitle_readers_give_the_good_files_events(tmp_path):
    for kind, text in (("srt", GOOD_SRT), ("vtt", GOOD_VTT)):
        path = write(tmp_path / f"counting.{kind}", text)
        assert read_subtitles(path) == [(0, 2000, "屏幕上有三个点。"), (2500, 4000, "再加一个。")]


# --- widgets: the kind's folder and the page's entries -----------------------------------------------------
GOOD_PAGE = (MINI_COURSE / "narration" / "page.py").read_text(encoding="utf-8")
KIND = MINI_COURSE / "widgets" / "dot_counter"


def _widget_course(tmp: Path) -> Path:
    import shutil

    course = tmp / "c"
    if course.exists():
        shutil.rmtree(course)
    shutil.copytree(MINI_COURSE / "narration", course / "narration", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(KIND, course / "widgets" / "dot_counter")
    return course


@SETTINGS
@given(
    file=st.sampled_from(["widget.html", "widget.js", "widget.css", "page.py"]),
    pos=st.integers(0, 600),
    cut=st.integers(0, 12),
    noise=NOISE | st.sampled_from(['"../x"', "</script>", "{{nope}}", "None", "float('nan')", '"kind": 3,']),
)
def test_a_mutated_widget_loads_or_is_one_line(tmp_path, file, pos, cut, noise):
    course = _widget_course(tmp_path)
    path = course / "narration" / "page.py" if file == "page.py" else course / "widgets" / "dot_counter" / file
    good = path.read_text(encoding="utf-8") if path.exists() else ""
    write(path, mutated(good, pos, cut, noise))
    one_line_or_nothing(lambda: course_widgets(course / "narration", course / "widgets"), course)


@pytest.mark.parametrize(
    "change",
    [
        lambda c: (c / "widgets" / "dot_counter" / "widget.js").unlink(),
        lambda c: write(c / "narration" / "page.py", GOOD_PAGE.replace('"dot_counter"', '"../x"')),
        lambda c: (c / "widgets" / "dot_counter" / "widget.html").write_bytes(b"\xff\xfe"),
    ],
)
def test_a_broken_widget_is_one_line(tmp_path, change):
    course = _widget_course(tmp_path)
    change(course)
    assert one_line_or_nothing(lambda: course_widgets(course / "narration", course / "widgets"), course) is None
