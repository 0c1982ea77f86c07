"""Computed figures: every {placeholder} is mathcore's value, and no computed number is typed by hand."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

import mathcore
from coursekit.content.figures import names_in, parse_figure
from coursekit.core.errors import UserError
from coursekit.core.paths import ENGINE_ROOT as PROJECT_ROOT
from coursekit.core.paths import narration_dir
from mathcore import checks
from mathcore.toy_words import word_vectors
from narration import figures
from narration.figures import FIGURES, fill

NARRATION_FILES = sorted(narration_dir().glob("*.yaml"))


_cat, _dog = word_vectors(["猫", "狗"], 4)


def _assertion(key: str) -> float:
    return next(a.error for a in checks.lesson_assertions() if a.key == key)


def _pe_norm(d: int) -> float:
    return float(np.linalg.norm(mathcore.sinusoidal_pe([7], d)[0]))


TH = np.radians(30.0)


def _direction(v) -> float:
    return float(np.degrees(np.arctan2(v[1], v[0])))


def _turn_deg(v, seat) -> float:
    """How far RoPE turns ``v`` at ``seat`` (degrees, from the turned vector itself)."""
    return (_direction(mathcore.rope_2d(v, seat, TH)) - _direction(v)) % 360


def _near(sign: int) -> float:
    """rope_invariance.swap's one-seat pair from the geometry: |q||k| cos(k's lead + sign · 30°)."""
    q, k = np.array(figures.ROPE_PAIR_Q), np.array(figures.ROPE_PAIR_K)
    lead = np.radians(_direction(k) - _direction(q))
    return float(np.linalg.norm(q) * np.linalg.norm(k) * np.cos(lead + sign * TH))


def _gap_deg(q, k, m, n) -> float:
    """The angle from RoPE-turned q (seat m) to turned k (seat n), in degrees."""
    return (_direction(mathcore.rope_2d(k, n, TH)) - _direction(mathcore.rope_2d(q, m, TH))) % 360


def _minimal_rope_words():
    """The minimal RoPE's 6 words of 8 dims, drawn here from the same seed as the lesson."""
    return np.random.default_rng(figures.MINIMAL_ROPE_SEED).normal(size=(6, 8))


def _score_at(a, b, s, t) -> float:
    """Scaled RoPE score of word vector a at seat s and b at seat t, pair by pair (2-D turns)."""
    w = 10000.0 ** (-np.arange(0, 8, 2) / 8)
    return sum(mathcore.rope_score(a[2 * i : 2 * i + 2], b[2 * i : 2 * i + 2], s, t, w[i]) for i in range(4)) / np.sqrt(
        8
    )


def _same_word_score(gap: int) -> float:
    """One word at two seats ``gap`` apart: sum over pairs of |pair|² cos(gap · w_i), over √8."""
    x = _minimal_rope_words()[figures.MINIMAL_ROPE_SAME_WORD]
    w = 10000.0 ** (-np.arange(0, 8, 2) / 8)
    return float(sum((x[2 * i] ** 2 + x[2 * i + 1] ** 2) * np.cos(gap * w[i]) for i in range(4)) / np.sqrt(8))


def _shuffle_gaps() -> tuple[int, int]:
    """Seats between the two words whose score the shuffle changes most, before and after it."""
    x = _minimal_rope_words()
    perm = list(figures.MINIMAL_ROPE_PERM)
    best = max(
        (
            (abs(_score_at(x[a], x[b], perm.index(a), perm.index(b)) - _score_at(x[a], x[b], a, b)), a, b)
            for a in range(6)
            for b in range(a + 1, 6)
        )
    )
    _, a, b = best
    return b - a, abs(perm.index(b) - perm.index(a))


def _loop_head():
    """W_Q, W_K (8 × 32, normal over √32) and the word x (32 normal entries), drawn from default_rng(0) in turn."""
    rng = np.random.default_rng(0)
    wq = rng.normal(size=(8, 32)) / np.sqrt(32)
    wk = rng.normal(size=(8, 32)) / np.sqrt(32)
    return wq, wk, rng.normal(size=32)


