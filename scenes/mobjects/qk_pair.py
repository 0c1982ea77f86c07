"""A query and a key on one plane, turned by RoPE to their seats m and n."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    ORIGIN,
    Animation,
    AnimationGroup,
    Arc,
    Circle,
    DashedVMobject,
    ValueTracker,
    VGroup,
)

import mathcore
from scenes import theme
from scenes.mobjects.readout import LabeledNumber
from scenes.mobjects.spin_arrow import SpinArrow


class QKPair(VGroup):
    """q at seat m turned by m·θ, k at seat n turned by n·θ, the gap arc and the score.

    The score readout shows :func:`mathcore.rope_score` ``(q, k, m, n, theta)``.

    Parameters
    ----------
    q, k : sequence of 2 floats
        The vectors before turning.
    theta : float
        Radians turned per seat.
    scale : float
        Scene units per vector unit.
    """

    def __init__(
        self,
        *,
        q: Sequence[float],
        k: Sequence[float],
        theta: float,
        scale: float = 1.8,
        center: np.ndarray = ORIGIN,
        m: float = 0.0,
        n: float = 0.0,
        show_circle: bool = True,
        font_size: float = theme.SIZE_BODY,
        arc_radius: float = 0.55,
    ) -> None:
        super().__init__()
        self.q = np.asarray(q, dtype=float)
        self.k = np.asarray(k, dtype=float)
        self.theta = float(theta)
        self.scale_units = float(scale)
        self.center_point = np.array(center, dtype=float)
        self.arc_radius = float(arc_radius)
        self.m = ValueTracker(float(m))
        self.n = ValueTracker(float(n))
        c = self.center_point
        r = scale * max(np.linalg.norm(self.q), np.linalg.norm(self.k))
        self.circle = DashedVMobject(Circle(radius=r, color=theme.MUTED, stroke_width=2).move_to(c), num_dashes=40)
        if show_circle:
            self.add(self.circle)
        # q at seat m is q turned by m·θ (mathcore.rope_2d): the arrows turn stored points, never re-placed
        self.q_spin = SpinArrow(
            self.q,
            lambda: self.m.get_value() * self.theta,
            scale=scale,
            center=c,
            color=theme.Q,
            stroke_width=7,
            tip_ratio=0.18,
            live=False,
        )
        self.k_spin = SpinArrow(
            self.k,
            lambda: self.n.get_value() * self.theta,
            scale=scale,
            center=c,
            color=theme.K,
            stroke_width=7,
            tip_ratio=0.18,
            live=False,
        )
        self.q_arrow, self.k_arrow = self.q_spin.arrow, self.k_spin.arrow
        self.q_label = theme.body_text("q", color=theme.Q, font_size=font_size)
        self.k_label = theme.body_text("k", color=theme.K, font_size=font_size)
        self.gap_arc = Arc(radius=self.arc_radius, angle=0.01, arc_center=c, color=theme.ANGLE, stroke_width=5)
        self.add(self.q_arrow, self.k_arrow, self.q_label, self.k_label)
        self.score = LabeledNumber("q·k =", 0.0, decimals=2, color=theme.SCORE, font_size=font_size)
        self.score.next_to(c + r * DOWN, DOWN, buff=0.3)
        self.gap_arc.add_updater(lambda m: self._sync_arc())
        self.score.add_updater(lambda m: m.set_value(self.current_score()))
        self.add_updater(lambda m: self._sync())
        self._sync()
        self._sync_arc()
        self.score.set_value(self.current_score())

    # -- math (all from mathcore) ------------------------------------------------
    def turned_q(self) -> np.ndarray:
        return mathcore.rope_2d(self.q, self.m.get_value(), self.theta)

    def turned_k(self) -> np.ndarray:
        return mathcore.rope_2d(self.k, self.n.get_value(), self.theta)

    def current_score(self) -> float:
        return mathcore.rope_score(self.q, self.k, self.m.get_value(), self.n.get_value(), self.theta)

    def _point(self, v: np.ndarray) -> np.ndarray:
        return self.center_point + self.scale_units * np.array([v[0], v[1], 0.0])

    # -- sync -------------------------------------------------------------------
    def _sync(self) -> None:
        c = self.center_point
        for spin, label, v in (
            (self.q_spin, self.q_label, self.turned_q()),
            (self.k_spin, self.k_label, self.turned_k()),
        ):
            spin.sync()
            end = self._point(v)
            u = (end - c) / max(np.linalg.norm(end - c), 1e-9)
            label.move_to(end + 0.32 * u)

    def _sync_arc(self) -> None:
        aq = float(np.arctan2(*self.turned_q()[::-1]))
        ak = float(np.arctan2(*self.turned_k()[::-1]))
        gap = (ak - aq + np.pi) % (2 * np.pi) - np.pi
        self.gap_arc.become(
            Arc(
                radius=self.arc_radius,
                start_angle=aq,
                angle=gap if abs(gap) > 1e-4 else 1e-4,
                arc_center=self.center_point,
                color=theme.ANGLE,
                stroke_width=5,
            )
        )

    def set_positions(self, m: float, n: float) -> "QKPair":
        self.m.set_value(float(m))
        self.n.set_value(float(n))
        self._sync()
        self._sync_arc()
        self.score.set_value(self.current_score())
        return self

    # -- animations -------------------------------------------------------------
    def make_positions_animation(self, m: float, n: float, **kwargs) -> Animation:
        """Turn q to seat ``m`` and k to seat ``n`` together."""
        return AnimationGroup(
            self.m.animate(**kwargs).set_value(float(m)), self.n.animate(**kwargs).set_value(float(n))
        )

    def drawn(self) -> dict:
        """Raw points of what is drawn: the arrows' ends, the gap arc's ends, the score as shown."""
        return {
            "q_start": self.q_arrow.get_start().tolist(),
            "q_end": self.q_arrow.get_end().tolist(),
            "k_start": self.k_arrow.get_start().tolist(),
            "k_end": self.k_arrow.get_end().tolist(),
            "arc_start": self.gap_arc.get_start().tolist(),
            "arc_end": self.gap_arc.get_end().tolist(),
            "score_text": self.score.shown_text(),
        }

    def probe_values(self) -> dict:
        c, s = self.center_point, self.scale_units
        return {
            "m": float(self.m.get_value()),
            "n": float(self.n.get_value()),
            "theta": self.theta,
            "q": self.q.tolist(),
            "k": self.k.tolist(),
            "q_tip": ((self.q_arrow.get_end() - c)[:2] / s).tolist(),
            "k_tip": ((self.k_arrow.get_end() - c)[:2] / s).tolist(),
            "score": self.score.get_value(),
        }
