"""When a character of a spoken text is spoken: one interpolation over a voice's boundary timings."""

from __future__ import annotations

import bisect
from collections.abc import Callable


def time_at(timings: list[tuple[int, float]], duration: float, n_chars: int) -> Callable[[float], float]:
    """Seconds at which the character at a (fractional) spoken offset is spoken.

    ``timings`` are (offset into the spoken text, seconds from the audio start) at the boundaries
    the voice knows; the text starts at 0 s and its end (``n_chars``) is the end of the audio
    (``duration``). Between two boundaries the time is proportional to characters; offsets outside
    the text are clamped to it.
    """
    pts = sorted(set((int(o), float(t)) for o, t in timings if 0 <= o <= n_chars))
    if not pts or pts[0][0] != 0:
        pts.insert(0, (0, 0.0))
    if pts[-1][0] < n_chars:
        pts.append((n_chars, duration))
    offs = [p[0] for p in pts]

    def f(offset: float) -> float:
        if offset <= 0:
            return 0.0
        if offset >= n_chars:
            return duration
        i = bisect.bisect_right(offs, offset) - 1
        (o0, t0), (o1, t1) = pts[i], pts[min(i + 1, len(pts) - 1)]
        if o1 == o0:
            return t0
        return t0 + (t1 - t0) * (offset - o0) / (o1 - o0)

    return f
