"""A short Python listing on a dark panel, one colour, with the narrated lines lit up.

Manim's ``Code`` (Pygments + Pango, no TeX) draws it. Syntax colours are switched off on
purpose: the course's colours mean query, key, seat, angle and score, and a keyword in query-blue
would say something false. The lines being narrated turn ``theme.HIGHLIGHT``; the rest stay
``theme.TEXT``.

``code_string`` keeps the source, so the viewer check pairs every glyph with its character (and
measures the digits), and a test can run exactly the code that is on screen.
"""

from __future__ import annotations

from collections.abc import Iterable

from manim import Animation, Code, VGroup
from pygments.style import Style
from pygments.token import Token

from scenes import theme

#: the monospaced face of the course font (same font files as theme.FONT)
MONO = "Noto Sans Mono CJK SC"
PANEL = "#1d2029"


class _OneColour(Style):
    background_color = PANEL
    styles = {Token: theme.TEXT}


class CodeListing(Code):
    """``source`` as a listing; ``line(i)`` is line i's glyphs (0-based, blank lines included)."""

    def __init__(self, source: str, *, font_size: float = 18, line_spacing: float = 0.55) -> None:
        super().__init__(
            code_string=source,
            language="python",
            formatter_style=_OneColour,
            add_line_numbers=False,
            background="rectangle",
            background_config={
                "fill_color": PANEL,
                "stroke_color": theme.MUTED,
                "stroke_width": 1,
                "corner_radius": 0.12,
                "buff": 0.25,
            },
            paragraph_config={"font": MONO, "font_size": font_size, "line_spacing": line_spacing},
        )
        self.code_string = source
        self.lit: tuple[int, ...] = ()

    def line(self, i: int) -> VGroup:
        return self.code_lines[i]

    def highlight(self, lines: Iterable[int]) -> list[Animation]:
        """Animations that light ``lines`` and put every other line back to the text colour."""
        lit = tuple(sorted(set(lines)))
        anims = []
        for i, glyphs in enumerate(self.code_lines):
            if not len(glyphs):
                continue
            want = theme.HIGHLIGHT if i in lit else theme.TEXT
            anims.append(glyphs.animate.set_color(want))
        self.lit = lit
        return anims

    def lit_lines(self) -> list[int]:
        """The lines drawn in the highlight colour now (read from the glyphs)."""
        hi = theme.HIGHLIGHT.lower()
        return [
            i
            for i, glyphs in enumerate(self.code_lines)
            if len(glyphs) and all(g.get_fill_color().to_hex().lower() == hi for g in glyphs)
        ]
