"""This course's figures: every number the narration quotes, computed with ``mathcore``.

No number that ``mathcore`` computes is typed into ``narration/*.yaml``. A cue writes a
placeholder such as ``{wl_slow_512}``; ``FIGURES[name]()`` below returns its written form
(for example ``"60611"``), exactly as the subtitles show it. The engine loads this table by
path (``coursekit.content.figures.load_figures``); the lexicon says how each form is spoken.

The demo inputs that scenes draw (the q and k of the RoPE pairs, the widget's seats,
the minimal-RoPE seed) are module constants below, so a scene imports the very values the
narration quotes (``from narration import figures``). This module never imports manim.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

import mathcore
from coursekit.content.figures import (  # the formatters are re-exported: scenes write figures.fmt_dec(...)
    Figures,
    fmt_dec,
    fmt_fixed,
    fmt_int,
    fmt_point,
    fmt_sci,
    parse_figure,
)
from mathcore import checks
from mathcore.scores import angle_between
from mathcore.toy_words import distance, dot, word_vectors

# --- demo inputs shared with the scenes ---------------------------------------------
THETA_DEG = 30.0  # the one-speed angle of the 2-D demos
ROPE_PAIR_Q = (1.0, 0.5)  # rope_invariance: q (also the word vector of rope_turns) ...
ROPE_PAIR_K_LEAD_DEG = (
    20.0  # ... and k, which starts this far ahead of q (counter-clockwise; not θ, so the two never blur)
)
ROPE_PAIR_K_SCALE = 0.8  # ... at this share of q's length, so |q||k| = 1 and score = cos(angle)
ROPE_PAIR_K = tuple(
    float(c) for c in ROPE_PAIR_K_SCALE * mathcore.rotate(ROPE_PAIR_Q, np.radians(ROPE_PAIR_K_LEAD_DEG))
)
ROPE_PAIRS = ((0, 3), (2, 5), (10, 13))
WIDGET_Q = (1.0, 0.0)  # the word_order q/k widget: unit arrows
WIDGET_K = (1.0, 0.0)
WIDGET_SEATS = ((2, 4), (5, 7))  # q at seat m, k at seat n; the second pair slid by 3
MINIMAL_ROPE_SEED = 0  # the 6 x 8 minimal RoPE of trig_to_rope 动手
MINIMAL_ROPE_SHAPE = (6, 8)
MINIMAL_ROPE_PERM = (2, 0, 1, 5, 3, 4)
MINIMAL_ROPE_SAME_WORD = 5  # minimal RoPE: this word (a row of the input) put at every seat
NORM_SEAT = 2  # the length-normalised encoding: seat 2 ...
NORM_LENGTHS = (4, 8)  # ... in a 4-word and an 8-word sentence
RAW_INDEX_WORD = "猫"  # order_entry: the word with the raw index added ...
RAW_INDEX_D = 4  # ... in this many dimensions (mathcore.toy_words vectors)
RAW_INDEX_OTHER = "狗"  # failing_encodings.raw_dot/raw_drift: the word compared with it ...
RAW_INDEX_SEATS = (3, 5000)  # ... and the near and far seats of the raw-index demo
MODEL_TABLE_ROWS = (
    ("BERT", 512),
    ("GPT-2", 1024),
)  # the learned tables' rows: BERT's max_position_embeddings, GPT-2's n_ctx
QUIZ_SEAT = 25  # word_order_quiz q3: seat 0 against seat 25, a pair the lesson does not show (clock 0 8° short of home)
STAGGER_SEAT = 44  # rotation_matrix shift_machine.stagger: the d = 8 hands walk on to this seat
# trig_to_rope (lesson 1) --------------------------------------------------------------
ROPE_SWAP = (3, 0)  # rope_invariance.swap: q at seat 3, k at seat 0 (the first pair's order turned round)
# rope_invariance.swap (M2, review 9): the pair one seat apart, k behind q and k ahead of q; its two scores are
# not opposite (the ±0.34 of the swap are, only because 3 × 30° is a right angle)
ROPE_NEAR = ((0, 1), (1, 0))

# --- rotation_matrix (lesson 3) -----------------------------------------------------------
# through_projections: the same word at seats m and m + LOOP_GAP for each start m; the head (W_Q, W_K and the
# word) is mathcore.projection.seeded_head(), seed mathcore.projection.SEED. Lesson 1's pairs (0, 3), (2, 5),
# (10, 13) are among them.
LOOP_STARTS = (0, 2, 10, 20)
LOOP_GAP = 3

# --- word_order (lesson 2) ----------------------------------------------------------------
VALUE_SEATS = ((0, 3), (0, 1))  # qk_widget.value: q on seat 0, k's word moved from seat 3 to seat 1 ...
VALUE_V = (-0.6, -0.8)  # ... and that word's value vector v, which RoPE does not turn
FIXED_DIVISOR = 10000  # failing_encodings.takeaway: the seat divided by a fixed large number
CONTEXT_D, CONTEXT_PLANE = 128, 63  # qk_widget.longer: the slowest plane of one 128-dimension head ...
CONTEXT_TRAIN = 4096  # ... the farthest distance seen in training ...
CONTEXT_FAR = 32768  # ... a distance beyond it ...
CONTEXT_BASE = 100000.0  # ... and the formula's 10000 made larger, so the plane turns slower


# --- the computations ----------------------------------------------------------------
def _theta() -> float:
    return float(np.radians(THETA_DEG))


def rope_pair_scores() -> list[float]:
    """The RoPE scores of ROPE_PAIR_Q, ROPE_PAIR_K at the seats in ROPE_PAIRS (all equal)."""
    return [mathcore.rope_score(ROPE_PAIR_Q, ROPE_PAIR_K, m, n, _theta()) for m, n in ROPE_PAIRS]


def widget_scores() -> list[float]:
    """The q/k widget's scores at WIDGET_SEATS (equal: the gap is the same)."""
    return [mathcore.rope_score(WIDGET_Q, WIDGET_K, i, j, _theta()) for i, j in WIDGET_SEATS]


