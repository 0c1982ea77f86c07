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
BUILD_S = 240  # a build on a loaded 2-core machine: plan (espeak) and a Manim render of a 6 s scene
#: the page's video is shown and can play
VIDEO_LOADED = "const v = document.querySelector('video'); return v && !v.hidden && v.readyState >= 2"


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


def open_scene_page(browser, studio: str, scene: str, also: str = "") -> tuple:
    """A new 1400×1000 page on the studio's page of ``scene``, once its video is loaded (and the JavaScript
    condition ``also`` holds, if given): ``(context, page, errors)``, ``errors`` the page's uncaught errors.
    Playwright's ``wait_for_function`` evaluates strings, which the studio's CSP forbids its own pages."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{studio}scene/{scene}")
    page.wait_for_function(f"() => {{ {VIDEO_LOADED}{f' && {also}' if also else ''}; }}", timeout=BUILD_S * 1000)
    return context, page, errors
