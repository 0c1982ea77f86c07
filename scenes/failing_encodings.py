"""两个行不通的写法: the raw seat number (too big) and seat ÷ length (unsteady), each checked against the three
requirements; and, in one line, the seat ÷ a fixed large number (bounded only up to it, its step too small).

The word vectors come from :func:`mathcore.toy_words.word_vectors`, the codes from
:func:`mathcore.raw_index_encoding` and :func:`mathcore.length_normalised_encoding`,
and the numbers the narration quotes (0.5, 0.25, one step 0.25 / 0.125) from
``narration/figures.py`` so screen and voice agree.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Brace,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    Indicate,
    Line,
    ReplacementTransform,
    VGroup,
)

import mathcore
from mathcore.toy_words import distance, dot, word_vectors
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects.marks import MarkedLine
from scenes.mobjects.readout import LabeledNumber
from scenes.mobjects.swamp_bars import SwampBars, log_sweep_rate


def vec_text(values, places: int = 2) -> str:
    """``(−0.18, −0.86, 0.76, 0.17)`` (whole numbers without decimals), written like the lesson's other vectors."""
    return "(" + ", ".join(figures.fmt_dec(v, places) for v in values) + ")"


class FailingEncodings(NarratedScene):
    """raw (x + p) → raw_big (seat 3 → 5000, the word drowns) → raw_dot (dot products) → raw_drift (distances, the verdict) →
    norm (p / length on 0..1) → norm_shift (seat 2: 0.5 vs 0.25) → norm_step (0.25 vs 0.125) → takeaway."""

    SCENE_IDS = ("failing_encodings",)
    CUES = ("raw", "raw_big", "raw_dot", "raw_drift", "norm", "norm_shift", "norm_step", "takeaway")
    D = figures.RAW_INDEX_D
    WORD, OTHER = figures.RAW_INDEX_WORD, figures.RAW_INDEX_OTHER
    NEAR, FAR = figures.RAW_INDEX_SEATS  # the seats raw_cat's narration quotes ({raw_cat_drift} …)
    LINE_X = (-5.0, 5.0)  # where 0 and 1 sit on the number lines

    def construct(self) -> None:
        x_cat, x_dog = word_vectors([self.WORD, self.OTHER], self.D)
        raw = lambda p: mathcore.raw_index_encoding([p], self.D)[0]  # noqa: E731
        header = self.header()

        # -- raw: x + p, p = the seat number in every dimension ------------------------------
        title1 = theme.body_text("想法一：座位号是几，每一维就加几", color=theme.TEXT).move_to(
            np.array([0.0, 2.95, 0.0])
        )
        rows = VGroup(
            theme.body_text(f"x = {vec_text(x_cat)}", color=theme.TEXT),
            theme.body_text(f"p = {vec_text(raw(self.NEAR))}", color=theme.POSITION),
        )
        rows.arrange(DOWN, aligned_edge=LEFT, buff=0.35).move_to(np.array([-3.1, 1.3, 0.0]))
        word_label = theme.small_text(f"“{self.WORD}” 在 {self.NEAR} 号座位", color=theme.MUTED).next_to(
            rows, DOWN, buff=0.35
        )
        word_label.align_to(rows, LEFT)
        bars = SwampBars(x_cat, raw, seat=self.NEAR, height=3.5, below=0.5, center=np.array([3.7, -1.85, 0.0]))
        self.watch("bars", lambda: {**bars.probe_values(), "on_screen": self.on_screen(bars)})
        with self.cue("raw") as cue:
            self.play(FadeIn(header), FadeIn(title1), run_time=cue.share(0.3))
            self.play(FadeIn(rows[0]), FadeIn(rows[1]), FadeIn(word_label), run_time=cue.share(0.35))
            self.play(FadeIn(bars), run_time=cue.remaining())
            self.probe("raw_rows", shown=[rows[0].text, rows[1].text], x=x_cat.tolist(), p=raw(self.NEAR).tolist())

        # -- raw_big: the seat grows without bound; the word part drowns -----------------------
        seat = LabeledNumber(
            "座位号 =", self.NEAR, decimals=0, color=theme.POSITION, label_color=theme.POSITION, group_with_commas=False
        )
        seat.move_to(np.array([3.7, 2.2, 0.0]))
        seat.add_updater(lambda m: m.set_value(round(bars.p)))
        small = theme.small_text("x 的四个数：大小都不到 1", color=theme.TEXT).next_to(word_label, DOWN, buff=0.3)
        small.align_to(rows, LEFT)
        p_far = theme.body_text(f"p = {vec_text(raw(self.FAR))}", color=theme.POSITION).move_to(
            rows[1], aligned_edge=LEFT
        )
        with self.cue("raw_big") as cue:
            self.play(FadeIn(seat), FadeIn(small), run_time=cue.share(0.2))
            grow = bars.seat.animate.set_value(self.FAR)
            self.play(grow, run_time=cue.share(0.55), rate_func=log_sweep_rate(self.NEAR, self.FAR))
            label_far = theme.small_text(f"“{self.WORD}” 在 {self.FAR} 号座位", color=theme.MUTED).move_to(
                word_label, aligned_edge=LEFT
            )
            self.play(
                ReplacementTransform(rows[1], p_far),
                ReplacementTransform(word_label, label_far),
                run_time=cue.remaining(),
            )
            rows.submobjects[1] = p_far
            word_label = label_far
            self.probe("seat_far", p=bars.p, shown=seat.shown_text(), small=small.text, x=x_cat.tolist())

        # -- raw_cat: dot products are all position; the same word at two seats drifts apart ----
        far_x = x_cat + raw(self.FAR)
        dot_far = dot(far_x, x_dog + raw(self.FAR))
        dots = VGroup(
            theme.body_text(
                f"只看词义：{self.WORD} · {self.OTHER} = {figures.fmt_dec(dot(x_cat, x_dog))}", color=theme.SCORE
            ),
            theme.body_text(
                f"都坐 {self.FAR} 号座位：点积 ≈ {figures.fmt_dec(dot_far / 1e8, 1)} 亿", color=theme.SCORE
            ),
        )
        dists = VGroup(
            theme.body_text(
                f"{self.NEAR} 号座位的{self.WORD} ↔ {self.FAR} 号座位的{self.WORD}：相距 "
                f"{figures.fmt_dec(distance(x_cat + raw(self.NEAR), far_x))}",
                color=theme.HIGHLIGHT,
            ),
            theme.body_text(
                f"{self.WORD} 到 {self.OTHER}（同一个座位）：相距 {figures.fmt_dec(distance(x_cat, x_dog))}",
                color=theme.TEXT,
            ),
        )
        block = VGroup(dots, dists)
        for g in (dots, dists):
            g.arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        block.arrange(DOWN, aligned_edge=LEFT, buff=0.6).move_to(np.array([0.0, 0.55, 0.0]))
        rule2 = MarkedLine("cross", theme.body_text("违反第二条：数值要小", color=theme.HIGHLIGHT))
        pass2 = MarkedLine("tick", theme.body_text("满足第一、三条", color=theme.TEXT))
        VGroup(pass2, rule2).arrange(RIGHT, buff=0.9).move_to(np.array([0.0, -2.05, 0.0]))
        with self.cue("raw_dot") as cue:
            seat.clear_updaters()
            self.play(
                FadeOut(bars),
                FadeOut(seat),
                FadeOut(rows),
                FadeOut(word_label),
                FadeOut(small),
                run_time=cue.share(0.2),
            )
            self.play(FadeIn(dots[0]), run_time=cue.share(0.3))
            self.play(FadeIn(dots[1], shift=0.15 * DOWN), run_time=cue.share(0.3))
        with self.cue("raw_drift") as cue:
            self.play(FadeIn(dists[0]), run_time=cue.share(0.3))
            self.play(FadeIn(dists[1]), run_time=cue.share(0.3))
            self.play(FadeIn(pass2), FadeIn(rule2, scale=1.1), run_time=cue.remaining())
            self.probe("verdict", **rule2.probe_values())
            self.probe("passes", **pass2.probe_values())
            self.probe(
                "raw_cat",
                shown=[m.text for m in (*dots, *dists)],
                dot_word=dot(x_cat, x_dog),
                dot_far=dot_far,
                dist_same_word=distance(x_cat + raw(self.NEAR), far_x),
                dist_words=distance(x_cat, x_dog),
            )

        # -- norm: seat ÷ length, everything inside [0, 1) --------------------------------------
        short_n, long_n = figures.NORM_LENGTHS
        seat2 = figures.NORM_SEAT
        title2 = theme.body_text("想法二：座位号 ÷ 句子长度", color=theme.TEXT).move_to(np.array([0.0, 2.95, 0.0]))
        short = self._number_line(short_n, y=1.0, name=f"{short_n} 个词的句子")
        long = self._number_line(long_n, y=-1.0, name=f"{long_n} 个词的句子")
        inside = theme.small_text("所有的数都落在 0 和 1 之间", color=theme.TEXT).move_to(np.array([0.0, 2.35, 0.0]))
        with self.cue("norm") as cue:
            self.play(FadeOut(block), FadeOut(pass2), FadeOut(rule2), FadeOut(title1), run_time=cue.share(0.15))
            self.play(
                FadeIn(title2), Create(short.axis), FadeIn(short.ends), FadeIn(short.name), run_time=cue.share(0.3)
            )
            self.play(FadeIn(short.dots, lag_ratio=0.3), FadeIn(short.seats, lag_ratio=0.3), run_time=cue.share(0.3))
            self.play(FadeIn(inside), run_time=cue.remaining())

        # -- norm_shift: seat 2 reads 0.5 in the short sentence, 0.25 in the long one ------------
        code_s = theme.body_text(figures.value("norm_code_short"), color=theme.HIGHLIGHT).next_to(
            short.dots[seat2], DOWN, buff=0.2
        )
        code_l = theme.body_text(figures.value("norm_code_long"), color=theme.HIGHLIGHT).next_to(
            long.dots[seat2], DOWN, buff=0.2
        )
        with self.cue("norm_shift") as cue:
            self.play(
                Create(long.axis),
                FadeIn(long.ends),
                FadeIn(long.name),
                FadeIn(long.dots, lag_ratio=0.15),
                FadeIn(long.seats, lag_ratio=0.15),
                run_time=cue.share(0.3),
            )
            self.play(
                Indicate(short.dots[seat2], color=theme.HIGHLIGHT, scale_factor=1.8),
                Indicate(short.seats[seat2], color=theme.HIGHLIGHT),
                FadeIn(code_s),
                run_time=cue.share(0.25),
            )
            self.play(
                Indicate(long.dots[seat2], color=theme.HIGHLIGHT, scale_factor=1.8),
                Indicate(long.seats[seat2], color=theme.HIGHLIGHT),
                FadeIn(code_l),
                run_time=cue.remaining(),
            )
            self.probe(
                "norm_codes",
                shown=[code_s.text, code_l.text],
                short_dots=self._dot_codes(short),
                long_dots=self._dot_codes(long),
                want_short=mathcore.length_normalised_encoding(np.arange(short_n), short_n, 1)[:, 0].tolist(),
                want_long=mathcore.length_normalised_encoding(np.arange(long_n), long_n, 1)[:, 0].tolist(),
            )

        # -- norm_step: one seat to the right is 0.25 here, 0.125 there ---------------------------
        b_s = Brace(
            Line(short.dots[seat2].get_center(), short.dots[seat2 + 1].get_center()),
            DOWN,
            buff=0.15,
            color=theme.POSITION,
        )
        b_l = Brace(
            Line(long.dots[seat2].get_center(), long.dots[seat2 + 1].get_center()),
            DOWN,
            buff=0.15,
            color=theme.POSITION,
        )
        step_s = theme.small_text(f"一步 {figures.value('norm_step_short')}", color=theme.POSITION).next_to(
            b_s, DOWN, buff=0.08
        )
        step_l = theme.small_text(f"一步 {figures.value('norm_step_long')}", color=theme.POSITION).next_to(
            b_l, DOWN, buff=0.08
        )
        rule3 = MarkedLine("cross", theme.body_text("违反第三条：一步随句长而变", color=theme.HIGHLIGHT))
        pass3 = MarkedLine("tick", theme.body_text("同一句内满足第一、二条", color=theme.TEXT))
        VGroup(pass3, rule3).arrange(RIGHT, buff=0.5).move_to(np.array([0.0, -2.25, 0.0]))
        with self.cue("norm_step") as cue:
            self.play(FadeOut(inside), FadeOut(code_s), FadeOut(code_l), run_time=cue.share(0.1))
            self.play(FadeIn(b_s), FadeIn(step_s), run_time=cue.share(0.25))
            self.play(FadeIn(b_l), FadeIn(step_l), run_time=cue.share(0.25))
            self.play(FadeIn(pass3), FadeIn(rule3, scale=1.1), run_time=cue.remaining())
            self.probe("verdict", **rule3.probe_values())
            self.probe("passes", **pass3.probe_values())
            self.probe(
                "norm_steps",
                shown=[step_s.text, step_l.text],
                drawn=[
                    (short.dots[seat2 + 1].get_x() - short.dots[seat2].get_x()) / self._unit(),
                    (long.dots[seat2 + 1].get_x() - long.dots[seat2].get_x()) / self._unit(),
                ],
            )

        # -- takeaway: one too big, one unsteady; a fixed large divisor: small only up to it, its step tiny ------
        n = figures.FIXED_DIVISOR
        fixed_step = float(np.diff(mathcore.length_normalised_encoding([0, 1], n, 1)[:, 0])[0])
        verdicts = VGroup(
            theme.body_text("座位号直接加：太大，没有上限", color=theme.TEXT),
            theme.body_text("除以句子长度：不稳，一步会变", color=theme.TEXT),
            theme.body_text(f"除以固定的 {figures.fmt_int(n)}：", color=theme.TEXT),
        )
        verdicts.arrange(DOWN, aligned_edge=LEFT, buff=0.4).move_to(np.array([0.0, 1.75, 0.0]))
        fixed = VGroup(
            theme.small_text(f"座位过了 {figures.fmt_int(n)}，数就超过 1", color=theme.TEXT),
            theme.small_text(f"一步只有 {figures.fmt_dec(fixed_step, 4)}：邻座几乎分不清", color=theme.TEXT),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        fixed.next_to(verdicts[2], DOWN, buff=0.2).align_to(verdicts, LEFT).shift(0.5 * RIGHT)
        want = theme.title_text("要的是：有界，每一步都是同一种变化", color=theme.HIGHLIGHT).move_to(
            np.array([0.0, -1.3, 0.0])
        )
        with self.cue("takeaway") as cue:
            self.play(*[FadeOut(m) for m in list(self.mobjects) if m is not header], run_time=cue.share(0.1))
            self.play(FadeIn(verdicts[:2], lag_ratio=0.5), run_time=cue.share(0.15))
            self.hold_to(max(self.frame, cue.start_frame + int(0.12 * cue.plan.speech_frames)))
            self.play(FadeIn(verdicts[2]), FadeIn(fixed), run_time=cue.share(0.15))
            self.hold_to(max(self.frame, cue.start_frame + int(0.62 * cue.plan.speech_frames)))
            self.play(FadeIn(want, shift=0.2 * UP), run_time=min(cue.share(0.12), cue.remaining()))
            cue.hold()
            self.probe("fixed", divisor=n, step=fixed_step, shown=[verdicts[2].text, *(t.text for t in fixed)])

    # -- helpers ------------------------------------------------------------------------------
    def _unit(self) -> float:
        return self.LINE_X[1] - self.LINE_X[0]

    def _number_line(self, length: int, *, y: float, name: str) -> VGroup:
        """A 0..1 line with one dot per seat at its code ``p / length`` and the seat numbers above."""
        codes = mathcore.length_normalised_encoding(np.arange(length), length, 1)[:, 0]
        x0, x1 = self.LINE_X
        g = VGroup()
        g.axis = Line(np.array([x0, y, 0.0]), np.array([x1, y, 0.0]), color=theme.MUTED, stroke_width=3)
        g.ends = VGroup(
            theme.small_text("0").next_to(g.axis.get_start(), LEFT, buff=0.15),
            theme.small_text("1").next_to(g.axis.get_end(), RIGHT, buff=0.15),
            Line(np.array([x1, y - 0.12, 0.0]), np.array([x1, y + 0.12, 0.0]), color=theme.MUTED),
        )
        g.dots = VGroup(
            *[Dot(np.array([x0 + c * (x1 - x0), y, 0.0]), radius=0.09, color=theme.POSITION) for c in codes]
        )
        g.seats = VGroup(
            *[theme.small_text(str(p), color=theme.POSITION).next_to(d, UP, buff=0.12) for p, d in enumerate(g.dots)]
        )
        g.name = theme.small_text(name, color=theme.TEXT).move_to(np.array([x0 + 1.0, y + 0.75, 0.0]))
        g.name.align_to(g.axis, LEFT)
        g.add(g.axis, g.ends, g.dots, g.seats, g.name)
        return g

    def _dot_codes(self, line: VGroup) -> list[float]:
        """Each seat's code read back from where its dot is drawn."""
        return [(d.get_x() - self.LINE_X[0]) / self._unit() for d in line.dots]
