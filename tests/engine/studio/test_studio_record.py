"""The studio's recording lane (issue 43): a cue recorded at the microphone becomes its take, and its audio in
the next preview and in `course`; editing the cue's words makes the take stale, and the plan stops using it.

The browser test runs `render.py studio` on a copy of the made mini course whose voice is the recorded voice
(espeak for the cues without a take), in Chromium with a fake microphone that plays a wav made here (a 220 Hz
tone, 1.2 s on and 0.6 s off, over and over). The lane's teleprompter, its pinyin, the bad uploads and the
plan's inputs are checked without a browser.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from coursekit.content.narration import load_course
from coursekit.core.paths import COURSE_ENV, NARRATION_ENV
from coursekit.core.sources import plan_inputs, run_sources
from coursekit.speech import audio
from coursekit.studio import recording
from coursekit.zh.lexicon import Lexicon
from tests.support.browser import chromium
from tests.support.mini_runs import copy_made, copy_mini_course, ok, run
from tests.support.studio_process import BUILD_S, open_scene_page, running_studio

FPS = 15  # the mini course's quality is low: its previews and its course are planned at 15 fps
CUE = "count_dots.ask"
SAID = "再加一个，是几个？"
RECORD_S = 2.5  # how long the test holds the microphone open


def _recorded_voice(course: Path, fallback: str) -> None:
    config = course / "config.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("  backend: espeak", f"  backend: recorded\n  recorded: {{fallback: {fallback}}}"))


def _tone_wav(path: Path) -> Path:
    """The fake microphone's input: 1.2 s of a 220 Hz tone at -20 dBFS, then 0.6 s of silence (looped)."""
    rate = audio.SAMPLE_RATE
    t = np.arange(int(1.2 * rate)) / rate
    x = np.concatenate([0.1 * np.sin(2 * np.pi * 220 * t), np.zeros(int(0.6 * rate))])
    audio.write_wav_atomic(audio.from_samples(x * 32767), path)
    return path


# -- without a browser --------------------------------------------------------------------------------
@pytest.fixture
def mini(tmp_path, monkeypatch):
    course = copy_mini_course(tmp_path / "mini")
    _recorded_voice(course, "silent")
    monkeypatch.setenv(COURSE_ENV, str(course))
    monkeypatch.delenv(NARRATION_ENV, raising=False)
    return course


def test_the_teleprompter_shows_the_words_read_pinned_readings_and_bookmarks(mini):
    course = load_course(["counting"])
    lexicon = Lexicon.from_data({"readings": {"几个": "ji3 ge4"}})
    lane = recording.lane(course, "count_dots", lexicon, "recorded", "silent")
    cues = {c["id"]: c for c in lane["cues"]}
    assert lane["uses_takes"] and lane["fallback"] == "silent"
    # figures filled ({dot_count} is 3), the bookmark where it is said, the pinned word in pinyin
    assert cues["count_dots.show"]["pieces"] == [{"text": "屏幕上有"}, {"mark": "dots"}, {"text": "3个点。"}]
    assert cues[CUE]["pieces"] == [{"text": "再加一个，是"}, {"text": "几个", "pinyin": "jǐ gè"}, {"text": "？"}]
    for cue in cues.values():  # the pieces are the words read, every character once
        assert "".join(p.get("text", "") for p in cue["pieces"]) == cue["reads"]
        assert cue["take"] == {"state": "missing"}
    assert recording.lane(course, "count_dots", lexicon, "espeak", None)["uses_takes"] is False


def test_takes_are_plan_inputs_and_run_sources(mini, tmp_path):
    """A take is what a plan is made from: the studio's freshness (plan_inputs) and a run's sources see it."""
    lesson = mini / "narration" / "counting.yaml"
    assert not [p for p in plan_inputs(lesson) if "recordings" in p.parts]
    src = tmp_path / "take.wav"
    t = np.arange(24000) / 24000
    audio.write_wav_atomic(audio.from_samples(3000 * np.sin(2 * np.pi * 220 * t)), src)
    course = load_course(["counting"])
    body = src.read_bytes()
    take = recording.store(course, "count_dots", "ask", body, "audio/wav", {})
    files = {take.audio.resolve(), take.sidecar.resolve()}
    assert files <= set(plan_inputs(lesson)) and files <= set(run_sources())


