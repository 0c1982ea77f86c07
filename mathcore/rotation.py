"""Plane rotations: the 2x2 matrix R(theta) and the unit-circle pointer."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray


def rotation(theta: ArrayLike) -> NDArray[np.float64]:
    """The rotation matrix R(theta) = [[cos, -sin], [sin, cos]].

    Parameters
    ----------
    theta : float or array of float
        Angle(s) in radians. An array of shape ``S`` gives shape ``S + (2, 2)``.

    Returns
    -------
    ndarray
        The rotation matrix or matrices, float64.

    Examples
    --------
    >>> import numpy as np
    >>> np.round(rotation(np.pi / 2) @ [1.0, 0.0], 12) + 0.0
    array([0., 1.])
    >>> rotation([0.0, np.pi]).shape
    (2, 2, 2)
    """
    t = np.asarray(theta, dtype=np.float64)
    c, s = np.cos(t), np.sin(t)
    return np.stack([np.stack([c, -s], axis=-1), np.stack([s, c], axis=-1)], axis=-2)


def rotate(vectors: ArrayLike, theta: ArrayLike) -> NDArray[np.float64]:
    """Rotate 2-D vectors (last axis of size 2) by theta, broadcasting.

    Examples
    --------
    >>> np.round(rotate([1.0, 0.0], np.pi), 12) + 0.0
    array([-1.,  0.])
    """
    v = np.asarray(vectors, dtype=np.float64)
    return np.einsum("...ij,...j->...i", rotation(theta), v)


def pointer_tip(theta: ArrayLike, r: float = 1.0) -> NDArray[np.float64]:
    """Tip of a pointer of length ``r`` turned ``theta`` from the positive x axis.

    It is ``r * (cos theta, sin theta)``: cos is the x reading, sin the y reading.

    Examples
    --------
    >>> np.round(pointer_tip(np.radians(30)), 4)
    array([0.866, 0.5  ])
    """
    t = np.asarray(theta, dtype=np.float64)
    return r * np.stack([np.cos(t), np.sin(t)], axis=-1)
