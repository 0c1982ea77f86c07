"""mathcore against every machine-verified claim of the source documents (float64), and its smaller modules
the scenes draw from (low_rank, shuffle, scores, rotation_facts)."""

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mathcore
import mathcore as mc
from coursekit.content.figures import parse_figure
from mathcore import checks
from mathcore import rotation_facts as rf
from mathcore.low_rank import head_dim, head_score_matrix, head_score_rank
from mathcore.scores import angle_between, distance_changed, reorder, score_matrix
from mathcore.shuffle import self_attention, t1_inputs
from narration import figures
from tests.support.examples import examples

DOC_STRICT = 1e-15  # where the documents report errors around 1e-16 (A1, A3, A4)
DOC_LOOSE = 1e-14  # elsewhere


def test_a1_orthogonality_and_det_over_360_angles():
    r = mc.rotation(np.radians(np.arange(360.0)))
    assert r.shape == (360, 2, 2)
    assert np.abs(np.swapaxes(r, 1, 2) @ r - np.eye(2)).max() <= DOC_STRICT
    assert np.abs(np.linalg.det(r) - 1).max() <= DOC_STRICT
    assert checks.a1_orthogonality() <= checks.BOUND


def test_a2_norms_and_inner_products_over_1000_pairs():
    assert checks.a2_preservation(n_pairs=1000) <= checks.BOUND


def test_a3_composition_is_angle_addition():
    a, b = np.radians(25), np.radians(40)
    assert np.abs(mc.rotation(a) @ mc.rotation(b) - mc.rotation(a + b)).max() <= DOC_STRICT
    assert np.abs(mc.rotation(2 * np.pi) - np.eye(2)).max() <= DOC_STRICT
    assert checks.a3_composition() <= checks.BOUND


@pytest.mark.parametrize("k", [1, 3])
def test_a4_shift_machine_for_all_positions(k):
    d = 8
    # the document's miniature: d = 8, every position of a 64-seat window
    pe = mc.sinusoidal_pe(np.arange(64 + k), d)
    m = mc.shift_matrix(k, d)
    for n in range(64):
        assert np.abs(m @ pe[n] - pe[n + k]).max() <= DOC_STRICT
    assert checks.a4_shift(d=d, ks=(k,)) <= checks.BOUND


def test_a4_row_convention_pitfall_turns_back_by_k():
    d, k = 8, 3
    pe = mc.sinusoidal_pe(np.arange(50), d)
    back = pe @ mc.shift_matrix(k, d)  # rows times M_k
    assert np.abs(back[k:] - pe[:-k]).max() <= DOC_LOOSE
    assert np.abs(back[k:] - mc.sinusoidal_pe(np.arange(50) + k, d)[k:]).max() > 0.1


def test_shift_matrix_blocks_are_rotations_by_minus_w_k():
    d, k = 8, 5
    m, w = mc.shift_matrix(k, d), mc.frequencies(d)
    for i in range(d // 2):
        assert np.array_equal(m[2 * i : 2 * i + 2, 2 * i : 2 * i + 2], mc.rotation(-w[i] * k))
    off = m.copy()
    for i in range(d // 2):
        off[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = 0
    assert not off.any()


def test_a5_gram_depends_only_on_distance():
    assert checks.a5_gram_stripes() <= checks.BOUND
    g = mc.gram(mc.sinusoidal_pe(np.arange(40), 16))
    for shift in range(1, 20):
        diag = np.diagonal(g, offset=shift)
        assert np.ptp(diag) <= DOC_LOOSE


def test_attention_without_positions_is_permutation_equivariant():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 4))
    assert mc.permutation_error(x, [2, 0, 1]) <= DOC_LOOSE
    assert checks.t1_permutation() <= DOC_LOOSE


def test_attention_matches_definition_and_mask():
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 5, 4))
    s = q @ k.T / 2.0
    e = np.exp(s - s.max(1, keepdims=True))
    assert np.allclose(mc.attention(q, k, v), (e / e.sum(1, keepdims=True)) @ v, atol=1e-14)
    causal = np.tril(np.ones((5, 5), dtype=bool))
    out = mc.attention(q, k, v, mask=causal)
    assert np.allclose(out[0], v[0], atol=1e-14)  # first query sees only itself


