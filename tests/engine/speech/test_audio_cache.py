"""The audio cache: hits, rebuilding corrupt entries, concurrent processes, failed syntheses."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path

import numpy as np
import pytest

from coursekit.speech import audio
from coursekit.speech.audio_cache import AudioCache, cache_key
from coursekit.speech.voices.base import Speech, Voice
from coursekit.speech.voices.silent import Silent


class FakeVoice(Voice):
    """Writes a short tone whose pitch depends on the text; counts calls in a file."""

    name = "fake"

    def __init__(self, counter: Path, delay: float = 0.0, fail: bool = False) -> None:
        self.counter, self.delay, self.fail = counter, delay, fail

    def identity(self) -> dict:
        return {"backend": "fake", "version": "fake 1"}

    def synthesize(self, spoken: str, out_wav: Path) -> Speech:
        with open(self.counter, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        t = np.arange(int(0.3 * 24000)) / 24000
        x = (8000 * np.sin(2 * np.pi * (200 + 10 * len(spoken)) * t)).astype(np.int16)
        if self.fail:
            Path(out_wav).write_bytes(b"RIFF partial")
            raise ConnectionResetError("stream broke mid-way")
        time.sleep(self.delay)
        audio.write_wav_atomic(audio.from_samples(x), out_wav)
        return Speech(Path(out_wav), 0.3, [(0, 0.0), (2, 0.1234567)], "fake 1")


def _calls(counter: Path) -> int:
    return len(counter.read_text().splitlines()) if counter.exists() else 0


def _files(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.is_file())


def test_hit_is_identical_and_does_not_synthesize(tmp_path):
    counter = tmp_path / "calls"
    cache = AudioCache(tmp_path / "c")
    v = FakeVoice(counter)
    a = cache.get(v, "你好，世界")
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "c").rglob("*")}
    b = cache.get(v, "你好，世界")
    assert a == b and _calls(counter) == 1
    assert a.wav.parent == tmp_path / "c" and a.timings == [(0, 0.0), (2, 0.123457)]
    # a hit grows nothing and touches nothing
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "c").rglob("*")} == before
    key = cache_key(v, "你好，世界")
    assert _files(tmp_path / "c") == [f"{key}.json", f"{key}.wav"]
    doc = json.loads((tmp_path / "c" / f"{key}.json").read_text())
    assert doc["wav_bytes"] == a.wav.stat().st_size and len(doc["wav_sha256"]) == 64
    # another text, another key
    cache.get(v, "再见")
    assert _calls(counter) == 2


def test_key_depends_on_identity_and_text(tmp_path):
    v = FakeVoice(tmp_path / "n")
    assert cache_key(v, "a") != cache_key(v, "b")
    w = FakeVoice(tmp_path / "n")
    w.identity = lambda: {"backend": "fake", "version": "fake 2"}
    assert cache_key(v, "a") != cache_key(w, "a")


@pytest.mark.parametrize("damage", ["truncate", "flip", "delete_wav", "bad_json", "delete_json", "json_lies"])
def test_corrupt_entries_are_rebuilt(tmp_path, damage):
    counter = tmp_path / "calls"
    cache = AudioCache(tmp_path / "c")
    v = FakeVoice(counter)
    good = cache.get(v, "你好")
    wav, meta = cache.paths(cache_key(v, "你好"))
    data = wav.read_bytes()
    if damage == "truncate":
        wav.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        wav.write_bytes(data[:100] + bytes([data[100] ^ 0xFF]) + data[101:])
    elif damage == "delete_wav":
        wav.unlink()
    elif damage == "bad_json":
        meta.write_text('{"format": 1, "key": ')
    elif damage == "delete_json":
        meta.unlink()
    elif damage == "json_lies":
        doc = json.loads(meta.read_text())
        doc["wav_sha256"] = "0" * 64
        meta.write_text(json.dumps(doc))
    again = cache.get(v, "你好")
    assert _calls(counter) == 2
    assert again == good and wav.read_bytes() == data


def test_failed_synthesis_leaves_no_entry(tmp_path):
    cache = AudioCache(tmp_path / "c")
    with pytest.raises(ConnectionResetError):
        cache.get(FakeVoice(tmp_path / "calls", fail=True), "你好")
    assert _files(tmp_path / "c") == []
    # and the next good synthesis works
    assert cache.get(FakeVoice(tmp_path / "calls"), "你好").duration == 0.3


def test_silent_voice_stores_json_only(tmp_path):
    cache = AudioCache(tmp_path / "c")
    v = Silent()
    a = cache.get(v, "一二三，四五。")
    b = cache.get(v, "一二三，四五。")
    assert a == b and a.wav is None
    assert [n[-5:] for n in _files(tmp_path / "c")] == [".json"]


def _worker(root: str, counter: str, q) -> None:
    sp = AudioCache(Path(root)).get(FakeVoice(Path(counter), delay=0.4), "同一句话")
    q.put((str(sp.wav), sp.duration, sp.timings, sp.voice, Path(sp.wav).read_bytes()))


def test_two_processes_share_one_entry(tmp_path):
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(str(tmp_path / "c"), str(tmp_path / "calls"), q)) for _ in range(2)]
    for p in procs:
        p.start()
    results = [q.get(timeout=30) for _ in procs]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    assert results[0] == results[1]
    assert _calls(tmp_path / "calls") == 1
    assert len(_files(tmp_path / "c")) == 2
