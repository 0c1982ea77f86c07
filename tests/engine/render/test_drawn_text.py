"""The drawn-text recorder (coursekit.render.drawn_text): what a dry run says a scene drew.

The glossary and glyph tests trust it, so each kind of text, and each way a text can be on screen only
briefly or not at all, is shown here on a small scene.
"""

from __future__ import annotations

from manim import DOWN, FadeIn, FadeOut, MarkupText, MathTypst, Paragraph, Succession, Text, VGroup, VMobject

from coursekit.render.drawn_text import DrawnText
from coursekit.render.narrated_scene import NarratedScene
from coursekit.render.testing import synthetic_plan
from coursekit.render.viewer_check import build_dry_run
from tests.support.course_scenes import worker_media

MEDIA = worker_media()


class Glyphs(VMobject):
    """A unit drawn from glyphs it built itself, telling which character each is (as a live number does)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.shown = Text(text)
        self.add(*self.shown.submobjects)
        self.chars = [c for c in text if not c.isspace()]

    def glyph_pairs(self):
        return list(zip(self.chars, self.submobjects))


def drawn(construct, frames: int = 30) -> list[DrawnText]:
    class Probe(NarratedScene):
        CUES = ("a",)

        def construct(self):
            with self.cue("a") as cue:
                construct(self, cue)

    plan = synthetic_plan("dt", "Probe", [("a", frames, frames, {})], fps=15, lead_in=1, tail=1)
    scene, _ = build_dry_run(Probe, plan, media_dir=MEDIA)
    return scene.drawn_texts


def test_each_kind_of_text_is_recorded_once_with_its_cue_and_frame():
    def construct(scene, cue):
        group = VGroup(
            VGroup(Text("转速 ω")),
            MarkupText("<b>点积</b> &amp; 夹角"),
            Paragraph("第一行", "第二行"),
            MathTypst("omega_i = 10000^(-2i/d)"),
            Glyphs("0.87"),
        )
        group.arrange(DOWN)
        scene.add(group)
        scene.hold_frames(3)
        scene.play(group.animate.shift(DOWN * 0.1), run_time=cue.remaining())

    texts = drawn(construct)
    assert {(t.kind, t.text) for t in texts} == {
        ("Text", "转速 ω"),
        ("MarkupText", "点积 & 夹角"),
        ("Paragraph", "第一行\n第二行"),
        ("Typst", "$ omega_i = 10000^(-2i/d) $"),
        ("glyphs", "0.87"),
    }  # a MathTypst: its source as typeset
    assert len(texts) == 5  # each once, though it was on many frames
    assert {t.cue for t in texts} == {"dt.a"} and {t.scene for t in texts} == {"dt"}
    assert [t.typst for t in texts].count(True) == 1


def test_a_text_on_screen_only_inside_one_play_is_recorded():
    def construct(scene, cue):
        brief = Text("一闪而过")
        scene.play(Succession(FadeIn(brief), FadeOut(brief)), run_time=cue.share(0.5))

    assert [t.text for t in drawn(construct)] == ["一闪而过"]


def test_invisible_and_never_added_text_is_not_recorded():
    def construct(scene, cue):
        Text("从未加入")  # built, never added
        hidden = Text("透明").set_opacity(0)
        scene.add(hidden)
        scene.hold_frames(5)

    assert drawn(construct) == []


def test_a_changing_string_is_recorded_each_time_it_changes():
    def construct(scene, cue):
        first = Text("第 1 步")
        scene.add(first)
        scene.hold_frames(2)
        scene.remove(first)
        scene.add(Text("第 2 步"))
        scene.hold_frames(2)

    assert [t.text for t in drawn(construct)] == ["第 1 步", "第 2 步"]


def test_a_record_survives_json():
    t = DrawnText("s", "文字", "Text", 3, "s.a")
    assert DrawnText.from_dict(t.to_dict()) == t
