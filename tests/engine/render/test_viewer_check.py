"""The viewer check (coursekit.render.viewer_check): each of its rules fires on a small scene made to break it,
with the course's theme's rules; and `render.py inspect`.

(Every scene of the course passes it: tests/course/test_viewer_check.py.)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from manim import DOWN, LEFT, RIGHT, UP, FadeIn, MathTypst, Rectangle, Square, SurroundingRectangle, Text, VGroup

from coursekit.render.viewer_check import build_dry_run, contrast_ratio, relative_luminance
from scenes import theme
from scenes.base import NarratedScene, synthetic_plan
from tests.support.course_scenes import worker_media

MEDIA = worker_media()  # one per xdist worker: two workers typesetting one string in one folder race


# -- each rule on a scene made to break it ----------------------------------------------------------
def check(construct, frames: int = 30):
    """Build a one-cue synthetic scene whose construct is ``construct(scene, cue)``; return its report."""

    class Probe(NarratedScene):
        CUES = ("a",)

        def construct(self):
            with self.cue("a") as cue:
                construct(self, cue)

    plan = synthetic_plan("vc", "Probe", [("a", frames, frames, {})], fps=15)
    return build_dry_run(Probe, plan, media_dir=MEDIA, rules=theme.viewer_rules())[1]


def rules_of(report) -> list[str]:
    return sorted({f.rule for f in report.findings})


def body(text="位置", **kw):
    return theme.body_text(text, **kw)


def test_a_clean_scene_has_no_findings():
    def construct(s, cue):
        s.play(FadeIn(body("单位圆上的指针").shift(UP)), FadeIn(theme.formula("R(theta)")), run_time=cue.remaining())

    report = check(construct)
    assert report.findings == [] and report.steps >= 1 and report.texts_at_cue_end == {"vc.a": 2}


def test_leaving_the_frame():
    def construct(s, cue):
        s.play(FadeIn(body().move_to(6.9 * RIGHT)), run_time=cue.remaining())

    report = check(construct)
    assert rules_of(report) == ["frame"]
    assert "位置" in report.findings[0].message


def test_shapes_leave_the_frame_too():
    def construct(s, cue):
        s.play(FadeIn(body()), FadeIn(Square(1).move_to(4 * UP)), run_time=cue.remaining())

    assert rules_of(check(construct)) == ["frame"]


def test_entering_the_subtitle_band_text_and_shapes():
    def text(s, cue):
        s.play(FadeIn(body().move_to(3.0 * DOWN)), run_time=cue.remaining())

    def shape(s, cue):
        s.play(FadeIn(body()), FadeIn(Square(0.5).move_to(2.9 * DOWN)), run_time=cue.remaining())

    assert rules_of(check(text)) == ["subtitle_band"]
    assert rules_of(check(shape)) == ["subtitle_band"]


def test_overlap_inside_a_cue_is_found_with_its_frame():
    """Two labels collide after the first play and are apart again by the cue's end."""

    def construct(s, cue):
        a, b = body("查询"), body("键值").shift(0.3 * RIGHT)
        s.play(FadeIn(a), FadeIn(b), run_time=cue.share(0.5))
        s.play(b.animate.shift(2 * DOWN), run_time=cue.remaining())

    report = check(construct)
    (f,) = report.findings
    assert f.rule == "overlap" and f.cue == "vc.a" and "查询" in f.message and "键值" in f.message
    assert f.frame == 14  # the last frame of the first play (15 frames: 0…14)


def test_parts_of_one_text_unit_on_top_of_each_other():
    """A readout whose suffix lies on its last digit ('50°' drawn as '5' with '°' over the '0')."""
    from scenes.mobjects.readout import LabeledNumber

    def garbled(s, cue):
        r = LabeledNumber("θ =", 50, decimals=0, suffix="°")
        r.suffix.move_to(r.number.slots[1])
        s.play(FadeIn(r), run_time=cue.remaining())

    def fine(s, cue):
        s.play(FadeIn(LabeledNumber("θ =", 50, decimals=0, suffix="°")), run_time=cue.remaining())

    (f,) = check(garbled).findings
    assert f.rule == "overlap" and f.message.startswith("inside LabeledNumber")
    assert check(fine).findings == []


