"""Arrows for a 2-D vector turned by an angle: the tip is ``mathcore.rotate(v0, φ)``.

A turned vector keeps its length, so the arrow is built once at φ = 0 and every later state is
those stored points turned by φ about the centre. Nothing is rebuilt per frame (the tip of a
re-placed ``Arrow`` costs a few ms), and the drawn arrow is a function of φ alone, so it does not
depend on how many frames were drawn before; Manim's animation cache hashes it, and step-by-step
``put_start_and_end_on`` left float dust that made that cache miss after a skipped animation.

- :class:`SpinArrow` reads its angle from a callable (e.g. another tracker's ``get_value``);
- :class:`TurningArrow` owns a ``ValueTracker`` ``phi`` and animates it.

:meth:`SpinArrow.probe_values` reports the drawn tip, which the tests compare with mathcore.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import ORIGIN, Animation, Arrow, ValueTracker, VGroup

import mathcore
from scenes import theme


class SpinArrow(VGroup):
    """``R(angle()) v0`` drawn from ``center``, ``scale`` scene units per unit.

    ``angle`` is a callable read on every frame while ``live``; ``tip_ratio`` is the largest tip
    length as a share of the arrow's length.
    """

    def __init__(
        self,
        v0: Sequence[float],
        angle: Callable[[], float],
        *,
        scale: float = 2.0,
        center: np.ndarray = ORIGIN,
        color: str = theme.TEXT,
        opacity: float = 1.0,
        stroke_width: float = 7,
        tip_ratio: float = 0.15,
        live: bool = True,
    ) -> None:
        super().__init__()
        self.v0 = np.asarray(v0, dtype=float)
        self.angle = angle
        self.scale_units = float(scale)
        self.center_point = np.array(center, dtype=float)
        end = self.center_point + self.scale_units * np.array([self.v0[0], self.v0[1], 0.0])
        self.arrow = Arrow(
            self.center_point,
            end,
            buff=0,
            color=color,
            stroke_width=stroke_width,
            max_tip_length_to_length_ratio=tip_ratio,
        )
        self.arrow.set_opacity(opacity)
        self.add(self.arrow)
        self._base = [(m, m.points.copy()) for m in self.arrow.family_members_with_points()]
        self._drawn_phi = float("nan")
        self.sync()
        if live:
            self.add_updater(lambda m: m.sync())

    def sync(self) -> "SpinArrow":
        """Turn the stored points to the current angle (nothing to do when it has not changed)."""
        phi = float(self.angle())
        if phi == self._drawn_phi:
            return self
        c, s = np.cos(phi), np.sin(phi)
        rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        for mob, pts in self._base:
            mob.points = (pts - self.center_point) @ rot.T + self.center_point
        self._drawn_phi = phi
        return self

    def vector(self) -> np.ndarray:
        return mathcore.rotate(self.v0, float(self.angle()))

    def tip_point(self) -> np.ndarray:
        v = self.vector()
        return self.center_point + self.scale_units * np.array([v[0], v[1], 0.0])

    def probe_values(self) -> dict:
        tip = (self.arrow.get_end() - self.center_point)[:2] / self.scale_units
        return {"phi": self._drawn_phi, "v0": self.v0.tolist(), "tip": tip.tolist()}


class TurningArrow(SpinArrow):
    """A :class:`SpinArrow` with its own angle tracker ``phi`` (radians), starting at ``angle``."""

    def __init__(
        self,
        v0: Sequence[float] = (1.0, 0.0),
        *,
        angle: float = 0.0,
        scale: float = 2.0,
        center: np.ndarray = ORIGIN,
        color: str = theme.TEXT,
        opacity: float = 1.0,
        stroke_width: float = 7,
    ) -> None:
        phi = ValueTracker(float(angle))
        super().__init__(
            v0, phi.get_value, scale=scale, center=center, color=color, opacity=opacity, stroke_width=stroke_width
        )
        self.phi = phi

    def set_angle(self, phi: float) -> "TurningArrow":
        self.phi.set_value(float(phi))
        return self.sync()

    def make_turn_animation(self, to_angle: float, **kwargs) -> Animation:
        return self.phi.animate(**kwargs).set_value(float(to_angle))
