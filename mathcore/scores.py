"""Score tables of a small sentence, with and without RoPE, and what a shuffle does to them."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mathcore.rope import rope


def score_matrix(x: ArrayLike, positions: ArrayLike | None = None, base: float = 10000.0) -> NDArray[np.float64]:
    """Scaled dot products ``X Xᵀ / √d`` of the rows of ``x``, after RoPE at ``positions``.

    Parameters
    ----------
    x : array, shape (n, d)
        One word vector per row, d even.
    positions : array, shape (n,), optional
        The seat of each row. ``None`` means no position at all (plain attention scores).
    base : float
        RoPE frequency base.

    Examples
    --------
    >>> x = np.array([[1.0, 0.0], [1.0, 0.0]])
    >>> score_matrix(x) * np.sqrt(2)
    array([[1., 1.],
           [1., 1.]])
    >>> np.round(score_matrix(x, [0, 1], base=1.0) * np.sqrt(2), 4)   # seat 1 turned by 1 rad
    array([[1.    , 0.5403],
           [0.5403, 1.    ]])
    """
    a = np.asarray(x, dtype=np.float64)
    if positions is not None:
        a = rope(a, positions, base)
    return a @ a.T / np.sqrt(a.shape[-1])


def reorder(scores: ArrayLike, perm: ArrayLike) -> NDArray[np.float64]:
    """The old table with its rows and columns moved: ``scores[perm][:, perm]``.

    Row k of the result belongs to word ``perm[k]``, the word that now sits at seat k.

    Examples
    --------
    >>> reorder(np.array([[0, 1], [2, 3]]), [1, 0])
    array([[3., 2.],
           [1., 0.]])
    """
    s = np.asarray(scores, dtype=np.float64)
    p = np.asarray(perm)
    return s[p][:, p]


def distance_changed(perm: ArrayLike) -> NDArray[np.bool_]:
    """Which cells of a shuffled table join two words whose seat offset changed.

    Cell (k, l) of the shuffled sentence holds words ``perm[k]`` and ``perm[l]``; the
    second sat ``perm[l] - perm[k]`` seats after the first before, and ``l - k`` now.
    RoPE sees only this signed offset, so only these cells can change.

    Examples
    --------
    >>> distance_changed([2, 0, 1]).astype(int)
    array([[0, 1, 1],
           [1, 0, 0],
           [1, 0, 0]])
    """
    p = np.asarray(perm)
    seats = np.arange(len(p))
    return np.subtract.outer(seats, seats) != np.subtract.outer(p, p)


def angle_between(a: ArrayLike, b: ArrayLike) -> float:
    """The angle in radians (0 .. π) between two vectors; for unit vectors its cos is ``a · b``.

    Examples
    --------
    >>> round(float(np.degrees(angle_between([1.0, 0.0], [0.5, 0.5 * np.sqrt(3)]))), 6)
    60.0
    """
    u = np.asarray(a, dtype=np.float64)
    v = np.asarray(b, dtype=np.float64)
    c = float(np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v)))
    return float(np.arccos(np.clip(c, -1.0, 1.0)))