def _pe32(p: int) -> np.ndarray:
    """PE(p) for d = 32, written out: (sin, cos) of p · 10000^(−2i/32) for each pair."""
    a = p * 10000.0 ** (-np.arange(0, 32, 2) / 32)
    return np.ravel(np.column_stack([np.sin(a), np.cos(a)]))


def _loop_added() -> list[float]:
    wq, wk, x = _loop_head()
    return [float((wq @ (x + _pe32(m))) @ (wk @ (x + _pe32(m + 3)))) for m in (0, 2, 10, 20)]


def _loop_rope() -> float:
    """RoPE after the projections at distance 3, through the identity q · R((n − m)ω) k, pair by pair."""
    wq, wk, x = _loop_head()
    q, k = wq @ x, wk @ x
    w = 10000.0 ** (-np.arange(0, 8, 2) / 8)
    return float(sum(q[2 * i : 2 * i + 2] @ mathcore.rotation(3 * w[i]) @ k[2 * i : 2 * i + 2] for i in range(4)))


def _row_bug() -> np.ndarray:
    """PE(n) M_k − PE(n + k) for rows on the left (d = 8, k = 1 and 3, n < 64): rows turn back, PE(n − k)."""
    out = []
    for k in (1, 3):
        for n in range(64):
            a = lambda p: p * 10000.0 ** (-np.arange(0, 8, 2) / 8)  # noqa: E731
            back = np.ravel(np.column_stack([np.sin(a(n - k)), np.cos(a(n - k))]))
            on = np.ravel(np.column_stack([np.sin(a(n + k)), np.cos(a(n + k))]))
            out.append(back - on)
    return np.array(out)


