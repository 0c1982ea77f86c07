"""x + p as a card: one row of word-meaning cells over one row of seat-number cells, which then
merge into the one row of numbers that x + p really is.

Also :class:`RequirementList`, the three requirements a seat vector p must meet.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    FadeIn,
    FadeOut,
    Rectangle,
    RoundedRectangle,
    Succession,
    Transform,
    VGroup,
    there_and_back,
)

from scenes import theme
from scenes.mobjects.colored_text import colored, rich

#: the three requirements on p (title, detail), as the word_order lesson states them
THREE_REQUIREMENTS = (
    ("各不相同", "两个座位领不到同一个 p"),
    ("数值要小", "p 的数别比 x 大，词还认得出"),
    ("只看座位", "每挪一步同一条规则；句长改不了 p"),
)


class SeatCard(VGroup):
    """A card with ``d`` columns: ``x_1 … x_d`` (词义) on top, ``p_1 … p_d`` (座位号) below.

    The cells are symbolic: the card shows *where* the two vectors go and that
    they add dimension by dimension, not any particular p. :meth:`merge_animations` then
    turns the two rows into the one row ``x_1 + p_1 … x_d + p_d`` the sum really is (the
    subscripts are typeset by Typst: the course font has no subscript digits).

    Parameters
    ----------
    d : int
        Number of dimensions drawn.
    cell : float
        Cell width (height is 0.8 of it).
    center : array
    font_size : float
        Size of the row labels; the cell symbols are a little smaller.
    """

    def __init__(
        self,
        *,
        d: int = 4,
        cell: float = 0.95,
        center: np.ndarray = ORIGIN,
        font_size: float = theme.SIZE_BODY,
        row_names: tuple[str, str] = ("词义", "座位号"),
    ) -> None:
        super().__init__()
        self.d = d
        h = 0.8 * cell
        sym = font_size
        self.x_cells, self.p_cells, self.plus = VGroup(), VGroup(), VGroup()
        for j in range(d):
            x = (j - (d - 1) / 2) * cell
            for cells, y, name, color in (
                (self.x_cells, 0.5 * h + 0.08, "x", theme.TEXT),
                (self.p_cells, -0.5 * h - 0.08, "p", theme.POSITION),
            ):
                box = Rectangle(width=cell - 0.08, height=h, stroke_color=color, stroke_width=2)
                box.set_fill(color, opacity=0.12)
                box.move_to(np.array([x, y, 0.0]))
                label = theme.formula(f"{name}_{j + 1}", color=color, font_size=sym).move_to(box)
                cells.add(VGroup(box, label))
        self.rows = VGroup(self.x_cells, self.p_cells)
        self.row_labels = VGroup(
            theme.body_text(row_names[0], color=theme.TEXT, font_size=font_size),
            theme.body_text(row_names[1], color=theme.POSITION, font_size=font_size),
        )
        self.row_labels[0].next_to(self.x_cells, LEFT, buff=0.3)
        self.row_labels[1].next_to(self.p_cells, LEFT, buff=0.3)
        self.row_labels[1].align_to(self.row_labels[0], RIGHT)
        self.frame = RoundedRectangle(
            corner_radius=0.18,
            width=self.rows.width + self.row_labels.width + 0.9,
            height=self.rows.height + 0.45,
            stroke_color=theme.MUTED,
            stroke_width=3,
        )
        self.frame.move_to(VGroup(self.rows, self.row_labels))
        self.title = theme.formula("x + p", color=theme.TEXT, font_size=font_size * 1.1)
        self.title.next_to(self.frame, UP, buff=0.15)
        self.add(self.frame, self.rows, self.row_labels)
        self.move_to(center)
        self.title.next_to(self.frame, UP, buff=0.15)
        self.merged = False
        self._build_merged(cell, h, sym)

    def _build_merged(self, cell: float, h: float, sym: float) -> None:
        """The one row ``x_j + p_j`` (wider cells, same column order), centred where the two rows are."""
        # the same size as the cells' own x_j, p_j (Typst points draw 4/3 as large as rich's Text scale)
        labels = [
            rich(
                colored(f"$x_{j + 1}$", theme.TEXT) + " + " + colored(f"$p_{j + 1}$", theme.POSITION),
                font_size=0.75 * sym,
            )
            for j in range(self.d)
        ]
        wide = max(cell, max(l.width for l in labels) + 0.3)
        mid = self.rows.get_center()
        self.merged_cells = VGroup()
        for j, label in enumerate(labels):
            box = Rectangle(width=wide - 0.08, height=h, stroke_color=theme.TEXT, stroke_width=2)
            box.set_fill(theme.HIGHLIGHT, opacity=0.12)
            box.move_to(mid + np.array([(j - (self.d - 1) / 2) * wide, 0.0, 0.0]))
            label.move_to(box)
            self.merged_cells.add(VGroup(box, label))
        self.merged_frame = RoundedRectangle(
            corner_radius=0.18,
            width=self.merged_cells.width + 0.5,
            height=self.merged_cells.height + 0.45,
            stroke_color=theme.MUTED,
            stroke_width=3,
        ).move_to(self.merged_cells)

    def merge_animations(self) -> list[Animation]:
        """The two rows slide together and give way to one row ``x_j + p_j`` (the frame shrinks around it);
        the row names go. Play them together, then call :meth:`settle_merge`."""
        mid_y = self.merged_cells.get_y()
        return [
            self.x_cells.animate.set_y(mid_y).set_opacity(0),
            self.p_cells.animate.set_y(mid_y).set_opacity(0),
            FadeOut(self.row_labels),
            Transform(self.frame, self.merged_frame),
            FadeIn(self.merged_cells, scale=0.9),
            self.title.animate.next_to(self.merged_frame, UP, buff=0.15),
        ]

    def settle_merge(self) -> VGroup:
        """After :meth:`merge_animations`: the card holds only the frame and the merged row. Returns what left
        (the two rows and their names) for the scene to remove."""
        gone = VGroup(self.rows, self.row_labels)
        self.remove(self.rows, self.row_labels)
        self.add(self.merged_cells)
        self.merged = True
        return gone

    def probe_values(self) -> dict:
        """What the card shows: per column, the x and p cells' labels (Typst source) and centres before the
        merge, the merged cell's label and centre after it."""
        if self.merged:
            return {
                "merged": True,
                "labels": [c[1].typst_code for c in self.merged_cells],
                "centers": [c.get_center().tolist() for c in self.merged_cells],
            }
        return {
            "merged": False,
            "x_labels": [c[1].typst_code for c in self.x_cells],
            "p_labels": [c[1].typst_code for c in self.p_cells],
            "x": [c.get_center().tolist() for c in self.x_cells],
            "p": [c.get_center().tolist() for c in self.p_cells],
        }

    def column(self, j: int) -> VGroup:
        return VGroup(self.x_cells[j], self.p_cells[j])

    def make_add_animation(self, **kwargs) -> Animation:
        """Light up the columns one after another: x_j and p_j add, dimension by dimension.

        Each column flashes and returns to its colours, so the card ends as it began.
        """
        steps = []
        for j in range(self.d):
            steps.append(
                AnimationGroup(
                    self.x_cells[j][0].animate(rate_func=there_and_back).set_fill(theme.HIGHLIGHT, opacity=0.5),
                    self.p_cells[j][0].animate(rate_func=there_and_back).set_fill(theme.HIGHLIGHT, opacity=0.5),
                )
            )
        return Succession(*steps, **kwargs)


