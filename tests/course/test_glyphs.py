"""Every glyph from the course font (``course.font``): nothing a viewer reads is drawn from a fallback font.

Checked against the font's cmap (fontTools, the files fontconfig picks; :mod:`coursekit.content.glyphs`):
every character of every subtitle event of every lesson (the real narration planned with the silent voice),
and every string each scene draws as ``Text``, ``MarkupText``, ``Paragraph`` or pre-built glyphs, recorded
while the scene is built in a dry run. Exempt: whitespace and format characters (nothing is drawn), and
Typst/MathTypst sources, left out by their mobject kind (Typst carries its own math font).

A failure prints one line per place and character: where (lesson · cue · event, or lesson · scene · cue
on screen · frame), the code point and the character. The seeded tests below show that the same check
fails on a missing glyph, and that the font's cmap is really read.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coursekit.content.glyphs import exempt, font_cmap, missing_glyphs
from coursekit.core.config import load_config
from coursekit.render.drawn_text import DrawnText
from tests.support.course_scenes import narration_plans
from tests.support.course_text import drawn_texts, lesson_ids, scenes_of, screen_places

ROOT = Path(__file__).resolve().parents[2]
FONT = load_config(None).course.font
CMAP = font_cmap(FONT)


def report(missing) -> str:
    return f"{len(missing)} character(s) not in the course font {FONT} (drawn from another font):\n" + "\n".join(
        m.line(FONT) for m in missing
    )


def subtitle_places() -> list[tuple[str, str]]:
    """Every subtitle event of every lesson, as the planner makes it (silent voice, 15 fps: the plans the
    dry runs use), with where it is."""
    out = []
    for lesson, plan in narration_plans(15).items():
        for scene in plan.scenes:
            for cue in scene.cues:
                for k, e in enumerate(cue.subtitles, 1):
                    out.append((f"{lesson} · cue {scene.id}.{cue.id} · event {k} of {len(cue.subtitles)}", e.text))
    return out


def drawn_places(texts: list[DrawnText], lesson: str) -> list[tuple[str, str]]:
    """Drawn strings set in the course font: Typst sources (kind ``Typst``: Typst and MathTypst) left out."""
    return [(p.where, p.text) for p in screen_places([t for t in texts if not t.typst], lesson)]


# -- the course ------------------------------------------------------------------------------------
def test_every_subtitle_event_is_in_the_course_font():
    places = subtitle_places()
    assert len(places) > 300  # every lesson's events were built
    missing = missing_glyphs(places, CMAP)
    assert not missing, report(missing)


@pytest.mark.parametrize("lesson", lesson_ids())  # one lesson's builds per test: xdist_unit_of sends each to its worker
def test_every_drawn_text_is_in_the_course_font(lesson):
    places, broken, kinds = [], [], set()
    for sid in scenes_of(lesson):
        try:
            texts = drawn_texts(sid)
        except Exception as exc:  # one scene that does not build must not hide the others
            broken.append(f"scene {sid} did not build: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
            continue
        kinds |= {t.kind for t in texts}
        places += drawn_places(texts, lesson)
    assert len(places) > 150  # the recorder saw the lesson's texts
    assert {"Text", "Typst"} <= kinds  # formulas were recorded, and left out by kind
    missing = missing_glyphs(places, CMAP)
    assert not missing and not broken, "\n".join(broken) + ("\n" if broken else "") + report(missing)


# -- the check fails on a missing glyph --------------------------------------------------------------
def test_a_transpose_sign_seeded_into_a_copy_of_a_real_subtitle_event_is_reported_with_its_place():
    real = subtitle_places()
    k = next(i for i, (where, _) in enumerate(real) if " · cue shift_machine." in where)
    where, text = real[k]
    seeded = list(real)
    seeded[k] = (where, text[:3] + "Mₖᵀ" + text[3:])
    before = {m.line() for m in missing_glyphs(real, CMAP)}
    new = [m for m in missing_glyphs(seeded, CMAP) if m.line() not in before]
    assert [(m.where, m.code, m.char) for m in new] == [(where, "U+2096", "ₖ"), (where, "U+1D40", "ᵀ")]
    line = new[1].line(FONT)
    assert line.startswith("rotation_matrix · cue shift_machine.") and "U+1D40 ᵀ" in line
    assert f"is not in {FONT}" in line and "Mₖᵀ" in line and "\n" not in line


def test_a_cross_in_a_fake_drawn_string_is_reported_with_its_scene_and_cue():
    fake = [
        DrawnText("learned_table", "✗ 超出表长", "Text", 321, "learned_table.limits"),
        DrawnText("learned_table", "✗ 超出表长", "Typst", 322, "learned_table.limits"),  # a formula: exempt
        DrawnText("learned_table", "第 3 行 ⋮", "MarkupText", 400, "learned_table.rows"),
    ]
    missing = missing_glyphs(drawn_places(fake, "word_order"), CMAP)
    lines = [m.line(FONT) for m in missing]
    assert [(m.code, m.char) for m in missing] == [("U+2717", "✗"), ("U+22EE", "⋮")], lines
    assert lines[0].startswith(
        "word_order · scene learned_table · on screen in learned_table.limits, frame 321 (Text): U+2717 ✗ BALLOT X"
    )
    assert lines[1].startswith(
        "word_order · scene learned_table · on screen in learned_table.rows, frame 400 (MarkupText): U+22EE ⋮"
    )


def test_render_check_names_the_cue_and_the_character(tmp_path: Path):
    """``render.py check`` runs the same check on every cue's subtitle text: authors see it before a render."""
    narr = tmp_path / "narration"
    shutil.copytree(ROOT / "narration", narr, ignore=shutil.ignore_patterns("__pycache__"))
    f = narr / "rotation_matrix.yaml"
    text = f.read_text(encoding="utf-8")
    first = text.index('text: "') + len('text: "')  # the lesson's first cue, whatever it says
    line_no = text[:first].count("\n") + 1
    f.write_text(text[:first] + "Rᵀ" + text[first:], encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "render.py", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "COURSEKIT_NARRATION": str(narr)},
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    err = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(err) == 1, err
    assert "rotation_matrix.yaml:" in err[0] and "U+1D40 ᵀ" in err[0] and f"not in {FONT}" in err[0], err
    assert int(err[0].split("rotation_matrix.yaml:")[1].split(":")[0]) <= line_no  # the cue's line


