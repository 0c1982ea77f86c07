"""Lesson 1 (trig_to_rope), the scenes with one or two checks each: trig_opening (sin 30° and the pointer, and a
roadmap row for every scene of the lesson), attention_blind (the outputs only permute), summary_table (its rows
appear with their cues). The lesson's other scenes have files of their own,
tests/course/test_scene_<scene_id>.py.

Built once per run from its real narration plan; how these checks work: tests/course/__init__.py.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import mathcore
from mathcore.toy_words import attention_scores, attention_weights, word_vectors
from narration import figures
from tests.support.course_scenes import narration_scene
from tests.support.course_text import course
from tests.support.scene_probes import bare, one

TOL = 1e-6


def build(scene_id: str):
    return narration_scene(scene_id)


# -- LessonOpening ----------------------------------------------------------------------
def test_trig_opening_sin30_and_pointer():
    scene = build("trig_opening")
    s = scene.probes["sin30"][0]
    assert s["value"] == pytest.approx(mathcore.pointer_tip(np.radians(30.0))[1], abs=TOL)
    assert s["shown"] == figures.value("sin30")
    assert float(s["shown"]) == pytest.approx(s["value"], abs=0.005)
    samples = scene.probes["pointer"]
    assert len(samples) > 30
    for t in samples:
        assert np.allclose(t["tip"], mathcore.rotate(t["v0"], t["phi"]), atol=TOL)
    assert max(t["phi"] for t in samples) > 2 * np.pi  # the pointer really turns during the plan


# the stage of the trig_opening roadmap (1-based row) each content scene of the lesson belongs to
TRIG_STAGES = {
    "unit_circle": 1,
    "angle_addition": 2,
    "attention_blind": 3,
    "rope_turns": 4,
    "rope_invariance": 4,
    "clock_row": 5,
    "minimal_rope": 6,
    "summary_table": 7,
}


def test_trig_opening_roadmap_has_a_row_for_every_scene_of_the_lesson():
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from scenes.trig_opening import LessonOpening

    scene = build("trig_opening")
    shown = scene.probes["roadmap"][0]["shown"]
    items = LessonOpening.PARAMS["trig_opening"]["roadmap"]
    assert shown == [bare(f"{i + 1}  {t}") for i, t in enumerate(items)]
    lesson = next(l for l in load_course(load_config().lessons).lessons if l.id == "trig_to_rope")
    assert scene.probes["title"][0]["shown"] == bare(lesson.title)  # the lesson's title, from its plan
    content = [s.id for s in lesson.scenes if s.id != "trig_opening"]
    assert content == list(TRIG_STAGES), "a scene was added, removed or moved: give it its roadmap row"
    stages = list(TRIG_STAGES.values())
    assert stages == sorted(stages) and set(stages) == set(range(1, len(items) + 1))
    plan = scene.plan.cue("plan").text
    assert "动手" in plan and "一张表" in plan  # the voice names the last two stages too


@pytest.fixture(scope="module")
def scene_b():
    return narration_scene


# -- AttentionIsBlind ----------------------------------------------------------------------------
@pytest.mark.parametrize("scene_id", ["attention_blind"])
def test_attention_outputs_only_permute(scene_b, scene_id):
    scene = scene_b(scene_id)
    params = scene.PARAMS[scene_id]
    words, perm = list(params["words"]), list(params["perm"])
    x = word_vectors(words, scene.D)
    inputs = one(scene, "inputs")
    assert inputs["words"] == words and np.allclose(inputs["x"], x, atol=TOL)
    assert np.allclose(one(scene, "scores")["values"], attention_scores(x), atol=TOL)
    w = np.array(one(scene, "weights")["values"])
    assert np.allclose(w, attention_weights(x), atol=TOL) and np.allclose(w.sum(axis=1), 1.0)
    out = np.array(one(scene, "outputs")["values"])
    assert np.allclose(out, mathcore.attention(x, x, x), atol=TOL)
    assert np.allclose(w @ x, out, atol=TOL)  # weights · x is the drawn output
    sh = one(scene, "shuffled")
    assert sh["tokens"] == [words[i] for i in perm] == sh["words"]
    assert np.allclose(sh["x"], x[perm], atol=TOL)
    assert np.allclose(sh["outputs"], mathcore.attention(x[perm], x[perm], x[perm]), atol=TOL)
    assert sh["drawn"] == [inputs["drawn"][i] for i in perm]  # the same rows, moved
    cmp = one(scene, "compare")
    assert np.abs(np.array(cmp["before_then_shuffle"]) - np.array(cmp["shuffle_then_after"])).max() <= 1e-12
    assert cmp["error"] == mathcore.permutation_error(x, perm)
    assert cmp["error_shown"] == figures.fmt_sci(cmp["error"])
    assert cmp["drawn_old"] == cmp["drawn_new"]  # colour for colour, row for row
    assert cmp["drawn_new"] == [one(scene, "outputs")["drawn"][i] for i in perm]
    # example (K4, review 6): the watched word's output row in each sentence, the same four numbers
    ex = one(scene, "example")
    word = params["watched"]
    assert ex["sentences"] == list(params["pair"]) == ["".join(words), "".join(words[i] for i in perm)]
    seats = [words.index(word), [words[i] for i in perm].index(word)]
    assert ex["seats"] == seats and seats[0] != seats[1]  # first in one sentence, elsewhere in the other
    assert np.allclose(ex["values"][0], mathcore.attention(x, x, x)[seats[0]], atol=TOL)
    assert np.allclose(ex["values"][1], mathcore.attention(x[perm], x[perm], x[perm])[seats[1]], atol=TOL)
    assert np.abs(np.subtract(*ex["values"])).max() <= 1e-12 and ex["drawn"][0] == ex["drawn"][1]
    assert all(ex["on_screen"])


def built(scene_id: str):
    return narration_scene(scene_id)


def nospace(text: str) -> str:
    """Manim's Text keeps its string without spaces."""
    return text.replace(" ", "")


