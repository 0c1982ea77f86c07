"""A thinking-pause countdown: a ring that empties and the whole seconds left.

The digits are pre-built Text glyphs (one per whole second), so updating the
countdown every frame only changes which glyph is opaque and re-cuts the ring;
nothing is re-typeset.
"""

from __future__ import annotations

import numpy as np
from manim import ORIGIN, PI, TAU, Arc, VGroup

from scenes import theme


class Countdown(VGroup):
    """A ring of ``radius`` around a number counting ``seconds`` down to 0.

    Call :meth:`set_frames_left` with the frames left until the pause ends: the
    number shows the whole seconds left, rounded up (so it reads 0 only when no
    time is left), and the ring keeps the share of the pause that is left.

    Examples
    --------
    ::

        clock = Countdown(5)
        clock.set_frames_left(75, fps=15)     # shows 5, full ring
        clock.set_frames_left(14, fps=15)     # shows 1
        clock.set_frames_left(0, fps=15)      # shows 0, empty ring
    """

    def __init__(
        self,
        seconds: int,
        *,
        radius: float = 0.75,
        center: np.ndarray = ORIGIN,
        color: str = theme.HIGHLIGHT,
        font_size: float = theme.SIZE_TITLE,
    ) -> None:
        super().__init__()
        if seconds < 0:
            raise ValueError(f"seconds must be >= 0, got {seconds}")
        self.seconds = int(seconds)
        self.center_point = np.array(center, dtype=float)
        self.track = Arc(
            radius=radius,
            start_angle=PI / 2,
            angle=-TAU,
            arc_center=self.center_point,
            color=theme.MUTED,
            stroke_width=6,
        ).set_stroke(opacity=0.35)
        self.full_ring = Arc(
            radius=radius, start_angle=PI / 2, angle=-TAU, arc_center=self.center_point, color=color, stroke_width=10
        )
        self.ring = self.full_ring.copy()
        # every digit stays in the family (hidden ones at opacity 0): Manim snapshots a moving
        # mobject's family when a play starts, so swapping submobjects would leave a stale glyph drawn
        self.glyphs = VGroup(
            *[
                theme.title_text(str(n), color=theme.TEXT, font_size=font_size).move_to(self.center_point)
                for n in range(self.seconds + 1)
            ]
        )
        for n, glyph in enumerate(self.glyphs):
            glyph.set_opacity(1.0 if n == self.seconds else 0.0)
        self._shown = self.seconds
        self._fraction = 1.0
        self.add(self.track, self.ring, self.glyphs)

    @staticmethod
    def whole_seconds_left(frames_left: int, fps: int) -> int:
        """Seconds left rounded up: 75 frames at 15 fps → 5, 61 → 5, 60 → 4, 1 → 1, 0 → 0."""
        return -(-max(0, int(frames_left)) // int(fps))

    def set_frames_left(self, frames_left: int, fps: int) -> "Countdown":
        n = min(self.seconds, self.whole_seconds_left(frames_left, fps))
        total = self.seconds * fps
        frac = 0.0 if total == 0 else float(np.clip(frames_left / total, 0.0, 1.0))
        if n != self._shown:
            self.glyphs[self._shown].set_opacity(0.0)
            self.glyphs[n].set_opacity(1.0)
            self._shown = n
        if frac != self._fraction:
            if frac > 0:
                self.ring.pointwise_become_partial(self.full_ring, 0.0, frac)
            else:
                self.ring.set_points(np.repeat(self.full_ring.points[:1], 4, axis=0))
            self._fraction = frac
        return self

    def shown(self) -> int:
        """The number drawn now."""
        return self._shown

    def visible_digits(self) -> list[int]:
        """The numbers whose glyphs are drawn (opacity > 0): exactly one while the countdown runs."""
        return [n for n, g in enumerate(self.glyphs) if g.get_fill_opacity() > 0]

    def probe_values(self) -> dict:
        return {"shown": self._shown, "fraction": self._fraction, "visible": self.visible_digits()}
