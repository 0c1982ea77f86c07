"""The Manim command every render runs (coursekit.render.manim_process.manim_command)."""

from __future__ import annotations

import socket
import subprocess
import threading

import pytest

from coursekit.core.atomic import write_text
from coursekit.plan.model import scene_plan_to_json
from coursekit.render.manim_process import manim_command
from coursekit.render.testing import synthetic_plan

TINY = """
from manim import Square, Create
from coursekit.render.narrated_scene import NarratedScene


class Tiny(NarratedScene):
    def construct(self) -> None:
        with self.cue("a") as cue:
            self.play(Create(Square()), run_time=cue.remaining())
"""


@pytest.mark.render
def test_a_render_does_not_reach_the_network(tmp_path):
    """Manim asks PyPI for its latest version at the end of each render unless told not to: a request on
    the critical path of every piece (0.1-0.3 s here, up to its 10 s timeout where a network hangs), and a
    render that should read nothing but the course. Every HTTPS request is sent through a proxy that only
    counts connections."""
    proxy = socket.create_server(("127.0.0.1", 0))
    connections: list[tuple] = []

    def accept() -> None:
        while True:
            try:
                conn, peer = proxy.accept()
            except OSError:
                return
            connections.append(peer)
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    module = tmp_path / "tiny.py"
    module.write_text(TINY, encoding="utf-8")
    plan = synthetic_plan("tiny", "Tiny", [("a", 6, 5, {})], fps=15)
    plan_file = tmp_path / "plan.json"
    write_text(plan_file, scene_plan_to_json(plan))
    args, env = manim_command(plan, module, plan_file, "low", tmp_path / "media", use_cache=False)
    url = f"http://127.0.0.1:{proxy.getsockname()[1]}"
    env.update(https_proxy=url, HTTPS_PROXY=url, http_proxy=url, HTTP_PROXY=url, no_proxy="", NO_PROXY="")
    try:
        done = subprocess.run(args, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    finally:
        proxy.close()
    assert done.returncode == 0, done.stderr[-2000:]
    assert list((tmp_path / "media").rglob("tiny.mp4")), "no video was written"
    assert connections == [], f"the render opened {len(connections)} connection(s) through the proxy"
