"""Text and Typst built inside updaters: what a per-frame re-typesetting would show."""

from __future__ import annotations

import sys
from collections import Counter
from contextlib import contextmanager

# scene id -> (frames drawn, Counter of SVG mobjects built inside updaters), filled by every
# NarratedScene render in this test session (conftest's _record_typesetting); read by
# tests/course/test_scenes_typesetting.py
TYPESET_IN_UPDATERS: dict[str, tuple[int, Counter]] = {}


@contextmanager
def typesetting_in_updaters():
    """Count SVG-built mobjects (Text, Typst, SVGMobject) constructed while an updater runs,
    keyed by (class, text). Per-frame re-typesetting would show up here once per frame."""
    from manim import SVGMobject

    built: Counter = Counter()
    orig = SVGMobject.__init__

    def recording(self, *args, **kwargs):
        f = sys._getframe(1)
        while f is not None:
            if f.f_code.co_name == "update" and f.f_code.co_filename.endswith("mobject.py"):
                built[(type(self).__name__, str(args[0]) if args else "")] += 1
                break
            f = f.f_back
        orig(self, *args, **kwargs)

    SVGMobject.__init__ = recording
    try:
        yield built
    finally:
        SVGMobject.__init__ = orig