# -- summary_table -----------------------------------------------------------------------------------------
def test_summary_table_rows_appear_with_their_cues():
    scene = built("summary_table")
    cls = type(scene)
    for short, concept, school, _, picture, model in cls.ROWS:
        row = scene.probes[f"row_{short}"][0]
        assert row["shown"] == [nospace(t) for t in (concept, school, picture, model)]
        assert all(row["on_screen"])
        assert row["frame"] <= scene.plan.cue(short).end_frame
    for short, _, text in cls.RECAPS:
        assert scene.probes[short][0]["shown"] == nospace(text)
    # the recap quotes rope_invariance's figures (K7, review 6), and the voice says the same numbers
    said = {c.id.split(".")[-1]: c.text for c in scene.plan.cues}
    gap, score, swap = (figures.value(n) for n in ("rope_pair_gap_deg", "rope_pair_score", "rope_swap_score"))
    assert f"{gap}°" in said["recap_one"] and f"{gap}°" in cls.RECAPS[0][2]
    assert score in said["recap_three"] and swap in said["recap_three"]
    assert score in cls.RECAPS[2][2] and swap in cls.RECAPS[2][2]


# -- L1 (review 5): a distance is said as 距离 N or 相距 N 个位置, never as 隔 N 个 ----------------------------
def counted_gaps(text: str) -> list[str]:
    """Places where a distance is counted with 隔 ("隔 0 个" is heard as "nothing in between", i.e. neighbours);
    每隔 5° (a step of a sweep) and the uncounted 隔多远 / 隔几个 (lesson 2's term) are plain Chinese."""
    return re.findall(r"(?<![每相])隔\s*(?:[0-9]+|\{[a-z0-9_]+\}|[一二两三四五六七八九十])", text)


def test_distances_are_not_counted_with_ge():
    assert counted_gaps("比如隔 0 个和隔 44 个位置") == ["隔 0", "隔 44"]  # review 5's wording, seeded
    assert counted_gaps("原来隔 {shuffle_gap_before} 个位置") == ["隔 {shuffle_gap_before}"]
    assert counted_gaps("每隔 5° 扫一遍；隔得一样远；隔多远；隔几个、谁在前") == []
    _, lessons = course()
    for lesson in ("trig_to_rope", "rotation_matrix"):
        for scene in lessons.scenes.values():
            if scene.lesson != lesson:
                continue
            for cue in scene.cues:
                assert counted_gaps(cue.text) == [], cue.id
    labels = {lab for s in build("clock_row").probes["clocks"] for lab in s["table_labels"]}
    assert labels == {f"距离{p}" for p in (0, 1, 2, 3, 44)}  # Text drops the space
