"""Every test that renders carries the ``render`` marker, so ``make test-fast`` (``-m "not render"``)
renders nothing: a test without the marker gets COURSEKIT_NO_RENDER (conftest), and a scene rendered
under it raises instead of writing video. These tests prove the guard bites, and that it lets a dry run
and a marked test through."""

from __future__ import annotations

import os

import pytest
from manim import tempconfig

from coursekit.render.narrated_scene import NO_RENDER_ENV, NarratedScene, RenderForbidden
from tests.support.synthetic import synthetic_plan


class _Still(NarratedScene):
    def construct(self) -> None:
        self.wait(1 / self.fps)


def _plan():
    return synthetic_plan().scenes[0]


def test_an_unmarked_test_runs_with_the_guard_set():
    assert "test_an_unmarked_test_runs_with_the_guard_set" in os.environ.get(NO_RENDER_ENV, "")


def test_a_render_without_the_marker_raises(tmp_path):
    with tempconfig({"dry_run": False, "frame_rate": 15, "media_dir": str(tmp_path)}):
        with pytest.raises(RenderForbidden, match="mark the test that renders it 'render'"):
            _Still(plan=_plan())


def test_a_dry_run_without_the_marker_builds(tmp_path):
    with tempconfig({"dry_run": True, "frame_rate": 15, "media_dir": str(tmp_path)}):
        scene = _Still(plan=_plan())
    assert scene.plan.id == "alpha"


@pytest.mark.render
def test_a_marked_test_runs_without_the_guard():
    assert NO_RENDER_ENV not in os.environ
