"""The one palette, font set and layout grid every lesson scene uses.

Colours mean the same thing in every lesson: ``Q`` is always the query, ``K``
always the key, ``POSITION`` always a seat number, ``ANGLE`` always an angle,
``SCORE`` always an attention score. Sizes are picked to stay readable at 480p
(one scene unit is 60 px there), so no text is smaller than ``SIZE_SMALL``.

The bottom ``SAFE_AREA_FRACTION`` of the frame belongs to the subtitles: no
scene content may enter it (``tests/course/test_viewer_check.py`` checks this).
"""

from __future__ import annotations

from manim import MathTypst, Text, Typst, VMobject, config

# -- palette ---------------------------------------------------------------
BACKGROUND = "#14161c"
Q = "#4fa3ff"  # query vector
K = "#ff8f3f"  # key vector
POSITION = "#62d48a"  # seat / position numbers, position counters
ANGLE = "#ffd84d"  # angles, arcs, hand angles
SCORE = "#ff5c8a"  # dot products, attention scores
TEXT = "#e8e8ee"  # neutral text
MUTED = "#8a8f9c"  # axes, grid, secondary labels
HIGHLIGHT = "#c38bff"  # the one thing to look at right now
COS = "#4fd6c8"  # x reading of a pointer (cos)
SIN = "#f27fd0"  # y reading of a pointer (sin)
GHOST_OPACITY = 0.45
# several curves of the same kind (scores of different planes): shades of SCORE, never Q/K/POSITION
SERIES = ("#ff5c8a", "#ffb3c9", "#c2416a")
SERIES_4 = ("#ff5c8a", "#c2416a", "#ffb3c9", "#ffe4ec")  # four curves (trig_to_rope rope_invariance)
# one q, k pair's score at four turning speeds (trig_to_rope rope_invariance's chart), told apart by hue: SCORE
# (θ = 30°, the pairs' own speed), then a periwinkle (the fast, wavy curve), a yellow-green (kept for the smooth
# curve high above the POSITION-green marks) and a near-white. The hues sit in the gaps between the palette's
# meanings (Q's blue and HIGHLIGHT's purple; ANGLE's yellow and POSITION's green), so no curve borrows a colour
# that means something else; they mean "another speed" and nothing else in the course.
SPEEDS_4 = (SCORE, "#9d9dff", "#94e64c", "#e8e8ee")

# -- fonts and sizes (Manim font-size units) ---------------------------------
FONT = "Noto Sans CJK SC"
TYPST_PREAMBLE = f'#set text(font: "{FONT}")'
SIZE_TITLE = 48
SIZE_BODY = 36
SIZE_SMALL = 28
SIZE_FORMULA = 44

# -- layout ------------------------------------------------------------------
SAFE_AREA_FRACTION = 0.18  # bottom share of the frame reserved for subtitles
MARGIN = 0.25  # keep content this far inside the frame edges

# -- what a viewer can read (checked after every play and wait by coursekit.render.viewer_check) ----
# Sizes are as drawn (after any scaling), in pixels of a 1080p frame. A phone shows a 1080p
# frame at about 0.6 of its size, so a 40 px Chinese line is about 24 screen pixels there.
MIN_CJK_PX = 40  # tallest CJK glyph of a line with Chinese (SIZE_SMALL Text: 49 px)
MIN_DIGIT_PX = 20  # a digit in a number or a formula (SIZE_SMALL Text: 40 px, MathTypst at 28: 27 px)
TITLE_CJK_PX = 80  # a line this tall is title size (SIZE_TITLE Text: 83 px) and needs only 3:1 contrast
TITLE_DIGIT_PX = 64


def frame_height() -> float:
    return float(config.frame_height)


def frame_width() -> float:
    return float(config.frame_width)


def safe_bottom() -> float:
    """Lowest y any scene content may reach (top edge of the subtitle area)."""
    return -frame_height() / 2 + SAFE_AREA_FRACTION * frame_height()


def content_top() -> float:
    return frame_height() / 2 - MARGIN


def content_left() -> float:
    return -frame_width() / 2 + MARGIN


def content_right() -> float:
    return frame_width() / 2 - MARGIN


# -- text helpers -----------------------------------------------------------
# Every Text here asks for Manim's SVG cache (its default for SVGs, off by default for Text): a string
# typeset before in this process, with the same font, size, weight and colour (all in the SVG's file
# name), is copied instead of parsed again, with the same points. minimal_rope's score tables make 512
# texts, of which 98 are now parsed.
def title_text(text: str, *, color: str = TEXT, font_size: float = SIZE_TITLE) -> Text:
    """A heading in the course font, shrunk to fit the frame width if needed."""
    return _fit(Text(text, font=FONT, font_size=font_size, color=color, weight="BOLD", use_svg_cache=True))


def body_text(text: str, *, color: str = TEXT, font_size: float = SIZE_BODY) -> Text:
    """A line of Chinese (or mixed) body text."""
    return _fit(Text(text, font=FONT, font_size=font_size, color=color, use_svg_cache=True))


def small_text(text: str, *, color: str = MUTED, font_size: float = SIZE_SMALL) -> Text:
    """A label: the smallest text a scene may use."""
    return Text(text, font=FONT, font_size=font_size, color=color, use_svg_cache=True)


def formula(source: str, *, color: str = TEXT, font_size: float = SIZE_FORMULA) -> MathTypst:
    """A display formula in Typst math syntax (``{{ ... : label }}`` groups allowed).

    Chinese inside ``"..."`` strings uses the course font through the preamble.
    """
    return _fit(MathTypst(source, font_size=font_size, color=color, typst_preamble=TYPST_PREAMBLE))


def typst_text(source: str, *, color: str = TEXT, font_size: float = SIZE_BODY) -> Typst:
    """Typst markup (text with inline ``$math$``) in the course font."""
    return _fit(Typst(source, font_size=font_size, color=color, typst_preamble=TYPST_PREAMBLE))


def _fit(mob: VMobject) -> VMobject:
    max_w = frame_width() - 2 * MARGIN
    if mob.width > max_w:
        mob.scale_to_fit_width(max_w)
    return mob


def number_class():
    """The class DecimalNumber should build digits with (never LaTeX)."""
    return _NumberGlyph


class _NumberGlyph(Text):
    """Text in the course font, as DecimalNumber's ``mob_class``.

    DecimalNumber caches one glyph per character, so updating a number per
    frame copies cached glyphs and never re-typesets.
    """

    def __init__(self, text: str, **kwargs):
        kwargs.setdefault("font", FONT)
        super().__init__(text, **kwargs)


def viewer_rules():
    """The figures above as the viewer check's rules."""
    from coursekit.render.viewer_check import ViewerRules

    return ViewerRules(
        background=BACKGROUND,
        band_fraction=SAFE_AREA_FRACTION,
        margin=MARGIN,
        min_cjk_px=MIN_CJK_PX,
        min_digit_px=MIN_DIGIT_PX,
        title_cjk_px=TITLE_CJK_PX,
        title_digit_px=TITLE_DIGIT_PX,
    )
