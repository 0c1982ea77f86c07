"""What a viewer sees, checked after every ``play`` and ``wait`` of a narrated scene, without pixels.

A scene built in a dry run still moves every mobject to where the video shows it. This module
looks at those mobjects after each step and reports, with the scene, the cue and the frame:

``frame``
    a visible mobject outside the frame's margin (left, right, top);
``subtitle_band``
    visible content inside the bottom band that belongs to the subtitles;
``overlap``
    two visible *text units* whose boxes intersect by more than a share of the smaller one;
``size``
    a text unit smaller than readable at the reference height (1080 px): the tallest CJK glyph
    of a line with Chinese, and the digit height of numbers and formulas, as drawn (after any
    scaling);
``contrast``
    text whose WCAG contrast ratio against what is behind it (the background, or the filled
    shapes under it at their drawn opacity) is below the minimum (lower at title size);
``box``
    the border of a drawn rectangle (a card, a panel, a frame around a text) through a text's glyphs;
``crossfade``
    a text unit fading out while another fades in on top of it in the same ``play``: for the
    whole animation the viewer sees two texts at once (fade the old one out first);
``reading_time``
    a text on screen for less time than reading it takes (:class:`ReadingTime`): at least
    ``min_read_s`` plus one second per ``read_chars_per_second`` characters (0.5 s and 9, the zh-Hans
    subtitle reading speed);
``unused_exception``
    an exception the scene declared (:meth:`NarratedScene.allow`) that never excused anything.

A *text unit* is one ``Text``, ``Typst``/``MathTypst``, ``Code`` or ``DecimalNumber``, or any
mobject whose class sets ``TEXT_UNIT = True`` (a live number, a label with its number), taken as a
whole. Glyphs of a formula that a scene has pulled out of their text count as units of their own.

The figures come from :class:`ViewerRules`; the course passes its own (its theme holds them).
Nothing here knows a particular course.

Example
-------
::

    report = check_scene(SceneClass, plan, rules)
    for finding in report.findings:
        print(finding.line())
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coursekit.render import drawn_text, motion
from coursekit.zh.chars import has_cjk, is_cjk, text_cells

if TYPE_CHECKING:
    import numpy as np


RULES = ("frame", "subtitle_band", "overlap", "box", "size", "contrast", "crossfade", "reading_time")
DIGIT = re.compile(r"[0-9]")
EPS = 1e-6
SCRIPT_DIGIT = re.compile(r"[\^_]\s*(\d|\([^)]*\d)")  # x^2, 10^(-2i/d), x_1 in Typst math
TYPST_SCRIPT_SCALE = 0.7  # Typst sets scripts at 70% of the text size


@dataclass(frozen=True)
class ViewerRules:
    """The figures a viewer check applies. Lengths in scene units unless named ``_px``."""

    background: str  #: the frame's background colour (hex)
    band_fraction: float  #: bottom share of the frame kept for subtitles
    margin: float  #: nothing visible closer than this to the left, right or top edge
    min_cjk_px: float  #: tallest CJK glyph of a line with Chinese, at ``reference_px``
    min_digit_px: float  #: height of a digit in a number or formula, at ``reference_px``
    title_cjk_px: float  #: a line this tall (or a digit ``title_digit_px``) is title size
    title_digit_px: float
    reference_px: int = 1080  #: frame height in pixels the sizes are given for
    overlap_share: float = 0.05  #: overlap above this share of the smaller box is a finding
    box_tolerance: float = 0.02  #: a rectangle's border may cut this far into a glyph's box
    min_contrast: float = 4.5  #: WCAG AA, body text
    min_contrast_title: float = 3.0  #: WCAG AA, large text
    min_read_s: float = 0.5  #: every text stays at least this long …
    read_chars_per_second: float = 9.0  #: … plus a second per this many characters (zh-Hans subtitles)


#: what a course that sets no look of its own is checked against: a dark frame, the bottom 18 % for
#: subtitles, and text sized to stay readable on a phone (the figures in docs/authoring.md, "The viewer check")
DEFAULT_LOOK = ViewerRules(
    background="#000000",
    band_fraction=0.18,
    margin=0.25,
    min_cjk_px=40,
    min_digit_px=20,
    title_cjk_px=80,
    title_digit_px=64,
)


@dataclass
class Finding:
    scene: str
    cue: str
    frame: int
    rule: str
    message: str
    steps: int = 1  #: how many consecutive checks found it (it persisted)
    text: str = ""  #: what the text a ``reading_time`` finding is about says (in full)

    def line(self) -> str:
        more = f" (for {self.steps} steps)" if self.steps > 1 else ""
        return f"{self.scene} · {self.cue} · frame {self.frame}: {self.rule}: {self.message}{more}"


@dataclass
class Allowance:
    """An intentional exception a scene declares, with its reason."""

    rule: str
    mobjects: tuple[Any, ...]
    reason: str
    declared_in: str
    used: int = 0

    def covers(self, rule: str, subjects: Iterable[Any]) -> bool:
        if rule != self.rule:
            return False
        subjects = list(subjects)
        return all(any(s in m.get_family() for s in subjects) for m in self.mobjects)


@dataclass
class Report:
    scene: str
    findings: list[Finding] = field(default_factory=list)
    steps: int = 0
    #: cue id -> text units on screen after the cue's last step (a cue with nothing to read shows 0)
    texts_at_cue_end: dict[str, int] = field(default_factory=dict)

    def lines(self) -> list[str]:
        return [f.line() for f in self.findings]


# -- what is visible -----------------------------------------------------------------------------
def _opacity(mob) -> float:
    if not hasattr(mob, "get_fill_opacity"):
        return 0.0
    return max(float(mob.get_fill_opacity()), float(mob.get_stroke_opacity()) if mob.get_stroke_width() > 0 else 0.0)


def _drawn(mob) -> bool:
    """A leaf that puts ink on the frame: it has points and some opacity."""
    from manim import VMobject  # Manim: heavy, only when a scene is built

    return isinstance(mob, VMobject) and len(mob.points) > 0 and _opacity(mob) > 0


def _box(mobs: Iterable[Any]) -> tuple[float, float, float, float] | None:
    import numpy as np  # numpy: only when a frame is checked

    pts = [m.points for m in mobs if _drawn(m)]
    if not pts:
        return None
    p = np.vstack(pts)
    return float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()), float(p[:, 1].max())


def is_text_unit(mob) -> bool:
    return _text_unit_class(type(mob))


@lru_cache(maxsize=None)
def _text_unit_class(cls: type) -> bool:
    """Whether objects of ``cls`` are text units (asked for every mobject on every frame: once per class)."""
    from manim import Code, DecimalNumber, Text, Typst  # Manim: heavy, only when a scene is built

    return issubclass(cls, (Text, Typst, Code, DecimalNumber)) or bool(getattr(cls, "TEXT_UNIT", False))


def text_units(mobjects: Iterable[Any]) -> list[Any]:
    """The outermost text units among ``mobjects`` and their families, plus stray formula glyphs."""
    out: list[Any] = []
    seen: set[int] = set()

    def walk(mob) -> None:
        if id(mob) in seen:
            return
        seen.add(id(mob))
        if is_text_unit(mob) or (not mob.submobjects and type(mob).__name__ == "VMobjectFromSVGPath"):
            if any(_drawn(m) for m in mob.get_family()):
                out.append(mob)
            return
        for sub in mob.submobjects:
            walk(sub)

    for top in mobjects:
        walk(top)
    return out


def describe(mob) -> str:
    text = getattr(mob, "text", None)
    if not isinstance(text, str):
        text = getattr(mob, "typst_code", None)
    if isinstance(text, str) and text:
        short = text if len(text) <= 24 else text[:23] + "…"
        return f"{type(mob).__name__} {short!r}"
    return type(mob).__name__


def _parts(unit) -> list[Any]:
    """The pieces of a text unit that must not cover one another: the texts a composite unit is made
    of (a label, its number, a suffix), or the glyphs of a number laid out by hand (``glyph_pairs``)."""
    from manim import Code, DecimalNumber, Text, Typst  # Manim: heavy, only when a scene is built

    if isinstance(unit, (Text, Typst, Code, DecimalNumber)):
        return []
    own = getattr(unit, "glyph_pairs", None)
    if callable(own):
        return [g for _, g in own() if _drawn(g)]
    parts: list[Any] = []

    def walk(mob) -> None:
        for sub in mob.submobjects:
            if isinstance(sub, (Text, Typst)) or callable(getattr(sub, "glyph_pairs", None)):
                if any(_drawn(m) for m in sub.get_family()):
                    parts.append(sub)
            else:
                walk(sub)

    walk(unit)
    return parts


# -- sizes ---------------------------------------------------------------------------------------
def glyph_pairs(unit) -> list[tuple[str, Any]] | None:
    """(character, glyph mobject) for a unit whose glyphs map to characters, else None."""
    from manim import Code, Text  # Manim: heavy, only when a scene is built

    own = getattr(unit, "glyph_pairs", None)
    if callable(own):
        return list(own())
    if isinstance(unit, Text):
        chars = [c for c in unit.text if not c.isspace()]
        if len(chars) == len(unit.submobjects):
            return list(zip(chars, unit.submobjects))
        return None
    if isinstance(unit, Code):
        source = getattr(unit, "code_string", None)
        if not isinstance(source, str):
            return None
        pairs = []
        for line, glyphs in zip(source.splitlines(), unit.code_lines):
            chars = [c for c in line if not c.isspace()]
            if len(chars) != len(glyphs):
                return None
            pairs += list(zip(chars, glyphs))
        return pairs
    return None


@lru_cache(maxsize=None)
def _typst_px_per_point(cls: type, preamble: str, sample: str) -> float:
    """Height in scene units of ``sample`` per font point, for a Typst class and preamble."""
    mob = cls(sample, font_size=100, typst_preamble=preamble)
    return max(m.height for m in mob.family_members_with_points()) / 100.0


@dataclass
class UnitSize:
    cjk_px: float | None  #: tallest CJK glyph, if the unit has Chinese
    digit_px: float | None  #: digit height (measured, or from the drawn font size)


def unit_size(unit, px_per_unit: float) -> UnitSize:
    """The drawn size of a text unit, in pixels at the reference height."""
    from manim import Text, Typst  # Manim: heavy, only when a scene is built

    parts: list[Any] = [unit]
    pairs = glyph_pairs(unit)
    if pairs is None and not isinstance(unit, (Text, Typst)):
        # a composite unit (a label beside its number): measure each part it is made of
        parts = [m for m in unit.get_family()[1:] if glyph_pairs(m) is not None or isinstance(m, Typst)]
    cjk, digit = [], []
    for part in parts:
        pp = glyph_pairs(part)
        if pp is not None:
            shown = [(c, g) for c, g in pp if _drawn(g)]
            cjk += [g.height for c, g in shown if is_cjk(c)]
            digit += [g.height for c, g in shown if DIGIT.match(c)]
            if not any(is_cjk(c) or DIGIT.match(c) for c, _ in shown) and shown and isinstance(part, Text):
                digit.append(_text_digit_height(part))
        elif isinstance(part, Typst):
            if not any(_drawn(m) for m in part.get_family()):
                continue
            size = float(part.font_size)
            source = part.typst_code
            if has_cjk(source):
                cjk.append(size * _typst_px_per_point(type(part), part.typst_preamble, "中"))
            digit_h = size * _typst_px_per_point(type(part), part.typst_preamble, "0")
            digit.append(digit_h)
            if SCRIPT_DIGIT.search(source):  # a digit in a sub- or superscript is set smaller
                digit.append(digit_h * TYPST_SCRIPT_SCALE)
    return UnitSize(max(cjk) * px_per_unit if cjk else None, min(digit) * px_per_unit if digit else None)


def _text_digit_height(text) -> float:
    """The digit height a Text of this font and drawn size has (for text with no digit or CJK glyph)."""
    return float(text.font_size) * _text_digit_per_point(text.font)


@lru_cache(maxsize=None)
def _text_digit_per_point(font: str) -> float:
    from manim import Text  # Manim: heavy, only when a scene is built

    return Text("0", font=font, font_size=100).height / 100.0


# -- contrast ------------------------------------------------------------------------------------
def _srgb(color) -> np.ndarray:
    import numpy as np  # numpy: only when a frame is checked
    from manim import ManimColor  # Manim: heavy, only when a scene is built

    return np.array(ManimColor.parse(color).to_rgb(), dtype=float)


def relative_luminance(rgb: np.ndarray) -> float:
    """WCAG 2 relative luminance of an sRGB colour with channels in [0, 1]."""
    import numpy as np  # numpy: only when a frame is checked

    c = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])


def contrast_ratio(a: np.ndarray, b: np.ndarray) -> float:
    la, lb = relative_luminance(a), relative_luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def _inside(mob, x: float, y: float) -> bool:
    """Even-odd test of (x, y) against the closed outline through the mobject's anchors."""
    pts = mob.points
    n = mob.n_points_per_cubic_curve
    if len(pts) < n:
        return False
    starts, ends = pts[0::n][:, :2], pts[n - 1 :: n][:, :2]
    inside = False
    for (x0, y0), (x1, y1) in zip(starts, ends):
        if (y0 > y) != (y1 > y):
            xc = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if xc > x:
                inside = not inside
    return inside


