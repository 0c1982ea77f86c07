"""`render.py init DIR` (and `coursekit init DIR`, the same command line) writes a new course that
works as it stands: `check` and `plan` pass on it, one scene previews at 480p15, and the test file it
writes (a drawn label against its math) passes under pytest. Every file it writes says what it is for;
a folder that exists and is not empty is refused in one line, with nothing written.

The course is written into a temporary folder; the espeak voice narrates it (offline, fast).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]
FILES = [
    "README.md",
    "config.yaml",
    ".gitignore",
    "narration/figures.py",
    "narration/first_lesson.yaml",
    "narration/lexicon.yaml",
    "scenes/square_area.py",
    "scenes/welcome.py",
    "tests/test_square_area.py",
]


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if k not in ("COURSEKIT_COURSE", "COURSEKIT_NARRATION")}


def render(*args: str, cwd: Path = ROOT, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "render.py"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=timeout,
    )


def ok(res: subprocess.CompletedProcess) -> str:
    assert res.returncode == 0, res.stderr[-3000:] + res.stdout[-2000:]
    return res.stdout


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("init") / "my_course"
    out = ok(render("init", str(folder), "--title", "正方形小课"))
    assert f"wrote a new course into {folder}: {len(FILES)} files" in out
    return folder


def test_init_writes_every_file_and_the_title(course):
    written = sorted(p.relative_to(course).as_posix() for p in course.rglob("*") if p.is_file())
    assert written == sorted(FILES)
    config = yaml.safe_load((course / "config.yaml").read_text(encoding="utf-8"))
    assert config["course"] == {**config["course"], "title": "正方形小课", "lessons": ["first_lesson"]}
    assert (course / "README.md").read_text(encoding="utf-8").startswith("# 正方形小课\n")


def test_every_file_says_what_it_is_for(course):
    for name in FILES:
        text = (course / name).read_text(encoding="utf-8")
        if name.endswith(".py"):
            assert text.startswith('"""'), f"{name}: no docstring"
        elif name.endswith(".md"):
            assert text.startswith("# ") and len(text.splitlines()) > 3, name
        else:
            assert text.startswith("#"), f"{name}: no comment at the top"


def test_check_and_plan_pass(course, monkeypatch, capfd):
    """`check` and `plan` through the command line's entry in this process (``mini_runs.here``: what
    render.py runs; the real command is run by the module's fixture and the tests below)."""
    from tests.support.mini_runs import here

    out = ok(here(monkeypatch, capfd, "--course", str(course), "check"))
    assert "2 scenes, 5 cues" in out and "config, narration and scenes OK" in out
    ok(here(monkeypatch, capfd, "--course", str(course), "plan", "--voice", "espeak", "--fps", "15"))
    [found] = [p for p in (course / "media").rglob("first_lesson.json") if "15fps" in p.parts]
    plan = json.loads(found.read_text(encoding="utf-8"))
    cues = {c["id"]: c["text"] for s in plan["scenes"] for c in s["cues"]}
    assert cues["square.side"] == "这个正方形的边长是3。" and cues["square.area"] == "边长乘边长，面积是9。"
    assert plan["frames"] > 0


