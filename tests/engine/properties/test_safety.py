"""Safety: no shell anywhere, full disks give one clear line and leave earlier outputs intact."""

import errno
import re
from pathlib import Path

from coursekit.cli.main import main

ROOT = Path(__file__).resolve().parents[3]


def test_no_shell_in_project_code():
    bad = []
    for f in list((ROOT / "coursekit").rglob("*.py")) + list((ROOT / "scenes").rglob("*.py")) + [ROOT / "render.py"]:
        text = f.read_text(encoding="utf-8")
        for pat in (r"shell\s*=\s*True", r"os\.system\(", r"os\.popen\(", r"subprocess\.getoutput"):
            if re.search(pat, text):
                bad.append(f"{f.relative_to(ROOT)}: {pat}")
    assert not bad, bad


def test_disk_full_while_writing_the_plan(monkeypatch, capsys):
    out = "tests/.tmp/diskfull_media"
    cfg_file = ROOT / "tests" / ".tmp" / "diskfull.yaml"
    cfg_file.parent.mkdir(exist_ok=True)
    cfg_file.write_text(f"output: {out}\n", encoding="utf-8")
    assert (
        main(["plan", "--lesson", "trig_to_rope", "--voice", "silent", "--fps", "15", "--config", str(cfg_file)]) == 0
    )
    plan_file = ROOT / out / "plan" / "15fps" / "trig_to_rope.json"
    before = plan_file.read_bytes()
    capsys.readouterr()

    real_open = open

    def full_open(path, mode="r", *a, **k):
        if "w" in mode and ".tmp" in Path(str(path)).name:  # coursekit.core.atomic's temporary names
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_open(path, mode, *a, **k)

    monkeypatch.setattr("builtins.open", full_open)
    # force a rewrite: a different gap changes the plan
    cfg_file.write_text(f"output: {out}\ntimeline:\n  cue_gap_s: 0.5\n", encoding="utf-8")
    assert (
        main(["plan", "--lesson", "trig_to_rope", "--voice", "silent", "--fps", "15", "--config", str(cfg_file)]) == 2
    )
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "disk is full" in err and "Traceback" not in err
    monkeypatch.setattr("builtins.open", real_open)
    assert plan_file.read_bytes() == before
