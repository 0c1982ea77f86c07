"""条纹与衰减: PE(m)·PE(n) = Σ cos(w_i (n − m)), the Gram stripes, g(k), and an honest limit.

The 32% → 79% figures are the original experiment's (document 000 §5); no code here
computes them, and the picture says so.
"""
from __future__ import annotations

import numpy as np
from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Create, DashedLine, Dot, FadeIn, FadeOut, GrowFromEdge, Line, Rectangle, VGroup,
)

import mathcore
from coursekit import figures
from mathcore import checks
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import HeatMap, ScoreCurve

D = 32
N_POS = 48
HEAT_CENTER = np.array([-3.75, 0.05, 0.0])
CELL = 0.088
FADE_FRAMES = 8             # the heat map fades in and out this fast
CURVE_CENTER = np.array([3.0, 0.1, 0.0])
# doc 000 §5, the original experiment (not recomputed here): in-window, unseen positions, widened window
ORIGINAL_EXPERIMENT = (("训练窗口内", 100), ("没见过的位置", 32), ("扩大窗口以后", 79))


class GramStripes(NarratedScene):
    """dot → stripes (HeatMap of G, A5) → decay (g(k), g(0)) → half (k = half_point) → extrapolation →
    honest (the original experiment's 32% → 79%, attributed) → gap."""

    SCENE_IDS = ("gram_stripes",)
    CUES = ("dot", "stripes", "decay", "half", "extrapolation", "honest", "gap")
    K_MAX = 64

    def construct(self) -> None:
        header = self.header()

        # -- dot: the dot product depends only on n − m -------------------------------------------
        lhs = theme.formula("\"PE\"(m) dot \"PE\"(n)", font_size=44)
        rhs = theme.formula("= sum_i cos(w_i (n - m))", font_size=44)
        VGroup(lhs, rhs).arrange(RIGHT, buff=0.25).move_to(np.array([0.0, 1.3, 0.0]))
        only = theme.body_text("只跟距离 n − m 有关", color=theme.HIGHLIGHT).move_to(np.array([0.0, 0.1, 0.0]))
        with self.cue("dot") as cue:
            self.play(FadeIn(header), FadeIn(lhs), run_time=cue.share(0.25))
            self.play(FadeIn(rhs, shift=0.2 * RIGHT), run_time=cue.share(0.3))
            self.play(FadeIn(only), run_time=cue.remaining())

        # -- stripes: the Gram table, stripes parallel to the diagonal --------------------------------
        g = mathcore.gram(mathcore.sinusoidal_pe(np.arange(N_POS), D))
        table = HeatMap(g, cell=CELL, center=HEAT_CENTER)      # places and colours of the 2304 cells
        table.cells.set_stroke(width=0)
        heat = table.merged_cells()                              # drawn as one mobject per colour
        frame = Rectangle(width=N_POS * CELL, height=N_POS * CELL, color=theme.MUTED, stroke_width=2).move_to(HEAT_CENTER)
        axis_labels = VGroup(theme.small_text("n →", color=theme.TEXT).next_to(frame, UP, buff=0.08).align_to(frame, LEFT),
                             theme.small_text("m ↓", color=theme.TEXT).next_to(frame, LEFT, buff=0.1).align_to(frame, UP))
        self.probe("heat", values=table.values.tolist(), n=N_POS, d=D, vmin=table.vmin, vmax=table.vmax,
                   colors=[c.get_fill_color().to_hex() for c in table.cells],
                   drawn={m.get_fill_color().to_hex(): m.cell_count for m in heat}, drawn_area=sum(
                       m.cell_count for m in heat) * CELL ** 2, table_area=heat.width * heat.height)
        top_left = table.cell(0, 0).get_center()
        stripes = VGroup(*[DashedLine(top_left + np.array([k * CELL, 0, 0]),
                                      top_left + np.array([(N_POS - 1) * CELL, -(N_POS - 1 - k) * CELL, 0]),
                                      color=theme.TEXT, stroke_width=2, dash_length=0.08) for k in (0, 12, 24)])
        small_formula = theme.formula("G = \"PE\" \"PE\"^T", font_size=40).move_to(np.array([CURVE_CENTER[0], 2.35, 0.0]))
        a5 = VGroup(theme.small_text("等值线：和对角线平行的条纹", color=theme.TEXT),
                    theme.body_text(f"小规模实测偏差 {figures.fmt_sci(checks.a5_gram_stripes())}", color=theme.HIGHLIGHT,
                                    font_size=theme.SIZE_SMALL + 4))
        a5.arrange(DOWN, buff=0.3).move_to(np.array([CURVE_CENTER[0], 0.6, 0.0]))
        self.probe("a5", shown=a5[1].text, error=checks.a5_gram_stripes())
        with self.cue("stripes") as cue:
            # 2304 cells: a short fade (each faded frame redraws all of them), then the rest of the share still
            fade = min(FADE_FRAMES, max(1, int(0.3 * cue.plan.speech_frames)))
            self.play_frames(FadeOut(lhs), FadeOut(rhs), FadeOut(only), FadeIn(heat), FadeIn(frame), FadeIn(axis_labels),
                             FadeIn(small_formula), frames=fade)
            self.bring_to_back(heat)
            self.play(Create(stripes), FadeIn(a5[0]), run_time=cue.share(0.35))
            self.play(FadeIn(a5[1]), run_time=cue.remaining())
        self.settle(a5)

        # -- decay: g(k) along a row, g(0) = d/2 -----------------------------------------------------
        ks = np.arange(self.K_MAX + 1)
        prof = mathcore.relative_profile(ks, D)
        curve = ScoreCurve(ks, [prof], names=["g(k)"], x_range=(0, self.K_MAX, 16), y_range=(0, 16, 4),
                           x_length=5.2, y_length=3.0, center=CURVE_CENTER, x_label="距离 k", y_label="内积 g(k)",
                           colors=[theme.SCORE])
        curve.y_label.next_to(curve.y_ticks[-1], UP, buff=0.2)
        along = Arrow(table.cell(0, 0).get_center(), table.cell(0, N_POS - 1).get_center(), buff=0, color=theme.HIGHLIGHT,
                      stroke_width=5, max_tip_length_to_length_ratio=0.06)
        g0 = float(prof[0])
        dot0 = Dot(curve.axes.c2p(0, g0), radius=0.08, color=theme.HIGHLIGHT)
        g0_label = theme.small_text(f"g(0) = {figures.fmt_dec(g0)}", color=theme.HIGHLIGHT).next_to(dot0, RIGHT, buff=0.25)
        with self.cue("decay") as cue:
            self.play(FadeOut(a5), FadeOut(stripes), FadeOut(small_formula), FadeIn(curve.axes), FadeIn(curve.ticks),
                      FadeIn(curve.x_label), FadeIn(curve.y_label), Create(along), run_time=cue.share(0.25))
            self.play(curve.make_draw_animation(0), run_time=cue.share(0.45))
            self.play(FadeIn(dot0), FadeIn(g0_label), run_time=cue.remaining())
        self.probe("curve", drawn=curve.drawn_samples(0).tolist(), g0_point=list(curve.axes.p2c(dot0.get_center())),
                   g0_shown=g0_label.text)

        # -- half: first time g(k) <= g(0)/2 ------------------------------------------------------------
        k_half = mathcore.half_point(D)
        g_half = float(mathcore.relative_profile(k_half, D))
        half_line = DashedLine(curve.axes.c2p(0, g0 / 2), curve.axes.c2p(self.K_MAX, g0 / 2), color=theme.MUTED, stroke_width=2)
        drop = DashedLine(curve.axes.c2p(k_half, 0), curve.axes.c2p(k_half, g_half), color=theme.ANGLE, stroke_width=3)
        dot_half = Dot(curve.axes.c2p(k_half, g_half), radius=0.08, color=theme.ANGLE)
        half_label = theme.small_text(f"k = {k_half}", color=theme.ANGLE).next_to(dot_half, DOWN + LEFT, buff=0.12)
        half_note = theme.small_text("一半", color=theme.MUTED).next_to(half_line, RIGHT, buff=0.1)
        fast_slow = theme.small_text("快针分辨邻近，慢针分辨远程", color=theme.TEXT).move_to(np.array([CURVE_CENTER[0], -2.2, 0.0]))
        with self.cue("half") as cue:
            self.play(Create(half_line), FadeIn(half_note), run_time=cue.share(0.2))
            self.play(Create(drop), FadeIn(dot_half), FadeIn(half_label), run_time=cue.share(0.3))
            self.play(FadeIn(fast_slow), run_time=cue.remaining())
        self.probe("half", k=k_half, point=list(curve.axes.p2c(dot_half.get_center())), shown=half_label.text,
                   half_of=g0 / 2)

        # -- extrapolation: exact in math, not necessarily used by a learner ------------------------------
        math_side = VGroup(theme.body_text("数学", color=theme.TEXT),
                           theme.small_text("旋转结构对任何位置都精确成立", color=theme.POSITION))
        learn_side = VGroup(theme.body_text("学习器", color=theme.TEXT),
                            theme.small_text("不一定真能用上它", color=theme.SCORE))
        for grp in (math_side, learn_side):
            grp.arrange(DOWN, buff=0.25)
        VGroup(math_side, learn_side).arrange(RIGHT, buff=1.6).move_to(np.array([0.0, 0.7, 0.0]))
        with self.cue("extrapolation") as cue:
            fade = min(FADE_FRAMES, max(1, int(0.2 * cue.plan.speech_frames)))
            self.play_frames(*[FadeOut(m) for m in (heat, frame, axis_labels, curve.axes, curve.ticks, curve.x_label,
                                                    curve.y_label, curve.curves[0], along, dot0, g0_label, half_line, drop,
                                                    dot_half, half_label, half_note, fast_slow)], frames=fade)
            self.play(FadeIn(math_side), run_time=cue.share(0.3))
            self.play(FadeIn(learn_side), run_time=cue.remaining())

        # -- honest: the original experiment's numbers, attributed ------------------------------------------
        base_y, top = -1.65, 1.5
        bars, labels = VGroup(), VGroup()
        for j, (name, pct) in enumerate(ORIGINAL_EXPERIMENT):
            x = -3.2 + 3.2 * j
            h = (top - base_y) * pct / 100
            bar = Rectangle(width=1.3, height=h, color=theme.POSITION if pct == 100 else theme.SCORE, fill_opacity=0.7,
                            stroke_width=2).move_to(np.array([x, base_y + h / 2, 0.0]))
            bars.add(bar)
            labels.add(VGroup(theme.body_text(f"{pct}%", color=theme.TEXT, font_size=theme.SIZE_SMALL + 4).next_to(bar, UP, buff=0.12),
                              theme.small_text(name, color=theme.TEXT).move_to(np.array([x, base_y - 0.32, 0.0]))))
        source = theme.small_text("原实验数据，这里没有重算", color=theme.MUTED).move_to(np.array([4.2, 2.55, 0.0]))
        self.probe("honest", shown=[lab[0].text for lab in labels], source=source.text)
        with self.cue("honest") as cue:
            self.play(FadeOut(math_side), FadeOut(learn_side), FadeIn(source), run_time=cue.share(0.1))
            for j in range(3):
                self.play(GrowFromEdge(bars[j], DOWN), FadeIn(labels[j]), run_time=cue.share(0.2))
            self.play(source.animate.set_color(theme.TEXT), run_time=min(cue.remaining(), cue.share(0.1)))
        bars_and_labels = VGroup(*bars, *labels)
        self.settle(bars_and_labels)

        # -- gap: math holds vs the model learns it ---------------------------------------------------------
        left = theme.body_text("数学上成立", color=theme.POSITION)
        right = theme.body_text("模型真的学会", color=theme.SCORE)
        VGroup(left, right).arrange(RIGHT, buff=3.2).move_to(np.array([0.0, 0.9, 0.0]))
        wall = Line(np.array([0.0, 1.7, 0.0]), np.array([0.0, 0.1, 0.0]), color=theme.ANGLE, stroke_width=8)
        why = theme.small_text("中间的坎：容量会不会诱使它死记硬背", color=theme.TEXT).move_to(np.array([0.0, -0.5, 0.0]))
        with self.cue("gap") as cue:
            self.play(FadeOut(bars_and_labels), FadeOut(source), FadeIn(left), FadeIn(right), run_time=cue.share(0.3))
            self.play(Create(wall), FadeIn(why), run_time=cue.share(0.35))