def context_angle(distance: float, base: float = 10000.0) -> float:
    """qk_widget.longer: how far (radians) the slowest plane of a CONTEXT_D head turns over ``distance`` seats."""
    return float(distance * mathcore.frequencies(CONTEXT_D, base)[CONTEXT_PLANE])


def minimal_rope_scores(x: np.ndarray) -> np.ndarray:
    """Scaled dot-product scores of the rows of ``x`` after RoPE at seats 0 .. n-1."""
    n, d = x.shape
    r = mathcore.rope(x, np.arange(n))
    return r @ r.T / np.sqrt(d)


def minimal_rope_input() -> np.ndarray:
    return np.random.default_rng(MINIMAL_ROPE_SEED).normal(size=MINIMAL_ROPE_SHAPE)


def minimal_rope_shuffle_change() -> float:
    """How much RoPE scores change when the words are shuffled, beyond being reordered.

    Without RoPE the shuffled score table is exactly the old one reordered (change 0);
    with RoPE a word's seat changes its rotation, so the scores themselves change.
    """
    x = minimal_rope_input()
    p = np.asarray(MINIMAL_ROPE_PERM)
    return float(np.abs(minimal_rope_scores(x[p]) - minimal_rope_scores(x)[p][:, p]).max())


def minimal_rope_shuffle_pair() -> tuple[int, int, int, int]:
    """The two words whose RoPE score the shuffle changes most: ``(a, b, gap_before, gap_after)``.

    ``a < b`` are rows of the input; the gaps are how many seats apart they sit before and after.
    """
    x = minimal_rope_input()
    p = np.asarray(MINIMAL_ROPE_PERM)
    change = np.abs(minimal_rope_scores(x[p]) - minimal_rope_scores(x)[p][:, p])
    k, l = sorted(np.unravel_index(int(np.argmax(np.triu(change, 1))), change.shape))
    a, b = sorted((int(p[k]), int(p[l])))
    return a, b, abs(int(p[l]) - int(p[k])), int(l - k)