# name -> (mathcore's value, how close the written form must be)
# tolerance: ("abs", t) for fixed decimals, ("rel", t) for scientific notation
EXPECTED: dict[str, tuple[object, tuple[str, float]]] = {
    "sin30": (float(mathcore.pointer_tip(TH)[1]), ("abs", 0.005)),
    "cos30": (float(mathcore.pointer_tip(TH)[0]), ("abs", 0.005)),
    "p150": (tuple(mathcore.pointer_tip(np.radians(150.0))), ("abs", 0.005)),
    "p270": (tuple(mathcore.pointer_tip(np.radians(270.0))), ("abs", 0.005)),
    "circle_radius": (1.0, ("abs", 1e-9)),
    "r90_e1": (tuple(mathcore.rotate([1.0, 0.0], np.pi / 2)), ("abs", 0.005)),
    "r90_len": (float(np.linalg.norm(mathcore.rotate([1.0, 0.0], np.pi / 2))), ("abs", 0.005)),
    "r90_pow4_err": (
        float(np.abs(np.linalg.matrix_power(mathcore.rotation(np.pi / 2), 4) - np.eye(2)).max()),
        ("rel", 0.05),
    ),
    "w0_d8": (float(mathcore.frequencies(8)[0]), ("abs", 0.0005)),
    "w1_d8": (float(mathcore.frequencies(8)[1]), ("abs", 0.0005)),
    "w2_d8": (float(mathcore.frequencies(8)[2]), ("abs", 0.0005)),
    "w3_d8": (float(mathcore.frequencies(8)[3]), ("abs", 0.0005)),
    "one_rad_deg": (180.0 / np.pi, ("abs", 0.5)),
    # degrees per step: 1 rad and 10000^(-6/8) rad
    "w0_d8_deg": (180.0 / np.pi, ("abs", 0.5)),
    "w3_d8_deg": (float(np.degrees(10000.0 ** (-6 / 8))), ("abs", 0.005)),
    "wl_fast_512": (float(mathcore.wavelengths(512)[0]), ("abs", 0.005)),
    "wl_slow_512": (float(mathcore.wavelengths(512)[-1]), ("abs", 0.5)),
    "wl_slow_512_wan": (float(mathcore.wavelengths(512)[-1]) / 10000.0, ("abs", 0.05)),
    "paper_speed_ratio": (10000.0 ** (-2 / 512), ("abs", 0.0005)),
    # seat 44 turns clock i by 44 · 10000^(−2i/512) radians: clock 0 by 44 rad (7 turns + 1.0°), clock 64 by 4.4 rad
    "seat44_clock0_deg": (float(np.degrees(44.0 - 7 * 2 * np.pi)), ("abs", 0.5)),
    "seat44_clock64_deg": (float(np.degrees(44.0 * 10000.0 ** (-128 / 512))), ("abs", 0.5)),
    # clock 64 of d = 512: 10000^(−128/512) = 0.1 rad a seat, lesson 1's plane 1
    "w64_d512": (0.1, ("abs", 0.0005)),
    # quiz q3: seat 25 turns clock 0 by 25 rad (four turns less 7.6°) and clock 64 by 2.5 rad
    "quiz_clock0_deg": (float(np.degrees(25.0)) - 3 * 360, ("abs", 0.5)),
    "quiz_clock0_short_deg": (4 * 360 - float(np.degrees(25.0)), ("abs", 0.5)),
    "quiz_clock64_deg": (float(np.degrees(25.0 * 10000.0 ** (-128 / 512))), ("abs", 0.5)),
    "rope_pair_score": (mathcore.rope_score(figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K, 0, 3, TH), ("abs", 0.005)),
    # qk_widget.value: k's word from seat 3 back to seat 1 turns k back 2θ; the pair then stands 20° + 30° apart
    "value_back_deg": (2 * figures.THETA_DEG, ("abs", 0.5)),
    "value_score": (float(np.cos(np.radians(figures.ROPE_PAIR_K_LEAD_DEG + figures.THETA_DEG))), ("abs", 0.005)),
    # qk_widget.longer: plane 63 of 128 turns 10000^(−126/128) rad a seat, or 100000^(−126/128) with the new base
    "context_far_deg": (float(np.degrees(32768 * 10000.0 ** (-126 / 128))) % 360, ("abs", 0.5)),
    "context_far_new_deg": (float(np.degrees(32768 * 100000.0 ** (-126 / 128))) % 360, ("abs", 0.5)),
    "context_train": (4096, ("abs", 0)),
    "context_far": (32768, ("abs", 0)),
    "context_seen_deg": (float(np.degrees(4096 * 10000.0 ** (-126 / 128))), ("abs", 0.5)),
    "rope_pair_lead_deg": (
        float(
            np.degrees(
                np.arccos(
                    np.dot(figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K)
                    / np.linalg.norm(figures.ROPE_PAIR_Q)
                    / np.linalg.norm(figures.ROPE_PAIR_K)
                )
            )
        ),
        ("abs", 0.5),
    ),
    "rope_pair_gap_deg": (_gap_deg(figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K, 0, 3), ("abs", 0.5)),
    "rope_shuffle_change": (
        max(
            abs(
                _score_at(
                    _minimal_rope_words()[a],
                    _minimal_rope_words()[b],
                    list(figures.MINIMAL_ROPE_PERM).index(a),
                    list(figures.MINIMAL_ROPE_PERM).index(b),
                )
                - _score_at(_minimal_rope_words()[a], _minimal_rope_words()[b], a, b)
            )
            for a in range(6)
            for b in range(6)
        ),
        ("abs", 0.05),
    ),
    "shuffle_gap_before": (float(_shuffle_gaps()[0]), ("abs", 0.0)),
    "shuffle_gap_after": (float(_shuffle_gaps()[1]), ("abs", 0.0)),
    "same_word_d0": (_same_word_score(0), ("abs", 0.05)),
    "same_word_d1": (_same_word_score(1), ("abs", 0.05)),
    "same_word_d2": (_same_word_score(2), ("abs", 0.05)),
    # failing_encodings.raw_dot, raw_drift: 猫 and 狗 (toy vectors, d = 4); seats 3 and 5000 add 3 or 5000 to every dimension
    "raw_cat_dog_dot": (float(_cat @ _dog), ("abs", 0.005)),
    "raw_far_dot_yi": (float((_cat + 5000.0) @ (_dog + 5000.0)) / 1e8, ("abs", 0.05)),
    "raw_cat_drift": ((5000 - 3) * np.sqrt(4), ("abs", 0.5)),
    "raw_cat_dog_dist": (float(np.linalg.norm(_cat - _dog)), ("abs", 0.005)),
    "norm_code_short": (float(mathcore.length_normalised_encoding([2], 4, 1)[0, 0]), ("abs", 0.0005)),
    "norm_code_long": (float(mathcore.length_normalised_encoding([2], 8, 1)[0, 0]), ("abs", 0.0005)),
    "norm_step_short": (0.25, ("abs", 0.0005)),
    "norm_step_long": (0.125, ("abs", 0.0005)),
    "g0_d32": (float(mathcore.relative_profile(0, 32)), ("abs", 0.005)),
    "half_k_d32": (float(mathcore.half_point(32)), ("abs", 0.0)),
    "pe_norm_d512": (_pe_norm(512), ("abs", 0.005)),
    # the d = 32 curve past its half point, k up to 64 as drawn, in whole numbers (review 12, M2)
    "gram_tail_lo_d32": (float(mathcore.relative_profile(np.arange(16, 65), 32).min()), ("abs", 0.5)),
    "gram_tail_hi_d32": (float(mathcore.relative_profile(np.arange(16, 65), 32).max()), ("abs", 0.5)),
    "t1_err": (checks.t1_permutation(), ("rel", 0.05)),
    "a1_err": (_assertion("A1"), ("rel", 0.05)),
    "a2_err": (_assertion("A2"), ("rel", 0.05)),
    "a3_err": (_assertion("A3"), ("rel", 0.05)),
    "a4_err": (_assertion("A4"), ("rel", 0.05)),
    "a5_err": (_assertion("A5"), ("rel", 0.05)),
    # every 5th whole degree of one turn, taken in pairs
    "a3_pairs": (float(len(range(0, 360, 5)) ** 2), ("abs", 0.0)),
    "row_pitfall_err": (checks.a4_row_pitfall(), ("rel", 0.05)),
    # spoken orders of magnitude: the power of ten nearest on a log scale
    # ... and its exponent alone, spoken in words ("10 的负 16 次方")
    "eps_exp": (-float(round(np.log10(np.finfo(np.float64).eps))), ("abs", 0.0)),
    # ... and ε's leading digits: ε = eps_mant × 10^(−eps_exp), the spacing of doubles next to 1 (L3, review 5)
    "eps_mant": (np.finfo(np.float64).eps * 10.0**16, ("abs", 0.05)),
    "assert_bound_eps": (checks.BOUND / np.finfo(np.float64).eps, ("abs", 1e-6)),
    # order_entry: |x_猫 + raw index| at seats 5 and 50 (x has 4 standard-normal entries, the index adds p to each)
    # trig_to_rope rope_invariance: k's extra turn three seats on, and k three seats *before* q (q at 3, k at 0):
    # the folded angle between the turned arrows and the score
    "rope_pair_turn_deg": (_turn_deg(figures.ROPE_PAIR_K, 3), ("abs", 0.5)),
    "rope_swap_gap_deg": (
        min(
            _gap_deg(figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K, 3, 0),
            360 - _gap_deg(figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K, 3, 0),
        ),
        ("abs", 0.5),
    ),
    "rope_swap_score": (mathcore.rope_score(figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K, 3, 0, TH), ("abs", 0.005)),
    # one seat apart (M2, review 9): |q||k| cos(lead ± 30°), k behind then ahead; not opposite
    "rope_near_behind": (_near(+1), ("abs", 0.005)),
    "rope_near_ahead": (_near(-1), ("abs", 0.005)),
    # --- rotation_matrix (lesson 3) ---
    # through_projections, recomputed here from the seed: distance 3, starts 0, 2, 10, 20
    "loop_reading_dot": (float(np.cos(3 * 10000.0 ** (-np.arange(0, 32, 2) / 32)).sum()), ("abs", 0.005)),
    "loop_added_min": (min(_loop_added()), ("abs", 0.005)),
    "loop_added_max": (max(_loop_added()), ("abs", 0.005)),
    "loop_rope": (_loop_rope(), ("abs", 0.005)),
    # A4 with rows on the left: the fastest clock turned back 1 step instead of on, at its worst position
    "row_bug_err": (float(np.abs(_row_bug()).max()), ("abs", 0.05)),
    # rot_composition.sweep: the angles 0°, 5°, …, 355° (72); their ordered pairs are a3_pairs
    "a3_angles": (float(len(range(0, 360, 5))), ("abs", 0.0)),
    # exercises.ex2_work: four quarter turns against I, the power of ten nearest on a log scale, spoken
    "r90_pow4_exp": (
        -float(round(np.log10(np.abs(np.linalg.matrix_power(mathcore.rotation(np.pi / 2), 4) - np.eye(2)).max()))),
        ("abs", 0.0),
    ),
}