# -- the check -----------------------------------------------------------------------------------
class ViewerCheck:
    """Attached to a narrated scene; inspects the screen after every step and keeps findings."""

    def __init__(self, scene, rules: ViewerRules) -> None:
        from manim import config  # Manim: heavy, only when a scene is built

        self.scene = scene
        self.rules = rules
        self.width = float(config.frame_width)
        self.height = float(config.frame_height)
        self.px_per_unit = rules.reference_px / self.height
        self.band_top = -self.height / 2 + rules.band_fraction * self.height
        self.background = _srgb(rules.background)
        self.findings: list[Finding] = []
        self.steps = 0
        self._open: dict[tuple[str, str, str], Finding] = {}  # findings seen at the previous step
        self.texts_at_cue_end: dict[str, int] = {}
        self._fading: list[tuple[list[tuple[Any, tuple]], list[Any]]] = []  # per concurrent group
        scene.step_hooks.append(self.inspect)
        if hasattr(scene, "play_hooks"):
            scene.play_hooks.append(self.before_play)
        self.reading = ReadingTime(scene, rules)

    def before_play(self, animations: tuple) -> None:
        """Note which text units a play fades out (with their boxes now, while they are drawn) and
        which it fades in, per group of animations that run at the same time."""
        from manim import AnimationGroup, FadeIn, FadeOut  # Manim: heavy, only when a scene is built

        groups: list[tuple[list, list]] = []

        def walk(anims, bucket) -> None:
            for a in anims:
                if isinstance(a, AnimationGroup):
                    if a.lag_ratio >= 1:  # one after another (Succession): no overlap in time
                        for sub in a.animations:
                            inner: tuple[list, list] = ([], [])
                            groups.append(inner)
                            walk([sub], inner)
                    else:
                        walk(a.animations, bucket)
                elif isinstance(a, FadeOut):
                    for u in text_units([a.mobject]):
                        box = _box(self._glyphs(u))
                        if box is not None:
                            bucket[0].append((u, box))
                elif isinstance(a, FadeIn):
                    bucket[1].append(a.mobject)

        top: tuple[list, list] = ([], [])
        groups.append(top)
        walk(animations, top)
        self._fading = [(outs, ins) for outs, ins in groups if outs and ins]

    # -- one step ---------------------------------------------------------------------------
    def inspect(self, kind: str = "step") -> None:
        self.steps += 1
        scene = self.scene
        frame = max(scene.frame - 1, 0)
        beat = scene._active_beat
        if beat is not None:
            cue = beat.id
        elif scene._cues_done:
            cue = f"(after {scene._cues_done[-1]})"
        else:
            cue = "(before the first cue)"
        found: list[tuple[str, str, tuple[Any, ...]]] = []
        display = self._display_list()
        units = text_units(scene.mobjects)
        if beat is not None:
            self.texts_at_cue_end[beat.id] = len(units)
        found += self._frame_and_band(display, units)
        boxes = {id(u): _box(self._glyphs(u)) for u in units}
        found += self._overlaps(units, boxes)
        found += self._inner_overlaps(units)
        found += self._borders_through_text(units, display)
        found += self._sizes(units)
        found += self._contrast(units, display)
        found += self._crossfades()
        now: dict[tuple[str, str, str], Finding] = {}
        for rule, message, subjects in found:
            allowance = next((a for a in scene.viewer_allowances if a.covers(rule, subjects)), None)
            if allowance is not None:
                allowance.used += 1
                continue
            key = (cue, rule, message)
            if key in now:
                continue
            if key in self._open:
                f = self._open[key]
                f.steps += 1
            else:
                f = Finding(scene.plan.id, cue, frame, rule, message)
                self.findings.append(f)
            now[key] = f
        self._open = now

    def finish(self) -> Report:
        self.findings += self.reading.finish()
        for a in self.scene.viewer_allowances:
            if not a.used:
                self.findings.append(
                    Finding(
                        self.scene.plan.id,
                        "(scene)",
                        self.scene.frame,
                        "unused_exception",
                        f"{a.rule} exception declared at {a.declared_in} excused nothing ({a.reason})",
                    )
                )
        return Report(self.scene.plan.id, self.findings, self.steps, dict(self.texts_at_cue_end))

    # -- rules ------------------------------------------------------------------------------
    def _display_list(self) -> list[Any]:
        camera = self.scene.camera
        return [m for m in camera.get_mobjects_to_display(self.scene.mobjects) if _drawn(m)]

    def _frame_and_band(self, display, units) -> list[tuple[str, str, tuple[Any, ...]]]:
        """Text units as a whole, and every other drawn leaf, against the margin and the band."""
        w, h, m = self.width / 2, self.height / 2, self.rules.margin
        in_text = {id(g) for u in units for g in u.get_family()}
        things = [(u, _box(self._glyphs(u))) for u in units]
        things += [(leaf, _box([leaf])) for leaf in display if id(leaf) not in in_text]
        out = []
        for mob, box in things:
            if box is None:
                continue
            x0, y0, x1, y1 = box
            if x0 < -w + m - EPS or x1 > w - m + EPS or y1 > h - m + EPS or y0 < -h - EPS:
                out.append(
                    (
                        "frame",
                        f"{describe(mob)} leaves the frame's margin (x {x0:.2f}…{x1:.2f}, y {y0:.2f}…{y1:.2f})",
                        (mob,),
                    )
                )
            elif y0 < self.band_top - EPS:
                out.append(
                    (
                        "subtitle_band",
                        f"{describe(mob)} enters the subtitle band (bottom {y0:.2f} < {self.band_top:.2f})",
                        (mob,),
                    )
                )
        return out

    def _overlaps(self, units, boxes) -> list[tuple[str, str, tuple[Any, ...]]]:
        out = []
        share = self.rules.overlap_share
        for i, a in enumerate(units):
            ba = boxes[id(a)]
            if ba is None:
                continue
            for b in units[i + 1 :]:
                bb = boxes[id(b)]
                if bb is None:
                    continue
                w = min(ba[2], bb[2]) - max(ba[0], bb[0])
                h = min(ba[3], bb[3]) - max(ba[1], bb[1])
                if w <= 0 or h <= 0:
                    continue
                smaller = min((ba[2] - ba[0]) * (ba[3] - ba[1]), (bb[2] - bb[0]) * (bb[3] - bb[1]))
                if smaller > 0 and w * h > share * smaller:
                    out.append(
                        (
                            "overlap",
                            f"{describe(a)} overlaps {describe(b)} ({100 * w * h / smaller:.0f}% of the smaller)",
                            (a, b),
                        )
                    )
        return out

    def _borders_through_text(self, units, display) -> list[tuple[str, str, tuple[Any, ...]]]:
        """A text cut by the border of a drawn rectangle: an edge of a stroked ``Rectangle`` (a card, a panel, a
        frame) that is not part of a text passes through a glyph's box, more than ``box_tolerance`` inside it
        (a caption across its panel's top, a label wider than its card). A frame drawn around one line of a
        text passes between the lines and is not a finding; a fill without a stroke (a highlight) has no
        border. A rotated rectangle is taken by its upright box."""
        import numpy as np  # numpy: only when a frame is checked
        from manim import Rectangle  # Manim: heavy, only when a scene is built

        in_text = {id(g) for u in units for g in u.get_family()}
        rects = [
            (r, _box([r]))
            for r in display
            if isinstance(r, Rectangle)
            and id(r) not in in_text
            and r.get_stroke_width() > 0
            and r.get_stroke_opacity() > 0
        ]
        if not rects:
            return []
        owner, rows = [], []
        for i, u in enumerate(units):
            for g in self._glyphs(u):
                b = _box([g])
                if b is not None:
                    owner.append(i)
                    rows.append(b)
        if not rows:
            return []
        g = np.array(rows)
        owner_of = np.array(owner)
        tol = self.rules.box_tolerance
        out = []
        for r, (x0, y0, x1, y1) in rects:
            across_x = np.minimum(g[:, 2], x1) - np.maximum(g[:, 0], x0) > tol  # a horizontal edge's span
            across_y = np.minimum(g[:, 3], y1) - np.maximum(g[:, 1], y0) > tol
            cut = np.zeros(len(g), dtype=bool)
            for y in (y0, y1):
                cut |= across_x & (g[:, 1] + tol < y) & (y < g[:, 3] - tol)
            for x in (x0, x1):
                cut |= across_y & (g[:, 0] + tol < x) & (x < g[:, 2] - tol)
            for i in sorted(set(owner_of[cut].tolist())):
                gx0, gy0, gx1, gy1 = g[np.nonzero(cut & (owner_of == i))[0][0]]
                out.append(
                    (
                        "box",
                        f"the border of a {type(r).__name__} (x {x0:.2f}…{x1:.2f}, y {y0:.2f}…{y1:.2f}) runs through "
                        f"{describe(units[i])} (a glyph at x {gx0:.2f}…{gx1:.2f}, y {gy0:.2f}…{gy1:.2f})",
                        (units[i], r),
                    )
                )
        return out

    def _crossfades(self) -> list[tuple[str, str, tuple[Any, ...]]]:
        out = []
        share = self.rules.overlap_share
        for outs, ins in self._fading:
            for b in text_units(ins):
                bb = _box(self._glyphs(b))
                if bb is None:
                    continue
                for a, ba in outs:
                    w = min(ba[2], bb[2]) - max(ba[0], bb[0])
                    h = min(ba[3], bb[3]) - max(ba[1], bb[1])
                    smaller = min((ba[2] - ba[0]) * (ba[3] - ba[1]), (bb[2] - bb[0]) * (bb[3] - bb[1]))
                    if w > 0 and h > 0 and smaller > 0 and w * h > share * smaller:
                        out.append(
                            (
                                "crossfade",
                                f"{describe(a)} fades out while {describe(b)} fades in on top "
                                f"of it ({100 * w * h / smaller:.0f}% of the smaller); fade "
                                "the old text out first",
                                (a, b),
                            )
                        )
        self._fading = []
        return out

    def _inner_overlaps(self, units) -> list[tuple[str, str, tuple[Any, ...]]]:
        """Parts of one text unit drawn on top of each other: a label's number over its suffix, two
        glyphs of a live number (garbled text that the unit-to-unit check cannot see)."""
        out = []
        share = self.rules.overlap_share
        for unit in units:
            parts = _parts(unit)
            boxes = [(m, _box(m.get_family())) for m in parts]
            boxes = [(m, b) for m, b in boxes if b is not None]
            for i, (a, ba) in enumerate(boxes):
                for b, bb in boxes[i + 1 :]:
                    w = min(ba[2], bb[2]) - max(ba[0], bb[0])
                    h = min(ba[3], bb[3]) - max(ba[1], bb[1])
                    smaller = min((ba[2] - ba[0]) * (ba[3] - ba[1]), (bb[2] - bb[0]) * (bb[3] - bb[1]))
                    if w > 0 and h > 0 and smaller > 0 and w * h > share * smaller:
                        out.append(
                            (
                                "overlap",
                                f"inside {describe(unit)}: {describe(a)} overlaps {describe(b)} "
                                f"({100 * w * h / smaller:.0f}% of the smaller)",
                                (a, b),
                            )
                        )
        return out

    def _sizes(self, units) -> list[tuple[str, str, tuple[Any, ...]]]:
        out = []
        r = self.rules
        for u in units:
            if type(u).__name__ == "VMobjectFromSVGPath":
                continue  # a glyph pulled out of its formula: its size was checked as part of it
            size = unit_size(u, self.px_per_unit)
            if size.cjk_px is not None and size.cjk_px < r.min_cjk_px - 0.05:
                out.append(
                    (
                        "size",
                        f"{describe(u)}: Chinese {size.cjk_px:.0f} px tall at {r.reference_px}p, "
                        f"below {r.min_cjk_px:g} px",
                        (u,),
                    )
                )
            if size.digit_px is not None and size.digit_px < r.min_digit_px - 0.05:
                out.append(
                    (
                        "size",
                        f"{describe(u)}: digits {size.digit_px:.0f} px tall at {r.reference_px}p, "
                        f"below {r.min_digit_px:g} px",
                        (u,),
                    )
                )
        return out

    def _glyphs(self, unit) -> list[Any]:
        from manim import Code  # Manim: heavy, only when a scene is built

        if isinstance(unit, Code):
            return [m for m in unit.code_lines.get_family() if _drawn(m)]
        return [m for m in unit.get_family() if _drawn(m)]

    def _contrast(self, units, display) -> list[tuple[str, str, tuple[Any, ...]]]:
        out = []
        r = self.rules
        order = {id(m): i for i, m in enumerate(display)}
        glyphs_of = {id(u): self._glyphs(u) for u in units}
        glyph_ids = {id(g) for gs in glyphs_of.values() for g in gs}
        # the filled shapes that could sit behind a glyph, in drawing order, each boxed once per step
        fills = [(order[id(m)], m, _box([m])) for m in display if id(m) not in glyph_ids and m.get_fill_opacity() > 0]
        for u in units:
            size = unit_size(u, self.px_per_unit) if type(u).__name__ != "VMobjectFromSVGPath" else UnitSize(None, None)
            title = (size.cjk_px or 0) >= r.title_cjk_px or (
                size.cjk_px is None and (size.digit_px or 0) >= r.title_digit_px
            )
            need = r.min_contrast_title if title else r.min_contrast
            groups: dict[tuple, list[Any]] = {}
            for g in glyphs_of[id(u)]:
                if g.get_fill_opacity() <= 0:
                    continue
                key = (g.get_fill_color().to_hex(), round(float(g.get_fill_opacity()), 3))
                groups.setdefault(key, []).append(g)
            worst = None
            for (hex_color, alpha), glyphs in groups.items():
                x0, y0, x1, y1 = _box(glyphs)
                x, y = (x0 + x1) / 2, (y0 + y1) / 2
                first = min(order.get(id(g), 0) for g in glyphs)
                behind = self.background.copy()
                for at, shape, box in fills:
                    if at >= first:
                        break
                    if box is None:
                        continue
                    sx0, sy0, sx1, sy1 = box
                    if sx0 <= x <= sx1 and sy0 <= y <= sy1 and _inside(shape, x, y):
                        a = float(shape.get_fill_opacity())
                        behind = a * _srgb(shape.get_fill_color().to_hex()) + (1 - a) * behind
                ink = alpha * _srgb(hex_color) + (1 - alpha) * behind
                ratio = contrast_ratio(ink, behind)
                if ratio < need - 1e-9 and (worst is None or ratio < worst[0]):
                    worst = (ratio, hex_color, alpha, behind)
            if worst is not None:
                ratio, hex_color, alpha, behind = worst
                back = "#" + "".join(f"{int(round(255 * c)):02x}" for c in behind)
                out.append(
                    (
                        "contrast",
                        f"{describe(u)}: {hex_color} at opacity {alpha:g} on {back} is {ratio:.2f}:1, below {need:g}:1",
                        (u,),
                    )
                )
        return out


