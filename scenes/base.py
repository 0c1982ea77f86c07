"""This course's scene base: the engine's NarratedScene with the course's look and its heading."""

from __future__ import annotations

import numpy as np

from coursekit.render.narrated_scene import Beat, CueOverrunError, PlanError, frames_for_run_time, run_time_for_frames
from coursekit.render.narrated_scene import NarratedScene as _EngineScene
from coursekit.render.testing import preview_plan, synthetic_plan
from scenes import theme

__all__ = [
    "Beat",
    "CueOverrunError",
    "NarratedScene",
    "PlanError",
    "frames_for_run_time",
    "preview_plan",
    "run_time_for_frames",
    "synthetic_plan",
]


class NarratedScene(_EngineScene):
    """Every scene of this course: the palette's background, its subtitle band and text sizes."""

    LOOK = theme.viewer_rules()

    def header(self, text: str | None = None):
        """The scene's small heading in the top-left corner (plan title by default)."""
        mob = theme.small_text(text if text is not None else self.plan.title, color=theme.MUTED)
        mob.to_corner(np.array([-1.0, 1.0, 0.0]), buff=theme.MARGIN)
        return mob