def test_rope_scores_equal_for_same_distance():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=2), rng.normal(size=2)
    scores = [mc.rope_score(q, k, m, n, 0.5) for m, n in [(0, 3), (2, 5), (10, 13)]]
    assert max(scores) - min(scores) <= DOC_LOOSE
    assert abs(scores[0] - q @ mc.rotation(3 * 0.5) @ k) <= DOC_LOOSE


def test_pe_norm_is_sqrt_half_d():
    for d in (8, 32, 512):
        pe = mc.sinusoidal_pe(np.arange(1000), d)
        assert np.abs(np.linalg.norm(pe, axis=1) - np.sqrt(d / 2)).max() <= DOC_LOOSE


def test_d32_profile_g0_16_and_half_at_16():
    assert mc.relative_profile(0, 32) == 16.0
    g = mc.relative_profile(np.arange(0, 17), 32)
    assert np.all(g[1:16] > 8.0) and g[16] <= 8.0
    assert mc.half_point(32) == 16


def test_clock_row_wavelengths_for_d512():
    lam = mc.wavelengths(512)
    assert lam.shape == (256,)
    assert abs(lam[0] - 2 * np.pi) <= DOC_LOOSE
    assert np.all(np.diff(lam) > 0)
    # Computed slowest: 2*pi*10000**(510/512) = 60611.5; the document says "about 62832" (= 2*pi*10000).
    assert abs(lam[-1] - 2 * np.pi * 10000 ** (510 / 512)) <= 1e-9
    assert round(lam[-1]) == 60611
    assert abs(2 * np.pi * 10000 - 62831.85) < 0.01


def test_learned_table_is_deterministic_and_fixed_length():
    a, b = mc.learned_table(64, 8, seed=3), mc.learned_table(64, 8, seed=3)
    assert np.array_equal(a, b) and a.shape == (64, 8)
    assert not np.array_equal(a, mc.learned_table(64, 8, seed=4))


def test_failing_encodings():
    raw = mc.raw_index_encoding([3, 5000], 4)
    assert np.all(raw[1] == 5000)  # unbounded: breaks requirement 2
    a = mc.length_normalised_encoding([2], 4, 1)[0, 0]
    b = mc.length_normalised_encoding([2], 8, 1)[0, 0]
    assert a != b  # same seat, different code: breaks requirement 3
    step4 = np.diff(mc.length_normalised_encoding([0, 1], 4, 1)[:, 0])[0]
    step8 = np.diff(mc.length_normalised_encoding([0, 1], 8, 1)[:, 0])[0]
    assert step4 != step8


@settings(deadline=None, max_examples=examples(60))
@given(
    d=st.integers(1, 32).map(lambda h: 2 * h),
    m=st.integers(0, 500),
    n=st.integers(0, 500),
    shift=st.integers(-200, 200),
    seed=st.integers(0, 2**32 - 1),
    pairing=st.sampled_from(["interleaved", "half"]),
)
def test_rope_scores_depend_only_on_distance(d, m, n, shift, seed, pairing):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(2, d))
    base = mc.rope(np.stack([q, k]), [m, n], pairing=pairing)
    m2, n2 = m + shift, n + shift
    moved = mc.rope(np.stack([q, k]), [m2, n2], pairing=pairing)
    scale = 1 + np.abs(q).sum() * np.abs(k).sum()
    assert abs(base[0] @ base[1] - moved[0] @ moved[1]) <= 1e-11 * scale * (1 + max(m, n, abs(m2), abs(n2)))


@settings(deadline=None, max_examples=examples(60))
@given(d=st.integers(1, 32).map(lambda h: 2 * h), n=st.integers(0, 10000), k=st.integers(-50, 50))
def test_shift_matrix_property(d, n, k):
    pe = mc.sinusoidal_pe([n, n + k], d)
    assert np.abs(mc.shift_matrix(k, d) @ pe[0] - pe[1]).max() <= 1e-10 * (1 + n)