@pytest.mark.render
def test_one_scene_previews_at_480p15(course, count_frames):
    ok(render("--course", str(course), "preview", "welcome", "--voice", "espeak"))
    mp4 = course / "media" / "preview" / "welcome.mp4"
    info = json.loads(
        subprocess.run(
            [
                "ffprobe",
                "-v",
                "error",
                "-select_streams",
                "v:0",
                "-show_entries",
                "stream=width,height,r_frame_rate",
                "-of",
                "json",
                str(mp4),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )["streams"][0]
    assert (info["width"], info["height"], info["r_frame_rate"]) == (854, 480, "15/1")
    assert count_frames(mp4) > 15
    assert (course / "media" / "preview" / "welcome.png").stat().st_size > 0


def test_the_course_test_file_passes(course):
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=course,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=600,
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
    assert "4 passed" in res.stdout


def test_the_course_test_catches_a_label_that_lies(course, tmp_path):
    """The scene's area label edited to say 10: the course's own test fails, naming the frame."""
    import shutil

    copy = tmp_path / "edited"
    shutil.copytree(course, copy, ignore=shutil.ignore_patterns("media", "__pycache__"))
    scene = copy / "scenes" / "square_area.py"
    text = scene.read_text(encoding="utf-8")
    assert "f\"面积 {FIGURES.value('area')}\"" in text
    scene.write_text(text.replace("f\"面积 {FIGURES.value('area')}\"", '"面积 10"'), encoding="utf-8")
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=copy,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=600,
    )
    assert res.returncode == 1, res.stdout[-3000:]
    assert "the label says 10, the square drawn has area 9" in res.stdout


def init_here(folder: Path, capfd) -> subprocess.CompletedProcess:
    """`render.py init FOLDER` run in this process (the command line's entry, ``main``; init loads no
    course): its exit status and output, as from the real command. The real command is run by the module's
    fixture, by the refusal of a folder that is not empty and by `coursekit init`."""
    from coursekit.cli.main import main

    capfd.readouterr()
    code = main(["init", str(folder)])
    out, err = capfd.readouterr()
    return subprocess.CompletedProcess(["init", str(folder)], code, out, err)


def test_a_folder_that_is_not_empty_is_refused(tmp_path, capfd):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    res = render("init", str(tmp_path))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "exists and is not empty" in res.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    res = init_here(tmp_path / "notes.txt", capfd)
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "is a file, not a folder" in res.stderr


def test_an_empty_folder_is_fine(tmp_path, capfd):
    ok(init_here(tmp_path, capfd))
    assert (tmp_path / "config.yaml").is_file()


def test_the_coursekit_command_is_render_py(tmp_path):
    """The console command `coursekit` (pyproject's [project.scripts]) runs the same command line."""
    coursekit = Path(sys.executable).with_name("coursekit")
    assert coursekit.is_file(), "no coursekit command in the venv: run make setup"
    mine = subprocess.run([str(coursekit), "--help"], capture_output=True, text=True, env=_env(), check=True).stdout
    theirs = ok(render("--help"))
    assert mine.replace("usage: coursekit", "usage: render.py") == theirs
    res = subprocess.run(
        [str(coursekit), "init", str(tmp_path / "c")], capture_output=True, text=True, env=_env(), cwd=tmp_path
    )
    assert res.returncode == 0 and (tmp_path / "c" / "scenes" / "welcome.py").is_file()


# --- the title: init takes what check takes (issue 41) ---------------------------------------------------
def test_a_title_check_would_refuse_is_refused_by_init_with_nothing_written(tmp_path):
    """A control character or a bidi override in the title: before, init wrote the course and its own
    check refused it afterwards."""
    for n, title in enumerate(["我的\x07课", "我的\u202e课", "我的\u200b课", "我的\n课"]):
        res = render("init", str(tmp_path / f"c{n}"), "--title", title)
        assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
        (line,) = res.stderr.strip().splitlines()
        assert line.startswith("error: init --title: the title holds ") and "U+" in line
        assert not (tmp_path / f"c{n}").exists()


def test_check_refuses_a_config_title_with_a_character_no_one_sees():
    from coursekit.core.config import parse_config
    from coursekit.core.errors import UserError

    for title in ("我的\x07课", "我的\tit"):
        with pytest.raises(UserError, match=r"course\.title.*control character U\+00"):
            parse_config({"course": {"title": title, "lessons": ["a"]}})


def test_a_title_init_takes_is_one_the_courses_config_takes():
    """For any title: init refuses it in one line, or the config.yaml it writes loads (``load_config``, what
    ``check`` reads first: its format characters, then the schema) with that title."""
    import tempfile

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from coursekit.cli.init_course import init_course
    from coursekit.core.config import load_config
    from coursekit.core.errors import UserError
    from tests.support.examples import examples

    @settings(deadline=None, max_examples=examples(120), suppress_health_check=[HealthCheck.too_slow])
    @given(st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(["我的课", "课 \u2060一", "a\u00adb"]))
    def one(title):
        with tempfile.TemporaryDirectory() as tmp:
            try:
                init_course(Path(tmp) / "c", title)
            except UserError as exc:
                assert "\n" not in str(exc) and not (Path(tmp) / "c").exists()
                return
            assert load_config(Path(tmp) / "c" / "config.yaml").course.title == title.strip()

    one()
