"""Toy word vectors for the order-blindness demos, and the numbers drawn from them.

A word always gets the same vector, wherever it stands in a sentence, so two
sentences made of the same words are the same set of rows in a different order.
numpy only; the standard library's ``zlib.crc32`` turns a word into a stable seed.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mathcore.attention import softmax


def word_vectors(words: Sequence[str], d: int = 4, seed: int = 0) -> NDArray[np.float64]:
    """One deterministic standard-normal vector per word (rows in the order given).

    The same word gives the same row in any sentence and any process.

    Examples
    --------
    >>> a = word_vectors(["猫", "追", "狗"])
    >>> b = word_vectors(["狗", "猫"])
    >>> a.shape, bool(np.array_equal(a[0], b[1])), bool(np.array_equal(a[2], b[0]))
    ((3, 4), True, True)
    """
    if d <= 0:
        raise ValueError(f"d must be positive, got {d}")
    rows = [np.random.default_rng([seed, zlib.crc32(w.encode("utf-8"))]).normal(size=d) for w in words]
    return np.array(rows, dtype=np.float64).reshape(len(words), d)


def attention_scores(x: ArrayLike) -> NDArray[np.float64]:
    """Self-attention scores without positions: ``x x^T / sqrt(d)`` (every pair's dot product).

    Examples
    --------
    >>> attention_scores([[2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
    array([[2. , 0. ],
           [0. , 0.5]])
    """
    a = np.asarray(x, dtype=np.float64)
    return a @ a.T / np.sqrt(a.shape[-1])


def attention_weights(x: ArrayLike) -> NDArray[np.float64]:
    """Row-wise softmax of :func:`attention_scores`; ``attention_weights(x) @ x`` is the output.

    Examples
    --------
    >>> w = attention_weights(np.eye(3))
    >>> bool(np.allclose(w.sum(axis=1), 1.0))
    True
    """
    return softmax(attention_scores(x), axis=-1)


def dot(a: ArrayLike, b: ArrayLike) -> float:
    """The dot product of two vectors, as a float.

    Examples
    --------
    >>> dot([1.0, 2.0], [3.0, 4.0])
    11.0
    """
    return float(np.dot(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)))


def distance(a: ArrayLike, b: ArrayLike) -> float:
    """Euclidean distance between two vectors.

    Examples
    --------
    >>> distance([0.0, 0.0], [3.0, 4.0])
    5.0
    """
    return float(np.linalg.norm(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)))


def norm(a: ArrayLike) -> float:
    """Euclidean length of a vector.

    Examples
    --------
    >>> norm([3.0, 4.0])
    5.0
    """
    return float(np.linalg.norm(np.asarray(a, dtype=np.float64)))
