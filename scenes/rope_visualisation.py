"""把旋转画出来: one pointer stepping by θ, several speeds at once, and the score-vs-distance curve."""
from __future__ import annotations

import numpy as np
from manim import (
    DOWN, LEFT, RIGHT, UP, Circle, Create, DashedVMobject, FadeIn, FadeOut, Line, Square, ValueTracker,
    VGroup, VMobject, linear,
)

import mathcore
from coursekit import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import ClockRow, LabeledNumber, ScoreCurve, TurningArrow
from scenes.mobjects.colored_text import colored, rich

CENTER = np.array([-3.3, 0.2, 0.0])
SCALE = 1.9


class RopeVisualisation(NarratedScene):
    """pointer (seats 0–3, a fixed step each) → multi (4 speeds at once) → curve (score vs distance,
    unchanged when both words shift).

    The pointer is ``figures.ROPE_PAIR_Q`` turned by :func:`mathcore.rope_2d`; the clocks are
    ``ClockRow(d=MULTI_D)``; the curve is :func:`mathcore.rope_scores` of ``CURVE_Q``.
    """

    SCENE_IDS = ("rope_visualisation",)
    CUES = ("pointer", "multi", "curve")
    SEATS = (0, 1, 2, 3)
    MULTI_D = 16
    MULTI_INDICES = (0, 1, 2, 3)
    MULTI_TO = 24.0                 # the position the clocks run to
    CURVE_D = 16
    CURVE_Q = tuple([0.25] * 16)    # a unit vector: score 1 at distance 0
    CURVE_MAX = 30
    SHIFT = 20.0                    # how far both words move in `curve`

    def construct(self) -> None:
        theta = float(np.radians(figures.THETA_DEG))
        v = np.asarray(figures.ROPE_PAIR_Q, dtype=float)
        header = self.header()

        # -- pointer: the same word at seats 0, 1, 2, 3 turns one fixed step per seat ---------------
        axes = VGroup(Line(CENTER + 2.5 * LEFT, CENTER + 2.5 * RIGHT, color=theme.MUTED, stroke_width=2),
                      Line(CENTER + 2.4 * DOWN, CENTER + 2.5 * UP, color=theme.MUTED, stroke_width=2))
        ring = DashedVMobject(Circle(radius=SCALE * np.linalg.norm(v), color=theme.MUTED, stroke_width=2)
                              .move_to(CENTER), num_dashes=48)
        seat = ValueTracker(0.0)
        arrow = TurningArrow(v, scale=SCALE, center=CENTER, color=theme.TEXT)
        arrow.add_updater(lambda m: m.set_angle(seat.get_value() * theta))
        strip = VGroup(*[Square(0.7, color=theme.MUTED, stroke_width=2) for _ in self.SEATS]).arrange(RIGHT, buff=0)
        strip.move_to(np.array([3.4, -0.6, 0.0]))
        nums = VGroup(*[theme.small_text(str(s), color=theme.POSITION).next_to(sq, DOWN, buff=0.12)
                        for s, sq in zip(self.SEATS, strip)])
        chip = theme.small_text("词", color=theme.TEXT)
        chip.add_updater(lambda m: m.move_to(strip[0].get_center() + seat.get_value() * 0.7 * RIGHT))
        counter = LabeledNumber("位置 p =", 0, decimals=0, color=theme.POSITION, label_color=theme.POSITION)
        counter.move_to(np.array([3.4, 1.9, 0.0]))
        counter.add_updater(lambda m: m.set_value(float(np.floor(seat.get_value() + 1e-9))))
        step = rich("每挪一格，多转 " + colored(f"$theta = {figures.THETA_DEG:g} degree$", theme.ANGLE))
        step.move_to(np.array([3.4, 1.1, 0.0]))
        self.watch("pointer", lambda: {**arrow.probe_values(), "seat": float(seat.get_value()), "theta": theta,
                                       "on_screen": self.on_screen(arrow)})
        ghosts = VGroup()
        with self.cue("pointer") as cue:
            self.play(FadeIn(header), Create(axes), Create(ring), FadeIn(arrow), FadeIn(strip), FadeIn(nums),
                      FadeIn(chip), FadeIn(counter), run_time=cue.share(0.2))
            self.play(FadeIn(step), run_time=cue.share(0.12))
            per_step = max(2, cue.frames_remaining() // (len(self.SEATS) - 1))
            for k in self.SEATS[1:]:
                ghost = arrow.arrow.copy().set_opacity(theme.GHOST_OPACITY)
                tip = mathcore.rope_2d(v, k - 1, theta)
                label = theme.small_text(str(k - 1), color=theme.POSITION).move_to(
                    CENTER + (SCALE + 0.3) * np.array([tip[0], tip[1], 0.0]))
                ghosts.add(ghost, label)
                self.add(ghost, label)
                turn = max(1, min(int(per_step * 0.6), cue.frames_remaining() - (len(self.SEATS) - 1 - k)))
                self.play_frames(seat.animate.set_value(float(k)), frames=turn)
                if k < self.SEATS[-1]:
                    self.hold_frames(max(0, min(per_step - turn, cue.frames_remaining() - (len(self.SEATS) - 1 - k))))
            final = theme.small_text(str(self.SEATS[-1]), color=theme.POSITION).move_to(
                CENTER + (SCALE + 0.3) * np.append(mathcore.rope_2d(v, self.SEATS[-1], theta), 0.0))
            ghosts.add(final)
            if cue.frames_remaining() > 0:
                self.play(FadeIn(final), run_time=cue.remaining())

        # -- multi: pairs turning at different speeds all at once -------------------------------------
        clocks = ClockRow(d=self.MULTI_D, indices=self.MULTI_INDICES, radius=1.0, spacing=3.3,
                          center=np.array([0.0, 0.45, 0.0]))
        clocks.counter.move_to(np.array([0.0, 2.95, 0.0]))
        speed_labels = VGroup(*[theme.small_text(f"转速 {figures.fmt_dec(wi, 2)}", color=theme.ANGLE)
                                .next_to(face, DOWN, buff=0.2) for wi, face in zip(clocks.w, clocks.faces)])
        near = theme.body_text("快：照顾邻近", color=theme.TEXT).next_to(speed_labels[0], DOWN, buff=0.35)
        far = theme.body_text("慢：照顾远方", color=theme.TEXT).next_to(speed_labels[-1], DOWN, buff=0.35)
        self.watch("clocks", lambda: {**clocks.probe_values(), "on_screen": self.on_screen(clocks.hands)})
        with self.cue("multi") as cue:
            self.play(FadeOut(VGroup(axes, ring, arrow, strip, nums, chip, counter, step, ghosts)),
                      run_time=cue.share(0.12))
            for mob in (arrow, chip, counter):
                mob.clear_updaters()
            self.play(FadeIn(clocks), FadeIn(speed_labels), FadeIn(clocks.counter), run_time=cue.share(0.18))
            self.play(clocks.make_step_animation(0.45 * self.MULTI_TO, rate_func=linear), run_time=cue.share(0.35))
            self.play(clocks.make_step_animation(0.75 * self.MULTI_TO, rate_func=linear), FadeIn(near),
                      run_time=cue.share(0.2))
            self.play(clocks.make_step_animation(self.MULTI_TO), FadeIn(far), run_time=cue.remaining())

        # -- curve: score against distance; shifting both words leaves it unchanged ---------------------
        q = np.asarray(self.CURVE_Q, dtype=float)
        dist = np.linspace(0, self.CURVE_MAX, 121)
        start = ValueTracker(0.0)
        chart = ScoreCurve(dist, [mathcore.rope_scores(q, q, dist, m=0.0)], names=[f"q·k（{self.CURVE_D} 维）"],
                           x_range=(0, self.CURVE_MAX, 5), y_range=(-0.5, 1.0, 0.5), x_length=8.5, y_length=3.4,
                           center=np.array([-0.6, 0.45, 0.0]), colors=(theme.SCORE,))
        chart.y_label.next_to(chart.axes.y_axis, UP, buff=0.4)
        ghost_curve = chart.curves[0].copy().set_stroke(color=theme.MUTED, width=9, opacity=0.5)

        def redraw(m: VMobject) -> None:
            ys = mathcore.rope_scores(q, q, dist, m=start.get_value())
            m.set_points_as_corners([chart.axes.c2p(x, y) for x, y in zip(dist, ys)])

        shift_counter = LabeledNumber("两词起点 m =", 0, decimals=0, color=theme.POSITION, label_color=theme.POSITION,
                                      font_size=theme.SIZE_SMALL)
        shift_counter.move_to(np.array([3.2, 2.95, 0.0]))
        shift_counter.add_updater(lambda m: m.set_value(float(np.round(start.get_value()))))
        same = theme.body_text("整体平移，曲线形状不变", color=theme.HIGHLIGHT).move_to(np.array([-0.6, -2.1, 0.0]))
        self.watch("curve", lambda: {"m": float(start.get_value()), "drawn": chart.drawn_samples(0).tolist(),
                                     "on_screen": self.on_screen(chart.curves[0])})
        with self.cue("curve") as cue:
            self.play(FadeOut(VGroup(clocks, speed_labels, clocks.counter, near, far)), run_time=cue.share(0.12))
            clocks.clear_updaters()
            clocks.hands.clear_updaters()
            self.play(FadeIn(chart.axes), FadeIn(chart.ticks), FadeIn(chart.x_label), FadeIn(chart.y_label),
                      FadeIn(chart.legend), run_time=cue.share(0.13))
            self.play(chart.make_draw_animation(0), run_time=cue.share(0.25))
            self.add(ghost_curve, chart.curves[0])
            chart.curves[0].add_updater(redraw)
            self.play(FadeIn(shift_counter), run_time=cue.share(0.08))
            self.play(start.animate.set_value(self.SHIFT), FadeIn(same), run_time=min(cue.share(0.35), cue.remaining()))
            cue.hold()
