"""Score against distance n − m, one curve per plane, on LaTeX-free axes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Animation, Axes, Create, Line, VGroup, VMobject

from scenes import theme


def tick_text(v: float) -> str:
    """A tick value as written on screen: ``0.5``, ``−1`` (the minus sign U+2212)."""
    return f"{v:g}".replace("-", "−")


class ScoreCurve(VGroup):
    """Axes with Text tick labels and one polyline per curve.

    Parameters
    ----------
    distances : array
        The x samples (distance n − m), shared by all curves.
    curves : sequence of arrays
        y samples for each curve, computed by the caller with mathcore
        (``rope_scores``, ``relative_profile`` …).
    names : sequence of str
        A legend entry per curve, shown in text colour beside a short sample of the curve's line.
    """

    def __init__(
        self,
        distances: np.ndarray,
        curves: Sequence[np.ndarray],
        *,
        names: Sequence[str],
        x_range: tuple[float, float, float],
        y_range: tuple[float, float, float],
        x_length: float = 7.0,
        y_length: float = 3.2,
        center: np.ndarray = ORIGIN,
        x_label: str = "距离 n − m",
        y_label: str = "分数",
        colors: Sequence[str] = theme.SERIES,
    ) -> None:
        super().__init__()
        self.distances = np.asarray(distances, dtype=float)
        self.curve_values = [np.asarray(c, dtype=float) for c in curves]
        self.axes = Axes(
            x_range=list(x_range),
            y_range=list(y_range),
            x_length=x_length,
            y_length=y_length,
            tips=False,
            axis_config={"include_numbers": False, "color": theme.MUTED, "stroke_width": 2},
        )
        self.x_ticks, self.y_ticks = VGroup(), VGroup()
        x0, x1, dx = x_range
        for x in np.arange(x0, x1 + dx / 2, dx):
            self.x_ticks.add(theme.small_text(tick_text(x)).next_to(self.axes.c2p(x, y_range[0]), DOWN, buff=0.12))
        y0, y1, dy = y_range
        for y in np.arange(y0, y1 + dy / 2, dy):
            self.y_ticks.add(theme.small_text(tick_text(y)).next_to(self.axes.c2p(x0, y), LEFT, buff=0.12))
        self.ticks = VGroup(self.x_ticks, self.y_ticks)
        self.x_label = theme.small_text(x_label, color=theme.TEXT).next_to(self.x_ticks[-1], RIGHT, buff=0.3)
        self.y_label = theme.small_text(y_label, color=theme.SCORE).next_to(self.axes.y_axis, UP, buff=0.3)
        self.curves = VGroup()
        for ys, color in zip(self.curve_values, colors):
            pts = [self.axes.c2p(x, y) for x, y in zip(self.distances, ys)]
            self.curves.add(VMobject(color=color, stroke_width=4).set_points_as_corners(pts))
        self.legend = VGroup()
        for n, c in zip(names, colors):
            label = theme.small_text(n, color=theme.TEXT)
            swatch = Line(ORIGIN, 0.5 * RIGHT, color=c, stroke_width=6).next_to(label, LEFT, buff=0.15)
            self.legend.add(VGroup(swatch, label))
        self.legend.arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        self.add(self.axes, self.ticks, self.x_label, self.y_label, self.curves)
        self.move_to(center)
        self.legend.next_to(self.axes, RIGHT, buff=0.3).align_to(self.axes, UP)

    def make_draw_animation(self, i: int, **kwargs) -> Animation:
        return Create(self.curves[i], **kwargs)

    def drawn_samples(self, i: int) -> np.ndarray:
        """The curve's corner points converted back to (distance, score)."""
        curve = self.curves[i]
        pts = np.vstack([curve.get_start_anchors(), curve.get_end()[None, :]])
        xy = np.array([self.axes.p2c(p) for p in pts])
        return xy
