"""条纹与衰减: PE(m)·PE(n) = Σ cos(ω_i (n − m)), the Gram stripes, g(k) read along a row, and an honest limit.

The length-extrapolation experiment of document 000 §5 is told qualitatively (seen positions all right, unseen
ones mostly wrong, better after a wider training window): the document does not say which task it was, so its
percentages would carry no information for a viewer. The picture is a schematic and says so.

Label equals drawing: the watches ``profile`` (the curve's raw points, the axes' tick labels with
their positions, the g(0) dot and label, the half-point dot, line and label), ``row_arrow`` (the
arrow's raw ends, row 0's first and last cells and their colours) and ``far`` (the g(k) out to 1000: its
curve, tick labels and the band marking the first chart's range) are read by tests/course/test_scene_gram_stripes.py.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    Line,
    Rectangle,
    VGroup,
)

import mathcore
from mathcore import checks
from narration import figures
from scenes import theme
from scenes.base import NarratedScene, run_time_for_frames
from scenes.mobjects import HeatMap, ScoreCurve
from scenes.mobjects.sci_figure import sci_line

D = 32
K_MAX = 64  # the curve runs over distances 0 … K_MAX ...
N_POS = K_MAX + 1  # ... which is exactly the arrow along row 0 of the table
HEAT_CENTER = np.array([-3.75, 0.05, 0.0])
CELL = 0.065
FADE_FRAMES = 8  # the heat map fades in and out this fast
CURVE_CENTER = np.array([3.0, 0.1, 0.0])
K_FAR = 1000  # the "几百步以后" view: g(k) out to this distance, where the heat map stood
FAR_CENTER = np.array([-3.45, 0.0, 0.0])


def drawn_top_row(heat: VGroup) -> dict:
    """The top row of a merged heat map, read back from what is drawn: each merged mobject is one colour, its
    points the squares of that colour (4 cubic curves, 16 points each); returns the row's square centres
    (left to right), their colours and the side of a square."""
    squares = []
    for mob in heat:
        color = mob.get_fill_color().to_hex()
        for sq in mob.points.reshape(-1, 16, 3):
            squares.append((sq[:, :2].mean(axis=0), color, float(np.ptp(sq[:, 0]))))
    top = max(c[1] for c, _, _ in squares)
    row = sorted((sq for sq in squares if abs(sq[0][1] - top) < 1e-6), key=lambda sq: sq[0][0])
    return {"centers": [c.tolist() for c, _, _ in row], "colors": [col for _, col, _ in row], "size": row[0][2]}


class GramStripes(NarratedScene):
    """dot → stripes (HeatMap of G, A5) → decay (g(k) along row 0, g(0)) → half (k = half_point; then, at the
    bookmark far, g(k) out to K_FAR in the heat map's place) → extrapolation → honest (the cited experiment's 32% → 79%, attributed) → gap."""

    SCENE_IDS = ("gram_stripes",)
    CUES = ("dot", "stripes", "decay", "half", "extrapolation", "honest", "gap")
    BOOKMARKS = {"half": ("far",)}
    K_MAX = K_MAX
    K_FAR = K_FAR

    def construct(self) -> None:
        header = self.header()

        # -- dot: the dot product depends only on n − m -------------------------------------------
        lhs = theme.formula('"PE"(m) dot "PE"(n)', font_size=44)
        rhs = theme.formula("= sum_i cos(omega_i (n - m))", font_size=44)
        VGroup(lhs, rhs).arrange(RIGHT, buff=0.25).move_to(np.array([0.0, 1.3, 0.0]))
        only = theme.body_text("只跟距离 n − m 有关", color=theme.HIGHLIGHT).move_to(np.array([0.0, 0.1, 0.0]))
        with self.cue("dot") as cue:
            self.play(FadeIn(header), FadeIn(lhs), run_time=cue.share(0.25))
            self.play(FadeIn(rhs, shift=0.2 * RIGHT), run_time=cue.share(0.3))
            self.play(FadeIn(only), run_time=cue.remaining())

        # -- stripes: the Gram table, stripes parallel to the diagonal --------------------------------
        g = mathcore.gram(mathcore.sinusoidal_pe(np.arange(N_POS), D))
        table = HeatMap(g, cell=CELL, center=HEAT_CENTER)  # places and colours of the N_POS² cells
        table.cells.set_stroke(width=0)
        heat = table.merged_cells()  # drawn as one mobject per colour
        frame = Rectangle(width=N_POS * CELL, height=N_POS * CELL, color=theme.MUTED, stroke_width=2).move_to(
            HEAT_CENTER
        )
        axis_labels = VGroup(
            theme.small_text("n →", color=theme.TEXT).next_to(frame, UP, buff=0.08).align_to(frame, LEFT),
            theme.small_text("m ↓", color=theme.TEXT).next_to(frame, LEFT, buff=0.1).align_to(frame, UP),
        )
        caption = theme.small_text(f"d = {D}，位置 0 到 {N_POS - 1}", color=theme.TEXT).next_to(frame, DOWN, buff=0.12)
        self.probe(
            "heat",
            values=table.values.tolist(),
            n=N_POS,
            d=D,
            caption=caption.text,
            vmin=table.vmin,
            vmax=table.vmax,
            colors=[c.get_fill_color().to_hex() for c in table.cells],
            drawn={m.get_fill_color().to_hex(): m.cell_count for m in heat},
            drawn_area=sum(m.cell_count for m in heat) * CELL**2,
            table_area=heat.width * heat.height,
        )
        top_left = table.cell(0, 0).get_center()
        stripes = VGroup(
            *[
                DashedLine(
                    top_left + np.array([k * CELL, 0, 0]),
                    top_left + np.array([(N_POS - 1) * CELL, -(N_POS - 1 - k) * CELL, 0]),
                    color=theme.TEXT,
                    stroke_width=2,
                    dash_length=0.08,
                )
                for k in (0, 12, 24)
            ]
        )
        small_formula = theme.formula('G = "PE" "PE"^T', font_size=40).move_to(np.array([CURVE_CENTER[0], 2.35, 0.0]))
        a5 = VGroup(
            theme.small_text("颜色沿着对角线方向不变：条纹", color=theme.TEXT),
            theme.small_text(f"另测 d = {checks.A5_D}、{checks.A5_POSITIONS} 个位置：", color=theme.TEXT),
            sci_line(
                "偏差 ",
                figures.fmt_sci(checks.a5_gram_stripes()),
                color=theme.HIGHLIGHT,
                text_size=theme.SIZE_SMALL + 4,
            ),
        )
        a5.arrange(DOWN, buff=0.25).move_to(np.array([CURVE_CENTER[0], 0.5, 0.0]))
        a5[1:].shift(0.15 * DOWN)
        self.probe("a5", shown=a5[2].typst_code, setup=a5[1].text, error=checks.a5_gram_stripes())
        with self.cue("stripes") as cue:
            # N_POS² cells: a short fade (each faded frame redraws all of them), then the rest of the share still
            fade = min(FADE_FRAMES, max(1, int(0.3 * cue.plan.speech_frames)))
            self.play_frames(
                FadeOut(lhs),
                FadeOut(rhs),
                FadeOut(only),
                FadeIn(heat),
                FadeIn(frame),
                FadeIn(axis_labels),
                FadeIn(small_formula),
                FadeIn(caption),
                frames=fade,
            )
            self.bring_to_back(heat)
            self.play(Create(stripes), FadeIn(a5[0]), run_time=cue.share(0.35))
            self.play(FadeIn(a5[1]), FadeIn(a5[2]), run_time=cue.remaining())
        self.settle(a5)

        # -- decay: g(k) along a row, g(0) = d/2 -----------------------------------------------------
        ks = np.arange(self.K_MAX + 1)
        prof = mathcore.relative_profile(ks, D)
        curve = ScoreCurve(
            ks,
            [prof],
            names=["g(k)"],
            x_range=(0, self.K_MAX, 16),
            y_range=(0, 16, 4),
            x_length=5.2,
            y_length=3.0,
            center=CURVE_CENTER,
            x_label="距离 k",
            y_label="点积 g(k)",
            colors=[theme.SCORE],
        )
        curve.y_label.next_to(curve.y_ticks[-1], UP, buff=0.2)
        along = Arrow(
            table.cell(0, 0).get_center(),
            table.cell(0, self.K_MAX).get_center(),
            buff=0,
            color=theme.HIGHLIGHT,
            stroke_width=5,
            max_tip_length_to_length_ratio=0.06,
        )
        along_note = theme.small_text("沿一行往右：离对角线越来越远", color=theme.HIGHLIGHT)
        along_note.next_to(frame, DOWN, buff=0.12)
        row0 = drawn_top_row(heat)  # row 0 as drawn: the merged squares' own points and colours (static)
        self.watch(
            "row_arrow",
            lambda: {
                "on_screen": self.on_screen(along),
                "start": along.get_start()[:2].tolist(),
                "end": along.get_end()[:2].tolist(),
                "cell_first": row0["centers"][0],
                "cell_last": row0["centers"][-1],
                "cell_size": row0["size"],
                "row_colors": row0["colors"],
                "heat_on_screen": self.on_screen(heat),
                "low": theme.BACKGROUND,
                "high": theme.SCORE,
                "vmin": table.vmin,
                "vmax": table.vmax,
            },
        )
        g0 = float(prof[0])
        dot0 = Dot(curve.axes.c2p(0, g0), radius=0.08, color=theme.HIGHLIGHT)
        g0_label = theme.small_text(f"g(0) = {figures.fmt_dec(g0)}", color=theme.HIGHLIGHT).next_to(
            dot0, RIGHT, buff=0.25
        )
        self.curve = curve
        k_half = mathcore.half_point(D)
        g_half = float(mathcore.relative_profile(k_half, D))
        half_line = DashedLine(
            curve.axes.c2p(0, g0 / 2), curve.axes.c2p(self.K_MAX, g0 / 2), color=theme.MUTED, stroke_width=2
        )
        drop = DashedLine(
            curve.axes.c2p(k_half, 0), curve.axes.c2p(k_half, g_half), color=theme.HIGHLIGHT, stroke_width=3
        )
        dot_half = Dot(curve.axes.c2p(k_half, g_half), radius=0.08, color=theme.HIGHLIGHT)
        half_label = theme.small_text(f"k = {k_half}", color=theme.HIGHLIGHT).next_to(dot_half, DOWN + LEFT, buff=0.12)
        half_note = theme.small_text("一半", color=theme.MUTED).next_to(half_line, RIGHT, buff=0.1)

        def ticks(group):
            return [{"text": t.text, "center": t.get_center()[:2].tolist()} for t in group]

        self.watch(
            "profile",
            lambda: {
                "curve_on_screen": self.on_screen(curve.curves[0]),
                "curve": [p[:2].tolist() for p in curve.curves[0].get_anchors()[::2]]
                + [curve.curves[0].get_end()[:2].tolist()],
                "x_ticks": ticks(curve.x_ticks),
                "y_ticks": ticks(curve.y_ticks),
                "ticks_on_screen": self.on_screen(curve.ticks),
                "dot0": dot0.get_center()[:2].tolist(),
                "g0_shown": g0_label.text,
                "g0_on_screen": self.on_screen(g0_label),
                "dot_half": dot_half.get_center()[:2].tolist(),
                "half_shown": half_label.text,
                "half_on_screen": self.on_screen(half_label),
                "half_line": [half_line.get_start()[:2].tolist(), half_line.get_end()[:2].tolist()],
                "half_line_on_screen": self.on_screen(half_line),
            },
        )
        with self.cue("decay") as cue:
            self.play(FadeOut(caption), run_time=cue.share(0.06))  # out before the arrow's note takes its place
            self.play(
                FadeOut(a5),
                FadeOut(stripes),
                FadeOut(small_formula),
                FadeIn(curve.axes),
                FadeIn(curve.ticks),
                FadeIn(curve.x_label),
                FadeIn(curve.y_label),
                Create(along),
                FadeIn(along_note),
                run_time=cue.share(0.2),
            )
            self.play(curve.make_draw_animation(0), run_time=cue.share(0.45))
            self.play(FadeIn(dot0), FadeIn(g0_label), run_time=cue.remaining())
        self.probe(
            "curve",
            drawn=curve.drawn_samples(0).tolist(),
            g0_point=list(curve.axes.p2c(dot0.get_center())),
            g0_shown=g0_label.text,
        )

        # -- half: first time g(k) <= g(0)/2; the slow hands hold about half, the fast ones make the ripples --
        fast_slow = theme.small_text("慢的指针托住约一半，快的带来起伏", color=theme.TEXT)
        fast_slow.move_to(np.array([CURVE_CENTER[0] - 0.15, 2.6, 0.0]))
        # ... and "几百步以后": the same g(k) out to K_FAR, in the heat map's place, the right chart's range marked
        ks_far = np.arange(self.K_FAR + 1)
        far = ScoreCurve(
            ks_far,
            [mathcore.relative_profile(ks_far, D)],
            names=["g(k)"],
            x_range=(0, self.K_FAR, 250),
            y_range=(-4, 16, 4),
            x_length=4.7,
            y_length=3.0,
            center=FAR_CENTER,
            x_label="距离 k",
            y_label="点积 g(k)",
            colors=[theme.SCORE],
        )
        far.curves[0].set_stroke(width=2)
        far.x_label.next_to(far.x_ticks, DOWN, buff=0.12)
        far.y_label.next_to(far.y_ticks[-1], UP, buff=0.2).align_to(far.y_ticks[-1], LEFT)
        far_title = theme.small_text(f"走远些：一直到 {self.K_FAR} 步", color=theme.TEXT)
        far_title.next_to(far.y_label, UP, buff=0.25).align_to(far.y_label, LEFT)
        window = Rectangle(
            width=far.axes.c2p(self.K_MAX, 0)[0] - far.axes.c2p(0, 0)[0],
            height=far.axes.c2p(0, 16)[1] - far.axes.c2p(0, -4)[1],
            stroke_width=0,
            fill_color=theme.HIGHLIGHT,
            fill_opacity=0.22,
        )
        window.move_to(far.axes.c2p(0, -4), aligned_edge=DOWN + LEFT)
        window_note = theme.small_text(f"← 右图只画到 {self.K_MAX}", color=theme.HIGHLIGHT)
        window_note.next_to(window, RIGHT, buff=0.12).align_to(far.axes.c2p(0, 15.6), UP)
        far_half = DashedLine(
            far.axes.c2p(0, g0 / 2), far.axes.c2p(self.K_FAR, g0 / 2), color=theme.MUTED, stroke_width=2
        )
        far_parts = VGroup(far.axes, far.ticks, far.x_label, far.y_label, far_title, window, window_note, far_half)
        self.watch(
            "far",
            lambda: {
                "curve_on_screen": self.on_screen(far.curves[0]),
                "ticks_on_screen": self.on_screen(far.ticks),
                "curve": [p[:2].tolist() for p in far.curves[0].get_anchors()[::2]]
                + [far.curves[0].get_end()[:2].tolist()],
                "x_ticks": ticks(far.x_ticks),
                "y_ticks": ticks(far.y_ticks),
                "window": [window.get_left()[0], window.get_right()[0]],
                "window_on_screen": self.on_screen(window),
                "window_note": window_note.text,
                "main_x_ticks": ticks(curve.x_ticks),
                "title": far_title.text,
                "title_on_screen": self.on_screen(far_title),
            },
        )
        with self.cue("half") as cue:
            self.play(Create(half_line), FadeIn(half_note), run_time=cue.share(0.2))
            self.play(Create(drop), FadeIn(dot_half), FadeIn(half_label), run_time=cue.share(0.3))
            self.play(FadeIn(fast_slow), run_time=cue.until("far"))
            fade = min(FADE_FRAMES, max(1, int(0.1 * cue.plan.speech_frames)))
            # the heat map and its labels leave before the far chart (whose labels take their places) comes in
            self.swap(
                [heat, frame, axis_labels, along, along_note],
                FadeIn(far_parts),
                run_time=run_time_for_frames(fade, self.fps),
                out_share=0.5,
            )
            self.play(far.make_draw_animation(0), run_time=min(cue.remaining(), cue.share(0.15)))
            cue.hold()
        self.probe(
            "half", k=k_half, point=list(curve.axes.p2c(dot_half.get_center())), shown=half_label.text, half_of=g0 / 2
        )

        # -- extrapolation: exact in math, not necessarily used by a learner ------------------------------
        math_side = VGroup(
            theme.body_text("数学", color=theme.TEXT),
            theme.small_text("旋转结构对任何位置都精确成立", color=theme.HIGHLIGHT),
        )
        learn_side = VGroup(
            theme.body_text("模型", color=theme.TEXT), theme.small_text("不一定真能用上它", color=theme.TEXT)
        )
        for grp in (math_side, learn_side):
            grp.arrange(DOWN, buff=0.25)
        VGroup(math_side, learn_side).arrange(RIGHT, buff=1.6).move_to(np.array([0.0, 0.7, 0.0]))
        with self.cue("extrapolation") as cue:
            fade = min(FADE_FRAMES, max(1, int(0.2 * cue.plan.speech_frames)))
            self.play_frames(
                *[
                    FadeOut(m)
                    for m in (
                        far_parts,
                        far.curves[0],
                        curve.axes,
                        curve.ticks,
                        curve.x_label,
                        curve.y_label,
                        curve.curves[0],
                        dot0,
                        g0_label,
                        half_line,
                        drop,
                        dot_half,
                        half_label,
                        half_note,
                        fast_slow,
                    )
                ],
                frames=fade,
            )
            self.play(FadeIn(math_side), run_time=cue.share(0.3))
            self.play(FadeIn(learn_side), run_time=cue.remaining())

        # -- honest: the experiment told qualitatively, as a schematic of positions ------------------------------
        axis_y, x0, x1, seen_to, wide_to = 0.2, -5.6, 5.6, -1.4, 2.0
        line = Arrow(
            np.array([x0, axis_y, 0.0]),
            np.array([x1 + 0.4, axis_y, 0.0]),
            buff=0,
            color=theme.MUTED,
            stroke_width=3,
            max_tip_length_to_length_ratio=0.03,
        )
        pos_label = theme.small_text("位置 →", color=theme.TEXT).next_to(line, RIGHT, buff=0.1).shift(0.45 * DOWN)
        pos_label.align_to(line, RIGHT)
        band = Rectangle(width=seen_to - x0, height=0.5, stroke_width=0, fill_color=theme.POSITION, fill_opacity=0.35)
        band.move_to(np.array([(x0 + seen_to) / 2, axis_y, 0.0]))
        wide = Rectangle(width=wide_to - x0, height=0.5, stroke_width=0, fill_color=theme.POSITION, fill_opacity=0.35)
        wide.move_to(np.array([(x0 + wide_to) / 2, axis_y, 0.0]))
        seen = VGroup(
            theme.small_text("训练时见过的位置", color=theme.POSITION),
            theme.body_text("全部答对", color=theme.TEXT, font_size=theme.SIZE_SMALL + 4),
        )
        seen.arrange(DOWN, buff=0.5).move_to(np.array([(x0 + seen_to) / 2, axis_y - 0.05, 0.0]))
        seen[0].next_to(band, UP, buff=0.2)
        seen[1].next_to(band, DOWN, buff=0.25)
        unseen = VGroup(
            theme.small_text("没见过的位置", color=theme.TEXT),
            theme.body_text("大多出错", color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL + 4),
        )
        unseen[0].move_to(np.array([(wide_to + x1) / 2 - 0.3, axis_y + 0.45, 0.0]))
        unseen[1].move_to(np.array([(wide_to + x1) / 2 - 0.3, axis_y - 0.55, 0.0]))
        widened = VGroup(
            theme.small_text("把训练窗口扩大以后", color=theme.POSITION),
            theme.body_text("窗口外：好了不少", color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL + 4),
        )
        # under "没见过的位置", right of the widened window (it ends at wide_to), where "大多出错" was
        widened.arrange(DOWN, buff=0.2).move_to(np.array([(wide_to + x1) / 2 - 0.5, axis_y - 1.3, 0.0]))
        source = theme.small_text("一个长度外推实验（示意图）", color=theme.MUTED).move_to(np.array([0.0, 2.3, 0.0]))
        self.probe(
            "honest",
            source=source.text,
            seen=[m.text for m in seen],
            unseen=[m.text for m in unseen],
            widened=[m.text for m in widened],
        )
        with self.cue("honest") as cue:
            self.swap(
                [math_side, learn_side], FadeIn(source), Create(line), FadeIn(pos_label), run_time=cue.share(0.15)
            )
            self.play(FadeIn(band), FadeIn(seen), run_time=cue.share(0.2))
            self.play(FadeIn(unseen), run_time=cue.share(0.2))
            self.hold_frames(max(0, cue.start_frame + int(0.62 * cue.plan.speech_frames) - self.frame))
            self.swap(unseen[1], FadeIn(widened), band.animate.become(wide), run_time=cue.share(0.25))
        schematic = VGroup(line, pos_label, band, seen, unseen[0], widened)
        self.settle(schematic)

        # -- gap: math holds vs the model learns it ---------------------------------------------------------
        left = theme.body_text("数学上成立", color=theme.HIGHLIGHT)
        right = theme.body_text("模型真的学会", color=theme.TEXT)
        VGroup(left, right).arrange(RIGHT, buff=3.2).move_to(np.array([0.0, 0.9, 0.0]))
        wall = Line(np.array([0.0, 1.7, 0.0]), np.array([0.0, 0.1, 0.0]), color=theme.MUTED, stroke_width=8)
        why = theme.small_text("中间的坎：容量会不会诱使它死记硬背", color=theme.TEXT).move_to(
            np.array([0.0, -0.5, 0.0])
        )
        with self.cue("gap") as cue:
            self.swap([schematic, source], FadeIn(left), FadeIn(right), run_time=cue.share(0.3))
            self.play(Create(wall), FadeIn(why), run_time=cue.share(0.35))