def minimal_rope_same_word_scores() -> np.ndarray:
    """RoPE scores of one word (row MINIMAL_ROPE_SAME_WORD of the input) sitting at every seat."""
    x = minimal_rope_input()
    same = np.repeat(x[[MINIMAL_ROPE_SAME_WORD]], x.shape[0], axis=0)
    return minimal_rope_scores(same)


def minimal_rope_angles() -> np.ndarray:
    """The angle (radians) each seat 0 .. n-1 turns each pair by: ``seat * w_i`` for d = 8."""
    n, d = MINIMAL_ROPE_SHAPE
    return np.multiply.outer(np.arange(n, dtype=float), mathcore.frequencies(d))


def plain_shuffle_change() -> float:
    """The same measure without RoPE: zero up to rounding."""
    x = minimal_rope_input()
    p = np.asarray(MINIMAL_ROPE_PERM)
    d = x.shape[1]
    plain = lambda a: a @ a.T / np.sqrt(d)  # noqa: E731
    return float(np.abs(plain(x[p]) - plain(x)[p][:, p]).max())


def _assertion(key: str) -> float:
    for a in checks.lesson_assertions():
        if a.key == key:
            return a.error
    raise KeyError(key)


def _norm_code(length: int) -> float:
    return float(mathcore.length_normalised_encoding([NORM_SEAT], length, 1)[0, 0])


def _norm_step(length: int) -> float:
    e = mathcore.length_normalised_encoding([NORM_SEAT, NORM_SEAT + 1], length, 1)[:, 0]
    return float(e[1] - e[0])


def _composition_angles() -> np.ndarray:
    from mathcore.rotation_facts import composition_errors

    return composition_errors()[0]


def _composition_errors() -> np.ndarray:
    from mathcore.rotation_facts import composition_errors

    return composition_errors()[1]


def raw_index_demo() -> dict[str, float]:
    """failing_encodings.raw_dot, raw_drift: the raw index added to the toy word vectors of RAW_INDEX_WORD and RAW_INDEX_OTHER.

    ``dot_word`` is their dot product on meaning alone, ``dot_far`` with both at the far seat, ``drift`` how far
    the same word moves from the near seat to the far one, ``dist_words`` how far apart the two words are."""
    x, y = word_vectors([RAW_INDEX_WORD, RAW_INDEX_OTHER], RAW_INDEX_D)
    near, far = (mathcore.raw_index_encoding([s], RAW_INDEX_D)[0] for s in RAW_INDEX_SEATS)
    return {
        "dot_word": dot(x, y),
        "dot_far": dot(x + far, y + far),
        "drift": distance(x + near, x + far),
        "dist_words": distance(x, y),
    }


def rope_swap_score() -> float:
    """trig_to_rope: the RoPE score of ROPE_PAIR_Q at seat ROPE_SWAP[0] and ROPE_PAIR_K at ROPE_SWAP[1]."""
    return mathcore.rope_score(ROPE_PAIR_Q, ROPE_PAIR_K, *ROPE_SWAP, _theta())


def rope_near_scores() -> list[float]:
    """trig_to_rope: the RoPE scores of ROPE_PAIR_Q, ROPE_PAIR_K at the seats ROPE_NEAR (k behind, k ahead)."""
    return [mathcore.rope_score(ROPE_PAIR_Q, ROPE_PAIR_K, m, n, _theta()) for m, n in ROPE_NEAR]


def rope_swap_gap() -> float:
    """trig_to_rope: the angle (0 .. π) between q and k turned to the seats ROPE_SWAP."""
    m, n = ROPE_SWAP
    return angle_between(mathcore.rope_2d(ROPE_PAIR_Q, m, _theta()), mathcore.rope_2d(ROPE_PAIR_K, n, _theta()))


def loop_table():
    """through_projections: the three schemes' scores at LOOP_STARTS, distance LOOP_GAP (mathcore.projection)."""
    from mathcore.projection import start_table

    return start_table(LOOP_STARTS, LOOP_GAP)


