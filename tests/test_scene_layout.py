"""Every core scene stays inside the frame, and no text enters the subtitle safe area."""
from __future__ import annotations

import numpy as np
import pytest
from manim import DecimalNumber, MathTypst, Text, Typst, VMobject, config

from scenes import theme

CORE = [("UnitCirclePointer", "unit_circle"), ("AngleAddition", "angle_addition"),
        ("ClockRow", "clock_row"), ("ClockRow", "clock_row_paper"), ("RopeInvariance", "rope_invariance")]
TEXTY = (Text, Typst, MathTypst, DecimalNumber)
EPS = 1e-6


def _visible(mob) -> bool:
    if not isinstance(mob, VMobject):      # ValueTrackers and other invisible helpers
        return False
    return mob.get_stroke_opacity() > 0 or mob.get_fill_opacity() > 0


@pytest.mark.parametrize("cls_name,scene_id", CORE)
def test_final_frame_layout(dry_run_scene, cls_name, scene_id):
    scene = dry_run_scene(cls_name, scene_id)
    w, h = theme.frame_width() / 2, theme.frame_height() / 2
    floor = theme.safe_bottom()
    texts = 0
    for top in scene.mobjects:
        for mob in top.get_family():
            if len(mob.points) == 0 or not _visible(mob):
                continue
            lo, hi = mob.get_critical_point(np.array([-1, -1, 0])), mob.get_critical_point(np.array([1, 1, 0]))
            assert lo[0] >= -w - EPS and hi[0] <= w + EPS, f"{mob} leaves the frame sideways: {lo}, {hi}"
            assert lo[1] >= -h - EPS and hi[1] <= h + EPS, f"{mob} leaves the frame: {lo}, {hi}"
        for mob in top.get_family():
            if isinstance(mob, TEXTY) and _visible(mob):
                texts += 1
                assert mob.get_bottom()[1] >= floor - EPS, (
                    f"{type(mob).__name__} {getattr(mob, 'text', '')!r} enters the subtitle area: "
                    f"bottom {mob.get_bottom()[1]:.3f} < {floor:.3f}")
    assert texts > 0


def test_safe_area_is_bottom_18_percent():
    assert theme.safe_bottom() == pytest.approx(-config.frame_height / 2 + 0.18 * config.frame_height)
