"""词序从哪里进来: a one-sentence recall of lesson 1 (with its condition); the two direct ways in plus RoPE's
third (change the score itself); lesson 2's requirement 2 (bounded numbers), which a turn keeps.

Lesson 1 derives order-blindness (attention_blind) and lesson 2 shows the raw index failing (failing_encodings):
this scene recalls the first in a sentence and a small picture and leaves the second to lesson 2 (K6, review 11:
the raw-index beat walked seed 000 §1's chain). The turning arrow's tip comes from :func:`mathcore.rotate` (via
:class:`TurningArrow`).
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    UP,
    Arrow,
    Circle,
    Create,
    DashedVMobject,
    FadeIn,
    RoundedRectangle,
    Square,
    VGroup,
)

from mathcore.toy_words import norm
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import TurningArrow
from scenes.mobjects.readout import LabeledNumber

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
CONDITION = ("每个词都能看到整句话", "又不加位置信息")  # lesson 1's condition, as the recall says it


class WhereOrderEnters(NarratedScene):
    """recall (lesson 1 in a sentence, with its condition) → two_doors (road 1: change the input; road 2: change the
    order of computing, not taken) → third_door (road 3: change the score, RoPE; this lesson takes road 1) → need
    (lesson 2's requirement 2, bounded numbers: the arrow turns, its length stays 1)."""

    SCENE_IDS = ("order_entry",)
    CUES = ("recall", "two_doors", "third_door", "need")
    WORDS = ("猫", "追", "狗")  # the recurrent chain's boxes (lesson 1's sentence)

    def construct(self) -> None:
        header = self.header()

        # -- recall: lesson 1 in one sentence, with its condition ------------------------------------
        tag = theme.small_text("第一课", color=theme.HIGHLIGHT)
        cond = VGroup(*[theme.body_text(t, color=theme.TEXT) for t in CONDITION]).arrange(DOWN, buff=0.25)
        then = theme.body_text("注意力就分不出谁先谁后", color=theme.HIGHLIGHT)
        arrow = Arrow(UP, DOWN, color=theme.MUTED, stroke_width=4, max_tip_length_to_length_ratio=0.25)
        VGroup(cond, arrow, then).arrange(DOWN, buff=0.3).move_to(np.array([0.0, 0.55, 0.0]))
        tag.next_to(cond, UP, buff=0.35)
        self.probe("recall", condition=[m.text for m in cond], then=then.text)
        with self.cue("recall") as cue:
            self.play(FadeIn(header), FadeIn(tag), FadeIn(cond), run_time=cue.share(0.3))
            self.play(Create(arrow), run_time=cue.share(0.2))
            self.play(FadeIn(then, shift=0.15 * DOWN), run_time=cue.share(0.2))

        # -- two_doors, third_door: data, structure (dropped), the score itself (RoPE) ----------------------
        doors = VGroup(
            *[
                RoundedRectangle(width=4.25, height=4.3, corner_radius=0.2, color=theme.MUTED, stroke_width=3)
                for _ in range(3)
            ]
        )
        doors.arrange(RIGHT, buff=0.28).move_to(np.array([0.0, 0.3, 0.0]))
        names = VGroup(
            *[
                VGroup(theme.body_text(a, color=theme.TEXT), theme.small_text(b, color=theme.TEXT))
                .arrange(DOWN, buff=0.12)
                .move_to(door.get_top() + 0.7 * DOWN)
                for (a, b), door in zip(
                    (("第一条路", "改输入"), ("第二条路", "改计算次序"), ("第三条路", "改打分")), doors
                )
            ]
        )
        plus = VGroup(
            theme.title_text("x + p", color=theme.TEXT),
            VGroup(
                theme.small_text("进注意力之前，", color=theme.TEXT),
                theme.small_text("在 x 上记下座位", color=theme.TEXT),
            ).arrange(DOWN, buff=0.1),
        )
        plus[0][2].set_color(theme.POSITION)
        plus.arrange(DOWN, buff=0.3).move_to(doors[0].get_center() + 0.15 * DOWN)
        chain = self._chain(doors[1].get_center() + 0.05 * UP)
        chain_note = theme.small_text("循环网络：挨个算", color=theme.TEXT).next_to(chain, DOWN, buff=0.3)
        turn_qk = VGroup(
            theme.typst_text("RoPE：转 $q$、$k$", color=theme.TEXT, font_size=TYPST * theme.SIZE_BODY),
            VGroup(
                theme.small_text("q、k 算好、打分之前", color=theme.TEXT),
                theme.small_text("才动手，x 原样不动", color=theme.TEXT),
            ).arrange(DOWN, buff=0.1),
        )
        turn_qk.arrange(DOWN, buff=0.3).move_to(doors[2].get_center() + 0.15 * DOWN)
        dropped = theme.small_text("主流 Transformer 不走", color=theme.TEXT).move_to(doors[1].get_bottom() + 0.42 * UP)
        # M5 (review 12): labelled by content: lesson 2 covered road 1 (x + p, the clock row) and RoPE at its end
        before = theme.small_text("第一课、第二课末尾", color=theme.TEXT).move_to(doors[2].get_bottom() + 0.42 * UP)
        taken = theme.small_text("第二课讲过，本课细看", color=theme.HIGHLIGHT).move_to(
            doors[0].get_bottom() + 0.42 * UP
        )
        self.probe(
            "doors",
            names=[[m.text for m in n] for n in names],
            taken=taken.text,
            third=[turn_qk[0].typst_code, *[m.text for m in turn_qk[1]]],
            before=before.text,
        )
        with self.cue("two_doors") as cue:
            # the voice takes the ways in screen order (P3, review 7): road 1 (x + p), then road 2 (the chain)
            self.swap(VGroup(tag, cond, arrow, then), Create(doors[:2]), FadeIn(names[:2]), run_time=cue.share(0.12))
            self.play(FadeIn(plus), run_time=cue.share(0.15))
            self.hold_frames(max(0, cue.start_frame + int(0.5 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(chain, lag_ratio=0.2), FadeIn(chain_note), run_time=cue.share(0.2))
            # the second way is set aside, not hidden: its words stay readable (muted grey, not faded)
            self.play(
                VGroup(names[1], chain_note).animate.set_color(theme.MUTED),
                chain[2].animate.set_opacity(0.6),
                doors[1].animate.set_stroke(opacity=0.6),
                FadeIn(dropped),
                run_time=cue.remaining(),
            )
        with self.cue("third_door") as cue:
            self.play(Create(doors[2]), FadeIn(names[2]), run_time=cue.share(0.2))
            self.play(FadeIn(turn_qk), FadeIn(before), run_time=cue.share(0.3))
            self.hold_frames(max(0, cue.start_frame + int(0.55 * cue.plan.speech_frames) - self.frame))
            self.play(doors[0].animate.set_stroke(theme.HIGHLIGHT, width=5), FadeIn(taken), run_time=cue.remaining())

        # -- need: a signal that turns but never stretches ------------------------------------------
        turn = TurningArrow((1.0, 0.0), scale=1.9, center=np.array([-2.6, 0.3, 0.0]), color=theme.TEXT)
        track = DashedVMobject(Circle(radius=1.9, color=theme.MUTED, stroke_width=2), num_dashes=48).move_to(
            turn.center_point
        )
        start_ghost = turn.arrow.copy().set_opacity(theme.GHOST_OPACITY)
        self.watch("turn", lambda: {**turn.probe_values(), "on_screen": self.on_screen(turn)})
        length = LabeledNumber("长度 =", 1.0, decimals=2, color=theme.TEXT)
        length.move_to(np.array([2.7, -1.3, 0.0]))
        length.add_updater(lambda m: m.set_value(norm(turn.vector())))
        # K6 (review 11): opened from lesson 2's requirement 2 (bounded numbers); lesson 2 showed the raw index
        want = VGroup(
            theme.body_text("第二课第二条：数要有界", color=theme.TEXT),
            theme.title_text("旋转天生满足", color=theme.HIGHLIGHT),
        ).arrange(DOWN, buff=0.4)
        want.move_to(np.array([2.7, 0.2, 0.0]))
        with self.cue("need") as cue:
            self.swap(
                VGroup(doors, names, plus, chain, chain_note, dropped, taken, turn_qk, before),
                FadeIn(track),
                FadeIn(turn),
                FadeIn(length),
                FadeIn(want[0]),
                run_time=cue.share(0.2),
            )
            self.add(start_ghost, turn)
            self.play(turn.make_turn_animation(2 * np.pi / 3), run_time=cue.share(0.45))
            self.play(FadeIn(want[1], shift=0.15 * UP), run_time=cue.remaining())
            self.probe("length", shown=length.shown_text(), value=norm(turn.vector()))

    def _chain(self, center: np.ndarray) -> VGroup:
        """h → h → h: a recurrence that reads the words one after another."""
        boxes = VGroup(*[Square(side_length=0.7, color=theme.TEXT, stroke_width=3) for _ in range(3)])
        boxes.arrange(RIGHT, buff=0.7).move_to(center)
        labels = VGroup(*[theme.small_text(w, color=theme.TEXT).move_to(b) for w, b in zip(self.WORDS, boxes)])
        arrows = VGroup(
            *[
                Arrow(
                    boxes[i].get_right(),
                    boxes[i + 1].get_left(),
                    buff=0.08,
                    color=theme.MUTED,
                    stroke_width=4,
                    max_tip_length_to_length_ratio=0.3,
                )
                for i in range(2)
            ]
        )
        return VGroup(boxes, labels, arrows)
