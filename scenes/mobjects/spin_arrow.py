"""An arrow for R(φ)·v0 that turns by moving its points, never rebuilding its tip.

``TurningArrow`` re-places its arrow with ``put_start_and_end_on`` every frame,
which rebuilds the tip (a few ms each). A turned vector keeps its length, so
this arrow is built once at φ = 0 and each frame only rotates the stored
points about the centre. The tip is checked against :func:`mathcore.rotate` by
:meth:`probe_values`.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import ORIGIN, Arrow, VGroup

import mathcore
from scenes import theme


class SpinArrow(VGroup):
    """``R(angle()) v0`` drawn from ``center``, ``scale`` scene units per unit.

    ``angle`` is a callable (e.g. ``tracker.get_value``) read on every frame.
    """

    def __init__(self, v0: Sequence[float], angle: Callable[[], float], *, scale: float = 2.0,
                 center: np.ndarray = ORIGIN, color: str = theme.TEXT, opacity: float = 1.0,
                 stroke_width: float = 7, live: bool = True) -> None:
        super().__init__()
        self.v0 = np.asarray(v0, dtype=float)
        self.angle = angle
        self.scale_units = float(scale)
        self.center_point = np.array(center, dtype=float)
        end = self.center_point + self.scale_units * np.array([self.v0[0], self.v0[1], 0.0])
        self.arrow = Arrow(self.center_point, end, buff=0, color=color, stroke_width=stroke_width,
                           max_tip_length_to_length_ratio=0.15)
        self.arrow.set_opacity(opacity)
        self.add(self.arrow)
        self._base = [(m, m.points.copy()) for m in self.arrow.family_members_with_points()]
        self.phi = float("nan")
        self.sync()
        if live:
            self.add_updater(lambda m: m.sync())

    def sync(self) -> "SpinArrow":
        phi = float(self.angle())
        if phi == self.phi:
            return self
        c, s = np.cos(phi), np.sin(phi)
        rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        for mob, pts in self._base:
            mob.points = (pts - self.center_point) @ rot.T + self.center_point
        self.phi = phi
        return self

    def vector(self) -> np.ndarray:
        return mathcore.rotate(self.v0, self.phi)

    def tip_point(self) -> np.ndarray:
        v = self.vector()
        return self.center_point + self.scale_units * np.array([v[0], v[1], 0.0])

    def probe_values(self) -> dict:
        tip = (self.arrow.get_end() - self.center_point)[:2] / self.scale_units
        return {"phi": self.phi, "v0": self.v0.tolist(), "tip": tip.tolist()}