# -- reading time --------------------------------------------------------------------------------
def cue_now(scene) -> str:
    """The cue a finding is reported under: the running beat's id, or where the scene is between beats."""
    beat = scene._active_beat
    if beat is not None:
        return beat.id
    return f"(after {scene._cues_done[-1]})" if scene._cues_done else "(before the first cue)"


def reading_text(unit) -> str:
    """What a text unit says: a ``Text``'s text, a ``Typst`` source, a ``Code`` listing, the characters of
    a unit drawn from glyphs (``glyph_pairs``), a composite unit's parts in order."""
    from manim import Code, DecimalNumber, Text, Typst  # Manim: heavy, only when a scene is built

    if isinstance(unit, Text):
        return str(unit.text)
    if isinstance(unit, Typst):
        return str(unit.typst_code)
    if isinstance(unit, Code):
        return str(getattr(unit, "code_string", ""))
    own = getattr(unit, "glyph_pairs", None)
    if callable(own):
        return "".join(ch for ch, g in own() if _drawn(g))
    if isinstance(unit, DecimalNumber):
        return "".join(str(getattr(m, "text", "")) for m in unit.submobjects)
    parts = _parts(unit)
    if parts:
        return "".join(reading_text(p) for p in parts)
    text = getattr(unit, "text", None)
    return text if isinstance(text, str) else ""


