"""Reading what a scene drew: angles of arrows and arcs from their points, numbers from label text.

The label-equals-drawing tests (in tests/course/test_scene_*.py and test_lesson_*.py) compare what a label *says* (the
text of the mobject, as a viewer reads it) with what the picture *shows* (geometry measured from
the mobjects' points, never from the inputs they were built from). Scenes record both with
``watch()``: the label's ``.text`` and whether it is on screen, and the raw points (an arrow's start
and end, an arc's centre, start and end). These helpers turn them into numbers.

Each check is a function ``samples -> list of disagreements``, so a test can also feed it perturbed
samples and see it fail.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import numpy as np

NUMBER = re.compile(r"[−\-+]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?")  # 60,611 is one number; (1,0.5) two


def direction_deg(start, end) -> float:
    """Direction of the segment start → end, in degrees in (−180, 180]."""
    d = np.asarray(end, dtype=float)[:2] - np.asarray(start, dtype=float)[:2]
    return float(np.degrees(np.arctan2(d[1], d[0])))


def signed_gap_deg(from_deg: float, to_deg: float) -> float:
    """The angle turning ``from`` into ``to``, in (−180, 180] (counter-clockwise positive)."""
    g = (to_deg - from_deg + 180.0) % 360.0 - 180.0
    return 180.0 if g == -180.0 else g


def arc_sweep_deg(center, start, end) -> float:
    """The signed angle an arc sweeps from its start point to its end point about its centre."""
    return signed_gap_deg(direction_deg(center, start), direction_deg(center, end))


def length(start, end) -> float:
    return float(np.linalg.norm(np.asarray(end, dtype=float)[:2] - np.asarray(start, dtype=float)[:2]))


def numbers_in(text: str) -> list[float]:
    """Every number written in ``text`` (U+2212 minus, thousands commas), in order."""
    return [float(m.replace("−", "-").replace(",", "")) for m in NUMBER.findall(text)]


def last_number(text: str) -> float:
    found = numbers_in(text)
    if not found:
        raise ValueError(f"no number in {text!r}")
    return found[-1]


def disagreements(
    samples: Iterable[dict],
    *,
    shown: Callable[[dict], bool],
    said: Callable[[dict], float],
    drawn: Callable[[dict], float],
    tol: float,
    what: str,
) -> list[str]:
    """Frames where a visible label's value and the drawn value differ by more than ``tol``."""
    out = []
    for s in samples:
        if not shown(s):
            continue
        a, b = said(s), drawn(s)
        if not abs(a - b) <= tol:
            out.append(f"frame {s['frame']}: {what}: label says {a:g}, drawing shows {b:g}")
    return out


TYPST_FILL = re.compile(r'#text\(fill:\s*rgb\("[^"]*"\)\)\[')


def typst_plain(code: str) -> str:
    """A Typst source as read on screen, roughly: colour wrappers, ``$`` and spaces dropped
    (``#text(fill: rgb("#fff"))[$x_1$] + …`` → ``x_1+…``)."""
    return "".join(TYPST_FILL.sub("", code).replace("]", "").replace("$", "").split())


def card_disagreements(samples: Iterable[dict]) -> list[str]:
    """The x + p card (``SeatCard.probe_values`` with ``on_screen``): before the merge, column j holds x_{j+1}
    above p_{j+1}, columns left to right; after it, one row (all cells at one height) reading
    x_1+p_1, x_2+p_2 … left to right."""
    out = []
    for s in samples:
        if not s["on_screen"]:
            continue
        if not s["merged"]:
            for j, (xl, pl, xc, pc) in enumerate(zip(s["x_labels"], s["p_labels"], s["x"], s["p"])):
                if (typst_plain(xl), typst_plain(pl)) != (f"x_{j + 1}", f"p_{j + 1}"):
                    out.append(f"frame {s['frame']}: column {j} says {xl!r} / {pl!r}")
                if abs(xc[0] - pc[0]) > 1e-6 or xc[1] < pc[1] - 1e-9:  # (they meet as the rows merge)
                    out.append(f"frame {s['frame']}: column {j}: x is not drawn above its p")
            xs = [c[0] for c in s["x"]]
            if xs != sorted(xs):
                out.append(f"frame {s['frame']}: the columns are not drawn left to right")
            continue
        ys = [c[1] for c in s["centers"]]
        if max(ys) - min(ys) > 1e-6:
            out.append(f"frame {s['frame']}: the merged cells are not one row")
        order = sorted(range(len(s["centers"])), key=lambda j: s["centers"][j][0])
        read = [typst_plain(s["labels"][j]) for j in order]
        want = [f"x_{j + 1}+p_{j + 1}" for j in range(len(order))]
        if read != want:
            out.append(f"frame {s['frame']}: the merged row reads {read}, not {want}")
    return out
