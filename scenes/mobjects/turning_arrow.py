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
        self.arrow = Arrow(self.center_point, self.center_point + np.array([1.0, 0, 0]), buff=0,
                           color=color, stroke_width=stroke_width, max_tip_length_to_length_ratio=0.15)
        self.arrow.set_opacity(opacity)
        self.add(self.arrow)
        self.add_updater(lambda m: self._sync())
        self._sync()

    def vector(self) -> np.ndarray:
        return mathcore.rotate(self.v0, self.phi.get_value())

    def tip_point(self) -> np.ndarray:
        v = self.vector()
        return self.center_point + self.scale_units * np.array([v[0], v[1], 0.0])

    def _sync(self) -> None:
        self.arrow.put_start_and_end_on(self.center_point, self.tip_point())

    def set_angle(self, phi: float) -> "TurningArrow":
        self.phi.set_value(float(phi))
        self._sync()
        return self

    def make_turn_animation(self, to_angle: float, **kwargs) -> Animation:
        return self.phi.animate(**kwargs).set_value(float(to_angle))

    def probe_values(self) -> dict:
        tip = (self.arrow.get_end() - self.center_point)[:2] / self.scale_units
        return {"phi": float(self.phi.get_value()), "v0": self.v0.tolist(), "tip": tip.tolist()}
