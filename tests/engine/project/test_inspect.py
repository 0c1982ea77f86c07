"""`render.py inspect` (``Project.inspect``) reports what turns against its cue's words (coursekit.render.motion,
rule ``turn``) beside the viewer check's findings, from the one dry run of each scene.

On a copy of the mini course with a lesson of two scenes added: the same arrow turns a quarter clockwise in
both, while one cue says 逆时针 (the seeded case: one finding) and the other 顺时针 (none).
"""

from __future__ import annotations

import sys

import yaml

from coursekit.core.paths import COURSE_ENV, NARRATION_ENV
from coursekit.project.project import Project
from tests.support.mini_runs import copy_mini_course

LESSON = """lesson: turning
title: 转一转
scenes:
  - id: turn_against
    class: TurnAgainst
    title: 说反了
    source: ["mini course §4"]
    cues:
      - id: turn
        text: 这根指针逆时针转九十度。
  - id: turn_along
    class: TurnAlong
    title: 说对了
    source: ["mini course §5"]
    cues:
      - id: turn
        text: 这根指针顺时针转九十度。
"""
SCENES = """from manim import PI, RIGHT, Arrow, Rotate

from coursekit.render.narrated_scene import NarratedScene


class TurnAgainst(NarratedScene):
    SCENE_IDS = ("turn_against",)
    CUES = ("turn",)

    def construct(self):
        arrow = Arrow(start=[0, 0, 0], end=2 * RIGHT, buff=0)
        self.add(arrow)
        with self.cue("turn") as cue:
            self.play(Rotate(arrow, -PI / 2, about_point=arrow.get_start()), run_time=cue.remaining())


class TurnAlong(TurnAgainst):
    SCENE_IDS = ("turn_along",)
"""


def test_inspect_reports_a_turn_against_the_words_and_not_one_along_them(tmp_path, monkeypatch):
    monkeypatch.setenv(COURSE_ENV, str(tmp_path))  # put back after the test, with the sys.path the course joins
    monkeypatch.delenv(NARRATION_ENV, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    mini = copy_mini_course(tmp_path / "mini")
    (mini / "narration" / "turning.yaml").write_text(LESSON, encoding="utf-8")
    (mini / "scenes" / "turning.py").write_text(SCENES, encoding="utf-8")
    config = yaml.safe_load((mini / "config.yaml").read_text(encoding="utf-8"))
    config["course"]["lessons"] = [*config["course"]["lessons"], "turning"]
    (mini / "config.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")

    project = Project.open(mini, overrides={"voice.backend": "silent"})
    reports = dict(project.inspect(["turn_against", "turn_along"]))
    turns = {sid: [f for f in r.findings if f.rule == "turn"] for sid, r in reports.items()}
    assert turns["turn_along"] == []
    [found] = turns["turn_against"]
    assert (found.scene, found.cue, found.rule) == ("turn_against", "turn_against.turn", "turn")
    assert "turns 90.0° clockwise" in found.message and "逆时针" in found.message, found.line()
    assert found.line() in reports["turn_against"].lines()  # what cmd_inspect prints
