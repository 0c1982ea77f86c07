"""Bars of x + p, one per dimension: a word vector riding on a seat number.

Each bar is two segments: the seat part from 0 to p (``theme.POSITION``) and the
word part from p to p + x_j (neutral). The vertical scale adapts so the tallest
bar always fits, which is exactly what makes the word part vanish once p grows:
the scale bar marked "1" shrinks with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import LEFT, ORIGIN, Line, Polygon, ValueTracker, VGroup

from scenes import theme
from scenes.mobjects.segment import place_segment


def _box(x0: float, x1: float, y0: float, y1: float) -> list[np.ndarray]:
    lo, hi = min(y0, y1), max(y0, y1)
    return [np.array([x0, lo, 0.0]), np.array([x1, lo, 0.0]), np.array([x1, hi, 0.0]), np.array([x0, hi, 0.0])]


class SwampBars(VGroup):
    """``word`` (a d-vector of size ~1) plus ``encode(p)`` (a d-vector), drawn per dimension.

    Parameters
    ----------
    word : sequence of float
        The word vector x.
    encode : callable
        ``encode(p)`` returns the position code of seat p (e.g. ``mathcore.raw_index_encoding``).
    height : float
        Scene units available above the baseline; the scale is chosen so the
        largest x_j + p_j (and at least ``min_span``) fits in it.
    below : float
        Room below the baseline for negative values; the scale shrinks to fit them too.
    """

    def __init__(
        self,
        word: Sequence[float],
        encode: Callable[[float], np.ndarray],
        *,
        seat: float = 0.0,
        height: float = 3.0,
        below: float = 0.9,
        bar_width: float = 0.55,
        spacing: float = 0.95,
        min_span: float = 2.0,
        center: np.ndarray = ORIGIN,
    ) -> None:
        super().__init__()
        self.word = np.asarray(word, dtype=float)
        self.encode = encode
        self.seat = ValueTracker(float(seat))
        self.height_up, self.below, self.min_span = float(height), float(below), float(min_span)
        self.base = np.array(center, dtype=float)
        d = len(self.word)
        self.xs = [self.base[0] + (j - (d - 1) / 2) * spacing for j in range(d)]
        self.half = bar_width / 2
        self.axis = Line(
            self.base + (self.xs[0] - self.base[0] - 0.6) * np.array([1.0, 0, 0]),
            self.base + (self.xs[-1] - self.base[0] + 0.6) * np.array([1.0, 0, 0]),
            color=theme.MUTED,
            stroke_width=2,
        )
        self.seat_parts = VGroup(
            *[Polygon(*_box(0, 1, 0, 1), stroke_width=0).set_fill(theme.POSITION, 0.85) for _ in range(d)]
        )
        self.word_parts = VGroup(
            *[Polygon(*_box(0, 1, 0, 1), stroke_width=0).set_fill(theme.TEXT, 0.95) for _ in range(d)]
        )
        x_left = self.axis.get_start()[0] - 0.25
        self.scale_bar = Line(
            np.array([x_left, self.base[1], 0]),
            np.array([x_left, self.base[1] + 1, 0]),
            color=theme.TEXT,
            stroke_width=5,
        )
        self.scale_label = theme.small_text("1", color=theme.TEXT)
        self.add(self.axis, self.seat_parts, self.word_parts, self.scale_bar, self.scale_label)
        self.add_updater(lambda m: m._sync())
        self._sync()

    @property
    def p(self) -> float:
        return float(self.seat.get_value())

    def code(self) -> np.ndarray:
        return np.asarray(self.encode(self.p), dtype=float).reshape(-1)

    def unit(self) -> float:
        """Scene units per unit of value at the current seat."""
        total = self.code() + self.word
        up = self.height_up / max(self.min_span, float(np.max(total)))
        low = float(np.min(total))
        return up if low >= 0 else min(up, self.below / -low)

    def _sync(self) -> None:
        u, y0 = self.unit(), self.base[1]
        code = self.code()
        for j, x in enumerate(self.xs):
            c = code[j]
            top = c + self.word[j]
            yc = y0 + c * u
            yt = y0 + top * u
            self.seat_parts[j].set_points_as_corners(
                [*_box(x - self.half, x + self.half, y0, yc), _box(x - self.half, x + self.half, y0, yc)[0]]
            )
            self.word_parts[j].set_points_as_corners(
                [
                    *_box(x - 0.6 * self.half, x + 0.6 * self.half, yc, yt),
                    _box(x - 0.6 * self.half, x + 0.6 * self.half, yc, yt)[0],
                ]
            )
        x_left = self.scale_bar.get_start()[0]
        place_segment(self.scale_bar, np.array([x_left, y0, 0]), np.array([x_left, y0 + u, 0]))
        self.scale_label.next_to(self.scale_bar, LEFT, buff=0.1)

    def drawn_totals(self) -> list[float]:
        """The value each bar's top stands for, read back from the drawing: (top − baseline) / unit."""
        u, y0 = self.unit(), self.base[1]
        out = []
        for j in range(len(self.xs)):
            wp = self.word_parts[j]
            yc = self.seat_parts[j].get_top()[1] if self.code()[j] >= 0 else self.seat_parts[j].get_bottom()[1]
            ys = [wp.get_top()[1], wp.get_bottom()[1]]
            tip = ys[0] if abs(ys[0] - yc) > abs(ys[1] - yc) else ys[1]
            out.append((tip - y0) / u)
        return out

    def probe_values(self) -> dict:
        return {
            "p": self.p,
            "code": self.code().tolist(),
            "word": self.word.tolist(),
            "drawn": self.drawn_totals(),
            "unit": self.unit(),
        }


def log_sweep_rate(start: float, end: float) -> Callable[[float], float]:
    """A rate function that sweeps a value from ``start`` to ``end`` evenly in log scale (smoothed).

    Exact at both ends, so the last frame shows ``end`` itself.
    """
    from manim import smooth

    lo, hi = np.log(start), np.log(end)

    def rate(t: float) -> float:
        if t <= 0:
            return 0.0
        if t >= 1:
            return 1.0
        return float((np.exp(lo + smooth(t) * (hi - lo)) - start) / (end - start))

    return rate
