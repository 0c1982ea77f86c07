"""The README stays short and the documentation holds together: README.md is at most 200 lines, every
relative link in README.md and docs/*.md reaches an existing file (and, where it names an anchor, a heading
of that file), and every docs/*.md is linked from the README. docs/authoring.md is also run: every command
of its ```sh blocks, in order, in an empty folder, from `coursekit init` to the rendered lesson."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
README_MAX_LINES = 200

# [text](target) and [text](target "title"); images too. Code spans and fenced blocks are skipped first.
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
_CODE = re.compile(r"`[^`\n]*`")
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # http:, https:, mailto:, file:


def doc_files(root: Path) -> list[Path]:
    """README.md and every docs/*.md under ``root``."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def links(text: str) -> list[str]:
    """The link targets of a Markdown text, outside code."""
    text = _CODE.sub("", _FENCE.sub("", text))
    return _LINK.findall(text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = _CODE.sub(lambda m: m.group(0)[1:-1], heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor in a Markdown text (repeated headings get -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    out = set()
    for line in _FENCE.sub("", text).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def broken_links(root: Path) -> list[str]:
    """'file: target: why' for every relative link of README.md and docs/*.md that reaches nothing."""
    problems = []
    for doc in doc_files(root):
        if not doc.is_file():
            continue
        for target in links(doc.read_text(encoding="utf-8")):
            if _EXTERNAL.match(target):
                continue
            path, _, anchor = target.partition("#")
            dest = (doc.parent / path).resolve() if path else doc
            where = f"{doc.relative_to(root)}: {target}"
            if not dest.exists():
                problems.append(f"{where}: no such file")
            elif root.resolve() not in dest.parents and dest != root.resolve():
                problems.append(f"{where}: outside the project")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest.read_text(encoding="utf-8")):
                problems.append(f"{where}: no heading #{anchor} in {dest.name}")
    return problems


def unlinked_docs(root: Path) -> list[str]:
    """Every docs/*.md the README does not link to."""
    readme = root / "README.md"
    linked = {
        (readme.parent / t.partition("#")[0]).resolve()
        for t in links(readme.read_text(encoding="utf-8"))
        if not _EXTERNAL.match(t) and t.partition("#")[0]
    }
    return [str(p.relative_to(root)) for p in sorted((root / "docs").glob("*.md")) if p.resolve() not in linked]


def readme_too_long(root: Path) -> list[str]:
    """A line saying so if README.md has more than README_MAX_LINES lines."""
    n = len((root / "README.md").read_text(encoding="utf-8").splitlines())
    return (
        [f"README.md has {n} lines (at most {README_MAX_LINES}); move detail to docs/*.md and link it"]
        if n > README_MAX_LINES
        else []
    )


def test_the_readme_is_at_most_200_lines():
    assert readme_too_long(ROOT) == []


def test_every_relative_link_reaches_a_file():
    assert (ROOT / "docs").is_dir() and len(doc_files(ROOT)) > 1
    assert broken_links(ROOT) == []


def test_every_doc_is_linked_from_the_readme():
    assert unlinked_docs(ROOT) == []


def test_the_settings_table_lives_in_docs_only():
    """One table, one place: the README points to docs/settings.md instead of carrying a copy."""
    assert "<!-- settings -->" not in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "<!-- settings -->" in (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")


@pytest.fixture
def copy(tmp_path):
    """README.md and docs/ copied to a temporary folder, for the checks to be shown failing."""
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    return tmp_path


def test_the_checks_pass_on_an_intact_copy(copy):
    assert broken_links(copy) == [] and unlinked_docs(copy) == [] and readme_too_long(copy) == []


def test_a_broken_link_is_found(copy):
    voices = copy / "docs" / "voices.md"
    voices.write_text(
        voices.read_text(encoding="utf-8")
        + "\nSee [the old notes](notes/missing.md) and [back](../README.md#no-such-heading).\n",
        encoding="utf-8",
    )
    assert broken_links(copy) == [
        "docs/voices.md: notes/missing.md: no such file",
        "docs/voices.md: ../README.md#no-such-heading: no heading #no-such-heading in README.md",
    ]


def test_a_link_into_code_or_out_of_the_project_is_not_missed(copy):
    readme = copy / "README.md"
    readme.write_text(
        readme.read_text(encoding="utf-8") + "\n`[not a link](nowhere.md)` and [up](../../etc)\n", encoding="utf-8"
    )
    problems = broken_links(copy)
    assert not any("nowhere.md" in p for p in problems)  # inside a code span: not a link
    assert len(problems) == 1 and problems[0].startswith("README.md: ../../etc:")


def test_an_unlinked_doc_is_found(copy):
    (copy / "docs" / "orphan.md").write_text("# Orphan\n\n[← README](../README.md)\n", encoding="utf-8")
    assert unlinked_docs(copy) == ["docs/orphan.md"]


def test_a_long_readme_is_found(copy):
    readme = copy / "README.md"
    readme.write_text("line\n" * README_MAX_LINES, encoding="utf-8")
    assert readme_too_long(copy) == []
    readme.write_text("line\n" * (README_MAX_LINES + 1), encoding="utf-8")
    assert readme_too_long(copy) == [
        f"README.md has {README_MAX_LINES + 1} lines (at most {README_MAX_LINES}); move detail to docs/*.md and link it"
    ]


def test_anchors_follow_github():
    assert slug("Kokoro's speakers") == "kokoros-speakers"
    assert slug("Dask against `--jobs 2`") == "dask-against---jobs-2"
    assert slug("The studio: edit to preview") == "the-studio-edit-to-preview"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n") == {"a", "a-1"}


# -- docs/authoring.md, run: every command of its ```sh blocks, in order, in an empty folder ---------------
_SH = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)
SERVER = "runs until Ctrl-C"  # a command the guide says runs until stopped: started, asked, stopped
#: the command after which the test names espeak in the new course's config.yaml (its first: init)
OWN_VOICE_UNTIL = "coursekit init mycourse --title 我的第一门课"


def sh_commands(text: str) -> list[str]:
    """The commands of every ```sh block of a Markdown text, in order, one a line (blank lines dropped)."""
    return [line.strip() for block in _SH.findall(text) for line in block.splitlines() if line.strip()]


def test_the_guide_commands_are_found():
    cmds = sh_commands((ROOT / "docs" / "authoring.md").read_text(encoding="utf-8"))
    assert cmds[0].startswith("coursekit init mycourse")
    assert any(" preview " in c for c in cmds) and any(c.endswith("course --quality low") for c in cmds)
    assert OWN_VOICE_UNTIL in cmds  # where the guide's run names espeak for the rest
    assert sh_commands("```sh\na\n\nb  # c\n```\n```yaml\nx: 1\n```\n```sh\nd\n```\n") == ["a", "b  # c", "d"]


def _serve_once(cmd: str, cwd: Path, env: dict, paths: tuple[str, ...] = ("",)) -> str:
    """Start a server command, wait for the address it prints, GET it (and ``paths`` under it), stop it
    with Ctrl-C (SIGINT); return the bodies."""
    proc = subprocess.Popen(
        ["bash", "-c", f"exec {cmd}"], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        deadline, seen = time.monotonic() + 300, []
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            if m := re.search(r"http://[^\s]+/", line):
                bodies = []
                for path in paths:
                    with urllib.request.urlopen(m.group(0) + path, timeout=60) as res:
                        assert res.status == 200, f"{cmd}: {m.group(0)}{path} answered {res.status}"
                        bodies.append(res.read().decode("utf-8", "replace"))
                return "\n".join(bodies)
        raise AssertionError(f"{cmd}: printed no address:\n{''.join(seen)[-3000:]}")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.render
def test_every_command_of_the_authoring_guide_runs(tmp_path):
    """From `init` to a rendered lesson, as the guide says: each command exits 0 (a server answers its
    page). `coursekit` and `python` are this venv's.

    The voice: right after `init` the test sets `voice.backend: espeak` in mycourse/config.yaml, the
    setting the guide names for choosing the voice. The new course's own `auto` is kokoro on this checkout,
    and its preview, inspect, studio and course each load the neural model in two worker processes: the
    guide's commands took 140 s of CPU with auto, 95 s with espeak, and the model shows nothing more about
    the guide. What `auto` picks is tested in test_voices, and kokoro's synthesis and worker pool in
    test_voice_kokoro and test_synthesis."""
    env = {k: v for k, v in os.environ.items() if k not in ("COURSEKIT_COURSE", "COURSEKIT_NARRATION")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    pages = {}
    for cmd in sh_commands((ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")):
        start = time.monotonic()
        if SERVER in cmd:  # the studio's list of scenes is its page's JSON
            pages[cmd] = _serve_once(
                cmd.split("#")[0].strip(),
                tmp_path,
                env,
                ("", "api/scenes", "api/scene/welcome") if " studio" in cmd else ("",),
            )
        else:
            res = subprocess.run(
                ["bash", "-c", cmd], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900
            )
            assert res.returncode == 0, f"{cmd}: exit {res.returncode}\n{res.stdout[-2000:]}\n{res.stderr[-3000:]}"
        if cmd == OWN_VOICE_UNTIL:
            config = tmp_path / "mycourse" / "config.yaml"
            text = config.read_text(encoding="utf-8")
            assert text.count("backend: auto") == 1, text
            # espeak also reads the cues without a take of the guide's recorded voice
            espeak = "backend: espeak\n  recorded: {fallback: espeak}"
            config.write_text(text.replace("backend: auto", espeak), encoding="utf-8")
        print(f"{time.monotonic() - start:6.1f} s  {cmd}")
    course = tmp_path / "mycourse"
    assert (course / "media" / "preview" / "welcome.mp4").stat().st_size > 0
    [video] = [p for p in (course / "media").rglob("first_lesson.mp4") if "course" in p.parts]
    assert video.stat().st_size > 0
    assert any("welcome" in page and "square" in page for cmd, page in pages.items() if " studio" in cmd)
    # the studio opened after `record import` shows the take in the scene's recording lane
    lanes = [json.loads(page.rsplit("\n", 1)[1])["record"] for cmd, page in pages.items() if " studio" in cmd]
    takes = [{c["id"]: c["take"]["state"] for c in lane["cues"]} for lane in lanes]
    assert takes[0]["welcome.next"] == "missing" and takes[-1]["welcome.next"] == "current", takes
    assert any("我的第一门课" in page for cmd, page in pages.items() if " serve" in cmd)
