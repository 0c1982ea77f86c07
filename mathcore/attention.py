"""Scaled dot-product attention, and its blindness to word order."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray


def softmax(x: ArrayLike, axis: int = -1) -> NDArray[np.float64]:
    """Numerically stable softmax along ``axis``.

    Examples
    --------
    >>> softmax([0.0, 0.0])
    array([0.5, 0.5])
    """
    a = np.asarray(x, dtype=np.float64)
    z = a - np.max(a, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def attention(q: ArrayLike, k: ArrayLike, v: ArrayLike, mask: ArrayLike | None = None) -> NDArray[np.float64]:
    """``softmax(q k^T / sqrt(d)) v``, one query/key/value per row.

    ``mask`` is boolean, broadcastable to the score matrix; False entries are excluded.

    Examples
    --------
    >>> x = np.eye(2)
    >>> attention(x, x, x, mask=np.eye(2, dtype=bool))
    array([[1., 0.],
           [0., 1.]])
    """
    qq, kk, vv = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    scores = qq @ np.swapaxes(kk, -1, -2) / np.sqrt(qq.shape[-1])
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    return softmax(scores, axis=-1) @ vv


def permutation_error(x: ArrayLike, perm: ArrayLike) -> float:
    """Max |attention(X)[perm] - attention(X[perm])| for self-attention without positions.

    Zero up to rounding: shuffling the words only shuffles the outputs.

    Examples
    --------
    >>> x = np.random.default_rng(0).normal(size=(3, 4))
    >>> permutation_error(x, [2, 0, 1]) < 1e-15
    True
    """
    a = np.asarray(x, dtype=np.float64)
    p = np.asarray(perm)
    return float(np.max(np.abs(attention(a, a, a)[p] - attention(a[p], a[p], a[p]))))