def test_a_caption_across_its_cards_edge_and_one_inside_it():
    """rot_opening's panel captions sat on the panel's top edge, the border through their glyphs."""

    def caption_at(y: float):
        def construct(s, cue):
            card = Rectangle(width=5.9, height=3.6).move_to(0.15 * DOWN)  # top edge at y = 1.65
            s.play(FadeIn(card), FadeIn(body("前两课：RoPE").move_to(y * UP)), run_time=cue.remaining())

        return construct

    across = check(caption_at(1.45))
    assert rules_of(across) == ["box"]
    assert "前两课" in across.findings[0].message and "Rectangle" in across.findings[0].message
    assert check(caption_at(1.3)).findings == []


def test_a_label_wider_than_its_card():
    def construct(s, cue):
        card = Rectangle(width=2.0, height=1.0)
        s.play(FadeIn(card), FadeIn(body("位置编码的读数")), run_time=cue.remaining())

    report = check(construct)
    assert rules_of(report) == ["box"] and "位置编码的读数" in report.findings[0].message


def test_a_frame_around_one_line_of_a_text_and_a_highlight_are_not_borders_through_it():
    """A frame drawn around the first of two lines of one text unit passes between the lines; a fill with no
    stroke behind the middle of a text (a highlight) has no border."""

    def construct(s, cue):
        # one text unit, two lines 0.59 apart (at the theme's own spacing of 0.03, a frame around one line
        # would run through the other: a finding)
        table = Text("一行\n二行", font=theme.FONT, font_size=theme.SIZE_BODY, line_spacing=1.8)
        frame = SurroundingRectangle(VGroup(*table[:2]), buff=0.1)
        word = body("读数").shift(2 * DOWN)
        bar = Rectangle(width=word.width + 0.4, height=0.6 * word.height, stroke_width=0, fill_opacity=0.3)
        s.play(FadeIn(table), FadeIn(frame), FadeIn(bar.move_to(word)), FadeIn(word), run_time=cue.remaining())

    assert check(construct).findings == []


def test_crossfade_of_two_texts_in_one_place_and_swap_fixes_it():
    """Old text fading out while new text fades in where it was: both are on screen for the whole
    play. Fading out first (``swap``, or a Succession) is clean, as is a crossfade elsewhere."""
    from manim import FadeOut, Succession

    def crossfade(s, cue):
        old = body("旧的说法")
        s.play(FadeIn(old), run_time=cue.share(0.3))
        s.play(FadeOut(old), FadeIn(body("新的说法")), run_time=cue.remaining())

    def swapped(s, cue):
        old = body("旧的说法")
        s.play(FadeIn(old), run_time=cue.share(0.3))
        s.swap(old, FadeIn(body("新的说法")), run_time=cue.remaining())

    def in_turn(s, cue):
        old = body("旧的说法")
        s.play(FadeIn(old), run_time=cue.share(0.3))
        s.play(Succession(FadeOut(old), FadeIn(body("新的说法"))), run_time=cue.remaining())

    def elsewhere(s, cue):
        old = body("旧的说法")
        s.play(FadeIn(old), run_time=cue.share(0.3))
        s.play(FadeOut(old), FadeIn(body("新的说法").shift(2 * DOWN)), run_time=cue.remaining())

    # 4 s: the old text stays long enough to be read (rule reading_time) in every version
    (f,) = check(crossfade, frames=60).findings
    assert f.rule == "crossfade" and "旧的说法" in f.message and "新的说法" in f.message
    assert all(check(c, frames=60).findings == [] for c in (swapped, in_turn, elsewhere))


