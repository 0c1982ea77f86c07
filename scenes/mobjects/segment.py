"""Re-placing a straight line every frame, cheaply.

``Mobject.put_start_and_end_on`` rotates and scales with scipy rotation matrices, about 0.15 ms
for a Line and 0.4 ms for a DashedLine here; a scene that re-places a few of them on each of
3,000 frames spends seconds on it. :func:`place_segment` writes the same points directly.
"""

from __future__ import annotations

import numpy as np
from manim import DashedLine, Line, VMobject


def place_segment(line: VMobject, start: np.ndarray, end: np.ndarray) -> VMobject:
    """Put ``line`` (a Line or DashedLine, no tips) from ``start`` to ``end``.

    A Line gets the four Bézier points of the straight segment (what Line itself builds). A
    DashedLine is moved by the rotation and scaling that takes its old ends to the new ones, so
    its dash pattern stretches exactly as with ``put_start_and_end_on``.
    """
    a, b = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
    if isinstance(line, DashedLine):
        s0, e0 = line.get_start(), line.get_end()
        old, new = (e0 - s0)[:2], (b - a)[:2]
        n_old = float(np.hypot(*old))
        if n_old < 1e-12:
            return line.put_start_and_end_on(a, b)
        # the similarity z ↦ (new/old)·z in complex form, as a 2×2 matrix
        ratio = complex(*new) / complex(*old)
        m = np.array([[ratio.real, -ratio.imag], [ratio.imag, ratio.real]])
        for sub in line.family_members_with_points():
            pts = sub.points
            pts[:, :2] = a[:2] + (pts[:, :2] - s0[:2]) @ m.T
        return line
    if isinstance(line, Line) and not line.has_tip() and not line.has_start_tip() and not line.submobjects:
        line.points = np.array([a, a + (b - a) / 3, a + 2 * (b - a) / 3, b])
        return line
    return line.put_start_and_end_on(a, b)
