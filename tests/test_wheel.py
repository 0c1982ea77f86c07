"""coursekit as its own distribution: a wheel built from this checkout, installed into a fresh venv,
runs a course that is not this one, with none of this course's packages importable.

How, and what it proves. Installing manim, numpy, scipy, pydantic … from PyPI into a fresh venv would take
minutes and the network. Instead:

1. the wheel is built from a copy of ``pyproject.toml`` and ``coursekit/`` (``pip wheel . --no-deps``; the
   build backend comes from pip's cache), so nothing is written into the checkout;
2. a fresh venv (``--without-pip``) gets the wheel with ``pip --python VENV install --no-deps``, so the
   console script and the package come from the wheel alone;
3. a ``.pth`` file in the fresh venv's site-packages appends the project venv's site-packages to
   ``sys.path``, for the third-party dependencies only. A plain path line in a ``.pth`` does not run the
   ``.pth`` files of that folder, so the project's editable install of coursekit (a finder that a ``.pth``
   installs) is not active: ``coursekit`` can only be imported from the wheel, and the test asserts that
   ``coursekit.__file__`` lies in the fresh venv;
4. ``pip check`` in the fresh venv says the wheel's declared dependencies are satisfied by what is
   installed;
5. the commands run from a folder outside the checkout, without PYTHONPATH: ``coursekit --course
   COPY plan --voice silent`` on a copy of tests/fixtures/mini_course, ``coursekit init DIR``, ``coursekit
   --course DIR check`` (which imports the scenes and so Manim), and the test file ``init`` wrote.

Proved: the wheel holds every module and data file the engine reads (the page's and the studio's files,
the templates, the Dask config), its ``coursekit`` entry point works, it brings none of this course
(scenes, narration, mathcore), and a course is loaded from its own folder. Not proved: that the
dependencies resolve from PyPI on a clean machine (the versions are the project venv's, which ``make
setup`` installed from the same pyproject), nor that an extra (kokoro, listening, dask, browser) works
without the others. No video is rendered (the render tests do that on the checkout).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest

from tests.conftest import copy_mini_course

ROOT = Path(__file__).resolve().parent.parent
PIP = [sys.executable, "-m", "pip"]


def run(cmd: list[str], cwd: Path, env: dict | None = None, timeout: int = 300) -> str:
    res = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                         env=env)
    assert res.returncode == 0, f"{cmd}:\n{res.stdout[-2000:]}\n{res.stderr[-3000:]}"
    return res.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """``(venv, wheel, seconds)``: a fresh venv with the wheel installed and the project's dependencies
    reachable through a .pth line."""
    start = time.monotonic()
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    shutil.copy(ROOT / "pyproject.toml", src / "pyproject.toml")
    shutil.copytree(ROOT / "coursekit", src / "coursekit", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    run([*PIP, "wheel", ".", "--no-deps", "-q", "-w", tmp / "dist"], cwd=src)
    [wheel] = (tmp / "dist").glob("coursekit-*.whl")
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp)
    python = venv / "bin" / "python"
    run([*PIP, "--python", python, "install", "-q", "--no-deps", "--no-index", wheel], cwd=tmp)
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp).strip()
    (Path(site) / "project-venv-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return venv, wheel, time.monotonic() - start


def env() -> dict:
    return {k: v for k, v in os.environ.items()
            if k not in ("COURSEKIT_COURSE", "COURSEKIT_NARRATION", "PYTHONPATH", "VIRTUAL_ENV")}


def test_the_wheel_holds_the_engine_and_no_course(installed):
    _, wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"coursekit"}, tops   # no scenes, mathcore …
    for data in ("coursekit/deliver/static/page.js", "coursekit/deliver/static/page.css",
                 "coursekit/studio/assets/studio.html", "coursekit/render/executors/dask-render.yaml",
                 "coursekit/scaffold/course/config.yaml.tmpl", "coursekit/scaffold/course/scenes/welcome.py.tmpl"):
        assert data in names, data
    engine_data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "coursekit").rglob("*")
                   if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts}
    assert engine_data <= set(names), sorted(engine_data - set(names))
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "coursekit = coursekit.cli.main:main" in meta


def test_coursekit_comes_from_the_wheel_and_the_course_does_not(installed, tmp_path):
    venv, _, _ = installed
    code = ("import coursekit, importlib.util as u; print(coursekit.__file__); "
            "print([m for m in ('scenes', 'mathcore', 'narration') if u.find_spec(m)])")
    out = run([venv / "bin" / "python", "-c", code], cwd=tmp_path, env=env()).splitlines()
    assert Path(out[0]).is_relative_to(venv), out[0]
    assert out[1] == "[]"
    assert "No broken requirements found" in run([*PIP, "--python", venv / "bin" / "python", "check"],
                                                 cwd=tmp_path, env=env())


def test_the_installed_command_makes_the_mini_course_and_a_new_one(installed, tmp_path):
    venv, _, built_s = installed
    start = time.monotonic()
    coursekit = venv / "bin" / "coursekit"
    mini = copy_mini_course(tmp_path / "mini_course")
    out = run([coursekit, "--course", mini, "plan", "--voice", "silent"], cwd=tmp_path, env=env())
    assert "counting: 2 scenes" in out
    assert list((mini / "media").rglob("counting.json"))

    run([coursekit, "init", "new_course", "--title", "装好的课"], cwd=tmp_path, env=env())
    out = run([coursekit, "--course", "new_course", "check"], cwd=tmp_path, env=env())
    assert "config, narration and scenes OK" in out and "2 scenes, 5 cues" in out
    res = subprocess.run([venv / "bin" / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
                         cwd=tmp_path / "new_course", capture_output=True, text=True, env=env(), timeout=300)
    assert res.returncode == 0 and "4 passed" in res.stdout, res.stdout[-3000:] + res.stderr[-2000:]
    print(f"wheel built and installed in {built_s:.1f} s, commands in {time.monotonic() - start:.1f} s")