def reading_cells(unit) -> float:
    """The characters reading ``unit`` takes, in full-width cells (``text_cells``: a Chinese character 1,
    a Latin or Greek letter, digit or ASCII mark ½). A Typst formula counts the glyphs it draws (its
    source's visible characters: ``theta`` is one, ``mat(…)`` its entries and brackets), its Chinese
    characters 1 and the rest ½; a ``DecimalNumber`` its glyphs, ½ each."""
    from manim import Code, DecimalNumber, Text, Typst  # Manim: heavy, only when a scene is built

    if isinstance(unit, Typst):
        glyphs = len(unit.family_members_with_points())
        cjk = sum(1 for ch in str(unit.typst_code) if is_cjk(ch))
        return cjk + 0.5 * max(0, glyphs - cjk)
    if isinstance(unit, DecimalNumber) and not reading_text(unit):
        return 0.5 * len(unit.submobjects)
    if not isinstance(unit, (Text, Code, DecimalNumber)) and not callable(getattr(unit, "glyph_pairs", None)):
        parts = _parts(unit)  # a composite unit: its parts, each counted as it is drawn
        if parts:
            return sum(reading_cells(p) for p in parts)
    return text_cells(reading_text(unit))


def _extent(mob) -> tuple[float, float, float, float] | None:
    """The box of every point of ``mob``'s family, drawn or not (a text that has just gone still has its
    points where it was)."""
    import numpy as np  # numpy: only when a frame is checked

    pts = [m.points for m in mob.get_family() if len(getattr(m, "points", ()))]
    if not pts:
        return None
    p = np.vstack(pts)
    return float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()), float(p[:, 1].max())


