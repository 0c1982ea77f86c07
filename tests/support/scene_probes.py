"""Small readers of a built scene's probes and drawn texts, shared by tests/course/'s scene and lesson files: a
sample at a frame, the one sample of a probe, Text as drawn (no spaces), figures in Typst lines.
"""

from __future__ import annotations

import re

import numpy as np

from narration import figures


def at_frame(samples, frame):
    hits = [s for s in samples if s["frame"] == frame]
    assert hits, f"no sample on frame {frame}"
    return hits[0]


def bare(text: str) -> str:
    """Text as Manim's ``Text.text`` keeps it (without spaces)."""
    return "".join(text.split())


def wrap(a):
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


def first_drawn(scene, text: str):
    """The first record of ``text`` on screen (``DrawnText``: its frame and cue), or None."""
    hits = [t for t in scene.drawn_texts if bare(t.text) == bare(text)]
    return min(hits, key=lambda t: t.frame) if hits else None


def one(scene, name):
    samples = scene.probes[name]
    assert len(samples) == 1, name
    return samples[0]


def last_before(samples, frame):
    hits = [s for s in samples if s["frame"] <= frame]
    assert hits, f"no sample before frame {frame}"
    return hits[-1]


def sci_in(code: str) -> float:
    """The number a Typst line shows as ``m times 10^(e)`` (how these scenes typeset a measured error)."""
    found = re.findall(r"(\d+(?:\.\d+)?) times 10\^\((-?\d+)\)", code)
    assert len(found) == 1, f"one figure expected in {code!r}"
    return float(found[0][0]) * 10.0 ** int(found[0][1])


def shows_figure(code: str, name: str) -> bool:
    """The Typst line shows exactly the figure ``name`` (the subtitles' written form, same digits)."""
    return sci_in(code) == figures.parse_figure(figures.value(name))


def plain_typst(code: str) -> str:
    """The characters a Typst label draws: colour markup and ``$…$`` math names dropped."""
    code = re.sub(r'#text\(fill: rgb\("[^"]*"\)\)\[', "", code).replace("]", "")
    return code.replace("$", "").replace("theta", "θ").replace("degree", "°")
