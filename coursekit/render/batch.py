"""A batch of scenes: which to render, on which executor, with a progress bar and the render log."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from coursekit.core.config import Config
from coursekit.core.layout import MediaLayout
from coursekit.plan.model import LessonPlan, ScenePlan
from coursekit.render.executors import open_executor
from coursekit.render.registry import find_scene_module


def _log_render(layout: MediaLayout, quality: str, row: dict) -> None:
    """Append one JSON line per scene to media/logs/render-<quality>.jsonl (what bench/run.py reads)."""
    path = layout.render_log(quality)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(row, sort_keys=True) + "\n")


def render_scenes(
    cfg: Config,
    layout: MediaLayout,
    plans: list[LessonPlan],
    scene_ids: list[str] | None,
    jobs: int | None = None,
    only_existing: bool = False,
    executor=None,
    guard: Callable[[], None] | None = None,
) -> list[Path]:
    """Render scenes at the config's quality into media/scenes/<quality>/<scene>.mp4 with ``executor``
    (default: the one ``render.executor`` names, see coursekit.render.executors; local runs ``jobs`` at a time,
    default ``worker_count``). Each finished scene is logged to media/logs/render-<quality>.jsonl.
    ``guard()`` runs before every scene job and before its output is kept (see SceneExecutor.deliver)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # rich: only when rendering

    quality = cfg.video.quality
    todo: list[ScenePlan] = []
    skipped: list[str] = []
    for plan in plans:
        for s in plan.scenes:
            if scene_ids and s.id not in scene_ids:
                continue
            if only_existing and find_scene_module(s.cls) is None:
                skipped.append(s.id)
                continue
            todo.append(s)
    if skipped:
        print(f"not yet drawn (no scene class), skipped: {', '.join(skipped)}")
    own = executor is None
    ex = open_executor(cfg, layout, jobs) if own else executor
    try:
        workers, why = ex.slots(len(todo))
        if why:
            print(why)
        outdir = layout.scene_videos(quality)
        done: list[Path] = []
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(),
        ) as progress:
            where = "" if ex.name == "local" else f" on the {ex.name} cluster"
            task = progress.add_task(
                f"rendering {len(todo)} scenes at {quality}, {workers} at a time{where}", total=len(todo)
            )
            for s, path, stats in ex.deliver(todo, quality, outdir, workers, guard):
                done.append(path)
                row = {k: v for k, v in stats.items() if not k.startswith("_")}
                _log_render(layout, quality, {**row, "jobs": workers, "executor": ex.name})
                on = f" on {stats['_worker']}" if stats.get("_worker") else ""
                if stats.get("reused"):
                    progress.console.print(f"  {s.id}: unchanged, reused")
                else:
                    progress.console.print(
                        f"  {s.id}: {s.duration:.1f} s of video in {stats['wall_s']:.1f} s{on} "
                        f"(wall/video {stats['wall_s'] / s.duration:.2f}, "
                        f"peak memory {stats.get('peak_rss_mb', 0):.0f} MB)"
                    )
                progress.advance(task)
    finally:
        if own:
            ex.close()
    return sorted(done)