# -- the font is really read ------------------------------------------------------------------------
def test_the_cmap_is_the_course_fonts():
    assert len(CMAP) > 30000  # a CJK font, not an empty or Latin one
    for ch in "位置旋转矩阵点积θω°−×·≈…“”，。：；0123456789ABCxyz()[]=+":
        assert ord(ch) in CMAP, ch
    for ch in "ᵀₖ⁻⁵⁶⋮✗⟨⟩":  # what the issue found missing
        assert ord(ch) not in CMAP, ch
    assert missing_glyphs([("x", "位✗")], CMAP)[0].char == "✗"


@pytest.mark.parametrize("ch", [" ", "\n", "\t", "\u3000", "\u2060", "\u200b"])
def test_whitespace_and_format_characters_are_not_glyphs(ch):
    assert exempt(ch)
    assert missing_glyphs([("x", f"位{ch}置")], frozenset(map(ord, "位置"))) == []


def test_each_character_is_reported_once_per_place_with_its_count():
    got = missing_glyphs([("a", "✗ 和 ✗"), ("b", "✗")], frozenset(map(ord, "和")))
    assert [(m.where, m.char, m.count) for m in got] == [("a", "✗", 2), ("b", "✗", 1)]
    assert "(2×)" in got[0].line()


def test_a_font_fontconfig_does_not_have_is_one_line():
    from coursekit.core.errors import UserError

    with pytest.raises(UserError, match="course.font: font 'No Such Font Family' not found"):
        font_cmap("No Such Font Family")
