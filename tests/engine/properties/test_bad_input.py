"""Bad input, table-driven: each case is a real file or command line. One line, exit status 2,
no traceback, and nothing already produced is touched.

The cases run on copies of the mini course (tests/fixtures/mini_course), not on the main course: what
is checked is the engine's. Each way a command can end in a user error (``REAL_COMMAND``: the command
line refused by argparse, the --course folder, the config, the narration, a name looked up in the course,
a missing tool, a damaged plan, a Manim process out of memory) is run once as the real command, a
``render.py`` process, so that its stderr is seen whole; the other cases of the same way differ only in
the file or value given and the line it gets, and call the command line's entry
(``coursekit.cli.main.main``) in this process instead: the same parsing, loading and checks, the same
exit status and line, without starting Python and importing the engine again for each."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.support import mini_runs
from tests.support.mini_runs import MINI_COURSE, copy_mini_course

ROOT = Path(__file__).resolve().parents[3]
GOOD_LESSON = (MINI_COURSE / "narration" / "counting.yaml").read_text(encoding="utf-8")


def bin_without(tmp: Path, *missing: str) -> str:
    """A PATH holding links to the tools we need, except ``missing``."""
    d = tmp / "bin"
    d.mkdir(exist_ok=True)
    for tool in ("ffmpeg", "ffprobe", "espeak-ng", "fc-list", "fc-match", "git"):
        if tool not in missing and shutil.which(tool):
            (d / tool).symlink_to(shutil.which(tool))
    return str(d)


def mini(tmp: Path, lesson_text: str | None = None) -> Path:
    """A copy of the mini course in ``tmp`` (its lesson's narration replaced by ``lesson_text``)."""
    course = tmp / "mini"
    if not course.exists():
        copy_mini_course(course)
    if lesson_text is not None:
        (course / "narration" / "counting.yaml").write_text(lesson_text, encoding="utf-8")
    return course


def on_mini(tmp: Path, *argv: str, **env: str) -> tuple[dict, list[str]]:
    """A case's setup on a copy of the mini course: (env overrides, --course COPY and ``argv``)."""
    return env, ["--course", str(mini(tmp)), *argv]


def narration(lesson_text: str):
    """A case's setup: the mini course with its lesson's narration replaced by ``lesson_text``."""
    return lambda t: ({}, ["--course", str(mini(t, lesson_text))])


def _damaged_plan(tmp: Path) -> list[str]:
    """The copy's plan (low quality: 15 fps) written with its first scene's frame count as text."""
    course = mini(tmp)
    plan = course / "media" / "plan" / "15fps" / "counting.json"
    plan.parent.mkdir(parents=True, exist_ok=True)
    plan.write_text(
        '{"lesson": "counting", "title": "t", "fps": 15, "frames": 1, "voice": "v", '
        '"scenes": [{"id": "s", "cls": "S", "title": "t", "source": [], "start_frame": 0, '
        '"frames": "many", "fps": 15, "cues": []}]}',
        encoding="utf-8",
    )
    return ["--course", str(course)]


def _symlinked_output(tmp: Path) -> list[str]:
    """The copy's output folder a symlink to a folder outside it."""
    course = mini(tmp)
    (tmp / "outside").mkdir()
    (course / "link_out").symlink_to(tmp / "outside")
    return ["--course", str(course), "--config", str(cfg_with(tmp, "output: link_out\n"))]


#: appended to the copy's scene module: in the Manim process (``python -m manim``) it takes more than the
#: worker memory of its case (0.25 GB), as a scene that draws much more than the mini course's would
BALLAST = (
    "\nimport sys as _sys\nif Path(_sys.argv[0]).parent.name == 'manim':   # in Manim's process only\n"
    "    _BALLAST = bytearray(400 * 2**20)\n"
)


def _hungry_scene(tmp: Path) -> list[str]:
    """The copy's scenes need more memory in Manim than the 0.25 GB its config gives a worker."""
    course = mini(tmp)
    module = course / "scenes" / "counting.py"
    module.write_text(module.read_text(encoding="utf-8") + BALLAST, encoding="utf-8")
    return ["--course", str(course), "--config", str(cfg_with(tmp, "render:\n  worker_memory_gb: 0.25\n"))]


def _no_config(tmp: Path) -> tuple[dict, list[str]]:
    """The copy without its config.yaml: a folder that is not a course's (issue 41)."""
    course = mini(tmp)
    (course / "config.yaml").unlink()
    return {}, ["--course", str(course)]


def _unlisted_lesson_reusing_a_scene_id(tmp: Path) -> tuple[dict, list[str]]:
    """A second lesson of the course, left out of ``lessons:`` (the lessons made), that uses the first's scene
    id count_dots: both scenes' files would be media/scenes/<quality>/count_dots.mp4 (issue 41)."""
    course = mini(tmp)
    cfg = course / "config.yaml"
    cfg.write_text(
        cfg.read_text(encoding="utf-8").replace(
            "  lessons: [counting]", "  lessons: [counting, extra]\nlessons: [counting]"
        ),
        encoding="utf-8",
    )
    extra = GOOD_LESSON.replace("lesson: counting", "lesson: extra").replace("id: closing", "id: extra_closing")
    (course / "narration" / "extra.yaml").write_text(extra, encoding="utf-8")
    return {}, ["--course", str(course)]


def _init(title: str):
    """A case's setup: ``init`` of a new folder with ``title``."""
    return lambda t: ({}, ["init", str(t / "new"), "--title", title])


def cfg_with(tmp: Path, text: str) -> Path:
    p = tmp / "config.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def mini_cfg(tmp: Path, changes: dict) -> Path:
    """A config file: the mini course's config.yaml with ``changes`` (nested mappings) merged in."""

    def merge(a: dict, b: dict) -> dict:
        return {**a, **{k: merge(a.get(k) or {}, v) if isinstance(v, dict) else v for k, v in b.items()}}

    own = yaml.safe_load((MINI_COURSE / "config.yaml").read_text(encoding="utf-8"))
    return cfg_with(tmp, yaml.safe_dump(merge(own, changes), allow_unicode=True))


# (id, argv, setup(tmp) -> (env overrides, extra argv), expected fragment)
CASES = [
    ("unknown_lesson", ["plan", "--lesson", "countng", "--voice", "silent"], on_mini, "close matches: counting"),
    ("unknown_scene", ["preview", "count_dts", "--voice", "silent"], on_mini, "close matches: count_dots"),
    ("unknown_scene_listen", ["listen", "nothing_like_it", "--voice", "silent"], on_mini, "unknown scene"),
    ("unknown_command", ["rendr"], None, "invalid choice"),
    ("bad_quality_flag", ["render", "--quality", "8k"], None, "invalid choice"),
    (
        "output_outside",
        ["check"],
        lambda t: on_mini(t, "--config", str(cfg_with(t, "output: ../../outside\n"))),
        "inside the course",
    ),
    ("output_symlink_out", ["check"], lambda t: ({}, _symlinked_output(t)), "inside the course"),
    (
        "espeak_voice_missing",
        ["plan", "--lesson", "counting", "--voice", "espeak"],
        lambda t: on_mini(t, "--config", str(mini_cfg(t, {"voice": {"espeak": {"voice": "klingon"}}}))),
        "klingon",
    ),
    (
        "no_ffmpeg",
        ["listen", "closing", "--voice", "silent"],
        lambda t: on_mini(t, PATH=bin_without(t, "ffmpeg", "ffprobe")),
        "Debian package ffmpeg",
    ),
    (
        "no_espeak",
        ["plan", "--lesson", "counting", "--voice", "espeak"],
        lambda t: on_mini(t, PATH=bin_without(t, "espeak-ng")),
        "Debian package espeak-ng",
    ),
    (
        "no_font",
        ["preview", "count_dots", "--voice", "silent"],
        lambda t: on_mini(t, FONTCONFIG_FILE=str(cfg_with(t, "<fontconfig></fontconfig>"))),
        "fonts-noto-cjk",
    ),
    ("narration_malformed", ["check"], narration(GOOD_LESSON.replace("cues:", "cues: [", 1)), "counting.yaml:"),
    ("narration_anchor_bomb", ["check"], narration("a: &a [x, x]\nb: [*a, *a]\n" + GOOD_LESSON), "aliases"),
    (
        "narration_python_tag",
        ["check"],
        narration(GOOD_LESSON.replace("title:", "title: !!python/object/apply:os.system ['true'] #", 1)),
        "counting.yaml",
    ),
    (
        "narration_misspelt_key",
        ["check"],
        narration(GOOD_LESSON.replace("    cues:", "    cuse:", 1)),
        "did you mean 'cues'",
    ),
    ("narration_empty_cue", ["check"], narration(GOOD_LESSON.replace("text: ", "text: '  ' #", 1)), "empty"),
    (
        "narration_huge_cue",
        ["check"],
        narration(GOOD_LESSON.replace("text: ", "text: " + "长" * 10000 + " #", 1)),
        "10000 characters",
    ),
    (
        "narration_control_char",
        ["check"],
        narration(GOOD_LESSON.replace("text: ", "text: \x1b", 1)),
        "control character",
    ),
    ("narration_surrogate", ["check"], narration(GOOD_LESSON.replace("text: ", 'text: "\\ud800" #', 1)), "surrogate"),
    (
        "narration_dup_scene",
        ["check"],
        narration(GOOD_LESSON.replace("id: closing", "id: count_dots", 1)),
        "duplicate scene id",
    ),
    (
        "narration_unknown_figure",
        ["check"],
        narration(GOOD_LESSON.replace("text: 屏幕上有", "text: 屏幕上有{no_such_figure}", 1)),
        "no_such_figure",
    ),
    # issue 41: narration that check let through, to fail later (at synthesis, in the subtitles, in plan)
    (
        "cue_punctuation_only",
        ["check"],
        narration(GOOD_LESSON.replace("text: 今天就到这里。", "text: 。！……", 1)),
        "counting.yaml:25: cue text “。！……” has nothing to read aloud",
    ),
    (
        "placeholder_nested",
        ["check"],
        narration(GOOD_LESSON.replace("{dot_count}个点", "{{dot_count}}个点", 1)),
        "counting.yaml:10: cue text has a '{' that is part of no placeholder",
    ),
    (
        "placeholder_unterminated",
        ["check"],
        narration(GOOD_LESSON.replace("{dot_count}个点", "{dot_count个点", 1)),
        "counting.yaml:10: cue text has a '{' that is part of no placeholder",
    ),
    (
        "placeholder_stray_close",
        ["check"],
        narration(GOOD_LESSON.replace("今天就到这里。", "今天}就到这里。", 1)),
        "counting.yaml:25: cue text has a '}' that is part of no placeholder",
    ),
    (
        "unknown_figure_in_say",
        ["plan", "--voice", "silent"],
        narration(
            GOOD_LESSON.replace("text: 今天就到这里。", "text: 今天就到这里。\n        say: 今天{no_such}到这里。")
        ),
        "counting.yaml:24: cue 'closing.bye' say: unknown figure 'no_such'",
    ),
    (
        "unknown_figure_in_say_check",
        ["check"],
        narration(
            GOOD_LESSON.replace("text: 今天就到这里。", "text: 今天就到这里。\n        say: 今天{no_such}到这里。")
        ),
        "counting.yaml:24: cue 'closing.bye' say: unknown figure 'no_such'",
    ),
    (
        "scene_id_reused_by_an_unlisted_lesson",
        ["check"],
        _unlisted_lesson_reusing_a_scene_id,
        "extra.yaml:4: scene id 'count_dots' is already used in counting.yaml",
    ),
    (
        "course_without_config",
        ["check"],
        _no_config,
        "no config.yaml in it, so no lessons to make",
    ),
    ("init_title_control", [], _init("我的\x07课"), "the title holds control character U+0007"),
    ("init_title_bidi", [], _init("我的\u202e课"), "invisible format character U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    ("init_title_line_break", [], _init("我的\n课"), "the title holds control character U+000A"),
    ("jobs_zero", ["render", "--jobs", "0"], None, "must be from 1 to 256, not 0"),
    ("jobs_huge", ["course", "--jobs", "100000"], None, "must be from 1 to 256, not 100000"),
    ("fps_zero", ["plan", "--fps", "0", "--voice", "silent"], None, "--fps: must be from 1 to 120, not 0"),
    ("fps_huge", ["plan", "--fps", "100000", "--voice", "silent"], None, "--fps: must be from 1 to 120, not 100000"),
    ("fps_not_a_number", ["plan", "--fps", "sixty"], None, "--fps: must be a whole number"),
    ("port_out_of_range", ["serve", "--port", "70000"], None, "--port: must be from 1 to 65535"),
    ("sample_zero", ["check", "--speech", "--sample", "0"], None, "--sample: must be from 1 to 10000"),
    (
        "config_named_but_missing",
        ["check", "--config", "tests/.tmp/no-such-config.yaml"],
        on_mini,
        "no-such-config.yaml: no such file",
    ),
    (
        "config_nested_too_deep",
        ["check"],
        lambda t: on_mini(t, "--config", str(cfg_with(t, "video: " + "[" * 5000 + "]" * 5000 + "\n"))),
        "nested more than 50 deep",
    ),
    (
        "narration_nested_too_deep",
        ["check"],
        narration("deep: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n" + GOOD_LESSON),
        "nested more than 50 deep",
    ),
    (
        "scheduler_not_an_address",
        ["check"],
        lambda t: on_mini(t, "--config", str(cfg_with(t, "render:\n  scheduler: localhost\n"))),
        "tcp://",
    ),
    (
        "plan_damaged",
        ["subtitles", "--lesson", "counting"],
        lambda t: ({}, _damaged_plan(t)),
        "scenes.0.frames: Input should be a valid integer",
    ),
    (
        "course_folder_missing",
        ["check", "--course", "tests/.tmp/no-such-course"],
        None,
        "--course tests/.tmp/no-such-course: no such folder",
    ),
    ("course_folder_not_a_course", ["check", "--course", "coursekit"], None, "not a course (no narration/ folder"),
    (
        "worker_memory_too_small",
        ["render", "--scene", "count_dots", "--quality", "low", "--voice", "silent"],
        lambda t: ({}, _hungry_scene(t)),
        "raise render.worker_memory_gb",
    ),
]

#: one case of each way a command ends in a user error, run as a real `render.py` process (module docstring);
#: the tools' cases, found by the environment the command runs in, and the two that run far (the damaged plan,
#: Manim's memory limit) are each their own
REAL_COMMAND = {
    "jobs_zero",  # argparse (an argument's type, a choice, a command: one error hook)
    "course_folder_not_a_course",  # --course
    "output_outside",  # the config
    "narration_malformed",  # the narration's YAML
    "narration_unknown_figure",  # the narration against the course's figures (their module loaded)
    "course_without_config",  # a --course folder that holds no course
    "init_title_bidi",  # init
    "unknown_scene",  # a name looked up in the course, after the render's preflight
    "no_ffmpeg",
    "no_espeak",
    "no_font",
    "plan_damaged",
    "worker_memory_too_small",
}


def tree(folder: Path) -> dict[str, bytes]:
    """Every file (its bytes) and folder under ``folder`` but those in an output folder (``media/``) and
    Python's caches: what a refused command must leave as it was."""
    out: dict[str, bytes] = {}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder)
        if "media" in rel.parts or "__pycache__" in rel.parts:
            continue
        out[rel.as_posix()] = p.read_bytes() if p.is_file() and not p.is_symlink() else b"/"
    return out


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_one_line_exit_2(tmp_path, case, monkeypatch, capfd):
    name, argv, setup, expect = case
    more_env: dict = {}
    extra: list[str] = []
    if setup is not None:
        more_env, extra = setup(tmp_path)
    before = tree(tmp_path)
    if name in REAL_COMMAND:
        proc = subprocess.run(
            [sys.executable, str(ROOT / "render.py"), *argv, *extra],
            cwd=ROOT,
            env=mini_runs.env(**more_env),
            capture_output=True,
            text=True,
            timeout=120,
        )
        code, err = proc.returncode, proc.stderr.strip()
    else:
        res = mini_runs.here(monkeypatch, capfd, *argv, *extra, **more_env)
        code, err = res.returncode, res.stderr.strip()
    assert code == 2, (code, err[-2000:])
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert expect in err, err
    after = tree(tmp_path)  # nothing new or changed outside the output folder (issue 41)
    assert {k for k in after if after[k] != before.get(k)} == set(), sorted(set(after) - set(before))


def test_count_of_bad_inputs_tried():
    assert len(CASES) >= 20


def test_every_way_is_run_once_as_the_real_command():
    names = [c[0] for c in CASES]
    assert REAL_COMMAND <= set(names) and len(set(names)) == len(names)
