"""Position encodings: the sinusoidal clock row, its shift machine, learned and failing encodings."""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mathcore.rotation import rotation


def _check_even(d: int) -> None:
    if d <= 0 or d % 2:
        raise ValueError(f"d must be a positive even integer, got {d}")


def frequencies(d: int, base: float = 10000.0) -> NDArray[np.float64]:
    """Angular speeds of the d/2 clocks: ``w_i = base ** (-2i/d)``, i = 0 .. d/2-1.

    Examples
    --------
    >>> frequencies(8)
    array([1.   , 0.1  , 0.01 , 0.001])
    """
    _check_even(d)
    i = np.arange(d // 2, dtype=np.float64)
    return base ** (-2.0 * i / d)


def wavelengths(d: int, base: float = 10000.0) -> NDArray[np.float64]:
    """Positions per full turn of each clock: ``2 pi / w_i``.

    Examples
    --------
    >>> w = wavelengths(512)
    >>> round(float(w[0]), 4), round(float(w[-1]))
    (6.2832, 60611)
    """
    return 2.0 * np.pi / frequencies(d, base)


def sinusoidal_pe(positions: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    """The sinusoidal table: one row per position, ``PE[p, 2i] = sin(p w_i)``, ``PE[p, 2i+1] = cos(p w_i)``.

    Examples
    --------
    >>> sinusoidal_pe([0], 4)
    array([[0., 1., 0., 1.]])
    >>> sinusoidal_pe(np.arange(3), 8).shape
    (3, 8)
    """
    p = np.asarray(positions, dtype=np.float64)
    ang = np.multiply.outer(p, frequencies(d, base))
    out = np.empty(p.shape + (d,), dtype=np.float64)
    out[..., 0::2] = np.sin(ang)
    out[..., 1::2] = np.cos(ang)
    return out


def shift_matrix(k: float, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    """The block-diagonal machine M_k with ``PE(n+k) = M_k @ PE(n)`` (PE(n) as a column).

    With the sine first in each pair, as in :func:`sinusoidal_pe`, the pair
    (sin a, cos a) becomes (sin(a+b), cos(a+b)) under ``R(-b)``, so each block
    is ``R(-w_i k)``. With pairs laid out as (cos, sin), as in the rotation
    lesson's section 4, the same machine has blocks ``R(w_i k)``.

    A table with one position per *row* multiplied on the right,
    ``PE @ M_k``, applies ``M_k.T = M_{-k}`` and so shifts back by k.

    Examples
    --------
    >>> pe = sinusoidal_pe(np.arange(10), 8)
    >>> bool(np.allclose(shift_matrix(3, 8) @ pe[2], pe[5]))
    True
    >>> bool(np.allclose(pe[5] @ shift_matrix(3, 8), pe[2]))
    True
    """
    w = frequencies(d, base)
    m = np.zeros((d, d), dtype=np.float64)
    blocks = rotation(-w * k)
    for i in range(d // 2):
        m[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = blocks[i]
    return m


def gram(pe: ArrayLike) -> NDArray[np.float64]:
    """Gram matrix ``G = PE @ PE.T``: every pair of positions' dot product.

    Examples
    --------
    >>> g = gram(sinusoidal_pe(np.arange(4), 32))
    >>> float(g[0, 0])
    16.0
    """
    a = np.asarray(pe, dtype=np.float64)
    return a @ a.T


def relative_profile(k: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    """``g(k) = sum_i cos(w_i k)``: the dot product of two positions k apart.

    For the sinusoidal table ``PE(m) . PE(m+k) = g(k)`` whatever m is.

    Examples
    --------
    >>> float(relative_profile(0, 32))
    16.0
    """
    kk = np.asarray(k, dtype=np.float64)
    return np.cos(np.multiply.outer(kk, frequencies(d, base))).sum(axis=-1)


@functools.cache  # a figure read at every plan: 100000 distances summed over d/2 planes
def half_point(d: int, base: float = 10000.0, limit: int = 100000) -> int:
    """The first whole distance k > 0 at which ``g(k) <= g(0) / 2``.

    Examples
    --------
    >>> half_point(32)
    16
    """
    ks = np.arange(1, limit + 1)
    below = np.nonzero(relative_profile(ks, d, base) <= d / 4.0)[0]
    if below.size == 0:
        raise ValueError(f"g(k) stays above half within {limit} positions")
    return int(ks[below[0]])


def learned_table(max_len: int, d: int, seed: int = 0, std: float = 0.02) -> NDArray[np.float64]:
    """A learned position table before training: one row per seat, random normal entries.

    BERT and GPT-2 start their tables like this (std 0.02) and train them with the
    model. Deterministic for a given seed. Its length is fixed: position
    ``max_len`` has no row.

    Examples
    --------
    >>> t = learned_table(512, 8, seed=1)
    >>> t.shape, bool(np.array_equal(t, learned_table(512, 8, seed=1)))
    ((512, 8), True)
    """
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, std, size=(max_len, d))


def raw_index_encoding(positions: ArrayLike, d: int) -> NDArray[np.float64]:
    """Failing encoding 1: write the seat number itself into every dimension.

    Unbounded: seat 5000 adds 5000 to every entry, swamping word vectors of size ~1
    (breaks requirement 2).

    Examples
    --------
    >>> raw_index_encoding([0, 3], 2)
    array([[0., 0.],
           [3., 3.]])
    """
    p = np.asarray(positions, dtype=np.float64)
    return np.repeat(p[..., None], d, axis=-1)


def length_normalised_encoding(positions: ArrayLike, length: int, d: int) -> NDArray[np.float64]:
    """Failing encoding 2: the seat number divided by the sentence length, ``p / length``.

    Values stay in [0, 1), but the same seat gets a different code in sentences of
    different lengths, and one step right is ``1/length`` long, so "one seat to
    the right" looks different in every sentence (breaks requirement 3).

    Examples
    --------
    >>> length_normalised_encoding([2], 4, 1), length_normalised_encoding([2], 8, 1)
    (array([[0.5]]), array([[0.25]]))
    """
    if length <= 0:
        raise ValueError(f"length must be positive, got {length}")
    p = np.asarray(positions, dtype=np.float64)
    return np.repeat((p / length)[..., None], d, axis=-1)
