"""旋转矩阵的两条保真性质: R^T R = I, det R = +1, lengths kept, and the dot product of two vectors turned by
the same angle kept."""

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
    Polygon,
    SurroundingRectangle,
    ValueTracker,
    VGroup,
)

from mathcore import checks
from mathcore.rotation_facts import determinant, orthogonality_product, preservation, turned_points
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects.glyph_number import GlyphNumber, fixed, labeled_glyph_number
from scenes.mobjects.live_matrix import LiveMatrix
from scenes.mobjects.sci_figure import sci_line
from scenes.mobjects.spin_arrow import SpinArrow

CENTER = np.array([-3.7, 0.15, 0.0])
TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
SCALE = 1.7
PANEL_X = 3.1
SQUARE = np.array([[0.0, 0.0], [0.62, 0.0], [0.62, 0.62], [0.0, 0.62]])
F_SHAPE = np.array(
    [
        [0.25, 0.1],
        [0.43, 0.1],
        [0.43, 0.52],
        [0.7, 0.52],
        [0.7, 0.68],
        [0.43, 0.68],
        [0.43, 0.88],
        [0.85, 0.88],
        [0.85, 1.05],
        [0.25, 1.05],
    ]
)


WALL = "两支一起转，点积不变"  # the move: lesson 1's distance-only proof, the Gram stripes, RoPE after W_Q, W_K


def _deg(x: float) -> float:
    return float(np.radians(x))


def _scene_points(uv: np.ndarray) -> list[np.ndarray]:
    return [CENTER + SCALE * np.array([p[0], p[1], 0.0]) for p in uv]


