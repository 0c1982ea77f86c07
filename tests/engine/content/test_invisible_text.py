"""Text a viewer can trust (issue 26): narration, lexicon and config refuse Unicode format characters
(category Cf: bidi controls, zero-width characters, a byte-order mark inside a file), each as one
`file:line` line naming the code point, exit 2; a character the course declares on purpose in its config
(`course.format_characters`, e.g. U+2060 for a no-break) is the one exception.

`check` runs on a copy of the mini course: once as the real `render.py check` (the bidi override in a cue, its
whole stderr), the other times through the command line's entry in this process (``check_here``): the same
loading and line, without a new Python importing the engine for each of the eleven checks."""

import subprocess

import pytest

from tests.support import mini_runs

RLO, ZWSP, BOM, WJ = "\u202e", "\u200b", "\ufeff", "\u2060"


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def check_here(mini, monkeypatch, capfd) -> subprocess.CompletedProcess:
    """`render.py check --course MINI` run in this process (``mini_runs.here``)."""
    return mini_runs.here(monkeypatch, capfd, "check", "--course", str(mini))


def one_line(res: subprocess.CompletedProcess) -> str:
    lines = [l for l in res.stderr.splitlines() if l.strip()]
    assert res.returncode == 2 and len(lines) == 1 and "Traceback" not in res.stderr, res.stderr[-2000:]
    return lines[0]


@pytest.mark.parametrize(
    "char, name",
    [
        (RLO, "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        (ZWSP, "U+200B (ZERO WIDTH SPACE)"),
        (BOM, "U+FEFF (ZERO WIDTH NO-BREAK SPACE)"),
    ],
)
def test_a_format_character_in_a_cue_is_refused(mini, char, name, monkeypatch, capfd):
    edit(mini / "narration" / "counting.yaml", "再加一个", f"再加{char}一个")
    res = mini_runs.run(mini, "check") if char == RLO else check_here(mini, monkeypatch, capfd)
    line = one_line(res)
    assert "narration/counting.yaml:12: invisible format character " + name in line
    assert "course.format_characters" in line


def test_in_the_lexicon(mini, monkeypatch, capfd):
    edit(mini / "narration" / "lexicon.yaml", "terms: {}", f"terms:\n  点{ZWSP}: 点")
    line = one_line(check_here(mini, monkeypatch, capfd))
    assert "narration/lexicon.yaml:3: invisible format character U+200B" in line


def test_in_the_config(mini, monkeypatch, capfd):
    edit(mini / "config.yaml", "title: 小小测试课", f"title: 小小{RLO}测试课")
    line = one_line(check_here(mini, monkeypatch, capfd))
    assert "config.yaml:4: invisible format character U+202E" in line


def test_a_byte_order_mark_that_opens_a_file_is_allowed(mini, monkeypatch, capfd):
    path = mini / "narration" / "counting.yaml"
    path.write_text(BOM + path.read_text(encoding="utf-8"), encoding="utf-8")
    mini_runs.ok(check_here(mini, monkeypatch, capfd))


def test_a_character_the_course_declares_is_the_one_exception(mini, monkeypatch, capfd):
    edit(mini / "narration" / "counting.yaml", "今天就到这里", f"今天就到{WJ}这里")
    assert "U+2060 (WORD JOINER)" in one_line(check_here(mini, monkeypatch, capfd))
    edit(mini / "config.yaml", "  lessons: [counting]", "  lessons: [counting]\n  format_characters: [U+2060]")
    mini_runs.ok(check_here(mini, monkeypatch, capfd))
    edit(mini / "narration" / "counting.yaml", "再加一个", f"再加{ZWSP}一个")  # declared one only
    assert "counting.yaml:12: invisible format character U+200B" in one_line(check_here(mini, monkeypatch, capfd))


def test_a_declaration_must_name_a_format_character(mini, monkeypatch, capfd):
    edit(mini / "config.yaml", "  lessons: [counting]", "  lessons: [counting]\n  format_characters: [U+0041]")
    line = one_line(check_here(mini, monkeypatch, capfd))
    assert "course.format_characters" in line and "not a format character" in line
