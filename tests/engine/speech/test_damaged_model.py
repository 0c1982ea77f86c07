"""A damaged model file (issue 41): with one byte of a Kokoro file changed, ``plan`` and the default voice
ended in a traceback (the vocabulary's JSON) or ran on with the changed weights (the model), though
``doctor`` named the file. The voice checks what it loads against the pinned size and sha256
(``coursekit.speech.model_files``) and says one line naming the file and ``make setup``, exit status 2; ``check``
checks the files of the voice the config names, without building it.

The check stays cheap: a file is hashed once per process per size and mtime, and not at all when the
models folder's recorded state (``.sha256-cache.json``) holds its size and mtime; a file changed since is
hashed again (shown by counting the hashes)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from coursekit.core.errors import UserError
from coursekit.speech import model_files as models
from coursekit.speech.voices import kokoro as kk
from tests.support import mini_runs

pytestmark = pytest.mark.skipif(bool(kk.missing_files()), reason="kokoro model not assembled (make setup)")


def damaged_copy(dst: Path, name: str) -> Path:
    """The kokoro folder at ``dst`` (its files hard links, but ``name``, a copy with its middle byte changed)."""
    shutil.copytree(kk.default_model_dir(), dst, copy_function=os.link, ignore=shutil.ignore_patterns(".sha256*"))
    path = dst / name
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.unlink()
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("name", [kk.VOCAB_FILE, kk.MODEL_FILE])
def test_a_damaged_file_is_one_line_naming_it_and_make_setup(tmp_path, name):
    folder = tmp_path / "models" / "kokoro"
    damaged_copy(folder, name)
    with pytest.raises(UserError) as err:
        kk.Kokoro(model_dir=folder)
    line = str(err.value)
    assert "\n" not in line and f"kokoro/{name}: sha256 " in line and "is not the pinned" in line
    assert "make setup" in line


def test_the_same_files_undamaged_are_taken(tmp_path):
    folder = tmp_path / "models" / "kokoro"
    shutil.copytree(kk.default_model_dir(), folder, copy_function=os.link)
    pinned = {f.dest.split("/", 1)[1]: f.sha256 for f in models.FILES if f.model == kk.MODEL}
    assert kk.verify_files(folder, "zf_xiaobei") == {n: pinned[n] for n in (kk.MODEL_FILE, kk.VOCAB_FILE)}


def test_check_and_plan_refuse_the_damaged_voice_before_any_work(tmp_path, monkeypatch, capfd):
    course = mini_runs.copy_mini_course(tmp_path / "mini")
    damaged_copy(course / "models" / "kokoro", kk.VOCAB_FILE)
    for argv in (["check", "--voice", "kokoro"], ["plan", "--voice", "kokoro"], ["plan", "--voice", "auto"]):
        res = mini_runs.here(monkeypatch, capfd, *argv, "--course", str(course))
        assert res.returncode == 2, (argv, res.stderr[-2000:])
        (line,) = res.stderr.strip().splitlines()
        assert "models/kokoro/vocab.json: sha256 " in line and "make setup" in line, line
    assert not (course / "media" / "plan").exists()


def test_a_file_is_hashed_once_per_change(tmp_path, monkeypatch):
    folder = tmp_path / "models" / "kokoro"
    shutil.copytree(kk.default_model_dir(), folder, ignore=shutil.ignore_patterns("*.onnx", "*.npz", "voices"))
    hashed = []
    real = models.file_sha256
    monkeypatch.setattr(models, "file_sha256", lambda p: hashed.append(Path(p).name) or real(p))
    monkeypatch.setattr(models, "_VERIFIED", {})
    models.verify(folder, kk.MODEL, [kk.VOCAB_FILE], "run make setup")
    models.verify(folder, kk.MODEL, [kk.VOCAB_FILE], "run make setup")
    assert hashed == [kk.VOCAB_FILE]  # the second time: this process's record
    monkeypatch.setattr(models, "_VERIFIED", {})  # another process: the folder's recorded state
    models.verify(folder, kk.MODEL, [kk.VOCAB_FILE], "run make setup")
    assert hashed == [kk.VOCAB_FILE]
    vocab = folder / kk.VOCAB_FILE
    data = bytearray(vocab.read_bytes())
    data[10] ^= 0x01
    vocab.write_bytes(bytes(data))
    os.utime(vocab, ns=(vocab.stat().st_atime_ns, vocab.stat().st_mtime_ns + 1_000_000_000))
    with pytest.raises(UserError, match="vocab.json: sha256 .* is not the pinned"):
        models.verify(folder, kk.MODEL, [kk.VOCAB_FILE], "run make setup")
    assert hashed == [kk.VOCAB_FILE, kk.VOCAB_FILE]  # changed: hashed again, and refused
