"""Mandarin text has one home: what a Chinese character is, the punctuation classes and the number reader
are defined in coursekit/zh only, and the timing interpolation once (coursekit/speech/timing.py).

The scan reads the source of coursekit/ and scenes/ (docstrings and comments aside) and names every
place outside coursekit/zh that defines one of them again: a range of Han code points or a test of a
character's East Asian width, a string, set or list of CJK punctuation marks, a table of Chinese
numerals or number units, or a function that reads digits as Chinese. Each check is also run on a
snippet with such a definition, to show it finds one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HOME = ROOT / "coursekit" / "zh"
TIMING = ROOT / "coursekit" / "speech" / "timing.py"

#: Han code points written in source: \u4e00 / \u9fff / \u3400 … escapes, hex constants, or a literal range
HAN_POINTS = re.compile(
    r"\\u(?:4e00|9f[a-f][a-f]|3400|4dbf|f900|2e80)|\\U0002[0-9a-f]{4}|"
    r"0x(?:4e00|9f[a-f][a-f]|3400|4dbf|f900|2e80|20000|2fa1f)\b|[一㐀]-[龥鿿䶿]",
    re.I,
)
MARKS = set("，。！？；：、")
NUMERALS = ("零一二三四五六七八九", "〇一二三四五六七八九")
UNITS = {"十", "百", "千", "万", "亿"}
#: the edges of the Han blocks, as numbers in a comparison (0x4E00 <= ord(ch) <= 0x9FFF)
HAN_EDGES = {0x4E00, 0x9FFF, 0x9FA5, 0x3400, 0x4DBF, 0x20000, 0x2FA1F, 0xF900, 0xFAFF, 0x2E80}
CJK_NAME = re.compile(r"_?is_(?:cjk|han|chinese|hanzi)$|_?cjk$", re.I)
READER_NAME = re.compile(
    r"(?:number|integer|digits?|year|decimal)s?_to_(?:chinese|cn|han|zh)|expand_numbers|an2cn", re.I
)


def _sources() -> list[Path]:
    files = sorted((ROOT / "coursekit").rglob("*.py")) + sorted((ROOT / "scenes").rglob("*.py"))
    return [f for f in files if "__pycache__" not in f.parts and HOME not in f.parents]


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the constant nodes that are docstrings or bare string statements."""
    return {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}


def _strings(node: ast.AST, skip: set[int]) -> list[str]:
    return [
        n.value
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
    ]


def _is_mark_set(s: str) -> bool:
    """A literal made of punctuation only (no letter, digit or Chinese character) with two or more CJK marks."""
    return len(MARKS & set(s)) >= 2 and not any(ch.isalnum() for ch in s)


