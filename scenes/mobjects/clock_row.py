"""A row of clocks: clock i turns w_i per position, so its hand sits at p·w_i."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, ORIGIN, RIGHT, UP, Animation, Circle, Dot, Line, ValueTracker, VGroup

import mathcore
from scenes import theme
from scenes.mobjects.readout import LabeledNumber
from scenes.mobjects.segment import place_segment


class TwoLines(VGroup):
    """Two short lines of small text, centred on each other; one text unit (``text`` is both lines)."""

    TEXT_UNIT = True

    def __init__(self, first: str, second: str, color: str = theme.MUTED, font_size: float = theme.SIZE_SMALL) -> None:
        super().__init__(
            theme.small_text(first, color=color, font_size=font_size),
            theme.small_text(second, color=color, font_size=font_size),
        )
        self.arrange(DOWN, buff=0.08)
        self.text = self[0].text + self[1].text


def format_wavelength(wl: float) -> str:
    """Positions per turn as the narration says them: 6.28 (2π), whole numbers up to 9999 (63, 628, 6283),
    then in 万 with one decimal (60611 → "6.1 万", as the voice says "约 6.1 万")."""
    if wl < 10:
        return f"{wl:.2f}"
    return f"{wl:.0f}" if wl < 1e4 else f"{wl / 1e4:.1f} 万"


def per_turn(wl: float, unit: str) -> str:
    """A clock's one-turn label: "≈6.28 个位置", "≈63 个座位", and "≈6.1 万个座位" (no space after 万)."""
    number = f"≈{format_wavelength(wl)}"
    return f"{number}{'' if number.endswith('万') else ' '}{unit}"


def format_speed(w: float) -> str:
    """Radians per position: 1, 0.1, 0.001, and 0.0001 for 1.04e-4 (two significant digits at most)."""
    return f"{float(f'{w:.2g}'):g}" if w >= 1e-3 else f"{w:.4f}"


