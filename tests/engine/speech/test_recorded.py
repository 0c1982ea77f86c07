"""The author's own voice: a take stored in the mini course becomes its cue's audio in the plan; editing the
cue's words makes it stale, and the plan falls back and says so; a take is trimmed and brought to the
narration's loudness; a bookmark in a recorded cue is placed or refused, never guessed; check reports stale
takes. The fallback is the silent voice (timing from a reading rate): nothing here is synthesised."""

from __future__ import annotations

import math
import re
import sys

import numpy as np
import pyloudnorm
import pytest
from scipy.signal import resample_poly

from coursekit.cli.main import main
from coursekit.core.errors import UserError, UserErrors
from coursekit.core.paths import COURSE_ENV, NARRATION_ENV
from coursekit.plan.build import frames_for
from coursekit.project.project import Project
from coursekit.speech import audio, listening, takes
from tests.support.mini_runs import copy_mini_course

RATE = 24000
FPS = 15


def tone(seconds: float, before: float, after: float, amplitude: float = 0.1, noise_dbfs: float | None = None):
    """A 220 Hz tone with silence (or a room's noise at ``noise_dbfs``) before and after it."""
    t = np.arange(int(seconds * RATE)) / RATE
    x = np.concatenate(
        [np.zeros(int(before * RATE)), amplitude * np.sin(2 * np.pi * 220 * t), np.zeros(int(after * RATE))]
    )
    if noise_dbfs is not None:
        x += np.random.default_rng(7).normal(0, 10 ** (noise_dbfs / 20), len(x))
    return audio.from_samples(x * 32767)


@pytest.fixture
def mini(tmp_path, monkeypatch):
    """A copy of the mini course whose recorded voice falls back on the silent voice."""
    course = copy_mini_course(tmp_path / "mini")
    config = course / "config.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("  backend: espeak", "  backend: recorded\n  recorded: {fallback: silent}"))
    monkeypatch.setenv(COURSE_ENV, str(course))
    monkeypatch.delenv(NARRATION_ENV, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    return course


def _open(course) -> tuple[Project, list[str]]:
    said: list[str] = []
    return Project.open(course, overrides={"output": "media"}, say=said.append), said


def _take(course, name="take.wav", **kw):
    path = course / name
    audio.write_wav_atomic(tone(**{"seconds": 1.2, "before": 0.5, "after": 0.8, **kw}), path)
    return path


def _cues(plan):
    return {c.id: c for s in plan.scenes for c in s.cues}


# -- trimming and loudness, measured on a tone with silence around it -----------------------------------


@pytest.mark.parametrize("noise", [None, -60.0], ids=["digital_silence", "room_noise"])
def test_a_take_is_trimmed_and_brought_to_the_narrations_loudness(tmp_path, noise):
    src = tmp_path / "take.wav"
    audio.write_wav_atomic(tone(1.2, 0.5, 0.8, amplitude=0.05, noise_dbfs=noise), src)
    seg = takes.prepare(src)
    x = audio.samples(seg).astype(np.float64) / 32768
    # the tone's 1.2 s and 30 ms kept each side (the trim works in 5 ms chunks)
    assert abs(len(x) / RATE - (1.2 + 2 * audio.KEEP_MS / 1000)) <= 0.006
    loud = pyloudnorm.Meter(RATE).integrated_loudness(x)
    assert abs(loud - audio.TARGET_LUFS) <= 0.2, loud
    peak = 20 * math.log10(np.max(np.abs(resample_poly(x, 4, 1))))
    assert peak <= audio.MAX_TRUE_PEAK + 0.1
    # before: the tone at -26 dBFS RMS plus 1.3 s of silence or noise, far from the target
    before = audio.samples(audio.conform(src)).astype(np.float64) / 32768
    assert pyloudnorm.Meter(RATE).integrated_loudness(before) < audio.TARGET_LUFS - 6


def test_a_silent_recording_is_one_line(tmp_path):
    src = tmp_path / "silent.wav"
    audio.write_wav_atomic(audio.silence(2.0), src)
    with pytest.raises(UserError, match="the recording is silent; record the cue again"):
        takes.prepare(src)


# -- the plan ----------------------------------------------------------------------------------------------


def test_a_take_becomes_the_cues_audio_and_the_others_fall_back(mini):
    project, said = _open(mini)
    take = project.import_take("counting", "count_dots.ask", _take(mini), {})
    assert take.audio == mini / "narration" / "recordings" / "counting" / "count_dots.ask.flac"
    plan = project.plans(FPS, ["counting"])["counting"][0]
    cue = _cues(plan)["count_dots.ask"]
    assert cue.audio == "narration/recordings/counting/count_dots.ask.flac"
    assert cue.speech_frames == frames_for(take.duration, FPS)
    assert abs(take.duration - 1.26) <= 0.006  # the tone and the 30 ms kept each side
    assert plan.recorded == ["count_dots.ask"]
    others = [c.id for c in plan.scenes[0].cues + plan.scenes[1].cues if c.id != "count_dots.ask"]
    assert all(_cues(plan)[c].audio is None for c in others)  # the silent fallback
    assert f"recorded voice: 1 of 4 cues are the author's takes; 3 fell back on silent: {', '.join(others)}" in said


def test_editing_the_cues_words_makes_its_take_stale(mini):
    project, _ = _open(mini)
    project.import_take("counting", "count_dots.ask", _take(mini), {})
    lesson = mini / "narration" / "counting.yaml"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("是几个？", "一共几个？"), encoding="utf-8")
    project, said = _open(mini)
    plan = project.plans(FPS, ["counting"])["counting"][0]
    assert plan.recorded == [] and _cues(plan)["count_dots.ask"].audio is None
    assert "recorded voice: 0 of 4 cues are the author's takes; 4 fell back on silent: " in said[-1]
    assert "count_dots.ask" in said[-1]
    with pytest.raises(UserErrors) as err:
        project.check()
    [line] = err.value.lines
    assert line.startswith("narration/recordings/counting/count_dots.ask.flac: stale: it reads '再加一个，是几个？'")
    assert "record import counting count_dots.ask FILE" in line


