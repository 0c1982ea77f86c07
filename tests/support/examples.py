"""How many examples a property test draws: the number it names under ``make test`` (and CI), a quarter of
it (at least 10) under ``make test-fast``, the loop an author runs between edits, which sets
``COURSEKIT_TESTS_FAST``. The same properties are checked in both; the full search is make test's."""

from __future__ import annotations

import os

FAST_ENV = "COURSEKIT_TESTS_FAST"


def examples(n: int) -> int:
    """``n``, or ``max(10, n // 4)`` when ``COURSEKIT_TESTS_FAST`` is set (``make test-fast``)."""
    return max(10, n // 4) if os.environ.get(FAST_ENV) else n