def test_swap_takes_the_frames_of_one_play():
    frames = {}

    def construct(s, cue):
        old = body("旧的说法")
        s.play(FadeIn(old), run_time=cue.share(0.2))
        start = s.frame
        s.swap(old, FadeIn(body("新的说法")), run_time=cue.share(0.4))
        frames["swap"] = s.frame - start
        start = s.frame
        s.play(FadeIn(body("再来").shift(DOWN)), run_time=cue.share(0.4))
        frames["play"] = s.frame - start

    check(construct, frames=60)
    assert frames["swap"] == frames["play"] == 24


def test_overlap_below_five_percent_is_not_a_finding():
    def construct(s, cue):
        a = body("查询")
        b = body("键值").next_to(a, RIGHT, buff=0).shift(0.03 * a.width * LEFT)  # touching: ~3% of a box
        s.play(FadeIn(a), FadeIn(b), run_time=cue.remaining())

    assert check(construct).findings == []


def test_too_small_chinese_number_and_formula():
    def chinese(s, cue):
        s.play(FadeIn(Text("小字", font=theme.FONT, font_size=18)), run_time=cue.remaining())

    def scaled(s, cue):  # built at body size, drawn at 40%: the drawn size counts
        s.play(FadeIn(body("缩小以后").scale(0.4)), run_time=cue.remaining())

    def number(s, cue):
        s.play(FadeIn(Text("0.25", font=theme.FONT, font_size=10)), run_time=cue.remaining())

    def formula(s, cue):
        s.play(FadeIn(MathTypst("x_1 = 0.5", font_size=14)), run_time=cue.remaining())

    for construct, kind in ((chinese, "Chinese"), (scaled, "Chinese"), (number, "digits"), (formula, "digits")):
        report = check(construct)
        assert rules_of(report) == ["size"], construct.__name__
        assert kind in report.findings[0].message


def test_digits_in_scripts_are_measured_at_script_size():
    """At 24 points a formula's digits are about 22 px tall at 1080p, its superscript's about 16 px."""

    def plain(s, cue):
        s.play(FadeIn(MathTypst("x = 100", font_size=24)), run_time=cue.remaining())

    def script(s, cue):
        s.play(FadeIn(MathTypst("x = 10^(-2)", font_size=24)), run_time=cue.remaining())

    assert check(plain).findings == []
    report = check(script)
    assert rules_of(report) == ["size"] and "digits 16 px" in report.findings[0].message


def test_sizes_at_the_limit_pass():
    # SIZE_SMALL Text: Chinese about 49 px and digits about 40 px tall at 1080p
    def construct(s, cue):
        s.play(
            FadeIn(theme.small_text("标签 0.25").shift(UP)),
            FadeIn(theme.formula("x = 0.5", font_size=28)),
            run_time=cue.remaining(),
        )

    assert check(construct).findings == []


def test_low_contrast_on_the_background_on_a_shape_and_faded():
    def grey(s, cue):
        s.play(FadeIn(body(color="#3a3d45")), run_time=cue.remaining())

    def on_shape(s, cue):
        box = Rectangle(width=4, height=1.2).set_fill("#d8d8e0", opacity=1).set_stroke(width=0)
        s.play(FadeIn(box), FadeIn(body(color=theme.TEXT)), run_time=cue.remaining())

    def faded(s, cue):
        s.play(FadeIn(body()), run_time=cue.share(0.5))
        s.play(s.mobjects[-1].animate.set_opacity(0.3), run_time=cue.remaining())

    for construct in (grey, on_shape, faded):
        assert rules_of(check(construct)) == ["contrast"], construct.__name__


def test_shape_in_front_of_text_or_beside_it_is_not_behind_it():
    def construct(s, cue):
        t = body()
        box = Rectangle(width=1, height=1).set_fill("#d8d8e0", opacity=1).set_stroke(width=0).next_to(t, RIGHT)
        s.play(FadeIn(t), FadeIn(box), run_time=cue.remaining())

    assert check(construct).findings == []


