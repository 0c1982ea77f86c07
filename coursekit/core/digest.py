"""The sha256 of a file, and a memoised one for large files read again and again (model weights)."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path


def text_sha(text: str) -> str:
    """The sha256 of a text (UTF-8), in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_sha256(path: Path | str) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


@functools.lru_cache(maxsize=16)
def _cached(path: str, size: int, mtime_ns: int) -> str:
    return file_sha256(path)


def file_sha256_cached(path: Path | str) -> str:
    """``file_sha256``, computed again only when the file's size or mtime changes."""
    st = Path(path).stat()
    return _cached(str(path), st.st_size, st.st_mtime_ns)