class ClockRow(VGroup):
    """``len(indices)`` clocks of a d-dimensional sinusoidal encoding.

    Parameters
    ----------
    d, base : int, float
        The encoding; clock i turns ``mathcore.frequencies(d, base)[i]`` radians per position.
    indices : sequence of int, optional
        Which clocks to draw (all d/2 by default). For d = 512 a scene draws a few.
    radius, spacing : float
        Clock radius and centre-to-centre distance, in scene units.
    center : array
        Centre of the row.
    position : float
        Starting position p.
    unit : str
        What one position is called in the labels, with its measure word (个位置, 个座位 …):
        "一圈 ≈6.28 个位置", "每个位置转 1 弧度", "一圈 ≈6.1 万个座位".
    name : str
        What each clock is called above it, with its index: "钟 0" (the paper's clocks), "平面 0" (RoPE's planes).
    counter_label : str
        The label of the counter under the row ("位置 p =", "距离 n − m =").
    label_size : float
        Font size of the labels under the clocks (smaller where many clocks stand close).
    """

    def __init__(
        self,
        *,
        d: int = 8,
        base: float = 10000.0,
        indices: Sequence[int] | None = None,
        radius: float = 0.7,
        spacing: float = 2.2,
        center: np.ndarray = ORIGIN,
        position: float = 0.0,
        unit: str = "个位置",
        name: str = "钟",
        counter_label: str = "位置 p =",
        label_size: float = theme.SIZE_SMALL,
    ) -> None:
        super().__init__()
        self.d, self.base = d, base
        self.indices = list(range(d // 2)) if indices is None else list(indices)
        self.w = mathcore.frequencies(d, base)[self.indices]
        self.wavelength = mathcore.wavelengths(d, base)[self.indices]
        self.radius = radius
        self.position = ValueTracker(float(position))
        n = len(self.indices)
        xs = (np.arange(n) - (n - 1) / 2) * spacing
        self.centers = [np.array(center, dtype=float) + np.array([x, 0.0, 0.0]) for x in xs]
        self.faces = VGroup()
        self.hands = VGroup()
        self.names = VGroup()
        self.wavelength_labels = VGroup()
        self.speed_labels = VGroup()
        self.unit = unit
        for i, c in zip(self.indices, self.centers):
            face = VGroup(
                Circle(radius=radius, color=theme.MUTED, stroke_width=3).move_to(c),
                Dot(c, radius=0.05, color=theme.MUTED),
            )
            for k in range(4):  # quarter ticks
                a = k * np.pi / 2
                u = np.array([np.cos(a), np.sin(a), 0.0])
                face.add(Line(c + 0.82 * radius * u, c + radius * u, color=theme.MUTED, stroke_width=2))
            self.faces.add(face)
            self.hands.add(Line(c, c + radius * RIGHT, color=theme.ANGLE, stroke_width=6))
            self.names.add(theme.small_text(f"{name} {i}", color=theme.TEXT).next_to(face, UP, buff=0.15))
        for wl, w, face in zip(self.wavelength, self.w, self.faces):
            self.wavelength_labels.add(
                TwoLines("一圈", per_turn(wl, unit), font_size=label_size).next_to(face, DOWN, buff=0.15)
            )
            self.speed_labels.add(
                TwoLines(f"每{unit}转", f"{format_speed(w)} 弧度", color=theme.ANGLE, font_size=label_size).next_to(
                    face, DOWN, buff=0.15
                )
            )
        self.counter = LabeledNumber(counter_label, position, decimals=0, color=theme.POSITION)
        self.add(self.faces, self.hands, self.names)
        self.hands.add_updater(lambda m: self._sync())
        self.counter.add_updater(lambda m: m.set_value(float(np.round(self.p))))
        self._sync()

    @property
    def p(self) -> float:
        return float(self.position.get_value())

    def hand_angles(self) -> np.ndarray:
        """The angles mathcore gives the hands at the current position: p·w_i."""
        return self.p * self.w

    def _sync(self) -> None:
        for hand, c, a in zip(self.hands, self.centers, self.hand_angles()):
            place_segment(hand, c, c + 0.9 * self.radius * np.array([np.cos(a), np.sin(a), 0.0]))

    def set_position(self, p: float) -> "ClockRow":
        self.position.set_value(float(p))
        self._sync()
        self.counter.set_value(float(np.round(p)))
        return self

    def make_step_animation(self, to_position: float, **kwargs) -> Animation:
        """Move every hand from the current position to ``to_position``."""
        return self.position.animate(**kwargs).set_value(float(to_position))

    def sin_cos(self, position: float) -> np.ndarray:
        """The drawn clocks' two readings at ``position``: ``[[sin, cos], …]`` (the paper's PE(pos, 2i), PE(pos, 2i+1))."""
        pe = mathcore.sinusoidal_pe([float(position)], self.d, self.base)[0]
        return np.array([[pe[2 * i], pe[2 * i + 1]] for i in self.indices])

    def readings(self, positions: Sequence[float]) -> np.ndarray:
        """Hand angles in degrees in [0, 360) for each position (rows) and clock (columns)."""
        ang = np.multiply.outer(np.asarray(positions, dtype=float), self.w)
        return np.degrees(np.mod(ang, 2 * np.pi))

    def drawn(self) -> dict:
        """Raw points of the hands, and the labels as shown: for label-equals-drawing tests."""
        return {
            "hand_starts": [h.get_start().tolist() for h in self.hands],
            "hand_ends": [h.get_end().tolist() for h in self.hands],
            "counter_text": self.counter.shown_text(),
            "speed_texts": [t.text for t in self.speed_labels],
            "wavelength_texts": [t.text for t in self.wavelength_labels],
        }

    def probe_values(self) -> dict:
        drawn = []
        for hand in self.hands:
            v = hand.get_end() - hand.get_start()
            drawn.append(float(np.arctan2(v[1], v[0])))
        return {"p": self.p, "w": self.w.tolist(), "hand_angles": drawn, "counter": self.counter.get_value()}
