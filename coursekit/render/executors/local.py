"""The default executor: scene renders in a thread pool on this machine, each one a Manim subprocess
limited to ``render.worker_memory_gb`` (see coursekit.render.one_scene.deliver_scene)."""

from __future__ import annotations

import heapq
import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Iterator

from coursekit.core.config import Config
from coursekit.core.layout import MediaLayout
from coursekit.plan.model import ScenePlan
from coursekit.render import pieces
from coursekit.render.executors.base import SceneExecutor
from coursekit.render.one_scene import deliver_timed


class RenderSlots:
    """``slots`` threads that run submitted renders, the highest priority first (a scene's pieces and whole
    scenes alike, longest first), so both cores stay busy until the last piece. ``submit`` is the
    ``one_scene.Submit`` of this executor."""

    def __init__(self, slots: int) -> None:
        self._heap: list[tuple[int, int, Callable[[], Any], Future]] = []
        self._order = itertools.count()  # equal priorities run in the order submitted
        self._cond = threading.Condition()
        self._closed = False
        self._threads = [
            threading.Thread(target=self._work, name=f"render-{i}", daemon=True) for i in range(max(1, slots))
        ]
        for t in self._threads:
            t.start()

    def submit(self, priority: int, fn: Callable[[], Any]) -> Future:
        fut: Future = Future()
        with self._cond:
            if self._closed:
                fut.cancel()
                return fut
            heapq.heappush(self._heap, (-priority, next(self._order), fn, fut))
            self._cond.notify()
        return fut

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._heap and not self._closed:
                    self._cond.wait()
                if not self._heap:
                    return
                _, _, fn, fut = heapq.heappop(self._heap)
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                fut.set_result(fn())
            except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
                fut.set_exception(exc)

    def shutdown(self, cancel: bool = True) -> None:
        """Start nothing more (``cancel``: the renders not yet started are cancelled), wait for those running."""
        with self._cond:
            self._closed = True
            if cancel:
                for _, _, _, fut in self._heap:
                    fut.cancel()
                self._heap.clear()
            self._cond.notify_all()
        for t in self._threads:
            t.join()


class LocalExecutor(SceneExecutor):
    name = "local"

    def __init__(self, cfg: Config, layout: MediaLayout, jobs: int | None = None) -> None:
        self.cfg = cfg
        self.layout = layout
        self.jobs = jobs

    def slots(self, n_scenes: int) -> tuple[int, str]:
        workers, why = worker_count(self.cfg, self.jobs)
        # with pieces, even one scene keeps every slot busy
        return (max(1, workers) if pieces.switched_on() else max(1, min(workers, n_scenes))), why

    def deliver(
        self, scenes: list[ScenePlan], quality: str, outdir: Path, slots: int, guard: Callable[[], None] | None = None
    ) -> Iterator[tuple[ScenePlan, Path, dict]]:
        """Scenes longest first, ``slots`` at a time. When some scene is cut in pieces
        (``coursekit.render.pieces.cuts``), every render (a piece or a whole scene) goes to ``slots`` render
        threads, the costliest first, and a thread per scene (a few more than the slots) checks its cache,
        mixes its narration, waits for its renders, joins and muxes."""
        cut = pieces.cuts(scenes, slots)
        longest_first = sorted(scenes, key=lambda s: -s.frames)
        if all(len(c) == 1 for c in cut.values()):  # no scene is cut: a scene per slot, in that order
            renders, pool = None, ThreadPoolExecutor(max_workers=slots, thread_name_prefix="scene")
            jobs = [(s, {}) for s in longest_first]
        else:
            renders = RenderSlots(slots)
            pool = ThreadPoolExecutor(max_workers=max(1, min(len(scenes), slots + 2)), thread_name_prefix="scene")
            jobs = [(s, {"cut": cut[s.id], "submit": renders.submit}) for s in longest_first]
        try:
            futs = {
                pool.submit(deliver_timed, self.cfg, self.layout, s, quality, outdir / f"{s.id}.mp4", guard, **kw): s
                for s, kw in jobs
            }
            for fut in as_completed(futs):
                path, stats = fut.result()
                yield futs[fut], path, stats
        finally:
            # a failure (or a stop) starts no further scene or piece; the ones running finish or fail by themselves
            if renders is not None:
                renders.shutdown(cancel=True)
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
