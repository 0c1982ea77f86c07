"""移位矩阵：读数往后挪 k 个位置 — PE(n+k) = M_k PE(n) (lesson 2's requirement 3), and the row-vector pitfall that turns back
(R(θ)ᵀ = R(−θ), so M_kᵀ = M_−k).

Layout convention: the narration (doc 000 §4) puts each hand's pair as (cos, sin);
``mathcore`` stores (sin, cos) and its ``shift_matrix`` has blocks R(−w_i k). The
scene shows the narration's (cos, sin) layout throughout and gets every number
from ``mathcore.rotation_facts.cos_first_pe`` / ``cos_first_shift_matrix``, which
only re-order mathcore's own coordinates (blocks become R(w_i k)). It is the same
machine (narration/DISCREPANCIES.md, "Pair order in PE"). The pitch cue says that lesson 2 put sin first and
this lesson puts cos first; the machine cue says why (cos first makes each block the forward turn R(ω_i k); in
lesson 2's order the same block is R(−ω_i k), the hands still go forward), beside the footnote under the block
matrix that writes it (review 4, P4; review 12, M1).

Label equals drawing: the watches ``hands`` (the counter n and the cos/sin readings as drawn,
the hands' raw start and end points), ``extra`` (the extra-turn arcs and their degree labels) and
the probe ``back_rows`` (the boxed rows) are read by tests/course/test_scene_shift_machine.py.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arc,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    MoveToTarget,
    SurroundingRectangle,
    VGroup,
)

from mathcore import checks
from mathcore.rotation_facts import cos_first_pe, cos_first_shift_matrix
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import ClockRow
from scenes.mobjects.glyph_number import GlyphNumber, fixed
from scenes.mobjects.sci_figure import sci_line

D = 8
ROW_Y = 1.95
GRID_CENTER = np.array([-2.27, -0.39, 0.0])
SIDE_LEFT = 2.45  # the machine's notes start here, right of the grid
RIGHT_X = 4.1
TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size


def _entry(x: float, places: int = 2, zero: str = "0") -> str:
    """A matrix entry as drawn: ``places`` decimals, minus sign U+2212, an exact zero as ``zero``."""
    v = round(float(x), places) + 0.0
    return zero if float(x) == 0 else f"{v:.{places}f}".replace("-", "−")


def _points(mob) -> dict:
    """An arc's or a segment's raw drawn points."""
    return {"start": mob.get_start()[:2].tolist(), "end": mob.get_end()[:2].tolist()}


class ShiftMachine(NarratedScene):
    """clocks → pitch (pairs, d = 512 periods) → stagger → machine (M_1 grid) → formula → no_learning →
    check (A4) → pitfall (rows; the hands go to the boxed row n = k) → backwards (turns back k, to n = 0) → lesson."""

    SCENE_IDS = ("shift_machine",)
    CUES = (
        "clocks",
        "pitch",
        "stagger",
        "machine",
        "formula",
        "no_learning",
        "check",
        "pitfall",
        "backwards",
        "lesson",
    )
    K_SHOWN = 1  # the M_k drawn as numbers
    M_PLACES = 3  # its decimals: the slow blocks turn 0.01 and 0.001 rad per step
    K_BACK = 3  # the row pitfall turns back this far (checks.a4_row_pitfall's k)
    STEPS = (1, 2, 3)  # clocks: n = 0 → 3
    STAGGER_TO = figures.STAGGER_SEAT  # stagger: the hands walk on to this seat
    TABLE_ROWS = (0, 1, 2, 3, 4)

    @staticmethod
    def _hands_shown(row, n_num, opacity: float) -> list:
        """The hands and the counter's number faded to ``opacity`` (their updaters keep placing them). Only the
        number's glyph slots fade: its anchor is an invisible point, and must stay invisible."""
        n_num.generate_target()
        for slot in n_num.target.slots:
            slot.set_fill(opacity=opacity)
        return [row.hands.animate.set_stroke(opacity=opacity), MoveToTarget(n_num)]

    def construct(self) -> None:
        header = self.header()
        row = ClockRow(d=D, radius=0.55, spacing=2.7, center=np.array([0.4, ROW_Y, 0.0]))
        self.row = row
        n_of = lambda: row.p  # noqa: E731
        # the clocks are named by their speed, not by number (M2, review 10: lesson 2 numbers the d = 512 clocks,
        # where its 钟 1 is nearly as fast as 钟 0); their hands are 指针 (the course's glossary)
        names = VGroup(
            *[
                theme.small_text(f"{figures.value(f'w{i}_d8')} 弧度", color=theme.TEXT).next_to(face, UP, buff=0.15)
                for i, face in zip(row.indices, row.faces)
            ]
        )
        per_step = theme.small_text("一步转", color=theme.MUTED)
        per_step.move_to(np.array([-5.85, float(names[0].get_y()), 0.0]))
        self.probe("names", shown=[m.text for m in names], caption=per_step.text, w=row.w.tolist())
        names.add(per_step)
        n_label = theme.body_text("n =", color=theme.POSITION)
        n_num = GlyphNumber(lambda v: f"{round(v):d}", 0, max_chars=3, font_size=theme.SIZE_BODY, color=theme.POSITION)
        n_num.next_to(n_label, RIGHT, buff=0.18)
        counter = VGroup(n_label, n_num).move_to(np.array([-5.85, ROW_Y, 0.0]))
        n_num.add_updater(lambda m: m.set_value(n_of()))
        self.watch(
            "clocks", lambda: {**row.probe_values(), "n_shown": n_num.text, "n_on_screen": self.on_screen(n_num)}
        )
        self.watch(
            "hands",
            lambda: {
                "n_shown": n_num.text,
                "n_on_screen": self.on_screen(n_num),
                "centers": [c[:2].tolist() for c in row.centers],
                "hands": [_points(h) for h in row.hands],
                "hands_on_screen": self.on_screen(row.hands),
                "hands_opacity": [float(h.get_stroke_opacity()) for h in row.hands],
            },
        )

        # -- clocks: one hand per clock, angle = ω_i · n ---------------------------------------
        rule = theme.formula('"角度" = omega_i dot n', font_size=40).move_to(np.array([0.0, -0.35, 0.0]))
        with self.cue("clocks") as cue:
            self.play(FadeIn(header), Create(row.faces), FadeIn(names), FadeIn(counter), run_time=cue.share(0.2))
            row.remove(row.faces, row.names)  # static parts drawn once per play, only the hands move
            self.add(row)
            self.bring_to_back(header, row.faces, names, n_label)
            self.play(FadeIn(rule), run_time=cue.share(0.15))
            self.bring_to_back(rule)
            for j, p in enumerate(self.STEPS):
                frames = max(1, cue.frames_remaining() // (len(self.STEPS) - j))
                self.play_frames(row.make_step_animation(p), frames=frames)

        # -- pitch: each clock gives (cos, sin); d = 512 periods run geometrically ----------------
        pairs = VGroup()
        readings = []
        for i, c in enumerate(row.centers):
            cos_n = GlyphNumber(fixed(2), 0, max_chars=5, font_size=theme.SIZE_SMALL, color=theme.COS)
            sin_n = GlyphNumber(fixed(2), 0, max_chars=5, font_size=theme.SIZE_SMALL, color=theme.SIN)
            lab = VGroup(theme.small_text("cos", color=theme.COS), theme.small_text("sin", color=theme.SIN))
            lab[0].move_to(c + np.array([-0.55, -0.95, 0.0]))
            lab[1].move_to(c + np.array([-0.55, -1.35, 0.0]))
            cos_n.move_to(c + np.array([0.45, -0.95, 0.0]))
            sin_n.move_to(c + np.array([0.45, -1.35, 0.0]))
            pairs.add(lab, cos_n, sin_n)
            readings.append((cos_n, sin_n))

        for j, num in enumerate([num for pair in readings for num in pair]):  # entry j of PE(n): (cos, sin) pairs
            num.add_updater(lambda m, j=j: m.set_value(cos_first_pe([n_of()], D)[0][j]))
            num.update()
        self.watch(
            "pairs",
            lambda: {
                "n": n_of(),
                "shown": [[cn.text, sn.text] for cn, sn in readings],
                "on_screen": self.on_screen(readings[0][0]),
                "hands": [_points(h) for h in row.hands],
                "centers": [c[:2].tolist() for c in row.centers],
            },
        )
        pe_formula = theme.formula(
            '"PE"(n) = (cos omega_0 n, sin omega_0 n, cos omega_1 n, sin omega_1 n, ...)', font_size=34
        )
        pe_formula.move_to(np.array([0.0, -0.05, 0.0]))
        # each pair is (cos, sin) here, and lesson 2 put sin first, as the voice says (M1, review 12); why the
        # order matters is the machine's footnote
        pair_note = theme.typst_text(
            "这里每对先 cos、再 sin（第二课先 sin）", color=theme.MUTED, font_size=TYPST * theme.SIZE_SMALL
        )
        pair_note.next_to(pe_formula, DOWN, buff=0.2)
        self.probe("pair_note", shown=pair_note.typst_code)
        with self.cue("pitch") as cue:
            self.play(FadeOut(rule), FadeIn(pairs), run_time=cue.share(0.2))
            self.play(FadeIn(pe_formula), FadeIn(pair_note), run_time=cue.share(0.2))
            cue.hold()

        # -- stagger: different speeds rarely line up again ---------------------------------------
        # P1, M2 (review 10): lessons 1 and 2 compared two seats hand by hand; here the row only walks on to 44
        # and the words refer back, naming no clock (lesson 2 numbers the d = 512 clocks otherwise)
        stagger = theme.body_text("快慢错开：位置不撞车（第一、二课）", color=theme.HIGHLIGHT).move_to(
            np.array([0.0, -1.6, 0.0])
        )
        self.probe("stagger", shown=stagger.text, seat=self.STAGGER_TO)
        self.watch("stagger_shown", lambda: {"on_screen": self.on_screen(stagger)})
        with self.cue("stagger") as cue:
            # P5 (review 11): no d = 512 aside between the 8-dimension beats
            self.play(FadeOut(pe_formula), FadeOut(pair_note), run_time=cue.share(0.12))
            self.play(row.make_step_animation(self.STAGGER_TO), run_time=cue.share(0.33))
            self.play(FadeIn(stagger), run_time=cue.share(0.15))

        # -- machine: M_1 as numbers, one 2x2 block per clock ----------------------------------------
        m = cos_first_shift_matrix(self.K_SHOWN, D)
        shown = [[_entry(x, self.M_PLACES) for x in r] for r in m]
        cells = [
            [
                f"{{{{{shown[i][j]} : b{i // 2}}}}}" if i // 2 == j // 2 else f"{{{{{shown[i][j]} : z}}}}"
                for j in range(D)
            ]
            for i in range(D)
        ]
        grid = theme.formula(
            (
                # the parentheses a medium space off the entries, so the blocks' frames clear them
                f"M_{self.K_SHOWN} = lr(( med mat(delim: #none, column-gap: #0.2em, row-gap: #0.15em, "
                + "; ".join(", ".join(r) for r in cells)
                + ") med ))"
            ).replace("−", "-"),
            font_size=32,
        )
        VGroup(*grid.select("z")).set_color(theme.MUTED)  # the zeros off the blocks: quiet
        grid.move_to(GRID_CENTER)
        blocks = VGroup(
            *[
                SurroundingRectangle(VGroup(*grid.select(f"b{b}")), color=theme.HIGHLIGHT, buff=0.07, stroke_width=3)
                for b in range(D // 2)
            ]
        )
        side = VGroup(
            theme.typst_text("移位矩阵 $M_k$", color=theme.TEXT, font_size=TYPST * theme.SIZE_BODY),
            theme.typst_text(
                f"（这里 $k = {self.K_SHOWN}$，$d = {D}$）", color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL
            ),
            theme.typst_text("第 $i$ 块 $= R(omega_i k)$：", color=theme.HIGHLIGHT, font_size=TYPST * theme.SIZE_SMALL),
            theme.typst_text(
                "第 $i$ 根指针多转 $omega_i k$", color=theme.HIGHLIGHT, font_size=TYPST * theme.SIZE_SMALL
            ),
            VGroup(
                theme.typst_text("慢的指针每步只转", color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL),
                theme.typst_text(
                    f"{figures.value('w2_d8')}、{figures.value('w3_d8')} 弧度",
                    color=theme.TEXT,
                    font_size=TYPST * theme.SIZE_SMALL,
                ),
                theme.typst_text(
                    f"（1 弧度 ≈ {figures.value('w0_d8_deg')}°）", color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL
                ),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.1),
        )
        side.arrange(DOWN, aligned_edge=LEFT, buff=0.14)
        side[4].shift(0.12 * DOWN)
        side.next_to(np.array([SIDE_LEFT, 1.2, 0.0]), DOWN + RIGHT, buff=0)
        # the footnote on the pair order (P4): lesson 2 drew (sin, cos) pairs (scenes/clock_row.py); in that
        # order each block turns the other way on paper, the hands still go forward
        order_note = theme.typst_text(
            "注：第二课每对先 sin 后 cos；照那样排，每一块写成 $R(-omega_i k)$",
            color=theme.MUTED,
            font_size=TYPST * (theme.SIZE_SMALL - 4),
        )
        order_note.next_to(grid, DOWN, buff=0.06).align_to(grid, LEFT)
        self.probe("order_note", shown=order_note.typst_code, bottom=float(order_note.get_bottom()[1]))
        self.watch("order_note_shown", lambda: {"on_screen": self.on_screen(order_note)})
        self.probe("rad_note", shown=side[4][2].typst_code)
        self.probe(
            "matrix",
            k=self.K_SHOWN,
            shown=shown,
            places=self.M_PLACES,
            slow_note=side[4][1].typst_code,
            w=row.w.tolist(),
        )
        with self.cue("machine") as cue:
            self.play(FadeOut(stagger), FadeOut(pairs), run_time=cue.share(0.12))
            self.play(FadeIn(grid), FadeIn(side[0]), FadeIn(side[1]), run_time=cue.share(0.25))
            self.play(
                Create(blocks, lag_ratio=0.5),
                FadeIn(side[2]),
                FadeIn(side[3]),
                FadeIn(order_note),
                run_time=cue.share(0.35),
            )
            self.play(FadeIn(side[4]), run_time=cue.remaining())
        self.settle(grid, blocks, side, order_note)

        # -- formula ------------------------------------------------------------------------------
        shift_formula = theme.formula('"PE"(n+k) = M_k dot "PE"(n)', font_size=38, color=theme.HIGHLIGHT)
        shift_formula.next_to(np.array([SIDE_LEFT, 0.2, 0.0]), RIGHT, buff=0)
        # lesson 2's third requirement: one step to the right is always the same change
        req = VGroup(
            theme.small_text("= 第二课的第三条要求：", color=theme.HIGHLIGHT),
            theme.small_text("不管从哪个位置出发，", color=theme.TEXT),
            theme.small_text("往后挪 k 步都一样", color=theme.TEXT),
        )
        req.arrange(DOWN, aligned_edge=LEFT, buff=0.1).next_to(np.array([SIDE_LEFT, -0.3, 0.0]), DOWN + RIGHT, buff=0)
        self.probe("requirement", shown=[m.text for m in req])
        with self.cue("formula") as cue:
            self.swap([*side[1:], order_note], FadeIn(shift_formula, shift=0.2 * UP), run_time=cue.share(0.35))
            self.bring_to_back(shift_formula)
            self.play(FadeIn(req, lag_ratio=0.3), run_time=cue.share(0.35))

        # -- no_learning: every hand turns a little more, all at once --------------------------------
        no_learn = theme.body_text("现成就有，处处成立", color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL + 4)
        no_learn.next_to(np.array([SIDE_LEFT, -0.7, 0.0]), RIGHT, buff=0)
        # the extra turn w_i k of each hand: an arc inside its face, its size in degrees under it (the slow
        # hands' arcs are true to size, so almost invisible: the numbers say how little they turn)
        turns = row.readings([self.STAGGER_TO + self.K_SHOWN])[0] - row.readings([self.STAGGER_TO])[0]
        turns = (turns + 180.0) % 360.0 - 180.0  # the extra turn itself (mathcore's hand angles)
        extra = VGroup(
            *[
                Arc(
                    radius=0.36,
                    start_angle=float(self.STAGGER_TO * w),
                    angle=float(np.radians(t)),
                    arc_center=c,
                    color=theme.ANGLE,
                    stroke_width=6,
                )
                for w, t, c in zip(row.w, turns, row.centers)
            ]
        )
        extra_labels = VGroup(
            *[
                theme.small_text(f"+{figures.fmt_dec(t, 2)}°", color=theme.ANGLE)
                .next_to(face, RIGHT, buff=0.1)
                .shift(0.25 * DOWN)
                for t, face in zip(turns, row.faces)
            ]
        )
        self.watch(
            "extra",
            lambda: {
                "on_screen": self.on_screen(extra),
                "labels_on_screen": self.on_screen(extra_labels),
                "shown": [lab.text for lab in extra_labels],
                "k": self.K_SHOWN,
                "arcs": [{"center": a.arc_center[:2].tolist(), **_points(a)} for a in extra],
            },
        )
        with self.cue("no_learning") as cue:
            self.play(FadeOut(req), Create(extra), FadeIn(extra_labels), run_time=cue.share(0.25))
            self.play(row.make_step_animation(self.STAGGER_TO + self.K_SHOWN), run_time=cue.share(0.35))
            self.play(FadeIn(no_learn), run_time=cue.remaining())

        # -- check: A4 measured --------------------------------------------------------------------
        a4 = figures.fmt_sci(checks.a4_shift())
        check = VGroup(
            theme.small_text(f"d = {D}，k = 1 和 3：", color=theme.TEXT),
            sci_line("最大偏差 ", a4, color=theme.HIGHLIGHT, text_size=theme.SIZE_SMALL + 4),
            theme.small_text("只是舍入误差", color=theme.TEXT),
        )
        check.arrange(DOWN, aligned_edge=LEFT, buff=0.12).next_to(
            np.array([SIDE_LEFT, -0.7, 0.0]), DOWN + RIGHT, buff=0
        )
        self.probe("check", shown=check[1].typst_code, error=checks.a4_shift())
        with self.cue("check") as cue:
            self.play(FadeOut(no_learn), FadeOut(extra), FadeOut(extra_labels), run_time=cue.share(0.2))
            self.play(FadeIn(check), run_time=cue.share(0.35))
            self.bring_to_back(check)

        # -- pitfall: the PE table has one position per ROW ------------------------------------------
        pe = cos_first_pe(list(self.TABLE_ROWS), D)
        table_shown = [[_entry(x, 2, zero="0.00") for x in r] for r in pe]  # one format in every cell
        rows_src = "; ".join(", ".join(f"{{{{{x} : r{r}}}}}" for x in cells) for r, cells in enumerate(table_shown))
        # the parentheses a thick space off the entries, so the row frames clear them
        table = theme.formula(
            f"lr(( thick mat(delim: #none, row-gap: #0.45em, {rows_src}) thick ))".replace("−", "-"), font_size=32
        )
        table.move_to(np.array([-1.75, 0.1, 0.0]))
        row_labels = VGroup(
            *[
                theme.small_text(f"PE({n})", color=theme.POSITION).move_to(
                    np.array([table.get_left()[0] - 0.65, VGroup(*table.select(f"r{r}")).get_y(), 0.0])
                )
                for r, n in enumerate(self.TABLE_ROWS)
            ]
        )
        table.add(row_labels)
        in_row = self.TABLE_ROWS.index(self.K_BACK)
        out_row = self.TABLE_ROWS.index(0)
        row_box = SurroundingRectangle(VGroup(*table.select(f"r{in_row}")), color=theme.HIGHLIGHT, buff=0.08)
        notes = VGroup(
            # K7 (review 11): the experiment first, the reason after the hands have gone back
            theme.typst_text("表里一行 = 一个位置", color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL),
            theme.typst_text("把这一行放左边，乘 $M_3$", color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL),
            # K4 (review 12): the puzzle before the result: where the hands should land
            theme.typst_text("照理该到 6 号", color=theme.MUTED, font_size=TYPST * theme.SIZE_SMALL),
        )
        notes.arrange(DOWN, aligned_edge=LEFT, buff=0.3).move_to(np.array([RIGHT_X + 0.3, 0.3, 0.0]))
        self.probe("pe_table", rows=list(self.TABLE_ROWS), shown=table_shown)
        # the boxed rows against the hands: each row label as drawn (text, centre) and each box's drawn extent
        boxes = {"in": row_box}

        def _box(b):  # drawn from the first frame of its FadeIn on (on_screen() is False while it animates)
            return {
                "on_screen": b in self.get_mobject_family_members(),
                "bottom": float(b.get_bottom()[1]),
                "top": float(b.get_top()[1]),
            }

        self.watch(
            "rows",
            lambda: {
                "n_shown": n_num.text,
                "n_on_screen": self.on_screen(n_num),
                "centers": [c[:2].tolist() for c in row.centers],
                "hands": [_points(h) for h in row.hands],
                "labels": [{"text": lab.text, "y": float(lab.get_y())} for lab in row_labels],
                "labels_on_screen": self.on_screen(row_labels),
                **{f"box_{k}": _box(b) for k, b in boxes.items()},
            },
        )
        with self.cue("pitfall") as cue:
            self.play(
                FadeOut(grid),
                FadeOut(blocks),
                FadeOut(side[0]),
                FadeOut(check),
                FadeOut(shift_formula),
                *self._hands_shown(row, n_num, 0.0),
                run_time=cue.share(0.15),
            )
            # the hands start again at the row about to be boxed (n = K_BACK), as the table comes in. They fade
            # out and back in rather than turning back from n = STAGGER_TO + 1, which would be a silent backward turn one
            # cue before "指针反而往回拨" (review 4, P5; the unit circle's readout does the same)
            row.set_position(self.K_BACK)
            n_num.set_value(self.K_BACK)  # its updater waits while it fades: back in at n = K_BACK
            self.play(FadeIn(table), FadeIn(notes[0]), *self._hands_shown(row, n_num, 1.0), run_time=cue.share(0.25))
            self.play(FadeIn(row_box), FadeIn(notes[1]), run_time=cue.share(0.3))
            self.play(FadeIn(notes[2]), run_time=cue.remaining())
        self.settle(table, notes[:3], row_box)

        # -- backwards: the hands go back k steps -----------------------------------------------------
        err = figures.fmt_sci(checks.a4_row_pitfall())
        back = VGroup(
            theme.formula(f'"PE"(n) M_{self.K_BACK} = "PE"(n - {self.K_BACK})', font_size=40, color=theme.HIGHLIGHT),
            sci_line(f"和 {self.K_BACK} 步之前的读数相比：最大差 ", err, text_size=theme.SIZE_SMALL + 2),
        )
        back.arrange(DOWN, buff=0.2).move_to(np.array([-1.6, -1.95, 0.0]))  # under the table, clear of the result
        start = self.K_BACK  # the hands rest on the boxed row PE(K_BACK) ...
        out_box = SurroundingRectangle(VGroup(*table.select(f"r{out_row}")), color=theme.HIGHLIGHT, buff=0.08)
        boxes["out"] = out_box  # ... and go back to PE(0), boxed when they get there
        result = theme.typst_text(
            f'$"PE"({self.K_BACK}) M_{self.K_BACK} = "PE"(0)$',
            color=theme.HIGHLIGHT,
            font_size=TYPST * theme.SIZE_SMALL,
        )
        result = VGroup(
            theme.typst_text(
                f"结果：指针往回拨了 {self.K_BACK} 步", color=theme.HIGHLIGHT, font_size=TYPST * theme.SIZE_SMALL
            ),
            result,
        )
        # why it turns back: the transpose of a rotation is the opposite rotation
        why = VGroup(
            theme.typst_text("$R(theta)^T = R(-theta)$，所以", color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL),
            theme.typst_text("$M_k^T = M_(-k)$：方向反了", color=theme.HIGHLIGHT, font_size=TYPST * theme.SIZE_SMALL),
        )
        why.arrange(DOWN, aligned_edge=LEFT, buff=0.12).next_to(notes[1].get_corner(UP + LEFT), DOWN + RIGHT, buff=0)
        self.probe("transpose", shown=[m.typst_code for m in why])
        result.arrange(DOWN, aligned_edge=LEFT, buff=0.1).next_to(why, DOWN, buff=0.3).align_to(notes, LEFT)
        self.probe(
            "backwards",
            shown=back[1].typst_code,
            formula=back[0].typst_code,
            error=checks.a4_row_pitfall(),
            k=self.K_BACK,
        )
        self.probe(
            "back_rows",
            input_row=self.TABLE_ROWS[in_row],
            output_row=self.TABLE_ROWS[out_row],
            result=result[1].typst_code,
            table_rows=list(self.TABLE_ROWS),
            pe=cos_first_pe([self.TABLE_ROWS[in_row]], D)[0].tolist(),
        )
        with self.cue("backwards") as cue:
            # the hands go back first (the experiment's result), then the reason: the transpose
            self.play(row.make_step_animation(start - self.K_BACK), FadeIn(back[0]), run_time=cue.share(0.4))
            self.bring_to_back(back[0])
            self.play(FadeIn(back[1]), FadeIn(out_box), FadeOut(notes[1:3]), FadeIn(result), run_time=cue.share(0.15))
            self.play(FadeIn(why), run_time=min(cue.remaining(), cue.share(0.2)))
            cue.hold()
        self.settle(back)

        # -- lesson -----------------------------------------------------------------------------------
        # L2, K4 (review 12): what gave the mistake away is the picture: the hands went back;
        # M1 (review 13): only one of the two layouts is right, the other only looks it
        lesson = theme.body_text("两种写法纸面上都像对：可有一种，指针往回拨", color=theme.HIGHLIGHT).move_to(
            np.array([0.0, -1.85, 0.0])
        )
        self.probe("lesson_text", shown=lesson.text)
        with self.cue("lesson") as cue:
            self.play(
                FadeOut(back),
                FadeOut(row_box),
                FadeOut(out_box),
                FadeOut(result),
                FadeOut(why),
                run_time=cue.share(0.2),
            )
            self.play(
                FadeIn(lesson), Indicate(notes[0], color=theme.HIGHLIGHT, scale_factor=1.05), run_time=cue.share(0.4)
            )
