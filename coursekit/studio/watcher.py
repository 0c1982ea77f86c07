"""The file watcher: a callback whenever one of a set of files is written. The studio imports it to rebuild
what an edit concerns (``Work.file_changed``); ``preview --watch`` (``coursekit.cli.watch``) uses it too."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

#: watchdog's event kinds that mean a file was written (inotify also reports every open and read-only
#: close, and the rerun's own reads must not trigger another run)
EDITS = ("modified", "created", "moved", "deleted", "closed")
#: of those, the ones after which the file is whole: a write closed, or a file renamed onto it (an editor's
#: atomic save)
WHOLE = ("closed", "moved")


def observe(targets: set[Path] | list[Path], on_change: Callable[[Path, bool], None]) -> Callable[[], None]:
    """Call ``on_change(path, whole)`` (from watchdog's thread) whenever one of ``targets`` is written,
    created, moved onto or deleted, ``whole`` when the event leaves the file whole (``WHOLE``); returns the
    function that stops watching. Used by ``preview --watch`` and the studio."""
    from watchdog.events import FileSystemEventHandler  # watchdog: only when watching
    from watchdog.observers import Observer  # only when watching

    wanted = {Path(p).resolve() for p in targets}

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event):
            if event.event_type not in EDITS:
                return
            for attr in ("src_path", "dest_path"):
                p = getattr(event, attr, None)
                if p and Path(p).resolve() in wanted:
                    on_change(Path(p).resolve(), event.event_type in WHOLE)

    observer = Observer()
    for d in sorted({p.parent for p in wanted}):
        observer.schedule(Handler(), str(d), recursive=False)
    observer.start()

    def stop() -> None:
        observer.stop()
        observer.join()

    return stop
