"""An output folder that is a file, or a folder under it that is, or one that cannot be written: one line
and exit 2 before any work, from every command that writes (issue 26); the file in the way is untouched.

Run on copies of the mini course: `plan` with the output folder a file as the real `render.py` (its whole stderr),
every other case through the command line's entry in this process (``mini_runs.here``): each command refuses
before it starts any process, so a Python started and the engine imported again for each would show nothing more."""

import os

import pytest

from coursekit.core.errors import UserError
from coursekit.core.paths import writable_folder
from tests.support import mini_runs


def one_line(res) -> str:
    lines = [l for l in res.stderr.splitlines() if l.strip()]
    assert res.returncode == 2 and len(lines) == 1 and "Traceback" not in res.stderr, res.stderr[-2000:]
    return lines[0]


@pytest.mark.parametrize("command", [("plan",), ("subtitles",), ("preview", "closing"), ("course",), ("render",)])
def test_output_that_is_a_file(mini, command, monkeypatch, capfd):
    (mini / "media").write_bytes(b"not a folder")
    if command == ("plan",):
        res = mini_runs.run(mini, *command)
    else:
        res = mini_runs.here(monkeypatch, capfd, *command, "--course", str(mini))
    line = one_line(res)
    assert "output folder (media): media is a file, not a folder; move it away, or set output" in line
    assert (mini / "media").read_bytes() == b"not a folder"


@pytest.mark.parametrize(
    "inside, command",
    [
        ("plan", ("plan",)),
        ("cache", ("plan",)),
        ("scenes", ("render",)),
        ("preview", ("preview", "closing")),
        ("course/counting", ("course",)),
        ("course", ("subtitles",)),
    ],
)
def test_a_folder_under_it_that_is_a_file(mini, inside, command, monkeypatch, capfd):
    path = mini / "media" / inside
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"in the way")
    line = one_line(mini_runs.here(monkeypatch, capfd, *command, "--course", str(mini)))
    assert f"media/{inside} is a file, not a folder" in line
    assert path.read_bytes() == b"in the way"
    assert not (mini / "media" / "scenes").is_dir() or inside == "course/counting"


def test_a_folder_that_cannot_be_written(tmp_path, monkeypatch):
    """(The suite may run as root, which writes anywhere, so the permission is taken away by os.access.)"""
    (tmp_path / "media").mkdir()
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if str(p).endswith("media") else real(p, mode))
    with pytest.raises(UserError, match="media cannot be written .no permission.; make it writable"):
        writable_folder(tmp_path / "media" / "plan", "output folder (media)", "set output in config.yaml")
    writable_folder(tmp_path / "elsewhere" / "plan", "output folder (elsewhere)", "set output in config.yaml")
