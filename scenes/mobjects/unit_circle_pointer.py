"""The unit-circle pointer: a pointer turned by θ whose tip is (cos θ, sin θ)."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Animation,
    Arc,
    Circle,
    DashedLine,
    Dot,
    Line,
    ValueTracker,
    VGroup,
)

import mathcore
from scenes import theme
from scenes.mobjects.readout import LabeledNumber
from scenes.mobjects.segment import place_segment


class UnitCirclePointer(VGroup):
    """Circle, axes, a pointer at angle θ, its projections and a traced path.

    Everything drawn derives from the tracker ``theta`` through
    :func:`mathcore.pointer_tip`; one updater keeps the parts in sync.
    ``readout`` is a separate group (θ, cos θ, sin θ) so a scene can add it later.

    Parameters
    ----------
    radius : float
        Scene units per unit-circle unit.
    center : array
        Centre of the circle in scene coordinates.
    angle : float
        Starting angle in radians.
    """

    def __init__(
        self,
        *,
        radius: float = 2.0,
        center: np.ndarray = ORIGIN,
        angle: float = 0.0,
        readout_font_size: float = theme.SIZE_BODY,
    ) -> None:
        super().__init__()
        self.radius = float(radius)
        self.center_point = np.array(center, dtype=float)
        self.theta = ValueTracker(float(angle))
        self.trace_start: float | None = None
        c, r = self.center_point, self.radius
        ext = r + 0.35
        self.axes = VGroup(
            Line(c + ext * LEFT, c + ext * RIGHT, color=theme.MUTED, stroke_width=2),
            Line(c + ext * DOWN, c + ext * UP, color=theme.MUTED, stroke_width=2),
        )
        self.axis_labels = VGroup(
            theme.small_text("x").next_to(c + ext * RIGHT, DOWN, buff=0.08),
            theme.small_text("y").next_to(c + ext * UP, RIGHT, buff=0.08),
        )
        self.circle = Circle(radius=r, color=theme.MUTED, stroke_width=2).move_to(c)
        self.cos_segment = Line(c, c + r * RIGHT, color=theme.COS, stroke_width=7)
        self.sin_segment = Line(c, c + r * RIGHT, color=theme.SIN, stroke_width=7)
        self.cos_drop = DashedLine(c, c + r * RIGHT, color=theme.COS, stroke_width=2)
        self.sin_drop = DashedLine(c, c + r * RIGHT, color=theme.SIN, stroke_width=2)
        self.projections = VGroup(self.cos_segment, self.sin_segment, self.cos_drop, self.sin_drop)
        self.angle_arc = Arc(radius=0.45, start_angle=0, angle=0.001, arc_center=c, color=theme.ANGLE, stroke_width=4)
        self.trace = Arc(radius=r, start_angle=0, angle=0.001, arc_center=c, color=theme.HIGHLIGHT, stroke_width=6)
        self.trace.set_stroke(opacity=0)
        self.pointer = Line(c, c + r * RIGHT, color=theme.TEXT, stroke_width=6)
        self.tip_dot = Dot(c + r * RIGHT, radius=0.09, color=theme.ANGLE)
        self.projections.set_stroke(opacity=0)
        self.add(
            self.axes,
            self.axis_labels,
            self.circle,
            self.trace,
            self.angle_arc,
            self.projections,
            self.pointer,
            self.tip_dot,
        )

        fs = readout_font_size
        self.angle_readout = LabeledNumber("θ =", 0, decimals=0, suffix="°", color=theme.ANGLE, font_size=fs)
        self.cos_readout = LabeledNumber("cos θ =", 1, decimals=2, color=theme.COS, font_size=fs)
        self.sin_readout = LabeledNumber("sin θ =", 0, decimals=2, color=theme.SIN, font_size=fs)
        self.readout = VGroup(self.angle_readout, self.cos_readout, self.sin_readout)
        self.readout.arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        self.readout.add_updater(lambda m: self._sync_readout())
        self.add_updater(lambda m: (self._sync(), self._sync_projections()))
        self._sync()
        self._sync_projections()
        self._sync_readout()

    # -- state -----------------------------------------------------------------
    def angle(self) -> float:
        return float(self.theta.get_value())

    def tip_point(self) -> np.ndarray:
        """Scene point of the tip, from mathcore."""
        x, y = mathcore.pointer_tip(self.angle(), r=self.radius)
        return self.center_point + np.array([x, y, 0.0])

    def set_angle(self, theta: float) -> "UnitCirclePointer":
        self.theta.set_value(float(theta))
        self._sync()
        self._sync_projections()
        self._sync_readout()
        return self

    def start_trace(self) -> "UnitCirclePointer":
        """From now on, draw the path the tip sweeps."""
        self.trace_start = self.angle()
        self.trace.set_stroke(opacity=1)
        return self

    # -- animations ----------------------------------------------------------
    def make_projections_animation(self, **kwargs) -> Animation:
        """Show the cos (x) and sin (y) readings as segments on the axes."""
        return self.projections.animate(**kwargs).set_stroke(opacity=1)

    def make_turn_animation(self, to_angle: float, **kwargs) -> Animation:
        """Turn the pointer to ``to_angle`` (radians; may exceed 2π for full turns)."""
        return self.theta.animate(**kwargs).set_value(float(to_angle))

    # -- sync (updaters) -------------------------------------------------------
    def _sync(self) -> None:
        c, tip, theta = self.center_point, self.tip_point(), self.angle()
        place_segment(self.pointer, c, tip)
        self.tip_dot.move_to(tip)
        shown = theta % (2 * np.pi)
        self.angle_arc.become(
            Arc(radius=0.45, start_angle=0, angle=max(shown, 1e-4), arc_center=c, color=theme.ANGLE, stroke_width=4)
        )
        if self.trace_start is not None:
            sweep = theta - self.trace_start
            style = dict(color=theme.HIGHLIGHT, stroke_width=6)
            self.trace.become(
                Arc(
                    radius=self.radius,
                    start_angle=self.trace_start,
                    angle=sweep if abs(sweep) > 1e-4 else 1e-4,
                    arc_center=c,
                    **style,
                )
            )

    def _sync_projections(self) -> None:
        c, tip = self.center_point, self.tip_point()
        foot_x = np.array([tip[0], c[1], 0.0])
        foot_y = np.array([c[0], tip[1], 0.0])
        for seg, a, b in (
            (self.cos_segment, c, foot_x),
            (self.sin_segment, c, foot_y),
            (self.cos_drop, tip, foot_x),
            (self.sin_drop, tip, foot_y),
        ):
            if np.linalg.norm(b - a) < 1e-3:
                b = a + np.array([1e-3, 0, 0])
            place_segment(seg, a, b)

    def _sync_readout(self) -> None:
        theta = self.angle()
        x, y = mathcore.pointer_tip(theta)
        self.angle_readout.set_value(float(round(np.degrees(theta)) % 360))
        self.cos_readout.set_value(float(x))
        self.sin_readout.set_value(float(y))

    # -- probes --------------------------------------------------------------
    def drawn(self) -> dict:
        """Raw points of what is drawn, and the readouts as shown: for label-equals-drawing tests."""
        return {
            "center": self.pointer.get_start().tolist(),
            "pointer_point": self.pointer.get_end().tolist(),
            "circle_radius": self.circle.width / 2,
            "arc_start": self.angle_arc.get_start().tolist(),
            "arc_end": self.angle_arc.get_end().tolist(),
            "cos_end": self.cos_segment.get_end().tolist(),
            "sin_end": self.sin_segment.get_end().tolist(),
            "projections_shown": bool(self.cos_segment.get_stroke_opacity() > 0),
            "deg_text": self.angle_readout.shown_text(),
            "cos_text": self.cos_readout.shown_text(),
            "sin_text": self.sin_readout.shown_text(),
        }

    def probe_values(self) -> dict:
        """What is drawn, converted back to unit-circle units."""
        c, r = self.center_point, self.radius
        tip = (self.tip_dot.get_center() - c)[:2] / r
        end = (self.pointer.get_end() - c)[:2] / r
        return {
            "theta": self.angle(),
            "tip": tip.tolist(),
            "pointer_end": end.tolist(),
            "readout_cos": self.cos_readout.get_value(),
            "readout_sin": self.sin_readout.get_value(),
            "readout_deg": self.angle_readout.get_value(),
        }
