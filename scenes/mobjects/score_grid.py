"""A score table: coloured cells, each with its number written in it."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import ORIGIN, ManimColor, Rectangle, VGroup, VMobject, interpolate_color

from scenes import theme


def format_cell(x: float, decimals: int = 1) -> str:
    """A cell's number: fixed decimals, minus sign U+2212, never ``−0.0``."""
    v = round(float(x), decimals) + 0.0
    return ("−" if v < 0 else "") + f"{abs(v):.{decimals}f}"


def flat_number(text: str, *, color: str = theme.TEXT) -> VMobject:
    """``text`` at the small text size as ONE path (not a Text of glyphs).

    A table of 72 numbers as Text means hundreds of glyph mobjects, which Manim
    hashes on every play and the camera draws one by one; one path per number
    keeps a table cheap. ``.text`` keeps the string drawn.
    """
    glyphs = theme.small_text(text, color=color)
    out = VMobject(stroke_width=0).set_fill(color, opacity=1)
    out.set_points(np.concatenate([m.points for m in glyphs.family_members_with_points()]))
    out.text = text
    return out


class ScoreCell(VGroup):
    """One cell: a filled rectangle and its number; ``value`` and ``text`` say what it shows."""

    def __init__(
        self, value: float, text: str, color: ManimColor, width: float, height: float, fill_opacity: float
    ) -> None:
        super().__init__()
        self.value, self.text = float(value), text
        self.box = Rectangle(width=width, height=height, stroke_width=1, stroke_color=theme.MUTED)
        self.box.set_fill(color, opacity=fill_opacity)
        self.number = flat_number(text).move_to(self.box)
        self.add(self.box, self.number)


