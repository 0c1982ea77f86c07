"""Words over their attention outputs: shuffle the words and the outputs only move along.

The outputs are :func:`mathcore.shuffle.self_attention` of the word vectors (attention
without positions), drawn as one grey heat strip per word under its chip.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import ORIGIN, Animation, VGroup

from mathcore.shuffle import self_attention
from scenes import theme
from scenes.mobjects.heat_map import HeatMap
from scenes.mobjects.word_chips import WordChips


class ShuffleDemo(VGroup):
    """``words`` as chips, each with the strip of its output vector below it.

    Parameters
    ----------
    words : sequence of str
        One per row of ``x``.
    x : array (n, d)
        The words' vectors.
    center : array
        Centre of the chip row (the strips hang below it).
    spacing, cell : float
        Slot spacing and strip cell size.
    """

    def __init__(
        self,
        words: Sequence[str],
        x: np.ndarray,
        *,
        center: np.ndarray = ORIGIN,
        spacing: float = 1.0,
        cell: float = 0.2,
        font_size: float = theme.SIZE_SMALL,
    ) -> None:
        super().__init__()
        self.x = np.asarray(x, dtype=float)
        if len(words) != self.x.shape[0]:
            raise ValueError(f"{len(words)} words for {self.x.shape[0]} vectors")
        self.outputs = self_attention(self.x)
        self.limit = float(np.abs(self.outputs).max())
        self.cell = cell
        self.chips = WordChips(words, center=center, spacing=spacing, font_size=font_size)
        self.columns = VGroup(*[self._strip(self.outputs[i], slot) for i, slot in enumerate(self.chips.slots)])
        self.add(self.chips, self.columns)

    def _strip(self, values: np.ndarray, slot: np.ndarray) -> HeatMap:
        top = self.chips.chips[0].get_bottom()[1] - 0.15
        d = len(values)
        center = np.array([slot[0], top - d * self.cell / 2, 0.0])
        return HeatMap(
            np.asarray(values)[:, None],
            cell=self.cell,
            vmin=-self.limit,
            vmax=self.limit,
            low_color=theme.BACKGROUND,
            high_color=theme.TEXT,
            center=center,
        )

    @property
    def order(self) -> list[int]:
        """Which word stands on each slot now."""
        return list(self.chips.order)

    def shuffle_animations(self, perm: Sequence[int]) -> list[Animation]:
        """Shuffle the words; each output strip travels with its word, unchanged (play them together)."""
        return self.chips.shuffle_animations(perm, followers=[self.columns])

    def recomputed(self) -> VGroup:
        """Strips of attention recomputed on the words in their current order, one per slot."""
        out = self_attention(self.x[self.order])
        return VGroup(*[self._strip(out[j], slot) for j, slot in enumerate(self.chips.slots)])

    def probe_values(self) -> dict:
        """The strips as drawn (values per slot) and attention recomputed on the shown order."""
        shown = [col.values[:, 0].tolist() for col in self.columns]
        slot_x = [float(col.cells[0].get_center()[0]) for col in self.columns]  # one cell wide: its x is the strip's
        return {
            "order": self.order,
            "shown": shown,
            "slot_x": slot_x,
            "slots": [float(s[0]) for s in self.chips.slots],
            "recomputed": self_attention(self.x[self.order]).tolist(),
        }
