"""Narration loading: every problem is one line naming file:line, exit status 2."""

from pathlib import Path

import pytest

from coursekit.content.narration import load_course, load_lesson
from coursekit.core.errors import UserError

GOOD = """lesson: trig_to_rope
title: 测试课
scenes:
  - id: alpha
    class: Alpha
    title: 第一幕
    source: ["trig_to_rope §0"]
    cues:
      - id: one
        text: 指针转一圈。{@half}转到一半。
      - id: two
        text: 角度可以相加。
        say: 角度可以相加
        pause: 2
"""


def write(tmp_path: Path, text: str, name: str = "trig_to_rope.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_good_lesson_loads_with_full_ids_and_bookmarks(tmp_path):
    lesson = load_lesson(write(tmp_path, GOOD))
    assert lesson.id == "trig_to_rope"
    s = lesson.scenes[0]
    assert [c.id for c in s.cues] == ["alpha.one", "alpha.two"]
    assert s.cues[0].bookmarks == ["half"] and s.cues[0].line == 9
    assert s.cues[1].pause == 2.0 and s.cues[1].say == "角度可以相加"


BAD = [
    ("empty_cue", GOOD.replace("text: 角度可以相加。", "text: ''"), ":12:", "empty"),
    ("whitespace_cue", GOOD.replace("text: 角度可以相加。", "text: '   '"), ":12:", "empty"),
    ("dup_cue", GOOD.replace("id: two", "id: one"), ":11:", "duplicate cue id 'alpha.one'"),
    ("dup_scene", GOOD + GOOD.split("scenes:\n", 1)[1], ":15:", "duplicate scene id 'alpha'"),
    ("bookmark_not_placed", GOOD.replace("text: 角度可以相加。", "text: 角度{@sum}可以相加。"), ":13:", "never placed"),
    ("no_cues", GOOD.split("    cues:")[0] + "    cues: []\n", ":8:", "has no cues"),
    ("bad_lesson_id", GOOD.replace("lesson: trig_to_rope", "lesson: Trig-Rope"), ":1:", "must be snake_case"),
    (
        "bad_overview",
        GOOD.replace("    source:", "    overview: yes please\n    source:", 1),
        ":",
        "overview must be true or false",
    ),
    ("unknown_role", GOOD.replace("pause: 2", "pause: 2\n        role: quiz", 1), ":", "unknown role 'quiz'"),
    ("unknown_key", GOOD.replace("pause: 2", "pasue: 2"), ":14:", "did you mean 'pause'"),
    ("bad_id", GOOD.replace("id: alpha", "id: Alpha-1"), ":4:", "snake_case"),
    ("control_char", GOOD.replace("角度可以相加。", "角度\x07可以相加。", 1), ":12:", "control character"),
    ("long_cue", GOOD.replace("角度可以相加。", "长" * 10000, 1), ":12:", "10000 characters"),
    ("pause_range", GOOD.replace("pause: 2", "pause: 99"), ":14:", "out of range"),
    ("malformed", GOOD.replace("title: 第一幕", "title: [第一幕"), ":", "YAML"),
    ("python_tag", GOOD.replace("title: 第一幕", "title: !!python/name:os.system ''"), ":", "text"),
]


@pytest.mark.parametrize("name,text,where,expect", BAD, ids=[b[0] for b in BAD])
def test_bad_narration_names_file_line_and_problem(tmp_path, name, text, where, expect):
    path = write(tmp_path, text)
    with pytest.raises(UserError) as exc:
        load_lesson(path)
    msg = str(exc.value)
    assert "\n" not in msg
    assert "trig_to_rope.yaml" in msg and where in msg, msg
    assert expect.lower() in msg.lower(), msg


def test_scene_ids_unique_across_course(tmp_path):
    write(tmp_path, GOOD)
    write(tmp_path, GOOD.replace("lesson: trig_to_rope", "lesson: word_order"), "word_order.yaml")
    with pytest.raises(UserError, match="already used in trig_to_rope.yaml"):
        load_course(("trig_to_rope", "word_order"), tmp_path)


def test_unknown_scene_lists_close_matches(tmp_path):
    write(tmp_path, GOOD)
    course = load_course(("trig_to_rope",), tmp_path)
    with pytest.raises(UserError, match="close matches: alpha"):
        course.scene("alpah")
