"""A sentence as a row of word chips that can be shuffled (a permutation moves chips between slots)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, ORIGIN, Animation, RoundedRectangle, VGroup

from scenes import theme


class WordChips(VGroup):
    """``words`` in rounded boxes on fixed slots, left to right.

    ``chips[i]`` is the chip of word ``i`` (it keeps its index when moved);
    ``order`` lists which word stands on each slot now.

    Parameters
    ----------
    words : sequence of str
    center : array
        Centre of the row.
    spacing : float
        Centre-to-centre distance of the slots.
    font_size : float
    color : str
        Text colour (the box is drawn in the same colour, dimmer).
    """

    def __init__(
        self,
        words: Sequence[str],
        *,
        center: np.ndarray = ORIGIN,
        spacing: float = 1.5,
        font_size: float = theme.SIZE_BODY,
        color: str = theme.TEXT,
    ) -> None:
        super().__init__()
        self.words = list(words)
        n = len(self.words)
        xs = (np.arange(n) - (n - 1) / 2) * spacing
        self.slots = [np.array(center, dtype=float) + np.array([x, 0.0, 0.0]) for x in xs]
        self.order = list(range(n))
        self.chips = VGroup()
        height = font_size / 48 * 0.9
        for word, slot in zip(self.words, self.slots):
            label = theme.body_text(word, color=color, font_size=font_size)
            box = RoundedRectangle(
                corner_radius=0.12,
                width=max(label.width + 0.3, 0.8 * spacing),
                height=height,
                stroke_color=color,
                stroke_width=2,
            )
            box.set_fill(theme.BACKGROUND, opacity=1).set_stroke(opacity=0.6)
            chip = VGroup(box, label.move_to(box)).move_to(slot)
            self.chips.add(chip)
        self.add(self.chips)

    def slot_of(self, word: int) -> int:
        """The slot word ``word`` stands on now."""
        return self.order.index(word)

    def seat_labels(self, *, start: int = 0, buff: float = 0.2, color: str = theme.POSITION) -> VGroup:
        """Seat numbers under the slots (``start``, ``start + 1`` …)."""
        return VGroup(
            *[
                theme.small_text(str(start + j), color=color).next_to(self.chips[0], DOWN, buff=buff).set_x(s[0])
                for j, s in enumerate(self.slots)
            ]
        )

    def shuffle_animations(
        self, perm: Sequence[int], *, followers: Sequence[VGroup] = (), path_arc: float = 0.9
    ) -> list[Animation]:
        """Reorder to ``[words[order[p]] for p in perm]``: slot j receives what stood on slot ``perm[j]``.

        ``followers`` are per-slot groups (one entry per slot, e.g. output columns) that move
        with the chip standing on their slot. Returns a list to play together (not an
        ``AnimationGroup``, whose wrapper group the scene would keep holding the chips).
        """
        perm = [int(p) for p in perm]
        if sorted(perm) != list(range(len(self.slots))):
            raise ValueError(f"not a permutation of {len(self.slots)} slots: {perm}")
        anims = []
        for j, src in enumerate(perm):
            shift = self.slots[j] - self.slots[src]
            anims.append(self.chips[self.order[src]].animate(path_arc=path_arc).shift(shift))
            for group in followers:
                anims.append(group[src].animate(path_arc=path_arc).shift(shift))
        self.order = [self.order[p] for p in perm]
        for group in followers:
            moved = [group[p] for p in perm]
            group.submobjects = moved
        return anims
