"""Fuzzing with hypothesis: narration loading fails only with the clear error; plans add up for any narration."""

import functools
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coursekit.content.narration import load_lesson
from coursekit.core.config import parse_config
from coursekit.core.errors import UserError
from coursekit.plan.build import plan_lesson
from coursekit.speech.audio_cache import AudioCache
from coursekit.speech.voices.auto import make_voice
from coursekit.subtitles.rules import squeeze
from coursekit.zh.lexicon import Lexicon
from tests.engine.content.test_narration import GOOD
from tests.support.examples import examples

SETTINGS = settings(
    deadline=None, max_examples=examples(80), suppress_health_check=[HealthCheck.function_scoped_fixture]
)
CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5)
NOISE = st.text(
    alphabet=st.sampled_from(list(string.printable) + ["：", "，", "「", "\x00", "\x07", "\ud7ff", "é"]), max_size=8
)


@SETTINGS
@given(pos=st.integers(0, len(GOOD)), cut=st.integers(0, 20), noise=NOISE)
def test_mutated_narration_fails_only_with_the_clear_error(tmp_path, pos, cut, noise):
    text = GOOD[:pos] + noise + GOOD[pos + cut :]
    p = tmp_path / "trig_to_rope.yaml"
    p.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        load_lesson(p)
    except UserError as exc:
        assert "\n" not in str(exc) and "trig_to_rope.yaml" in str(exc)


@SETTINGS
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_fail_only_with_the_clear_error(tmp_path, data):
    p = tmp_path / "trig_to_rope.yaml"
    p.write_bytes(data)
    try:
        load_lesson(p)
    except UserError as exc:
        assert "\n" not in str(exc)


SENTENCE = st.builds(
    lambda a, p: a + p, st.text(CJK, min_size=1, max_size=14), st.sampled_from(["，", "。", "？", "！", ""])
)
CUE = st.builds(
    lambda parts, pause: ("".join(parts), pause),
    st.lists(SENTENCE, min_size=1, max_size=4),
    st.sampled_from([0, 0, 1.5, 5]),
)


def _yaml_for(scenes):
    lines = ["lesson: trig_to_rope", "title: 模糊测试", "scenes:"]
    for i, cues in enumerate(scenes):
        lines += [f"  - id: s{i}", "    class: X", f"    title: 第{i}幕", "    source: []", "    cues:"]
        for j, (text, pause) in enumerate(cues):
            lines += [f"      - id: c{j}", f'        text: "{text}"', f"        pause: {pause}"]
    return "\n".join(lines) + "\n"


@functools.cache
def _silent():
    """The config and the silent voice every example plans with, made once: the same for every example, and
    ``make_voice`` loads the course's lexicon (0.1-0.4 s) for a voice that does not read it."""
    cfg = parse_config({"voice": {"backend": "silent"}})
    return cfg, make_voice("silent", cfg.voice)


@SETTINGS
@given(
    scenes=st.lists(st.lists(CUE, min_size=1, max_size=4), min_size=1, max_size=3),
    fps=st.sampled_from([15, 24, 30, 60]),
)
def test_plans_add_up_and_are_monotonic(tmp_path, scenes, fps):
    p = tmp_path / "trig_to_rope.yaml"
    p.write_text(_yaml_for(scenes), encoding="utf-8")
    lesson = load_lesson(p)
    cfg, voice = _silent()
    plan = plan_lesson(lesson, cfg, fps, voice, AudioCache(tmp_path / "cache"), Lexicon())
    total = 0
    for s in plan.scenes:
        assert s.start_frame == total
        prev_end = 0
        for c in s.cues:
            assert c.start_frame >= prev_end and c.frames >= c.speech_frames >= 1
            prev_end = c.end_frame
            assert squeeze("".join(e.text for e in c.subtitles)) == squeeze(c.text)
            starts = [e.start_ms for e in c.subtitles]
            assert starts == sorted(starts)
        assert s.frames >= prev_end
        total += s.frames
    assert plan.frames == total
