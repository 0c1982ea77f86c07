"""The rotation lesson's machine-verified assertions A1-A5, recomputed.

Each function returns the largest deviation it measured (float64), so a scene can
show it and a test can bound it. The inputs are fixed and the random sources
seeded, so the numbers are the same on every run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mathcore.attention import permutation_error
from mathcore.encodings import gram, relative_profile, shift_matrix, sinusoidal_pe
from mathcore.rotation import rotation

SEED = 20240604
ANGLES_360 = np.radians(np.arange(360.0))
#: float64's machine epsilon, 2.2e-16: the spacing of doubles just above 1, the unit of rounding error here
EPS = float(np.finfo(np.float64).eps)
#: every assertion's bound, in units of EPS. The checked quantities are of size 1 to 10 and each is
#: built from a handful of float operations (a sin/cos, a 2x2 or 8x8 product, a sum of 4 terms), so
#: their rounding errors are a few EPS to a few tens of EPS. 100 EPS (2.2e-14) leaves room for a
#: different CPU or BLAS to round differently, yet a real mistake (a wrong sign, a transposed block,
#: an angle off by a step) gives errors of order 1e-3 to 1, far above it.
BOUND_IN_EPS = 100
BOUND = BOUND_IN_EPS * EPS


def a1_orthogonality(angles: np.ndarray = ANGLES_360) -> float:
    """A1: max over angles of |R^T R - I| and |det R - 1|.

    Examples
    --------
    >>> a1_orthogonality() <= BOUND
    True
    """
    r = rotation(angles)
    rtr = np.swapaxes(r, -1, -2) @ r
    err_i = np.abs(rtr - np.eye(2)).max()
    err_det = np.abs(np.linalg.det(r) - 1.0).max()
    return float(max(err_i, err_det))


def a2_preservation(n_pairs: int = 1000, seed: int = SEED) -> float:
    """A2: max over random (angle, x, y) of |(|Rx| - |x|)| and |Rx.Ry - x.y|.

    Examples
    --------
    >>> a2_preservation() <= BOUND
    True
    """
    rng = np.random.default_rng(seed)
    theta = rng.uniform(0.0, 2 * np.pi, n_pairs)
    x = rng.normal(size=(n_pairs, 2))
    y = rng.normal(size=(n_pairs, 2))
    r = rotation(theta)
    rx = np.einsum("nij,nj->ni", r, x)
    ry = np.einsum("nij,nj->ni", r, y)
    err_norm = np.abs(np.linalg.norm(rx, axis=1) - np.linalg.norm(x, axis=1)).max()
    err_dot = np.abs((rx * ry).sum(1) - (x * y).sum(1)).max()
    return float(max(err_norm, err_dot))


def a3_composition(angles: np.ndarray = ANGLES_360[::5]) -> float:
    """A3: max over angle pairs of |R(a)R(b) - R(a+b)|, and |R(360 deg) - I|.

    Examples
    --------
    >>> a3_composition() <= BOUND
    True
    """
    a, b = np.meshgrid(angles, angles, indexing="ij")
    err = np.abs(rotation(a) @ rotation(b) - rotation(a + b)).max()
    full = np.abs(rotation(2 * np.pi) - np.eye(2)).max()
    return float(max(err, full))


def a4_shift(d: int = 8, ks: tuple[int, ...] = (1, 3), n_positions: int = 64) -> float:
    """A4: max over n and k of |M_k PE(n) - PE(n+k)|.

    Examples
    --------
    >>> a4_shift() <= BOUND
    True
    """
    pe = sinusoidal_pe(np.arange(n_positions + max(ks)), d)
    errs = []
    for k in ks:
        shifted = pe[:n_positions] @ shift_matrix(k, d).T  # each row: M_k @ PE(n)
        errs.append(np.abs(shifted - pe[k : k + n_positions]).max())
    return float(max(errs))


def a4_row_pitfall(d: int = 8, k: int = 3, n_positions: int = 64) -> float:
    """The row-convention pitfall: max |PE(n) M_k - PE(n-k)| (rows turn back by k).

    Examples
    --------
    >>> a4_row_pitfall() <= BOUND
    True
    """
    pe = sinusoidal_pe(np.arange(-k, n_positions), d)
    return float(np.abs(pe[k:] @ shift_matrix(k, d) - pe[:-k]).max())


def a4_row_bug(d: int = 8, ks: tuple[int, ...] = (1, 3), n_positions: int = 64) -> float:
    """A4 written with the row/column bug: max over n and k of |PE(n) M_k - PE(n+k)|.

    The same inputs as :func:`a4_shift`, but each position's reading is a *row* multiplied on the left of
    M_k, and the result is taken for the reading k positions on. That product applies M_k^T = M_{-k}, so it
    lands k positions back (:func:`a4_row_pitfall`), and the error is of order 1, not of order EPS: the
    check that fails.

    Examples
    --------
    >>> a4_row_bug() > 1e13 * BOUND
    True
    """
    pe = sinusoidal_pe(np.arange(n_positions + max(ks)), d)
    return float(max(np.abs(pe[:n_positions] @ shift_matrix(k, d) - pe[k : k + n_positions]).max() for k in ks))


A5_D, A5_POSITIONS = 8, 20  # the A5 miniature: d and the number of positions


def a5_gram_stripes(d: int = A5_D, n_positions: int = A5_POSITIONS) -> float:
    """A5: max over m, n of |G[m, n] - g(n - m)|: the Gram matrix depends only on n - m.

    Examples
    --------
    >>> a5_gram_stripes() <= BOUND
    True
    """
    g = gram(sinusoidal_pe(np.arange(n_positions), d))
    idx = np.arange(n_positions)
    expect = relative_profile(idx[None, :] - idx[:, None], d)
    return float(np.abs(g - expect).max())


def t1_permutation(seed: int = SEED, n: int = 6, d: int = 8) -> float:
    """Attention without positions is permutation-equivariant: max error of one shuffle.

    Examples
    --------
    >>> t1_permutation() < 1e-15
    True
    """
    rng = np.random.default_rng(seed)
    return permutation_error(rng.normal(size=(n, d)), rng.permutation(n))


@dataclass(frozen=True)
class Assertion:
    """One row of the rotation lesson's verification table.

    ``document_error`` is the figure the source lesson (document 000 §6) reports for the same
    assertion, measured by its own script on its own inputs; it is shown for comparison only.
    """

    key: str
    claim: str
    error: float
    document_error: float
    bound: float

    @property
    def passed(self) -> bool:
        return self.error <= self.bound

    @property
    def error_in_eps(self) -> float:
        """The measured error in units of :data:`EPS`."""
        return self.error / EPS


def row_bug_assertion() -> Assertion:
    """A4 with the row/column bug (:func:`a4_row_bug`), held to the same bound: it fails.

    The source document shows no such row, so ``document_error`` is NaN.

    Examples
    --------
    >>> row_bug_assertion().passed
    False
    """
    return Assertion("A4", "PE(n) M_k = PE(n+k), rows on the left (wrong)", a4_row_bug(), float("nan"), BOUND)


def lesson_assertions() -> list[Assertion]:
    """A1-A5 recomputed, with the document's reported error and the bound we hold them to (:data:`BOUND`).

    Examples
    --------
    >>> all(a.passed and a.bound == BOUND for a in lesson_assertions())
    True
    """
    return [
        Assertion("A1", "R^T R = I, det R = +1", a1_orthogonality(), 2.2e-16, BOUND),
        Assertion("A2", "|Rx| = |x|, Rx.Ry = x.y", a2_preservation(), 1.8e-15, BOUND),
        Assertion("A3", "R(a)R(b) = R(a+b), R(360) = I", a3_composition(), 1.4e-15, BOUND),
        Assertion("A4", "PE(n+k) = M_k PE(n)", a4_shift(), 2.2e-16, BOUND),
        Assertion("A5", "G[m,n] = g(n-m)", a5_gram_stripes(), 8.9e-16, BOUND),
    ]
