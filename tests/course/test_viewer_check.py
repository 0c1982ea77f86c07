"""Every scene of the course passes the viewer check (coursekit.render.viewer_check) after every play and wait,
with the rules of the course's theme.

Each scene is built once per session (``tests.support.course_scenes.built_scene``), from its real
narration plan. The check's rules, each on a small scene made to break it: tests/engine/test_viewer_check.py.
"""

from __future__ import annotations

import pytest

from coursekit.content.narration import load_course
from coursekit.core.config import load_config
from scenes import theme
from tests.support.course_scenes import built_scene

SCENES = [s.id for lesson in load_course(load_config().lessons).lessons for s in lesson.scenes]


# -- the course ----------------------------------------------------------------------------------
def test_the_course_has_28_scenes():
    assert len(SCENES) == 28


@pytest.mark.parametrize("scene_id", SCENES)
def test_scene_passes_the_viewer_check(scene_id):
    scene, report = built_scene(scene_id)
    assert scene.frame == scene.plan.frames
    assert scene._cues_done == [c.id for c in scene.plan.cues]  # every cue, in order
    assert report.steps >= len(scene.plan.cues)
    assert not report.findings, f"{len(report.findings)} findings:\n" + "\n".join(report.lines()[:25])
    for cue in scene.plan.cues:
        assert report.texts_at_cue_end.get(cue.id, 0) > 0, f"{cue.id}: nothing to read on screen"


def test_rules_come_from_the_theme():
    rules = theme.viewer_rules()
    assert rules.min_cjk_px == theme.MIN_CJK_PX >= 36 and rules.min_digit_px == theme.MIN_DIGIT_PX >= 18
    assert rules.band_fraction == theme.SAFE_AREA_FRACTION == 0.18
    assert theme.safe_bottom() == pytest.approx(-theme.frame_height() / 2 + 0.18 * theme.frame_height())
    assert rules.background == theme.BACKGROUND and rules.margin == theme.MARGIN
    assert (rules.min_contrast, rules.min_contrast_title, rules.overlap_share) == (4.5, 3.0, 0.05)
