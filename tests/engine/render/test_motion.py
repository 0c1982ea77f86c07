"""The motion check (coursekit.render.motion): what a viewer sees turn, recorded from a dry run, against the
cue's words. Each case is a tiny scene built from a seeded plan whose one cue says (or does not say) a
direction; the course's scenes are checked in tests/course/test_motion_words.py."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from manim import PI, RIGHT, UP, Arrow, DashedLine, FadeIn, Line, Polygon, Rotate, ValueTracker, VGroup

from coursekit.render import motion
from coursekit.render.narrated_scene import NarratedScene
from coursekit.render.testing import synthetic_plan
from coursekit.render.viewer_check import build_dry_run
from tests.support.course_scenes import worker_media

CCW = "指针从正右方开始，逆时针转。"
CW = "指针从正右方开始，顺时针转。"


def build(construct, text: str = CCW, frames: int = 45, spoken: str | None = None):
    """A one-cue scene saying ``text`` whose construct is ``construct(scene, cue)``, built in a dry run with
    the motion recorder; returns the scene (``scene.turns`` holds what turned)."""

    class Probe(NarratedScene):
        CUES = ("a",)

        def construct(self):
            with self.cue("a") as cue:
                construct(self, cue)

    plan = synthetic_plan("mo", "Probe", [("a", frames, frames, {})], fps=15)
    cue = dataclasses.replace(plan.cues[0], text=text, spoken=text if spoken is None else spoken)
    plan = dataclasses.replace(plan, cues=[cue])
    return build_dry_run(Probe, plan, media_dir=worker_media())[0]


def arrow(angle_deg: float = 0.0) -> Arrow:
    a = np.radians(angle_deg)
    return Arrow(np.zeros(3), 2 * np.array([np.cos(a), np.sin(a), 0.0]), buff=0)


def rotate(angle: float, share: float = 1.0):
    def construct(s, cue):
        a = arrow()
        s.add(a)
        s.play(
            Rotate(a, angle, about_point=a.get_start()), run_time=cue.remaining() if share == 1 else cue.share(share)
        )

    return construct


def findings(scene, **kw) -> list[motion.MotionFinding]:
    return motion.check_scene(scene, **kw)


# -- the seeded cases ---------------------------------------------------------------------------------
def test_a_clockwise_rotate_under_counter_clockwise_words_is_a_finding():
    scene = build(rotate(-PI / 2))
    (f,) = findings(scene)
    assert f.rule == "turn" and f.scene == "mo" and f.cue == "mo.a"
    assert f.message.startswith("Arrow (#ffffff) turns 90.0° clockwise") and "逆时针 (counter-clockwise)" in f.message
    assert f.line().startswith("mo · mo.a · frame 0: turn: ")


def test_a_counter_clockwise_rotate_under_the_same_words_is_none():
    scene = build(rotate(PI / 2))
    (t,) = scene.turns
    assert t.degrees == pytest.approx(90.0) and t.way == motion.COUNTER_CLOCKWISE and t.cue == "mo.a"
    assert findings(scene) == []


def test_270_degrees_counter_clockwise_in_one_play_is_counter_clockwise():
    """The end state alone is 90° clockwise of the start; every drawn frame between says otherwise."""
    scene = build(rotate(1.5 * PI))
    (t,) = scene.turns
    assert t.degrees == pytest.approx(270.0)
    assert findings(scene) == []
    (f,) = findings(build(rotate(1.5 * PI), text=CW))
    assert "270.0° counter-clockwise" in f.message and "顺时针 (clockwise)" in f.message


def test_the_words_spoken_count_as_well_as_the_words_written():
    (f,) = findings(build(rotate(-PI / 3), text="看指针怎么转。", spoken="看指针怎么转，逆时针。"))
    assert f.rule == "turn"


def test_no_words_both_ways_or_no_motion_constrain_nothing():
    assert findings(build(rotate(-PI / 2), text="指针转到正下方。")) == []
    assert findings(build(rotate(-PI / 2), text="θ 为正时逆时针转，为负时顺时针转。")) == []

    def still(s, cue):  # a rule stated beside a static picture
        s.play(FadeIn(arrow(30)), run_time=cue.remaining())

    scene = build(still)
    assert scene.turns == [] and findings(scene) == []


def test_a_dashed_line_turns_as_one_line_and_a_still_one_not_at_all():
    def construct(s, cue):
        dashed, still = DashedLine(np.zeros(3), 2 * RIGHT), Line(np.zeros(3), 2 * UP)
        s.add(dashed, still)
        s.play(Rotate(dashed, PI / 3, about_point=np.zeros(3)), run_time=cue.remaining())

    (t,) = build(construct).turns
    assert t.mobject.startswith("DashedLine") and t.degrees == pytest.approx(60.0)


def test_a_turn_back_and_forth_in_one_play_is_two_turns():
    def wiggle(s, cue):
        t = ValueTracker(0.0)
        line = Line(np.zeros(3), 2 * RIGHT)
        line.add_updater(
            lambda m: m.put_start_and_end_on(
                np.zeros(3), 2 * np.array([np.cos(t.get_value()), np.sin(t.get_value()), 0])
            )
        )
        s.add(line)
        s.play(t.animate(rate_func=lambda a: np.sin(np.pi * a)).set_value(PI / 3), run_time=cue.remaining())

    scene = build(wiggle)
    assert [round(t.degrees) for t in scene.turns] == [60, -60]
    (f,) = findings(scene)
    assert "60.0° clockwise" in f.message


def test_a_course_adds_its_own_phrasing():
    words = {**motion.TURN_WORDS, "往回拨": motion.CLOCKWISE, "往后拨": motion.COUNTER_CLOCKWISE}
    scene = build(rotate(PI / 4), text="这次把指针往回拨。")
    assert findings(scene) == []  # plain Mandarin knows no "back"
    (f,) = findings(scene, words=words)
    assert "往回拨 (clockwise)" in f.message
    assert motion.said_ways("反方向转，往回拨", {"反方向": -1, "反方向转": -1, "往回拨": -1}) == {
        -1: ["反方向转", "往回拨"]
    }


def test_a_declared_exception_excuses_its_cue_and_an_unused_one_is_reported():
    def excused(s, cue):
        a = arrow()
        s.add(a)
        s.allow("turn", a, reason="it turns back to the start before the sentence")
        s.play(Rotate(a, -PI / 2, about_point=a.get_start()), run_time=cue.remaining())

    assert findings(build(excused)) == []

    def unused(s, cue):
        a = arrow()
        s.add(a)
        s.allow("turn", a, reason="never needed")
        s.play(Rotate(a, PI / 2, about_point=a.get_start()), run_time=cue.remaining())

    (f,) = findings(build(unused))
    assert f.rule == "unused_exception" and f.cue == "mo.a" and "never needed" in f.message
    with pytest.raises(ValueError, match="unknown viewer-check rule"):
        build(lambda s, cue: s.allow("turns", reason="x"))


def test_hidden_changed_and_shown_again_is_no_turn_nor_is_a_segment_through_zero_length():
    def reset(s, cue):
        a = arrow(50)
        s.play(FadeIn(a), run_time=cue.share(0.3))
        s.play(a.animate.set_opacity(0), run_time=cue.share(0.3))
        a.rotate(-50 * DEG, about_point=np.zeros(3))
        s.play(a.animate.set_opacity(1), run_time=cue.remaining())

    scene = build(reset)
    assert scene.turns == [] and findings(scene) == []

    def through_zero(s, cue):  # a projection on the y axis as a pointer passes 0°: +y, shrinks, then -y
        t = ValueTracker(1.0)
        seg = Line(np.zeros(3), UP)
        seg.add_updater(lambda m: m.put_start_and_end_on(np.zeros(3), np.array([0, t.get_value() or 1e-3, 0])))
        s.add(seg)
        s.play(t.animate.set_value(-1.0), run_time=cue.remaining())

    scene = build(through_zero)
    assert scene.turns == [] and findings(scene) == []


DEG = PI / 180


def test_lines_are_named_by_where_they_are_and_a_heading_hook_counts():
    class Dial(VGroup):
        def __init__(self):
            super().__init__()
            self.hands = VGroup(Line(np.zeros(3), RIGHT), Line(np.zeros(3), UP, color="#ff8800"))
            self.pointer = Line(np.zeros(3), 2 * RIGHT)
            self.add(self.hands, VGroup(self.pointer))

    class Wedge(Polygon):  # a pointer that is not a Line: it says where it points
        def motion_heading(self):
            return self.get_vertices()[0], self.get_vertices()[1]

    def construct(s, cue):
        dial, wedge = Dial(), Wedge(np.zeros(3), 2 * RIGHT, 0.2 * UP, color="#00ff00")
        s.add(dial, wedge)
        s.play(
            Rotate(dial.hands[1], -PI / 4, about_point=np.zeros(3)),
            Rotate(dial.pointer, PI / 4, about_point=np.zeros(3)),
            Rotate(wedge, -PI / 6, about_point=np.zeros(3)),
            run_time=cue.remaining(),
        )

    scene = build(construct)
    got = {t.mobject: round(t.degrees) for t in scene.turns}
    assert got == {"Dial.hands[1] (#ff8800)": -45, "Dial.pointer (#ffffff)": 45, "Wedge (#00ff00)": -30}
    assert {f.message.split(" turns")[0] for f in findings(scene)} == {"Dial.hands[1] (#ff8800)", "Wedge (#00ff00)"}
