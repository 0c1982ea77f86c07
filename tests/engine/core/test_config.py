"""config.yaml validation: every bad file gives one line naming the key, and exit status 2."""

import subprocess
import sys
from pathlib import Path

import pytest

from coursekit.cli.main import main
from coursekit.core.config import Config, load_config

ROOT = Path(__file__).resolve().parents[3]

BAD = [
    ("malformed", "voice:\n  backend: [edge\n", "line"),
    ("unknown_top", "vidoe:\n  quality: low\n", "did you mean 'video'"),
    ("unknown_nested", "voice:\n  edge:\n    voise: x\n", "did you mean 'voice'"),
    ("wrong_type", "subtitles:\n  max_lines: many\n", "subtitles.max_lines"),
    ("out_of_range", "subtitles:\n  max_chars_per_line: 200\n", "subtitles.max_chars_per_line"),
    ("rate_word", "voice:\n  edge:\n    rate: fast\n", "voice.edge.rate"),
    ("pitch_bad", "voice:\n  edge:\n    pitch: '+9000Hz'\n", "voice.edge.pitch"),
    ("quality", "video:\n  quality: ultra\n", "video.quality"),
    ("backend", "voice:\n  backend: siri\n", "voice.backend"),
    ("output_parent", "output: ../elsewhere\n", "output"),
    ("output_abs", "output: /tmp/media\n", "output"),
    ("python_tag", "output: !!python/object/apply:os.system ['true']\n", "not allowed"),
    (
        "alias_bomb",
        "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n",
        "alias",
    ),
    ("not_mapping", "- just\n- a list\n", "mapping"),
    (
        "unknown_lesson",
        "course: {lessons: [trig_to_rope, word_order]}\nlessons: [trig_to_rope, wordorder]\n",
        "did you mean 'word_order'",
    ),
    ("lesson_twice", "course: {lessons: [a, b]}\nlessons: [a, a]\n", "lists a lesson twice"),
    ("lesson_not_snake_case", "course: {lessons: [Lesson-1]}\n", "must be snake_case"),
    ("course_lesson_twice", "course: {lessons: [a, a]}\n", "lists a lesson twice"),
    ("course_title_too_long", "course: {title: " + "长" * 201 + "}\n", "at most 200 characters"),
    ("empty_font", "course: {font: ''}\n", "at least 1 character"),
    ("fps_zero", "video:\n  fps: 0\n", "video.fps"),
]


@pytest.mark.parametrize("name,text,expect", BAD, ids=[b[0] for b in BAD])
def test_bad_config_is_one_line_and_exit_2(tmp_path, capsys, name, text, expect):
    cfg = tmp_path / "config.yaml"
    cfg.write_text(text, encoding="utf-8")
    assert main(["check", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("error: ") and "config.yaml" in err
    assert expect in err, err


def test_bad_config_via_render_py_has_no_traceback(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("voice:\n  edge:\n    rate: fast\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "render.py"), "check", "--config", str(cfg)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0
    assert "'fast'" in proc.stderr and "percentage" in proc.stderr


def test_shipped_config_is_valid_and_defaults_apply():
    cfg = load_config()
    assert cfg.voice.edge.voice == "zh-CN-XiaoxiaoNeural"
    assert cfg.voice.espeak.voice == "cmn"
    assert cfg.subtitles.max_chars_per_line == 16 and cfg.subtitles.max_lines == 2
    assert cfg.lessons == ("trig_to_rope", "word_order", "rotation_matrix")
    assert Config().video.frame_rate == 60


def test_quality_maps_to_resolution_and_fps_override():
    cfg = load_config(None, **{"video.quality": "low"})
    assert cfg.video.resolution == (854, 480) and cfg.video.frame_rate == 15
    from coursekit.core.config import parse_config

    assert parse_config({"video": {"quality": "medium", "fps": 24}}).video.frame_rate == 24


def test_output_symlink_leaving_project_is_refused(tmp_path):
    link = ROOT / "media_link_test_tmp"
    try:
        link.symlink_to(tmp_path)
        from coursekit.core.config import parse_config
        from coursekit.core.errors import UserError

        with pytest.raises(UserError, match="inside the course"):
            parse_config({"output": link.name})
    finally:
        link.unlink(missing_ok=True)


def test_every_number_in_the_config_has_a_range():
    from coursekit.core.config import reference

    numbers = [(k, a) for k, a, _ in reference() if a.startswith(("whole number", "number"))]
    assert len(numbers) >= 15
    for key, accepts in numbers:
        assert (" to " in accepts or "at most" in accepts) and "None" not in accepts, (key, accepts)


def settings_block(text: str) -> str:
    """The table between the <!-- settings --> markers of docs/settings.md."""
    assert text.count("<!-- settings -->\n") == 1 and text.count("\n<!-- /settings -->") == 1, (
        "docs/settings.md needs one <!-- settings --> ... <!-- /settings --> block"
    )
    return text.split("<!-- settings -->\n", 1)[1].split("\n<!-- /settings -->", 1)[0]


def test_the_settings_table_in_docs_is_the_models():
    """docs/settings.md (linked from the README's "Settings") lists every key as the config model documents
    it, each voice's section as its module's settings model does; regenerate the block with
    scripts/settings_doc.py when a setting changes."""
    from coursekit.core.config import reference_table
    from coursekit.core.paths import ENGINE_ROOT as PROJECT_ROOT

    text = (PROJECT_ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert settings_block(text) == reference_table()


def test_a_stale_settings_table_fails(tmp_path):
    """The comparison above notices a stale table: one default changed, one key missing."""
    from coursekit.core.config import reference_table
    from coursekit.core.paths import ENGINE_ROOT as PROJECT_ROOT

    text = (PROJECT_ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    table = reference_table()
    row = table.splitlines()[2]  # the first key's row
    changed = text.replace(row, row[: row.rindex("`")] + "x`")
    assert changed != text and settings_block(changed) != table
    dropped = text.replace(row + "\n", "")
    assert dropped != text and settings_block(dropped) != table
    (tmp_path / "settings.md").write_text("no markers\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="settings"):
        settings_block((tmp_path / "settings.md").read_text(encoding="utf-8"))


def test_a_config_named_on_the_command_line_must_exist(tmp_path):
    from coursekit.core.config import load_config
    from coursekit.core.errors import UserError

    with pytest.raises(UserError, match="no such file"):
        load_config(tmp_path / "missing.yaml")


def test_the_settings_page_is_rewritten_by_its_script(tmp_path):
    """scripts/settings_doc.py finds a stale table (one default changed) and writes it back as the page has
    it, touching nothing else; --check on the page as committed passes, and a page without markers is refused."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("settings_doc", ROOT / "scripts" / "settings_doc.py")
    settings_doc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(settings_doc)
    text = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    row = "| `voice.kokoro.speed` | number 0.5 to 2 | `1.0` |"
    assert text.count(row) == 1
    changed = text.replace(row, row.replace("`1.0`", "`1.2`"))
    assert settings_doc.stale(text) == [] and settings_doc.stale(changed) == ["settings"]
    assert settings_doc.rewrite(changed) == text
    check = [sys.executable, str(ROOT / "scripts" / "settings_doc.py"), "--check"]
    assert subprocess.run(check, cwd=ROOT, capture_output=True, text=True).returncode == 0
    with pytest.raises(ValueError, match="needs one <!-- settings --> ... <!-- /settings --> block"):
        settings_doc.rewrite("no markers\n")