class RequirementList(VGroup):
    """Numbered requirements: a title line and a muted detail line each.

    Parameters
    ----------
    items : sequence of (title, detail)
    font_size : float
        Size of the titles; details use ``theme.SIZE_SMALL``.
    """

    MARKS = "①②③④⑤"

    def __init__(
        self,
        items: Sequence[tuple[str, str]],
        *,
        font_size: float = theme.SIZE_BODY,
        detail_size: float = theme.SIZE_SMALL,
        buff: float = 0.35,
    ) -> None:
        super().__init__()
        self.items = VGroup()
        for i, (title, detail) in enumerate(items):
            head = theme.body_text(f"{self.MARKS[i]} {title}", color=theme.TEXT, font_size=font_size)
            row = VGroup(head)
            if detail:
                row.add(
                    theme.small_text(detail, color=theme.MUTED, font_size=detail_size)
                    .next_to(head, DOWN, buff=0.1, aligned_edge=LEFT)
                    .shift(0.55 * font_size / 36 * RIGHT)
                )
            self.items.add(row)
        self.items.arrange(DOWN, aligned_edge=LEFT, buff=buff)
        self.add(self.items)

    def focus_animations(self, i: int, *, shown: int | None = None, **kwargs) -> list[Animation]:
        """Item ``i`` (about to appear) takes the highlight; the others fade back to plain text.

        Item ``i`` is recoloured at once (play these together with its ``FadeIn``; the list may be empty); only
        the first ``shown`` items are animated, so items not yet revealed stay off screen.
        ``i = -1`` returns every shown item to plain text.
        """
        if i >= 0:
            self.items[i][0].set_color(theme.HIGHLIGHT)
        return [row[0].animate(**kwargs).set_color(theme.TEXT) for j, row in enumerate(self.items[:shown]) if j != i]