def _meet(a, b) -> bool:
    return a is not None and b is not None and a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _clip(text: str, most: int = 40) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


@dataclass
class Shown:
    """One text while it is on screen: from ``start`` (the first frame it is visible) to ``end`` (the first
    frame it is gone)."""

    unit: Any
    start: int
    cue: str
    text: str
    cells: float
    end: int | None = None


class ReadingTime:
    r"""The rule ``reading_time``: every text stays on screen long enough to be read.

    A text is one *text unit* (see the module doc: a ``Text``, a Typst formula, a label with its live
    number, taken whole); a glyph pulled out of its formula is part of a motion, not a text, and is left
    out. It is on screen from the first frame it is drawn (some glyph with points and opacity above 0,
    its box meeting the frame) to the first frame it is not: faded out, removed, moved out of the frame,
    or the scene's end. The screen is sampled on every frame the renderer draws, and as every ``play`` and
    ``wait`` starts and ends (a frozen wait draws no frame). Whether a box meets the frame is measured as
    a text appears and at the start and end of each step (a text that leaves the frame during a play
    is gone from the play's end), as boxing every text on every frame costs a tenth of a dry run.

    A text whose content changes is the same text: a unit updated in place (a ticking number, a label
    that ``become``\ s another) keeps its identity, and a unit that takes the place of one that went in
    the same frame with boxes that meet (``ReplacementTransform``, ``remove`` then ``add``, a readout
    rebuilt every frame) continues it. Its reading needs the most characters it showed (sampled after
    each step). A text that goes and comes back is read again: each stay is checked.

    It needs ``min_read_s + cells / read_chars_per_second`` seconds, with ``cells`` from
    :func:`reading_cells`; a stay shorter than that is a finding, reported under the cue and the frame the
    text appeared in, unless the scene declared it: ``self.allow("reading_time", text, reason=...)``.
    """

    def __init__(self, scene, rules: ViewerRules) -> None:
        from manim import config  # Manim: heavy, only when a scene is built

        self.scene = scene
        self.rules = rules
        self.half_w = float(config.frame_width) / 2
        self.half_h = float(config.frame_height) / 2
        self.open: dict[int, Shown] = {}  # id(unit) -> its stay
        self._inside: dict[int, tuple[Any, bool]] = {}  # id(unit) -> (unit, its box met the frame when measured)
        self.stays: list[Shown] = []  # every stay that ended, in the order they ended
        self.findings: list[Finding] = []
        renderer = scene.renderer
        original_render = renderer.render

        def render(s: Any, time: float, moving_mobjects: Any = None) -> None:
            self.sample(boundary=False)
            original_render(s, time, moving_mobjects)

        renderer.render = render  # type: ignore[method-assign]
        scene.step_hooks.append(lambda kind="step": self.sample(boundary=True, recount=True))
        if hasattr(scene, "play_hooks"):  # a frozen wait draws no frame: what it holds is seen as it starts
            scene.play_hooks.append(lambda animations: self.sample(boundary=True))

    def _visible(self, boundary: bool) -> list[Any]:
        """The text units drawn now whose box meets the frame (measured for a unit first seen, and at the
        start and end of each step; in between, a unit keeps its last answer)."""
        w, h = self.half_w, self.half_h
        out = []
        for u in text_units(self.scene.mobjects):
            if type(u).__name__ == "VMobjectFromSVGPath":
                continue  # a glyph pulled out of its formula
            known = None if boundary else self._inside.get(id(u))
            if known is not None and known[0] is u:
                inside = known[1]
            else:
                box = _box(u.get_family())
                inside = box is not None and box[0] <= w and box[2] >= -w and box[1] <= h and box[3] >= -h
                self._inside[id(u)] = (u, inside)
            if inside:
                out.append(u)
        return out

    def sample(self, boundary: bool, recount: bool = False) -> None:
        """Open a stay for each text that appeared, close the stay of each that went; after a step,
        count again what the open texts show."""
        frame = int(self.scene.frame)
        visible = self._visible(boundary)
        now = {id(u) for u in visible}
        gone = [self.open.pop(k) for k in list(self.open) if k not in now]
        for stay in gone:
            stay.end = frame
        for u in visible:
            stay = self.open.get(id(u))
            count = recount
            if stay is None:
                box = _extent(u)
                before = next((g for g in gone if g.end == frame and _meet(_extent(g.unit), box)), None)
                if before is not None:  # it takes the place of a text that went in this frame
                    gone.remove(before)
                    stay = Shown(u, before.start, before.cue, before.text, before.cells)
                else:
                    stay = Shown(u, frame, cue_now(self.scene), reading_text(u), reading_cells(u))
                self.open[id(u)] = stay
                count = stay.start != frame  # a continued text may show more than the one it continues
            if count:
                cells = reading_cells(u)
                if cells > stay.cells:
                    stay.cells, stay.text = cells, reading_text(u)
        for stay in gone:
            self._close(stay)

    def needed_s(self, cells: float) -> float:
        return self.rules.min_read_s + cells / self.rules.read_chars_per_second

    def _close(self, stay: Shown) -> None:
        self.stays.append(stay)
        fps = float(self.scene.fps)
        shown = (stay.end - stay.start) / fps
        need = self.needed_s(stay.cells)
        if shown >= need - 1e-9 or not stay.cells:
            return
        allowance = next((a for a in self.scene.viewer_allowances if a.covers("reading_time", (stay.unit,))), None)
        if allowance is not None:
            allowance.used += 1
            return
        self.findings.append(
            Finding(
                self.scene.plan.id,
                stay.cue,
                stay.start,
                "reading_time",
                f"{type(stay.unit).__name__} {_clip(stay.text)!r} is on screen {shown:.2f} s (frames {stay.start}–"
                f"{stay.end}), reading its {stay.cells:g} characters takes {need:.2f} s",
                text=stay.text,
            )
        )

    def finish(self) -> list[Finding]:
        """Close every stay at the scene's end; the findings, in the order the texts appeared."""
        end = int(self.scene.frame)
        for stay in list(self.open.values()):
            stay.end = end
            self._close(stay)
        self.open.clear()
        return sorted(self.findings, key=lambda f: f.frame)