@settings(deadline=None, max_examples=examples(60))
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), theta=st.floats(-10, 10))
def test_rotation_preserves_norm_and_rope_preserves_norm(seed, n, theta):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 2))
    assert np.allclose(np.linalg.norm(mc.rotate(x, theta), axis=1), np.linalg.norm(x, axis=1), atol=1e-12)
    y = rng.normal(size=(n, 8))
    assert np.allclose(np.linalg.norm(mc.rope(y, np.arange(n)), axis=1), np.linalg.norm(y, axis=1), atol=1e-12)


def test_half_pairing_equals_interleaved_after_reordering():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(4, 8))
    order = np.array([0, 4, 1, 5, 2, 6, 3, 7])  # half layout -> interleaved layout
    a = mc.rope(x, np.arange(4), pairing="half")[:, order]
    b = mc.rope(x[:, order], np.arange(4), pairing="interleaved")
    assert np.abs(a - b).max() <= DOC_LOOSE


def test_importing_mathcore_imports_no_manim():
    code = "import sys, mathcore; print(any(m == 'manim' or m.startswith('manim.') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_lesson_assertions_all_pass_with_measured_errors():
    rows = checks.lesson_assertions()
    assert [r.key for r in rows] == ["A1", "A2", "A3", "A4", "A5"]
    assert all(r.passed for r in rows), rows
    assert all(r.error >= 0 for r in rows)
    # one bound for all, a multiple of float64's epsilon, with room to spare (another CPU or BLAS may
    # round differently): every measured error is at most a quarter of it
    assert checks.EPS == np.finfo(np.float64).eps and checks.BOUND == checks.BOUND_IN_EPS * checks.EPS
    assert all(r.bound == checks.BOUND for r in rows)
    assert all(r.error <= checks.BOUND / 4 for r in rows), [r.error_in_eps for r in rows]
    # the source lesson's own figures pass the same bound
    assert all(r.document_error <= checks.BOUND for r in rows)


# -- the smaller modules -------------------------------------------------------------------------
def test_low_rank():
    assert head_dim(512, 8) == 64
    with pytest.raises(ValueError):
        head_dim(512, 7)
    m = head_score_matrix(16, 3, seed=1)
    assert m.shape == (16, 16)
    assert head_score_rank(16, 3, seed=1) == 3 == np.linalg.matrix_rank(m)
    assert head_score_rank(8, 8) == 8  # full rank when d_k = d_model


def test_shuffle_inputs_are_t1():
    x, perm = t1_inputs()
    assert mathcore.permutation_error(x, perm) == checks.t1_permutation()
    assert np.allclose(self_attention(x), mathcore.attention(x, x, x))
    assert np.allclose(self_attention(x[perm]), self_attention(x)[perm], atol=1e-12)


def test_scores_helpers():
    x = figures.minimal_rope_input()
    assert np.allclose(score_matrix(x, np.arange(6)), figures.minimal_rope_scores(x), atol=1e-12)
    perm = np.asarray(figures.MINIMAL_ROPE_PERM)
    assert np.allclose(score_matrix(x[perm]), reorder(score_matrix(x), perm), atol=1e-12)
    assert distance_changed([0, 1, 2]).sum() == 0
    assert distance_changed([2, 0, 1]).tolist() == [[False, True, True], [True, False, False], [True, False, False]]
    assert np.degrees(angle_between([1, 0], [0, 2])) == pytest.approx(90.0)
    assert angle_between([1, 0], [1, 0]) == 0.0


