"""A label followed by a live number: ``cos θ = 0.87``.

The number is a :class:`GlyphNumber`: its glyphs are built once in the course font and a
change of value only moves their points (no typesetting, no copying). It used to be a
``DecimalNumber``, whose ``set_value`` copies glyphs and rebuilds the group; on a readout
that changes every frame that was about a quarter of a 1080p60 render's main thread.
"""

from __future__ import annotations

from manim import RIGHT, VGroup

from scenes import theme
from scenes.mobjects.glyph_number import DIGITS, GlyphNumber


class LabeledNumber(VGroup):
    """``label`` then a number then an optional ``suffix`` (e.g. ``°``).

    The viewer check reads it as one text unit (label, number and suffix together).

    ``decimals`` fixed places, the minus sign U+2212 (never ``−0``), ``+`` for positive values
    with ``include_sign``, and thousands separated by commas with ``group_with_commas``.
    """

    TEXT_UNIT = True

    def __init__(
        self,
        label: str,
        value: float = 0.0,
        *,
        decimals: int = 2,
        suffix: str = "",
        color: str = theme.TEXT,
        label_color: str = theme.TEXT,
        font_size: float = theme.SIZE_BODY,
        include_sign: bool = False,
        group_with_commas: bool = True,
        max_chars: int = 12,
    ) -> None:
        super().__init__()
        self.decimals, self.include_sign, self.group_with_commas = decimals, include_sign, group_with_commas
        self.label = theme.body_text(label, color=label_color, font_size=font_size)
        self.number = GlyphNumber(
            self.format, value, max_chars=max_chars, chars=DIGITS + ".,+−", font_size=font_size, color=color
        )
        self.suffix = theme.body_text(suffix, color=color, font_size=font_size) if suffix else None
        self.add(self.label, self.number)
        if self.suffix is not None:
            self.add(self.suffix)
        self.number.next_to(self.label, RIGHT, buff=0.18)
        self.number.shift([0, self.label.get_y() - self.number.get_y(), 0])
        self._place_suffix()

    def format(self, value: float) -> str:
        r = round(float(value), self.decimals) + 0.0  # + 0.0 turns −0.0 into 0.0
        text = f"{abs(r):{',' if self.group_with_commas else ''}.{self.decimals}f}"
        return ("−" if r < 0 else "+" if self.include_sign else "") + text

    def _place_suffix(self) -> None:
        if self.suffix is not None:
            self.suffix.next_to(self.number, RIGHT, buff=0.05)
            self.suffix.align_to(self.number, direction=[0, 1, 0])

    def set_value(self, value: float) -> "LabeledNumber":
        before = self.number.layouts
        self.number.set_value(value)
        if self.number.layouts != before:  # a new string, or the number laid out again after an animation
            self._place_suffix()
        return self

    def get_value(self) -> float:
        return float(self.number.get_value())

    def shown_text(self) -> str:
        """The characters as drawn (what a viewer reads)."""
        return self.number.text
