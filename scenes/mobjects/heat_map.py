"""A grid of squares coloured by value (score and Gram matrices)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import LEFT, ORIGIN, UP, ManimColor, Square, VGroup, VMobject, interpolate_color

from scenes import theme


class HeatMap(VGroup):
    """``values[i, j]`` drawn as the square in row i (top to bottom), column j.

    Colours run from ``low_color`` at ``vmin`` to ``high_color`` at ``vmax``.
    """

    def __init__(
        self,
        values: np.ndarray,
        *,
        cell: float = 0.4,
        vmin: float | None = None,
        vmax: float | None = None,
        low_color: str = theme.BACKGROUND,
        high_color: str = theme.SCORE,
        center: np.ndarray = ORIGIN,
        row_labels: Sequence[str] | None = None,
        col_labels: Sequence[str] | None = None,
    ) -> None:
        super().__init__()
        self.values = np.atleast_2d(np.asarray(values, dtype=float)).copy()
        self.vmin = float(self.values.min() if vmin is None else vmin)
        self.vmax = float(self.values.max() if vmax is None else vmax)
        self.low, self.high = ManimColor(low_color), ManimColor(high_color)
        rows, cols = self.values.shape
        self.cells = VGroup()
        # one square made, the others copied from it: Manim's Square() costs about 1 ms to make and its copy
        # a sixth of that, and the Gram table (gram_stripes) has 65 × 65 = 4225 cells
        template = Square(side_length=cell, stroke_width=1, stroke_color=theme.MUTED)
        for i in range(rows):
            for j in range(cols):
                sq = template.copy()
                sq.set_fill(self.color_for(self.values[i, j]), opacity=1)
                sq.move_to(np.array([j * cell, -i * cell, 0.0]))
                self.cells.add(sq)
        self.cells.move_to(center)
        self.add(self.cells)
        self.labels = VGroup()
        if row_labels is not None:
            for i, text in enumerate(row_labels):
                self.labels.add(theme.small_text(text).next_to(self.cell(i, 0), LEFT, buff=0.1))
        if col_labels is not None:
            for j, text in enumerate(col_labels):
                self.labels.add(theme.small_text(text).next_to(self.cell(0, j), UP, buff=0.1))
        self.add(self.labels)

    def cell(self, i: int, j: int) -> Square:
        return self.cells[i * self.values.shape[1] + j]

    def color_for(self, v: float) -> ManimColor:
        span = self.vmax - self.vmin
        a = 0.5 if span == 0 else (float(v) - self.vmin) / span
        return interpolate_color(self.low, self.high, float(np.clip(a, 0, 1)))

    def merged_cells(self) -> VGroup:
        """The cells drawn as one mobject per colour (each square a closed subpath of it).

        A big table (the 65 × 65 Gram matrix is 4225 squares, but 58 colours) is then a few
        dozen mobjects to draw per frame and to hash per play call instead of thousands. The cells'
        own fill and stroke are kept; the labels are not included.
        """
        groups: dict[str, list[Square]] = {}
        for sq in self.cells:
            groups.setdefault(sq.get_fill_color().to_hex(), []).append(sq)
        merged = VGroup()
        for color, squares in groups.items():
            vm = VMobject()
            vm.set_points(np.concatenate([sq.points for sq in squares]))
            vm.match_style(squares[0])
            vm.cell_count = len(squares)
            merged.add(vm)
        return merged