class RotationFidelity(NarratedScene):
    """machine → orthogonal (R^T R live) → det (an F turned, never mirrored) → norm → inner → seat_number.

    One angle tracker drives every shape; every reading (R^T R, det R, lengths,
    dot products) comes from :mod:`mathcore.rotation_facts` at the current angle.
    """

    SCENE_IDS = ("rotation_fidelity",)
    CUES = ("machine", "orthogonal", "det", "norm", "inner", "seat_number")
    PE_STEP_DEG = 40.0  # seat_number: the fixed angle one clock's pointer turns per seat (any fixed angle)
    PE_SEATS = 4  # seat_number: the pointer steps from seat 0 to seat 4
    X = (1.1, 0.4)  # the two arrows of the norm / inner beats (x·y = 0.69, no rounding tie)
    Y = (0.3, 0.9)

    def construct(self) -> None:
        theta = ValueTracker(0.0)
        self.theta = theta
        th = lambda: float(theta.get_value())  # noqa: E731
        plane = VGroup(
            Line(CENTER + 2.1 * LEFT, CENTER + 2.1 * RIGHT, color=theme.MUTED, stroke_width=2),
            Line(CENTER + 2.1 * DOWN, CENTER + 2.1 * UP, color=theme.MUTED, stroke_width=2),
            DashedVMobject(Circle(radius=SCALE, color=theme.MUTED, stroke_width=2).move_to(CENTER), num_dashes=48),
        )
        angle_num = GlyphNumber(
            lambda v: f"{round(v) % 360:d}°",
            0,
            max_chars=4,
            chars="0123456789°",
            font_size=theme.SIZE_SMALL + 4,
            color=theme.ANGLE,
        )
        angle = VGroup(theme.body_text("θ =", color=theme.ANGLE, font_size=theme.SIZE_SMALL + 4), angle_num)
        angle_num.next_to(angle[0], RIGHT, buff=0.18)
        angle.move_to(CENTER + np.array([-1.3, 2.45, 0.0]))
        angle_num.add_updater(lambda m: m.set_value(np.degrees(th())))
        header = self.header()
        vec = SpinArrow((1.0, 0.0), th, scale=SCALE, center=CENTER, color=theme.TEXT)
        self.watch("vector", vec.probe_values)

        # -- machine: R(θ) built up, the arrow turns -----------------------------------------
        full = theme.formula(
            "{{R(theta) = : lhs}} mat({{cos theta : a}}, {{-sin theta : b}}; {{sin theta : c}}, {{cos theta : d}})",
            font_size=40,
        )
        full.move_to(np.array([PANEL_X, 2.35, 0.0]))
        cols = [VGroup(*full.select("a"), *full.select("c")), VGroup(*full.select("b"), *full.select("d"))]
        lhs = VGroup(*full.select("lhs"))
        used = set(lhs.get_family()) | set(cols[0].get_family()) | set(cols[1].get_family())
        brackets = VGroup(*[m for m in full.family_members_with_points() if m not in used])
        props = VGroup(
            theme.body_text("① 正交：不拉伸、不剪切", color=theme.TEXT),
            theme.body_text("② 长度不变；", color=theme.TEXT),
            theme.body_text("同转一个角，点积也不变", color=theme.TEXT),
        )
        props.arrange(DOWN, aligned_edge=LEFT, buff=0.3).move_to(np.array([PANEL_X, 0.1, 0.0]))
        props[2].shift((props[1][1].get_left()[0] - props[2].get_left()[0]) * RIGHT)  # under "长度", not under ②
        ccw = theme.small_text("θ 取正值：逆时针转", color=theme.ANGLE).move_to(CENTER + np.array([0.0, -2.35, 0.0]))
        self.probe("ccw", shown=ccw.text)
        with self.cue("machine") as cue:
            self.play(
                FadeIn(header),
                Create(plane),
                FadeIn(lhs),
                FadeIn(vec),
                FadeIn(angle),
                FadeIn(ccw),
                run_time=cue.share(0.2),
            )
            self.play(FadeIn(brackets), FadeIn(cols[0]), run_time=cue.share(0.2))
            self.play(FadeIn(cols[1]), theta.animate.set_value(_deg(40)), run_time=cue.share(0.3))
            self.play(FadeIn(props, lag_ratio=0.5), run_time=cue.remaining())
        r_parts = VGroup(lhs, brackets, *cols)  # R(θ), faded in part by part
        self.settle(r_parts, header, plane)

        # -- orthogonal: R^T R = I computed live; a square stays a square -----------------------
        square = Polygon(*_scene_points(SQUARE), color=theme.HIGHLIGHT, stroke_width=4, fill_opacity=0.25)
        square.add_updater(
            lambda m: m.set_points_as_corners(
                _scene_points(np.vstack([turned_points(SQUARE, th()), turned_points(SQUARE, th())[:1]]))
            )
        )
        ortho = theme.formula("R(theta)^T R(theta) = I", font_size=40).move_to(np.array([PANEL_X, 1.15, 0.0]))
        product = LiveMatrix(
            lambda: orthogonality_product(th()), decimals=3, center=np.array([PANEL_X + 0.6, -0.05, 0.0])
        )
        product_label = theme.typst_text("实算 $R^T R =$", color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL)
        product_label.next_to(product, LEFT, buff=0.3)
        shape_words = theme.body_text("不拉伸，不剪切：形状大小不变", color=theme.HIGHLIGHT).move_to(
            np.array([PANEL_X, -1.4, 0.0])
        )
        self.watch(
            "orthogonal",
            lambda: {"theta": th(), "shown": product.shown().tolist(), "on_screen": self.on_screen(product)},
        )
        with self.cue("orthogonal") as cue:
            self.swap(props, FadeIn(ortho), FadeIn(square), run_time=cue.share(0.2))
            self.play(FadeIn(product), FadeIn(product_label), run_time=cue.share(0.15))
            self.play(theta.animate.set_value(_deg(130)), FadeIn(shape_words), run_time=cue.remaining())

        # -- det: +1, an F is turned, never mirrored; A1 over 360 angles ------------------------
        f_shape = Polygon(*_scene_points(F_SHAPE), color=theme.HIGHLIGHT, stroke_width=4, fill_opacity=0.35)
        f_shape.add_updater(
            lambda m: m.set_points_as_corners(
                _scene_points(np.vstack([turned_points(F_SHAPE, th()), turned_points(F_SHAPE, th())[:1]]))
            )
        )
        det_formula = theme.formula("det R(theta) = cos^2 theta + sin^2 theta = +1", font_size=36)
        det_formula.move_to(np.array([PANEL_X, 1.15, 0.0]))
        det_read = labeled_glyph_number(
            "实算 det R =", fixed(6), determinant(th()), color=theme.TEXT, font_size=theme.SIZE_SMALL + 4
        )
        det_read.move_to(np.array([PANEL_X, 0.3, 0.0]))
        det_read.number.add_updater(lambda m: m.set_value(determinant(th())))
        mirror_pts = F_SHAPE * np.array([-1.0, 1.0])
        mirror = Polygon(
            *[np.array([PANEL_X + 2.0 + 1.3 * p[0], -1.35 + 1.3 * p[1], 0.0]) for p in mirror_pts],
            color=theme.MUTED,
            stroke_width=3,
            fill_opacity=0.15,
        )
        cross = VGroup(
            Line(mirror.get_corner(UP + LEFT), mirror.get_corner(DOWN + RIGHT), color=theme.HIGHLIGHT, stroke_width=5),
            Line(mirror.get_corner(DOWN + LEFT), mirror.get_corner(UP + RIGHT), color=theme.HIGHLIGHT, stroke_width=5),
        )
        # M4 (review 6): only rotation is left from the two conditions together, not from det = +1 alone
        mirror_words = VGroup(
            theme.small_text("镜像也正交，行列式却是 −1", color=theme.TEXT),
            theme.small_text("正交 + 行列式 +1：只剩转动", color=theme.HIGHLIGHT),
        ).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        mirror_words.next_to(mirror, LEFT, buff=0.35)
        a1 = sci_line(
            "360 个角度：最大偏差 ", figures.fmt_sci(checks.a1_orthogonality()), text_size=theme.SIZE_SMALL + 2
        ).move_to(np.array([PANEL_X, -1.95, 0.0]))
        self.probe("mirror_words", shown=[m.text for m in mirror_words], mirror=mirror_pts.tolist())
        self.watch("det", lambda: {"theta": th(), "shown": det_read.number.text, "on_screen": self.on_screen(det_read)})
        with self.cue("det") as cue:
            self.swap(
                [square, ortho, product, product_label, shape_words],
                FadeIn(f_shape),
                FadeIn(det_formula),
                run_time=cue.share(0.2),
            )
            self.play(FadeIn(det_read), FadeIn(mirror), Create(cross), FadeIn(mirror_words), run_time=cue.share(0.2))
            self.play(theta.animate.set_value(_deg(130 + 360)), FadeIn(a1), run_time=cue.remaining())
        self.probe("a1", shown=a1.typst_code, error=checks.a1_orthogonality())

        # -- norm: x and y turned together; lengths and the dot product stay -------------------
        ghosts = VGroup(
            SpinArrow(
                self.X,
                lambda: 0.0,
                scale=SCALE,
                center=CENTER,
                color=theme.TEXT,
                opacity=theme.GHOST_OPACITY,
                live=False,
            ),
            SpinArrow(
                self.Y,
                lambda: 0.0,
                scale=SCALE,
                center=CENTER,
                color=theme.HIGHLIGHT,
                opacity=theme.GHOST_OPACITY,
                live=False,
            ),
        )
        xa = SpinArrow(self.X, th, scale=SCALE, center=CENTER, color=theme.TEXT)
        ya = SpinArrow(self.Y, th, scale=SCALE, center=CENTER, color=theme.HIGHLIGHT)
        labels = VGroup(
            theme.body_text("Rx", color=theme.TEXT, font_size=theme.SIZE_SMALL + 4),
            theme.body_text("Ry", color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL + 4),
        )
        labels.add_updater(
            lambda m: [
                lab.move_to(a.tip_point() + 0.35 * (a.tip_point() - CENTER) / np.linalg.norm(a.tip_point() - CENTER))
                for lab, a in zip(m, (xa, ya))
            ]
        )
        ghost_labels = VGroup(
            theme.body_text("x", color=theme.TEXT, font_size=theme.SIZE_SMALL + 4),
            theme.body_text("y", color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL + 4),
        )
        for lab, g in zip(ghost_labels, ghosts):
            tip = g.tip_point()
            lab.move_to(tip + 0.3 * (tip - CENTER) / np.linalg.norm(tip - CENTER))
        fs = theme.SIZE_SMALL + 4
        reads = {
            "norm_x": labeled_glyph_number("|x| =", fixed(3), font_size=fs),
            "norm_rx": labeled_glyph_number("|Rx| =", fixed(3), font_size=fs),
            "norm_y": labeled_glyph_number("|y| =", fixed(3), font_size=fs),
            "norm_ry": labeled_glyph_number("|Ry| =", fixed(3), font_size=fs),
            "dot": labeled_glyph_number("x·y =", fixed(3), font_size=fs, color=theme.SCORE),
            "dot_r": labeled_glyph_number("Rx·Ry =", fixed(3), font_size=fs, color=theme.SCORE),
        }
        for key, pos in (
            ("norm_x", (PANEL_X - 1.5, 1.45)),
            ("norm_rx", (PANEL_X + 1.5, 1.45)),
            ("norm_y", (PANEL_X - 1.5, 0.85)),
            ("norm_ry", (PANEL_X + 1.5, 0.85)),
            ("dot", (PANEL_X - 1.5, 0.25)),
            ("dot_r", (PANEL_X + 1.5, 0.25)),
        ):
            reads[key].move_to(np.array([pos[0], pos[1], 0.0]))
        readouts = VGroup(*reads.values())

        for key, mob in reads.items():
            mob.number.add_updater(lambda m, key=key: m.set_value(preservation(self.X, self.Y, th())[key]))
            mob.number.update()
        a2 = sci_line(
            "1000 组随机向量：最大偏差 ", figures.fmt_sci(checks.a2_preservation()), text_size=theme.SIZE_SMALL + 2
        ).move_to(np.array([PANEL_X - 0.3, -0.6, 0.0]))
        self.watch(
            "norm",
            lambda: {
                "theta": th(),
                **{k: v.number.text for k, v in reads.items()},
                "on_screen": self.on_screen(readouts),
            },
        )
        with self.cue("norm") as cue:
            vec.clear_updaters()  # it fades out while θ winds back: keep it where it is
            self.play(
                FadeOut(f_shape),
                FadeOut(det_formula),
                FadeOut(det_read),
                FadeOut(mirror),
                FadeOut(cross),
                FadeOut(mirror_words),
                FadeOut(a1),
                FadeOut(vec),
                FadeOut(ccw),
                theta.animate.set_value(_deg(360 * 2)),
                run_time=cue.share(0.2),
            )
            self.add(xa, ya)
            self.play(FadeIn(ghosts), FadeIn(xa), FadeIn(ya), FadeIn(readouts), run_time=cue.share(0.2))
            # the names come in as the turned pair leaves the grey x, y (at θ = 0 they would sit on each other)
            self.play(
                theta.animate.set_value(_deg(720 + 110)), FadeIn(labels), FadeIn(ghost_labels), run_time=cue.share(0.35)
            )
            self.play(FadeIn(a2), run_time=cue.remaining())
        self.probe("a2", shown=a2.typst_code, error=checks.a2_preservation())

        # -- inner: the move the course's proofs use: turn both together, the dot product stays -------
        def gap_arc():
            ax = np.arctan2(*turned_points([self.X], th())[0][::-1])
            ay = np.arctan2(*turned_points([self.Y], th())[0][::-1])
            return Arc(
                radius=0.55,
                start_angle=float(ax),
                angle=float((ay - ax) % (2 * np.pi)),
                arc_center=CENTER,
                color=theme.ANGLE,
                stroke_width=5,
            )

        arc = gap_arc()
        arc.add_updater(lambda m: m.become(gap_arc()))
        box = SurroundingRectangle(VGroup(reads["dot"], reads["dot_r"]), color=theme.SCORE, buff=0.15)
        # (Rx)·(Ry) = xᵀ RᵀR y = xᵀ y: the second property from the first, in one line
        derive = theme.formula("(R x) dot (R y) = x^T {{R^T R : rtr}} y = x^T y = x dot y", font_size=40)
        derive.move_to(np.array([PANEL_X, -0.65, 0.0]))
        rtr = VGroup(*derive.select("rtr")).set_color(theme.HIGHLIGHT)  # RᵀR, marked "= I" under it
        rtr_note = theme.typst_text("$= I$", color=theme.HIGHLIGHT, font_size=TYPST * theme.SIZE_SMALL)
        rtr_note.next_to(rtr, DOWN, buff=0.12)
        wall = theme.body_text(WALL, color=theme.SCORE).move_to(np.array([PANEL_X, -1.75, 0.0]))
        self.probe("derive", shown=derive.typst_code, wall=wall.text)
        with self.cue("inner") as cue:
            self.play(FadeOut(a2), Create(box), FadeIn(arc), run_time=cue.share(0.15))
            self.play(FadeIn(derive), run_time=cue.share(0.25))
            self.play(
                FadeIn(rtr_note),
                theta.animate.set_value(_deg(720 + 250)),
                run_time=cue.share(0.3),
            )
            self.play(FadeIn(wall), run_time=cue.remaining())

        # -- seat_number: wearing a seat number leaves the meaning alone --------------------------
        seat = VGroup(
            theme.typst_text(
                '这一课：转的是钟的读数 $"PE"(n)$', color=theme.POSITION, font_size=TYPST * (theme.SIZE_SMALL + 4)
            ),
            theme.typst_text(
                "词向量 $x$ 不转；读数长度不变", color=theme.POSITION, font_size=TYPST * (theme.SIZE_SMALL + 4)
            ),
        )
        seat.arrange(DOWN, aligned_edge=LEFT, buff=0.15).move_to(np.array([PANEL_X, 2.35, 0.0]))
        # P2 (review 6): only what is new here; the RoPE contrast is said once, in rot_opening
        self.probe("seat_number", seat=[m.typst_code for m in seat])
        # P3 (review 9): under "词向量 x 不转" no arrow named x (or Rx) turns. The x, y pair leaves; one clock
        # pointer, named PE(n), steps on by the same fixed angle per seat, its length kept
        seat_n = ValueTracker(0.0)
        pe = SpinArrow(
            (1.0, 0.0),
            lambda: seat_n.get_value() * np.radians(self.PE_STEP_DEG),
            scale=SCALE,
            center=CENTER,
            color=theme.POSITION,
        )
        pe_label = theme.typst_text('$"PE"(n)$', color=theme.POSITION, font_size=TYPST * (theme.SIZE_SMALL + 4))
        pe_label.add_updater(
            lambda m: m.move_to(
                pe.tip_point() + 0.45 * (pe.tip_point() - CENTER) / np.linalg.norm(pe.tip_point() - CENTER)
            )
        )
        n_num = GlyphNumber(
            lambda v: f"{int(np.floor(v + 1e-9)):d}",
            0,
            max_chars=2,
            chars="0123456789",
            font_size=theme.SIZE_SMALL + 4,
            color=theme.POSITION,
        )
        n_read = VGroup(theme.body_text("n =", color=theme.POSITION, font_size=theme.SIZE_SMALL + 4), n_num)
        n_num.next_to(n_read[0], RIGHT, buff=0.18)
        n_read.move_to(angle, aligned_edge=LEFT)
        n_num.add_updater(lambda m: m.set_value(seat_n.get_value()))
        xy = VGroup(xa, ya, labels, ghosts, ghost_labels)
        self.watch(
            "seat_pe",
            lambda: {
                "theta": th(),
                "xy_on": self.on_screen(xy),
                "n": float(seat_n.get_value()),
                "n_text": n_num.text,
                "pe_on": self.on_screen(pe.arrow),
                "pe_label": pe_label.typst_code,
                "step_deg": self.PE_STEP_DEG,
                **pe.probe_values(),
            },
        )
        with self.cue("seat_number") as cue:
            self.swap(r_parts, FadeIn(seat), run_time=cue.share(0.25))
            self.play(
                *[FadeOut(m) for m in (wall, derive, rtr_note, xy, arc, box, readouts, angle)],
                run_time=cue.share(0.15),
            )
            arc.clear_updaters()
            self.play(FadeIn(pe), FadeIn(pe_label), FadeIn(n_read), run_time=cue.share(0.1))
            # "往后挪一个位置，每根指针多转一个固定角度": seat by seat, one fixed step each
            for k in range(1, self.PE_SEATS + 1):
                self.play(seat_n.animate.set_value(float(k)), run_time=min(cue.share(0.1), cue.remaining()))
            cue.hold()
