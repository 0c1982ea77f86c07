"""The studio's preview remade after an edit (coursekit.render.preview_pieces): only the edited cue and what
follows it are rendered again, a provisional preview comes first, and the remade preview has the frames of
a whole render."""

from __future__ import annotations

import dataclasses
import json
import shutil
import sys
from pathlib import Path

import av
import numpy as np
import pytest

from coursekit.core.paths import COURSE_ENV, NARRATION_ENV
from coursekit.project.project import Project
from coursekit.render import preview_pieces
from coursekit.render.narrated_scene import PrefixPlan
from coursekit.render.one_scene import render_silent
from coursekit.render.preview_pieces import cue_signature, prefix_signatures
from coursekit.render.testing import synthetic_plan
from tests.support.mini_runs import copy_mini_course

SCENE = "count_dots"


def decoded(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as c:
        return [f.to_ndarray(format="yuv420p") for f in c.decode(video=0)]


def _plan(first_frames: int):
    return synthetic_plan(
        "s", "S", [("a", first_frames, first_frames - 2, {"m": 3}), ("b", 20, 18, {"m": 5}), ("c", 12, 10, {})], fps=15
    )


def test_a_cue_moved_by_an_edit_before_it_keeps_its_own_signature_and_no_prefix_after_the_edit():
    short, longer = _plan(20), _plan(26)  # cue a six frames longer: b and c start six frames later
    for x, y in zip(short.cues[1:], longer.cues[1:]):
        assert x.start_frame + 6 == y.start_frame
        assert cue_signature(x, absolute=False) == cue_signature(y, absolute=False)
        assert cue_signature(x, absolute=True) != cue_signature(y, absolute=True)
    a, b = prefix_signatures(short, "code"), prefix_signatures(longer, "code")
    assert a[0] == b[0]  # nothing before frame 0
    assert set(a.values()).isdisjoint(set(b.values()) - {a[0]})  # every later boundary: cue a is before it
    assert prefix_signatures(short, "other code")[0] != a[0]
    # a bookmark moved inside its cue is an edit of that cue
    moved = dataclasses.replace(short.cues[1], bookmarks={"m": short.cues[1].bookmarks["m"] + 1})
    assert cue_signature(moved, absolute=False) != cue_signature(short.cues[1], absolute=False)


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv(COURSE_ENV, str(tmp_path))  # put back after the test, with the sys.path the course joins
    monkeypatch.delenv(NARRATION_ENV, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    mini = copy_mini_course(tmp_path / "mini")
    return Project.open(mini, overrides={"voice.backend": "silent"}, say=lambda line: None)


def _edit(project: Project, old: str, new: str):
    """Change the text of a cue of the mini course; the scene's new preview plan."""
    f = project.root / "narration" / "counting.yaml"
    text = f.read_text(encoding="utf-8")
    assert old in text
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    project.reload()
    return project.preview_plan(SCENE)


def _remake(project: Project, plan, tmp: Path):
    stats: dict = {}
    early: list[Path] = []

    def provisional(video: Path) -> None:
        early.append(shutil.copyfile(video, tmp / f"provisional-{len(early)}.mp4"))

    out = project.remake_preview(plan, provisional, stats)
    return out, stats["stretches"], early


@pytest.mark.render
def test_an_edit_renders_its_cue_and_what_follows_and_the_preview_is_the_whole_render(project, tmp_path, count_frames):
    plan = project.preview_plan(SCENE)
    _, first, early = _remake(project, plan, tmp_path)
    assert first["reused"] == [] and early == [] and not first["whole"]
    assert [a for a, _ in first["rendered"]][0] == 0 and first["rendered"][-1][1] == plan.frames

    plan = _edit(project, "再加一个，是几个？", "再加上一个，是几个？")  # the second cue, longer
    _remake(project, plan, tmp_path)
    plan = _edit(project, "再加上一个，是几个？", "要是再加上一个点，一共是几个？")  # the same cue again
    ask = next(c for c in plan.cues if c.id.endswith(".ask"))
    out, did, early = _remake(project, plan, tmp_path)
    assert [tuple(r) for r in did["reused"]] == [(0, ask.start_frame)], did
    assert [tuple(r) for r in did["rendered"]] == [
        (ask.start_frame, plan.cues[2].start_frame),
        (plan.cues[2].start_frame, plan.frames),
    ]
    assert did["provisional"] and len(early) == 1, did
    # the cue edited twice in a row: the second time, a process parked at its start drew it (``parked``)
    assert did["manim"][f"{ask.start_frame}-{plan.cues[2].start_frame}"].get("parked") is True, did
    assert not did["manim"][f"{plan.cues[2].start_frame}-{plan.frames}"].get("parked"), did

    whole = render_silent(project.config, project.layout, plan, "low", use_cache=False, media_dir=tmp_path / "whole")
    want, got, shown = decoded(whole), decoded(out), decoded(early[0])
    assert len(want) == len(got) == len(shown) == plan.frames == count_frames(out)
    assert all(np.array_equal(x, y) for x, y in zip(want, got))  # the remade preview: the whole render's frames
    # the provisional one: the same frames too (this scene's frames after the edit do not depend on when they start)
    assert all(np.array_equal(x, y) for x, y in zip(want, shown))


def test_the_prefix_plan_notes_what_an_edit_at_its_start_could_change():
    plan = _plan(20)
    b = plan.cues[1]
    prefix = PrefixPlan(plan, b.start_frame)
    assert (prefix.id, prefix.fps, prefix.title) == (plan.id, plan.fps, plan.title)
    assert prefix.cue("a") is plan.cues[0] and prefix.read == []
    assert prefix.cue("b") is b and prefix.read == [f"cue {b.id}"]
    assert prefix.frames == plan.frames and prefix.cues == plan.cues
    assert prefix.read == [f"cue {b.id}", "frames", "cues"]


@pytest.mark.render
def test_a_cue_the_author_stopped_at_is_drawn_by_a_parked_process_at_its_first_edit(project, tmp_path):
    """The studio parks a process at the cue under the paused playhead (``Project.park_preview``): the first
    edit of that cue draws only the cue, with the frames of a whole render."""
    plan = project.preview_plan(SCENE)
    _remake(project, plan, tmp_path)
    assert project.park_preview(plan, "ask") and project.park_preview(plan, "ask")  # the second: already there
    plan = _edit(project, "再加一个，是几个？", "再加上一个，是几个？")
    ask = next(c for c in plan.cues if c.id.endswith(".ask"))
    out, did, early = _remake(project, plan, tmp_path)
    assert did["manim"][f"{ask.start_frame}-{plan.cues[2].start_frame}"].get("parked") is True, did
    whole = render_silent(project.config, project.layout, plan, "low", use_cache=False, media_dir=tmp_path / "whole")
    assert all(np.array_equal(x, y) for x, y in zip(decoded(whole), decoded(out)))


@pytest.mark.render
def test_a_parked_process_is_not_used_after_an_edit_before_its_cue(project, tmp_path, count_frames):
    """The process parked at the cue ``ask`` stepped through the old first cue; an edit of that cue that
    keeps its length (``ask`` starts on the same frame) must not reach it."""
    plan = project.preview_plan(SCENE)
    _remake(project, plan, tmp_path)
    plan = _edit(project, "再加一个，是几个？", "再加上一个，是几个？")
    _remake(project, plan, tmp_path)
    ask_start = next(c for c in plan.cues if c.id.endswith(".ask")).start_frame
    plan = _edit(project, "屏幕上有", "画面上有")
    assert next(c for c in plan.cues if c.id.endswith(".ask")).start_frame == ask_start
    out, did, _ = _remake(project, plan, tmp_path)
    assert [tuple(r) for r in did["rendered"]][0][0] < ask_start, did
    assert not any(t.get("parked") for t in did["manim"].values()), did
    whole = render_silent(project.config, project.layout, plan, "low", use_cache=False, media_dir=tmp_path / "whole")
    assert all(np.array_equal(x, y) for x, y in zip(decoded(whole), decoded(out)))


@pytest.mark.render
def test_a_scene_that_reads_its_length_before_the_edited_cue_does_not_park(project, tmp_path):
    scene_file = project.root / "scenes" / "counting.py"
    code = scene_file.read_text(encoding="utf-8")
    anchor = '        with self.cue("ask") as cue:\n'
    assert anchor in code
    scene_file.write_text(code.replace(anchor, "        self.scene_length = self.plan.frames\n" + anchor, 1))
    plan = project.preview_plan(SCENE)
    _remake(project, plan, tmp_path)
    plan = _edit(project, "再加一个，是几个？", "再加上一个，是几个？")
    _remake(project, plan, tmp_path)
    plan = _edit(project, "再加上一个，是几个？", "要是再加上一个点，一共是几个？")
    out, did, _ = _remake(project, plan, tmp_path)
    ask = next(c for c in plan.cues if c.id.endswith(".ask"))
    assert did["manim"][f"{ask.start_frame}-{plan.cues[2].start_frame}"]["parked"] == "it did not park: frames", did
    whole = render_silent(project.config, project.layout, plan, "low", use_cache=False, media_dir=tmp_path / "whole")
    assert all(np.array_equal(x, y) for x, y in zip(decoded(whole), decoded(out)))


@pytest.mark.render
def test_old_frames_that_do_not_meet_the_edited_cue_are_not_shown_early(project, tmp_path):
    """Seeded: the stored stretch after the edited cue claims another first frame than the one the edited
    cue's process draws there, so no provisional preview is made; the remade one still is."""
    plan = project.preview_plan(SCENE)
    _remake(project, plan, tmp_path)
    plan = _edit(project, "再加一个，是几个？", "再加上一个，是几个？")
    _remake(project, plan, tmp_path)
    store = preview_pieces.store_for(project.layout, plan)
    index = json.loads((store.folder / "index.json").read_text())
    ask = next(c for c in plan.cues if c.id.endswith(".ask"))
    for s in index["stretches"]:
        if s["start"] == plan.cues[2].start_frame:
            s["report"]["first"] = "0" * 64
    (store.folder / "index.json").write_text(json.dumps(index))
    plan = _edit(project, "再加上一个，是几个？", "要是再加上一个点，一共是几个？")
    out, did, early = _remake(project, plan, tmp_path)
    assert not did["provisional"] and early == [], did
    assert [tuple(r) for r in did["rendered"]][0] == (ask.start_frame, plan.cues[2].start_frame)
    assert out.exists()


@pytest.mark.render
def test_stretches_that_do_not_join_are_not_kept_and_the_scene_is_rendered_whole(project, tmp_path):
    """Seeded: a stored stretch's report says it ends on other pixels than the next one starts from."""
    plan = project.preview_plan(SCENE)
    _remake(project, plan, tmp_path)
    plan = _edit(project, "再加一个，是几个？", "再加上一个，是几个？")
    _remake(project, plan, tmp_path)
    store = preview_pieces.store_for(project.layout, plan)
    index = json.loads((store.folder / "index.json").read_text())
    index["stretches"][0]["report"]["last"] = "0" * 64
    (store.folder / "index.json").write_text(json.dumps(index))
    plan = _edit(project, "是{dot_count_plus_one}个。", "一共是{dot_count_plus_one}个。")  # the last cue
    out, did, _ = _remake(project, plan, tmp_path)
    assert did["whole"].startswith("rendered whole:") and "differently" in did["whole"], did
    assert out.exists()
