"""A file's sha256 remembered by its stamp (coursekit.core.digest.file_sha256_cached): read once while the file
stays as it is, read again once it is written, even to the same size with its mtime put back."""

from __future__ import annotations

import hashlib
import os

from coursekit.core import digest


def test_a_file_is_hashed_once_until_it_is_written_again(tmp_path, monkeypatch):
    path = tmp_path / "cue.wav"
    path.write_bytes(b"first take")
    reads = []
    real = digest.file_sha256
    monkeypatch.setattr(digest, "file_sha256", lambda p: reads.append(p) or real(p))
    digest._cached.cache_clear()

    assert digest.file_sha256_cached(path) == hashlib.sha256(b"first take").hexdigest()
    assert digest.file_sha256_cached(path) == hashlib.sha256(b"first take").hexdigest()
    assert len(reads) == 1

    before = path.stat()
    path.write_bytes(b"other take")  # the same size; its mtime put back: the ctime still moves
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert digest.file_sha256_cached(path) == hashlib.sha256(b"other take").hexdigest()
    assert len(reads) == 2
