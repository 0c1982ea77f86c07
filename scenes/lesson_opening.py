"""A lesson's opening: the title, the question, the plan of the lesson.

Two lessons open with it. ``trig_to_rope`` starts from sin 30° and a turning
pointer; ``rotation_matrix`` recaps the measured defect (shuffle the words and
attention does not react, to ``checks.t1_permutation()``) and puts a watch on
every word.
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
    FadeIn,
    FadeOut,
    ReplacementTransform,
    VGroup,
)

import mathcore
from mathcore import checks
from mathcore.shuffle import t1_inputs
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import TurningArrow
from scenes.mobjects.sci_figure import sci_line
from scenes.mobjects.shuffle_demo import ShuffleDemo
from scenes.mobjects.word_chips import WordChips

_SUPERSCRIPT_BACK = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


class LessonOpening(NarratedScene):
    """title → question → plan, with per-lesson pictures chosen by ``PARAMS[plan.id]["kind"]``."""

    SCENE_IDS = ("trig_opening",)
    CUES = ("title", "question", "plan")
    PARAMS = {
        "trig_opening": {
            "kind": "trig",
            "title": "从三角函数到 RoPE",
            "question": ("很多大模型靠 sin 和 cos", "分清哪个词在前、哪个在后", "这是怎么做到的？"),
            "plan_note": "不推定理，只盯着一根会转的指针",
            # one row per stage of the lesson, so that every content scene has its row (rope_turns and
            # rope_invariance share the fourth, minimal_rope and rope_visualisation the sixth)
            "roadmap": (
                "单位圆上的指针",
                "旋转矩阵：角度相加",
                "注意力看不见顺序",
                "RoPE：按位置转，只看距离",
                "一排快慢不同的钟",
                "动手算一遍，再画出来",
                "一张表串起全课",
            ),
        },
        "rot_opening": {
            "kind": "rot",
            "title": "旋转矩阵：给每个词戴一块表",
            "question": ("知道：有哪些词", "不知道：谁排在谁前面"),
            "plan_note": "表针指着座位",
            "roadmap": ("工具：每个词戴一块表", "规矩：结论都让机器验证"),
        },
    }
    SPIN = 2 * np.pi / 5.0  # the plan's pointer: one turn every 5 seconds
    SENTENCE = ("小明", "把", "书", "借给", "小红")
    T1_WORDS = ("小明", "把", "书", "借", "给", "小红")  # one word per row of the t1 experiment

    def construct(self) -> None:
        params = self.PARAMS.get(self.plan.id)
        if params is None:
            raise KeyError(f"LessonOpening has no parameters for scene {self.plan.id!r} (known: {sorted(self.PARAMS)})")
        self.params = params
        getattr(self, f"_{params['kind']}")()

    # -- shared beats ------------------------------------------------------------------
    def _title_to_header(self, title, cue) -> None:
        header = self.header()
        self.play(ReplacementTransform(title, header), run_time=cue.share(0.2))

    def _roadmap(
        self,
        items,
        *,
        left_x: float,
        top_y: float,
        arrows: bool,
        font_size: float = theme.SIZE_BODY,
        buff: float | None = None,
    ) -> VGroup:
        rows = VGroup(*[theme.body_text(t, color=theme.TEXT, font_size=font_size) for t in items])
        rows.arrange(DOWN, aligned_edge=LEFT, buff=buff if buff is not None else (0.55 if arrows else 0.4))
        rows.move_to(np.array([left_x, top_y, 0.0]), aligned_edge=LEFT + UP)
        rows[-1].set_color(theme.HIGHLIGHT)
        x0 = rows.get_left()[0] + 0.3
        links = (
            VGroup(
                *[
                    Arrow(
                        np.array([x0, a.get_bottom()[1], 0.0]),
                        np.array([x0, b.get_top()[1], 0.0]),
                        buff=0.06,
                        color=theme.MUTED,
                        stroke_width=3,
                        max_tip_length_to_length_ratio=0.35,
                    )
                    for a, b in zip(rows[:-1], rows[1:])
                ]
            )
            if arrows
            else VGroup()
        )
        return VGroup(rows, links)

    def _play_roadmap(self, roadmap: VGroup, cue) -> None:
        """Reveal the items spread evenly over what is left of the speech."""
        rows, links = roadmap
        n = len(rows)
        for i, row in enumerate(rows):
            anims = [FadeIn(row, shift=0.2 * RIGHT)] + ([FadeIn(links[i - 1])] if i and len(links) else [])
            slot = max(1, (cue.frames_remaining() - 1) // (n - i))
            frames = min(slot, int(round(0.8 * self.fps)))
            self.play_frames(*anims, frames=frames)
            if i < n - 1:
                self.hold_frames(slot - frames)

    # -- trig_to_rope ------------------------------------------------------------------
    def _trig(self) -> None:
        p = self.params
        sin30 = float(mathcore.pointer_tip(np.radians(30.0))[1])
        shown = figures.value("sin30")
        self.probe("sin30", value=sin30, shown=shown)
        title = theme.title_text(p["title"]).move_to(np.array([0.0, 1.7, 0.0]))
        fact = theme.body_text(f"sin 30° = {shown}", color=theme.SIN).move_to(np.array([0.0, 0.5, 0.0]))
        tags = VGroup(*[theme.small_text(t, color=theme.MUTED) for t in ("查表", "解三角形")]).arrange(RIGHT, buff=0.8)
        tags.move_to(np.array([0.0, -0.45, 0.0]))
        what = theme.body_text("它们最有用的一面：旋转", color=theme.HIGHLIGHT).move_to(np.array([0.0, -1.5, 0.0]))
        with self.cue("title") as cue:
            self.play(FadeIn(title, shift=0.3 * UP), run_time=cue.share(0.2))
            self.play(FadeIn(fact), run_time=cue.share(0.2))
            self.hold_frames(max(0, cue.start_frame + int(0.55 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(tags, lag_ratio=0.3), run_time=cue.share(0.15))
            self.play(FadeIn(what, shift=0.2 * UP), run_time=cue.remaining())

        chips = WordChips(self.SENTENCE, center=np.array([0.0, 1.2, 0.0]), spacing=1.6)
        order = Arrow(
            chips.get_left() + 0.9 * DOWN, chips.get_right() + 0.9 * DOWN, buff=0, color=theme.POSITION, stroke_width=4
        )
        ends = VGroup(
            theme.small_text("前", color=theme.POSITION).next_to(order, LEFT, buff=0.15),
            theme.small_text("后", color=theme.POSITION).next_to(order, RIGHT, buff=0.15),
        )
        ask = VGroup(
            theme.body_text(f"{p['question'][0]}，{p['question'][1]}", color=theme.TEXT),
            theme.body_text(p["question"][2], color=theme.HIGHLIGHT),
        ).arrange(DOWN, buff=0.3)
        ask.move_to(np.array([0.0, -1.3, 0.0]))
        with self.cue("question") as cue:
            self.play(FadeOut(VGroup(fact, tags, what)), run_time=cue.share(0.15))
            self._title_to_header(title, cue)
            self.play(FadeIn(chips, lag_ratio=0.15), run_time=cue.share(0.2))
            self.play(Create(order), FadeIn(ends), FadeIn(ask[0]), run_time=cue.share(0.25))
            self.play(FadeIn(ask[1], shift=0.2 * UP), run_time=cue.remaining())

        center = np.array([-4.3, 0.0, 0.0])
        dial = VGroup(Circle(radius=1.5, color=theme.MUTED, stroke_width=2).move_to(center))
        hand = TurningArrow((1.0, 0.0), scale=1.5, center=center, color=theme.TEXT)
        self.watch("pointer", hand.probe_values)
        note = theme.body_text(p["plan_note"], color=theme.TEXT).move_to(np.array([0.0, 2.75, 0.0]))
        # the lesson's steps in order, numbered (seven rows: no room for arrows between them)
        steps = [f"{i + 1}  {t}" for i, t in enumerate(p["roadmap"])]
        road = self._roadmap(steps, left_x=-1.6, top_y=2.05, arrows=False, font_size=30, buff=0.24)
        self.probe("roadmap", shown=[r.text for r in road[0]])
        with self.cue("plan") as cue:
            self.play(FadeOut(VGroup(chips, order, ends, ask)), run_time=cue.share(0.12))
            self.play(Create(dial), FadeIn(hand), FadeIn(note), run_time=cue.share(0.15))
            spin = lambda m, dt: m.set_angle(m.phi.get_value() + self.SPIN * dt)  # noqa: E731
            hand.add_updater(spin)
            self._play_roadmap(road, cue)
            self.hold_frames(max(0, cue.frames_remaining()))
            hand.remove_updater(spin)

    # -- rotation_matrix ----------------------------------------------------------------
    def _rot(self) -> None:
        p = self.params
        x, perm = t1_inputs()
        demo = ShuffleDemo(self.T1_WORDS, x, center=np.array([-3.4, 1.2, 0.0]), spacing=1.05)
        self.watch("demo", demo.probe_values)
        title = theme.title_text(p["title"]).move_to(np.array([0.0, 2.85, 0.0]))
        recap = VGroup(
            theme.body_text("回顾一个缺陷", color=theme.MUTED),
            theme.body_text("打乱词序：输出只换了位置", color=theme.TEXT),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        recap.move_to(np.array([0.8, 1.0, 0.0]), aligned_edge=LEFT)
        out_label = theme.small_text("每个词的输出", color=theme.MUTED).next_to(demo.columns, DOWN, buff=0.15)
        with self.cue("title") as cue:
            self.play(FadeIn(title, shift=0.3 * UP), run_time=cue.share(0.2))
            self.play(FadeIn(demo.chips, lag_ratio=0.1), FadeIn(recap[0]), run_time=cue.share(0.2))
            self.play(FadeIn(demo.columns), FadeIn(out_label), run_time=cue.share(0.15))
            self.play(*demo.shuffle_animations(perm), run_time=cue.share(0.3))
            self.play(FadeIn(recap[1]), run_time=cue.remaining())

        err = checks.t1_permutation()
        shown = figures.value("t1_err")
        self.probe("t1", error=err, shown=shown, parsed=float(figures.parse_figure(shown)))
        again = demo.recomputed()
        measured = VGroup(
            theme.body_text("每个词的输出，前后最多差", color=theme.TEXT),
            sci_line("", shown, color=theme.HIGHLIGHT, text_size=theme.SIZE_TITLE),
            theme.small_text("计算机的舍入误差", color=theme.MUTED),
        )
        measured.arrange(DOWN, aligned_edge=LEFT, buff=0.25).move_to(np.array([0.8, 1.2, 0.0]), aligned_edge=LEFT)
        knows = VGroup(
            theme.body_text(p["question"][0], color=theme.TEXT),
            theme.body_text(p["question"][1], color=theme.HIGHLIGHT),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        knows.next_to(measured, DOWN, buff=0.5).align_to(measured, LEFT)
        with self.cue("question") as cue:
            self.play(FadeOut(recap), run_time=cue.share(0.1))
            self._title_to_header(title, cue)
            self.play(FadeIn(again), FadeIn(measured[0]), run_time=cue.share(0.15))
            self.remove(demo.columns)
            demo.columns = again  # the recomputed strips stand where the moved ones stood
            self.play(FadeIn(measured[1], scale=1.2), FadeIn(measured[2]), run_time=cue.share(0.2))
            self.hold_frames(max(0, cue.start_frame + int(0.6 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(knows[0]), run_time=cue.share(0.12))
            self.play(FadeIn(knows[1]), run_time=cue.remaining())

        theta = float(np.radians(figures.THETA_DEG))
        seats = demo.chips.seat_labels()
        watches = VGroup()
        hands = []
        for j, slot in enumerate(demo.chips.slots):
            c = slot + 0.85 * UP
            hand = TurningArrow((1.0, 0.0), scale=0.34, center=c, color=theme.ANGLE, stroke_width=4)
            hand.seat = j
            hands.append(hand)
            watches.add(VGroup(Circle(radius=0.38, color=theme.MUTED, stroke_width=2).move_to(c), hand))
        self.watch(
            "watches",
            lambda: {"seats": [h.seat for h in hands], "theta": theta, "hands": [h.probe_values() for h in hands]},
        )
        road = self._roadmap(p["roadmap"], left_x=0.6, top_y=0.6, arrows=False)
        with self.cue("plan") as cue:
            self.play(FadeOut(VGroup(measured, knows, demo.columns, out_label)), run_time=cue.share(0.12))
            # the sentence back in its own order before the watches are handed out
            back = [demo.order.index(j) for j in range(len(demo.order))]
            for j, src in enumerate(back):  # the (faded) output strips follow their words unseen
                demo.columns[src].shift(demo.chips.slots[j] - demo.chips.slots[src])
            demo.columns.submobjects = [demo.columns[src] for src in back]
            self.play(*demo.chips.shuffle_animations(back), run_time=cue.share(0.15))
            self.play(FadeIn(seats), FadeIn(watches), run_time=cue.share(0.15))
            self.play(*[h.make_turn_animation(h.seat * theta) for h in hands], run_time=cue.share(0.25))
            self._play_roadmap(road, cue)
