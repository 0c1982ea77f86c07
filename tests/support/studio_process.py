"""``render.py studio`` on a course copy, for the browser tests: started on a free loopback port, waited for
until it prints its address, stopped with SIGINT (killed if it does not stop in 30 s)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def studio_env() -> dict[str, str]:
    """This process's environment without a course of its own (the command's ``--course`` decides)."""
    return {k: v for k, v in os.environ.items() if k not in ("COURSEKIT_COURSE", "COURSEKIT_NARRATION")}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def running_studio(course: Path) -> Iterator[str]:
    """Yield the studio's address (``http://127.0.0.1:PORT/``); its output goes to ``course/studio.log``."""
    port = free_port()
    log = course / "studio.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "render.py"), "studio", "--course", str(course), "--port", str(port)],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=studio_env(),
        )
    try:
        deadline = time.time() + 120
        while not re.search(r"studio: http://127\.0\.0\.1:\d+/", log.read_text()):
            assert proc.poll() is None, log.read_text()
            assert time.time() < deadline, log.read_text()
            time.sleep(0.2)
        url = re.search(r"studio: (http://127\.0\.0\.1:\d+/)", log.read_text()).group(1)
        assert url == f"http://127.0.0.1:{port}/"
        yield url
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
