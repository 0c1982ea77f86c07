"""Where scene jobs run. One switch, ``render.executor`` (or ``--executor``):

- ``local`` (default): a thread pool on this machine, each render a Manim subprocess
  (coursekit.executors.local);
- ``dask``: self-contained scene jobs sent to a Dask distributed scheduler at ``render.scheduler``
  (coursekit.executors.dask_cluster; the job itself is coursekit.scene_job).

Both yield ``(scene, output path, stats)`` as scenes finish; ``render_scenes`` logs and reports them the
same way. Assembly always stays on this machine.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from coursekit.config import Config
from coursekit.errors import UserError
from coursekit.plan import ScenePlan


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

    def deliver(self, scenes: list[ScenePlan], quality: str, outdir: Path,
                slots: int) -> Iterator[tuple[ScenePlan, Path, dict]]:
        """Render (or reuse) every scene into ``outdir/<scene>.mp4``; yield each as it finishes, with
        its stats (``reused``, ``wall_s``, ``peak_rss_mb`` …; keys starting with ``_`` are not logged)."""
        raise NotImplementedError


def open_executor(cfg: Config, jobs: int | None = None) -> SceneExecutor:
    """The executor ``cfg.render.executor`` names, connected and checked (for dask: reachable scheduler,
    at least one worker, the same versions on every worker). Use it as a context manager."""
    if cfg.render.executor == "dask":
        if not cfg.render.scheduler:
            raise UserError("--executor dask needs the scheduler's address: pass --scheduler tcp://HOST:8786 or "
                            "set render.scheduler in config.yaml (start one with `dask scheduler`)")
        from coursekit.executors.dask_cluster import DaskExecutor

        return DaskExecutor(cfg)
    from coursekit.executors.local import LocalExecutor

    return LocalExecutor(cfg, jobs)
