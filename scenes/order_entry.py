"""词序从哪里进来: a one-sentence recall of lesson 1 (with its condition) and of lesson 2's raw index; the two
direct ways in plus RoPE's third (change the score itself); we need a signal that turns without growing.

Lesson 1 derives order-blindness (attention_blind) and lesson 2 shows the raw index failing (failing_encodings):
this scene recalls each in a sentence and a small picture, and re-derives neither. The raw index's bars come
from :func:`mathcore.raw_index_encoding`, the turning arrow's tip from :func:`mathcore.rotate` (via
:class:`TurningArrow`).
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Circle,
    Create,
    DashedVMobject,
    FadeIn,
    FadeOut,
    RoundedRectangle,
    Square,
    VGroup,
)

import mathcore
from mathcore.toy_words import norm, word_vectors
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import TurningArrow
from scenes.mobjects.readout import LabeledNumber
from scenes.mobjects.swamp_bars import SwampBars, log_sweep_rate

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
CONDITION = ("每个词都能看到整句话", "又不加位置信息")  # lesson 1's condition, as the recall says it


class WhereOrderEnters(NarratedScene):
    """recall (lesson 1 in a sentence, with its condition) → two_doors (road 1: change the input; road 2: change the
    order of computing, not taken) → third_door (road 3: change the score, RoPE; this lesson takes road 1) → raw_index (lesson 2's raw index in a sentence: the bars sweep to
    100000) → need (the arrow turns, its length stays 1: a rotation)."""

    SCENE_IDS = ("order_entry",)
    CUES = ("recall", "two_doors", "third_door", "raw_index", "need")
    WORDS = ("猫", "追", "狗")  # the recurrent chain's boxes (lesson 1's sentence)
    D = figures.RAW_INDEX_D
    BIG = 100000
    CAT = figures.RAW_INDEX_WORD

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
                for (a, b), door in zip((("路一", "改输入"), ("路二", "改计算次序"), ("路三", "改打分")), doors)
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
        before = theme.small_text("前两课走这条", color=theme.TEXT).move_to(doors[2].get_bottom() + 0.42 * UP)
        taken = theme.small_text("这一课走这条", color=theme.HIGHLIGHT).move_to(doors[0].get_bottom() + 0.42 * UP)
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

        # -- raw_index: add the index 0, 1, 2 …; no upper bound ----------------------------------
        x_cat = word_vectors([self.CAT], self.D)[0]
        raw = lambda p: mathcore.raw_index_encoding([p], self.D)[0]  # noqa: E731
        bars = SwampBars(x_cat, raw, seat=0, height=3.4, below=0.7, center=np.array([2.6, -1.45, 0.0]))
        self.watch("bars", lambda: {**bars.probe_values(), "on_screen": self.on_screen(bars)})
        seat = LabeledNumber(
            "座位号 p =", 0, decimals=0, color=theme.POSITION, label_color=theme.POSITION, group_with_commas=False
        )
        seat.move_to(np.array([-3.6, 1.2, 0.0]))
        seat.add_updater(lambda m: m.set_value(round(bars.p)))
        idea = theme.body_text("第二课试过：座位号是几，就加几", color=theme.TEXT).move_to(np.array([-2.6, 2.5, 0.0]))
        legend = VGroup(
            theme.small_text("绿色：座位号部分", color=theme.POSITION),
            theme.small_text("白色：词义部分", color=theme.TEXT),
        )
        legend.arrange(DOWN, aligned_edge=LEFT, buff=0.15).move_to(np.array([-3.6, 0.2, 0.0]))
        burst = VGroup(
            theme.body_text("没有上限：绿色一路升上去", color=theme.HIGHLIGHT),
            theme.small_text("白色的词义，越往后越不起眼", color=theme.TEXT),
        )
        burst.arrange(DOWN, buff=0.2).move_to(np.array([-3.4, -1.3, 0.0]))
        with self.cue("raw_index") as cue:
            self.play(
                FadeOut(VGroup(doors, names, plus, chain, chain_note, dropped, taken, turn_qk, before)),
                FadeIn(idea),
                run_time=cue.share(0.15),
            )
            self.play(FadeIn(bars), FadeIn(seat), FadeIn(legend), run_time=cue.share(0.12))
            for p in (1, 2):
                self.play(bars.seat.animate.set_value(p), run_time=cue.share(0.08))
            self.play(
                bars.seat.animate.set_value(self.BIG), run_time=cue.share(0.35), rate_func=log_sweep_rate(2, self.BIG)
            )
            # the unit bar has shrunk to a point at this scale: its lone "1" would only confuse
            self.play(
                FadeIn(burst, scale=1.2),
                bars.scale_label.animate.set_opacity(0),
                bars.scale_bar.animate.set_stroke(opacity=0),
                run_time=cue.remaining(),
            )
            self.probe("seat_big", p=bars.p, shown=seat.shown_text())

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
        want = VGroup(
            theme.body_text("方向在变，长度不变", color=theme.TEXT),
            theme.title_text("这就是旋转", color=theme.HIGHLIGHT),
        ).arrange(DOWN, buff=0.4)
        want.move_to(np.array([2.7, 0.2, 0.0]))
        with self.cue("need") as cue:
            seat.clear_updaters()
            self.swap(
                VGroup(bars, seat, idea, burst, legend),
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