@pytest.mark.parametrize(
    "short, body, ctype, says",
    [
        ("ask", b"", "audio/webm", "the recording of count_dots.ask is empty"),
        ("ask", b"\x1aE\xdf\xa3 not a webm at all", "audio/webm", "the recording of count_dots.ask: not audio"),
        ("nope", b"RIFF....", "audio/webm", "scene count_dots has no cue 'nope'"),
    ],
    ids=["empty", "not-audio", "unknown-cue"],
)
def test_a_bad_upload_is_one_line_and_writes_nothing(mini, short, body, ctype, says):
    course = load_course(["counting"])
    with pytest.raises(recording.UserError) as got:
        recording.store(course, "count_dots", short, body, ctype, {})
    assert len(str(got.value).splitlines()) == 1 and str(got.value).startswith(says), str(got.value)
    assert not (mini / "narration" / "recordings").exists()


def test_marks_made_while_reading_land_on_the_trimmed_take(mini, tmp_path):
    """A bookmark marked 1.0 s into a recording that starts with 0.5 s of silence is 0.5 s (and the 30 ms
    kept) into the trimmed take."""
    rate = 24000
    t = np.arange(int(1.5 * rate)) / rate
    x = np.concatenate([np.zeros(rate // 2), 0.1 * np.sin(2 * np.pi * 220 * t), np.zeros(rate // 2)])
    src = tmp_path / "take.wav"
    audio.write_wav_atomic(audio.from_samples(x * 32767), src)
    course = load_course(["counting"])
    take = recording.store(course, "count_dots", "show", src.read_bytes(), "audio/wav", {"dots": 1.0})
    assert abs(take.bookmarks["dots"] - (0.5 + audio.KEEP_MS / 1000)) <= 0.006


def test_marks_sent_with_a_take_are_name_and_seconds():
    assert recording.parse_marks("dots:1.25,end:2") == {"dots": 1.25, "end": 2.0}
    assert recording.parse_marks("") == {}
    with pytest.raises(recording.UserError, match="not name:seconds"):
        recording.parse_marks("dots=1")


# -- in Chromium, with a fake microphone -------------------------------------------------------------
@pytest.fixture(scope="module")
def course(tmp_path_factory, made_mini) -> Path:
    """A copy of the made mini course, without its previews, whose voice is the recorded voice with espeak
    for the cues without a take (the made course's audio cache has them)."""
    course = copy_made(made_mini.course, tmp_path_factory.mktemp("record") / "mini_course", without=("preview",))
    _recorded_voice(course, "espeak")
    return course


@pytest.fixture(scope="module")
def studio(course):
    yield from running_studio(course)


@pytest.fixture(scope="module")
def browser(course):
    wav = _tone_wav(course.parent / "microphone.wav")
    yield from chromium(
        [
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-audio-capture={wav}",
        ]
    )


def _post(url: str, body: bytes, headers: dict) -> tuple[int, dict | str]:
    req = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        raw = e.read().decode()
        try:
            return e.code, json.loads(raw)
        except ValueError:
            return e.code, raw


def _plan(course: Path) -> dict:
    return json.loads((course / "media" / "plan" / f"{FPS}fps" / "counting.json").read_text(encoding="utf-8"))


def _cue(plan: dict, cue_id: str) -> dict:
    return next(c for s in plan["scenes"] for c in s["cues"] if c["id"] == cue_id)


def _state(page) -> str:
    return page.get_attribute(f'.take-card[data-cue="{CUE}"]', "data-state")


@pytest.mark.render
@pytest.mark.browser
def test_a_cue_recorded_in_the_studio_is_its_audio_until_its_words_change(course, studio, browser):
    flac = course / "narration" / "recordings" / "counting" / f"{CUE}.flac"
    # bad uploads first: each one line, nothing written
    url = studio + "api/scene/count_dots/take/ask"
    own = {"X-Coursekit-Studio": "1", "Content-Type": "audio/webm"}
    assert _post(url, b"x", {"Content-Type": "audio/webm"})[0] == 403  # not from the studio's page
    assert _post(url, b"", own) == (
        400,
        {"error": "the recording of count_dots.ask is empty: nothing was recorded; record it again"},
    )
    status, answer = _post(url, b"not audio at all", own)
    assert status == 400 and answer["error"].startswith("the recording of count_dots.ask: not audio ffmpeg can read")
    status, answer = _post(studio + "api/scene/count_dots/take/nope", b"x", own)
    assert status == 404 and answer["error"].startswith("scene count_dots has no cue 'nope'")
    assert not flac.parent.exists()

    context, page, errors = open_scene_page(browser, studio, "count_dots")
    card = page.locator(f'.take-card[data-cue="{CUE}"]')
    assert _state(page) == "missing"
    assert card.locator(".prompter").inner_text().replace("\n", "") == SAID
    before = page.evaluate("() => document.querySelector('video').src")

    card.locator("button.rec").click()
    page.wait_for_function(
        f"() => parseFloat(document.querySelector('.take-card[data-cue=\"{CUE}\"] .level').style.width) > 30"
    )  # the meter moves with the microphone's tone (-20 dBFS: two thirds of its 60 dB)
    time.sleep(RECORD_S)
    card.locator("button.stop").click()
    page.wait_for_function(
        f"() => document.querySelector('.take-card[data-cue=\"{CUE}\"]').dataset.state === 'current'", timeout=60000
    )
    assert "stored" in card.locator(".take-msg").inner_text()
    take_s = audio.duration_of(audio.conform(flac))
    assert 0.5 < take_s < RECORD_S + 0.5  # trimmed: no longer than what was recorded
    # the new preview, planned with the take
    page.wait_for_function(
        "src => { const v = document.querySelector('video'); return v.src !== src && v.readyState >= 2; }",
        arg=before,
        timeout=BUILD_S * 1000,
    )
    plan = _plan(course)
    cue = _cue(plan, CUE)
    assert plan["recorded"] == [CUE] and cue["audio"] == f"narration/recordings/counting/{CUE}.flac"
    assert abs(cue["speech_frames"] / FPS - take_s) <= 1 / FPS
    # its playback is the stored take
    card.locator("button.play").click()
    page.wait_for_function("() => document.querySelector('#listen').readyState >= 1")
    heard = page.evaluate("() => [document.querySelector('#listen').src, document.querySelector('#listen').duration]")
    assert "/take/count_dots/ask" in heard[0] and abs(heard[1] - take_s) < 0.05

    # `course` delivers it: the manifest marks the cue as the author's, its plan follows the take
    ok(run(course, "course"))
    manifest = json.loads((course / "media" / "course" / "manifest.json").read_text(encoding="utf-8"))
    cues = {c["id"]: c for lesson in manifest["lessons"] for c in lesson["cues"]}
    assert [c for c, v in cues.items() if v["recorded"]] == [CUE]
    delivered = _cue(_plan(course), CUE)
    assert (
        delivered["audio_sha256"] == cue["audio_sha256"] and abs(delivered["speech_frames"] / FPS - take_s) <= 1 / FPS
    )

    # the words change: the lane says the take is stale, and the plan reads the cue with espeak again
    lesson = course / "narration" / "counting.yaml"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(SAID, "再加一个点，是几个？"), encoding="utf-8")
    page.wait_for_function(
        f"() => document.querySelector('.take-card[data-cue=\"{CUE}\"]').dataset.state === 'stale'",
        timeout=BUILD_S * 1000,
    )
    assert card.locator(".take-was").inner_text() == f"The take reads: {SAID}"
    deadline = time.time() + BUILD_S
    while _cue(_plan(course), CUE)["text"] != "再加一个点，是几个？":
        assert time.time() < deadline
        time.sleep(0.5)
    plan = _plan(course)
    assert plan["recorded"] == [] and "recordings" not in (_cue(plan, CUE)["audio"] or "")
    assert flac.exists()  # kept: stale, not deleted
    assert errors == []
    context.close()