def _close(got, want, tol) -> bool:
    kind, t = tol
    if isinstance(want, tuple):
        return len(got) == len(want) and all(_close(g, w, tol) for g, w in zip(got, want))
    if kind == "rel":
        return abs(got - want) <= t * abs(want)
    return abs(got - want) <= t + 1e-12


def _cue_sources():
    from tests.support.course_text import course as the_course

    course = the_course()[1]
    for lesson in course.lessons:
        for scene in lesson.scenes:
            for cue in scene.cues:
                yield cue.id, cue.text
                if cue.say is not None:
                    yield cue.id + " (say)", cue.say


# ---------------------------------------------------------------- values


def test_every_figure_has_an_expected_value():
    assert set(FIGURES) == set(EXPECTED), (
        f"figures without a check here: {sorted(set(FIGURES) - set(EXPECTED))}; "
        f"checks without a figure: {sorted(set(EXPECTED) - set(FIGURES))}"
    )


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_figure_equals_mathcore(name):
    written = FIGURES[name]()
    assert isinstance(written, str) and written.strip() and len(written) <= 16, written
    want, tol = EXPECTED[name]
    got = parse_figure(written)
    assert _close(got, want, tol), f"{name}: written {written!r} reads back as {got}, mathcore gives {want}"


def test_specific_written_forms():
    assert fill("{wl_slow_512}") == "60611"
    assert fill("{wl_fast_512}") == "6.28"
    assert fill("({cos30}, {sin30})") == "(0.87, 0.5)"  # spoken 零点五; the live readout alone writes 0.50 (L2)
    assert fill("{g0_d32} {half_k_d32}") == "16 16"
    assert fill("{w0_d8}、{w1_d8}、{w2_d8}、{w3_d8}") == "1、0.1、0.01、0.001"
    assert fill("{a1_err}") == "2.2×10⁻¹⁶"
    eps = np.finfo(np.float64).eps
    assert np.nextafter(1.0, 2.0) - 1.0 == eps  # ε is the gap from 1 to the next double
    assert float(fill("{eps_mant}")) * 10.0 ** -float(fill("{eps_exp}")) == pytest.approx(eps, rel=0.01)
    assert fill("{pe_norm_d512}") == str(int(np.sqrt(512 / 2)))


