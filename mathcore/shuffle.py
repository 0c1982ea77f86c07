"""The shuffle experiment behind ``checks.t1_permutation``: its inputs and outputs, for drawing.

``checks.t1_permutation`` measures one number; a scene that *shows* the experiment
needs the words' vectors, the shuffle and the outputs before and after. They are
produced here from the same seeded source, so the picture is the measured experiment.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from mathcore.attention import attention
from mathcore.checks import SEED


def t1_inputs(seed: int = SEED, n: int = 6, d: int = 8) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The word vectors ``x`` (n x d) and the shuffle ``perm`` that ``t1_permutation`` uses.

    Examples
    --------
    >>> from mathcore.attention import permutation_error
    >>> from mathcore.checks import t1_permutation
    >>> x, perm = t1_inputs()
    >>> x.shape, sorted(perm.tolist()) == list(range(6))
    ((6, 8), True)
    >>> permutation_error(x, perm) == t1_permutation()
    True
    """
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    perm = rng.permutation(n)
    return x, perm


def self_attention(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """Self-attention without positions: ``attention(x, x, x)``, one output row per word.

    Examples
    --------
    >>> x, perm = t1_inputs()
    >>> bool(np.allclose(self_attention(x[perm]), self_attention(x)[perm]))
    True
    """
    return attention(x, x, x)
