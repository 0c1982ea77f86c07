"""The studio's parked Manim processes (coursekit.render.parked): how many are kept. That a parked process
draws the frames of a fresh render, and when it is not used, is tested on the mini course in
test_preview_pieces.py."""

from __future__ import annotations

import subprocess
import sys
import tempfile

from coursekit.core.layout import MediaLayout
from coursekit.render import parked
from coursekit.render.testing import synthetic_plan
from coursekit.render.warm_manim import Warm


def test_parking_for_a_third_scene_ends_the_process_parked_longest_ago(tmp_path, monkeypatch):
    started: list[Warm] = []

    def fake_start(args, env, limit, die_with_parent=True, fill=False):
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], stdin=subprocess.PIPE)
        started.append(Warm(proc, tempfile.TemporaryFile(), (), ""))
        return started[-1]

    monkeypatch.setattr(parked, "start_warm", fake_start)
    layout = MediaLayout(tmp_path)
    parking = parked.Parking()
    try:
        for name in ("a", "b", "c"):
            plan = synthetic_plan(name, "S", [("x", 20, 18, {}), ("y", 20, 18, {})], fps=15)
            parking.park(layout, plan, tmp_path / "s.py", "low", 1.0, 20, 40, "code", "sig")
        assert parked.MAX_SCENES == 2
        assert started[0].proc.wait(10) is not None  # a's process was ended
        assert all(w.proc.poll() is None for w in started[1:])
        assert parking.take("a", 20, "code", "sig") is None
        assert parking.take("c", 20, "code", "other sig") is None  # kept for its own plan only
        assert parking.take("c", 20, "code", "sig").warm is started[2] and parking.take("c", 20, "code", "sig") is None
    finally:
        parking.close()
        for w in started:
            w.discard()
