"""Scene jobs on a Dask distributed cluster (``--executor dask --scheduler tcp://HOST:8786``).

Connecting: the scheduler must answer within ``COURSEKIT_DASK_TIMEOUT_S`` seconds (default 10) and
have at least one worker. Before the first job, every worker's ``scene_job.environment()`` (Python,
Manim and the other libraries that draw, encode or mix, ffmpeg, the font files by hash, the project's
sources by digest) is compared with this machine's; any difference is refused, naming the worker and
the item, because mixing them would change pixels. Each job checks again on its worker, and each result
carries the environment it was made with.

Jobs: an unchanged scene (same scene-cache key as the local path) is not sent. Every other scene is
one ``run_scene_job`` task with its plan slice and narration (bytes, or hashes when
``render.shared_store`` is set), longest first. A job that raises is retried once; a worker lost
mid-job makes the scheduler run the job elsewhere (Dask's ``allowed-failures``). Results are verified
(sha256, the environment, ffprobe frames and duration against the plan), written to media/ through a
temporary name, and recorded in the scene cache as they arrive, so when a job fails twice and the run
stops, the scenes already received are kept and the next run resumes from them.

``loopback_cluster()`` starts a LocalCluster on this machine for the tests and the benchmark, with the
settings of ``dask-render.yaml`` beside this file, which docs/cluster.md recommends for render clusters.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Iterator

import yaml

from coursekit.core.atomic import replacing
from coursekit.core.config import Config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.core.locks import course_lock, names
from coursekit.core.media_tools import probe
from coursekit.core.paths import course_root
from coursekit.plan.model import ScenePlan
from coursekit.render import pieces, scene_job
from coursekit.render.executors.base import SceneExecutor
from coursekit.render.one_scene import scene_cache_key
from coursekit.render.pieces import Piece
from coursekit.render.scene_cache import is_fresh, remember
from coursekit.render.scene_job import SceneJobError

TIMEOUT_ENV = "COURSEKIT_DASK_TIMEOUT_S"
RENDER_CLUSTER_CONFIG = Path(__file__).with_name("dask-render.yaml")
JOB_RETRIES = 1


def _timeout() -> float:
    try:
        return max(0.5, float(os.environ.get(TIMEOUT_ENV) or 10))
    except ValueError:
        return 10.0


def _dotted(tree: dict, prefix: str = "") -> dict:
    """{"a": {"b": 1}} -> {"a.b": 1}: dask.config.set replaces a whole subtree given as a dict."""
    out: dict = {}
    for k, v in tree.items():
        if isinstance(v, dict):
            out.update(_dotted(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


@contextlib.contextmanager
def loopback_cluster(workers: int = 2, threads_per_worker: int = 1, render_settings: bool = True) -> Iterator:
    """A LocalCluster of ``workers`` processes (``threads_per_worker`` threads each) on 127.0.0.1
    without a dashboard, for trying this executor on one machine (the tests, bench/dask_cluster.py).

    Dask's nanny runs in this process and writes its ``distributed.nanny.pre-spawn-environ`` variables
    (MALLOC_TRIM_THRESHOLD_=65536, PYTHONHASHSEED, OMP_NUM_THREADS=1, ...) into *this* process's
    environment before it spawns a worker, and leaves them there for every process started from here
    later (the benchmark's render.py client, the rest of the test suite). Renders drop or pin them
    anyway (manim_process.manim_env), but so that nothing else inherits them, this process's environment
    is put back once the workers are up and again when the cluster closes (a restarted worker writes
    it again in between). The scheduler and workers run with RENDER_CLUSTER_CONFIG (with Dask's defaults
    if not ``render_settings``)."""
    import dask  # Dask: only with the dask executor
    from distributed import LocalCluster  # Dask: only with the dask executor

    before = dict(os.environ)
    settings = _dotted(yaml.safe_load(RENDER_CLUSTER_CONFIG.read_text(encoding="utf-8"))) if render_settings else {}

    def restore() -> None:
        if dict(os.environ) != before:
            os.environ.clear()
            os.environ.update(before)

    try:
        with (
            dask.config.set(settings),
            LocalCluster(
                n_workers=workers,
                threads_per_worker=threads_per_worker,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            ) as cluster,
        ):
            restore()
            yield cluster
    finally:
        restore()


def shared_store(cfg: Config) -> Path | None:
    """``render.shared_store`` as an absolute path (relative paths are taken from the course root)."""
    if not cfg.render.shared_store:
        return None
    p = Path(cfg.render.shared_store).expanduser()
    return p if p.is_absolute() else course_root() / p


class DaskExecutor(SceneExecutor):
    name = "dask"

    def __init__(self, cfg: Config, layout: MediaLayout) -> None:
        from distributed import Client  # Dask: only with the dask executor

        self.cfg = cfg
        self.layout = layout
        self.address = cfg.render.scheduler
        self.store = shared_store(cfg)
        timeout = _timeout()
        hint = (
            f"start one with `dask scheduler` on that host and workers with `dask worker {self.address}`, "
            f"check render.scheduler / --scheduler, or use --executor local"
        )
        # the client's own connection retries would otherwise log a traceback before we say it in one line
        quiet = [logging.getLogger(n) for n in ("distributed.client", "distributed.comm.tcp", "distributed.core")]
        levels = [l.level for l in quiet]
        for l in quiet:
            l.setLevel(logging.CRITICAL)
        try:
            self.client = Client(self.address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise UserError(
                f"cannot reach the Dask scheduler at {self.address} within {timeout:g} s ({type(exc).__name__}); {hint}"
            ) from None
        finally:
            for l, level in zip(quiet, levels):
                l.setLevel(level)
        try:
            try:
                self.client.wait_for_workers(1, timeout=timeout)
            except TimeoutError:
                raise UserError(
                    f"the Dask scheduler at {self.address} has no workers (waited {timeout:g} s); "
                    f"start some with `dask worker {self.address}` on machines that have the project "
                    f"installed"
                ) from None
            self.env = scene_job.environment(cfg.course.font)
            self._check_workers()
        except BaseException:
            self.client.close()
            raise

    def _check_workers(self) -> None:
        try:
            theirs = self.client.run(scene_job.environment, self.cfg.course.font)
        except Exception as exc:  # noqa: BLE001 - e.g. the worker cannot import coursekit
            raise UserError(
                f"could not read the versions on the Dask workers at {self.address}: "
                f"{type(exc).__name__}: {exc}; install the project on every worker and start "
                f"`dask worker` from its virtual environment"
            ) from None
        for addr, env in sorted(theirs.items()):
            diff = scene_job.differences(self.env, env)
            if diff:
                more = f" (and {len(diff) - 1} more difference{'s' if len(diff) > 2 else ''})" if len(diff) > 1 else ""
                raise UserError(
                    f"Dask worker {addr} does not match this machine: {diff[0]}{more}; mixing them "
                    f"would change pixels, so nothing was sent. Install the same project and versions "
                    f"on every worker, or stop that worker"
                )
        self.workers = len(theirs)

    def close(self) -> None:
        client, self.client = getattr(self, "client", None), None
        if client is not None:
            client.close()

    def slots(self, n_scenes: int) -> tuple[int, str]:
        threads = sum(self.client.nthreads().values()) or 1
        note = ""
        if self.cfg.render.jobs:
            note = f"render.jobs / --jobs ({self.cfg.render.jobs}) does not apply to the dask executor; "
        note += (
            f"Dask cluster at {self.address}: {self.workers} worker{'s' if self.workers != 1 else ''}, "
            f"{threads} thread{'s' if threads != 1 else ''}, versions match this machine"
        )
        return max(1, min(threads, n_scenes)), note

    # ------------------------------------------------------------ results

    def _accept(
        self, scene: ScenePlan, meta: dict, key: str, out: Path, guard: Callable[[], None] | None = None
    ) -> None:
        """Verify one result and write it to ``out`` atomically, then record its scene-cache key;
        ``guard()`` first (a source edited since the run began: the result is not kept)."""
        if guard is not None:
            guard()

        data = meta["mp4"]
        worker = meta.get("worker", "?")
        if len(data) != meta["size"] or hashlib.sha256(data).hexdigest() != meta["sha256"]:
            raise UserError(
                f"scene '{scene.id}' arrived damaged from worker {worker} (size or sha256 differ); run again"
            )
        diff = scene_job.differences(self.env, meta["environment"])
        if diff:
            raise UserError(
                f"scene '{scene.id}' was rendered by worker {worker}, which does not match this "
                f"machine: {diff[0]}; install the same project and versions on every worker"
            )
        clips = sorted({c.audio_sha256 for c in scene.cues if c.audio_sha256})
        if meta["key"] != key or meta["audio_sha256"] != clips:
            raise UserError(
                f"scene '{scene.id}' from worker {worker} was made from another plan or narration "
                f"than this run's; run again"
            )
        if meta["frames"] != scene.frames:
            raise UserError(
                f"scene '{scene.id}' from worker {worker} has {meta['frames']} frames, the plan has {scene.frames}"
            )
        with (
            course_lock(self.layout.root, names.output(self.layout.root, out), f"writing {out.name}"),
            replacing(out) as tmp,
        ):
            tmp.write_bytes(data)
            info = probe(tmp)
            v = next((s for s in info["streams"] if s["codec_type"] == "video"), None)
            a = next((s for s in info["streams"] if s["codec_type"] == "audio"), None)
            frames = int(v["nb_frames"]) if v else -1
            duration = float(v["duration"]) if v else -1.0
            if frames != scene.frames or abs(duration - scene.frames / scene.fps) > 0.5 / scene.fps or a is None:
                raise UserError(
                    f"scene '{scene.id}' from worker {worker} holds {frames} frames "
                    f"({duration:.3f} s{'' if a else ', no audio'}), the plan has {scene.frames} "
                    f"({scene.frames / scene.fps:.3f} s); not written"
                )
        remember(out, key)

    def _fail(self, scene: ScenePlan, fut) -> UserError:
        if fut.status == "cancelled":
            return UserError(
                f"lost the Dask scheduler at {self.address} while scene '{scene.id}' was running; "
                f"scenes already received are kept, run again to resume"
            )
        exc = fut.exception()
        if type(exc).__name__ == "KilledWorker":
            return UserError(
                f"scene '{scene.id}' failed on the cluster: every worker that ran it died "
                f"(Dask's distributed.scheduler.allowed-failures was reached); check the workers' "
                f"logs and memory, or render it with --executor local"
            )
        text = str(exc) if isinstance(exc, (SceneJobError, UserError)) else f"{type(exc).__name__}: {exc}"
        if "does not match the client" in text:
            changed = scene_job.differences(self.env, scene_job.environment(self.cfg.course.font))
            if changed:  # not the worker: this machine changed (e.g. a source edited) since the run began
                what = changed[0].replace(" here, ", " at the start, ").replace(" on the worker", " now")
                return UserError(
                    f"scene '{scene.id}' was refused by its worker because this machine changed "
                    f"during the run ({what}); scenes already received are kept; run again"
                )
        return UserError(f"scene '{scene.id}' failed twice on the cluster: {text}")

    def _submit(self, s: ScenePlan, quality: str, key: str, run: str, piece: Piece | None = None):
        job = scene_job.make_job(
            s,
            quality,
            key,
            self.cfg.render.worker_memory_gb,
            self.env,
            self.store,
            self.cfg.course.font,
            piece=(piece.start, piece.end) if piece is not None else None,
        )
        name = f"scene-{s.id}-{quality}-{run}" if piece is None else f"piece-{s.id}-{piece.index}-{quality}-{run}"
        return self.client.submit(
            scene_job.run_scene_job,
            job,
            key=name,
            pure=False,
            retries=JOB_RETRIES,
            priority=s.frames if piece is None else pieces.cost(piece),
        )

    def deliver(
        self, scenes: list[ScenePlan], quality: str, outdir: Path, slots: int, guard: Callable[[], None] | None = None
    ) -> Iterator[tuple[ScenePlan, Path, dict]]:
        """Every scene is one job, or one job per piece (``coursekit.render.pieces.cuts`` over the cluster's
        threads), all sent longest first; a pieced scene is joined, mixed and muxed here when its last
        piece arrives, and sent again whole if its pieces do not join exactly."""
        from distributed import as_completed  # Dask: only with the dask executor

        futs: dict = {}  # future -> (scene, piece or None)
        keys: dict[str, str] = {}
        arrived: dict[str, dict[int, dict]] = {}
        cut = pieces.cuts(scenes, max(1, sum(self.client.nthreads().values())))
        run = uuid.uuid4().hex[:8]
        try:
            for s in sorted(scenes, key=lambda s: -s.frames):  # longest first: the shortest tail
                t0 = time.perf_counter()
                if guard is not None:
                    guard()
                module, key = scene_cache_key(s, quality, font=self.cfg.course.font)
                if module is None:
                    raise UserError(
                        f"scene '{s.id}': no class {s.cls} in scenes/; write it or fix 'class' in the narration"
                    )
                out = outdir / f"{s.id}.mp4"
                if is_fresh(out, key):
                    yield s, out, self._stats(s, quality, t0, reused=True)
                    continue
                keys[s.id] = key
                if len(cut[s.id]) > 1:
                    arrived[s.id] = {}
                    for p in cut[s.id]:
                        futs[self._submit(s, quality, key, run, p)] = (s, p)
                else:
                    futs[self._submit(s, quality, key, run)] = (s, None)
            pending = set(futs)
            done = as_completed(list(futs), loop=self.client.loop)
            for fut in done:
                pending.discard(fut)
                s, piece = futs[fut]
                if fut.status != "finished":
                    error = self._fail(s, fut)
                    for other in list(pending):  # whole scenes that are already here are kept
                        if other.status == "finished" and futs[other][1] is None:
                            pending.discard(other)
                            t0 = time.perf_counter()
                            o = futs[other][0]
                            meta = other.result()
                            self._accept(o, meta, keys[o.id], outdir / f"{o.id}.mp4", guard)
                            yield o, outdir / f"{o.id}.mp4", self._stats(o, quality, t0, meta=meta)
                    raise error
                t0 = time.perf_counter()
                meta = fut.result()
                fut.release()
                if piece is not None:
                    arrived[s.id][piece.index] = meta
                    if len(arrived[s.id]) < len(cut[s.id]):
                        continue
                    metas = [arrived[s.id][p.index] for p in cut[s.id]]
                    folder, mixed = (
                        self.layout.manim_dir(s.id) / "pieces",
                        self.layout.scene_work(s.fps) / f"{s.id}.m4a",
                    )
                    meta = pieces.join_results(s, cut[s.id], metas, folder, mixed, self.env)
                    if meta is None:  # rendered whole instead
                        again = self._submit(s, quality, keys[s.id], run)
                        futs[again] = (s, None)
                        pending.add(again)
                        done.add(again)
                        continue
                out = outdir / f"{s.id}.mp4"
                self._accept(s, meta, keys[s.id], out, guard)
                yield s, out, self._stats(s, quality, t0, meta=meta)
        finally:
            undone = [f for f in futs if not f.done()]
            if undone and self.client is not None:
                self.client.cancel(undone)

    @staticmethod
    def _stats(s: ScenePlan, quality: str, t0: float, reused: bool = False, meta: dict | None = None) -> dict:
        """One log row, with the local path's keys; ``wall_s`` of a job is its time on the worker plus the
        client's verification and write."""
        wall = time.perf_counter() - t0
        stats: dict = {"reused": reused}
        if meta is not None:
            wall += meta["job_s"]
            stats["peak_rss_mb"] = meta["peak_rss_mb"]
            stats.update(manim_s=meta["manim_s"], manim_cpu_s=meta.get("manim_cpu_s", 0.0))
            if "pieces" in meta:
                stats["pieces"] = meta["pieces"]
            stats["_worker"] = meta["worker"]
        stats.update(
            scene=s.id,
            quality=quality,
            fps=s.fps,
            video_s=round(s.duration, 3),
            wall_s=round(wall, 3),
            time=round(time.time(), 3),
        )
        return stats
