"""The rank of one attention head's score matrix W^Q (W^K)^T.

A head maps a ``d_model``-dimensional word to a ``d_k``-dimensional query and key,
so its bilinear score form ``W^Q (W^K)^T`` is ``d_model x d_model`` but has rank
at most ``d_k``. The functions here measure that, with seeded random weights.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def head_dim(d_model: int, heads: int) -> int:
    """Dimensions per head when ``d_model`` is split evenly over ``heads`` heads.

    Examples
    --------
    >>> head_dim(512, 8)
    64
    """
    if heads <= 0 or d_model <= 0 or d_model % heads:
        raise ValueError(f"cannot split d_model = {d_model} evenly over {heads} heads")
    return d_model // heads


def head_score_matrix(d_model: int, d_k: int, seed: int = 0) -> NDArray[np.float64]:
    """``W^Q (W^K)^T`` for one head with random normal weights (each ``d_model x d_k``).

    Examples
    --------
    >>> head_score_matrix(6, 2).shape
    (6, 6)
    """
    rng = np.random.default_rng(seed)
    wq = rng.normal(size=(d_model, d_k))
    wk = rng.normal(size=(d_model, d_k))
    return wq @ wk.T


def head_score_rank(d_model: int = 512, d_k: int = 64, seed: int = 0) -> int:
    """Numerical rank of :func:`head_score_matrix`: at most ``d_k`` (and equal to it for random weights).

    Examples
    --------
    >>> head_score_rank(512, 64)
    64
    >>> head_score_rank(8, 2)
    2
    """
    return int(np.linalg.matrix_rank(head_score_matrix(d_model, d_k, seed)))
