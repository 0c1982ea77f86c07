"""A measured rounding error typeset as Typst math, not as Unicode superscripts in a ``Text``.

``coursekit.content.figures.fmt_sci`` writes ``8.9×10⁻¹⁶`` for the subtitles; drawn by ``Text`` the superscript
minus and digits come from other glyphs, in other sizes and on other baselines than the digits before them.
Typst sets a real superscript. The number is the figure's own written form, only re-spelled, so the
screen and the subtitles show the same digits.
"""

from __future__ import annotations

from scenes import theme

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
_FROM_SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def typst_sci(written: str) -> str:
    """``8.9×10⁻¹⁶`` (or a bare power ``10⁻¹⁵``) as Typst math source: ``8.9 times 10^(-16)``."""
    if "×10" in written:
        mant, exp = written.split("×10")
        return f"{mant.replace('−', '-')} times 10^({exp.translate(_FROM_SUPERSCRIPT)})"
    if written.startswith("10") and len(written) > 2:
        return f"10^({written[2:].translate(_FROM_SUPERSCRIPT)})"
    return written.replace("−", "-")


def sci_line(
    before: str, written: str, after: str = "", *, color: str = theme.TEXT, text_size: float = theme.SIZE_SMALL
):
    """One line of text with the figure ``written`` inside it as math; ``text_size`` is the ``Text`` size it
    replaces. ``before``/``after`` are plain words (no Typst markup characters)."""
    return theme.typst_text(f"{before}${typst_sci(written)}${after}", color=color, font_size=TYPST * text_size)
