"""The course's math, in numpy only.

Every number a scene draws or a narration line quotes comes from here. This
package never imports manim, so it can be tested and used without rendering.

Conventions
-----------
- Angles are in radians.
- A position-encoding table has one row per position. Within each pair of
  columns the sine comes first: ``PE[p, 2i] = sin(p w_i)``, ``PE[p, 2i+1] = cos(p w_i)``
  with ``w_i = base ** (-2i/d)``.
"""

from mathcore import checks
from mathcore.attention import attention, permutation_error, softmax
from mathcore.encodings import (
    frequencies,
    gram,
    half_point,
    learned_table,
    length_normalised_encoding,
    raw_index_encoding,
    relative_profile,
    shift_matrix,
    sinusoidal_pe,
    wavelengths,
)
from mathcore.rope import rope, rope_2d, rope_score, rope_scores
from mathcore.rotation import pointer_tip, rotate, rotation

__all__ = [
    "rotation",
    "pointer_tip",
    "rotate",
    "frequencies",
    "wavelengths",
    "sinusoidal_pe",
    "shift_matrix",
    "gram",
    "relative_profile",
    "half_point",
    "learned_table",
    "raw_index_encoding",
    "length_normalised_encoding",
    "rope",
    "rope_2d",
    "rope_score",
    "rope_scores",
    "softmax",
    "attention",
    "permutation_error",
    "checks",
]