def test_a_take_of_a_cue_that_is_gone_is_reported(mini):
    project, _ = _open(mini)
    assert takes.stale_lines(project.course) == []
    project.import_take("counting", "closing.bye", _take(mini), {})
    assert takes.stale_lines(project.course) == []
    lesson = mini / "narration" / "counting.yaml"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("id: bye", "id: farewell"), encoding="utf-8")
    project, _ = _open(mini)
    [line] = takes.stale_lines(project.course)
    assert line.startswith("narration/recordings/counting/closing.bye.flac: a take of cue 'closing.bye', which")


# -- bookmarks inside a recorded cue: placed, or refused ---------------------------------------------------


def test_a_bookmark_without_a_place_is_refused_not_guessed(mini):
    project, _ = _open(mini)
    project.import_take("counting", "count_dots.show", _take(mini), {})
    with pytest.raises(UserError) as err:
        project.plans(FPS, ["counting"])
    assert str(err.value).startswith("counting.yaml:")
    assert "cue 'count_dots.show': bookmark {@dots} has no place in the take" in str(err.value)
    assert "--mark dots=SECONDS" in str(err.value)


def test_a_placed_bookmark_is_where_the_take_says(mini):
    project, _ = _open(mini)
    project.import_take("counting", "count_dots.show", _take(mini), {"dots": 0.8})
    plan = project.plans(FPS, ["counting"])["counting"][0]
    cue = _cues(plan)["count_dots.show"]
    assert cue.bookmarks == {"dots": cue.start_frame + int(0.8 * FPS)}


@pytest.mark.parametrize(
    "marks,message",
    [
        ({"dot": 0.2}, "--mark dot: cue 'count_dots.show' has no bookmark {@dot} (it has: dots)"),
        ({"dots": 9.0}, "--mark dots=9: past the take, which is 1.26 s once trimmed"),
    ],
)
def test_a_bad_mark_is_one_line_and_writes_nothing(mini, marks, message):
    project, _ = _open(mini)
    with pytest.raises(UserError, match=re.escape(message)):
        project.import_take("counting", "count_dots.show", _take(mini), marks)
    assert not (mini / "narration" / "recordings" / "counting" / "count_dots.show.json").exists()


def test_record_import_on_the_command_line(mini, capsys):
    src = _take(mini)
    assert (
        main(["--course", str(mini), "record", "import", "counting", "count_dots.show", str(src), "--mark", "dots=0.5"])
        == 0
    )
    out = capsys.readouterr().out
    assert (
        "take of count_dots.show: 1.26 s, {@dots} at 0.50 s -> narration/recordings/counting/count_dots.show.flac"
        in out
    )
    assert main(["--course", str(mini), "record", "import", "counting", "show", str(src)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "error: cue 'show' is not a cue of lesson counting; give its full id, <scene>.<cue> (count_dots.show, "
        "count_dots.ask, count_dots.answer, closing.bye)"
    ]
    assert (
        main(["--course", str(mini), "record", "import", "counting", "count_dots.show", str(src), "--mark", "dots"])
        == 2
    )


def test_an_edited_take_audio_is_one_line(mini):
    project, _ = _open(mini)
    take = project.import_take("counting", "count_dots.ask", _take(mini), {})
    take.audio.write_bytes(take.audio.read_bytes()[:-100])
    with pytest.raises(UserError, match="not the audio count_dots.ask.json describes"):
        project.plans(FPS, ["counting"])


# -- the listening check hears the author's takes ---------------------------------------------------------


@pytest.fixture
def mini_espeak(mini):
    """The mini course whose recorded voice falls back on espeak (a voice that makes audio to listen to)."""
    config = mini / "config.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("{fallback: silent}", "{fallback: espeak}"))
    return mini


def test_the_listening_check_is_given_the_take_not_a_synthesis(mini_espeak):
    project, _ = _open(mini_espeak)
    take = project.import_take("counting", "count_dots.ask", _take(mini_espeak), {})
    speech = project.speech()
    cues = listening.sample_cues(project.course, ["counting"], None)
    items = {
        cue_id: path for _, cue_id, _, path in listening.synthesise(cues, speech.voice, speech.cache, speech.lexicon)
    }
    assert items["count_dots.ask"] == take.audio
    others = [p for c, p in items.items() if c != "count_dots.ask"]
    assert others and all(p.suffix == ".wav" and p.is_relative_to(project.layout.audio_cache.root) for p in others)


@pytest.mark.models  # the recogniser listens to the take
def test_a_take_that_is_not_speech_is_flagged_by_the_listening_check(mini_espeak):
    """A take of a tone (a clipped or empty recording) is heard as nothing and flagged, like a bad synthesis."""
    project, _ = _open(mini_espeak)
    take = project.import_take("counting", "count_dots.ask", _take(mini_espeak), {})
    report, _ = project.listening_check(["counting"])
    result = next(r for r in report.results if r.cue_id == "count_dots.ask")
    assert abs(result.audio_s - take.duration) <= 0.02  # the take's audio was transcribed, not espeak's
    assert result.flagged and result.score.syllable_error >= 0.9, result
