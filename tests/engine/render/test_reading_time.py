"""The viewer check's rule ``reading_time`` (coursekit.render.viewer_check.ReadingTime): every text stays on
screen at least 0.5 s plus a second per 9 characters, on small scenes made to break it.

(The course against it: tests/course/test_viewer_check.py.)
"""

from __future__ import annotations

import numpy as np
import pytest
from manim import DOWN, LEFT, UP, FadeIn, FadeOut, ReplacementTransform, ValueTracker, VGroup

from coursekit.render.viewer_check import build_dry_run, reading_cells
from coursekit.zh.chars import text_cells
from scenes import theme
from scenes.base import NarratedScene, synthetic_plan
from scenes.mobjects.readout import LabeledNumber
from tests.support.course_scenes import worker_media

MEDIA = worker_media()
FPS = 15
#: 18 Chinese characters: reading them takes 0.5 + 18/9 = 2.5 s
EIGHTEEN = "旋转矩阵把每一个向量都转过同一个角度"


def check(construct, frames: int = 75):
    """The findings of a one-cue synthetic scene (15 fps) whose construct is ``construct(scene, cue)``."""

    class Probe(NarratedScene):
        CUES = ("a",)

        def construct(self):
            with self.cue("a") as cue:
                construct(self, cue)

    plan = synthetic_plan("rt", "Probe", [("a", frames, frames, {})], fps=FPS)
    return build_dry_run(Probe, plan, media_dir=MEDIA, rules=theme.viewer_rules())[1].findings


class Labelled(VGroup):
    TEXT_UNIT = True


def reading(findings):
    return [f for f in findings if f.rule == "reading_time"]


def small(text):
    return theme.small_text(text)


def shown_for(frames: int, text: str = EIGHTEEN, allow: bool = False):
    """A scene that adds ``text`` at frame 0, removes it after ``frames`` frames and holds to its end."""

    def construct(s, cue):
        t = small(text)
        if allow:
            s.allow("reading_time", t, reason="a flash the narration reads aloud")
        s.add(t)
        s.hold_frames(frames)
        s.remove(t)
        cue.hold()

    return construct


def test_the_count_of_characters():
    assert text_cells(EIGHTEEN) == 18 and text_cells("cos θ = 0.87") == 4.5 and text_cells("第 3 个") == 2.5
    assert reading_cells(small(EIGHTEEN)) == 18
    assert reading_cells(theme.formula("R(theta)")) == 2  # R ( θ ): four glyphs, half a character each
    assert reading_cells(theme.formula('"位置" + 1')) == 3  # two Chinese characters, then + and 1
    assert reading_cells(LabeledNumber("θ =", 50, decimals=0, suffix="°")) == 2.5  # θ = 5 0 °
    # a composite of a Chinese label and a formula: 角度 (2) and θ = 0 (3 glyphs, 1.5)
    assert reading_cells(Labelled(small("角度"), theme.formula("theta = 0"))) == 3.5


def test_eighteen_characters_for_one_second_are_a_finding():
    (f,) = reading(check(shown_for(15)))
    assert (f.scene, f.cue, f.frame) == ("rt", "rt.a", 0)
    assert f.message == (f"Text {EIGHTEEN!r} is on screen 1.00 s (frames 0–15), reading its 18 characters takes 2.50 s")


def test_for_three_seconds_they_are_not():
    assert check(shown_for(45)) == []
    assert reading(check(shown_for(37))) != [] and reading(check(shown_for(38))) == []  # 2.47 s and 2.53 s


def test_an_allowed_flash_is_not_a_finding_and_an_unneeded_allowance_is():
    assert check(shown_for(15, allow=True)) == []
    (f,) = check(shown_for(45, allow=True))
    assert f.rule == "unused_exception" and "a flash the narration reads aloud" in f.message


def test_a_text_is_on_screen_from_its_first_visible_frame_to_its_fade_out():
    def construct(s, cue):
        t = small(EIGHTEEN)
        s.play_frames(FadeIn(t), frames=10)  # visible from its second frame
        s.hold_frames(10)
        s.play_frames(FadeOut(t), frames=10)  # visible to its last frame
        cue.hold()

    (f,) = reading(check(construct))
    assert f.frame == 1 and "frames 1–30" in f.message and "1.93 s" in f.message


def test_a_text_that_leaves_the_frame_is_gone():
    def construct(s, cue):
        t = small(EIGHTEEN).shift(UP)
        s.add(t)
        s.hold_frames(15)
        t.shift(9 * UP)  # out of the frame, still in the scene
        cue.hold()

    (f,) = reading(check(construct))
    assert "frames 0–15" in f.message


def test_a_text_that_stays_to_the_scene_end_is_read_to_the_end():
    def construct(s, cue):
        s.hold_frames(60)
        s.add(small(EIGHTEEN))
        cue.hold()

    (f,) = reading(check(construct))
    assert f.frame == 60 and "frames 60–75" in f.message


def test_a_number_that_ticks_every_frame_is_one_text():
    def construct(s, cue):
        theta = ValueTracker(0)
        label = LabeledNumber("θ =", 0, decimals=0, suffix="°")
        label.add_updater(lambda m: m.set_value(theta.get_value()))
        s.add(label)
        s.play(theta.animate.set_value(90), run_time=cue.remaining())

    assert check(construct) == []


def test_a_label_replaced_in_its_place_is_the_same_text_and_one_elsewhere_is_not():
    def in_place(s, cue):
        old = small("角度是 10°")
        s.add(old)
        for k in range(2, 7):
            s.hold_frames(8)
            new = small(f"角度是 {10 * k}°").move_to(old)
            s.remove(old)
            s.add(new)
            old = new
        s.play_frames(ReplacementTransform(old, small("角度是 90°").move_to(old)), frames=8)
        cue.hold()

    def elsewhere(s, cue):
        a = small(EIGHTEEN).shift(UP)
        s.add(a)
        s.hold_frames(15)
        s.remove(a)
        s.add(small("另一句话").shift(2 * DOWN + 2 * LEFT))
        cue.hold()

    assert check(in_place) == []
    (f,) = reading(check(elsewhere))
    assert EIGHTEEN in f.message


def test_a_text_that_comes_back_is_read_each_time():
    def construct(s, cue):
        t = small(EIGHTEEN)
        for _ in range(3):
            s.add(t)
            s.hold_frames(15)
            s.remove(t)
            s.hold_frames(5)
        cue.hold()

    found = reading(check(construct))
    assert [f.frame for f in found] == [0, 20, 40]


@pytest.mark.parametrize("seconds", [1.0, 3.0])
def test_a_typst_formula_counts_its_glyphs(seconds):
    """R(θ) = [cos θ −sin θ; sin θ cos θ]: 24 glyphs (R ( θ ) =, the two brackets, 17 in the entries), half
    a character each: 12, so it needs 0.5 + 12/9 = 1.83 s."""
    source = "R(theta) = mat(cos theta, -sin theta; sin theta, cos theta)"
    assert reading_cells(theme.formula(source)) == 12

    def construct(s, cue):
        f = theme.formula(source)
        s.add(f)
        s.hold_frames(round(seconds * FPS))
        s.remove(f)
        cue.hold()

    found = reading(check(construct))
    assert (found != []) == (seconds < 1.83), found


def test_the_needed_time_follows_the_rules():
    rules = theme.viewer_rules()
    assert (rules.min_read_s, rules.read_chars_per_second) == (0.5, 9.0)
    need = [rules.min_read_s + n / rules.read_chars_per_second for n in (0, 9, 18)]
    assert np.allclose(need, [0.5, 1.5, 2.5])
