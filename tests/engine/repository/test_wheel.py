"""coursekit as its own distribution: a wheel built from this checkout, installed into a fresh venv,
runs a course that is not this one, with none of this course's packages importable.

How, and what it proves. Installing manim, numpy, scipy, pydantic … from PyPI into a fresh venv would take
minutes and the network. Instead:

1. the wheel is built from a copy of ``pyproject.toml`` and ``coursekit/`` (``uv build --wheel``, uv being
   the installer ``make setup`` put into the project venv; the build backend comes from uv's cache), so
   nothing is written into the checkout;
2. a fresh venv (``--without-pip``) gets the wheel with ``uv pip install --python VENV --no-deps``, so the
   console script and the package come from the wheel alone;
3. a ``.pth`` file in the fresh venv's site-packages appends the project venv's site-packages to
   ``sys.path``, for the third-party dependencies only. A plain path line in a ``.pth`` does not run the
   ``.pth`` files of that folder, so the project's editable install of coursekit (a finder that a ``.pth``
   installs) is not active: ``coursekit`` can only be imported from the wheel, and the test asserts that
   ``coursekit.__file__`` lies in the fresh venv;
4. ``pip check`` in the fresh venv says the wheel's declared dependencies are satisfied by what is
   installed;
5. the commands run from a folder outside the checkout, without PYTHONPATH and with the user cache in a
   folder of the test's: on a copy of tests/fixtures/mini_course, ``coursekit --course COPY plan --voice
   silent``; then what issue 29 asks of a second author's first hour: ``coursekit init DIR``, ``coursekit
   --course DIR preview welcome``, ``course --quality low`` (both with the espeak voice: seconds, not the
   kokoro model's load) and ``doctor``, and the test file ``init`` wrote. ``doctor`` passes with
   ``$COURSEKIT_MODELS`` naming this checkout's models/ (an installed engine has no checkout to find them
   in), and without it fails on the models, naming the folders it looked in and ``coursekit models``.

Proved: the wheel holds every module and data file the engine reads (the page's and the studio's files,
the templates, the Dask config), its ``coursekit`` entry point works, it brings none of this course
(scenes, narration, mathcore), a course is loaded from its own folder, and a new course previews, renders
into a lesson video and its page, and passes doctor, with the engine installed. Not proved: that the
dependencies resolve from PyPI on a clean machine (the versions are the project venv's, which ``make
setup`` installed from the same pyproject), nor that an extra (kokoro, listening, dask, browser) works
without the others. The render is the lowest quality; the render tests check videos on the checkout.

Time (this file alone on 2 cores, 2026-12-04): 48 s at a load average of 4.5, against 24 s for the test
before it previewed, rendered and ran doctor. The preview (espeak's synthesis included) and the course take
about 29 s of it. Building the wheel took 6.1 s with ``pip wheel`` and takes 2.3 s with ``uv build`` (the
same 129 files). Not asserted.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest

from tests.support.mini_runs import copy_mini_course

ROOT = Path(__file__).resolve().parents[3]
PIP = [sys.executable, "-m", "pip"]
UV = [sys.executable, "-m", "uv"]


def run(cmd: list[str], cwd: Path, env: dict | None = None, timeout: int = 300) -> str:
    res = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
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
    run([*UV, "build", "--wheel", "-q", "--out-dir", tmp / "dist"], cwd=src)
    [wheel] = (tmp / "dist").glob("coursekit-*.whl")
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp)
    python = venv / "bin" / "python"
    run([*UV, "pip", "install", "-q", "--python", python, "--no-deps", "--no-index", wheel], cwd=tmp)
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp).strip()
    (Path(site) / "project-venv-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return venv, wheel, time.monotonic() - start


def env(home: Path | None = None) -> dict:
    """The environment of a command in the fresh venv: none of this checkout's (course, narration,
    models, PYTHONPATH, the project venv); with ``home``, the user cache in ``home/cache``."""
    out = {
        k: v
        for k, v in os.environ.items()
        if k not in ("COURSEKIT_COURSE", "COURSEKIT_NARRATION", "COURSEKIT_MODELS", "PYTHONPATH", "VIRTUAL_ENV")
    }
    return {**out, "XDG_CACHE_HOME": str(home / "cache")} if home is not None else out


def test_the_wheel_holds_the_engine_and_no_course(installed):
    _, wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"coursekit"}, tops  # no scenes, mathcore …
    for data in (
        "coursekit/deliver/static/page.js",
        "coursekit/deliver/static/page.css",
        "coursekit/studio/assets/studio.html",
        "coursekit/render/executors/dask-render.yaml",
        "coursekit/scaffold/course/config.yaml.tmpl",
        "coursekit/scaffold/course/scenes/welcome.py.tmpl",
    ):
        assert data in names, data
    engine_data = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "coursekit").rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    }
    assert engine_data <= set(names), sorted(engine_data - set(names))
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "coursekit = coursekit.cli.main:main" in meta


def test_coursekit_comes_from_the_wheel_and_the_course_does_not(installed, tmp_path):
    venv, _, _ = installed
    code = (
        "import coursekit, importlib.util as u; print(coursekit.__file__); "
        "print([m for m in ('scenes', 'mathcore', 'narration') if u.find_spec(m)])"
    )
    out = run([venv / "bin" / "python", "-c", code], cwd=tmp_path, env=env()).splitlines()
    assert Path(out[0]).is_relative_to(venv), out[0]
    assert out[1] == "[]"
    assert "No broken requirements found" in run(
        [*PIP, "--python", venv / "bin" / "python", "check"], cwd=tmp_path, env=env()
    )


def test_the_installed_command_plans_the_mini_course(installed, tmp_path):
    venv, _, _ = installed
    mini = copy_mini_course(tmp_path / "mini_course")
    out = run(
        [venv / "bin" / "coursekit", "--course", mini, "plan", "--voice", "silent"], cwd=tmp_path, env=env(tmp_path)
    )
    assert "counting: 2 scenes" in out
    assert list((mini / "media").rglob("counting.json"))


@pytest.fixture(scope="module")
def new_course(installed, tmp_path_factory):
    """A course written by the installed ``coursekit init``, previewed and rendered by it: (folder, the
    preview's output, the course's output, seconds)."""
    venv, _, _ = installed
    start = time.monotonic()
    work = tmp_path_factory.mktemp("installed")
    coursekit = venv / "bin" / "coursekit"
    run([coursekit, "init", "new_course", "--title", "装好的课"], cwd=work, env=env(work))
    preview = run(
        [coursekit, "--course", "new_course", "preview", "welcome", "--voice", "espeak"], cwd=work, env=env(work)
    )
    course = run(
        [coursekit, "--course", "new_course", "course", "--quality", "low", "--voice", "espeak"],
        cwd=work,
        env=env(work),
    )
    return work / "new_course", preview, course, time.monotonic() - start


@pytest.mark.render  # the new course's fixture previews and renders it
def test_the_installed_command_writes_a_course_that_previews_and_renders(new_course):
    folder, preview, course, _ = new_course
    assert (folder / "config.yaml").is_file() and (folder / "scenes" / "welcome.py").is_file()
    assert "preview welcome in" in preview
    for made in (
        "preview/welcome.mp4",
        "preview/welcome.png",
        "course/first_lesson/first_lesson.mp4",
        "course/first_lesson/first_lesson.vtt",
        "course/manifest.json",
        "course/index.html",
    ):
        assert (folder / "media" / made).stat().st_size > 0, made
    assert "media/course/index.html" in course


@pytest.mark.render  # the new course's fixture previews and renders it
def test_the_installed_doctor_passes_and_names_the_models_fix(installed, new_course):
    venv, _, _ = installed
    folder, *_ = new_course
    doctor = [venv / "bin" / "coursekit", "--course", folder, "doctor"]
    models = ROOT / "models"
    out = run(doctor, cwd=folder.parent, env={**env(folder.parent), "COURSEKIT_MODELS": str(models)})
    assert re.search(r"^doctor: all \d+ checks passed", out, re.M), out
    assert re.search(rf"^ok\s+models\s.*\(kokoro, whisper-base in {re.escape(str(models))}/\)", out, re.M), out
    res = subprocess.run(
        [str(c) for c in doctor], cwd=folder.parent, capture_output=True, text=True, env=env(folder.parent), timeout=300
    )
    line = next(l for l in res.stdout.splitlines() if re.match(r"FAIL\s+models\s", l))
    user = folder.parent / "cache" / "coursekit" / "models"
    assert res.returncode == 1 and f"no kokoro/ in models/, {user}/" in line and "fix: run coursekit models" in line
    assert re.search(r"^ok\s+voice\s+auto would choose espeak .*kokoro model .* not found", res.stdout, re.M)


@pytest.mark.render  # the new course's fixture previews and renders it
def test_the_new_courses_own_test_passes_with_the_installed_engine(installed, new_course):
    venv, _, _ = installed
    folder, _, _, made_s = new_course
    res = subprocess.run(
        [venv / "bin" / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env(folder.parent),
        timeout=300,
    )
    assert res.returncode == 0 and "4 passed" in res.stdout, res.stdout[-3000:] + res.stderr[-2000:]
    print(f"init, preview and course in {made_s:.1f} s")
