"""A number that changes every frame without typesetting or copying: pre-built glyphs swapped in.

``DecimalNumber`` copies cached glyphs and rebuilds itself on every ``set_value``
(≈10–20 ms a change here), which is the bulk of a scene's time when an angle
readout changes on every frame. :class:`GlyphNumber` builds, once, one glyph per
(slot, character) in the course font; showing a new string only picks glyphs
and shifts them into place.

Example
-------
::

    deg = GlyphNumber(lambda v: f"{v:.0f}°", max_chars=4, chars="0123456789°")
    deg.add_updater(lambda m: m.set_value(np.degrees(theta.get_value()) % 360))
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import ORIGIN, Text, VectorizedPoint, VGroup, VMobject

from scenes import theme

DIGITS = "0123456789"
_TEMPLATES: dict[tuple[str, float, str], tuple[VMobject, float, float]] = {}


def _template(ch: str, font_size: float, color: str) -> tuple[VMobject, float, float]:
    """(glyph, advance, line offset) for one character; the glyph's left edge at x = 0 and the
    digit 8's centre line at y = 0, so glyphs of one size share a baseline. Cached per process."""
    key = (ch, float(font_size), str(color))
    if key not in _TEMPLATES:
        pair = Text("8" + ch, font=theme.FONT, font_size=font_size, color=color)
        if len(pair) < 2:
            raise ValueError(f"character {ch!r} draws no glyph")
        eight, glyph = pair[0], pair[1]
        glyph.shift(-np.array([glyph.get_left()[0], eight.get_center()[1], 0.0]))
        _TEMPLATES[key] = (glyph, glyph.width + 0.06 * font_size / theme.SIZE_BODY, -glyph.get_center()[1])
    return _TEMPLATES[key]


class GlyphNumber(VGroup):
    """The string ``fmt(value)`` drawn from pre-built glyphs, left- (default) or right-aligned.

    The number owns ``max_chars`` slot mobjects for its whole life and a change only rewrites
    their points. This matters in Manim's Cairo renderer: a play draws the family members it
    listed when it *began*, so a number that swaps in new submobjects mid-play (as
    ``DecimalNumber.set_value`` does) gets drawn with its old glyphs still on top.

    Parameters
    ----------
    fmt : callable
        Turns the value into the string to show; every character must be in ``chars``.
    max_chars : int
        The longest string ``fmt`` returns.
    chars : str
        All characters that can appear (besides space).
    """

    #: the viewer check reads it as one text unit, glyph by glyph (``glyph_pairs``)
    TEXT_UNIT = True

    def __init__(
        self,
        fmt: Callable[[float], str],
        value: float = 0.0,
        *,
        max_chars: int = 6,
        chars: str = DIGITS + ".−-",
        font_size: float = theme.SIZE_BODY,
        color: str = theme.TEXT,
        align: str = "left",
    ) -> None:
        super().__init__()
        if align not in ("left", "right"):
            raise ValueError(f"align must be 'left' or 'right', got {align!r}")
        self.align = align
        self.fmt = fmt
        self.value = float("nan")
        self.text = ""
        self.max_chars = max_chars
        # a sorted string, not a set: Manim's animation cache hashes this object, and a set of str
        # iterates in a different order in every process (hash randomisation), so it never hit
        self.font_size, self.color_name, self.chars = font_size, color, "".join(sorted(set(chars) | {" "}))
        self.advance = {ch: _template(ch, font_size, color)[1] for ch in dict.fromkeys(chars)}
        self.advance[" "] = self.advance.get("0", _template("0", font_size, color)[1])
        # the left (or right) end of the string on the 8's centre line: an invisible point in the
        # family, so it moves with every shift, move_to or parent group move
        self.anchor = VectorizedPoint(ORIGIN)
        style = _template("0", font_size, color)[0]
        self.slots = [VMobject().match_style(style) for _ in range(max_chars)]
        self._laid_out: list[np.ndarray] = []
        self.layouts = 0  # how many times the string was laid out (a follower re-places itself)
        self.add(self.anchor, *self.slots)
        self.set_value(value)

    @property
    def _anchor(self) -> np.ndarray:
        return self.anchor.get_location()

    def set_value(self, value: float) -> "GlyphNumber":
        """Show ``fmt(value)``; re-lays out only when the string changes."""
        value = float(value)
        text = self.fmt(value)
        self.value = value
        if text == self.text and all(slot.points is pts for slot, pts in zip(self.slots, self._laid_out)):
            return self
        if len(text) > self.max_chars:
            raise ValueError(f"{text!r} is longer than {self.max_chars} characters")
        bad = set(text) - set(self.chars)
        if bad:
            raise ValueError(f"{sorted(bad)} not among the characters {sorted(self.chars)}")
        lefts = np.cumsum([0.0] + [self.advance[ch] for ch in text])
        x0 = self._anchor[0] - (lefts[-1] if self.align == "right" else 0.0)
        y = self._anchor[1]
        for k, slot in enumerate(self.slots):
            ch = text[k] if k < len(text) else " "
            if ch == " ":
                # one degenerate curve on the anchor, not an empty slot: an animation that began with
                # another string zips the family members that have points, so their count must not change
                slot.points = np.repeat(self._anchor[None, :], 4, axis=0)
                continue
            glyph = _template(ch, self.font_size, self.color_name)[0]  # left edge x = 0, line y = 0
            slot.points = glyph.points + np.array([x0 + lefts[k], y, 0.0])
        self.text = text
        # an animation of this number (FadeIn, Transform) writes snapshot points into the slots; the
        # next set_value then lays the string out again instead of trusting ``text`` alone
        self._laid_out = [slot.points for slot in self.slots]
        self.layouts += 1
        return self

    def get_value(self) -> float:
        return self.value

    def glyph_pairs(self) -> list[tuple[str, VMobject]]:
        """(character, glyph) for every character drawn now."""
        return [(ch, slot) for ch, slot in zip(self.text, self.slots) if ch != " "]


def fixed(decimals: int) -> Callable[[float], str]:
    """A format with ``decimals`` places, the minus sign U+2212 and never ``−0``."""

    def fmt(v: float) -> str:
        r = round(float(v), decimals) + 0.0
        return f"{r:.{decimals}f}".replace("-", "−")

    return fmt


def labeled_glyph_number(
    label: str,
    fmt: Callable[[float], str],
    value: float = 0.0,
    *,
    max_chars: int = 8,
    color: str = theme.TEXT,
    label_color: str = theme.TEXT,
    font_size: float = theme.SIZE_BODY,
    chars: str = DIGITS + ".−-",
) -> VGroup:
    """``VGroup(label Text, GlyphNumber)`` side by side; only the number needs an updater."""
    from manim import RIGHT

    text = theme.body_text(label, color=label_color, font_size=font_size)
    number = GlyphNumber(fmt, value, max_chars=max_chars, chars=chars, font_size=font_size, color=color)
    number.next_to(text, RIGHT, buff=0.18)
    group = VGroup(text, number)
    group.label, group.number = text, number
    return group
