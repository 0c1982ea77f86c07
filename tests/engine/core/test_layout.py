"""The output folder's one layout (issue 27, coursekit/core/layout.py): every path under it named once.

Checked here: no module of the engine but the layout joins one of its folder names onto a path, nor joins
anything onto ``output_dir`` (a source scan, shown catching the joins the engine had before); every path
the layout makes is one of its entries; a file no entry names is found; docs/settings.md's table and
``render.py clean --help`` are the layout's entries. That clean leaves only what the layout keeps, after a
real run: tests/engine/cli/test_clean.py.
"""

import ast
import re
from pathlib import Path

import pytest

from coursekit.core.layout import (
    BY_NAME,
    ENTRIES,
    KEPT,
    STALE,
    TOP_FOLDERS,
    MediaLayout,
    _EntryPath,
    clean_help,
    reference_table,
)

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "coursekit"

#: joins of a layout folder name that are not under the output folder, with why
NOT_THE_OUTPUT = {
    ("coursekit/core/paths.py", "scenes"): "the course's scenes/ source folder",
    ("coursekit/render/scene_job.py", "manim"): "a scene job's own temporary folder on a worker",
    ("coursekit/speech/audio_cache.py", "locks"): "the audio cache's locks under whatever root it is given "
    "(for the output folder's cache: layout.audio_locks)",
}


def _leading_text(node: ast.AST) -> str | None:
    """The literal text a string expression starts with: a str constant, or an f-string's first part."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    return None


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}


def layout_joins(source: str, folders=TOP_FOLDERS) -> list[tuple[int, str, str]]:
    """(line, the layout folder name or "output_dir", the code) for every place ``source`` joins onto the
    output folder: ``<anything with output_dir> / …``, ``… / "<folder>"`` (or an f-string starting so),
    and a path literal ``"<folder>/…"`` outside a docstring."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            if "output_dir" in ast.unparse(node.left):
                found.append((node.lineno, "output_dir", ast.unparse(node)))
            text = _leading_text(node.right)
            inner = _leading_text(node.left.right) if isinstance(node.left, ast.BinOp) else None
            if text is not None and text.split("/", 1)[0] in folders and (inner is None or inner in folders):
                # (``x / "scaffold" / "course"``: a folder named so inside another, not the output folder's)
                found.append((node.lineno, text.split("/", 1)[0], ast.unparse(node)))
        elif isinstance(node, (ast.Constant, ast.JoinedStr)) and id(node) not in docs:
            text = _leading_text(node)
            m = re.match(r"([a-z]+)/", text or "")
            if m and m.group(1) in folders:
                found.append((node.lineno, m.group(1), text))
    return sorted(set(found))


def test_no_module_but_the_layout_joins_its_folders_onto_the_output_folder():
    bad, excused = [], set()
    for f in sorted(ENGINE.rglob("*.py")):
        rel = f.relative_to(ROOT).as_posix()
        if rel == "coursekit/core/layout.py":
            continue
        for line, name, code in layout_joins(f.read_text(encoding="utf-8")):
            if (rel, name) in NOT_THE_OUTPUT:
                excused.add((rel, name))
                continue
            bad.append(f"{rel}:{line}: {code}")
    assert not bad, "ask coursekit.core.layout.MediaLayout instead:\n" + "\n".join(bad)
    unused = {(rel, name) for rel, name in NOT_THE_OUTPUT if (rel, name) not in excused and (ROOT / rel).exists()}
    assert not unused, f"no longer needed in NOT_THE_OUTPUT: {unused}"


def test_the_scan_finds_the_joins_the_engine_had():
    """Lines as they were before the layout (coursekit 2026, issue 27): each one is found."""
    before = """
def f(cfg, media, scene, fps, quality, lid, course, out):
    a = cfg.output_dir / "plan" / f"{fps}fps" / "scenes" / f"{scene.id}.json"
    b = media / "cache" / "audio"
    c = self.cfg.output_dir / "studio"
    d = str(self.cfg.output_dir / "inspect")
    e = Path(output_dir) / LOCKS_DIR
    g = sorted(cfg.output_dir.glob(f"plan/*fps/{lid}.json"))
    h = {"render": ("plan", "cache/audio", "scenes")}
    i = outputs.prepare(cfg, "course", [f"course/{l.id}" for l in course.lessons])
"""
    found = layout_joins(before)
    assert {line for line, _, _ in found} == set(range(3, 11)), found


