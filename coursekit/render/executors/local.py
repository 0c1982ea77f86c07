"""The default executor: scene renders in a thread pool on this machine, each one a Manim subprocess
limited to ``render.worker_memory_gb`` (see coursekit.render.one_scene.deliver_scene)."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Iterator

from coursekit.core.config import Config
from coursekit.core.layout import MediaLayout
from coursekit.plan.model import ScenePlan
from coursekit.render.executors.base import SceneExecutor
from coursekit.render.one_scene import deliver_timed


class LocalExecutor(SceneExecutor):
    name = "local"

    def __init__(self, cfg: Config, layout: MediaLayout, jobs: int | None = None) -> None:
        self.cfg = cfg
        self.layout = layout
        self.jobs = jobs

    def slots(self, n_scenes: int) -> tuple[int, str]:
        workers, why = worker_count(self.cfg, self.jobs)
        return max(1, min(workers, n_scenes)), why

    def deliver(
        self, scenes: list[ScenePlan], quality: str, outdir: Path, slots: int, guard: Callable[[], None] | None = None
    ) -> Iterator[tuple[ScenePlan, Path, dict]]:
        pool = ThreadPoolExecutor(max_workers=slots, thread_name_prefix="scene")
        try:
            futs = {
                pool.submit(deliver_timed, self.cfg, self.layout, s, quality, outdir / f"{s.id}.mp4", guard): s
                for s in scenes
            }
            for fut in as_completed(futs):
                path, stats = fut.result()
                yield futs[fut], path, stats
        finally:
            # a failure (or a stop) starts no further scene; the ones running finish or fail by themselves
            pool.shutdown(wait=True, cancel_futures=True)


def worker_count(cfg: Config, requested: int | None = None) -> tuple[int, str]:
    """How many scene renders run at once: ``requested`` (else render.jobs, else the core count),
    lowered so that jobs × render.worker_memory_gb fits in the memory available now.
    Returns the count and, when it was lowered, why."""
    import psutil  # only when scenes render

    want = requested or cfg.render.jobs or os.cpu_count() or 1
    fits = max(1, int(psutil.virtual_memory().available / (cfg.render.worker_memory_gb * 2**30)))
    if fits < want:
        return fits, (
            f"{fits} parallel renders instead of {want}: {psutil.virtual_memory().available / 2**30:.1f} GB "
            f"free holds {fits} × render.worker_memory_gb ({cfg.render.worker_memory_gb:g} GB)"
        )
    return want, ""
