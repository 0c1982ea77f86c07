"""练习: three exercises, each posed, a thinking pause with a countdown, then worked with mathcore's numbers.

The countdown of ``exN_think`` covers the cue's pause (its frames after the speech) and
reads 0 on the cue's last frame; see :mod:`scenes.mobjects.think_timer`.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Circle, DashedVMobject, FadeIn, FadeOut, Line, ValueTracker, VGroup

from mathcore.rotation_facts import column_facts, identity_error, pe_norms, rotation_power
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects.matrix_readout import MatrixReadout
from scenes.mobjects.sci_figure import sci_line
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
    EX1_THETA_DEG = figures.THETA_DEG  # the angle the worked numbers are shown for
    EX3_D = 512
    EX3_POSITIONS = (0, 7, 100, 5000)

    def construct(self) -> None:
        header = self.header()
        self.add(header)

        # -- exercise 1: columns of R(θ) ------------------------------------------------------------
        q1 = self._question("练习一", "验证：R(θ) 的两列互相垂直、长度都是 1；再求行列式。")
        r_formula = theme.formula("R(theta) = mat(cos theta, -sin theta; sin theta, cos theta)", font_size=40)
        r_formula.move_to(np.array([WORK_X, 1.2, 0.0]))
        with self.cue("ex1") as cue:
            self.play(FadeIn(q1), run_time=cue.share(0.35))
            self.play(FadeIn(r_formula), run_time=cue.share(0.35))
        self._think("ex1_think")

        theta = float(np.radians(self.EX1_THETA_DEG))
        facts = column_facts(theta)
        steps1 = VGroup(
            theme.formula('"两列点积": cos theta dot (-sin theta) + sin theta dot cos theta = 0', font_size=40),
            theme.formula('"每列长度"^2: cos^2 theta + sin^2 theta = 1', font_size=40),
            theme.formula(
                "det R = cos theta dot cos theta - (-sin theta) dot sin theta = cos^2 theta + sin^2 theta = 1",
                font_size=40,
            ),
        )
        steps1.arrange(DOWN, aligned_edge=LEFT, buff=0.3).move_to(np.array([WORK_X, -0.1, 0.0]))
        check1 = VGroup(
            theme.small_text(
                f"θ = {self.EX1_THETA_DEG:g}° 实算：点积 {figures.fmt_fixed(facts['dot'], 6)}，"
                f"det R = {figures.fmt_fixed(facts['det'], 6)}",
                color=theme.HIGHLIGHT,
            ),
            theme.small_text(
                f"两列长度²：{figures.fmt_fixed(facts['len0_sq'], 6)} 和 {figures.fmt_fixed(facts['len1_sq'], 6)}",
                color=theme.HIGHLIGHT,
            ),
        )
        check1.arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        check1.next_to(steps1, DOWN, buff=0.3).align_to(steps1, LEFT)
        self.probe("ex1", theta=theta, shown="".join(t.text for t in check1), **facts)
        with self.cue("ex1_work") as cue:
            self.play(
                FadeOut(self.timer),
                r_formula.animate.move_to(np.array([WORK_X, 1.45, 0.0])).scale(0.85),
                run_time=cue.share(0.1),
            )
            for step in steps1:
                self.play(FadeIn(step, shift=0.15 * RIGHT), run_time=cue.share(0.22))
            self.play(FadeIn(check1), run_time=min(cue.remaining(), cue.share(0.15)))
        self.settle(steps1)

        # -- exercise 2: four quarter turns ----------------------------------------------------------------
        q2 = self._question("练习二", "同一个向量连转四次 90°，结果是什么？")
        ask2 = theme.formula("R(90°)^4 v = ?", font_size=44).move_to(np.array([WORK_X, 1.2, 0.0]))
        with self.cue("ex2") as cue:
            self.play(FadeOut(q1), FadeOut(r_formula), FadeOut(steps1), FadeOut(check1), run_time=cue.share(0.15))
            self.play(FadeIn(q2), run_time=cue.share(0.3))
            self.play(FadeIn(ask2), run_time=cue.share(0.3))
        self._think("ex2_think")

        quarter = float(np.radians(90.0))
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
        power = rotation_power(quarter, 4)
        err = identity_error(power)
        steps2 = VGroup(
            theme.formula("90° times 4 = 360°", font_size=38),
            theme.formula("R(90°)^4 = R(360°) = I", font_size=38),
            MatrixReadout(power, decimals=2, name='R(90°)^4 "实算"', font_size=34),
            sci_line("和单位矩阵的偏差：", figures.fmt_sci(err), "（舍入误差）", color=theme.HIGHLIGHT),
        )
        steps2.arrange(DOWN, aligned_edge=LEFT, buff=0.3).move_to(np.array([1.3, -0.45, 0.0]))
        self.probe(
            "ex2", power=power.tolist(), error=err, shown_error=steps2[3].typst_code, shown_matrix=steps2[2].shown
        )
        with self.cue("ex2_work") as cue:
            self.play(
                FadeOut(self.timer), FadeOut(ask2), FadeIn(plane), FadeIn(ghost), FadeIn(vec), run_time=cue.share(0.12)
            )
            for j in range(4):
                anims = [FadeIn(steps2[0])] if j == 0 else []
                self.play(*anims, turns.animate.set_value((j + 1) * quarter), run_time=cue.share(0.1))
            self.play(FadeIn(steps2[1]), run_time=cue.share(0.15))
            self.play(FadeIn(steps2[2]), run_time=cue.share(0.15))
            self.play(FadeIn(steps2[3]), run_time=min(cue.remaining(), cue.share(0.12)))
        self.settle(steps2)

        # -- exercise 3: |PE(n)| = sqrt(d/2) ------------------------------------------------------------------
        q3 = self._question("练习三", '$|"PE"(n)|$ 总是 $sqrt(d slash 2)$。加上它，会挤掉多少内容信息？', typst=True)
        norm_formula = theme.formula('|"PE"(n)|^2 = sum_i (sin^2 omega_i n + cos^2 omega_i n) = d/2', font_size=40)
        norm_formula.move_to(np.array([WORK_X, 1.2, 0.0]))
        with self.cue("ex3") as cue:
            self.play(*[FadeOut(m) for m in (q2, plane, ghost, vec, steps2)], run_time=cue.share(0.12))
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