def test_every_path_the_layout_makes_is_its_entry(tmp_path):
    lay = MediaLayout(tmp_path)
    made = {
        "lesson_plan": lay.lesson_plan("counting", 15),
        "scene_plan": lay.scene_plan("closing", 15),
        "audio_locks": lay.audio_locks,
        "scene_video": lay.scene_video("closing", "low"),
        "manim_dir": lay.manim_dir("closing"),
        "manim_lock": lay.manim_lock("closing"),
        "work": lay.work,
        "render_log": lay.render_log("high"),
        "lesson_dir": lay.lesson_dir("counting"),
        "manifest": lay.manifest,
        "page": lay.page,
        "preview_video": lay.preview_video("closing"),
        "preview_frame": lay.preview_frame("closing"),
        "preview_narration": lay.preview_narration("closing"),
        "inspect": lay.inspect,
        "studio_preview_record": lay.studio_preview_record("closing"),
        "studio_findings": lay.studio_findings("closing"),
        "studio_plan_record": lay.studio_plan_record("counting"),
        "studio_keys": lay.studio_keys,
        "studio_check": lay.studio_check,
        "course_lock": lay.course_lock("course"),
        "course_lock_note": lay.course_lock_note("course"),
        "bench": lay.bench,
    }
    for name, path in made.items():
        if BY_NAME[name].folder:
            path.mkdir(parents=True)
        got = lay.entry_of(path)
        assert got is not None and got[0].name == name, (name, path, got)
    for path in (
        lay.lesson_video("counting"),
        lay.lesson_subtitles("counting", "srt"),
        lay.overview_video("counting"),
        lay.scene_work(15) / "closing.m4a",
        lay.lesson_work("counting", 15) / "video.mp4",
        lay.audio_cache / f"{'a' * 64}.wav",
        lay.transcripts / f"{'b' * 64}.json",
    ):
        assert lay.entry_of(path) is not None, path
    assert lay.plan_fps(lay.lesson_plan("counting", 24)) == 24
    assert lay.entry_of(lay.scene_video("closing", "low"))[1] == {"quality": "low", "scene": "closing"}


def _entry_lines(cls) -> set[str]:
    """The names of the entries ``cls`` has a line for (``name = _EntryPath()``)."""
    return {name for name, value in vars(cls).items() if isinstance(value, _EntryPath)}


#: every entry the layout makes a path for: all but the temporary file, which is named wherever it is written
NAMED = {e.name for e in ENTRIES if not e.path.startswith("**/")}


def test_every_entry_is_one_line_of_the_layout():
    assert _entry_lines(MediaLayout) == NAMED
    assert {e.name for e in ENTRIES} - NAMED == {"temporary"}


def test_an_entry_without_its_line_or_a_line_without_its_entry_is_found():
    partial = type("Partial", (), {k: v for k, v in vars(MediaLayout).items() if k != "preview_video"})
    assert NAMED - _entry_lines(partial) == {"preview_video"}
    with pytest.raises((TypeError, RuntimeError)) as got:  # Python 3.11 wraps __set_name__'s error
        type("Misspelt", (), {"preview_vid": _EntryPath()})
    assert "Misspelt.preview_vid: no entry of that name" in str(got.value.__cause__ or got.value)


def test_a_file_no_entry_names_is_found(tmp_path):
    lay = MediaLayout(tmp_path)
    for p in (
        lay.preview_video("closing"),
        lay.manim_dir("closing") / "videos" / "x.mp4",
        tmp_path / "newthing" / "a.txt",
        tmp_path / "stray.txt",
        lay.previews / "closing.webm",
    ):
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"x")
    (tmp_path / "manim" / "not_a_folder").write_bytes(b"x")  # a file where the layout has a scene's folder
    assert [p.relative_to(tmp_path).as_posix() for p in lay.unlisted()] == [
        "manim/not_a_folder",
        "newthing/a.txt",
        "preview/closing.webm",
        "stray.txt",
    ]


def test_every_entry_is_described_once_and_cleaned_somehow():
    assert len({e.name for e in ENTRIES}) == len(ENTRIES) and len({e.path for e in ENTRIES}) == len(ENTRIES)
    for e in ENTRIES:
        assert e.what and "\n" not in e.what and e.clean in (KEPT, STALE, "removed"), e
        assert (e.of is not None) == (e.clean == STALE), e


def test_the_docs_table_is_the_layout():
    text = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    table = text.split("<!-- output -->\n", 1)[1].split("\n<!-- /output -->", 1)[0]
    assert table == reference_table(), "docs/settings.md: paste coursekit.core.layout.reference_table()"


def test_clean_help_is_the_layout(capsys):
    from coursekit.cli.main import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["clean", "--help"])
    shown = capsys.readouterr().out
    assert clean_help() in shown
    for e in ENTRIES:
        assert f"  {e.path}  {e.what}" in shown
