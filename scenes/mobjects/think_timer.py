"""A thinking-pause timer: a shrinking ring and whole seconds counting down to 0.

The timer is driven by frames, not by an animation's alpha, so it lands on 0
exactly where the scene says the pause ends: :meth:`ThinkTimer.follow` attaches
an updater that reads the scene's current frame. Each drawn frame shows the time
left when that frame is replaced by the next one, ``(end - 1 - frame) / fps``,
rounded *up* to whole seconds: the first pause frame of an 8 s pause reads 8 and
the last frame of the pause reads 0.

The number is a :class:`GlyphNumber` (pre-built glyphs, no LaTeX, no Text rebuilt
per frame, the same slot mobjects all along so a running play never draws a stale
digit); only the ring is rebuilt, as a cheap Arc.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from manim import DOWN, ORIGIN, PI, Arc, Circle, VGroup

from scenes import theme
from scenes.mobjects.glyph_number import GlyphNumber


def seconds_left(frames_left: int, fps: int) -> int:
    """Whole seconds shown with ``frames_left`` frames to go after this one (ceil, never < 0)."""
    return max(0, math.ceil(max(0, frames_left) / fps - 1e-9))


class ThinkTimer(VGroup):
    """A ring of radius ``radius`` and a big number; ``total_frames`` is the full pause.

    Parameters
    ----------
    total_frames : int
        Frames of the pause (the ring is full with this many left).
    fps : int
        Frame rate, to turn frames into seconds.
    caption : str
        A small label under the ring (e.g. "想一想").
    """

    def __init__(
        self,
        total_frames: int,
        fps: int,
        *,
        radius: float = 0.75,
        center: np.ndarray = ORIGIN,
        caption: str = "想一想",
        color: str = theme.HIGHLIGHT,
    ) -> None:
        super().__init__()
        self.total_frames = max(1, int(total_frames))
        self.fps = int(fps)
        self.radius = float(radius)
        self.center_point = np.array(center, dtype=float)
        self.color = color
        self.frames_left = self.total_frames
        self.track = Circle(radius=radius, color=theme.MUTED, stroke_width=4).move_to(self.center_point)
        self.ring = self._ring(1.0)
        self.number = GlyphNumber(
            lambda v: f"{int(round(v))}",
            seconds_left(self.total_frames, self.fps),
            max_chars=3,
            font_size=theme.SIZE_TITLE,
            color=color,
        )
        self.number.move_to(self.center_point)
        self.caption = theme.small_text(caption, color=theme.TEXT)
        self.caption.next_to(self.track, DOWN, buff=0.2)
        self.add(self.track, self.ring, self.number, self.caption)

    def _ring(self, fraction: float) -> Arc:
        angle = -2 * PI * float(np.clip(fraction, 0.0, 1.0))
        return Arc(
            radius=self.radius,
            start_angle=PI / 2,
            angle=angle if abs(angle) > 1e-4 else -1e-4,
            arc_center=self.center_point,
            color=self.color,
            stroke_width=8,
        )

    def shown_seconds(self) -> int:
        """The whole seconds drawn now."""
        return int(self.number.text)

    def set_frames_left(self, frames_left: int) -> "ThinkTimer":
        """Show the state with ``frames_left`` frames of the pause still to come after this one."""
        n = int(min(max(frames_left, 0), self.total_frames))
        self.frames_left = n
        self.ring.become(self._ring(n / self.total_frames))
        s = seconds_left(n, self.fps)
        if s != self.shown_seconds():
            self.number.set_value(s)
            self.number.move_to(self.center_point)
        return self

    def follow(self, clock: Callable[[], int], end_frame: int) -> "ThinkTimer":
        """Count down with the scene: ``clock()`` is the frame being drawn, the pause ends at ``end_frame``."""
        self.add_updater(lambda m, dt: m.set_frames_left(end_frame - 1 - clock()))  # dt: redrawn every frame
        return self

    def probe_values(self) -> dict:
        return {
            "frames_left": self.frames_left,
            "seconds": self.shown_seconds(),
            "ring_fraction": self.frames_left / self.total_frames,
        }
