"""No per-frame re-typesetting. While updaters run, Text and Typst mobjects may be built only a
few times: DecimalNumber-style readouts build each glyph once and copy it afterwards, while an
``always_redraw`` around Text would build the same string on every frame.

Every NarratedScene render in the session is recorded by conftest (the scene tests before this
file render them all); a scene not rendered yet is dry-run here.
"""

import pytest
from manim import RIGHT, Dot, Text, tempconfig

from scenes.base import NarratedScene, synthetic_plan
from tests.support.course_text import scene_ids
from tests.support.typesetting import TYPESET_IN_UPDATERS, typesetting_in_updaters

SCENES = sorted(scene_ids())  # every scene of the course


@pytest.mark.parametrize("scene_id", SCENES)
def test_updaters_reuse_glyphs(narrated_scene, scene_id):
    if scene_id not in TYPESET_IN_UPDATERS:
        narrated_scene(scene_id)
    frames, built = TYPESET_IN_UPDATERS[scene_id]
    assert frames > 100
    repeated = {k: n for k, n in built.items() if n > 4}
    assert not repeated, f"built again and again inside updaters: {repeated}"
    assert sum(built.values()) <= 0.05 * frames, built.most_common(5)


class _Redraw(NarratedScene):
    """The anti-pattern: a Text rebuilt by an updater on every frame."""

    def construct(self):
        d = Dot()
        label = Text("0")
        label.add_updater(lambda m: m.become(Text(str(self.frame % 3))))
        self.add(d, label)
        with self.cue("a") as cue:
            self.play(d.animate.shift(RIGHT), run_time=cue.remaining())


def test_the_recorder_sees_text_built_in_an_updater(tmp_path):
    """The check above would catch a Text rebuilt per frame (the recorder is not blind)."""
    plan = synthetic_plan("redraw", "_Redraw", [("a", 30, 30, {})], fps=15, lead_in=1, gap=0, tail=1)
    with tempconfig(
        {
            "dry_run": True,
            "frame_rate": 15,
            "pixel_width": 64,
            "pixel_height": 36,
            "media_dir": str(tmp_path),
            "progress_bar": "none",
            "verbosity": "ERROR",
        }
    ):
        with typesetting_in_updaters() as built:
            _Redraw(plan=plan).render()
    assert sum(built.values()) >= 30
    assert max(built.values()) >= 10
