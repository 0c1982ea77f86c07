"""A label followed by a live number: ``cos θ = 0.87``.

The number is a ``DecimalNumber`` built from Text glyphs (never LaTeX) and
updated with :meth:`set_value`, which copies cached glyphs instead of
re-typesetting.
"""
from __future__ import annotations

from manim import RIGHT, DecimalNumber, VGroup

from scenes import theme


class LabeledNumber(VGroup):
    """``label`` then a number then an optional ``suffix`` (e.g. ``°``)."""

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
    ) -> None:
        super().__init__()
        self.label = theme.body_text(label, color=label_color, font_size=font_size)
        self.number = DecimalNumber(
            value, num_decimal_places=decimals, mob_class=theme.number_class(),
            font_size=font_size, color=color, include_sign=include_sign,
        )
        self.suffix = theme.body_text(suffix, color=color, font_size=font_size) if suffix else None
        self.add(self.label, self.number)
        if self.suffix is not None:
            self.add(self.suffix)
        self._place()

    def _place(self) -> None:
        self.number.next_to(self.label, RIGHT, buff=0.18)
        self.number.set_y(self.label.get_y())
        if self.suffix is not None:
            self.suffix.next_to(self.number, RIGHT, buff=0.05)
            self.suffix.align_to(self.number, direction=[0, 1, 0])

    def set_value(self, value: float) -> "LabeledNumber":
        if value != self.number.get_value():
            self.number.set_value(value)
            self._place()
        return self

    def get_value(self) -> float:
        return float(self.number.get_value())

    def shown_text(self) -> str:
        """The digits as drawn (what a viewer reads)."""
        return self.number._get_num_string(self.number.get_value())
