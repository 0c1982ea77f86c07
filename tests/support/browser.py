"""Headless Chromium for the page, player, widget and studio tests: the Debian package driven by Playwright,
and a delivered course folder served on loopback (render.py's own server)."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--autoplay-policy=no-user-gesture-required",
]


def need_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed (Debian package chromium)")


def chromium(extra: list[str] | None = None) -> Iterator:
    """A launched headless Chromium (with the ``extra`` flags too) for a fixture to ``yield from`` (closed
    after); skips without it."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS + list(extra or ()))
        yield b
        b.close()


def served(folder: Path) -> Iterator[str]:
    """``folder`` served on a free loopback port, its URL for a fixture to ``yield from``; skips without
    Chromium (nothing would read it)."""
    from coursekit.deliver.serve import make_server

    need_chromium()
    server = make_server(folder, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
