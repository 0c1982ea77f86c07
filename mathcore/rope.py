"""Rotary position embedding (RoPE): turn q and k by an angle proportional to their seat."""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mathcore.encodings import frequencies
from mathcore.rotation import rotate


def rope(
    x: ArrayLike,
    positions: ArrayLike,
    base: float = 10000.0,
    pairing: Literal["interleaved", "half"] = "interleaved",
) -> NDArray[np.float64]:
    """Rotate each pair of coordinates of ``x`` by ``p * w_i``.

    Parameters
    ----------
    x : array, shape (..., n, d)
        One vector per position (rows), d even.
    positions : array, shape (n,)
        The seat of each row.
    base : float
        Frequency base; ``w_i = base ** (-2i/d)``.
    pairing : {"interleaved", "half"}
        ``"interleaved"`` pairs (x[2i], x[2i+1]) (the RoFormer layout);
        ``"half"`` pairs (x[i], x[i + d/2]) (the GPT-NeoX / LLaMA layout).

    Examples
    --------
    >>> np.round(rope([[1.0, 0.0]], [3], base=1.0), 4)   # w_0 = 1, turned by 3 rad
    array([[-0.99  ,  0.1411]])
    """
    a = np.asarray(x, dtype=np.float64)
    d = a.shape[-1]
    ang = np.multiply.outer(np.asarray(positions, dtype=np.float64), frequencies(d, base))
    c, s = np.cos(ang), np.sin(ang)
    out = np.empty_like(a)
    if pairing == "interleaved":
        x0, x1 = a[..., 0::2], a[..., 1::2]
        out[..., 0::2] = x0 * c - x1 * s
        out[..., 1::2] = x0 * s + x1 * c
    elif pairing == "half":
        h = d // 2
        x0, x1 = a[..., :h], a[..., h:]
        out[..., :h] = x0 * c - x1 * s
        out[..., h:] = x0 * s + x1 * c
    else:
        raise ValueError(f"pairing must be 'interleaved' or 'half', got {pairing!r}")
    return out


def rope_2d(x: ArrayLike, position: ArrayLike, theta: float) -> NDArray[np.float64]:
    """The 2-D RoPE of the lessons: a 2-vector at seat p turned by ``p * theta``.

    Examples
    --------
    >>> np.round(rope_2d([1.0, 0.0], 3, np.radians(30)), 12) + 0.0
    array([0., 1.])
    """
    return rotate(x, np.asarray(position, dtype=np.float64) * theta)


def rope_score(q: ArrayLike, k: ArrayLike, m: float, n: float, theta: float) -> float:
    """Dot product of q turned to seat m and k turned to seat n (2-D, one speed theta).

    It equals ``q . R((n - m) theta) k``: only the distance n - m matters.

    Examples
    --------
    >>> a = rope_score([1, 0], [1, 0], 0, 3, np.radians(30))
    >>> b = rope_score([1, 0], [1, 0], 10, 13, np.radians(30))
    >>> bool(abs(a - b) < 1e-12), round(a, 6)
    (True, 0.0)
    """
    return float(np.dot(rope_2d(q, m, theta), rope_2d(k, n, theta)))


def rope_scores(
    q: ArrayLike,
    k: ArrayLike,
    offsets: ArrayLike,
    base: float = 10000.0,
    m: float = 0.0,
    pairing: Literal["interleaved", "half"] = "interleaved",
) -> NDArray[np.float64]:
    """Score of q at seat m against k at seat m + offset, for each offset (d-dimensional).

    Examples
    --------
    >>> q = np.ones(8); s = rope_scores(q, q, [0, 1, 2])
    >>> float(s[0])
    8.0
    """
    qq = np.asarray(q, dtype=np.float64)
    kk = np.asarray(k, dtype=np.float64)
    offs = np.asarray(offsets, dtype=np.float64)
    qr = rope(qq[None, :], [m], base, pairing)[0]
    kr = rope(np.broadcast_to(kk, offs.shape + kk.shape), m + offs, base, pairing)
    return kr @ qr
