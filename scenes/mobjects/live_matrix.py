"""A small matrix of live numbers between drawn brackets (no LaTeX, no Text rebuilt per frame).

Entries are :class:`GlyphNumber` s, so a changed value only swaps pre-built glyphs.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import ORIGIN, Line, VGroup

from scenes import theme
from scenes.mobjects.glyph_number import GlyphNumber, fixed


class LiveMatrix(VGroup):
    """``rows x cols`` numbers in brackets, refreshed from ``source()``.

    Parameters
    ----------
    source : callable
        Returns the array to show now (computed by mathcore).
    decimals : int
        Places shown.
    live : bool
        Attach an updater that re-reads ``source`` every frame.
    """

    def __init__(
        self,
        source: Callable[[], np.ndarray],
        *,
        decimals: int = 3,
        color: str = theme.TEXT,
        font_size: float = theme.SIZE_SMALL + 4,
        col_gap: float = 1.35,
        row_gap: float = 0.5,
        center: np.ndarray = ORIGIN,
        live: bool = True,
    ) -> None:
        super().__init__()
        self.source = source
        self.decimals = decimals
        self.values = np.atleast_2d(np.asarray(source(), dtype=float))
        rows, cols = self.values.shape
        self.entries = VGroup()
        for i in range(rows):
            for j in range(cols):
                pos = np.array([(j - (cols - 1) / 2) * col_gap, ((rows - 1) / 2 - i) * row_gap, 0.0])
                num = GlyphNumber(
                    fixed(decimals), self.values[i, j], max_chars=decimals + 4, font_size=font_size, color=color
                )
                num.move_to(pos)
                num.offset = pos
                self.entries.add(num)
        h = rows * row_gap + 0.1
        half_w = (cols - 1) * col_gap / 2 + max(e.width for e in self.entries) / 2 + 0.15
        self.brackets = VGroup()
        for side in (-1, 1):
            x = side * half_w
            tick = -side * 0.12
            self.brackets.add(
                Line([x, h / 2, 0], [x, -h / 2, 0], color=theme.MUTED, stroke_width=3),
                Line([x, h / 2, 0], [x + tick, h / 2, 0], color=theme.MUTED, stroke_width=3),
                Line([x, -h / 2, 0], [x + tick, -h / 2, 0], color=theme.MUTED, stroke_width=3),
            )
        self.add(self.brackets, self.entries)
        self.shift(np.array(center, dtype=float))
        if live:
            self.add_updater(lambda m: m.refresh())

    def refresh(self) -> "LiveMatrix":
        self.values = np.atleast_2d(np.asarray(self.source(), dtype=float))
        origin = self.brackets.get_center()  # slots are offsets from the brackets' centre
        for num, v in zip(self.entries, self.values.ravel()):
            before = num.text
            num.set_value(v)
            if num.text != before:
                num.move_to(origin + num.offset)
        return self

    def shown(self) -> np.ndarray:
        """The values as drawn (rounded)."""
        rows, cols = self.values.shape
        return np.array([float(e.text.replace("−", "-")) for e in self.entries], dtype=float).reshape(rows, cols)
