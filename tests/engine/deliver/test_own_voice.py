"""The manifest and the page say which cues are the author's own voice: a cue voiced by a take (the recorded
voice, tests/engine/speech/test_recorded.py) is ``recorded: true`` in the manifest's cues, its transcript lines
carry the mark, the others do not, and the page's voice line names both voices."""

from __future__ import annotations

import sys

import numpy as np

from coursekit.assemble.lesson_video import manifest_lesson
from coursekit.core.paths import COURSE_ENV, NARRATION_ENV
from coursekit.deliver import page
from coursekit.deliver.manifest import Lesson
from coursekit.deliver.page_text import ui, viewer_voice
from coursekit.project.project import Project
from coursekit.speech import audio
from tests.support.mini_runs import copy_mini_course


def test_the_manifest_and_the_transcript_mark_the_authors_cues(tmp_path, monkeypatch):
    course = copy_mini_course(tmp_path / "mini")
    config = course / "config.yaml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            "  backend: espeak", "  backend: recorded\n  recorded: {fallback: silent}"
        )
    )
    monkeypatch.setenv(COURSE_ENV, str(course))
    monkeypatch.delenv(NARRATION_ENV, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    t = np.arange(24000) / 24000
    audio.write_wav_atomic(audio.from_samples(3000 * np.sin(2 * np.pi * 220 * t)), course / "take.wav")
    project = Project.open(course, overrides={"output": "media"}, say=lambda line: None)
    project.import_take("counting", "count_dots.ask", course / "take.wav", {})
    plan = project.plans(15, ["counting"])["counting"][0]
    lesson = manifest_lesson(project.config, project.course, plan, [])
    Lesson.model_validate(lesson)  # of the manifest's schema
    assert {c["id"]: c["recorded"] for c in lesson["cues"]} == {
        "count_dots.show": False,
        "count_dots.ask": True,
        "count_dots.answer": False,
        "closing.bye": False,
    }
    own = [(c["start_ms"], c["end_ms"]) for c in lesson["cues"] if c["recorded"]]
    marked = {ev["text"]: ui("own_voice") in page._line_html(ev, own) for ev in lesson["subtitles"]}
    assert marked == {"屏幕上有3个点。": False, "再加一个，是几个？": True, "是4个。": False, "今天就到这里。": False}
    assert viewer_voice(lesson["voice"], lesson["voice_licence"]) == ui("voice_author")  # silent names no voice
