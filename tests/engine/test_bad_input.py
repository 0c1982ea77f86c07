"""Bad input, table-driven: each case is a real file or command line. One line, exit status 2,
no traceback, and nothing already produced is touched."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NARRATION = ROOT / "narration"
GOOD_LESSON = (NARRATION / "trig_to_rope.yaml").read_text(encoding="utf-8")


def bin_without(tmp: Path, *missing: str) -> str:
    """A PATH holding links to the tools we need, except ``missing``."""
    d = tmp / "bin"
    d.mkdir(exist_ok=True)
    for tool in ("ffmpeg", "ffprobe", "espeak-ng", "fc-list", "fc-match", "git"):
        if tool not in missing and shutil.which(tool):
            (d / tool).symlink_to(shutil.which(tool))
    return str(d)


def narration_with(tmp: Path, lesson_text: str) -> Path:
    d = tmp / "narration"
    d.mkdir()
    for f in NARRATION.glob("*.yaml"):
        shutil.copy(f, d / f.name)
    (d / "trig_to_rope.yaml").write_text(lesson_text, encoding="utf-8")
    return d


def _damaged_plan() -> list[str]:
    """A plan file in tests/.tmp/badplan/ whose first scene's frame count is text."""
    plan = ROOT / "tests" / ".tmp" / "badplan" / "plan" / "60fps" / "trig_to_rope.json"
    plan.parent.mkdir(parents=True, exist_ok=True)
    plan.write_text('{"lesson": "trig_to_rope", "title": "t", "fps": 60, "frames": 1, "voice": "v", '
                    '"scenes": [{"id": "s", "cls": "S", "title": "t", "source": [], "start_frame": 0, '
                    '"frames": "many", "fps": 60, "cues": []}]}', encoding="utf-8")
    return []


def cfg_with(tmp: Path, text: str) -> Path:
    p = tmp / "config.yaml"
    p.write_text(text, encoding="utf-8")
    return p