class ScoreGrid(VGroup):
    """``values[i, j]`` as a coloured cell with its number, row i top to bottom.

    Cells can be moved whole (a shuffle) or given new values; :meth:`read` reports
    what is drawn where, by the cells' current positions, so tests check the picture.

    Parameters
    ----------
    values : array, shape (n, m)
    cell_width, cell_height : float
        Size of a cell in scene units (wide enough for ``−1.2`` at the small text size).
    vmin, vmax : float
        Colour range, shared by tables that are compared.
    row_labels, col_labels : sequence of str
        The word of each row and column (they move when the words are shuffled).
    seats : sequence of int, optional
        The seat of each row and column, drawn outside the words in the seat colour; seats stay
        where they are when the words move.
    """

    #: distance from the cells to the centre of the word labels, and to the seat labels
    WORD_GAP = 0.3
    SEAT_GAP = 0.72

    def __init__(
        self,
        values: np.ndarray,
        *,
        cell_width: float = 0.86,
        cell_height: float = 0.62,
        decimals: int = 1,
        vmin: float | None = None,
        vmax: float | None = None,
        center: np.ndarray = ORIGIN,
        row_labels: Sequence[str] | None = None,
        col_labels: Sequence[str] | None = None,
        label_color: str = theme.TEXT,
        seats: Sequence[int] | None = None,
        low_color: str = "#23262f",
        high_color: str = theme.SCORE,
        fill_opacity: float = 0.9,
    ) -> None:
        super().__init__()
        self.values = np.atleast_2d(np.asarray(values, dtype=float)).copy()
        self.decimals = decimals
        self.cell_width, self.cell_height = float(cell_width), float(cell_height)
        self.vmin = float(self.values.min() if vmin is None else vmin)
        self.vmax = float(self.values.max() if vmax is None else vmax)
        self.low, self.high = ManimColor(low_color), ManimColor(high_color)
        self.fill_opacity = fill_opacity
        rows, cols = self.values.shape
        self.cells = VGroup()
        for i in range(rows):
            for j in range(cols):
                c = ScoreCell(
                    self.values[i, j],
                    format_cell(self.values[i, j], decimals),
                    self.color_for(self.values[i, j]),
                    cell_width,
                    cell_height,
                    fill_opacity,
                )
                c.move_to(np.array([j * cell_width, -i * cell_height, 0.0]))
                self.cells.add(c)
        self.cells.move_to(center)
        self.slots = [[self.cell(i, j).get_center().copy() for j in range(cols)] for i in range(rows)]
        left = self.cells.get_left()[0]
        top = self.cells.get_top()[1]

        def at_row(mob, i, gap):
            return mob.move_to(np.array([left - gap, self.cell(i, 0).get_y(), 0.0]))

        def at_col(mob, j, gap):
            return mob.move_to(np.array([self.cell(0, j).get_x(), top + gap, 0.0]))

        self.row_labels = VGroup(
            *[at_row(theme.small_text(t, color=label_color), i, self.WORD_GAP) for i, t in enumerate(row_labels or [])]
        )
        self.col_labels = VGroup(
            *[at_col(theme.small_text(t, color=label_color), j, self.WORD_GAP) for j, t in enumerate(col_labels or [])]
        )
        self.row_seats = VGroup(
            *[
                at_row(theme.small_text(str(p), color=theme.POSITION), i, self.SEAT_GAP)
                for i, p in enumerate(seats or [])
            ]
        )
        self.col_seats = VGroup(
            *[
                at_col(theme.small_text(str(p), color=theme.POSITION), j, self.SEAT_GAP)
                for j, p in enumerate(seats or [])
            ]
        )
        self.add(self.cells, self.row_labels, self.col_labels, self.row_seats, self.col_seats)

    @property
    def shape(self) -> tuple[int, int]:
        return self.values.shape

    def cell(self, i: int, j: int) -> ScoreCell:
        """The cell built for row i, column j (it may have moved since)."""
        return self.cells[i * self.values.shape[1] + j]

    def slot_point(self, i: int, j: int) -> np.ndarray:
        """Where row i, column j is, relative to the grid's current place."""
        return self.slot_points()[i, j]

    def slot_points(self) -> np.ndarray:
        """Every slot's point (rows × columns × 3), relative to the grid's current place: the grid's
        centre is measured once for all of them (a watch asks on every frame)."""
        shift = self.cells.get_center() - self._built_center()
        return np.array(self.slots, dtype=float) + shift

    def nearest_slot(self, point: np.ndarray) -> tuple[int, int]:
        """The (row, column) of the slot nearest ``point``."""
        pts = self.slot_points()
        k = int(np.argmin(np.linalg.norm(pts - np.asarray(point), axis=2)))
        return k // pts.shape[1], k % pts.shape[1]

    def _built_center(self) -> np.ndarray:
        rows, cols = self.values.shape
        return (self.slots[0][0] + self.slots[rows - 1][cols - 1]) / 2

    def color_for(self, v: float) -> ManimColor:
        span = self.vmax - self.vmin
        a = 0.5 if span == 0 else (float(v) - self.vmin) / span
        return interpolate_color(self.low, self.high, float(np.clip(a, 0, 1)))

    def new_number(self, cell: ScoreCell, value: float):
        """A number mobject for ``value`` placed on ``cell`` (fade it in, then :meth:`set_number`)."""
        return flat_number(format_cell(value, self.decimals)).move_to(cell.box)

    def set_number(self, cell: ScoreCell, number, value: float) -> None:
        """Make ``number`` (from :meth:`new_number`) the cell's drawn number, standing for ``value``."""
        cell.remove(cell.number)
        cell.number = number
        cell.add(number)
        cell.value, cell.text = float(value), number.text

    def _cells_by_slot(self):
        """(row, column, cell) for every cell, by the slot nearest its current centre."""
        rows, cols = self.values.shape
        slots = self.slot_points().reshape(rows * cols, 3)
        for c in self.cells:
            k = int(np.argmin(np.linalg.norm(slots - c.box.get_center(), axis=1)))
            yield k // cols, k % cols, c

    def read(self) -> list[list[str]]:
        """The strings drawn in each row and column, found by the cells' current positions."""
        rows, cols = self.values.shape
        out = [["" for _ in range(cols)] for _ in range(rows)]
        for i, j, c in self._cells_by_slot():
            out[i][j] = c.number.text
        return out

    def read_values(self) -> np.ndarray:
        """The values the cells stand for, by position (what :meth:`read` rounds)."""
        out = np.full(self.values.shape, np.nan)
        for i, j, c in self._cells_by_slot():
            out[i, j] = c.value
        return out
