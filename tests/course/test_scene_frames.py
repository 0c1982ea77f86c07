"""Last-frame regression of the core scenes against committed control data.

Regenerate after an intended visual change with
``.venv/bin/python -m pytest tests/course/test_scene_frames.py --set_test``.
"""

from __future__ import annotations

import cairo
import pytest
from manim.utils.testing import frames_comparison as _fc
from manim.utils.testing.frames_comparison import frames_comparison

from scenes.angle_addition import AngleAddition
from scenes.base import preview_plan
from scenes.clock_row import ClockSpeeds, PaperClockSpeeds
from scenes.rope_invariance import RopeInvariance
from scenes.unit_circle import UnitCirclePointer

__module_test__ = "scenes"
pytestmark = pytest.mark.render  # each test draws its scene's last frame in Cairo (make test-fast leaves it out)
# Manim skips graphical tests below cairo 1.18 because *its* control data was made
# with 1.18. Ours is made on this machine (Debian's cairo 1.16), so compare anyway;
# regenerate with --set_test if the system cairo changes.
_fc.MIN_CAIRO_VERSION = min(_fc.MIN_CAIRO_VERSION, cairo.cairo_version())
FPS = 15
SECONDS = 2.0  # per cue: with skipped animations only the end state is computed


def _planned(cls, scene_id=None):
    return type(f"{cls.__name__}Frames", (cls,), {"PLAN": preview_plan(cls, scene_id, fps=FPS, seconds=SECONDS)})


_CFG = {"frame_rate": FPS}


@frames_comparison(base_scene=_planned(UnitCirclePointer), **_CFG)
def test_unit_circle(scene):
    UnitCirclePointer.construct(scene)


@frames_comparison(base_scene=_planned(AngleAddition), **_CFG)
def test_angle_addition(scene):
    AngleAddition.construct(scene)


@frames_comparison(base_scene=_planned(ClockSpeeds, "clock_row"), **_CFG)
def test_clock_row(scene):
    ClockSpeeds.construct(scene)


@frames_comparison(base_scene=_planned(PaperClockSpeeds, "clock_row_paper"), **_CFG)
def test_clock_row_paper(scene):
    PaperClockSpeeds.construct(scene)


@frames_comparison(base_scene=_planned(RopeInvariance), **_CFG)
def test_rope_invariance(scene):
    RopeInvariance.construct(scene)
