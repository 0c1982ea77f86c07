"""Something made once per test run and shared by every test process that asks for it.

Under xdist the workers share it as pytest-xdist documents for a session fixture run once: the first to ask
makes it under a file lock in the run's shared temporary folder, the others wait for the lock and read what
it made. A make that fails is made only once too: every later test is told why, not made to try again.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest


def once_per_run(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder ``name`` in the run's shared temporary folder, after ``make(folder)`` has filled it, once."""
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    root = shared / name
    root.mkdir(exist_ok=True)
    made, failed = shared / f"{name}.made", shared / f"{name}.failed.txt"
    with FileLock(str(root) + ".lock"):
        if not made.exists() and not failed.exists():
            try:
                make(root)
            except BaseException as exc:
                failed.write_text(f"{type(exc).__name__}: {exc}"[-4000:], encoding="utf-8")
                raise
            made.touch()
    if failed.exists():
        pytest.fail(f"{name}, made once for the run, failed: {failed.read_text(encoding='utf-8')}")
    return root
