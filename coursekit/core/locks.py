"""A file lock that says when it has to wait: "waiting for another render of X to finish …"."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout


@contextmanager
def waiting_lock(path: Path | str, holder: str, say: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the lock file ``path``; if another process holds it, say ``waiting for {holder} to finish …``
    once and wait for it."""
    lock = FileLock(str(path))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        (say or (lambda line: print(line, flush=True)))(f"waiting for {holder} to finish …")
        lock.acquire()
    try:
        yield
    finally:
        lock.release()
