"""An arrow for a 2-D vector v0 turned by φ: its tip is mathcore.rotate(v0, φ)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import ORIGIN, Animation, Arrow, ValueTracker, VGroup

import mathcore
from scenes import theme


class TurningArrow(VGroup):
    """``R(φ) v0`` drawn from ``center`` with ``scale`` scene units per unit."""

    def __init__(self, v0: Sequence[float] = (1.0, 0.0), *, angle: float = 0.0, scale: float = 2.0,
                 center: np.ndarray = ORIGIN, color: str = theme.TEXT, opacity: float = 1.0,
                 stroke_width: float = 7) -> None:
        super().__init__()
        self.v0 = np.asarray(v0, dtype=float)
        self.scale_units = float(scale)
        self.center_point = np.array(center, dtype=float)
        self.phi = ValueTracker(float(angle))
        # built once at φ = 0; every later state is these points turned by φ about the centre, so
        # the drawn arrow is a function of φ alone. put_start_and_end_on turned it step by step,
        # which left float dust in its points and sheen direction that depended on how many frames
        # were drawn, so Manim's animation cache never hit after a cached (skipped) animation.
        end = self.center_point + self.scale_units * np.array([self.v0[0], self.v0[1], 0.0])
        self.arrow = Arrow(self.center_point, end, buff=0, color=color, stroke_width=stroke_width,
                           max_tip_length_to_length_ratio=0.15)
        self.arrow.set_opacity(opacity)
        self.add(self.arrow)
        self._base = [(m, m.points.copy()) for m in self.arrow.family_members_with_points()]
        self.add_updater(lambda m: self._sync())
        self._sync()

    def vector(self) -> np.ndarray:
        return mathcore.rotate(self.v0, self.phi.get_value())

    def tip_point(self) -> np.ndarray:
        v = self.vector()
        return self.center_point + self.scale_units * np.array([v[0], v[1], 0.0])

    def _sync(self) -> None:
        phi = float(self.phi.get_value())
        c, s = np.cos(phi), np.sin(phi)
        rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        for mob, pts in self._base:
            mob.points = (pts - self.center_point) @ rot.T + self.center_point

    def set_angle(self, phi: float) -> "TurningArrow":
        self.phi.set_value(float(phi))
        self._sync()
        return self

    def make_turn_animation(self, to_angle: float, **kwargs) -> Animation:
        return self.phi.animate(**kwargs).set_value(float(to_angle))

    def probe_values(self) -> dict:
        tip = (self.arrow.get_end() - self.center_point)[:2] / self.scale_units
        return {"phi": float(self.phi.get_value()), "v0": self.v0.tolist(), "tip": tip.tolist()}
