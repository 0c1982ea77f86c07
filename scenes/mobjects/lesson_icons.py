"""Small pictures (about ``size`` wide) that stand for the lesson's ideas in a table or recap.

Decorative: they show a kind of picture (a pointer, a turn, two turns adding, clocks,
an angle between two arrows, a shuffle), not values, so their angles are fixed drawing choices.
"""

from __future__ import annotations

import numpy as np
from manim import ORIGIN, RIGHT, Arc, Arrow, Circle, Dot, Line, VGroup

from scenes import theme


def _dir(deg: float) -> np.ndarray:
    a = np.radians(deg)
    return np.array([np.cos(a), np.sin(a), 0.0])


def pointer_icon(size: float = 0.6) -> VGroup:
    """A unit circle with a pointer and its tip (sin/cos)."""
    r = size / 2
    circle = Circle(radius=r, color=theme.MUTED, stroke_width=2)
    hand = Line(ORIGIN, r * _dir(40), color=theme.TEXT, stroke_width=3)
    tip = Dot(r * _dir(40), radius=0.05, color=theme.ANGLE)
    cos = Line(ORIGIN, r * _dir(40)[0] * RIGHT, color=theme.COS, stroke_width=3)
    icon = VGroup(circle, cos, hand, tip)
    icon.hand, icon.tip, icon.cos = hand, tip, cos
    return icon


def turn_icon(size: float = 0.6) -> VGroup:
    """An arrow, its turned copy, and the arc of the turn (a rotation matrix)."""
    r = size * 0.55
    start = Arrow(ORIGIN, r * _dir(0), buff=0, color=theme.MUTED, stroke_width=3, max_tip_length_to_length_ratio=0.35)
    end = Arrow(ORIGIN, r * _dir(70), buff=0, color=theme.TEXT, stroke_width=3, max_tip_length_to_length_ratio=0.35)
    arc = Arc(radius=r * 0.55, start_angle=0, angle=np.radians(70), color=theme.ANGLE, stroke_width=3)
    return VGroup(start, arc, end).move_to(ORIGIN)


def arcs_icon(size: float = 0.6) -> VGroup:
    """Two turns in a row and the one turn they make (angle addition)."""
    r = size / 2
    a = Arc(radius=r * 0.7, start_angle=0, angle=np.radians(50), color=theme.ANGLE, stroke_width=4)
    b = Arc(radius=r * 0.7, start_angle=np.radians(50), angle=np.radians(70), color=theme.HIGHLIGHT, stroke_width=4)
    total = Arc(radius=r, start_angle=0, angle=np.radians(120), color=theme.TEXT, stroke_width=2)
    rays = VGroup(
        Line(ORIGIN, r * _dir(0), color=theme.MUTED, stroke_width=2),
        Line(ORIGIN, r * _dir(120), color=theme.MUTED, stroke_width=2),
    )
    return VGroup(rays, a, b, total).move_to(ORIGIN)


def clocks_icon(size: float = 0.6) -> VGroup:
    """Three small clocks whose hands sit at different angles (many speeds)."""
    r = size / 6.6  # three faces 2.3 r apart: the row is 6.6 r wide
    out = VGroup()
    for k, deg in enumerate((150, 60, 10)):
        c = np.array([(k - 1) * 2.3 * r, 0.0, 0.0])
        out.add(
            Circle(radius=r, color=theme.MUTED, stroke_width=2).move_to(c),
            Line(c, c + 0.85 * r * _dir(deg), color=theme.ANGLE, stroke_width=3),
        )
    return out


def angle_icon(size: float = 0.6) -> VGroup:
    """A q arrow, a k arrow and the angle between them (a dot product)."""
    r = size * 0.6
    q = Arrow(ORIGIN, r * _dir(20), buff=0, color=theme.Q, stroke_width=3, max_tip_length_to_length_ratio=0.35)
    k = Arrow(ORIGIN, r * _dir(85), buff=0, color=theme.K, stroke_width=3, max_tip_length_to_length_ratio=0.35)
    arc = Arc(radius=r * 0.45, start_angle=np.radians(20), angle=np.radians(65), color=theme.ANGLE, stroke_width=3)
    return VGroup(q, k, arc).move_to(ORIGIN)


def shuffle_icon(size: float = 0.6) -> VGroup:
    """Three words on a row and the same three in another order, joined word to word (a shuffle)."""
    r = size / 2
    colors = (theme.Q, theme.K, theme.ANGLE)
    xs = (-0.7 * r, 0.0, 0.7 * r)
    order = (2, 0, 1)
    out = VGroup()
    for k, color in enumerate(colors):
        top = np.array([xs[k], 0.45 * r, 0.0])
        bottom = np.array([xs[order.index(k)], -0.45 * r, 0.0])
        out.add(Line(top, bottom, color=theme.MUTED, stroke_width=2))
        out.add(Dot(top, radius=0.06, color=color), Dot(bottom, radius=0.06, color=color))
    return out


ICONS = {
    "pointer": pointer_icon,
    "turn": turn_icon,
    "arcs": arcs_icon,
    "clocks": clocks_icon,
    "angle": angle_icon,
    "shuffle": shuffle_icon,
}