def test_rope_pairs_and_widget_scores_are_equal():
    s = figures.rope_pair_scores()
    assert max(s) - min(s) < 1e-12
    w = figures.widget_scores()
    assert max(w) - min(w) < 1e-12
    assert figures.plain_shuffle_change() < 1e-12 < figures.minimal_rope_shuffle_change()


# ---------------------------------------------------------------- fill / names_in


def test_fill_replaces_figures_and_keeps_bookmarks():
    assert fill("转到{@at30} 30°，指尖在 ({cos30}, {sin30})。") == "转到{@at30} 30°，指尖在 (0.87, 0.5)。"
    assert names_in("{@at30}{cos30} {sin30}{@x}") == ["cos30", "sin30"]
    assert fill("没有占位符。") == "没有占位符。"


def test_unknown_figure_is_a_user_error():
    with pytest.raises(UserError, match=r"unknown figure 'wl_slow_51'") as err:
        fill("约 {wl_slow_51} 个座位")
    assert "wl_slow_512" in str(err.value)


def test_no_manim_import():
    code = "import sys, narration.figures as f; f.fill('{wl_slow_512}'); print('manim' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------- the narration


def test_every_placeholder_in_the_narration_exists():
    assert NARRATION_FILES, "no narration/*.yaml files"
    missing = []
    for path in NARRATION_FILES:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            missing += [f"{path.name}:{n}: {{{name}}}" for name in names_in(line) if name not in FIGURES]
    assert not missing, "unknown figures:\n" + "\n".join(missing)


