"""练习: three exercises, each posed, a thinking pause with a countdown, then worked with mathcore's numbers.

1. R(mθ)ᵀ R(nθ) = R((n − m)θ): the algebra of lesson 1's picture proof (turn both back by mθ), with the
   transpose (R(θ)ᵀ = R(−θ), shift_machine) and composition (rot_composition); checked at one of lesson 1's pairs.
2. k starting φ ahead of q, three seats after q or three before: the scores agree only when sin φ = 0; lesson 1's
   pair (φ = 20°) and lesson 2's aligned arrows (φ = 0°) from ``figures.before_after_scores``.
3. |PE(n)| = √(d/2): how much the clock row crowds the word.

The countdown of ``exN_think`` covers the cue's pause (its frames after the speech) and
reads 0 on the cue's last frame; see :mod:`scenes.mobjects.think_timer`.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, FadeIn, FadeOut, VGroup

from mathcore.rotation_facts import pe_norms, relative_turn, relative_turn_error
from mathcore.scores import angle_between
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects.matrix_readout import MatrixReadout
from scenes.mobjects.sci_figure import typst_sci
from scenes.mobjects.think_timer import ThinkTimer

TIMER_CENTER = np.array([5.3, 0.4, 0.0])
TITLE_Y = 2.55
WORK_X = -0.6
PLANE_CENTER = np.array([-4.6, -0.5, 0.0])
TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
EX2_LEFT = -6.2  # exercise 2's worked lines and its table start here
EX2_GRID_Y = -1.0  # the table's head row; its rows go down from here
EX2_COLS = (1.4, 3.2)  # after, before


class Exercises(NarratedScene):
    """ex1 → ex1_think (countdown) → ex1_work → ex2 → ex2_think → ex2_work → ex3 → ex3_think → ex3_work."""

    SCENE_IDS = ("exercises",)
    CUES = ("ex1", "ex1_think", "ex1_work", "ex2", "ex2_think", "ex2_work", "ex3", "ex3_think", "ex3_work")
    EX1_THETA_DEG = figures.THETA_DEG  # the angle the worked numbers are shown for ...
    EX1_SEATS = figures.ROPE_PAIRS[1]  # ... and the seats m, n (one of lesson 1's pairs)
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
                "拨两下等于拨一下：$R(alpha) R(beta) = R(alpha + beta)$",
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
            theme.typst_text("只看 $n - m$", color=theme.HIGHLIGHT, font_size=TYPST * (theme.SIZE_SMALL + 4)),
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

        # -- exercise 2: k after q or before it: when do the two scores agree? -----------------------------
        q2 = self._question("练习二", "k 起初比 q 多偏一个角 φ，θ = 30°")
        ask2 = theme.body_text("k 在 q 后面 3 个位置、前面 3 个位置：分数什么时候一样？", color=theme.TEXT)
        ask2.move_to(np.array([0.0, 1.6, 0.0]))
        with self.cue("ex2") as cue:
            self.play(FadeOut(q1), FadeOut(steps1), FadeOut(check1), run_time=cue.share(0.15))
            self.play(FadeIn(q2), run_time=cue.share(0.3))
            self.play(FadeIn(ask2), run_time=cue.share(0.3))
        self._think("ex2_think")

        gap = figures.BEFORE_AFTER_GAP
        turn = f"{gap * figures.THETA_DEG:g} degree"
        steps2 = VGroup(
            theme.typst_text(
                f"后面：$cos(phi.alt + {turn}) = -sin phi.alt$",
                color=theme.TEXT,
                font_size=TYPST * (theme.SIZE_SMALL + 4),
            ),
            theme.typst_text(
                f"前面：$cos(phi.alt - {turn}) = sin phi.alt$",
                color=theme.TEXT,
                font_size=TYPST * (theme.SIZE_SMALL + 4),
            ),
            theme.typst_text(
                "一样 $<=> sin phi.alt = 0$：起初对齐，或正好反向",
                color=theme.HIGHLIGHT,
                font_size=TYPST * (theme.SIZE_SMALL + 4),
            ),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        steps2.move_to(np.array([0.0, 0.4, 0.0])).align_to(np.array([EX2_LEFT, 0.0, 0.0]), LEFT)
        pairs = (
            ("第一课那一对（φ = 20°）", figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K),
            ("第二课的对齐箭头（φ = 0°）", figures.WIDGET_Q, figures.WIDGET_K),
        )
        scores = [figures.before_after_scores(q, k) for _, q, k in pairs]
        heads2 = VGroup(theme.small_text("后面", color=theme.MUTED), theme.small_text("前面", color=theme.MUTED))
        grid = VGroup()
        for (name, _, _), (after, before) in zip(pairs, scores):
            grid.add(
                VGroup(
                    theme.small_text(name, color=theme.TEXT),
                    theme.small_text(figures.fmt_fixed(after + 0.0), color=theme.SCORE),
                    theme.small_text(figures.fmt_fixed(before + 0.0), color=theme.SCORE),
                )
            )
        for r, row in enumerate(grid):
            y = EX2_GRID_Y - 0.55 * (r + 1)
            row[0].move_to(np.array([0.0, y, 0.0])).align_to(np.array([EX2_LEFT, 0.0, 0.0]), LEFT)
            row[1].move_to(np.array([EX2_COLS[0], y, 0.0]))
            row[2].move_to(np.array([EX2_COLS[1], y, 0.0]))
        for h, x in zip(heads2, EX2_COLS):
            h.move_to(np.array([x, EX2_GRID_Y, 0.0]))
        self.probe(
            "ex2",
            gap=gap,
            phis=[float(np.degrees(angle_between(q, k))) for _, q, k in pairs],
            scores=[list(s) for s in scores],
            shown=[[m.text for m in row] for row in grid],
            steps=[t.typst_code for t in steps2],
        )
        with self.cue("ex2_work") as cue:
            self.play(FadeOut(self.timer), FadeOut(ask2), run_time=cue.share(0.08))
            self.play(FadeIn(steps2[0]), run_time=cue.share(0.12))
            self.play(FadeIn(steps2[1]), run_time=cue.share(0.12))
            self.play(FadeIn(steps2[2]), run_time=cue.share(0.15))
            self.hold_frames(max(0, cue.start_frame + int(0.6 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(heads2), FadeIn(grid[1]), run_time=cue.share(0.12))
            self.play(FadeIn(grid[0]), run_time=min(cue.remaining(), cue.share(0.12)))
        self.settle(steps2, heads2, grid)

        # -- exercise 3: |PE(n)| = sqrt(d/2) ------------------------------------------------------------------
        q3 = self._question("练习三", '$|"PE"(n)|$ 总是 $sqrt(d slash 2)$。加上它，会挤掉多少内容信息？', typst=True)
        norm_formula = theme.formula('|"PE"(n)|^2 = sum_i (sin^2 omega_i n + cos^2 omega_i n) = d/2', font_size=40)
        norm_formula.move_to(np.array([WORK_X, 1.2, 0.0]))
        with self.cue("ex3") as cue:
            self.play(*[FadeOut(m) for m in (q2, steps2, heads2, grid)], run_time=cue.share(0.12))
            self.play(FadeIn(q3), run_time=cue.share(0.3))
            self.play(FadeIn(norm_formula), run_time=cue.share(0.3))
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
                f"挤占有上限：{self.EX3_D} 维时长度恒为 {figures.value('pe_norm_d512')}", color=theme.HIGHLIGHT
            ),
            theme.small_text("大不大，要和词向量 x 的长度比（第二课第二条）", color=theme.TEXT),
            theme.formula("(x + p) dot (y + p') = x dot y + x dot p' + p dot y + p dot p'", font_size=38),
            theme.small_text("而且点积里多出交叉项：并非不碰内容", color=theme.HIGHLIGHT),
        )
        answer.arrange(DOWN, aligned_edge=LEFT, buff=0.28)
        answer.next_to(np.array([-1.75, -0.75, 0.0]), RIGHT, buff=0)
        self.probe(
            "ex3",
            d=self.EX3_D,
            positions=list(self.EX3_POSITIONS),
            norms=norms.tolist(),
            shown=[t.text for t in table],
            note=d_note.typst_code,
            answer=answer[0].text,
        )
        with self.cue("ex3_work") as cue:
            self.swap(self.timer, FadeIn(answer[0]), run_time=cue.share(0.12))
            self.play(FadeIn(d_note), FadeIn(table, lag_ratio=0.3), run_time=cue.share(0.25))
            self.play(FadeIn(answer[1]), run_time=cue.share(0.15))
            self.play(FadeIn(answer[2]), run_time=cue.share(0.2))
            self.play(FadeIn(answer[3]), run_time=min(cue.remaining(), cue.share(0.15)))

    # -- helpers --------------------------------------------------------------------------------------
    def _question(self, label: str, text: str, typst: bool = False) -> VGroup:
        tag = theme.body_text(label, color=theme.HIGHLIGHT)
        make = theme.typst_text if typst else theme.body_text
        body = make(text, color=theme.TEXT, font_size=(TYPST if typst else 1) * (theme.SIZE_SMALL + 4))
        group = VGroup(tag, body).arrange(RIGHT, buff=0.4)
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
