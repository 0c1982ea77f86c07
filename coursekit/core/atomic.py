"""Final files are written to a temporary name in the same folder, flushed, then renamed into place.

``replacing(path)`` is the one way to do it, for bytes written here and for files another program
writes (ffmpeg, a voice): the temporary name keeps the suffix, so ffmpeg can infer the format; if the
block raises, the temporary file is removed and ``path`` is left as it was.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def temporary_name(path: Path) -> Path:
    """A hidden name beside ``path``, unique to this process and thread, with the same suffix."""
    path = Path(path)
    return path.with_name(f".{path.stem}.{os.getpid()}-{threading.get_ident()}.tmp{path.suffix}")


@contextmanager
def replacing(path: Path | str) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` to write. When the block ends normally the file is
    fsynced and renamed onto ``path`` (if the block wrote nothing there, nothing happens); if the block
    raises, the temporary file is removed and the exception goes on."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_name(path)
    try:
        yield tmp
        if tmp.exists():
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_bytes(path: Path, data: bytes) -> Path:
    with replacing(path) as tmp, open(tmp, "wb") as fh:
        fh.write(data)
    return Path(path)


def write_text(path: Path, text: str) -> Path:
    return write_bytes(path, text.encode("utf-8"))