def _translates_marks(node: ast.Dict) -> bool:
    """A table from marks to marks (kokoro's: the mark its model reads for each closing mark): it says how
    another tool writes a mark, not which class the mark is in."""
    values = [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return len(values) == len(node.values) and all(v.strip() and not any(ch.isalnum() for ch in v) for v in values)


def findings(source: str, name: str = "<snippet>") -> list[str]:
    """Every definition in ``source`` that belongs in coursekit/zh (or coursekit/speech/timing.py)."""
    tree = ast.parse(source, filename=name)
    skip = _docstrings(tree)
    out: list[str] = []

    def at(node: ast.AST, what: str) -> None:
        out.append(f"{name}:{getattr(node, 'lineno', '?')}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            s = node.value
            if HAN_POINTS.search(s):
                at(node, f"a range of Chinese characters {s[:40]!r} (use coursekit.zh.chars.is_cjk)")
            if _is_mark_set(s):
                at(node, f"a set of punctuation marks {s!r} (use the classes of coursekit.zh.chars)")
            if any(d in s for d in NUMERALS):
                at(node, f"a table of Chinese digits {s!r} (use coursekit.zh.numbers)")
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            if isinstance(node, ast.Dict) and _translates_marks(node):
                continue
            items = _strings(node, skip)
            singles = {s for s in items if len(s) == 1}
            if len(singles & MARKS) >= 2:
                at(node, f"a collection of punctuation marks {sorted(singles & MARKS)} (use coursekit.zh.chars)")
            if len(set(items) & UNITS) >= 2:
                at(node, f"a table of number units {sorted(set(items) & UNITS)} (use coursekit.zh.numbers)")
            if len(singles & set(NUMERALS[0])) >= 5:
                at(node, "a table of Chinese digits (use coursekit.zh.numbers)")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if CJK_NAME.match(node.name):
                at(node, f"a test for Chinese characters {node.name}() (use coursekit.zh.chars.is_cjk)")
            if READER_NAME.search(node.name):
                at(node, f"a number reader {node.name}() (use coursekit.zh.numbers)")
            if node.name == "time_at" and any(
                isinstance(n, ast.Attribute) and n.attr.startswith("bisect") for n in ast.walk(node)
            ):
                at(node, "a second time_at interpolation (use coursekit.speech.timing.time_at)")
        elif isinstance(node, ast.Attribute) and node.attr == "east_asian_width":
            at(node, "a test for wide (Chinese) characters (use coursekit.zh.chars.is_wide or char_class)")
        elif isinstance(node, ast.Compare):
            # 0x4E00 <= ord(ch) <= 0x9FFF, ord(ch) >= 0x2E80: an edge of the Han blocks in a comparison
            nums = {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and type(n.value) is int}
            if nums & HAN_EDGES:
                at(node, "a code-point test for Chinese characters (use coursekit.zh.chars)")
    return out


def test_no_mandarin_definition_outside_coursekit_zh():
    found = []
    for path in _sources():
        name = str(path.relative_to(ROOT))
        source = path.read_text(encoding="utf-8")
        found += [f for f in findings(source, name) if not (path == TIMING and "time_at" in f)]
    assert not found, "defined again outside coursekit/zh:\n" + "\n".join("  " + f for f in found)


@pytest.mark.parametrize(
    "snippet",
    [
        'CJK = re.compile(r"[\\u3400-\\u9fff\\uf900-\\ufaff]")',
        "def is_cjk(ch):\n    return 0x4E00 <= ord(ch) <= 0x9FFF",
        "def han(ch):\n    o = ord(ch)\n    return 0x3400 <= o <= 0x4DBF",
        'def wide(ch):\n    return unicodedata.east_asian_width(ch) in ("W", "F")',
        "def width(ch):\n    return 1.0 if ord(ch) >= 0x2E80 else 0.5",
        'SENTENCE_PUNCT = frozenset("。！？!?；;")',
        'BREAK_AFTER = "，。？！：；、"',
        'ENDS = {"。", "！", "？"}',
        'KIND = {"，": "clause", "。": "sentence"}',
        '_DIGITS = "零一二三四五六七八九"',
        'UNITS = ["", "万", "亿"]',
        "def number_to_chinese(s):\n    return s",
        "def time_at(points, x):\n    return bisect.bisect_right(points, x)",
    ],
)
def test_the_scan_finds_a_definition(snippet):
    assert findings(snippet), snippet


@pytest.mark.parametrize(
    "snippet",
    [
        '"""A docstring: 一、二。三！四？"""',
        'print("这是一句话，有标点。")',
        'label = "、".join(names)',
        'HEADING = re.compile(r"^第[一二三四五六七八九十]+题[：:]")',
        "from coursekit.zh.chars import is_cjk\nok = is_cjk('中')",
    ],
)
def test_the_scan_lets_text_and_uses_pass(snippet):
    assert not findings(snippet), findings(snippet)


def test_the_home_defines_them():
    from coursekit.speech.timing import time_at
    from coursekit.zh.chars import CLAUSE_BREAKS, SENTENCE_ENDS, is_cjk
    from coursekit.zh.numbers import expand_numbers, number_to_chinese

    assert is_cjk("中") and is_cjk("〇") and not is_cjk("，") and not is_cjk("a")
    assert "；" in CLAUSE_BREAKS and "；" not in SENTENCE_ENDS and "。" in SENTENCE_ENDS
    assert number_to_chinese("0.54") == "零点五四" and number_to_chinese("-1") == "负一"
    assert number_to_chinese("10000") == "一万" and number_to_chinese("50%") == "百分之五十"
    assert expand_numbers("2017 年") == "二〇一七 年"
    assert time_at([(0, 0.0), (10, 2.0)], 3.0, 20)(15) == pytest.approx(2.5)
    assert findings((HOME / "chars.py").read_text(encoding="utf-8"))  # the scan does see the home's definitions
