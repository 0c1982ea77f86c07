"""A tick or a cross drawn as strokes, and a verdict line led by one.

The course font (Noto Sans CJK SC) has no ✗ (U+2717), so a cross drawn from a font would fall back to
another font's glyph in another style; both marks are drawn here as lines, the same way, so a ✓ and a ✗
beside each other match.
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, ORIGIN, Line, VGroup, VMobject

from scenes import theme


def drawn_mark(
    kind: str, *, size: float = 0.34, color: str = theme.HIGHLIGHT, center: np.ndarray = ORIGIN, stroke_width: float = 6
) -> VMobject:
    """``kind`` "tick" or "cross", ``size`` units across, centred on ``center``; ``.kind`` says which."""
    c = np.asarray(center, dtype=float)
    h = size / 2
    if kind == "tick":
        mark = VMobject(color=color, stroke_width=stroke_width)
        mark.set_points_as_corners(
            [c + np.array([-h, 0.0, 0.0]), c + np.array([-0.25 * h, -0.8 * h, 0.0]), c + np.array([h, 0.9 * h, 0.0])]
        )
    elif kind == "cross":
        mark = VGroup(
            Line(c + np.array([-h, -h, 0.0]), c + np.array([h, h, 0.0]), color=color, stroke_width=stroke_width),
            Line(c + np.array([-h, h, 0.0]), c + np.array([h, -h, 0.0]), color=color, stroke_width=stroke_width),
        )
    else:
        raise ValueError(f"kind must be 'tick' or 'cross', got {kind!r}")
    mark.kind = kind
    return mark


class MarkedLine(VGroup):
    """A drawn tick or cross, then a line of text: ``MarkedLine("cross", theme.body_text("违反第二条"))``.

    ``mark`` and ``text`` are the two parts; the mark is as tall as the text's capital height, in its colour.
    """

    def __init__(self, kind: str, text: VMobject, *, buff: float = 0.22) -> None:
        super().__init__()
        self.text = text
        self.mark = drawn_mark(kind, size=0.8 * text.height, color=text.get_color())
        self.mark.next_to(text, LEFT, buff=buff)
        self.add(self.mark, self.text)
        self.kind = kind

    def probe_values(self) -> dict:
        """What the line says and which mark leads it (for the tests)."""
        return {
            "kind": self.mark.kind,
            "text": self.text.text,
            "mark_left_of_text": bool(self.mark.get_right()[0] <= self.text.get_left()[0] + 1e-9),
        }


__all__ = ["MarkedLine", "drawn_mark"]
