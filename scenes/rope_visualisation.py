"""把旋转画出来: one word stepping seat by seat (turned seat × θ), four speeds at once (d = 8), and
the q·k curve against distance, unchanged while both words slide along the seats."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arc,
    Circle,
    Create,
    DashedLine,
    DashedVMobject,
    Dot,
    FadeIn,
    FadeOut,
    Line,
    Square,
    ValueTracker,
    VGroup,
    VMobject,
    linear,
)

import mathcore
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import ClockRow, LabeledNumber, ScoreCurve, TurningArrow
from scenes.mobjects.clock_row import TwoLines
from scenes.mobjects.colored_text import colored, rich

CENTER = np.array([-3.3, 0.2, 0.0])
SCALE = 1.9
PANEL_X = 3.4
ARC_R = 0.55


class RopeVisualisation(NarratedScene):
    """pointer (seats 0–3: the turn, its arc and its label) → multi (d = 8: four speeds, how far each
    hand has turned) → curve (q·k against distance; q and k slide together, the curve stays).

    The pointer is ``figures.ROPE_PAIR_Q`` turned by :func:`mathcore.rope_2d`; the clocks are
    ``ClockRow(d=D)``; the curve is :func:`mathcore.rope_scores` of ``CURVE_Q``, ``CURVE_K``.
    """

    SCENE_IDS = ("rope_visualisation",)
    CUES = ("pointer", "multi", "curve")
    BOOKMARKS = {"pointer": ("turn",), "multi": ("run",), "curve": ("shift",)}
    SEATS = (0, 1, 2, 3)
    D = 8  # as in clock_row and minimal_rope: speeds 1, 0.1, 0.01, 0.001
    MULTI_TO = 40.0  # the position the clocks run to (said in the narration)
    CURVE_Q = (0.496, 0.099, 0.397, 0.298, 0.347, 0.447, 0.298, 0.298)  # unit vectors, q ≠ k
    CURVE_K = (0.200, 0.499, 0.449, 0.200, 0.299, 0.399, 0.399, 0.249)
    CURVE_MAX = 30
    GAP = 6  # k sits this many seats after q
    SHIFT = 20.0  # how far both words move in `curve`

    def construct(self) -> None:
        header = self.header()
        self._pointer(header)
        self._multi()
        self._curve()

    # -- pointer: the same word at seats 0, 1, 2, 3 turns one fixed step per seat ---------------------
    def _pointer(self, header) -> None:
        theta = float(np.radians(figures.THETA_DEG))
        v = np.asarray(figures.ROPE_PAIR_Q, dtype=float)
        base = float(np.arctan2(v[1], v[0]))
        axes = VGroup(
            Line(CENTER + 2.5 * LEFT, CENTER + 2.5 * RIGHT, color=theme.MUTED, stroke_width=2),
            Line(CENTER + 2.4 * DOWN, CENTER + 2.5 * UP, color=theme.MUTED, stroke_width=2),
        )
        ring = DashedVMobject(
            Circle(radius=SCALE * np.linalg.norm(v), color=theme.MUTED, stroke_width=2).move_to(CENTER), num_dashes=48
        )
        seat = ValueTracker(0.0)
        arrow = TurningArrow(v, scale=SCALE, center=CENTER, color=theme.Q)  # the word's q: theme.Q
        arrow.add_updater(lambda m: m.set_angle(seat.get_value() * theta))
        start = TurningArrow(v, scale=SCALE, center=CENTER, color=theme.Q, opacity=theme.GHOST_OPACITY)
        tip0 = start.tip_point()
        start_label = theme.small_text("0", color=theme.POSITION).move_to(
            tip0 + 0.3 * (tip0 - CENTER) / np.linalg.norm(tip0 - CENTER)
        )
        arc = Arc(radius=ARC_R, start_angle=base, angle=1e-4, arc_center=CENTER, color=theme.ANGLE, stroke_width=5)

        def sync_arc(m) -> None:
            turn = max(seat.get_value() * theta, 1e-4)
            m.become(
                Arc(radius=ARC_R, start_angle=base, angle=turn, arc_center=CENTER, color=theme.ANGLE, stroke_width=5)
            )

        arc.add_updater(sync_arc)
        sync_arc(arc)
        strip = VGroup(*[Square(0.7, color=theme.MUTED, stroke_width=2) for _ in self.SEATS]).arrange(RIGHT, buff=0)
        strip.move_to(np.array([PANEL_X, -1.15, 0.0]))
        nums = VGroup(
            *[
                theme.small_text(str(s), color=theme.POSITION).next_to(sq, DOWN, buff=0.12)
                for s, sq in zip(self.SEATS, strip)
            ]
        )
        chip = theme.small_text("词", color=theme.TEXT)
        chip.add_updater(lambda m: m.move_to(strip[0].get_center() + seat.get_value() * 0.7 * RIGHT))
        counter = LabeledNumber("位置 m =", 0, decimals=0, color=theme.POSITION, label_color=theme.POSITION)
        counter.move_to(np.array([PANEL_X, 2.5, 0.0]))
        counter.add_updater(lambda m: m.set_value(float(np.round(seat.get_value()))))
        turned = LabeledNumber("转过", 0, decimals=0, suffix="°", color=theme.ANGLE, label_color=theme.TEXT)
        turned.next_to(counter, DOWN, buff=0.4).align_to(counter, LEFT)
        turned.add_updater(lambda m: m.set_value(float(np.degrees(seat.get_value() * theta))))
        step = rich("每挪一个位置，多转 " + colored(f"$theta = {figures.THETA_DEG:g} degree$", theme.ANGLE))
        step.move_to(np.array([PANEL_X, 0.6, 0.0]))
        rule = rich("转过 = " + colored("$m$", theme.POSITION) + " × " + colored("$theta$", theme.ANGLE))
        rule.next_to(step, DOWN, buff=0.3)
        self.watch(
            "pointer",
            lambda: {
                "seat": float(seat.get_value()),
                "theta": theta,
                **arrow.probe_values(),
                "arrow": [arrow.arrow.get_start().tolist(), arrow.arrow.get_end().tolist()],
                "start_arrow": [start.arrow.get_start().tolist(), start.arrow.get_end().tolist()],
                "arc": [arc.get_arc_center().tolist(), arc.get_start().tolist(), arc.get_end().tolist()],
                "chip": chip.get_center().tolist(),
                "squares": [sq.get_center().tolist() for sq in strip],
                "square_nums": [t.text for t in nums],
                "counter": counter.shown_text(),
                "turned": turned.shown_text(),
                "step": step.typst_code,
                "on_screen": self.on_screen(arrow),
                "arc_on_screen": self.on_screen(arc),
                "counter_on_screen": self.on_screen(counter),
                "turned_on_screen": self.on_screen(turned),
                "step_on_screen": self.on_screen(step),
            },
        )
        with self.cue("pointer") as cue:
            self.play(
                FadeIn(header),
                Create(axes),
                Create(ring),
                FadeIn(start),
                FadeIn(start_label),
                FadeIn(arrow),
                FadeIn(arc),
                FadeIn(strip),
                FadeIn(nums),
                FadeIn(chip),
                FadeIn(counter),
                FadeIn(turned),
                run_time=cue.share(0.15),
            )
            # seats 1 and 2 before the bookmark, seat 3 while the step is named
            per = cue.frames_until("turn") // 2
            for k in (1, 2):
                self.play_frames(seat.animate.set_value(float(k)), frames=max(1, int(0.6 * per)))
                self.hold_to(cue.bookmark("turn") if k == 2 else self.frame + per - int(0.6 * per))
            self.play(seat.animate.set_value(float(self.SEATS[-1])), FadeIn(step), run_time=cue.share(0.15))
            self.hold_frames(max(0, min(int(0.2 * self.fps), cue.frames_remaining() - int(self.fps))))
            self.play(FadeIn(rule), run_time=cue.remaining())
        self.pointer_group = VGroup(
            axes, ring, start, start_label, arrow, arc, strip, nums, chip, counter, turned, step, rule
        )
        self.pointer_updated = (arrow, arc, chip, counter, turned)

    # -- multi: four pairs turning at their own speeds, all at once ----------------------------------
    def _multi(self) -> None:
        clocks = ClockRow(d=self.D, radius=1.0, spacing=3.5, center=np.array([0.0, 0.55, 0.0]))
        clocks.counter.move_to(np.array([0.0, 2.8, 0.0]))
        speed_labels = VGroup(
            *[
                TwoLines("每个位置转", f"{figures.fmt_dec(wi, 3)} 弧度", color=theme.ANGLE).next_to(
                    face, DOWN, buff=0.2
                )
                for wi, face in zip(clocks.w, clocks.faces)
            ]
        )
        turned = VGroup()
        for i, lab in enumerate(speed_labels):
            r = LabeledNumber(
                "转过",
                0,
                decimals=0,
                suffix="°",
                color=theme.ANGLE,
                label_color=theme.TEXT,
                font_size=theme.SIZE_SMALL,
                group_with_commas=False,
            )
            r.next_to(lab, DOWN, buff=0.25)
            r.add_updater(lambda m, i=i: m.set_value(float(np.degrees(clocks.hand_angles()[i]))))
            turned.add(r)
        self.watch(
            "clocks",
            lambda: {
                **clocks.probe_values(),
                "turned": [r.shown_text() for r in turned],
                "hands": [[h.get_start().tolist(), h.get_end().tolist()] for h in clocks.hands],
                "speeds": [t.text for t in speed_labels],
                "on_screen": self.on_screen(clocks.hands),
                "turned_on_screen": self.on_screen(turned),
            },
        )
        radian = theme.small_text(f"1 弧度 ≈ {figures.value('one_rad_deg')}°", color=theme.ANGLE)
        radian.move_to(np.array([4.6, 2.8, 0.0]))
        with self.cue("multi") as cue:
            self.play(FadeOut(self.pointer_group), run_time=cue.share(0.1))
            for mob in self.pointer_updated:
                mob.clear_updaters()
            self.play(FadeIn(clocks), FadeIn(clocks.counter), run_time=cue.share(0.15))
            self.play(FadeIn(speed_labels, lag_ratio=0.3), FadeIn(turned), FadeIn(radian), run_time=cue.until("run"))
            self.play(
                clocks.make_step_animation(self.MULTI_TO, rate_func=linear),
                run_time=min(cue.share(0.45), cue.remaining()),
            )
            cue.hold()
        self.multi_group = VGroup(clocks, clocks.counter, speed_labels, turned, radian)
        self.multi_updated = (clocks, clocks.hands, clocks.counter, *turned)

    # -- curve: q·k against distance; q and k slide along the seats together, the curve stays ---------
    def _curve(self) -> None:
        q = np.asarray(self.CURVE_Q, dtype=float)
        k = np.asarray(self.CURVE_K, dtype=float)
        dist = np.linspace(0, self.CURVE_MAX, 121)
        start = ValueTracker(0.0)
        chart = ScoreCurve(
            dist,
            [mathcore.rope_scores(q, k, dist, m=0.0)],
            names=[f"q·k（{self.D} 维）"],
            x_range=(0, self.CURVE_MAX, 5),
            y_range=(0.0, 1.0, 0.5),
            x_length=8.5,
            y_length=2.5,
            center=np.array([-0.2, -0.55, 0.0]),
            colors=(theme.SCORE,),
            x_label="距离 n − m",
            y_label="点积",
        )
        ghost_curve = chart.curves[0].copy().set_stroke(color=theme.MUTED, width=9, opacity=0.5)

        def x_of(seat: float) -> float:
            return float(chart.axes.c2p(seat, 0.0)[0])

        # the seats, on the same scale as the distance axis
        y_strip = 2.0
        strip = Line(
            np.array([x_of(0), y_strip, 0.0]),
            np.array([x_of(self.CURVE_MAX), y_strip, 0.0]),
            color=theme.MUTED,
            stroke_width=3,
        )
        strip_ticks = VGroup(
            *[
                Line(
                    np.array([x_of(s), y_strip - 0.08, 0.0]),
                    np.array([x_of(s), y_strip + 0.08, 0.0]),
                    color=theme.MUTED,
                    stroke_width=2,
                )
                for s in range(self.CURVE_MAX + 1)
            ]
        )
        strip_nums = VGroup(
            *[
                theme.small_text(str(s), color=theme.POSITION).next_to(
                    np.array([x_of(s), y_strip - 0.08, 0.0]), DOWN, buff=0.1
                )
                for s in range(0, self.CURVE_MAX + 1, 10)
            ]
        )
        strip_name = theme.small_text("位置", color=theme.POSITION).next_to(strip, LEFT, buff=0.3)
        q_dot, k_dot = Dot(radius=0.11, color=theme.Q), Dot(radius=0.11, color=theme.K)
        q_lab, k_lab = theme.small_text("q", color=theme.Q), theme.small_text("k", color=theme.K)
        gap_lab = theme.small_text(f"隔 {self.GAP} 个位置", color=theme.TEXT)

        def place_words(_=None) -> None:
            m = start.get_value()
            q_dot.move_to(np.array([x_of(m), y_strip, 0.0]))
            k_dot.move_to(np.array([x_of(m + self.GAP), y_strip, 0.0]))
            q_lab.next_to(q_dot, UP, buff=0.12)
            k_lab.next_to(k_dot, UP, buff=0.12).align_to(q_lab, DOWN)
            gap_lab.move_to(np.array([(q_dot.get_x() + k_dot.get_x()) / 2, q_lab.get_top()[1] + 0.28, 0.0]))

        words = VGroup(q_dot, k_dot, q_lab, k_lab, gap_lab)
        words.add_updater(place_words)
        place_words()
        # the point of the curve at the words' distance, with its drop line to the axis
        point = Dot(radius=0.1, color=theme.SCORE)
        drop = VMobject()

        def place_point(_=None) -> None:
            y = float(mathcore.rope_scores(q, k, [self.GAP], m=start.get_value())[0])
            point.move_to(chart.axes.c2p(self.GAP, y))
            drop.become(
                DashedLine(chart.axes.c2p(self.GAP, 0.0), point.get_center(), color=theme.MUTED, stroke_width=2)
            )

        point.add_updater(place_point)
        drop.add_updater(place_point)
        place_point()

        def redraw(m: VMobject) -> None:
            ys = mathcore.rope_scores(q, k, dist, m=start.get_value())
            m.set_points_as_corners([chart.axes.c2p(x, y) for x, y in zip(dist, ys)])

        m_counter = LabeledNumber(
            "q 在位置", 0, decimals=0, color=theme.POSITION, label_color=theme.TEXT, font_size=theme.SIZE_SMALL
        )
        m_counter.move_to(np.array([4.9, 2.95, 0.0]))
        m_counter.add_updater(lambda m: m.set_value(float(np.round(start.get_value()))))
        same = theme.body_text("一起挪：间隔不变，曲线不变", color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL)
        same.move_to(np.array([chart.axes.get_x(), 1.12, 0.0]))
        self.watch(
            "curve",
            lambda: {
                "m": float(start.get_value()),
                "drawn": chart.drawn_samples(0).tolist(),
                "q_dot": q_dot.get_center().tolist(),
                "k_dot": k_dot.get_center().tolist(),
                "gap_text": gap_lab.text,
                "seat0_x": x_of(0),
                "seat1_x": x_of(1),
                "point": [float(c) for c in chart.axes.p2c(point.get_center())],
                "m_text": m_counter.shown_text(),
                "m_on_screen": self.on_screen(m_counter),
                "on_screen": self.on_screen(chart.curves[0]),
                "words_on_screen": self.on_screen(words),
                "point_on_screen": self.on_screen(point),
            },
        )
        with self.cue("curve") as cue:
            pre = cue.frames_until("shift")
            self.play_frames(FadeOut(self.multi_group), frames=max(1, int(0.15 * pre)))
            for mob in self.multi_updated:
                mob.clear_updaters()
            self.play_frames(
                FadeIn(chart.axes),
                FadeIn(chart.ticks),
                FadeIn(chart.x_label),
                FadeIn(chart.y_label),
                FadeIn(chart.legend),
                FadeIn(strip),
                FadeIn(strip_ticks),
                FadeIn(strip_nums),
                FadeIn(strip_name),
                FadeIn(words),
                frames=max(1, int(0.25 * pre)),
            )
            self.play_frames(chart.make_draw_animation(0), frames=max(1, int(0.35 * pre)))
            self.add(ghost_curve, chart.curves[0])
            chart.curves[0].add_updater(redraw)
            self.play(FadeIn(drop), FadeIn(point), FadeIn(m_counter), run_time=cue.until("shift"))
            self.hold_to(cue.bookmark("shift"))
            self.play(start.animate.set_value(self.SHIFT), run_time=cue.share(0.4))
            self.play(FadeIn(same), run_time=cue.remaining())
