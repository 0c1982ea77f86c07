"""词序从哪里进来: attention ignores order; two direct ways in; the raw index swamps the word; we need a turn.

Scores and weights come from :mod:`mathcore.toy_words` (over mathcore's softmax),
the raw index from :func:`mathcore.raw_index_encoding`, the turning arrow's tip
from :func:`mathcore.rotate` (via :class:`TurningArrow`).
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
    GrowArrow,
    ReplacementTransform,
    RoundedRectangle,
    Square,
    VGroup,
)

import mathcore
from mathcore.toy_words import attention_scores, attention_weights, norm, word_vectors
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import HeatMap, TurningArrow
from scenes.mobjects.readout import LabeledNumber
from scenes.mobjects.swamp_bars import SwampBars, log_sweep_rate
from scenes.mobjects.token_row import TokenRow


def vec_text(values, places: int = 2) -> str:
    return "(" + ", ".join(figures.fmt_dec(v, places) for v in values) + ")"


class WhereOrderEnters(NarratedScene):
    """defect (a reminder of the first lesson: dot products, softmax, weighted sum) → example (狗咬人 and 人咬狗:
    one bag of words) → two_doors (data /
    structure; Transformers take the first) → raw_index (0, 1, 2 … 100000 swamps the vector) → raw_pollute
    (猫 at 5 and 50: length 10 → 100, the word part stays 1.2) → need (turn, never stretch)."""

    SCENE_IDS = ("order_entry",)
    CUES = ("defect", "example", "two_doors", "raw_index", "raw_pollute", "need")
    WORDS = ("狗", "咬", "人")
    D = figures.RAW_INDEX_D
    CELL = 0.9
    BIG = 100000
    CAT, SEATS = figures.RAW_INDEX_WORD, figures.RAW_INDEX_SEATS  # the narration quotes their lengths

    def construct(self) -> None:
        x = word_vectors(self.WORDS, self.D)
        header = self.header()

        # -- defect: pairwise dot products, then softmax row by row (a reminder of the first lesson) ----
        row = TokenRow(self.WORDS, center=np.array([0.0, 2.75, 0.0]))
        S = HeatMap(
            attention_scores(x),
            cell=self.CELL,
            center=np.array([-2.6, 0.2, 0.0]),
            row_labels=list(self.WORDS),
            col_labels=list(self.WORDS),
        )
        W = HeatMap(
            attention_weights(x),
            cell=self.CELL,
            vmin=0.0,
            vmax=1.0,
            center=np.array([-2.6, 0.2, 0.0]),
            row_labels=list(self.WORDS),
            col_labels=list(self.WORDS),
        )
        steps = VGroup(
            theme.body_text("① 两两算点积", color=theme.SCORE),
            theme.body_text("② softmax：每行和为 1", color=theme.SCORE),
            theme.body_text("③ 按权重加起 v", color=theme.TEXT),
        )
        steps.arrange(DOWN, aligned_edge=LEFT, buff=0.4).move_to(np.array([0.0, 0.95, 0.0])).align_to(
            np.array([0.9, 0, 0]), LEFT
        )
        sums = VGroup(
            *[theme.small_text("和 = 1", color=theme.TEXT).next_to(W.cell(i, 2), RIGHT, buff=0.25) for i in range(3)]
        )
        blind = theme.body_text("没有一步看次序（第一课）", color=theme.HIGHLIGHT).move_to(np.array([0.0, -0.75, 0.0]))
        blind.align_to(steps, LEFT)
        with self.cue("defect") as cue:
            self.play(FadeIn(header), FadeIn(row), run_time=cue.share(0.15))
            self.play(FadeIn(S), FadeIn(steps[0]), run_time=cue.share(0.25))
            self.probe("scores", values=S.values.tolist(), want=attention_scores(x).tolist())
            self.play(ReplacementTransform(S, W), FadeIn(steps[1]), FadeIn(sums), run_time=cue.share(0.25))
            self.probe(
                "weights",
                values=W.values.tolist(),
                row_sums=W.values.sum(axis=1).tolist(),
                drawn=[[W.cell(i, j).get_fill_color().to_hex() for j in range(3)] for i in range(3)],
            )
            self.play(FadeIn(steps[2]), run_time=cue.share(0.2))
            self.play(FadeIn(blind), run_time=cue.remaining())

        # -- example: 狗咬人 and 人咬狗 are one bag of words to it (two sentences, no "=") -----------------
        pair = VGroup(theme.title_text("狗咬人"), theme.title_text("人咬狗"))
        pair.arrange(RIGHT, buff=2.2).move_to(np.array([0.0, 0.9, 0.0]))
        same = theme.body_text("在它眼里：同一袋词，分不出谁咬谁", color=theme.HIGHLIGHT).move_to(
            np.array([0.0, -0.4, 0.0])
        )
        self.probe("example", pair=[m.text for m in pair], same=same.text)
        with self.cue("example") as cue:
            self.play(FadeOut(VGroup(row, W, steps, sums, blind)), run_time=cue.share(0.2))
            self.play(FadeIn(pair[0]), FadeIn(pair[1]), run_time=cue.share(0.3))
            self.play(FadeIn(same), run_time=cue.remaining())

        # -- two_doors: add position to the data, or queue the computation (dropped) --------------
        doors = VGroup(
            *[
                RoundedRectangle(width=5.9, height=4.2, corner_radius=0.2, color=theme.MUTED, stroke_width=3)
                for _ in range(2)
            ]
        )
        doors.arrange(RIGHT, buff=0.6).move_to(np.array([0.0, 0.25, 0.0]))
        names = VGroup(
            theme.body_text("路一：数据这边", color=theme.TEXT).move_to(doors[0].get_top() + 0.5 * DOWN),
            theme.body_text("路二：结构这边", color=theme.TEXT).move_to(doors[1].get_top() + 0.5 * DOWN),
        )
        plus = VGroup(
            theme.title_text("x + p", color=theme.TEXT), theme.small_text("给每个词的向量加上位置", color=theme.TEXT)
        )
        plus[0][2].set_color(theme.POSITION)
        plus.arrange(DOWN, buff=0.35).move_to(doors[0].get_center() + 0.2 * DOWN)
        chain = self._chain(doors[1].get_center() + 0.1 * UP)
        chain_note = theme.small_text("循环网络：按次序排队算", color=theme.TEXT).next_to(chain, DOWN, buff=0.35)
        dropped = theme.small_text("主流 Transformer 不走这条路", color=theme.TEXT).move_to(
            doors[1].get_bottom() + 0.45 * UP
        )
        taken = theme.small_text("这一课走这条", color=theme.HIGHLIGHT).move_to(doors[0].get_bottom() + 0.45 * UP)
        with self.cue("two_doors") as cue:
            self.play(FadeOut(pair), FadeOut(same), Create(doors), FadeIn(names), run_time=cue.share(0.15))
            self.play(FadeIn(plus), run_time=cue.share(0.25))
            self.play(FadeIn(chain, lag_ratio=0.2), FadeIn(chain_note), run_time=cue.share(0.3))
            # the second way is set aside, not hidden: its words stay readable (muted grey, not faded)
            self.play(
                VGroup(names[1], chain_note).animate.set_color(theme.MUTED),
                chain[2].animate.set_opacity(0.6),
                doors[1].animate.set_stroke(opacity=0.6),
                FadeIn(dropped),
                doors[0].animate.set_stroke(theme.HIGHLIGHT, width=5),
                FadeIn(taken),
                run_time=cue.remaining(),
            )

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
            theme.body_text("没有上限：向量被撑爆", color=theme.HIGHLIGHT),
            theme.small_text("词义部分已经小到看不见", color=theme.TEXT),
        )
        burst.arrange(DOWN, buff=0.2).move_to(np.array([-3.4, -1.3, 0.0]))
        with self.cue("raw_index") as cue:
            self.play(
                FadeOut(VGroup(doors, names, plus, chain, chain_note, dropped, taken)),
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

        # -- raw_pollute: the same 猫 at seat 5 and at seat 50 -------------------------------------
        word_len = theme.body_text(f"{self.CAT}的词义向量：长度 {figures.fmt_dec(norm(x_cat))}", color=theme.TEXT)
        word_len.move_to(np.array([0.0, 2.3, 0.0]))
        cards = VGroup()
        for p in self.SEATS:
            v = x_cat + raw(p)
            card = VGroup(
                theme.body_text(f"第 {p} 个位置的{self.CAT}", color=theme.TEXT),
                theme.small_text(vec_text(v), color=theme.POSITION),
                theme.body_text(f"长度 {figures.fmt_dec(norm(v))}", color=theme.HIGHLIGHT),
            )
            card.arrange(DOWN, buff=0.25)
            cards.add(card)
        cards.arrange(RIGHT, buff=1.6).move_to(np.array([0.0, 0.6, 0.0]))
        grows = Arrow(cards[0][2].get_right(), cards[1][2].get_left(), buff=0.25, color=theme.HIGHLIGHT, stroke_width=5)
        meant = theme.body_text("座位号越大，词义在向量里占的比重越小", color=theme.HIGHLIGHT).move_to(
            np.array([0.0, -1.2, 0.0])
        )
        with self.cue("raw_pollute") as cue:
            seat.clear_updaters()
            self.play(FadeOut(VGroup(bars, seat, idea, burst, legend)), run_time=cue.share(0.12))
            self.play(FadeIn(word_len), run_time=cue.share(0.15))
            self.play(FadeIn(cards[0]), run_time=cue.share(0.2))
            self.play(FadeIn(cards[1]), GrowArrow(grows), run_time=cue.share(0.25))
            self.play(FadeIn(meant), run_time=cue.remaining())
            self.probe(
                "pollute",
                seats=list(self.SEATS),
                shown=[[m.text for m in c] for c in cards],
                want=[(x_cat + raw(p)).tolist() for p in self.SEATS],
                norms=[norm(x_cat + raw(p)) for p in self.SEATS],
                word=word_len.text,
                word_norm=norm(x_cat),
                meant=meant.text,
            )

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
            theme.body_text("只转方向，不改大小", color=theme.TEXT),
            theme.title_text("这就是旋转", color=theme.HIGHLIGHT),
        ).arrange(DOWN, buff=0.4)
        want.move_to(np.array([2.7, 0.2, 0.0]))
        with self.cue("need") as cue:
            self.swap(
                VGroup(word_len, cards, grows, meant),
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
