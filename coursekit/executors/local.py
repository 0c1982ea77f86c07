"""The default executor: scene renders in a thread pool on this machine, each one a Manim subprocess
limited to ``render.worker_memory_gb`` (see coursekit.scene_render.deliver_scene)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Iterator

from coursekit.config import Config
from coursekit.executors import SceneExecutor
from coursekit.plan import ScenePlan


class LocalExecutor(SceneExecutor):
    name = "local"

    def __init__(self, cfg: Config, jobs: int | None = None) -> None:
        self.cfg = cfg
        self.jobs = jobs

    def slots(self, n_scenes: int) -> tuple[int, str]:
        from coursekit.scene_render import worker_count

        workers, why = worker_count(self.cfg, self.jobs)
        return max(1, min(workers, n_scenes)), why

    def deliver(self, scenes: list[ScenePlan], quality: str, outdir: Path,
                slots: int) -> Iterator[tuple[ScenePlan, Path, dict]]:
        from coursekit.scene_render import _deliver_timed

        with ThreadPoolExecutor(max_workers=slots) as pool:
            futs = {pool.submit(_deliver_timed, self.cfg, s, quality, outdir / f"{s.id}.mp4"): s for s in scenes}
            for fut in as_completed(futs):
                path, stats = fut.result()
                yield futs[fut], path, stats