def test_scores_docstring_examples():
    import doctest

    import mathcore.scores

    result = doctest.testmod(mathcore.scores, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0


def test_rotation_facts_helpers():
    import doctest

    from mathcore import rotation_facts

    assert doctest.testmod(rotation_facts).failed == 0
    for k in (1, 3, 7.5):
        m = rf.cos_first_shift_matrix(k, 8)
        pe = rf.cos_first_pe(np.arange(20), 8)
        assert np.allclose(pe[:10] @ m.T, rf.cos_first_pe(np.arange(10) + k, 8), atol=1e-12)
        for i, wi in enumerate(mathcore.frequencies(8)):
            assert np.allclose(m[2 * i : 2 * i + 2, 2 * i : 2 * i + 2], mathcore.rotation(wi * k))
    assert (
        rf.identity_error(rf.rotation_power(np.pi / 2, 4)) == parse_figure(figures.value("r90_pow4_err"))
        or abs(rf.identity_error(rf.rotation_power(np.pi / 2, 4)) - parse_figure(figures.value("r90_pow4_err"))) < 1e-17
    )


# -- closing the loop: the clock row through W_Q, W_K, against RoPE after them (mathcore.projection) --------
def test_projection_docstring_examples():
    import doctest

    from mathcore import projection

    result = doctest.testmod(projection)
    assert result.attempted >= 8 and result.failed == 0


def test_the_readings_dot_product_depends_only_on_the_distance_and_the_projected_one_does_not():
    from mathcore import projection as pj

    h = pj.seeded_head()
    for gap in (1, 3, 7):
        starts = (0, 2, 10, 20, 37)
        reads = [pj.reading_dot(m, m + gap) for m in starts]
        assert np.ptp(reads) < 1e-12 and reads[0] == pytest.approx(float(mc.relative_profile(gap, 32)))
        # through W_Q and W_K: with the word, and with the readings alone (x = 0), the start matters
        assert np.ptp([pj.additive_score(h, m, m + gap) for m in starts]) > 0.1
        assert np.ptp([pj.additive_score(h, m, m + gap, word=np.zeros(32)) for m in starts]) > 0.1
        # RoPE turns after the projections: only the distance is left
        assert np.ptp([pj.rope_score_after(h, m, m + gap) for m in starts]) < 1e-12


def test_the_scores_are_the_formulas_written_out():
    from mathcore import projection as pj

    h = pj.seeded_head()
    a = h.wq.T @ h.wk  # the head's score form W_Qᵀ W_K (32 × 32)
    for m, n in ((0, 3), (10, 13), (5, 2)):
        u, v = h.x + mc.sinusoidal_pe([m], 32)[0], h.x + mc.sinusoidal_pe([n], 32)[0]
        assert pj.additive_score(h, m, n) == pytest.approx(float(u @ a @ v), abs=1e-12)
        q, k = h.wq @ h.x, h.wk @ h.x
        w = mc.frequencies(8)
        blocks = sum(q[2 * i : 2 * i + 2] @ mc.rotation((n - m) * w[i]) @ k[2 * i : 2 * i + 2] for i in range(4))
        assert pj.rope_score_after(h, m, n) == pytest.approx(float(blocks), abs=1e-12)


def test_turning_before_the_projections_loses_the_distance_again():
    """The seeded failing case: RoPE's turn moved before W_Q and W_K (turn x, then project) depends on the start,
    so the check that the RoPE row is flat would catch an implementation that turned in the wrong place."""
    from mathcore import projection as pj

    h = pj.seeded_head()
    wrong = [
        float((h.wq @ mc.rope(h.x[None, :], [m])[0]) @ (h.wk @ mc.rope(h.x[None, :], [m + 3])[0])) for m in (0, 2, 10)
    ]
    assert np.ptp(wrong) > 0.1
    t = pj.start_table()
    assert t.spread("rope") < 1e-12 < 0.1 < t.spread("added")


def test_the_row_bug_fails_its_bound():
    bug = checks.row_bug_assertion()
    assert not bug.passed and bug.bound == checks.BOUND
    assert bug.error == checks.a4_row_bug() > 1.0  # of order 1: the fastest clock turned back, not on
    # the same inputs with the columns the right way round pass, and rows turn back by k (the pitfall)
    assert checks.a4_shift() <= checks.BOUND and checks.a4_row_pitfall() <= checks.BOUND


def test_the_reviews_pure_position_scores_are_reproduced():
    """narration/DISCREPANCIES.md ("Closing the loop"): the third review's −0.84, −0.37, −0.80, +0.86 are the readings
    alone (x = 0) through the same seed's W_Q, W_K; the video shows the score with the word."""
    from mathcore import projection as pj

    h = pj.seeded_head()
    pure = [pj.additive_score(h, m, m + 3, word=np.zeros(32)) for m in (0, 2, 10, 20)]
    assert np.round(pure, 2).tolist() == [-0.84, -0.37, -0.8, 0.86]
