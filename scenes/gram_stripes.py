"""条纹与衰减: PE(m)·PE(n) depends only on n − m, proved with the move "两支一起转，点积不变" and the shift machine
(PE(m)·PE(n) = (M_m PE(0))·(M_m PE(n − m)) = PE(0)·PE(n − m)), then seen as Σ cos(ω_i (n − m)); the Gram
stripes; the dot product g(k) = PE(0)·PE(k) read along a row, its first halving and its fall far out.

What these stripes do once W_Q and W_K stand between the readings and the score, and the limit of "exact in
math" against "learned by a model" (document 000 §5's extrapolation lesson), are the next scene's
(scenes/through_projections.py).

Label equals drawing: the watches ``profile`` (the curve's raw points, the axes' tick labels with
their positions, the distance-0 dot and label, the half-point dot, line and label), ``row_arrow`` (the
arrow's raw ends, row 0's first and last cells and their colours) and ``far`` (the dot product out to 1000: its
curve, tick labels and the band marking the first chart's range) are read by tests/course/test_scene_gram_stripes.py;
the probe ``proof`` (the three lines of the proof as typeset) by the same file.
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

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
MOVE = "两支一起转，点积不变"  # the move named in rotation_fidelity.inner
DISTANCE = "距离 n − m"  # the charts' x axis (k is the key vector elsewhere)
D = 32
K_MAX = 64  # the curve runs over distances 0 … K_MAX ...
N_POS = K_MAX + 1  # ... which is exactly the arrow along row 0 of the table
HEAT_CENTER = np.array([-3.75, 0.05, 0.0])
CELL = 0.065
FADE_FRAMES = 8  # the heat map fades in and out this fast
CURVE_CENTER = np.array([3.0, 0.1, 0.0])
K_FAR = 1000  # the "几百步以后" view: g(k) out to this distance, where the heat map stood
FAR_CENTER = np.array([-3.45, 0.0, 0.0])
# where the charts' axes sit (their labels go under the ticks, so a longer label does not move them)
CURVE_AXES = np.array([2.55, -0.09, 0.0])
FAR_AXES = np.array([-4.0, -0.14, 0.0])
PROOF_X = -5.6  # the proof's lines start here


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
    """dot (the proof with M_m, line by line at the bookmarks second and together) → cosines (the sum of cosines,
    the second view) → stripes (HeatMap of G, A5) → decay (the dot product along row 0, distance 0) → half
    (first halving; then, at the bookmark far, the dot product out to K_FAR in the heat map's place)."""

    SCENE_IDS = ("gram_stripes",)
    CUES = ("dot", "cosines", "stripes", "decay", "half")
    BOOKMARKS = {"dot": ("second", "together"), "half": ("far",)}
    K_MAX = K_MAX
    K_FAR = K_FAR

    def construct(self) -> None:
        header = self.header()

        # -- dot: the proof, with the shift machine and the move "两支一起转，点积不变" -----------------------
        lines = VGroup(
            theme.formula('"PE"(m) dot "PE"(n)', font_size=42),
            theme.formula('= ({{M_m : mm}} "PE"(0)) dot ({{M_m : mn}} "PE"(n - m))', font_size=42),
            theme.formula('= "PE"(0) dot "PE"(n - m)', font_size=42),
        )
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.35)
        lines.move_to(np.array([0.0, 0.95, 0.0])).align_to(np.array([PROOF_X, 0.0, 0.0]), LEFT)
        VGroup(*lines[1].select("mm"), *lines[1].select("mn")).set_color(theme.HIGHLIGHT)  # the turns, M_m
        shifts = VGroup(
            theme.typst_text('$"PE"(m) = M_m "PE"(0)$', color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL),
            theme.typst_text('$"PE"(n) = M_m "PE"(n - m)$', color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL),
        )
        shifts.arrange(RIGHT, buff=0.9).move_to(np.array([0.0, 2.45, 0.0]))
        move = theme.body_text(MOVE, color=theme.SCORE, font_size=theme.SIZE_SMALL + 4)
        move.next_to(lines[1], RIGHT, buff=0.4)
        only = theme.body_text("只跟距离 n − m 有关", color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL + 4)
        only.next_to(lines[2], RIGHT, buff=0.6)
        self.probe(
            "proof",
            lines=[m.typst_code for m in lines],
            shifts=[m.typst_code for m in shifts],
            move=move.text,
            only=only.text,
        )
        with self.cue("dot") as cue:
            self.play(FadeIn(header), FadeIn(lines[0]), run_time=cue.share(0.12))
            self.hold_frames(max(0, cue.frames_until("second") - int(0.7 * self.fps) - 1))
            self.play(FadeIn(shifts[0]), run_time=cue.until("second"))
            self.play(FadeIn(shifts[1]), FadeIn(lines[1], shift=0.15 * DOWN), run_time=cue.share(0.15))
            self.hold_frames(max(0, cue.frames_until("together")))
            self.play(FadeIn(move), run_time=cue.share(0.12))
            self.play(FadeIn(lines[2], shift=0.15 * DOWN), run_time=cue.share(0.12))
            self.play(FadeIn(only), run_time=min(cue.remaining(), cue.share(0.12)))

        # -- cosines: the second view, a sum of cosines ------------------------------------------------
        cosines = theme.formula("= sum_i cos(omega_i (n - m))", font_size=42)
        cosines.next_to(lines, DOWN, buff=0.3).align_to(lines, LEFT)
        view = VGroup(
            theme.small_text("第二种看法：", color=theme.TEXT),
            theme.small_text("每根指针转过的角，余弦相加", color=theme.TEXT),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.1)
        view.next_to(cosines, RIGHT, buff=0.6)
        self.probe("cosines", shown=cosines.typst_code, view=[m.text for m in view])
        with self.cue("cosines") as cue:
            self.play(FadeIn(cosines, shift=0.15 * DOWN), FadeIn(view), run_time=cue.share(0.3))
        proof_parts = (lines, shifts, move, only, cosines, view)  # each on screen as it was faded in

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
            self.play_frames(*[FadeOut(m) for m in proof_parts], frames=max(1, fade // 2))
            self.play_frames(
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
            x_label=DISTANCE,
            y_label="点积",
            colors=[theme.SCORE],
        )
        curve.x_label.next_to(curve.x_ticks, DOWN, buff=0.12).align_to(curve.axes, RIGHT)
        curve.shift(CURVE_AXES - curve.axes.get_center())
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
        g0_label = theme.small_text(f"距离 0：{figures.fmt_dec(g0)}", color=theme.HIGHLIGHT).next_to(
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
        half_label = theme.small_text(f"距离 {k_half}", color=theme.HIGHLIGHT).next_to(
            dot_half, DOWN + RIGHT, buff=0.12
        )
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
            x_label=DISTANCE,
            y_label="点积",
            colors=[theme.SCORE],
        )
        far.curves[0].set_stroke(width=2)
        far.x_label.next_to(far.x_ticks, DOWN, buff=0.12)
        far.shift(FAR_AXES - far.axes.get_center())
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