def _circle_radius() -> float:
    tips = mathcore.pointer_tip(np.linspace(0.0, 2 * np.pi, 8))
    return float(np.linalg.norm(tips, axis=-1).max())


GRAM_TAIL_K_MAX = 64  # gram_stripes draws g(k) for k = 0 … 64


def _gram_tail() -> np.ndarray:
    """g(k) for d = 32 from the first half point to the end of the drawn curve."""
    return mathcore.relative_profile(np.arange(mathcore.half_point(32), GRAM_TAIL_K_MAX + 1), 32)


FIGURES: dict[str, Callable[[], str]] = {
    # the unit-circle pointer
    "sin30": lambda: fmt_dec(mathcore.pointer_tip(np.radians(30.0))[1]),
    "cos30": lambda: fmt_dec(mathcore.pointer_tip(np.radians(30.0))[0]),
    "circle_radius": lambda: fmt_dec(_circle_radius()),
    # unit_circle's sweep: 150 deg (as high as 30 deg, on the other side) and 270 deg (the lowest point)
    "p150": lambda: fmt_point(mathcore.pointer_tip(np.radians(150.0))),
    "p270": lambda: fmt_point(mathcore.pointer_tip(np.radians(270.0))),
    # R(90 deg) applied to (1, 0)
    "r90_e1": lambda: fmt_point(mathcore.rotate([1.0, 0.0], np.radians(90.0))),
    "r90_len": lambda: fmt_dec(np.linalg.norm(mathcore.rotate([1.0, 0.0], np.radians(90.0)))),
    "r90_pow4_err": lambda: fmt_sci(
        np.abs(np.linalg.matrix_power(mathcore.rotation(np.radians(90.0)), 4) - np.eye(2)).max()
    ),
    # the clock speeds for d = 8 and the wavelengths for d = 512
    "w0_d8": lambda: fmt_dec(mathcore.frequencies(8)[0], 3),
    "w1_d8": lambda: fmt_dec(mathcore.frequencies(8)[1], 3),
    "w2_d8": lambda: fmt_dec(mathcore.frequencies(8)[2], 3),
    "w3_d8": lambda: fmt_dec(mathcore.frequencies(8)[3], 3),
    # one radian in whole degrees (trig_to_rope clock_row: "1 弧度大约是 57°")
    "one_rad_deg": lambda: fmt_int(np.degrees(1.0)),
    # ... the fastest and the slowest of them in degrees per step (rotation_matrix shift_machine: "约 57°", "0.06°")
    "w0_d8_deg": lambda: fmt_int(np.degrees(mathcore.frequencies(8)[0])),
    "w3_d8_deg": lambda: fmt_dec(np.degrees(mathcore.frequencies(8)[3]), 2),
    "wl_fast_512": lambda: fmt_dec(mathcore.wavelengths(512)[0]),
    "wl_slow_512": lambda: fmt_int(mathcore.wavelengths(512)[-1]),
    "wl_slow_512_wan": lambda: fmt_dec(mathcore.wavelengths(512)[-1] / 1e4, 1),  # spoken: "约 6.1 万"
    # clock_row_paper.speeds: each next clock's speed is the one before times this number (10000^(−2/512))
    "paper_speed_ratio": lambda: fmt_dec(mathcore.frequencies(512)[1] / mathcore.frequencies(512)[0], 3),
    # word_order clock_row_paper's table, seat 44: the fastest clock (0) and clock 64, whole degrees in [0, 360)
    "seat44_clock0_deg": lambda: fmt_int(np.degrees(44 * mathcore.frequencies(512)[0]) % 360),
    "seat44_clock64_deg": lambda: fmt_int(np.degrees(44 * mathcore.frequencies(512)[64]) % 360),
    # ... clock 64's speed in radians per seat: 10000^(−128/512) = 0.1, lesson 1's plane 1 (w1_d8)
    "w64_d512": lambda: fmt_dec(mathcore.frequencies(512)[64], 3),
    # word_order_quiz q3, a pair the lesson does not show: seat 6 on clock 0 (short of a full turn by …) and clock 64
    "quiz_clock0_deg": lambda: fmt_int(np.degrees(QUIZ_SEAT * mathcore.frequencies(512)[0]) % 360),
    "quiz_clock0_short_deg": lambda: fmt_int(360 - np.degrees(QUIZ_SEAT * mathcore.frequencies(512)[0]) % 360),
    "quiz_clock64_deg": lambda: fmt_int(np.degrees(QUIZ_SEAT * mathcore.frequencies(512)[64]) % 360),
    # RoPE scores
    "rope_pair_score": lambda: fmt_dec(rope_pair_scores()[0]),
    "rope_pair_lead_deg": lambda: fmt_int(np.degrees(angle_between(ROPE_PAIR_Q, ROPE_PAIR_K))),
    "rope_pair_gap_deg": lambda: fmt_int(ROPE_PAIR_K_LEAD_DEG + (ROPE_PAIRS[0][1] - ROPE_PAIRS[0][0]) * THETA_DEG),
    # qk_widget.value: k's word moved back (VALUE_SEATS): how far k turns back, and lesson 1's pair's new score
    "value_back_deg": lambda: fmt_int((VALUE_SEATS[0][1] - VALUE_SEATS[1][1]) * THETA_DEG),
    "value_score": lambda: fmt_dec(mathcore.rope_score(ROPE_PAIR_Q, ROPE_PAIR_K, *VALUE_SEATS[1], _theta())),
    # qk_widget.longer: the slowest plane's angle at CONTEXT_FAR, base 10000 and CONTEXT_BASE (whole degrees)
    "context_far_deg": lambda: fmt_int(np.degrees(context_angle(CONTEXT_FAR)) % 360),
    "context_far_new_deg": lambda: fmt_int(np.degrees(context_angle(CONTEXT_FAR, CONTEXT_BASE)) % 360),
    # ... the farthest distance seen in training, the farther one, and the slowest plane's angle at the first
    "context_train": lambda: fmt_int(CONTEXT_TRAIN),
    "context_far": lambda: fmt_int(CONTEXT_FAR),
    "context_seen_deg": lambda: fmt_int(np.degrees(context_angle(CONTEXT_TRAIN))),
    "rope_shuffle_change": lambda: fmt_dec(minimal_rope_shuffle_change(), 1),  # spoken "约 1"
    "shuffle_gap_before": lambda: fmt_int(minimal_rope_shuffle_pair()[2]),
    "shuffle_gap_after": lambda: fmt_int(minimal_rope_shuffle_pair()[3]),
    "same_word_d0": lambda: fmt_dec(minimal_rope_same_word_scores()[0, 0], 1),
    "same_word_d1": lambda: fmt_dec(minimal_rope_same_word_scores()[0, 1], 1),
    "same_word_d2": lambda: fmt_dec(minimal_rope_same_word_scores()[0, 2], 1),
    # the length-normalised encoding
    "raw_cat_dog_dot": lambda: fmt_dec(raw_index_demo()["dot_word"]),
    "raw_far_dot_yi": lambda: fmt_dec(raw_index_demo()["dot_far"] / 1e8, 1),  # "约 1 亿", as on screen
    "raw_cat_drift": lambda: fmt_dec(raw_index_demo()["drift"]),
    "raw_cat_dog_dist": lambda: fmt_dec(raw_index_demo()["dist_words"]),
    "norm_code_short": lambda: fmt_dec(_norm_code(NORM_LENGTHS[0]), 3),
    "norm_code_long": lambda: fmt_dec(_norm_code(NORM_LENGTHS[1]), 3),
    "norm_step_short": lambda: fmt_dec(_norm_step(NORM_LENGTHS[0]), 3),
    "norm_step_long": lambda: fmt_dec(_norm_step(NORM_LENGTHS[1]), 3),
    # Gram stripes and the norm of PE(n)
    "g0_d32": lambda: fmt_dec(mathcore.relative_profile(0, 32)),
    "half_k_d32": lambda: fmt_int(mathcore.half_point(32)),
    "pe_norm_d512": lambda: fmt_dec(np.linalg.norm(mathcore.sinusoidal_pe([7], 512)[0])),
    # measured errors of the rotation lesson
    "t1_err": lambda: fmt_sci(checks.t1_permutation()),
    "a1_err": lambda: fmt_sci(_assertion("A1")),
    "a2_err": lambda: fmt_sci(_assertion("A2")),
    "a3_err": lambda: fmt_sci(_assertion("A3")),
    "a4_err": lambda: fmt_sci(_assertion("A4")),
    "a5_err": lambda: fmt_sci(_assertion("A5")),
    "row_pitfall_err": lambda: fmt_sci(checks.a4_row_pitfall()),
    # the same errors as spoken: only their order of magnitude (the screen shows the digits)
    # (spoken in words, "{eps_mant} 乘 10 的负 {eps_exp} 次方": the subtitles' font has no superscript minus);
    # ε's two parts are read off its written form, so they say what the screen's 2.2×10⁻¹⁶ says
    "eps_mant": lambda: fmt_sci(checks.EPS).split("×10")[0],
    "eps_exp": lambda: fmt_int(-np.floor(np.log10(checks.EPS))),
    # rot_composition: the angle pairs A3 sweeps (every 5th degree of one turn, each with each)
    "a3_pairs": lambda: fmt_int(_composition_errors().size),
    "assert_bound_eps": lambda: fmt_int(checks.BOUND_IN_EPS),
    # trig_to_rope (lesson 1): the first pair's extra turn (n − m)θ, and the pair with its order turned round
    "rope_pair_turn_deg": lambda: fmt_int((ROPE_PAIRS[0][1] - ROPE_PAIRS[0][0]) * THETA_DEG),
    "rope_swap_gap_deg": lambda: fmt_int(np.degrees(rope_swap_gap())),
    "rope_swap_score": lambda: fmt_dec(rope_swap_score()),  # positive: "点积是正的 0.34"
    "rope_near_behind": lambda: fmt_dec(rope_near_scores()[0]),  # k one seat behind q
    "rope_near_ahead": lambda: fmt_dec(rope_near_scores()[1]),  # k one seat ahead of q
    # --- rotation_matrix (lesson 3) ---
    # through_projections: distance LOOP_GAP, starts LOOP_STARTS (the screen shows every column)
    "loop_reading_dot": lambda: fmt_dec(loop_table().readings[0]),
    "loop_added_min": lambda: fmt_dec(min(loop_table().added)),
    "loop_added_max": lambda: fmt_dec(max(loop_table().added)),
    "loop_rope": lambda: fmt_dec(loop_table().rope[0]),
    # assertions_live: A4 written with the row/column bug (rows on the left of M_k, taken for k steps on)
    "row_bug_err": lambda: fmt_dec(checks.a4_row_bug(), 1),
    # rot_composition.sweep: how many angles the sweep takes (every 5°); the pairs are their ordered pairs
    "a3_angles": lambda: fmt_int(_composition_angles().size),
    # exercises.ex2_work: R(90°)⁴'s distance from I as a spoken power of ten ("10 的负 16 次方"; the screen shows
    # r90_pow4_err itself)
    "r90_pow4_exp": lambda: fmt_int(
        -round(np.log10(np.abs(np.linalg.matrix_power(mathcore.rotation(np.radians(90.0)), 4) - np.eye(2)).max()))
    ),
    # gram_stripes.decay: past the half point the d = 32 curve (k up to 64, as drawn) stops falling and swings
    # between these two values, rounded to whole numbers (review 12, M2)
    "gram_tail_lo_d32": lambda: fmt_int(round(float(_gram_tail().min()))),
    "gram_tail_hi_d32": lambda: fmt_int(round(float(_gram_tail().max()))),
}

_TABLE = Figures(FIGURES, "narration/figures.py")
value = _TABLE.value  # the written form of one figure (computed once per process)
fill = _TABLE.fill  # every {name} in a text replaced by its written form
