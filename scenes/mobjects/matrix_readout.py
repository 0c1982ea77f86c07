"""A matrix of numbers typeset with Typst from a numpy array."""

from __future__ import annotations

import numpy as np
from manim import VGroup

from scenes import theme


def format_entry(x: float, decimals: int) -> str:
    """Round for display; never show ``-0``; whole numbers without decimals."""
    v = round(float(x), decimals) + 0.0
    if v == int(v):
        return str(int(v))
    return f"{v:.{decimals}f}"


def matrix_source(values: np.ndarray, decimals: int = 2, name: str | None = None) -> str:
    """Typst math source ``name = mat(a, b; c, d)`` for a 2-D array."""
    a = np.atleast_2d(np.asarray(values, dtype=float))
    rows = "; ".join(", ".join(format_entry(x, decimals) for x in row) for row in a)
    body = f"mat({rows})"
    return f"{name} = {body}" if name else body


class MatrixReadout(VGroup):
    """Typeset ``values`` (rounded to ``decimals``) as a matrix, optionally named.

    ``values`` keeps the array it was built from; ``shown`` the strings drawn.
    """

    def __init__(
        self,
        values: np.ndarray,
        *,
        decimals: int = 2,
        name: str | None = None,
        color: str = theme.TEXT,
        font_size: float = theme.SIZE_FORMULA,
    ) -> None:
        super().__init__()
        self.values = np.atleast_2d(np.asarray(values, dtype=float)).copy()
        self.shown = [[format_entry(x, decimals) for x in row] for row in self.values]
        self.source = matrix_source(self.values, decimals, name)
        self.tex = theme.formula(self.source, color=color, font_size=font_size)
        self.add(self.tex)
