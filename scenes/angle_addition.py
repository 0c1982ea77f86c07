"""旋转矩阵与角度相加: R(θ) turns vectors, keeps length, and turns add up."""

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
    ReplacementTransform,
    VGroup,
)

import mathcore
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import LabeledNumber, MatrixReadout, TurningArrow
from scenes.mobjects.matrix_readout import matrix_source

CENTER = np.array([-3.6, 0.1, 0.0])
SCALE = 2.0
PANEL = np.array([3.0, 0.0, 0.0])


def _deg(x: float) -> float:
    return float(np.radians(x))


class AngleAddition(NarratedScene):
    """matrix → turn_vector → length_kept → two_turns (bookmark second) → one_turn (bookmark expand: the
    top-left entry of R(α)R(β) multiplied out, the 和角公式) → full_circle → takeaway.

    Watches record each label's text beside the raw points of what it describes (the arrows' ends,
    the arcs' ends, the dashed unit circle), compared by tests/course/test_scene_angle_addition.py.
    """

    SCENE_IDS = ("angle_addition",)
    CUES = ("matrix", "turn_vector", "length_kept", "two_turns", "one_turn", "full_circle", "takeaway")
    BOOKMARKS = {"two_turns": ("second",), "one_turn": ("expand",)}
    FIRST, SECOND = 25.0, 40.0
    SAMPLE = 30.0  # the matrix cue's θ: (1, 0) and (0, 1) turn by it, and their tips are R(θ)'s columns

    def construct(self) -> None:
        plane = VGroup(
            Line(CENTER + 2.5 * LEFT, CENTER + 2.5 * RIGHT, color=theme.MUTED, stroke_width=2),
            Line(CENTER + 2.5 * DOWN, CENTER + 2.5 * UP, color=theme.MUTED, stroke_width=2),
            DashedVMobject(Circle(radius=SCALE, color=theme.MUTED, stroke_width=2).move_to(CENTER), num_dashes=48),
        )
        header = self.header()
        vec = TurningArrow((1.0, 0.0), scale=SCALE, center=CENTER, color=theme.TEXT)
        self.watch("vector", vec.probe_values)
        unit = plane[2]
        self.watch(
            "drawn",
            lambda: {
                "center": vec.arrow.get_start().tolist(),
                "end": vec.arrow.get_end().tolist(),
                "unit_radius": unit.width / 2,
                "phi": float(vec.phi.get_value()),
                "on_screen": self.on_screen(vec),
            },
        )

        # -- matrix: R(θ) built column by column ----------------------------------
        with self.cue("matrix") as cue:
            full = theme.formula(
                "{{R(theta) = : lhs}} mat({{cos theta : a}}, {{-sin theta : b}}; {{sin theta : c}}, {{cos theta : d}})"
            )
            full.move_to(PANEL + 2.0 * UP)
            col1 = VGroup(*full.select("a"), *full.select("c"))
            col2 = VGroup(*full.select("b"), *full.select("d"))
            lhs = VGroup(*full.select("lhs"))
            brackets = VGroup(
                *[
                    m
                    for m in full.family_members_with_points()
                    if m not in set(col1.get_family()) | set(col2.get_family()) | set(lhs.get_family())
                ]
            )
            sample = _deg(self.SAMPLE)
            units = [
                TurningArrow((1.0, 0.0), scale=SCALE, center=CENTER, color=theme.COS),
                TurningArrow((0.0, 1.0), scale=SCALE, center=CENTER, color=theme.SIN),
            ]
            tip_texts = ("(cos theta, sin theta)", "(-sin theta, cos theta)")
            tips = [theme.formula(t, font_size=30, color=u.arrow.get_color()) for t, u in zip(tip_texts, units)]
            ends = [mathcore.rotate(np.array(v), sample) for v in ((1.0, 0.0), (0.0, 1.0))]
            tips[0].next_to(CENTER + SCALE * np.array([*ends[0], 0.0]), RIGHT, buff=0.15)
            tips[1].next_to(CENTER + SCALE * np.array([*ends[1], 0.0]), RIGHT, buff=0.15)
            self.watch(
                "units",
                lambda: {
                    "phi": [float(u.phi.get_value()) for u in units],
                    "tips": [u.probe_values()["tip"] for u in units],
                    "labels": list(tip_texts),
                    "on_screen": [self.on_screen(m) for m in (*units, *tips)],
                },
            )
            note1 = theme.small_text("第一列：(1, 0) 转到哪里", color=theme.TEXT).next_to(full, DOWN, buff=0.35)
            note2 = theme.small_text("第二列：(0, 1) 转到哪里", color=theme.TEXT).next_to(note1, DOWN, buff=0.15)
            ccw = (
                theme.small_text("θ 为正：逆时针转", color=theme.ANGLE).next_to(lhs, UP, buff=0.3).align_to(full, LEFT)
            )
            # P2 (review 11): the two unit arrows are drawn and turn by a sample θ; their tips' coordinates are
            # written beside them, then the columns of R(θ) fill in with the same entries
            self.play(
                FadeIn(header),
                Create(plane),
                FadeIn(lhs),
                FadeIn(ccw),
                *[FadeIn(a) for a in units],
                run_time=cue.share(0.2),
            )
            self.play(*[u.make_turn_animation(sample) for u in units], run_time=cue.share(0.3))
            self.play(FadeIn(tips[0]), FadeIn(brackets), FadeIn(col1), FadeIn(note1), run_time=cue.share(0.25))
            self.play(FadeIn(tips[1]), FadeIn(col2), FadeIn(note2), run_time=cue.remaining())

        # -- turn_vector: R(90°)(1, 0) = (0, 1) --------------------------------------
        r90 = mathcore.rotation(_deg(90))
        e1 = np.array([1.0, 0.0])
        result_source = matrix_source(mathcore.rotate(e1, _deg(90))[:, None])
        product = theme.formula(f"{matrix_source(r90)} {matrix_source(e1[:, None])} = {result_source}")
        product.move_to(PANEL + 0.2 * DOWN)
        label90 = theme.small_text("R(90°)", color=theme.ANGLE).next_to(product, UP, buff=0.15)
        with self.cue("turn_vector") as cue:
            self.play(
                FadeOut(note1),
                FadeOut(note2),
                FadeOut(ccw),
                *[FadeOut(m) for m in (*units, *tips)],
                FadeIn(vec),
                run_time=cue.share(0.2),
            )
            self.play(FadeIn(product), FadeIn(label90), run_time=cue.share(0.25))
            self.play(vec.make_turn_animation(_deg(90)), run_time=cue.remaining())

        # -- length_kept: the length readout stays 1 ----------------------------------
        length = LabeledNumber("长度 =", 1.0, decimals=2, color=theme.HIGHLIGHT)
        length.move_to(PANEL + 1.6 * DOWN)
        length.add_updater(lambda m: m.set_value(float(np.linalg.norm(vec.vector()))))
        only = theme.small_text("箭尖还在圆上", color=theme.TEXT).next_to(length, DOWN, buff=0.25)
        self.watch(
            "length",
            lambda: {
                "phi": float(vec.phi.get_value()),
                "length": length.get_value(),
                "shown": length.shown_text(),
                "on_screen": self.on_screen(length),
            },
        )
        self.watch("product", lambda: {"result": result_source, "on_screen": self.on_screen(product)})
        with self.cue("length_kept") as cue:
            self.play(FadeIn(length), run_time=cue.share(0.3))
            self.play(FadeIn(only), run_time=cue.share(0.3))
            self.probe("length_note", shown=only.text, on_screen=self.on_screen(only))
            cue.hold()

        # -- two_turns: 25°, then (bookmark second) 40° more ----------------------------
        a1, a2 = _deg(self.FIRST), _deg(self.FIRST + self.SECOND)
        arc1 = Arc(radius=0.7, start_angle=0, angle=a1, arc_center=CENTER, color=theme.ANGLE, stroke_width=5)
        arc2 = Arc(radius=0.9, start_angle=a1, angle=a2 - a1, arc_center=CENTER, color=theme.ANGLE, stroke_width=5)
        lab1 = theme.small_text("25°", color=theme.ANGLE).move_to(
            CENTER + 1.05 * np.array([np.cos(a1 / 2), np.sin(a1 / 2), 0]) + 0.25 * RIGHT
        )
        lab2 = theme.small_text("40°", color=theme.ANGLE).move_to(
            CENTER + 1.25 * np.array([np.cos((a1 + a2) / 2), np.sin((a1 + a2) / 2), 0]) + 0.2 * RIGHT
        )
        two = theme.formula("R(40°) R(25°)").move_to(PANEL + 0.2 * DOWN)
        first_note = theme.small_text("右边的 R(25°) 先作用", color=theme.TEXT).next_to(two, DOWN, buff=0.3)
        self.watch(
            "arcs",
            lambda: {
                "arc1": [arc1.get_start().tolist(), arc1.get_end().tolist()],
                "arc2": [arc2.get_start().tolist(), arc2.get_end().tolist()],
                "lab1": lab1.text,
                "lab2": lab2.text,
                "on_screen": [self.on_screen(m) for m in (arc1, lab1, arc2, lab2)],
            },
        )
        with self.cue("two_turns") as cue:
            # the old readings leave first: the product and R(40°) R(25°) take the same place. The vector starts
            # again at 0°: it fades out and back in rather than turning back 90°, a turn no word speaks of
            # (as unit_circle's readout does)
            self.swap(
                [product, label90, length, only, vec],
                FadeIn(two),
                FadeIn(first_note),
                run_time=cue.share(0.15),
            )
            vec.set_angle(0.0)
            self.play(FadeIn(vec), run_time=cue.share(0.05))
            self.play(vec.make_turn_animation(a1), Create(arc1), FadeIn(lab1), run_time=cue.until("second"))
            self.play(vec.make_turn_animation(a2), Create(arc2), FadeIn(lab2), run_time=min(cue.remaining(), 1.2))

        # -- one_turn: a ghost turns 65° at once and lands on the same spot ---------------
        ghost = TurningArrow((1.0, 0.0), scale=SCALE, center=CENTER, color=theme.TEXT, opacity=theme.GHOST_OPACITY)
        self.watch("ghost", ghost.probe_values)
        once = theme.formula("R(40°) R(25°) = R(65°)").move_to(PANEL + 0.2 * DOWN)
        self.watch(
            "once",
            lambda: {
                "ghost_end": ghost.arrow.get_end().tolist(),
                "end": vec.arrow.get_end().tolist(),
                "center": vec.arrow.get_start().tolist(),
                "on_screen": self.on_screen(once),
            },
        )
        check = MatrixReadout(
            mathcore.rotation(_deg(40)) @ mathcore.rotation(_deg(25)) - mathcore.rotation(_deg(65)),
            decimals=6,
            name="R(40°) R(25°) - R(65°)",
            font_size=30,
        )
        check.move_to(PANEL + 1.3 * DOWN)
        sweep = theme.small_text("四舍五入到 6 位小数，都是 0", color=theme.MUTED)
        sweep.next_to(check, DOWN, buff=0.2)
        # the 和角公式 is this product's top-left entry (and its bottom-left one), multiplied out
        expansion = (
            VGroup(
                theme.small_text("把 R(α)R(β) 乘开：", color=theme.TEXT),
                theme.formula("cos alpha cos beta - sin alpha sin beta = cos(alpha + beta)", font_size=40),
                theme.formula(
                    "sin alpha cos beta + cos alpha sin beta = sin(alpha + beta)", color=theme.MUTED, font_size=34
                ),
            )
            .arrange(DOWN, aligned_edge=LEFT, buff=0.2)
            .move_to(PANEL + 2.15 * UP)
        )
        self.watch("expansion", lambda: {"on_screen": [self.on_screen(m) for m in expansion]})
        with self.cue("one_turn") as cue:
            before = cue.frames_until("expand")
            self.play_frames(FadeIn(ghost), FadeOut(first_note), frames=max(1, before // 5))
            self.play_frames(ghost.make_turn_animation(a2), frames=max(1, (2 * before) // 5))
            self.play(ReplacementTransform(two, once), FadeIn(check), FadeIn(sweep), run_time=cue.until("expand"))
            self.swap([lhs, brackets, col1, col2], FadeIn(expansion, lag_ratio=0.3), run_time=cue.share(0.25))
            cue.hold()

        # -- full_circle: R(360°) = I -----------------------------------------------------
        ident = MatrixReadout(mathcore.rotation(_deg(360)), decimals=6, name="R(360°)")
        ident.move_to(PANEL + 0.2 * DOWN)
        eq_i = theme.formula("= I", font_size=theme.SIZE_FORMULA).next_to(ident, RIGHT, buff=0.2)
        # 单位矩阵 I, glossed as it is said: the matrix that changes nothing
        gloss = theme.small_text("单位矩阵 I：什么都不改的矩阵", color=theme.TEXT).next_to(ident, UP, buff=0.3)
        with self.cue("full_circle") as cue:
            self.play(
                FadeOut(ghost),
                FadeOut(arc1),
                FadeOut(arc2),
                FadeOut(lab1),
                FadeOut(lab2),
                FadeOut(once),
                FadeOut(check),
                FadeOut(sweep),
                run_time=cue.share(0.15),
            )
            self.play(vec.make_turn_animation(a2 + _deg(360)), FadeIn(ident), run_time=cue.share(0.55))
            self.play(FadeIn(eq_i), run_time=cue.share(0.15))
            self.play(FadeIn(gloss), run_time=cue.remaining())

        # -- takeaway: turns add ------------------------------------------------------------
        with self.cue("takeaway") as cue:
            rule = theme.formula("R(alpha) R(beta) = R(alpha + beta)", color=theme.HIGHLIGHT)
            rule.move_to(PANEL + 1.5 * DOWN)
            words = theme.body_text("角度相加", color=theme.TEXT).next_to(rule, DOWN, buff=0.25)
            self.play(FadeIn(rule), FadeIn(words), run_time=cue.share(0.4))
            cue.hold()  # the vector stays where full_circle left it: the words name no further turn (P1, review 5)
