"""The timeline plan: whole frames that add up, bookmarks inside their cues, subtitles within limits, determinism."""

import pytest

from coursekit.content.cue_text import strip_bookmarks
from coursekit.content.narration import load_course
from coursekit.core.config import load_config
from coursekit.plan.build import frames_for, plan_lesson
from coursekit.speech.audio_cache import AudioCache
from coursekit.speech.timing import time_at
from coursekit.speech.voices.auto import make_voice
from coursekit.subtitles.rules import squeeze
from coursekit.zh.lexicon import Lexicon


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    cfg = load_config(None, **{"voice.backend": "silent"})
    course = load_course(cfg.lessons)
    lexicon = Lexicon.load()
    voice = make_voice("silent", cfg.voice, lexicon)
    cache = AudioCache(tmp_path_factory.mktemp("cache"))
    return cfg, course, lexicon, voice, cache


@pytest.mark.parametrize("fps", [15, 60])
def test_frames_add_up(setup, fps):
    cfg, course, lexicon, voice, cache = setup
    lead, gap, tail = (
        frames_for(x, fps) for x in (cfg.timeline.scene_lead_in_s, cfg.timeline.cue_gap_s, cfg.timeline.scene_tail_s)
    )
    for lesson in course.lessons:
        plan = plan_lesson(lesson, cfg, fps, voice, cache, lexicon)
        assert plan.fps == fps
        assert [s.id for s in plan.scenes] == [s.id for s in lesson.scenes]
        start = 0
        for s in plan.scenes:
            assert s.start_frame == start and s.fps == fps
            assert s.cues[0].start_frame == lead
            for a, b in zip(s.cues, s.cues[1:]):
                assert b.start_frame == a.end_frame + gap
            assert s.frames == s.cues[-1].end_frame + tail
            for c in s.cues:
                assert isinstance(c.start_frame, int) and isinstance(c.frames, int)
                assert c.frames >= c.speech_frames >= 1
                for frame in c.bookmarks.values():
                    assert c.start_frame <= frame < c.start_frame + c.speech_frames
            start += s.frames
        assert plan.frames == start == sum(s.frames for s in plan.scenes)


def test_bookmarks_follow_text_order(setup):
    cfg, course, lexicon, voice, cache = setup
    plan = plan_lesson(course.lesson("trig_to_rope"), cfg, 15, voice, cache, lexicon)
    sweep = plan.scene("unit_circle").cue("sweep")
    marks = sweep.bookmarks
    assert set(marks) == {"at30", "at150", "at270"}
    assert marks["at30"] < marks["at150"] < marks["at270"]


def test_subtitles_keep_every_character_and_the_limits(setup):
    cfg, course, lexicon, voice, cache = setup
    from narration.figures import fill

    for lesson in course.lessons:
        plan = plan_lesson(lesson, cfg, 30, voice, cache, lexicon)
        for s in plan.scenes:
            for c, src in zip(s.cues, lesson.scene(s.id).cues):
                written, _ = strip_bookmarks(fill(src.text))
                assert squeeze("".join(e.text for e in c.subtitles)) == squeeze(written) == squeeze(c.text)
                for e in c.subtitles:
                    lines = e.text.split("\n")
                    assert len(lines) <= cfg.subtitles.max_lines
                    assert all(len(squeeze(l)) <= cfg.subtitles.max_chars_per_line for l in lines)
                    assert c.start_frame * 1000 / 30 - 100 <= e.start_ms
                    assert cfg.subtitles.min_duration_ms <= e.end_ms - e.start_ms <= cfg.subtitles.max_duration_ms
                for a, b in zip(c.subtitles, c.subtitles[1:]):
                    assert b.start_ms - a.end_ms >= cfg.subtitles.min_gap_ms
            events = [e for c in s.cues for e in c.subtitles]
            for a, b in zip(events, events[1:]):
                assert b.start_ms - a.end_ms >= cfg.subtitles.min_gap_ms


def test_plan_is_deterministic(setup):
    cfg, course, lexicon, voice, cache = setup
    lesson = course.lesson("word_order")
    a = plan_lesson(lesson, cfg, 30, voice, cache, lexicon).to_json()
    b = plan_lesson(lesson, cfg, 30, voice, cache, lexicon).to_json()
    assert a == b


def test_time_at_interpolates_between_boundaries():
    f = time_at([(0, 0.0), (10, 2.0)], 3.0, 20)
    assert f(0) == 0.0 and f(5) == 1.0 and f(10) == 2.0 and f(15) == 2.5 and f(20) == 3.0


def test_strip_bookmarks_offsets():
    text, marks = strip_bookmarks("指针{@a}转到{@b}三十度")
    assert text == "指针转到三十度" and marks == {"a": 2, "b": 4}


def test_frames_for_is_whole_frames_rounding_up():
    assert frames_for(1.0, 15) == 15 and frames_for(1.01, 15) == 16 and frames_for(23 / 15, 15) == 23


def test_an_opening_mark_is_timed_with_the_word_it_opens(setup, tmp_path):
    """“, （ and 《 are not spoken: each is shown with the word it opens, not at the pause before it (a
    subtitle event that opened on “ was highlighted 180 ms before the event appeared)."""
    from coursekit.content.narration import load_lesson

    cfg, _, lexicon, voice, cache = setup
    path = tmp_path / "quotes.yaml"
    path.write_text(
        "lesson: quotes\ntitle: 引号\nscenes:\n  - id: quoted\n    class: Quoted\n    title: 引号\n"
        "    source: [test]\n    cues:\n      - id: said\n        text: 他停了一下，“先看钟，再看表”，又说（慢一点）《课本》。\n",
        encoding="utf-8",
    )
    plan = plan_lesson(load_lesson(path), cfg, 15, voice, cache, lexicon)
    cue = plan.scenes[0].cues[0]
    text, times = cue.text, plan.char_ms[cue.id]
    opening = [k for k, ch in enumerate(text) if ch in "“（《"]
    assert len(opening) == 3
    for k in opening:
        assert times[k] == times[k + 1], (text[k], times[k - 1 : k + 2])
        assert times[k] > times[k - 1], (text[k], times[k - 1 : k + 2])  # after the pause before it
