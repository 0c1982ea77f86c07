#!/usr/bin/env python3
"""Benchmark helper: run render.py with ``--executor dask`` against a Dask LocalCluster of N worker
processes on loopback, started (and stopped) by this process.

    .venv/bin/python bench/dask_cluster.py [--workers 2] [--serve | --idle SECONDS] [-- RENDER.PY ARGS]

``RENDER.PY ARGS`` default to ``course``; ``--executor dask --scheduler <address>`` is appended. It
prints the cluster's start-up time and the render's wall time. ``--serve`` only starts the cluster,
prints its address and waits (Ctrl-C or SIGTERM stops it), for trying ``render.py ... --executor dask`` by hand.
``--idle SECONDS`` measures what an idle cluster costs: the CPU seconds that this process (scheduler,
nannies) and the workers use over SECONDS, once with Dask's defaults and once with
coursekit/render/executors/dask-render.yaml.

From bench/run.py (the project root is on sys.path, so ``bench.dask_cluster`` imports)::

    from bench.dask_cluster import render_course_on_local_cluster
    wall = render_course_on_local_cluster(out / "config.yaml", workers=2)   # seconds of `render.py course`

or, for other commands and the details::

    from bench.dask_cluster import render_on_local_cluster
    r = render_on_local_cluster(["course", "--config", str(cfg)], workers=2, capture=True)
    r["wall_s"], r["returncode"], r["cluster_start_s"], r["output"]

The LocalCluster starts its workers with multiprocessing's spawn method, so the calling script must
keep its work under ``if __name__ == "__main__":`` (bench/run.py does).

As with ``--jobs 2``, clear media/scenes/<quality>/ (with its .key files) before timing, or every scene
is reused. The dask jobs render into temporary folders, so Manim's per-animation cache in media/manim/
is not used; compare against a local run with media/manim/ cleared too.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script (from any checkout): this checkout's coursekit
    sys.path.insert(0, str(ROOT))


@contextlib.contextmanager
def local_cluster(workers: int = 2, threads_per_worker: int = 1) -> Iterator[str]:
    """coursekit's ``loopback_cluster`` (which keeps this process's environment clean of the nanny's
    variables); yields the scheduler's address."""
    from coursekit.render.executors.dask_cluster import loopback_cluster

    with loopback_cluster(workers, threads_per_worker) as cluster:
        yield cluster.scheduler_address


def idle_cpu(seconds: float, workers: int = 2, render_settings: bool = True) -> float:
    """CPU seconds (user + system) that this process and its children (the cluster) use in ``seconds``
    of doing nothing, after 3 s to settle."""
    import psutil

    from coursekit.render.executors.dask_cluster import loopback_cluster

    with loopback_cluster(workers, render_settings=render_settings):
        time.sleep(3)
        me = psutil.Process()
        procs = [me, *me.children(recursive=True)]
        before = [sum(p.cpu_times()[:2]) for p in procs]
        time.sleep(seconds)
        return sum(sum(p.cpu_times()[:2]) - b for p, b in zip(procs, before))


def render_on_local_cluster(
    render_args: list[str] | None = None, workers: int = 2, env: dict | None = None, capture: bool = False
) -> dict:
    """Start a LocalCluster, run ``render.py <render_args> --executor dask --scheduler <addr>`` in a
    subprocess, stop the cluster. Returns ``wall_s`` (the render.py process only), ``cluster_start_s``,
    ``returncode``, ``scheduler``, ``workers`` and, with ``capture``, ``output``."""
    args = list(render_args or ["course"])
    env = dict(env if env is not None else os.environ)  # as it was before the cluster started (see local_cluster)
    t0 = time.perf_counter()
    with local_cluster(workers) as address:
        started = time.perf_counter() - t0
        cmd = [sys.executable, str(ROOT / "render.py"), *args, "--executor", "dask", "--scheduler", address]
        t1 = time.perf_counter()
        proc = subprocess.run(
            cmd,
            cwd=ROOT,
            env=env,
            text=True,
            stdout=subprocess.PIPE if capture else None,
            stderr=subprocess.STDOUT if capture else None,
        )
        wall = time.perf_counter() - t1
    result = {
        "wall_s": round(wall, 2),
        "cluster_start_s": round(started, 2),
        "returncode": proc.returncode,
        "scheduler": address,
        "workers": workers,
    }
    if capture:
        result["output"] = proc.stdout
    return result


def render_course_on_local_cluster(config: Path | str, workers: int = 2) -> float:
    """``render.py course --config <config> --executor dask`` on a fresh ``workers``-process LocalCluster;
    returns the wall seconds of the render.py process (the cluster's start-up is not counted, it is
    printed). Exits with the command's error output if it fails, like bench/run.py's ``run``."""
    r = render_on_local_cluster(["course", "--config", str(config)], workers=workers, capture=True)
    if r["returncode"] != 0:
        sys.exit(
            f"bench: `render.py course --config {config} --executor dask --scheduler {r['scheduler']}` "
            f"failed ({r['returncode']}): {r['output'].strip()[-800:]}"
        )
    print(f"dask LocalCluster of {workers} workers started in {r['cluster_start_s']:.1f} s (not counted)", flush=True)
    return r["wall_s"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2, help="worker processes (one thread each)")
    ap.add_argument("--serve", action="store_true", help="only start the cluster and wait")
    ap.add_argument("--idle", type=float, metavar="SECONDS", help="CPU of an idle cluster over SECONDS")
    ap.add_argument("render_args", nargs="*", help="render.py arguments (default: course); put them after --")
    args = ap.parse_args()
    if args.idle:
        for render_settings, name in ((False, "Dask's defaults"), (True, "dask-render.yaml")):
            cpu = idle_cpu(args.idle, args.workers, render_settings)
            print(
                f"idle {args.workers}-worker LocalCluster, {name}: {cpu:.2f} s of CPU in {args.idle:g} s "
                f"({100 * cpu / args.idle:.1f}% of one core)",
                flush=True,
            )
        return 0
    if args.serve:
        import signal

        signal.signal(signal.SIGTERM, signal.default_int_handler)  # `kill PID` stops it cleanly too
        with local_cluster(args.workers) as address:
            print(f"LocalCluster with {args.workers} workers at {address}; Ctrl-C stops it", flush=True)
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                return 0
    r = render_on_local_cluster(args.render_args or None, workers=args.workers)
    print(
        f"dask LocalCluster ({r['workers']} workers) started in {r['cluster_start_s']:.1f} s; "
        f"render.py {' '.join(args.render_args or ['course'])} --executor dask took {r['wall_s']:.1f} s "
        f"(exit {r['returncode']})",
        flush=True,
    )
    return r["returncode"]


if __name__ == "__main__":
    sys.exit(main())
