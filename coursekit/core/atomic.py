"""Final files are written to a temporary name in the same folder, flushed, then renamed into place.

``replacing(path)`` is the one way to do it, for bytes written here and for files another program
writes (ffmpeg, a voice): the temporary name keeps the suffix, so ffmpeg can infer the format; if the
block raises, the temporary file is removed and ``path`` is left as it was.

A process killed with SIGKILL cannot remove its temporary file. The name holds the writer's pid, so
``sweep_stale(folder)``, which every command that writes runs over the output folder first, removes the
temporary files of processes that no longer run (and never another live command's).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def temporary_name(path: Path) -> Path:
    """A hidden name beside ``path``, unique to this process and thread, with the same suffix."""
    path = Path(path)
    return path.with_name(f".{path.stem}.{os.getpid()}-{threading.get_ident()}.tmp{path.suffix}")


#: ``temporary_name``'s pattern: ``.<stem>.<pid>-<thread>.tmp<suffix>``
_TEMPORARY = re.compile(r"^\..+\.(\d+)-(\d+)\.tmp(\.[^.]+)?$")


def process_running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def stale_temporaries(folder: Path) -> list[Path]:
    """Temporary files (``temporary_name``) under ``folder`` whose writer no longer runs."""
    found: list[Path] = []
    for dirpath, _, files in os.walk(folder):
        for name in files:
            m = _TEMPORARY.match(name)
            if m and int(m.group(1)) != os.getpid() and not process_running(int(m.group(1))):
                found.append(Path(dirpath) / name)
    return sorted(found)


def sweep_stale(folder: Path) -> list[Path]:
    """Remove what ``stale_temporaries`` finds; returns what was removed."""
    gone = stale_temporaries(folder)
    for p in gone:
        p.unlink(missing_ok=True)
    return gone


@contextmanager
def replacing(path: Path | str) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` to write. When the block ends normally the file is
    fsynced and renamed onto ``path`` (if the block wrote nothing there, nothing happens); if the block
    raises, the temporary file is removed and the exception goes on."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_name(path)
    try:
        yield tmp
        if tmp.exists():
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_bytes(path: Path, data: bytes) -> Path:
    with replacing(path) as tmp, open(tmp, "wb") as fh:
        fh.write(data)
    return Path(path)


def write_text(path: Path, text: str) -> Path:
    return write_bytes(path, text.encode("utf-8"))
