"""Lesson 3 (rotation_matrix) as a viewer reads and hears it: every subtitle character is in the course font,
nothing refers to a document or a lesson the viewer has not seen, and the lesson reads as the third of one course.

(The course-wide glossary is tests/test_glossary.py; this file holds what is particular to lesson 3.)
"""
from __future__ import annotations

import re

import pytest

from coursekit.content.narration import load_course
from coursekit.core.config import load_config
from narration.figures import fill
from tests.support.course_scenes import narration_scene

FONT_FILE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
FONT_NAME = "Noto Sans CJK SC"


@pytest.fixture(scope="module")
def lesson():
    return load_course(load_config(None).lessons).lesson("rotation_matrix")


def _cues(lesson):
    for scene in lesson.scenes:
        for cue in scene.cues:
            yield scene, cue, re.sub(r"\{@\w+\}", "", fill(cue.text))


@pytest.fixture(scope="module")
def cmap():
    from fontTools.ttLib import TTCollection

    fonts = TTCollection(FONT_FILE).fonts
    (font,) = [f for f in fonts if f["name"].getDebugName(1) == FONT_NAME]
    return font.getBestCmap()


def test_every_subtitle_character_is_in_the_course_font(lesson, cmap):
    missing = {}
    texts = [(f"{s.id}.{c.short_id}", t) for s, c, t in _cues(lesson)] + [("title", lesson.title)] + \
        [(s.id, s.title) for s in lesson.scenes]
    for where, text in texts:
        for ch in text:
            if ch.strip() and ord(ch) not in cmap:
                missing.setdefault(ch, where)
    assert not missing, f"characters the course font lacks (the player falls back to another font): {missing}"
    # the check would see them: ᵀ ₖ ⁻ are not in the font
    assert all(ord(ch) not in cmap for ch in "ᵀₖ⁻⁵⁶")


@pytest.mark.parametrize("word", ["讲义", "规矩照旧", "当场", "下一课", "L5", "学习器", "repro", "表针", "戴一块表"])
def test_nothing_points_at_an_unseen_document_or_lesson(lesson, word):
    hits = [f"{s.id}.{c.short_id}" for s, c, t in _cues(lesson) if word in t]
    hits += ["title"] if word in lesson.title else []
    assert not hits, f"{word!r} in {hits}"


def test_the_voice_never_reads_an_assertion_code(lesson):
    # A1 … A5 are 断言一 … 断言五 in the subtitles too, so the voice and the subtitle say the same
    hits = [f"{s.id}.{c.short_id}" for s, c, t in _cues(lesson) if re.search(r"\bA[1-5]\b", t)]
    assert not hits


def test_lesson_three_follows_lessons_one_and_two(lesson):
    text = {f"{s.id}.{c.short_id}": t for s, c, t in _cues(lesson)}
    # the bridge: RoPE turned q and k; here the readings PE(n) are the turned vectors, added to x
    assert "前两课" in text["rot_opening.title"] and "RoPE" in text["rot_opening.title"]
    assert "PE(n)" in text["rot_opening.title"] and "x" in text["rot_opening.title"]
    # order-blindness is recalled in a sentence, not replayed
    assert "第一课" in text["order_entry.defect"] and "第二课" in text["order_entry.raw_index"]
    # the link to lesson 2's requirements (3: the same step; 2: comparable size)
    assert "第二课的第三条要求" in text["shift_machine.formula"]
    assert "第二课的第二条要求" in text["exercises.ex3_work"]
    # the ending ties the three lessons together and frames the low-rank question as outside the course
    assert "第一课" in text["next_step.recap"] and "第二课" in text["next_step.recap"]
    assert "课外思考" in text["next_step.question"]


def test_order_entry_writes_no_false_equation():
    scene = narration_scene("order_entry")
    ex = scene.probes["example"][0]
    assert ex["pair"] == ["狗咬人", "人咬狗"] and "=" not in "".join(ex["pair"])
    assert "同一袋词" in ex["same"] and "同一袋词" in scene.plan.cue("example").text
    assert "同一句话" not in scene.plan.cue("example").text
