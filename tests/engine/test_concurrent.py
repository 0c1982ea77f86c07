"""Two renders of the same scene at once: the second waits for the lock, says so, then finishes cleanly."""
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from filelock import FileLock

pytestmark = pytest.mark.render   # every test here renders video with Manim

ROOT = Path(__file__).resolve().parents[2]
OUT = "tests/.tmp/conc_media"
SCENE = "rope_turns"


def test_second_render_waits_and_says_so(tmp_path):
    shutil.rmtree(ROOT / OUT, ignore_errors=True)
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"output: {OUT}\nvoice:\n  backend: silent\n", encoding="utf-8")
    lock_path = ROOT / OUT / "manim" / f"{SCENE}.lock"
    lock_path.parent.mkdir(parents=True)
    holder = FileLock(str(lock_path))
    holder.acquire()                       # "the first render" holds the scene
    proc = subprocess.Popen([sys.executable, "-u", "render.py", "preview", SCENE, "--config", str(cfg)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        seen.append(line)
        if "waiting for another render" in line:
            break
    assert any("waiting for another render of rope_turns" in l for l in seen), seen
    time.sleep(1.0)
    assert proc.poll() is None             # still waiting while the lock is held
    holder.release()
    rest = proc.communicate(timeout=600)[0]
    assert proc.returncode == 0, rest
    out = ROOT / OUT / "preview" / f"{SCENE}.mp4"
    frames = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                             "stream=nb_read_frames", "-of", "csv=p=0", str(out)], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert int(frames) > 0
