"""What every executor does: run scene renders and hand back their outputs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Iterator

from coursekit.plan.model import ScenePlan


class SceneExecutor:
    """Runs scene renders and hands back their outputs in ``media/scenes/<quality>/``."""

    name = "?"

    def __enter__(self) -> "SceneExecutor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        pass

    def slots(self, n_scenes: int) -> tuple[int, str]:
        """How many scene jobs run at once, and a line saying why when that needs saying."""
        raise NotImplementedError

    def deliver(
        self, scenes: list[ScenePlan], quality: str, outdir: Path, slots: int, guard: Callable[[], None] | None = None
    ) -> Iterator[tuple[ScenePlan, Path, dict]]:
        """Render (or reuse) every scene into ``outdir/<scene>.mp4``; yield each as it finishes, with
        its stats (``reused``, ``wall_s``, ``peak_rss_mb`` …; keys starting with ``_`` are not logged).
        ``guard()`` (the run's check that its sources are unchanged) runs before each job starts and
        before its result is kept; when it raises, no further job starts and the run stops with it."""
        raise NotImplementedError