def test_every_cue_fills():
    for cid, text in _cue_sources():
        filled = fill(text)
        assert not names_in(filled), f"{cid}: placeholder left after fill: {filled}"


def _raw_narration() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in NARRATION_FILES}


@pytest.mark.parametrize("typed", ["60611", "62832", "60,611", "62,832", "6.2832", "60612"])
def test_wavelength_never_typed(typed):
    bad = [name for name, text in _raw_narration().items() if typed in text]
    assert not bad, f"{typed!r} is typed by hand in {bad}; use the placeholder {{wl_slow_512}}"


def test_no_computed_figure_typed_by_hand():
    """A distinctive computed value (3+ digits, or scientific notation) appears only through its placeholder."""
    raw = {name: re.sub(r"^\s*#.*$", "", text, flags=re.M) for name, text in _raw_narration().items()}
    problems = []
    for fname, func in FIGURES.items():
        written = func()
        digits = sum(ch.isdigit() for ch in written)
        if "×10" in written or (digits >= 3 and not written.startswith("(")):
            for file, text in raw.items():
                for m in re.finditer(re.escape(written), text):
                    before = text[max(0, m.start() - 1) : m.start()]
                    after = text[m.end() : m.end() + 1]
                    if not (before.isdigit() or after.isdigit()):
                        problems.append(f"{file}: {written!r} typed by hand; use {{{fname}}}")
    # the same errors written the document's way
    for file, text in raw.items():
        for m in re.finditer(r"\d\.\d\s*[×x*]\s*10\s*[\^⁻-]", text):
            problems.append(f"{file}: scientific notation typed by hand near {text[m.start() : m.start() + 16]!r}")
    assert not problems, "\n".join(problems)


def test_every_written_figure_is_speakable():
    from coursekit.zh.lexicon import Lexicon

    lex = Lexicon.load(narration_dir() / "lexicon.yaml")
    bad = {name: toks for name in FIGURES if (toks := lex.uncovered(FIGURES[name]()))}
    assert not bad, f"figures the voice cannot read (add terms to narration/lexicon.yaml): {bad}"


# ---------------------------------------------------------------- recorded discrepancies


DOCUMENTED = [
    # (what, document's written value, computed value written the same way)
    ("slowest wavelength, d=512", "62832", figures.fmt_int(mathcore.wavelengths(512)[-1])),
    ("T1 permutation error", "1.0×10⁻¹⁷", figures.fmt_sci(checks.t1_permutation())),
    ("A2 preservation error", "1.8×10⁻¹⁵", figures.fmt_sci(_assertion("A2"))),
    ("A3 composition error", "1.4×10⁻¹⁵", figures.fmt_sci(_assertion("A3"))),
    ("A4 shift error", "2.2×10⁻¹⁶", figures.fmt_sci(_assertion("A4"))),
]


@pytest.mark.parametrize("what,document,computed", DOCUMENTED, ids=[d[0] for d in DOCUMENTED])
def test_recorded_discrepancies(what, document, computed):
    """Each recorded discrepancy still exists, and DISCREPANCIES.md lists both values."""
    assert document != computed, f"{what}: the document's {document} now matches; update DISCREPANCIES.md"
    md = (narration_dir() / "DISCREPANCIES.md").read_text(encoding="utf-8")
    assert computed in md, f"{what}: computed value {computed} is not recorded in DISCREPANCIES.md"
    doc_mantissa = document.split("×")[0].rstrip("0").rstrip(".")
    assert doc_mantissa in md, f"{what}: document value {document} is not recorded in DISCREPANCIES.md"


def test_the_limit_explains_62832():
    assert round(2 * np.pi * 10000) == 62832
    assert round(float(mathcore.wavelengths(512)[-1])) == round(2 * np.pi * 10000 ** (510 / 512))


def test_agreeing_figures_still_agree():
    assert _assertion("A1") == pytest.approx(2.2e-16, rel=0.05)
    assert _assertion("A5") == pytest.approx(8.9e-16, rel=0.05)
    assert all(a.passed for a in checks.lesson_assertions())
    assert mathcore.half_point(32) == 16 and float(mathcore.relative_profile(0, 32)) == 16.0
