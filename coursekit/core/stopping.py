"""How a command stops when it is asked to: SIGTERM (a process manager, ``timeout``, a cancelled CI job)
and SIGINT (Ctrl-C) end the command and everything it started.

``handling_stops()`` (around every command, ``coursekit.cli.main``) installs the handlers. On the first
signal the handler:

1. sets ``STOPPING``, which every place that starts work checks (``check()``) before it starts a scene
   job, a lesson's assembly or a Manim process, so nothing new begins;
2. kills every process this one started, at any depth (Manim, ffmpeg, the voices' worker processes;
   not multiprocessing's resource tracker, which does no work and ends with this process),
   and keeps doing so every 0.1 s from a daemon thread while the command winds down, so a process
   started in the instant before the flag was seen is ended too;
3. raises ``Stopped`` (a ``KeyboardInterrupt``) in the main thread. The command unwinds through its
   ``finally`` blocks: temporary files are removed (``coursekit.core.atomic.replacing``), locks are
   released, worker threads, whose child processes are gone, end at once.

The command then prints one line and exits with 128 + the signal (130 for SIGINT, 143 for SIGTERM).
Finished outputs were renamed into place whole, so they stay; a file that was being written is gone.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

STOPPING = threading.Event()
SIGNALS = (signal.SIGTERM, signal.SIGINT)
_REAP_EVERY_S = 0.1


class Stopped(KeyboardInterrupt):
    """The command was asked to stop by ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name


def check() -> None:
    """Raise ``Stopped`` if the command is stopping: call before starting any piece of work."""
    if STOPPING.is_set():
        raise Stopped(_received[0] if _received else signal.SIGTERM)


_received: list[int] = []


def end_children() -> int:
    """Kill every process this one started, at any depth; how many were still running."""
    import psutil  # psutil: only when stopping, or to find the children to stop

    try:
        children = psutil.Process().children(recursive=True)
    except psutil.Error:
        return 0
    keep = _bookkeepers()
    n = 0
    for child in children:
        if child.pid in keep:
            continue
        try:
            child.kill()
            n += 1
        except psutil.Error:
            pass
    return n


def _bookkeepers() -> set[int]:
    """Helper processes that do no work and end with this one: multiprocessing's resource tracker
    (killed, it is started again and prints tracebacks about the semaphores it no longer knows)."""
    tracker = getattr(sys.modules.get("multiprocessing.resource_tracker"), "_resource_tracker", None)
    pid = getattr(tracker, "_pid", None)
    return {pid} if pid else set()


def _reaper() -> None:
    while True:
        end_children()
        time.sleep(_REAP_EVERY_S)


def _on_signal(signum: int, frame) -> None:
    if STOPPING.is_set():  # already stopping: let the first one finish winding down
        return
    _received.append(signum)
    STOPPING.set()
    end_children()
    threading.Thread(target=_reaper, name="stop-reaper", daemon=True).start()
    raise Stopped(signum)


@contextmanager
def handling_stops() -> Iterator[None]:
    """SIGTERM and SIGINT stop the command as the module docstring says, while the block runs (in the
    main thread; elsewhere the block runs without them). The previous handlers come back afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {s: signal.getsignal(s) for s in SIGNALS}
    for s in SIGNALS:
        signal.signal(s, _on_signal)
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def exit_line(exc: Stopped) -> str:
    """The one line a stopped command prints."""
    return (
        f"stopped by {exc.name}: every render, encoder and voice process it started was ended; finished "
        f"outputs are kept, the ones being written were not (pid {os.getpid()})"
    )
