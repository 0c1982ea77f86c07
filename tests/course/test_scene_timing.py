"""Every scene fits a real voice's timing, not only the silent voice's even reading rate.

A real voice pauses at clauses and reads some words faster, so a beat timed as a share of the cue can
run past a bookmark or past the cue's end (rope_visualisation did, at 1080p60 with espeak: "cannot hold
for -4 frames"). Every scene test builds its scene from a plan voiced by espeak, the offline voice every
machine running the suite has (``tests.support.course_scenes.built_scene``, once per scene in the run);
here each build is checked to write exactly the plan's frames and to play every cue in order.
"""

from __future__ import annotations

import pytest

from tests.support.course_scenes import built_scene, narration_scene_plan
from tests.support.course_text import scene_ids

SCENES = scene_ids()  # every scene of the course, in order (config.yaml's lessons, their narration)


@pytest.mark.parametrize("scene_id", SCENES)
def test_scene_fits_the_espeak_timing(scene_id):
    plan = narration_scene_plan(scene_id)
    assert plan.cues[0].audio is not None  # a voiced plan: espeak's timing, not the silent voice's
    scene, _ = built_scene(scene_id)
    assert scene.frame == plan.frames
    assert scene._cues_done == [c.id for c in plan.cues]
