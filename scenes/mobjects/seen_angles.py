"""One plane of RoPE as a dial: the angles it reached in training, and where a distance puts it now.

The arrow is how far k has turned past q in that plane, ``distance · ω`` with ``ω`` from the formula's base
(``angle_of(distance, base)``, e.g. :func:`narration.figures.context_angle`); the shaded sector is the range
of angles training reached, from 0 to ``seen``. Two trackers drive it: ``distance`` (seats) and ``log_base``
(log10 of the formula's 10000), so a larger base turns the arrow back into the sector.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import Circle, DashedVMobject, Sector, ValueTracker, VGroup

from scenes import theme
from scenes.mobjects.spin_arrow import SpinArrow


class SeenAngleDial(VGroup):
    """A dashed circle of ``radius`` at ``center``, the sector [0, ``seen``] (radians) and the arrow."""

    def __init__(
        self,
        angle_of: Callable[[float, float], float],
        *,
        seen: float,
        base: float = 10000.0,
        radius: float = 1.7,
        center: np.ndarray = np.zeros(3),
    ) -> None:
        super().__init__()
        self.angle_of = angle_of
        self.seen = float(seen)
        self.radius = float(radius)
        self.center_point = np.array(center, dtype=float)
        self.distance = ValueTracker(0.0)
        self.log_base = ValueTracker(float(np.log10(base)))
        self.circle = DashedVMobject(
            Circle(radius=radius, color=theme.MUTED, stroke_width=2).move_to(self.center_point), num_dashes=40
        )
        self.sector = Sector(
            radius=radius, angle=self.seen, start_angle=0.0, arc_center=self.center_point, color=theme.ANGLE
        )
        self.sector.set_fill(theme.ANGLE, opacity=0.3).set_stroke(width=0)
        self.spin = SpinArrow(
            (1.0, 0.0),
            self.angle,
            scale=radius,
            center=self.center_point,
            color=theme.K,
            stroke_width=7,
            tip_ratio=0.15,
        )
        self.arrow = self.spin.arrow
        self.add(self.sector, self.circle, self.spin)

    def base(self) -> float:
        return float(10.0 ** self.log_base.get_value())

    def angle(self) -> float:
        """The arrow's angle now (radians, not wrapped): ``angle_of(distance, base)``."""
        return float(self.angle_of(self.distance.get_value(), self.base()))

    def drawn(self) -> dict:
        """Raw points of the drawing: the arrow's ends, and the directions (degrees) of the sector's rim from
        its first to its last point on the circle."""
        d = self.sector.points - self.center_point
        rim = d[np.abs(np.linalg.norm(d, axis=1) - self.radius) < 1e-6]
        rim_deg = np.degrees(np.arctan2(rim[:, 1], rim[:, 0]))
        return {
            "center": self.center_point.tolist(),
            "radius": self.radius,
            "arrow": [self.arrow.get_start().tolist(), self.arrow.get_end().tolist()],
            "sector_deg": [float(rim_deg.min()), float(rim_deg.max())],
            "distance": float(self.distance.get_value()),
            "base": self.base(),
        }


__all__ = ["SeenAngleDial"]