# (id, argv, setup(tmp) -> (env overrides, extra argv), expected fragment)
CASES = [
    ("unknown_lesson", ["plan", "--lesson", "word_ordr", "--voice", "silent"], None, "close matches: word_order"),
    ("unknown_scene", ["preview", "unit_circel", "--voice", "silent"], None, "close matches: unit_circle"),
    ("unknown_scene_listen", ["listen", "nothing_like_it", "--voice", "silent"], None, "unknown scene"),
    ("unknown_command", ["rendr"], None, "invalid choice"),
    ("bad_quality_flag", ["render", "--quality", "8k"], None, "invalid choice"),
    ("output_outside", ["check"], lambda t: ({}, ["--config", str(cfg_with(t, "output: ../../outside\n"))]),
     "inside the course"),
    ("output_symlink_out", ["check"], lambda t: ({}, ["--config", str(cfg_with(t, "output: tests/.tmp/link_out\n"))]),
     "inside the course"),
    ("espeak_voice_missing", ["plan", "--lesson", "trig_to_rope", "--voice", "espeak"],
     lambda t: ({}, ["--config", str(cfg_with(t, "voice:\n  espeak:\n    voice: klingon\n"))]), "klingon"),
    ("no_ffmpeg", ["listen", "unit_circle", "--voice", "silent"],
     lambda t: ({"PATH": bin_without(t, "ffmpeg", "ffprobe")}, []), "Debian package ffmpeg"),
    ("no_espeak", ["plan", "--lesson", "trig_to_rope", "--voice", "espeak"],
     lambda t: ({"PATH": bin_without(t, "espeak-ng")}, []), "Debian package espeak-ng"),
    ("no_font", ["preview", "unit_circle", "--voice", "silent"],
     lambda t: ({"FONTCONFIG_FILE": str(cfg_with(t, "<fontconfig></fontconfig>"))}, []), "fonts-noto-cjk"),
    ("narration_malformed", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(t, GOOD_LESSON.replace("cues:", "cues: [", 1)))}, []),
     "trig_to_rope.yaml:"),
    ("narration_anchor_bomb", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(t, "a: &a [x, x]\nb: [*a, *a]\n" + GOOD_LESSON))}, []),
     "aliases"),
    ("narration_python_tag", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(
         t, GOOD_LESSON.replace("title:", "title: !!python/object/apply:os.system ['true'] #", 1)))}, []), "trig_to_rope.yaml"),
    ("narration_misspelt_key", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(t, GOOD_LESSON.replace("    cues:", "    cuse:", 1)))}, []),
     "did you mean 'cues'"),
    ("narration_empty_cue", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(t, GOOD_LESSON.replace("text: ", "text: '  ' #", 1)))}, []),
     "empty"),
    ("narration_huge_cue", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(t, GOOD_LESSON.replace("text: ", "text: " + "长" * 10000 + " #", 1)))}, []),
     "10000 characters"),
    ("narration_control_char", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(t, GOOD_LESSON.replace("text: ", "text: \x1b", 1)))}, []),
     "control character"),
    ("narration_surrogate", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(t, GOOD_LESSON.replace("text: ", 'text: "\\ud800" #', 1)))}, []),
     "surrogate"),
    ("narration_dup_scene", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(t, GOOD_LESSON.replace("id: unit_circle", "id: trig_opening", 1)))}, []),
     "duplicate scene id"),
    ("narration_unknown_figure", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(t, GOOD_LESSON.replace("text: \"", "text: \"{no_such_figure}", 1)))}, []),
     "no_such_figure"),
    ("jobs_zero", ["render", "--jobs", "0"], None, "must be from 1 to 256, not 0"),
    ("jobs_huge", ["course", "--jobs", "100000"], None, "must be from 1 to 256, not 100000"),
    ("fps_zero", ["plan", "--fps", "0", "--voice", "silent"], None, "--fps: must be from 1 to 120, not 0"),
    ("fps_huge", ["plan", "--fps", "100000", "--voice", "silent"], None, "--fps: must be from 1 to 120, not 100000"),
    ("fps_not_a_number", ["plan", "--fps", "sixty"], None, "--fps: must be a whole number"),
    ("port_out_of_range", ["serve", "--port", "70000"], None, "--port: must be from 1 to 65535"),
    ("sample_zero", ["check", "--speech", "--sample", "0"], None, "--sample: must be from 1 to 10000"),
    ("config_named_but_missing", ["check", "--config", "tests/.tmp/no-such-config.yaml"], None,
     "no-such-config.yaml: no such file"),
    ("config_nested_too_deep", ["check"],
     lambda t: ({}, ["--config", str(cfg_with(t, "video: " + "[" * 5000 + "]" * 5000 + "\n"))]), "nested more than 50 deep"),
    ("narration_nested_too_deep", ["check"],
     lambda t: ({"COURSEKIT_NARRATION": str(narration_with(t, "deep: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n"
                                                            + GOOD_LESSON))}, []), "nested more than 50 deep"),
    ("scheduler_not_an_address", ["check"],
     lambda t: ({}, ["--config", str(cfg_with(t, "render:\n  scheduler: localhost\n"))]), "tcp://"),
    ("plan_damaged", ["subtitles", "--lesson", "trig_to_rope"],
     lambda t: ({}, ["--config", str(cfg_with(t, "output: tests/.tmp/badplan\n")), *_damaged_plan()]),
     "scenes.0.frames: Input should be a valid integer"),
    ("course_folder_missing", ["check", "--course", "tests/.tmp/no-such-course"], None, "--course tests/.tmp/no-such-course: no such folder"),
    ("course_folder_not_a_course", ["check", "--course", "coursekit"], None, "not a course (no narration/ folder"),
    ("worker_memory_too_small", ["render", "--scene", "next_step", "--quality", "low", "--voice", "silent"],
     lambda t: ({}, ["--config", str(cfg_with(t, "output: tests/.tmp/lowmem\nrender:\n  worker_memory_gb: 0.25\n"))]),
     "raise render.worker_memory_gb"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_one_line_exit_2(tmp_path, case):
    _, argv, setup, expect = case
    env = {**os.environ}
    extra: list[str] = []
    if setup is not None:
        if case[0] == "output_symlink_out":
            link = ROOT / "tests" / ".tmp" / "link_out"
            link.parent.mkdir(exist_ok=True)
            link.unlink(missing_ok=True)
            link.symlink_to(tmp_path)
        more_env, extra = setup(tmp_path)
        env.update(more_env)
    proc = subprocess.run([sys.executable, str(ROOT / "render.py"), *argv, *extra], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    err = proc.stderr.strip()
    assert proc.returncode == 2, (proc.returncode, err[-2000:])
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert expect in err, err


def test_count_of_bad_inputs_tried():
    assert len(CASES) >= 20