# -- building a scene and checking it ----------------------------------------------------------
def attach(scene, rules: ViewerRules) -> ViewerCheck:
    """Check ``scene`` after every step from now on; call ``.finish()`` after ``render()``."""
    return ViewerCheck(scene, rules)


def build_dry_run(
    scene_cls: type,
    plan,
    *,
    media_dir: Path,
    rules: ViewerRules | None = None,
    pixel_width: int = 854,
    pixel_height: int = 480,
):
    """Construct ``scene_cls`` from ``plan`` without drawing or writing video.

    Text is laid out as in a render: Manim gives Pango a canvas as wide as ``pixel_width``, so the
    preview's 854 px is used rather than a tiny camera (on which long lines would wrap). The camera
    captures nothing and Manim's play cache is off; every mobject still moves as in the video.
    Returns ``(scene, report)``; ``report`` is None without ``rules``. Every string the scene drew is in
    ``scene.drawn_texts`` (a list of :class:`~coursekit.render.drawn_text.DrawnText`, in the order seen),
    every turn of a drawn line in ``scene.turns`` (:class:`~coursekit.render.motion.Turn`).
    """
    from manim import tempconfig  # Manim: heavy, only when a scene is built

    with tempconfig(
        {
            "dry_run": True,
            "disable_caching": True,
            "frame_rate": plan.fps,
            "pixel_width": pixel_width,
            "pixel_height": pixel_height,
            "media_dir": str(media_dir),
            "progress_bar": "none",
            "verbosity": "ERROR",
        }
    ):
        scene = scene_cls(plan=plan)
        scene.renderer.camera.capture_mobjects = lambda *a, **k: None  # nothing here looks at pixels
        check = attach(scene, rules) if rules is not None else None
        texts = drawn_text.attach(scene)
        turns = motion.attach(scene)
        scene.render()
        scene.drawn_texts = texts.texts
        scene.turns = turns.finish()
        report = check.finish() if check is not None else None
    return scene, report


def check_scene(scene_cls: type, plan, rules: ViewerRules, *, media_dir: Path) -> Report:
    """The viewer check's findings for one scene built from ``plan`` (a dry run)."""
    return build_dry_run(scene_cls, plan, media_dir=media_dir, rules=rules)[1]


def iter_lines(reports: Iterable[Report]) -> Iterator[str]:
    for r in reports:
        yield from r.lines()
