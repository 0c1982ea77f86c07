"""Scores after the projections: the clock row added to x, against RoPE turning q and k.

An attention head scores two words with ``q = W_Q a`` and ``k = W_K b``, where ``a`` and ``b`` are what
enters the head. With the additive clock row (the 2017 encoding) a word x at seat m enters as
``x + PE(m)``, so the score is ``(x + PE(m))ᵀ W_Qᵀ W_K (x + PE(n))``: the readings pass through the two
matrices before the dot product. RoPE computes ``q = W_Q x`` and ``k = W_K x`` first and turns them
afterwards, by m and n steps of the head's own speeds, so its score is ``(R_m W_Q x) · (R_n W_K x)``.

The readings' dot product ``PE(m) · PE(n)`` depends only on n − m (:func:`mathcore.relative_profile`); the
additive score does not, because W_Q and W_K stand between the turned readings and the dot product (and the
word x is not turned at all); the RoPE score does again, for any W_Q and W_K, because the turn comes last.

The matrices and the word are drawn from one seeded generator (:data:`SEED`), in this order: W_Q, then W_K
(each ``d_head × d_model``, standard normal entries over √d_model, so ``W x`` is about as long as ``x``),
then the word x (``d_model`` standard normal entries, the size of lesson 2's word vectors).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mathcore.encodings import sinusoidal_pe
from mathcore.rope import rope

SEED = 0  # the one generator behind W_Q, W_K and the word x
D_MODEL = 32  # the word vector and the clock row (the Gram stripes' d)
D_HEAD = 8  # q and k: four planes, RoPE's speeds 1, 0.1, 0.01, 0.001


@dataclass(frozen=True)
class Head:
    """One attention head's two projections and the word that sits at every seat."""

    wq: NDArray[np.float64]  # d_head × d_model
    wk: NDArray[np.float64]  # d_head × d_model
    x: NDArray[np.float64]  # d_model


def seeded_head(d_model: int = D_MODEL, d_head: int = D_HEAD, seed: int = SEED) -> Head:
    """W_Q, W_K and a word x, drawn in that order from ``default_rng(seed)``.

    Examples
    --------
    >>> h = seeded_head()
    >>> h.wq.shape, h.wk.shape, h.x.shape
    ((8, 32), (8, 32), (32,))
    >>> bool(np.array_equal(h.wq, seeded_head().wq))
    True
    """
    rng = np.random.default_rng(seed)
    wq = rng.normal(size=(d_head, d_model)) / np.sqrt(d_model)
    wk = rng.normal(size=(d_head, d_model)) / np.sqrt(d_model)
    x = rng.normal(size=d_model)
    return Head(wq, wk, x)


def reading_dot(m: float, n: float, d: int = D_MODEL, base: float = 10000.0) -> float:
    """``PE(m) · PE(n)``: the readings' own dot product (no projection, no word).

    Examples
    --------
    >>> round(reading_dot(0, 3), 2) == round(reading_dot(10, 13), 2) == 12.27
    True
    """
    pe = sinusoidal_pe([m, n], d, base)
    return float(pe[0] @ pe[1])


def additive_score(head: Head, m: float, n: float, base: float = 10000.0, word: ArrayLike | None = None) -> float:
    """``(W_Q (x + PE(m))) · (W_K (x + PE(n)))``: the word at seats m and n, the clock row added before the
    projections. ``word`` replaces the head's x (``np.zeros(d_model)`` leaves the readings alone).

    Examples
    --------
    >>> h = seeded_head()
    >>> a, b = additive_score(h, 0, 3), additive_score(h, 10, 13)
    >>> bool(abs(a - b) > 0.1)
    True
    """
    x = head.x if word is None else np.asarray(word, dtype=np.float64)
    pe = sinusoidal_pe([m, n], x.shape[-1], base)
    return float((head.wq @ (x + pe[0])) @ (head.wk @ (x + pe[1])))


def rope_score_after(head: Head, m: float, n: float, base: float = 10000.0) -> float:
    """``(R_m W_Q x) · (R_n W_K x)``: q and k computed from the word, then turned by RoPE at seats m and n
    (interleaved pairs, the head's own speeds ``base ** (-2i / d_head)``).

    Examples
    --------
    >>> h = seeded_head()
    >>> bool(abs(rope_score_after(h, 0, 3) - rope_score_after(h, 10, 13)) < 1e-12)
    True
    """
    q = rope((head.wq @ head.x)[None, :], [m], base)[0]
    k = rope((head.wk @ head.x)[None, :], [n], base)[0]
    return float(q @ k)


@dataclass(frozen=True)
class StartTable:
    """The three schemes' scores at one distance, one column per start m (n = m + gap)."""

    starts: tuple[int, ...]
    gap: int
    readings: tuple[float, ...]  # PE(m) · PE(n)
    added: tuple[float, ...]  # the additive score after W_Q, W_K
    rope: tuple[float, ...]  # RoPE after W_Q, W_K

    def spread(self, row: str) -> float:
        """Largest minus smallest score of a row (``"readings"``, ``"added"`` or ``"rope"``)."""
        values = getattr(self, row)
        return float(max(values) - min(values))


def start_table(
    starts: tuple[int, ...] = (0, 2, 10, 20), gap: int = 3, head: Head | None = None, base: float = 10000.0
) -> StartTable:
    """The scores of the same word at seats m and m + gap, for each start m, under the three schemes.

    Examples
    --------
    >>> t = start_table()
    >>> t.spread("readings") < 1e-12, t.spread("added") > 1, t.spread("rope") < 1e-12
    (True, True, True)
    """
    h = seeded_head() if head is None else head
    return StartTable(
        starts=tuple(starts),
        gap=gap,
        readings=tuple(reading_dot(m, m + gap, h.x.shape[-1], base) for m in starts),
        added=tuple(additive_score(h, m, m + gap, base) for m in starts),
        rope=tuple(rope_score_after(h, m, m + gap, base) for m in starts),
    )
