"""A sentence as a row of word boxes that can be shuffled into a new order."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import ORIGIN, RIGHT, AnimationGroup, RoundedRectangle, VGroup

from scenes import theme


class TokenRow(VGroup):
    """``words`` in equal rounded boxes, ``spacing`` apart, centred on ``center``.

    ``tokens[i]`` is the box of ``words[i]`` and keeps that index whatever order
    the row is shuffled into; :meth:`order` says which word sits in each slot.
    """

    def __init__(
        self,
        words: Sequence[str],
        *,
        center: np.ndarray = ORIGIN,
        spacing: float | None = None,
        font_size: float = theme.SIZE_BODY,
        color: str = theme.TEXT,
        box_color: str = theme.MUTED,
    ) -> None:
        super().__init__()
        self.words = list(words)
        labels = [theme.body_text(w, color=color, font_size=font_size) for w in self.words]
        width = max(l.width for l in labels) + 0.4
        height = max(l.height for l in labels) + 0.3
        gap = width + 0.25 if spacing is None else spacing
        n = len(self.words)
        self.slots = [np.array(center, dtype=float) + (i - (n - 1) / 2) * gap * RIGHT for i in range(n)]
        self.tokens = VGroup()
        for label, slot in zip(labels, self.slots):
            box = RoundedRectangle(width=width, height=height, corner_radius=0.12, color=box_color, stroke_width=2)
            box.move_to(slot)
            label.move_to(slot)
            self.tokens.add(VGroup(box, label))
        self._order = list(range(n))
        self.add(self.tokens)

    def order(self) -> list[int]:
        """``order()[slot]`` is the index (in ``words``) of the word drawn in that slot."""
        return list(self._order)

    def shown_words(self) -> list[str]:
        return [self.words[i] for i in self._order]

    def make_reorder_animation(self, perm: Sequence[int], arc: float = 0.9) -> AnimationGroup:
        """Move the words so slot s holds ``words[perm[s]]`` (new sentence = ``words[perm]``)."""
        anims = []
        for s, i in enumerate(perm):
            anims.append(self.tokens[i].animate(path_arc=arc).move_to(self.slots[s]))
        self._order = [int(i) for i in perm]
        return AnimationGroup(*anims)
