"""Readings for the rotation lesson's pictures: R^T R, det R, kept lengths, pair layouts.

Small numpy-only helpers so that a scene never computes a product, a determinant
or a norm itself. They build on :mod:`mathcore.rotation` and
:mod:`mathcore.encodings` and add no new conventions except one view:
``cos_first`` re-orders each (sin, cos) pair of the package's PE layout into the
(cos, sin) order the rotation lesson's narration uses. It is a permutation of
coordinates (indexing), so the numbers themselves are the package's.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mathcore.encodings import shift_matrix, sinusoidal_pe
from mathcore.rotation import rotate, rotation


def orthogonality_product(theta: float) -> NDArray[np.float64]:
    """``R(theta)^T R(theta)`` (the identity, up to rounding).

    Examples
    --------
    >>> np.round(orthogonality_product(0.7), 12) + 0.0
    array([[1., 0.],
           [0., 1.]])
    """
    r = rotation(theta)
    return r.T @ r


def determinant(theta: float) -> float:
    """``det R(theta)`` (+1 up to rounding).

    Examples
    --------
    >>> round(determinant(2.0), 12)
    1.0
    """
    return float(np.linalg.det(rotation(theta)))


def column_facts(theta: float) -> dict[str, float]:
    """The columns of R(theta): their dot product, their squared lengths and det R.

    Examples
    --------
    >>> f = column_facts(np.radians(30))
    >>> round(f["dot"], 12) + 0.0, round(f["len0_sq"], 12), round(f["len1_sq"], 12), round(f["det"], 12)
    (0.0, 1.0, 1.0, 1.0)
    """
    r = rotation(theta)
    c0, c1 = r[:, 0], r[:, 1]
    return {"dot": float(c0 @ c1), "len0_sq": float(c0 @ c0), "len1_sq": float(c1 @ c1), "det": determinant(theta)}


def preservation(x: ArrayLike, y: ArrayLike, theta: float) -> dict[str, float]:
    """Lengths and the dot product of x, y before and after both are turned by theta.

    Examples
    --------
    >>> p = preservation([1.0, 0.5], [0.2, 1.0], 1.1)
    >>> abs(p["norm_rx"] - p["norm_x"]) < 1e-12, abs(p["dot_r"] - p["dot"]) < 1e-12
    (True, True)
    """
    xv, yv = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    rx, ry = rotate(xv, theta), rotate(yv, theta)
    return {
        "norm_x": float(np.linalg.norm(xv)),
        "norm_rx": float(np.linalg.norm(rx)),
        "norm_y": float(np.linalg.norm(yv)),
        "norm_ry": float(np.linalg.norm(ry)),
        "dot": float(xv @ yv),
        "dot_r": float(rx @ ry),
    }


def turned_points(points: ArrayLike, theta: float) -> NDArray[np.float64]:
    """Turn a polygon's corners (shape (n, 2)) by theta: R(theta) applied to each.

    Examples
    --------
    >>> np.round(turned_points([[1.0, 0.0], [0.0, 2.0]], np.pi / 2), 12) + 0.0
    array([[ 0.,  1.],
           [-2.,  0.]])
    """
    return rotate(np.asarray(points, dtype=np.float64), theta)


def rotation_power(theta: float, n: int) -> NDArray[np.float64]:
    """``R(theta)^n`` by repeated matrix multiplication.

    Examples
    --------
    >>> np.round(rotation_power(np.pi / 2, 4), 12) + 0.0
    array([[1., 0.],
           [0., 1.]])
    """
    return np.linalg.matrix_power(rotation(theta), n)


def identity_error(m: ArrayLike) -> float:
    """``max |m - I|`` for a square matrix.

    Examples
    --------
    >>> identity_error(np.eye(3))
    0.0
    """
    a = np.asarray(m, dtype=np.float64)
    return float(np.abs(a - np.eye(a.shape[0])).max())


def pe_norms(positions: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    """``|PE(n)|`` for each position: always sqrt(d/2), one per clock.

    Examples
    --------
    >>> np.round(pe_norms([0, 7, 5000], 512), 12)
    array([16., 16., 16.])
    """
    return np.linalg.norm(sinusoidal_pe(positions, d, base), axis=-1)


def cos_first_order(d: int) -> NDArray[np.int64]:
    """The coordinate order that turns each (sin, cos) pair into (cos, sin).

    Examples
    --------
    >>> cos_first_order(6)
    array([1, 0, 3, 2, 5, 4])
    """
    if d <= 0 or d % 2:
        raise ValueError(f"d must be a positive even integer, got {d}")
    idx = np.arange(d)
    return idx ^ 1


def cos_first_pe(positions: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    """The sinusoidal table with each pair laid out (cos w_i n, sin w_i n).

    Examples
    --------
    >>> cos_first_pe([0], 4)
    array([[1., 0., 1., 0.]])
    """
    return sinusoidal_pe(positions, d, base)[..., cos_first_order(d)]


def cos_first_shift_matrix(k: float, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    """:func:`shift_matrix` with rows and columns in (cos, sin) pair order: blocks ``R(w_i k)``.

    ``cos_first_shift_matrix(k, d) @ cos_first_pe(n, d) == cos_first_pe(n + k, d)``.

    Examples
    --------
    >>> m = cos_first_shift_matrix(3, 8)
    >>> bool(np.allclose(m[:2, :2], rotation(3.0)))
    True
    >>> bool(np.allclose(m @ cos_first_pe([2], 8)[0], cos_first_pe([5], 8)[0]))
    True
    """
    p = cos_first_order(d)
    return shift_matrix(k, d, base)[np.ix_(p, p)]


def relative_turn(back: float, on: float) -> NDArray[np.float64]:
    """``R(back)^T R(on)``, multiplied out as written: turn back by ``back``, then on by ``on``.

    It equals ``R(on - back)`` (the transpose is the opposite turn, and turns add), so for seats m, n and one
    speed θ, ``R(mθ)^T R(nθ) = R((n - m)θ)``.

    Examples
    --------
    >>> np.round(relative_turn(np.radians(60), np.radians(150)), 12) + 0.0
    array([[ 0., -1.],
           [ 1.,  0.]])
    """
    return rotation(back).T @ rotation(on)


def relative_turn_error(back: float, on: float) -> float:
    """``max |R(back)^T R(on) - R(on - back)|``: rounding only.

    Examples
    --------
    >>> relative_turn_error(1.0, 2.5) < 1e-15
    True
    """
    return float(np.abs(relative_turn(back, on) - rotation(on - back)).max())


def composition_errors(step_deg: float = 5.0) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(angles, errors)``: every ``step_deg``-th angle of one turn (radians) and, for each pair
    (a = angles[i], b = angles[j]), ``errors[i, j] = max |R(a) R(b) - R(a + b)|``.

    The angle set is the one A3 sweeps (:func:`mathcore.checks.a3_composition`, every 5th of 360
    whole degrees), so ``errors.max()`` is A3's pair part.

    Examples
    --------
    >>> angles, err = composition_errors()
    >>> len(angles), err.shape, bool(err.max() < 1e-14)
    (72, (72, 72), True)
    """
    angles = np.radians(np.arange(0.0, 360.0, step_deg))
    a, b = np.meshgrid(angles, angles, indexing="ij")
    return angles, np.abs(rotation(a) @ rotation(b) - rotation(a + b)).max(axis=(-2, -1))
