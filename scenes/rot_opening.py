"""第三课的开场: the bridge from the first two lessons (RoPE turns q and k) to this one (the clock row's
readings PE(n) are themselves turned vectors, added to the word vector x), the one formula both share, and
the plan of the lesson.

Label equals drawing: the watch ``rope`` (the q and k arrows' drawn tips, their turns, the seats m and n the
labels give), ``clocks`` (the hands against mathcore's p·ω_i and the counter n as drawn) and ``spin`` (the
plan's turning hand) are read by tests/course/test_scene_rot_opening.py.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Circle,
    Create,
    DashedVMobject,
    FadeIn,
    FadeOut,
    Line,
    ReplacementTransform,
    RoundedRectangle,
    VGroup,
)

from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import ClockRow, SpinArrow, TurningArrow
from scenes.mobjects.glyph_number import GlyphNumber

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
LEFT_C = np.array([-4.85, -0.05, 0.0])  # the RoPE panel's plane
RIGHT_X = 3.3  # the clock panel
PANEL_TOP = 1.3  # the caption 0.12 under the panel's top edge (1.65), not across it


class RotOpening(NarratedScene):
    """question (two panels: RoPE turns q, k / the clocks' readings, added to x; the shared speeds; what this
    lesson asks, in one cue: P2 of review 6) → plan (the roadmap and the lesson's rule)."""

    SCENE_IDS = ("rot_opening",)
    CUES = ("question", "plan")
    D = 8  # the clock panel: the d = 8 row of the first lesson
    CLOCK_TO = 3  # its hands go from position 0 to this one
    SEATS = (2, 4)  # RoPE panel: q at position m, k at position n (θ = figures.THETA_DEG)
    ROADMAP = (
        "旋转矩阵的两条保真性质",
        "转两次，等于一次转过两角之和",
        "移位矩阵：每根指针多转 k 步",
        "点积里的条纹",
        "回到打分：条纹走得到分数里吗",
    )
    RULE = "每个结论：先推出来，再让机器算一遍"
    SPIN = 2 * np.pi / 6.0  # the plan's hand: one turn every 6 seconds

    def construct(self) -> None:
        theta = float(np.radians(figures.THETA_DEG))
        title = theme.title_text(self.plan.lesson_title)  # the lesson's, as its narration names it
        self.probe("title", shown=title.text)
        title.move_to(np.array([0.0, 2.8, 0.0]))

        # -- the RoPE panel: q (seat m) and k (seat n) turned by mθ and nθ ----------------------------
        frames = VGroup(
            *[
                RoundedRectangle(width=5.9, height=3.6, corner_radius=0.2, color=theme.MUTED, stroke_width=2)
                for _ in range(2)
            ]
        )
        frames[0].move_to(np.array([-3.35, -0.15, 0.0]))
        frames[1].move_to(np.array([RIGHT_X, -0.15, 0.0]))
        left_cap = theme.body_text("前两课：RoPE", color=theme.TEXT).move_to(np.array([-3.35, PANEL_TOP, 0.0]))
        right_cap = theme.body_text("这一课：那排钟", color=theme.TEXT).move_to(np.array([RIGHT_X, PANEL_TOP, 0.0]))
        axes = VGroup(
            Line(LEFT_C + 1.2 * LEFT, LEFT_C + 1.2 * RIGHT, color=theme.MUTED, stroke_width=2),
            Line(LEFT_C + 1.1 * DOWN, LEFT_C + 1.1 * UP, color=theme.MUTED, stroke_width=2),
        )
        q = TurningArrow((1.0, 0.0), scale=1.05, center=LEFT_C, color=theme.Q, stroke_width=6)
        k = TurningArrow((1.0, 0.0), scale=1.05, center=LEFT_C, color=theme.K, stroke_width=6)
        m, n = self.SEATS
        rule = VGroup(
            theme.typst_text(f"$q$ 在位置 ${m}$：转 ${m} theta$", color=theme.Q, font_size=TYPST * theme.SIZE_SMALL),
            theme.typst_text(f"$k$ 在位置 ${n}$：转 ${n} theta$", color=theme.K, font_size=TYPST * theme.SIZE_SMALL),
        )
        rule.arrange(DOWN, aligned_edge=LEFT, buff=0.12).move_to(np.array([-3.45, 0.0, 0.0]), aligned_edge=LEFT)
        rope_use = theme.small_text("按位置转 q、k", color=theme.TEXT).move_to(np.array([-3.35, -1.6, 0.0]))
        self.watch(
            "rope",
            lambda: {
                "q": q.probe_values(),
                "k": k.probe_values(),
                "theta": theta,
                "rule": [r.typst_code for r in rule],
                "on_screen": self.on_screen(rule),
            },
        )

        # -- the clock panel: four clocks, the counter n, x + PE(n) -----------------------------------------
        row = ClockRow(d=self.D, radius=0.48, spacing=1.3, center=np.array([RIGHT_X, 0.3, 0.0]))
        n_label = theme.body_text("n =", color=theme.POSITION, font_size=theme.SIZE_SMALL + 4)
        n_num = GlyphNumber(
            lambda v: f"{round(v):d}", 0, max_chars=2, font_size=theme.SIZE_SMALL + 4, color=theme.POSITION
        )
        n_num.next_to(n_label, RIGHT, buff=0.15)
        counter = VGroup(n_label, n_num).move_to(np.array([RIGHT_X + 2.05, -0.85, 0.0]))
        row.remove(row.names)  # the panel is small: the clocks go unnamed here
        n_num.add_updater(lambda mob: mob.set_value(row.p))
        plus = theme.formula('x + {{"PE"(n) : pe}}', font_size=40).move_to(np.array([RIGHT_X - 0.3, -0.85, 0.0]))
        VGroup(*plus.select("pe")).set_color(theme.POSITION)
        clock_use = theme.small_text("读数是转动的箭头，加到 x 上", color=theme.TEXT).move_to(
            np.array([RIGHT_X, -1.6, 0.0])
        )
        self.watch(
            "clocks", lambda: {**row.probe_values(), "n_shown": n_num.text, "n_on_screen": self.on_screen(n_num)}
        )

        # -- question: one formula for the speeds; angles vs readings ------------------------------------
        header = self.header()
        shared = theme.typst_text(
            "转速出自同一个公式：$omega_i = 10000^(-2i slash d)$", color=theme.ANGLE, font_size=TYPST * theme.SIZE_SMALL
        )
        shared.move_to(np.array([0.0, 2.2, 0.0]))
        links = VGroup(
            Arrow(
                shared.get_bottom() + 0.9 * LEFT,
                left_cap.get_top() + 0.6 * RIGHT,
                buff=0.08,
                color=theme.ANGLE,
                stroke_width=3,
                max_tip_length_to_length_ratio=0.25,
            ),
            Arrow(
                shared.get_bottom() + 0.9 * RIGHT,
                right_cap.get_top() + 0.6 * LEFT,
                buff=0.08,
                color=theme.ANGLE,
                stroke_width=3,
                max_tip_length_to_length_ratio=0.25,
            ),
        )
        uses = VGroup(
            theme.small_text("用角度：转 q、k", color=theme.HIGHLIGHT).move_to(rope_use),
            theme.small_text("用读数：加到 x 上", color=theme.HIGHLIGHT).move_to(clock_use),
        )
        ask = theme.body_text("这排读数，凭什么好用？", color=theme.HIGHLIGHT).move_to(np.array([0.0, -2.3, 0.0]))
        self.probe("shared", shown=shared.typst_code)
        with self.cue("question") as cue:
            # the RoPE panel (前两课，RoPE 按座位去转 q 和 k)
            self.play(FadeIn(title, shift=0.3 * UP), run_time=cue.share(0.06))
            self.play(Create(frames[0]), FadeIn(left_cap), Create(axes), FadeIn(q), FadeIn(k), run_time=cue.share(0.06))
            self.play(
                FadeIn(rule),
                q.make_turn_animation(m * theta),
                k.make_turn_animation(n * theta),
                run_time=cue.share(0.12),
            )
            self.play(FadeIn(rope_use), run_time=cue.share(0.04))
            # the clock panel (这一课转的是……那排钟的读数 PE(n))
            self.hold_frames(max(0, cue.start_frame + int(0.2 * cue.plan.speech_frames) - self.frame))
            self.play(
                Create(frames[1]),
                FadeIn(right_cap),
                Create(row.faces),
                FadeIn(row.hands),
                FadeIn(counter),
                run_time=cue.share(0.06),
            )
            self.add(row)
            self.play(row.make_step_animation(self.CLOCK_TO), run_time=cue.share(0.12))
            self.play(FadeIn(plus), FadeIn(clock_use), run_time=cue.share(0.05))
            # the shared formula (转速……出自同一个公式), the two uses, the question
            self.hold_frames(max(0, cue.start_frame + int(0.5 * cue.plan.speech_frames) - self.frame))
            self.play(ReplacementTransform(title, header), run_time=cue.share(0.06))
            self.play(FadeIn(shared), Create(links), run_time=cue.share(0.1))
            self.swap([rope_use, clock_use], FadeIn(uses), run_time=cue.share(0.12))
            self.hold_frames(max(0, cue.start_frame + int(0.85 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(ask, shift=0.2 * UP), run_time=cue.remaining())

        # -- plan: the roadmap, a hand that keeps turning ------------------------------------------------
        center = np.array([-4.3, 0.1, 0.0])
        dial = VGroup(
            Circle(radius=1.4, color=theme.MUTED, stroke_width=2).move_to(center),
            DashedVMobject(Circle(radius=0.9, color=theme.MUTED, stroke_width=2).move_to(center), num_dashes=24),
        )
        self._spin_phi = 0.0
        hand = SpinArrow((1.0, 0.0), lambda: self._spin_phi, scale=1.4, center=center, color=theme.ANGLE)
        self.watch("spin", lambda: {**hand.probe_values(), "on_screen": self.on_screen(hand)})
        rows = VGroup(
            *[theme.body_text(f"{i + 1}. {t}", color=theme.TEXT) for i, t in enumerate(self.ROADMAP)],
            theme.body_text(self.RULE, color=theme.HIGHLIGHT),
        )
        rows.arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        rows[-1].shift(0.2 * DOWN)
        rows.move_to(np.array([-2.1, 2.05, 0.0]), aligned_edge=LEFT + UP)
        self.probe("roadmap", shown=[r.text for r in rows])
        with self.cue("plan") as cue:
            self.play(
                *[
                    FadeOut(mob)
                    for mob in (
                        frames,
                        left_cap,
                        right_cap,
                        axes,
                        q,
                        k,
                        rule,
                        row,
                        counter,
                        plus,
                        uses,
                        shared,
                        links,
                        ask,
                    )
                ],
                run_time=cue.share(0.1),
            )
            self.play(Create(dial), FadeIn(hand), run_time=cue.share(0.1))

            def spin(mob, dt):
                self._spin_phi += self.SPIN * dt

            hand.add_updater(spin, index=0)
            slot = max(1, (cue.frames_remaining() - 1) // len(rows))
            for i, r in enumerate(rows):
                frames_in = min(slot, int(round(0.8 * self.fps)))
                self.play_frames(FadeIn(r, shift=0.2 * RIGHT), frames=frames_in)
                if i < len(rows) - 1:
                    self.hold_frames(slot - frames_in)
            self.hold_frames(max(0, cue.frames_remaining()))
            hand.remove_updater(spin)
