"""NarratedScene writes exactly its planned frames, and its beats land on the plan."""

from __future__ import annotations

import pytest
from manim import LEFT, RIGHT, Create, Rotate, Square, tempconfig

from coursekit.render.testing import quiet_render
from scenes.base import (
    CueOverrunError,
    NarratedScene,
    PlanError,
    frames_for_run_time,
    run_time_for_frames,
    synthetic_plan,
)

FPS = 15


class Tiny(NarratedScene):
    """Two beats: a play that must end on bookmark ``m``, then float-awkward plays and waits."""

    def construct(self) -> None:
        sq = Square(side_length=1.0)
        self.seen = {}
        with self.cue("a") as cue:
            self.play(Create(sq), run_time=cue.until("m"))
            self.seen["m"] = (self.frame, cue.bookmark("m"))
            self.play(sq.animate.shift(RIGHT), run_time=cue.remaining())
        with self.cue("b") as cue:
            self.seen["b_start"] = (self.frame, cue.start_frame)
            self.play(sq.animate.shift(LEFT), run_time=3 / FPS)  # n/fps: not a safe run time
            self.wait(cue.share(0.2))
            self.play(Rotate(sq), run_time=cue.remaining())


class Overrun(NarratedScene):
    def construct(self) -> None:
        sq = Square()
        with self.cue("a"):
            self.play(Create(sq), run_time=(self.plan.cue("a").frames + 7 - 0.5) / FPS)


class MissingCue(NarratedScene):
    def construct(self) -> None:
        with self.cue("nope"):
            pass


def tiny_plan(total: int):
    a = b = max(5, total // 3)
    return synthetic_plan(
        "tiny",
        "Tiny",
        [("a", a, a - 1, {"m": a // 2}), ("b", b, b, {})],
        fps=FPS,
        lead_in=1,
        gap=2,
        tail=total - (1 + a + 2 + b),
    )


def render(scene_cls, plan, media, *, cache=False):
    with tempconfig(
        {
            "quality": "low_quality",
            "media_dir": str(media),
            "disable_caching": not cache,
            "progress_bar": "none",
            "verbosity": "ERROR",
        }
    ):
        scene = scene_cls(plan=plan)
        scene.render()
        return scene, scene.renderer.file_writer.movie_file_path


def test_manim_quantisation_is_what_the_base_assumes():
    # the trap: n/fps overshoots for some n, so the base never asks for it ...
    assert [frames_for_run_time(n / FPS, FPS) for n in (23, 31, 46, 62)] == [24, 32, 47, 63]
    # ... and mid-frame run times always give exactly n
    for n in range(1, 2000):
        assert frames_for_run_time(run_time_for_frames(n, FPS), FPS) == n
        assert frames_for_run_time(run_time_for_frames(n, 60), 60) == n


@pytest.mark.render
@pytest.mark.parametrize("total", [23, 31, 46, 62, 123])
def test_writes_exactly_the_planned_frames(total, tmp_path, count_frames):
    plan = tiny_plan(total)
    scene, movie = render(Tiny, plan, tmp_path)
    assert plan.frames == total
    assert scene.frame == total
    assert count_frames(movie) == total
    m_frame, m_plan = scene.seen["m"]
    assert m_frame == m_plan  # cue.until lands on the bookmark
    assert scene.seen["b_start"][0] == scene.seen["b_start"][1]


@pytest.mark.render
def test_cache_hits_keep_the_count(tmp_path, count_frames):
    plan = tiny_plan(46)
    for _ in range(2):  # second render is served from Manim's cache
        scene, movie = render(Tiny, plan, tmp_path, cache=True)
        assert scene.frame == 46
        assert count_frames(movie) == 46


def test_overrunning_beat_raises(tmp_path):
    plan = synthetic_plan("tiny", "Overrun", [("a", 20, 15, {})], fps=FPS, tail=30)
    with pytest.raises(CueOverrunError, match=r"beat tiny\.a overran its cue by 7 frames"):
        with tempconfig(
            {
                "dry_run": True,
                "frame_rate": FPS,
                "pixel_width": 64,
                "pixel_height": 36,
                "media_dir": str(tmp_path),
                "progress_bar": "none",
                "verbosity": "ERROR",
            }
        ):
            Overrun(plan=plan).render()


def test_missing_cue_names_scene_and_cue(tmp_path):
    plan = synthetic_plan("tiny", "MissingCue", [("a", 20, 15, {})], fps=FPS)
    with pytest.raises(PlanError, match=r"scene tiny \(MissingCue\) has no cue 'tiny\.nope'"):
        with tempconfig(
            {
                "dry_run": True,
                "frame_rate": FPS,
                "pixel_width": 64,
                "pixel_height": 36,
                "media_dir": str(tmp_path),
                "progress_bar": "none",
                "verbosity": "ERROR",
            }
        ):
            MissingCue(plan=plan).render()


def test_registry_finds_core_scenes():
    from coursekit.render.registry import scene_class, scene_module_path

    for name, module in [
        ("UnitCirclePointer", "unit_circle"),
        ("AngleAddition", "angle_addition"),
        ("ClockSpeeds", "clock_row"),
        ("RopeInvariance", "rope_invariance"),
    ]:
        cls = scene_class(name)
        assert issubclass(cls, NarratedScene) and cls.__name__ == name
        assert scene_module_path(name).stem == module
    with pytest.raises(LookupError):
        scene_class("NoSuchScene")


class Watched(Tiny):
    def construct(self) -> None:
        self.watch("count", lambda: {"n": len(self.mobjects)})
        super().construct()


@pytest.mark.render
@pytest.mark.parametrize("asked", [None, "1"])
def test_watches_are_sampled_in_tests_but_not_in_a_delivery_render(tmp_path, monkeypatch, asked):
    """A scene given its plan here (tests, dry runs) records every watch on every frame; a Manim process
    rendering a delivery (its plan from COURSEKIT_SCENE_PLAN) records nothing, unless COURSEKIT_PROBES=1."""
    from coursekit.plan.model import scene_plan_to_json
    from coursekit.render import narrated_scene as ns

    plan = tiny_plan(46)
    here, _ = render(Watched, plan, tmp_path / "here")
    assert len(here.probes["count"]) >= 46 - 2  # every drawn frame (held frames included)
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(scene_plan_to_json(plan), encoding="utf-8")
    monkeypatch.setenv(ns.PLAN_ENV, str(plan_file))
    if asked:
        monkeypatch.setenv(ns.PROBES_ENV, asked)
    with tempconfig(quiet_render(tmp_path / "env")):
        scene = Watched()
        scene.render()
    assert scene.frame == 46
    assert (len(scene.probes.get("count", [])) == len(here.probes["count"])) if asked else scene.probes == {}


def test_scenes_read_probes_only_where_they_are_recorded():
    """A delivery render samples no watches (record_probes is False there), so a scene that reads
    ``self.probes`` while it is built must check ``self.record_probes`` first: qk_widget once read the
    widget's last sample unguarded and every real render of it failed with KeyError, with the suite green."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "scenes"
    offenders = []
    for path in sorted(root.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines, 1):
            if re.search(r"self\.probes\b", line):
                guard = "\n".join(lines[max(0, n - 3) : n])
                if "record_probes" not in guard:
                    offenders.append(f"{path.relative_to(root.parent)}:{n}: {line.strip()}")
    assert offenders == []
