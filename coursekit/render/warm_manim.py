"""A Manim process started before it is needed: Python and Manim imported while the plan is still being made.

Starting Manim costs about 0.7 s of imports on the build machine, a third of rendering one edited cue of a
preview. ``WarmStarter.take(prefix, env, cwd)`` hands out a process started earlier with the same command prefix
and the same environment but for the job's own variables (``JOB_VARIABLES``), already past
its imports; ``refill()`` starts the next ones once the cores are free. The process then reads one line, the job (Manim's arguments and the
whole environment it runs in), sets them, and runs Manim's command line as ``python -m manim`` would; it
imports nothing of the course before the job, so an edited scene module is read as it is then.

Warm processes are started from one long-lived thread (the starter's), so that ``setpriv --pdeathsig``
(``manim_process.run_limited``) kills them with this process, not with a short-lived worker thread.
"""

from __future__ import annotations

import json
import queue
import subprocess
import tempfile
import threading
from typing import IO

#: what a warm process runs: import, wait for the job, run Manim's command line with it
_WARM_CODE = r"""
import json, os, runpy, sys
import manim  # noqa: F401  (the imports a render would pay)
import coursekit.render.narrated_scene  # noqa: F401
job = json.loads(sys.stdin.readline() or "null")
if job is None:
    sys.exit(0)
os.environ.clear()
os.environ.update(job["env"])
os.nice(int(os.environ.pop("COURSEKIT_NICE", "") or 0))  # a stretch that may wait for another one's cores
sys.argv = ["manim", *job["argv"]]
try:
    runpy.run_module("manim", run_name="__main__", alter_sys=True)
    status = 0
except SystemExit as done:  # click's exit: the video is written and closed by now
    status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    if not isinstance(done.code, (int, type(None))):
        print(done.code, file=sys.stderr)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)  # without tearing down the scene's objects, a few tenths of a second after a long scene
"""


class Warm:
    """One started process, its output file, and what it was started for."""

    def __init__(self, proc: subprocess.Popen, out: IO[bytes], prefix: tuple[str, ...], fixed: str) -> None:
        self.proc, self.out, self.prefix, self.fixed = proc, out, prefix, fixed

    def give(self, argv: list[str], env: dict[str, str]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps({"argv": argv, "env": env}) + "\n").encode())
        self.proc.stdin.close()

    def discard(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()  # it reads an empty line and exits
        except OSError:
            pass
        self.proc.kill()
        self.proc.wait()
        self.out.close()


class WarmStarter:
    """Warm processes for one kind of command (module docstring)."""

    def __init__(self) -> None:
        self._ready: dict[tuple[tuple[str, ...], str], list[Warm]] = {}
        self._lock = threading.Lock()
        self._jobs: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._wanted: dict[tuple[tuple[str, ...], str], tuple[tuple[str, ...], dict[str, str], str]] = {}

    def _serve(self) -> None:
        while True:
            prefix, env, cwd, done = self._jobs.get()
            out = tempfile.TemporaryFile()
            try:
                proc = subprocess.Popen(
                    [*prefix, "-c", _WARM_CODE],
                    stdin=subprocess.PIPE,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=env,
                    cwd=cwd,
                )
                done.put(Warm(proc, out, prefix, fixed_of(env)))
            except OSError as exc:
                out.close()
                done.put(exc)

    def _start(self, prefix: tuple[str, ...], env: dict[str, str], cwd: str) -> Warm:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="warm-manim", daemon=True)
                self._thread.start()
        done: queue.Queue = queue.Queue()
        self._jobs.put((prefix, env, cwd, done))
        got = done.get()
        if isinstance(got, Exception):
            raise got
        return got

    def prepare(self, prefix: tuple[str, ...], env: dict[str, str], cwd: str, count: int = 2) -> None:
        """Have ``count`` processes ready for the next ``take`` with this ``prefix`` and environment."""
        key = (prefix, fixed_of(env))
        while True:
            with self._lock:
                ready = [w for w in self._ready.get(key, []) if w.proc.poll() is None]
                self._ready[key] = ready
                if len(ready) >= count:
                    return
            warm = self._start(prefix, env, cwd)
            with self._lock:
                self._ready.setdefault(key, []).append(warm)

    def take(self, prefix: tuple[str, ...], env: dict[str, str], cwd: str) -> Warm | None:
        """A ready process for ``prefix`` and ``env`` (but its job's variables), or None; ``refill`` starts
        the next ones."""
        key = (prefix, fixed_of(env))
        warm = None
        with self._lock:
            ready = self._ready.get(key, [])
            while ready and warm is None:
                w = ready.pop(0)
                if w.proc.poll() is None:
                    warm = w
                else:
                    w.discard()
        self._wanted[key] = (prefix, env, cwd)
        return warm

    def refill(self) -> None:
        """Start processes for the next renders like the last ones taken, in the background (after the
        renders that need the cores: a process importing Manim beside them slows them down)."""
        for prefix, env, cwd in list(self._wanted.values()):
            threading.Thread(target=self.prepare, args=(prefix, env, cwd), daemon=True).start()

    def close(self) -> None:
        with self._lock:
            ready, self._ready = [w for ws in self._ready.values() for w in ws], {}
        for w in ready:
            w.discard()


#: the variables a job sets (its plan, its piece): any other difference in the environment needs another process,
#: as it may be read when Python, numpy or the allocator start
JOB_VARIABLES = frozenset(
    {"COURSEKIT_SCENE_PLAN", "COURSEKIT_PIECE", "COURSEKIT_PIECE_REPORT", "COURSEKIT_PARK", "COURSEKIT_NICE"}
)


def fixed_of(env: dict[str, str]) -> str:
    return json.dumps({k: v for k, v in sorted(env.items()) if k not in JOB_VARIABLES})


STARTER = WarmStarter()
