"""Where scene jobs run. One switch, ``render.executor`` (or ``--executor``):

- ``local`` (default): a thread pool on this machine, each render a Manim subprocess
  (coursekit.render.executors.local);
- ``dask``: self-contained scene jobs sent to a Dask distributed scheduler at ``render.scheduler``
  (coursekit.render.executors.dask_cluster; the job itself is coursekit.render.scene_job).

Both yield ``(scene, output path, stats)`` as scenes finish; ``render_scenes`` logs and reports them the
same way. Assembly always stays on this machine.
"""

from __future__ import annotations

from coursekit.core.config import Config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.render.executors.base import SceneExecutor
from coursekit.render.executors.dask_cluster import DaskExecutor
from coursekit.render.executors.local import LocalExecutor


def open_executor(cfg: Config, layout: MediaLayout, jobs: int | None = None) -> SceneExecutor:
    """The executor ``cfg.render.executor`` names, connected and checked (for dask: reachable scheduler,
    at least one worker, the same versions on every worker), delivering under ``layout``. Use it as a
    context manager."""
    if cfg.render.executor == "dask":
        if not cfg.render.scheduler:
            raise UserError(
                "--executor dask needs the scheduler's address: pass --scheduler tcp://HOST:8786 or "
                "set render.scheduler in config.yaml (start one with `dask scheduler`)"
            )
        return DaskExecutor(cfg, layout)
    return LocalExecutor(cfg, layout, jobs)
