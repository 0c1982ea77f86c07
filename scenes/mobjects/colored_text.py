"""Mixed-colour lines of text through Typst (baselines stay aligned, no LaTeX).

Example
-------
>>> src = "第 " + colored("$m$", "#62d48a") + " 个位置"   # doctest: +SKIP
>>> rich(src)                                             # doctest: +SKIP
"""

from __future__ import annotations

from scenes import theme


def colored(source: str, color: str) -> str:
    """Typst markup that draws ``source`` (markup, may hold ``$math$``) in ``color``."""
    return f'#text(fill: rgb("{color}"))[{source}]'


def rich(source: str, *, color: str = theme.TEXT, font_size: float = theme.SIZE_BODY):
    """A line of Typst markup in the course font; pieces wrapped by :func:`colored` keep their colour.

    ``font_size`` is on the same scale as :class:`manim.Text` (Typst sizes are points,
    which draw 3/4 as large), so ``rich(s, font_size=theme.SIZE_BODY)`` matches ``theme.body_text``.
    """
    return theme.typst_text(source, color=color, font_size=font_size * TYPST_TO_TEXT)


#: Typst ``font_size`` that draws glyphs as tall as Text at size 1.
TYPST_TO_TEXT = 4.0 / 3.0
