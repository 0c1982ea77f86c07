"""Is a command slower than it was? CPU seconds of one ``render.py`` command in two checkouts, run alternately.

    .venv/bin/python bench/compare.py --old ../old-checkout --runs 16 subtitles
    .venv/bin/python bench/compare.py --old ../old-checkout --runs 8 preview count_dots

Each checkout runs the command with its own venv (``<checkout>/.venv``) on its own copy of the same course
(default: the mini course, tests/fixtures/mini_course; ``--course`` another), made once under
media/bench/compare/, planned and warmed by one untimed run, so both start from the same caches. The runs
alternate (old, new, new, old, …) so that a machine whose load changes slows both alike; a run's figure is its CPU
seconds (user + system, from the OS, children included), which load inflates far less than wall time. It
prints the medians, their ratio and the bench's ``cpu_probe_s`` before and after; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import cpu_probe  # noqa: E402

MINI = ROOT / "tests" / "fixtures" / "mini_course"
OUT = ROOT / "media" / "bench" / "compare"


def _cpu(tree: Path, course: Path, args: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cmd = [str(tree / ".venv" / "bin" / "python"), "render.py", *args, "--course", str(course)]
    proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{tree}: {' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()[-400:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=Path, required=True, help="the other checkout (with its own .venv)")
    ap.add_argument("--course", type=Path, default=MINI, help="the course to run on (copied for each checkout)")
    ap.add_argument("--runs", type=int, default=12, help="timed runs per checkout")
    ap.add_argument("--voice", default="espeak", help="the voice both run with (default: espeak)")
    ap.add_argument("command", nargs="+", help="the render.py command and its arguments")
    a = ap.parse_args()
    trees = {"old": a.old.resolve(), "new": ROOT}
    courses = {}
    for name, tree in trees.items():
        if not (tree / ".venv" / "bin" / "python").exists():
            raise SystemExit(f"{tree}: no .venv; run `make setup` there first")
        courses[name] = OUT / name
        shutil.rmtree(courses[name], ignore_errors=True)
        shutil.copytree(a.course, courses[name], ignore=shutil.ignore_patterns("__pycache__", "media"))
    args = [*a.command, "--voice", a.voice]
    for name in trees:  # warm: planned (subtitles needs a plan), the same caches on both sides
        _cpu(trees[name], courses[name], ["plan", "--voice", a.voice])
        _cpu(trees[name], courses[name], args)
    probe = cpu_probe()
    got: dict[str, list[float]] = {"old": [], "new": []}
    for i in range(a.runs):
        for name in ("old", "new") if i % 2 == 0 else ("new", "old"):
            got[name].append(_cpu(trees[name], courses[name], args))
    probe_end = cpu_probe()
    old, new = statistics.median(got["old"]), statistics.median(got["new"])
    print(f"render.py {' '.join(a.command)}: {a.runs} runs each, alternated")
    print(f"  old {trees['old']}: median {old:.3f} s CPU")
    print(f"  new {trees['new']}: median {new:.3f} s CPU")
    print(f"  new / old: {new / old:.3f}   cpu_probe_s {probe:.3f} before, {probe_end:.3f} after")


if __name__ == "__main__":
    main()
