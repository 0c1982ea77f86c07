"""位置是几，就转几步: one word's q at seats 0–3 turns by seat·θ and keeps its length (k turns the same way)."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arc,
    Circle,
    Create,
    DashedVMobject,
    FadeIn,
    FadeOut,
    Line,
    VGroup,
)

import mathcore
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import TurningArrow
from scenes.mobjects.colored_text import colored, rich

CENTER = np.array([-3.3, 0.15, 0.0])
SCALE = 2.0
PANEL_X = 3.2


class RopeTurnsBySeat(NarratedScene):
    """why → rule (m → m·θ) → seats (0, 1, 2, 3 fan out) → same_word (angles) → length (circle).

    The q is ``figures.ROPE_PAIR_Q`` and θ is ``figures.THETA_DEG``; every
    arrow's tip is :func:`mathcore.rope_2d` ``(v, seat, θ)``.
    """

    SCENE_IDS = ("rope_turns",)
    CUES = ("why", "rule", "seats", "same_word", "length")
    SEATS = (0, 1, 2, 3)

    def construct(self) -> None:
        v = np.asarray(figures.ROPE_PAIR_Q, dtype=float)
        theta = float(np.radians(figures.THETA_DEG))
        radius = SCALE * float(np.linalg.norm(v))
        header = self.header()
        # the axes stop just past the circle, so the seat labels outside it sit clear of them
        axes = VGroup(
            Line(CENTER + 2.45 * LEFT, CENTER + 2.45 * RIGHT, color=theme.MUTED, stroke_width=2),
            Line(CENTER + 2.1 * DOWN, CENTER + 2.4 * UP, color=theme.MUTED, stroke_width=2),
        )
        circle = DashedVMobject(Circle(radius=radius, color=theme.MUTED, stroke_width=2).move_to(CENTER), num_dashes=48)
        arrows = [TurningArrow(v, scale=SCALE, center=CENTER, color=theme.Q) for _ in self.SEATS]  # q: theme.Q
        seat_labels = [theme.small_text(f"{p}", color=theme.POSITION) for p in self.SEATS]

        def place_label(i: int) -> None:
            tip = arrows[i].tip_point()
            u = (tip - CENTER) / np.linalg.norm(tip - CENTER)
            seat_labels[i].move_to(tip + 0.42 * u)

        for i, lab in enumerate(seat_labels):
            lab.add_updater(lambda m, i=i: place_label(i))
            place_label(i)
        word = VGroup(
            theme.small_text("一个词的 q", color=theme.Q), theme.small_text(figures.fmt_point(v), color=theme.TEXT)
        ).arrange(DOWN, buff=0.1)
        word.text = word[0].text + word[1].text
        lines = VGroup(
            *[
                theme.small_text(
                    f"位置 {p}：转 {p} × {figures.THETA_DEG:g}° = {np.degrees(p * theta):g}°", color=theme.TEXT
                )
                for p in self.SEATS
            ]
        )
        for line, p in zip(lines, self.SEATS):
            line[: len(f"位置{p}")].set_color(theme.POSITION)  # the seat in its colour
            line[len(f"位置{p}：转") :].set_color(theme.ANGLE)  # the angle in its colour
        length_text = figures.fmt_fixed(float(np.linalg.norm(v)))
        same = theme.body_text(f"长度都是 {length_text}，一点没变", color=theme.TEXT)
        same[len("长度都是") : len("长度都是") + len(length_text)].set_color(theme.HIGHLIGHT)
        self.watch(
            "arrows",
            lambda: {
                "seats": list(self.SEATS),
                "v": v.tolist(),
                "theta": theta,
                "phi": [float(a.phi.get_value()) for a in arrows],
                "tips": [a.probe_values()["tip"] for a in arrows],
                "on_screen": [self.on_screen(a) for a in arrows],
                "starts": [a.arrow.get_start().tolist() for a in arrows],
                "ends": [a.arrow.get_end().tolist() for a in arrows],
                "lines": [m.text for m in lines],
                "lines_on_screen": [self.on_screen(m) for m in lines],
                "word": word.text,
                "word_on_screen": self.on_screen(word),
                "same": same.text,
                "same_on_screen": self.on_screen(same),
            },
        )

        # -- why: a turning pointer that keeps its length -> make position an angle ----
        with self.cue("why") as cue:
            have = VGroup(
                theme.body_text("已有：一根会转的指针", color=theme.TEXT),
                theme.body_text("旋转不改长度", color=theme.TEXT),
            )
            have.arrange(DOWN, aligned_edge=LEFT, buff=0.35).move_to(np.array([PANEL_X, 1.5, 0.0]))
            idea = rich(
                colored("位置", theme.POSITION) + " → " + colored("角度", theme.ANGLE), font_size=theme.SIZE_TITLE
            )
            idea.next_to(have, DOWN, buff=0.7)
            word.move_to(CENTER + np.array([-1.2, -1.05, 0.0]))  # inside the circle, where no arrow goes
            self.play(FadeIn(header), Create(axes), Create(circle), run_time=cue.share(0.25))
            self.play(FadeIn(arrows[0]), FadeIn(word), FadeIn(have[0]), run_time=cue.share(0.25))
            self.play(FadeIn(have[1]), run_time=cue.share(0.2))
            self.play(FadeIn(idea, shift=0.2 * UP), run_time=cue.remaining())

        # -- rule: seat m turns by m·θ ------------------------------------------------
        with self.cue("rule") as cue:
            rule = rich(
                "位置 " + colored("$m$", theme.POSITION) + " 上的 q → 转 " + colored("$m$ 个 $theta$", theme.ANGLE),
                font_size=theme.SIZE_BODY,
            )
            rule.move_to(np.array([PANEL_X, 2.6, 0.0]))
            theta_note = rich(
                colored(f"$theta = {figures.THETA_DEG:g} degree$", theme.ANGLE), font_size=theme.SIZE_SMALL
            ).next_to(rule, DOWN, buff=0.25)
            self.play(FadeOut(have), FadeOut(idea), FadeOut(word), FadeIn(rule), run_time=cue.share(0.35))
            self.play(FadeIn(theta_note), FadeIn(seat_labels[0]), run_time=cue.remaining())

        # -- seats: 0 stays, 1 turns θ, 2 turns 2θ, 3 turns 3θ -------------------------
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.2).next_to(theta_note, DOWN, buff=0.35)
        lines.set_x(PANEL_X)
        with self.cue("seats") as cue:
            self.play(FadeIn(lines[0]), run_time=cue.share(0.15))
            for k in range(1, len(self.SEATS)):
                arrows[k].set_angle(arrows[k - 1].phi.get_value())
                self.add(arrows[k], seat_labels[k])
                frames = max(1, cue.frames_remaining() // (len(self.SEATS) - k))
                self.play_frames(arrows[k].make_turn_animation(self.SEATS[k] * theta), FadeIn(lines[k]), frames=frames)

        # -- same_word: the arcs count θs; the direction tells the seat --------------
        base_angle = float(np.arctan2(v[1], v[0]))
        arcs = VGroup(
            *[
                Arc(
                    radius=0.55 + 0.22 * k,
                    start_angle=base_angle,
                    angle=self.SEATS[k] * theta,
                    arc_center=CENTER,
                    color=theme.ANGLE,
                    stroke_width=4,
                )
                for k in range(1, len(self.SEATS))
            ]
        )
        with self.cue("same_word") as cue:
            said = theme.body_text("位置是几，弧就有几个 θ", color=theme.TEXT)
            said.next_to(lines, DOWN, buff=0.3).set_x(PANEL_X)
            self.play(FadeIn(said), run_time=cue.share(0.3))
            self.play(*[Create(a) for a in arcs], run_time=cue.share(0.35))
            # M1 (review 7): one turned arrow alone does not tell its seat (its start is unknown, and
            # seats a full turn apart point the same way); the next scene compares two
            hidden = rich("只看一支箭头：" + colored("读不出位置", theme.ANGLE))
            hidden.next_to(said, DOWN, buff=0.2).set_x(PANEL_X)
            self.play(FadeIn(hidden), run_time=cue.remaining())
            self.probe("same_word_note", shown=[said.text, hidden.typst_code], on_screen=self.on_screen(hidden))

        # -- length: every tip on the same circle -------------------------------------------
        turned = [mathcore.rope_2d(v, p, theta) for p in self.SEATS]
        lengths = [float(np.linalg.norm(t)) for t in turned]
        self.probe("lengths", seats=list(self.SEATS), lengths=lengths, turned=[t.tolist() for t in turned])
        with self.cue("length") as cue:
            ring = Circle(radius=radius, color=theme.HIGHLIGHT, stroke_width=5).move_to(CENTER)
            same.move_to(hidden).align_to(hidden, LEFT)
            self.play(FadeOut(hidden), FadeOut(arcs), Create(ring), run_time=cue.share(0.45))
            self.play(FadeIn(same), run_time=cue.remaining())
            self.probe("length_text", shown=length_text)