def test_title_size_needs_only_three_to_one():
    colour = "#6b6e78"  # about 3.5:1 on the background
    ratio = contrast_ratio(np.array([0x6B, 0x6E, 0x78]) / 255, np.array([0x14, 0x16, 0x1C]) / 255)
    assert 3.0 < ratio < 4.5

    def title(s, cue):
        s.play(FadeIn(theme.title_text("大标题", color=colour)), run_time=cue.remaining())

    def small(s, cue):
        s.play(FadeIn(theme.small_text("小标签", color=colour)), run_time=cue.remaining())

    assert check(title).findings == []
    assert rules_of(check(small)) == ["contrast"]


def test_declared_exception_excuses_and_an_unused_one_is_reported():
    def allowed(s, cue):
        a, b = body("原位"), body("原位")
        s.allow("overlap", a, b, reason="the word slides over its old place")
        s.play(FadeIn(a), FadeIn(b), run_time=cue.remaining())

    def unused(s, cue):
        a = body("原位")
        s.allow("contrast", a, reason="drawn faint on purpose")
        s.play(FadeIn(a), run_time=cue.remaining())

    assert check(allowed).findings == []
    (f,) = check(unused).findings
    assert (
        f.rule == "unused_exception" and "drawn faint on purpose" in f.message and "test_viewer_check.py" in f.message
    )


def test_an_exception_covers_only_what_it_names():
    def construct(s, cue):
        a, b, c = body("甲"), body("甲"), body("乙").shift(0.1 * RIGHT)
        s.allow("overlap", a, b, reason="a and b only")
        s.play(FadeIn(a), FadeIn(b), FadeIn(c), run_time=cue.remaining())

    report = check(construct)
    assert rules_of(report) == ["overlap"] and all("乙" in f.message for f in report.findings)


def test_allow_needs_a_known_rule_and_a_reason():
    def bad_rule(s, cue):
        s.allow("overlaps", body(), reason="typo")

    def no_reason(s, cue):
        s.allow("overlap", body(), reason=" ")

    for construct in (bad_rule, no_reason):
        with pytest.raises(ValueError):
            check(construct)


def test_wcag_figures():
    assert relative_luminance(np.array([1.0, 1.0, 1.0])) == pytest.approx(1.0)
    assert contrast_ratio(np.array([0.0, 0.0, 0.0]), np.array([1.0, 1.0, 1.0])) == pytest.approx(21.0)
    # WCAG's own example: #767676 on white is 4.54:1
    assert contrast_ratio(np.array([0x76] * 3) / 255, np.array([1.0, 1.0, 1.0])) == pytest.approx(4.54, abs=0.01)


# -- the command ---------------------------------------------------------------------------------
def test_inspect_command_reports_per_scene_and_rejects_an_unknown_scene(tmp_path, monkeypatch, capfd):
    """`render.py inspect` run through the command line's entry in this process (``mini_runs.here``: what
    render.py runs, without a new Python importing Manim and the course again for each of the two commands)."""
    from tests.support import mini_runs

    root = Path(__file__).resolve().parents[3]
    cfg = tmp_path / "config.yaml"
    cfg.write_text(
        (root / "config.yaml").read_text(encoding="utf-8").replace("output: media", "output: tests/.tmp/inspect_media"),
        encoding="utf-8",
    )
    ok = mini_runs.here(monkeypatch, capfd, "inspect", "trig_opening", "--config", str(cfg), "--voice", "silent")
    assert ok.returncode == 0, ok.stderr
    assert "trig_opening: no findings after" in ok.stdout
    bad = mini_runs.here(monkeypatch, capfd, "inspect", "no_such_scene", "--config", str(cfg), "--voice", "silent")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "no_such_scene" in bad.stderr
