"""练习: three exercises, each posed, a thinking pause with a countdown, then worked with mathcore's numbers.

1. R(mθ)ᵀ R(nθ) = R((n − m)θ): the algebra of lesson 1's picture proof (turn both back by mθ), with the
   transpose (R(θ)ᵀ = R(−θ), shift_machine) and composition (rot_composition); checked at one of lesson 1's pairs.
2. R(90°)⁴: four quarter turns, in the head (turns add: 360°, one whole turn, so I) and then multiplied out
   (``mathcore.rotation_facts.rotation_power``; its distance from I is ``figures.r90_pow4_err``) while an
   arrow turns on a quarter per multiplication (review 4, P3: the rotation exercise of the source, restored).
3. |PE(n)| = √(d/2): does the position part grow and drown the word, and does it leave the content alone?

The countdown of ``exN_think`` covers the cue's pause (its frames after the speech) and
reads 0 on the cue's last frame; see :mod:`scenes.mobjects.think_timer`.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Circle, DashedVMobject, FadeIn, FadeOut, Line, ValueTracker, VGroup

from mathcore.rotation_facts import identity_error, pe_norms, relative_turn, relative_turn_error, rotation_power
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects.matrix_readout import MatrixReadout
from scenes.mobjects.sci_figure import sci_line, typst_sci
from scenes.mobjects.spin_arrow import SpinArrow
from scenes.mobjects.think_timer import ThinkTimer

TIMER_CENTER = np.array([5.3, 0.4, 0.0])
TITLE_Y = 2.55
WORK_X = -0.6
PLANE_CENTER = np.array([-4.6, -0.5, 0.0])
TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size


class Exercises(NarratedScene):
    """ex1 → ex1_think (countdown) → ex1_work → ex2 → ex2_think → ex2_work → ex3 → ex3_think → ex3_work."""

    SCENE_IDS = ("exercises",)
    CUES = ("ex1", "ex1_think", "ex1_work", "ex2", "ex2_think", "ex2_work", "ex3", "ex3_think", "ex3_work")
    EX1_THETA_DEG = figures.THETA_DEG  # the angle the worked numbers are shown for ...
    EX1_SEATS = figures.ROPE_PAIRS[1]  # ... and the seats m, n (one of lesson 1's pairs)
    EX2_TURN_DEG = 90.0  # exercise 2: this turn ...
    EX2_TIMES = 4  # ... this many times
    EX3_D = 512
    EX3_POSITIONS = (0, 7, 100, 5000)

    def construct(self) -> None:
        header = self.header()
        self.add(header)

        # -- exercise 1: R(mθ)ᵀ R(nθ) = R((n − m)θ), the algebra behind lesson 1's picture --------------------
        q1 = self._question("练习一", "证明：$R(m theta)^T R(n theta) = R((n - m) theta)$", typst=True)
        given = VGroup(
            theme.typst_text(
                "已知：$R(theta)^T = R(-theta)$", color=theme.TEXT, font_size=TYPST * (theme.SIZE_SMALL + 4)
            ),
            theme.typst_text(
                "转两次 = 一次转过两角之和：$R(alpha) R(beta) = R(alpha + beta)$",
                color=theme.TEXT,
                font_size=TYPST * (theme.SIZE_SMALL + 4),
            ),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        given.move_to(np.array([WORK_X, 1.25, 0.0]))
        with self.cue("ex1") as cue:
            self.play(FadeIn(q1), run_time=cue.share(0.3))
            self.play(FadeIn(given), run_time=cue.share(0.3))
        self._think("ex1_think")

        theta = float(np.radians(figures.THETA_DEG))
        m, n = self.EX1_SEATS
        product = relative_turn(m * theta, n * theta)
        err = relative_turn_error(m * theta, n * theta)
        steps1 = VGroup(
            theme.formula("R(m theta)^T R(n theta) = R(-m theta) R(n theta) = R((n - m) theta)", font_size=38),
            theme.formula(
                "(R(m theta) q) dot (R(n theta) k) = q^T R(m theta)^T R(n theta) k = q^T R((n - m) theta) k",
                font_size=38,
            ),
            theme.typst_text(
                "位置只剩 $n - m$ 这一项", color=theme.HIGHLIGHT, font_size=TYPST * (theme.SIZE_SMALL + 4)
            ),
        )
        steps1.arrange(DOWN, aligned_edge=LEFT, buff=0.25).move_to(np.array([WORK_X, 0.55, 0.0]))
        check1 = VGroup(
            theme.typst_text(
                f"实算：$m = {m}$，$n = {n}$，$theta = {self.EX1_THETA_DEG:g} degree$",
                color=theme.TEXT,
                font_size=TYPST * theme.SIZE_SMALL,
            ),
            MatrixReadout(
                product,
                decimals=2,
                name=f"R({m * self.EX1_THETA_DEG:g} degree)^T R({n * self.EX1_THETA_DEG:g} degree)",
                font_size=32,
            ),
            theme.typst_text(
                f"$= R({(n - m) * self.EX1_THETA_DEG:g} degree)$，偏差 ${typst_sci(figures.fmt_sci(err))}$",
                color=theme.HIGHLIGHT,
                font_size=TYPST * theme.SIZE_SMALL,
            ),
        )
        check1[1:].arrange(RIGHT, buff=0.3)
        check1[0].next_to(check1[1:], UP, buff=0.2).align_to(check1[1:], LEFT)
        check1.next_to(steps1, DOWN, buff=0.3).align_to(steps1, LEFT)
        self.probe(
            "ex1",
            m=m,
            n=n,
            theta=theta,
            product=product.tolist(),
            error=err,
            shown_matrix=check1[1].shown,
            shown=[check1[0].typst_code, check1[1].source, check1[2].typst_code],
            steps=[t.typst_code for t in steps1[:2]],
        )
        with self.cue("ex1_work") as cue:
            self.play(FadeOut(self.timer), FadeOut(given), run_time=cue.share(0.1))
            self.play(FadeIn(steps1[0], shift=0.15 * RIGHT), run_time=cue.share(0.25))
            self.play(FadeIn(steps1[1], shift=0.15 * RIGHT), FadeIn(steps1[2]), run_time=cue.share(0.3))
            self.play(FadeIn(check1), run_time=min(cue.remaining(), cue.share(0.15)))
        self.settle(steps1, check1)

        # -- exercise 2: four quarter turns, first in the head (turns add), then multiplied out ------------------
        q2 = self._question("练习二", "每回转 90°，几回才头一次回到原处？")
        ask2 = theme.formula("R(90°)^? v = v", font_size=44).move_to(np.array([WORK_X, 1.2, 0.0]))
        with self.cue("ex2") as cue:
            self.play(FadeOut(q1), FadeOut(steps1), FadeOut(check1), run_time=cue.share(0.15))
            self.play(FadeIn(q2), run_time=cue.share(0.3))
            self.play(FadeIn(ask2), run_time=cue.share(0.3))
        self._think("ex2_think")

        quarter = float(np.radians(self.EX2_TURN_DEG))
        turns = ValueTracker(0.0)
        plane = VGroup(
            Line(PLANE_CENTER + 1.6 * LEFT, PLANE_CENTER + 1.6 * RIGHT, color=theme.MUTED, stroke_width=2),
            Line(PLANE_CENTER + 1.6 * DOWN, PLANE_CENTER + 1.6 * UP, color=theme.MUTED, stroke_width=2),
            DashedVMobject(Circle(radius=1.25, color=theme.MUTED, stroke_width=2).move_to(PLANE_CENTER), num_dashes=36),
        )
        ghost = SpinArrow(
            (1.0, 0.0),
            lambda: 0.0,
            scale=1.25,
            center=PLANE_CENTER,
            color=theme.TEXT,
            opacity=theme.GHOST_OPACITY,
            live=False,
        )
        vec = SpinArrow((1.0, 0.0), turns.get_value, scale=1.25, center=PLANE_CENTER, color=theme.HIGHLIGHT)
        self.watch("ex2_vector", lambda: {**vec.probe_values(), "on_screen": self.on_screen(vec)})
        power = rotation_power(quarter, self.EX2_TIMES)
        err = identity_error(power)
        total = self.EX2_TURN_DEG * self.EX2_TIMES
        steps2 = VGroup(
            theme.formula(f"{self.EX2_TURN_DEG:g}° times {self.EX2_TIMES} = {total:g}°", font_size=38),
            theme.formula(f"R({self.EX2_TURN_DEG:g}°)^{self.EX2_TIMES} = R({total:g}°) = I", font_size=38),
            MatrixReadout(power, decimals=2, name=f'R({self.EX2_TURN_DEG:g}°)^{self.EX2_TIMES} "实算"', font_size=34),
            sci_line("和单位矩阵的偏差：", figures.fmt_sci(err), "（舍入误差）", color=theme.HIGHLIGHT),
        )
        steps2.arrange(DOWN, aligned_edge=LEFT, buff=0.3).move_to(np.array([1.3, -0.45, 0.0]))
        self.probe(
            "ex2",
            turn_deg=self.EX2_TURN_DEG,
            times=self.EX2_TIMES,
            power=power.tolist(),
            error=err,
            steps=[steps2[0].typst_code, steps2[1].typst_code],
            shown_error=steps2[3].typst_code,
            shown_matrix=steps2[2].shown,
        )
        with self.cue("ex2_work") as cue:
            # in the head first: four quarter turns add up to one whole turn
            self.play(FadeOut(self.timer), FadeOut(ask2), FadeIn(steps2[0]), run_time=cue.share(0.12))
            self.play(FadeIn(steps2[1]), run_time=cue.share(0.15))
            # then the machine: each multiplication turns the arrow on by a quarter, four times
            self.play(FadeIn(plane), FadeIn(ghost), FadeIn(vec), run_time=cue.share(0.08))
            for j in range(self.EX2_TIMES):
                self.play(turns.animate.set_value((j + 1) * quarter), run_time=cue.share(0.08))
            self.play(FadeIn(steps2[2]), run_time=cue.share(0.12))
            self.play(FadeIn(steps2[3]), run_time=min(cue.remaining(), cue.share(0.12)))
        self.settle(steps2)

        # -- exercise 3: |PE(n)| = sqrt(d/2) ------------------------------------------------------------------
        q3 = self._question(
            "练习三",
            "交叉的两项，和词义无关吗？",
            second="读数自己的长度，会随 n 变大吗？",
        )
        # K8 (review 11): the question starts from the expansion on screen, the cross terms first
        cross = theme.formula(
            '(x + "PE"(m)) dot (x + "PE"(n)) = x dot x + x dot "PE"(n) + "PE"(m) dot x + "PE"(m) dot "PE"(n)',
            font_size=34,
        )
        cross.move_to(np.array([0.0, 1.5, 0.0]))  # above the thinking timer (TIMER_CENTER, radius about 0.6)
        norm_formula = theme.formula('|"PE"(n)|^2 = sum_i (sin^2 omega_i n + cos^2 omega_i n) = d/2', font_size=36)
        with self.cue("ex3") as cue:
            self.play(*[FadeOut(m) for m in (q2, plane, ghost, vec, steps2)], run_time=cue.share(0.12))
            self.play(FadeIn(q3), run_time=cue.share(0.3))
            self.play(FadeIn(cross), run_time=cue.share(0.3))
        self._think("ex3_think")

        norms = pe_norms(list(self.EX3_POSITIONS), self.EX3_D)
        table = VGroup(
            *[
                theme.small_text(f"n = {n}：|PE(n)| = {figures.fmt_fixed(v)}", color=theme.TEXT)
                for n, v in zip(self.EX3_POSITIONS, norms)
            ]
        )
        table.arrange(DOWN, aligned_edge=LEFT, buff=0.16).move_to(np.array([-4.55, -1.25, 0.0]))
        d_note = theme.typst_text(
            f"$d = {self.EX3_D}$：$sqrt(d slash 2) = {figures.value('pe_norm_d512')}$",
            color=theme.TEXT,
            font_size=TYPST * theme.SIZE_SMALL,
        )
        d_note.next_to(table, UP, buff=0.3).align_to(table, LEFT)
        # what the constant norm shows (the position part never grows), and what it does not (no effect on
        # the scores): an added p changes every dot product through the cross terms
        answer = VGroup(
            theme.body_text(
                f"不会越排越大：{self.EX3_D} 维时长度恒为 {figures.value('pe_norm_d512')}", color=theme.HIGHLIGHT
            ),
            theme.small_text("会不会压过：和 x 的长度比（第二课第二条）", color=theme.TEXT),
            norm_formula,
            theme.small_text("交叉项和词有关：读数碰到了内容", color=theme.HIGHLIGHT),
        )
        answer.arrange(DOWN, aligned_edge=LEFT, buff=0.28)
        answer.next_to(np.array([-1.75, -0.75, 0.0]), RIGHT, buff=0)
        answer[3].next_to(cross, DOWN, buff=0.3)
        answer[:3].shift(max(0.0, answer[:3].get_top()[1] - answer[3].get_bottom()[1] + 0.25) * DOWN)
        self.probe(
            "ex3",
            d=self.EX3_D,
            positions=list(self.EX3_POSITIONS),
            norms=norms.tolist(),
            shown=[t.text for t in table],
            note=d_note.typst_code,
            answer=answer[0].text,
            question=[q3[1][0].text, q3[1][1].text],
        )
        with self.cue("ex3_work") as cue:
            # the voice's order: the cross terms first, then the length, then the comparison with x
            self.swap(self.timer, FadeIn(answer[3]), run_time=cue.share(0.15))
            self.play(FadeIn(answer[0]), FadeIn(answer[2]), run_time=cue.share(0.15))
            self.play(FadeIn(d_note), FadeIn(table, lag_ratio=0.3), run_time=cue.share(0.25))
            self.play(FadeIn(answer[1]), run_time=min(cue.remaining(), cue.share(0.15)))

    # -- helpers --------------------------------------------------------------------------------------
    def _question(self, label: str, text: str, typst: bool = False, second: str | None = None) -> VGroup:
        """The exercise's tag and its question on one line; ``second`` (plain text) goes on a line under it."""
        tag = theme.body_text(label, color=theme.HIGHLIGHT)
        make = theme.typst_text if typst else theme.body_text
        body = make(text, color=theme.TEXT, font_size=(TYPST if typst else 1) * (theme.SIZE_SMALL + 4))
        if second is not None:
            body = VGroup(body, theme.body_text(second, color=theme.TEXT, font_size=theme.SIZE_SMALL + 4))
            body.arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        group = VGroup(tag, body).arrange(RIGHT, buff=0.4, aligned_edge=UP)
        group.move_to(np.array([0.0, TITLE_Y, 0.0]))
        return group

    def _think(self, short_id: str) -> None:
        """The thinking pause: the timer shows the pause's whole seconds during the speech, then counts to 0."""
        with self.cue(short_id) as cue:
            pause = cue.end_frame - cue.speech_end_frame
            timer = ThinkTimer(pause, self.fps, center=TIMER_CENTER, caption="想一想")
            timer.follow(lambda: self.frame, cue.end_frame)
            self.timer = timer
            self.watch(
                short_id,
                lambda t=timer, c=cue: {**t.probe_values(), "end_frame": c.end_frame, "on_screen": self.on_screen(t)},
            )
            self.play_frames(FadeIn(timer), frames=max(1, min(cue.frames_remaining(), int(self.fps * 0.5))))
            cue.hold(to="cue")
