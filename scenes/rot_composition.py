"""转两次，等于一次转过两角之和 (rotation lesson §3): what is new after the first lesson's 25° + 40° — every pair of angles
5° apart checked (A3's sweep, 72 × 72 pairs, the full turn included), and what it means for the clock row.
Lesson 1 already turned the arrow through 25° and 40° and showed R(360°) = I (angle_addition), so this scene
only names the 25° + 40° example in one line and does not animate it again.

Every error comes from :func:`mathcore.rotation_facts.composition_errors`; the drawn table is those errors, in
units of machine epsilon ε (defined in the eps cue and on screen), one cell per pair (row α, column β). A
curtain uncovers it row by row while a counter and the largest error uncovered so far run along.

Label equals drawing: the watch ``sweep`` (the counter and the running maximum as drawn, and the curtain's drawn
edges) and the probe ``table`` (each cell's colour) are read by tests/course/test_scene_rot_composition.py.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, FadeIn, FadeOut, ManimColor, Rectangle, ValueTracker, VGroup, interpolate_color

from mathcore import checks
from mathcore.rotation_facts import composition_errors
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import HeatMap
from scenes.mobjects.glyph_number import GlyphNumber
from scenes.mobjects.sci_figure import sci_line

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
CELL = 0.046
TABLE_CENTER = np.array([-1.25, 0.05, 0.0])
SIDE_X = 1.05  # the notes right of the table start here
LOW, HIGH = "#262a33", theme.TEXT  # the table's colours: 0 ε (a shade above the background) … VMAX_EPS


class RotComposition(NarratedScene):
    """recall (the first lesson's 25° then 40° = 65°, one line, no animation) → sweep and eps (the 72 × 72 table
    uncovered, the counter, the largest error so far; ε named; then A3 as measured, the full turn included) →
    takeaway (for the clocks: k positions on = ω_i k more on every hand)."""

    SCENE_IDS = ("rot_composition",)
    CUES = ("recall", "sweep", "eps", "takeaway")
    FIRST, SECOND = 25.0, 40.0
    STEP_DEG = 5.0
    VMAX_EPS = 5.0  # the colour scale's top, in ε (the largest error is 4.5 ε)

    def construct(self) -> None:
        header = self.header()

        # -- recall: the first lesson's pair, one line -------------------------------------------------
        old = VGroup(
            theme.small_text("第一课：一组角", color=theme.MUTED),
            theme.formula(f"R({self.SECOND:g}°) R({self.FIRST:g}°) = R({self.FIRST + self.SECOND:g}°)", font_size=38),
        )
        old.arrange(DOWN, aligned_edge=LEFT, buff=0.2).move_to(np.array([-4.0, 1.6, 0.0]), aligned_edge=LEFT)
        now = VGroup(
            # every angle with every angle, in both orders and with itself: ordered pairs (L4, review 4)
            theme.body_text(f"现在：每隔 {self.STEP_DEG:g}° 一个角，α、β 各取一遍", color=theme.HIGHLIGHT),
            theme.formula("R(beta) R(alpha) = R(alpha + beta) ?", font_size=38),
            theme.typst_text(
                "$alpha, beta = 0°, 5°, 10°, ..., 355°$", color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL
            ),
        )
        now.arrange(DOWN, aligned_edge=LEFT, buff=0.2).move_to(np.array([-4.0, -0.3, 0.0]), aligned_edge=LEFT)
        self.probe("recall", shown=old[1].typst_code, now=now[0].text)
        with self.cue("recall") as cue:
            self.play(FadeIn(header), FadeIn(old), run_time=cue.share(0.3))
            self.play(FadeIn(now, lag_ratio=0.3), run_time=cue.remaining())

        # -- sweep: the 72 × 72 table of |R(α)R(β) − R(α+β)|, uncovered row by row ----------------------------
        angles, err = composition_errors(self.STEP_DEG)
        n = len(angles)
        in_eps = err / checks.EPS
        table = HeatMap(
            in_eps, cell=CELL, vmin=0.0, vmax=self.VMAX_EPS, low_color=LOW, high_color=HIGH, center=TABLE_CENTER
        )
        table.cells.set_stroke(width=0)
        heat = table.merged_cells()
        frame = Rectangle(width=n * CELL, height=n * CELL, color=theme.MUTED, stroke_width=2).move_to(TABLE_CENTER)
        top, left = frame.get_top()[1], frame.get_left()[0]
        axis = VGroup(
            theme.small_text("β →", color=theme.TEXT).next_to(frame, UP, buff=0.08).align_to(frame, LEFT),
            theme.small_text("α ↓", color=theme.TEXT).next_to(frame, LEFT, buff=0.1).align_to(frame, UP),
        )
        self.probe(
            "table",
            values=in_eps.tolist(),
            angles=angles.tolist(),
            vmax=self.VMAX_EPS,
            low=LOW,
            high=HIGH,
            colors=[c.get_fill_color().to_hex() for c in table.cells],
            drawn={m.get_fill_color().to_hex(): m.cell_count for m in heat},
            cell=CELL,
            top=float(top),
            left=float(left),
        )
        done = ValueTracker(0.0)  # pairs compared so far (row-major: row α, column β)
        count = lambda: int(round(done.get_value()))  # noqa: E731

        # the curtain: the rest of the current row, and every row below it (background-coloured boxes)
        rest = Rectangle(width=n * CELL, height=CELL, stroke_width=0, fill_color=theme.BACKGROUND, fill_opacity=1)
        below = Rectangle(width=n * CELL, height=n * CELL, stroke_width=0, fill_color=theme.BACKGROUND, fill_opacity=1)

        def place_curtain(_=None):
            c = count()
            r, j = divmod(c, n)
            rows_below = n - r - 1 if r < n else 0
            if r < n and j < n:
                rest.stretch_to_fit_width(max((n - j) * CELL, 1e-4)).move_to(
                    np.array([left + (j + n) * CELL / 2, top - (r + 0.5) * CELL, 0.0])
                )
                rest.set_opacity(1)
            else:
                rest.set_opacity(0)
            if rows_below > 0:
                below.stretch_to_fit_height(rows_below * CELL).move_to(
                    np.array([left + n * CELL / 2, top - (r + 1) * CELL - rows_below * CELL / 2, 0.0])
                )
                below.set_opacity(1)
            else:
                below.set_opacity(0)

        place_curtain()
        curtain = VGroup(below, rest)
        curtain.add_updater(place_curtain)

        fs = theme.SIZE_SMALL + 4
        counted = VGroup(
            theme.body_text("已比较", color=theme.TEXT, font_size=fs),
            GlyphNumber(lambda v: f"{int(v):d}", float(err.size), max_chars=4, font_size=fs, color=theme.HIGHLIGHT),
            theme.body_text(f"/ {figures.value('a3_pairs')} 对", color=theme.TEXT, font_size=fs),
        )
        counted.arrange(RIGHT, buff=0.2).next_to(np.array([SIDE_X, 1.45, 0.0]), RIGHT, buff=0)  # laid out at its widest
        # P4 (review 6): how the pairs are counted goes to the screen only, above the counter
        pair_rule = VGroup(
            theme.small_text("(α, β) 和 (β, α) 算两对，", color=theme.MUTED),
            theme.small_text("α = β 也算一对", color=theme.MUTED),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.1)
        pair_rule.next_to(np.array([SIDE_X, 2.2, 0.0]), RIGHT, buff=0)
        counted[1].set_value(0)
        counted[1].add_updater(lambda m: m.set_value(count()))

        def running_max() -> float:
            c = count()
            return float(in_eps.ravel()[:c].max()) if c else 0.0

        worst = VGroup(
            theme.body_text("目前最大偏差", color=theme.TEXT, font_size=fs),
            GlyphNumber(
                lambda v: f"{v:.1f} ε", 0.0, max_chars=5, chars="0123456789.ε", font_size=fs, color=theme.HIGHLIGHT
            ),
        )
        worst.arrange(RIGHT, buff=0.25)
        worst.next_to(np.array([SIDE_X, 0.75, 0.0]), RIGHT, buff=0)
        worst[1].add_updater(lambda m: m.set_value(running_max()))
        legend = self._legend(np.array([SIDE_X, -0.1, 0.0]))
        # L3 (review 6): the gap between 1 and the next number a double can hold, not "adjacent decimals"
        eps_note = theme.typst_text(
            "$epsilon$：1 和下一个能存下的数之差"
            f"\\ （双精度浮点数），约 ${figures.value('eps_mant')} times 10^(-{figures.value('eps_exp')})$",
            color=theme.MUTED,
            font_size=TYPST * theme.SIZE_SMALL,
        )
        eps_note.next_to(np.array([SIDE_X, -0.88, 0.0]), RIGHT, buff=0)
        a3 = VGroup(
            theme.small_text("连同转满一圈一起算：", color=theme.TEXT),
            sci_line("最大偏差 ", figures.value("a3_err"), color=theme.HIGHLIGHT, text_size=theme.SIZE_SMALL + 4),
        )
        a3.arrange(DOWN, aligned_edge=LEFT, buff=0.15).next_to(eps_note, DOWN, buff=0.2, aligned_edge=LEFT)
        self.watch(
            "sweep",
            lambda: {
                "count": count(),
                "count_shown": counted[1].text,
                "worst_shown": worst[1].text,
                "on_screen": self.on_screen(counted[1]),
                "worst_on_screen": self.on_screen(worst[1]),
                "curtain_on_screen": self.on_screen(curtain),
                "rest": [
                    rest.get_left()[0],
                    rest.get_right()[0],
                    rest.get_bottom()[1],
                    rest.get_top()[1],
                    float(rest.get_fill_opacity()),
                ],
                "below": [
                    below.get_left()[0],
                    below.get_right()[0],
                    below.get_bottom()[1],
                    below.get_top()[1],
                    float(below.get_fill_opacity()),
                ],
            },
        )
        self.probe(
            "a3",
            shown=a3[1].typst_code,
            error=checks.a3_composition(),
            pairs=int(err.size),
            eps_note=eps_note.typst_code,
            pair_rule="".join(m.text for m in pair_rule),
        )
        with self.cue("sweep") as cue:  # what is compared, and how many pairs
            self.play(FadeOut(VGroup(old, now)), run_time=cue.share(0.08))
            self.add(heat, curtain, frame)
            self.play(
                FadeIn(frame),
                FadeIn(axis),
                FadeIn(pair_rule),
                FadeIn(counted),
                FadeIn(worst),
                FadeIn(legend),
                run_time=cue.share(0.1),
            )
            self.play(done.animate.set_value(float(err.size)), run_time=cue.remaining(), rate_func=lambda t: t)
            curtain.clear_updaters()
            self.remove(curtain)
        with self.cue("eps") as cue:  # what ε is, and why a few ε is rounding
            self.play(FadeIn(eps_note), run_time=cue.share(0.15))
            self.hold_frames(max(0, cue.start_frame + int(0.6 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(a3), run_time=cue.remaining())
        for m in (counted[1], worst[1]):
            m.clear_updaters()

        # -- takeaway: for the clock row, k positions on = ω_i k more on every hand --------------------------
        clocks = VGroup(
            theme.typst_text("那排钟：位置 $n -> n + k$", color=theme.TEXT, font_size=TYPST * theme.SIZE_BODY),
            theme.typst_text("每根指针再多转 $omega_i k$", color=theme.POSITION, font_size=TYPST * theme.SIZE_BODY),
        )
        clocks.arrange(DOWN, aligned_edge=LEFT, buff=0.3).move_to(np.array([0.0, 0.2, 0.0]))
        with self.cue("takeaway") as cue:
            self.swap(
                [heat, frame, axis, pair_rule, counted, worst, legend, eps_note, a3],
                FadeIn(clocks, lag_ratio=0.4),
                run_time=cue.share(0.5),
            )

    def _legend(self, corner: np.ndarray) -> VGroup:
        """The colour scale: LOW at 0 ε … HIGH at VMAX_EPS, as a strip of steps."""
        steps = 10
        strip = VGroup(
            *[
                Rectangle(
                    width=0.22,
                    height=0.26,
                    stroke_width=0,
                    fill_opacity=1,
                    fill_color=interpolate_color(ManimColor(LOW), ManimColor(HIGH), s / (steps - 1)),
                )
                for s in range(steps)
            ]
        ).arrange(RIGHT, buff=0)
        ends = VGroup(
            theme.small_text("0", color=theme.TEXT), theme.small_text(f"{self.VMAX_EPS:g} ε", color=theme.TEXT)
        )
        name = theme.small_text("颜色：偏差", color=theme.TEXT)
        name.next_to(corner, RIGHT, buff=0)
        ends[0].next_to(name, RIGHT, buff=0.25)
        strip.next_to(ends[0], RIGHT, buff=0.12)
        ends[1].next_to(strip, RIGHT, buff=0.12)
        return VGroup(name, ends[0], strip, ends[1])
