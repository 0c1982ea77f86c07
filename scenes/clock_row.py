"""Clocks of different speeds: hand i turns ω_i per step.

One class, :class:`ClockSpeeds`, draws two scenes (its ``PARAMS`` by scene id), and the module is named for the
first: ``clock_row`` (trig_to_rope) draws RoPE's four planes of d = 8, each hand showing how far k has turned
past q at a distance n − m; ``clock_row_paper`` (word_order, :class:`PaperClockSpeeds`) recalls that row in
one picture and spends its time on what lesson 2 adds: the paper's formula, the sin and cos readings written
into x, their bound, and the one turn per clock that carries p(n) to p(n+1) at every n.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Arc, Arrow, Create, FadeIn, FadeOut, Line, SurroundingRectangle, VGroup

from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import ClockRow


class ClockSpeeds(NarratedScene):
    """Lesson 1's planes: intro (4 planes and their speeds) → speeds (fast to slow) → step (a distance counter
    1 … 5, every hand one step of its speed each time) → unique (a table of hand angles) → takeaway.

    ``PARAMS`` holds the drawing by plan id: d = 8 draws RoPE's 4 planes and their speeds (in radians, with
    1 弧度 ≈ 57° beside them), the counter and the table in distances n − m.
    """

    SCENE_IDS = ("clock_row",)
    CUES = ("intro", "speeds", "step", "unique", "takeaway")
    PARAMS = {
        # RoPE's planes: a hand is how far k has turned past q in its plane, (n − m)·ω_i, so the row and the
        # table speak of distances n − m, not of positions
        "clock_row": {
            "d": 8,
            "indices": (0, 1, 2, 3),
            "note": "d = 8：4 对维度，4 个平面",
            "name": "平面",
            "unit": "个位置",
            "row_label": "距离 {p}",
            "counter_label": "距离 n − m =",
            "table_title": "k 多转",
            "readings": False,
            "positions": (0, 1, 2, 3, 44),
            "takeaway": "快慢搭配：近处远处都顾得上",
        },
    }
    STEPS = (1, 2, 3, 4, 5)

    def params(self) -> dict:
        params = self.PARAMS.get(self.plan.id)
        if params is None:
            raise KeyError(
                f"{type(self).__name__} has no parameters for scene {self.plan.id!r} (known: {sorted(self.PARAMS)})"
            )
        # 44: the fastest clock is back near 0°, the next one is not
        self.TABLE_POSITIONS = params["positions"]
        return params

    def make_row(self, params: dict) -> ClockRow:
        n = len(params["indices"])
        # more clocks: closer together, and the row shifted right to leave room for the table's labels
        return ClockRow(
            d=params["d"],
            indices=params["indices"],
            radius=0.62,
            spacing=min(3.0, 12.5 / n),
            center=np.array([0.5 if n > 4 else 0.0, 1.45, 0.0]),
            unit=params["unit"],
            name=params.get("name", "钟"),
            counter_label=params.get("counter_label", "位置 p ="),
            label_size=theme.SIZE_SMALL if n <= 4 else 24,
        )

    def watch_clocks(self, row: ClockRow, table: VGroup, **extra) -> None:
        """Record the hands, the labels under them and the table on every drawn frame (``extra``: more
        values, each a function of nothing)."""
        self.watch(
            "clocks",
            lambda: {
                **row.probe_values(),
                **row.drawn(),
                "counter_on_screen": self.on_screen(row.counter),
                "speeds_on_screen": [self.on_screen(t) for t in row.speed_labels],
                "table": [[c.text for c in r] for r in table.cells],
                "table_labels": [lab.text for lab in table.labels],
                "readings": [[c.text for c in r] for r in table.readings],
                "table_on_screen": self.on_screen(table.angles),
                "readings_on_screen": self.on_screen(table.reading_rows),
                **{k: f() for k, f in extra.items()},
            },
        )

    def box_seat_against_zero(self, row: ClockRow, table: VGroup, cue) -> list:
        """unique: the hands go to the table's last position while the first two columns of the first and last
        rows are boxed (the fastest clock alike, the next one not); returns the boxes."""
        same = VGroup(
            SurroundingRectangle(table.cells[0][0], color=theme.HIGHLIGHT, buff=0.06),
            SurroundingRectangle(table.cells[-1][0], color=theme.HIGHLIGHT, buff=0.06),
        )
        differ = VGroup(
            SurroundingRectangle(table.cells[0][1], color=theme.HIGHLIGHT, buff=0.06),
            SurroundingRectangle(table.cells[-1][1], color=theme.HIGHLIGHT, buff=0.06),
        )
        self.play(row.make_step_animation(self.TABLE_POSITIONS[-1]), Create(same), run_time=cue.share(0.3))
        self.play(Create(differ), run_time=cue.share(0.25))
        return [same, differ]

    def probe_table(self, row: ClockRow, table: VGroup, tick=None) -> None:
        self.probe(
            "table",
            positions=list(self.TABLE_POSITIONS),
            w=row.w.tolist(),
            shown=[[c.text for c in r] for r in table.cells],
            readings=[[c.text for c in r] for r in table.readings],
            sin_cos=row.sin_cos(self.TABLE_POSITIONS[-1]).tolist() if table.readings else [],
            boxed=[[c.text for c in (table.cells[0][j], table.cells[-1][j])] for j in (0, 1)],
            tick=tick.text if tick is not None else None,
        )

    def construct(self) -> None:
        params = self.params()
        row = self.make_row(params)
        counter = row.counter.move_to(np.array([0.0, -1.85, 0.0]))
        header = self.header()
        note = theme.body_text(params["note"], color=theme.TEXT).move_to(np.array([0.0, 3.1, 0.0]))
        # the wavelengths go under the speeds
        row.wavelength_labels.next_to(row.speed_labels, DOWN, buff=0.25)
        formula = theme.formula("omega_i = 10000^(-2i \\/ d)", color=theme.ANGLE).move_to(np.array([0.0, -1.05, 0.0]))
        aside = theme.small_text(f"1 弧度 ≈ {figures.value('one_rad_deg')}°", color=theme.ANGLE)
        aside.move_to(np.array([0.0, -1.05, 0.0]))
        table = self._table(row, params)
        self.watch_clocks(row, table)

        with self.cue("intro") as cue:
            self.play(FadeIn(header), FadeIn(note), run_time=cue.share(0.2))
            self.play(Create(row.faces), FadeIn(row.names), run_time=cue.share(0.25))
            self.play(Create(row.hands), run_time=cue.share(0.12))
            self.add(row)
            self.play(FadeIn(row.speed_labels, lag_ratio=0.4), run_time=cue.share(0.25))
            self.play(FadeIn(aside), run_time=cue.share(0.1))

        with self.cue("speeds") as cue:
            fast_slow, ends = self._fast_slow(row)
            formula.next_to(fast_slow, DOWN, buff=0.22)
            self.swap([aside], FadeIn(formula), run_time=cue.share(0.3))
            self.play(FadeIn(row.wavelength_labels, lag_ratio=0.4), run_time=cue.share(0.3))
            self.play(Create(fast_slow), FadeIn(ends), run_time=cue.share(0.2))

        with self.cue("step") as cue:
            self.swap([fast_slow, ends, formula], FadeIn(counter), run_time=cue.share(0.15))
            for k, p in enumerate(self.STEPS):
                left = len(self.STEPS) - k
                frames = max(1, cue.frames_remaining() // left)
                self.play_frames(row.make_step_animation(p), frames=frames)

        with self.cue("unique") as cue:
            # the labels under the clocks leave before the table takes their place
            gone = [row.wavelength_labels, row.speed_labels, counter, note]
            self.swap(gone, FadeIn(table.angles), run_time=cue.share(0.25))
            self.box_seat_against_zero(row, table, cue)
            self.probe_table(row, table)

        with self.cue("takeaway") as cue:
            line = theme.body_text(params["takeaway"], color=theme.HIGHLIGHT)
            line.move_to(np.array([0.0, 3.1, 0.0]))
            self.play(FadeIn(line), run_time=cue.share(0.3))

    def _fast_slow(self, row: ClockRow) -> tuple[Arrow, VGroup]:
        """An arrow under the wavelengths from the first clock to the last, 快 at its tail and 慢 at its head."""
        y = row.wavelength_labels.get_bottom()[1] - 0.3
        fast_slow = Arrow(
            np.array([row.centers[0][0] - 0.3, y, 0.0]),
            np.array([row.centers[-1][0] + 0.3, y, 0.0]),
            color=theme.MUTED,
            buff=0,
            stroke_width=4,
        )
        ends = VGroup(
            theme.small_text("快", color=theme.TEXT).next_to(fast_slow, LEFT, buff=0.15),
            theme.small_text("慢", color=theme.TEXT).next_to(fast_slow, RIGHT, buff=0.15),
        )
        return fast_slow, ends

    def _table(self, row: ClockRow, params: dict) -> VGroup:
        """Hand angles in whole degrees: one row per position, one column per clock; where
        ``params["readings"]``, two more rows: the last position's sin and cos readings."""
        positions = self.TABLE_POSITIONS
        angles = row.readings(positions)
        xs = [c[0] for c in row.centers]
        label_x = xs[0] - 1.55
        top, step = 0.2, 0.44
        table, angle_rows, reading_rows = VGroup(), VGroup(), VGroup()
        table.cells, table.labels, table.readings = [], [], []
        title = theme.small_text(params.get("table_title", "指针角度"), color=theme.ANGLE).move_to(
            np.array([label_x, top + 0.5, 0.0])
        )
        angle_rows.add(title)
        for r, (p, vals) in enumerate(zip(positions, angles)):
            y = top - r * step
            label = theme.small_text(params["row_label"].format(p=p), color=theme.POSITION).move_to(
                np.array([label_x, y, 0.0])
            )
            cells = [
                theme.small_text(f"{int(round(v)) % 360}°", color=theme.TEXT).move_to(np.array([x, y, 0.0]))
                for x, v in zip(xs, vals)
            ]
            angle_rows.add(label, *cells)
            table.cells.append(cells)
            table.labels.append(label)
        if params["readings"]:
            y0 = top - len(positions) * step
            rule = Line(
                np.array([label_x - 0.6, y0 + step / 2, 0.0]),
                np.array([xs[-1] + 0.6, y0 + step / 2, 0.0]),
                color=theme.MUTED,
                stroke_width=2,
            )
            reading_rows.add(rule)
            for k, (name, color) in enumerate((("sin", theme.SIN), ("cos", theme.COS))):
                y = y0 - k * step
                label = theme.small_text(f"读数 {name}", color=color).move_to(np.array([label_x, y, 0.0]))
                cells = [
                    theme.small_text(figures.fmt_fixed(float(v), 2), color=color).move_to(np.array([x, y, 0.0]))
                    for x, v in zip(xs, row.sin_cos(positions[-1])[:, k])
                ]
                reading_rows.add(label, *cells)
                table.readings.append(cells)
        table.add(angle_rows, reading_rows)
        table.angles, table.reading_rows = angle_rows, reading_rows
        return table


class PaperClockSpeeds(ClockSpeeds):
    """The paper's clocks (word_order). Lesson 1's row is recalled in one picture (the clocks drawn, no
    stepping); the time goes to what lesson 2 adds:

    intro (the row and the paper's formula: seat pos's vector takes clock i's sin in dimension 2i and its cos
    in 2i+1) → speeds (each next clock's speed is the one before times one number < 1; the first and last
    wavelengths) → unique (seats 0 and 44: the fastest clock alike, clock 64 (lesson 1's plane 1) not; requirement 1 ticked) →
    readings (44's sin and cos rows, all within −1 … 1; requirement 2 ticked) → step (requirement 3: a faint
    hand per clock at seat 45 and the arc it turns, ω_i in degrees written under the table, the same for every
    start; ticked) → takeaway.
    """

    SCENE_IDS = ("clock_row_paper",)
    CUES = ("intro", "speeds", "unique", "readings", "step", "takeaway")
    BOOKMARKS = {"intro": ("formula",), "speeds": ("ends",), "step": ("turn", "any")}
    PARAMS = {
        "clock_row_paper": {
            "d": 512,
            "indices": (0, 64, 128, 192, 255),
            "note": "d = 512：共 256 个钟，这里只画其中 5 个",
            "unit": "个座位",
            "row_label": "座位 {p}",
            "readings": True,
            "positions": (0, 44),
            # requirements 1 (unique), 2 (readings) and 3 (step), each ticked above the clocks in its own cue
            "ticks": (
                "第一条：座位不同，读数就不同 ✓",
                "第二条：读数都在 −1 到 1 之间 ✓",
                "第三条：挪一个座位，每个钟转同一个角 ✓",
            ),
            # unique: clock 64 turns as fast as lesson 1's plane 1 (0.1 rad a seat), said and shown
            "same_clock": "钟 64：一步转 {w64_d512} 弧度，就是第一课的平面 1",
            "step_label": "每挪一步",
            "any_start": "0 → 1、44 → 45、5000 → 5001：都是这一组角度",
            "takeaway": "三条要求，一次满足",
        },
    }
    TICK_Y = 2.97  # the requirement ticked, above the clocks and under the header (the takeaway takes it over)
    #: the paper's formula: the two readings of clock i at position pos, and its speed
    PAPER_FORMULA = (
        '"PE"("pos", 2i) = sin("pos" dot omega_i), quad "PE"("pos", 2i+1) = cos("pos" dot omega_i)',
        "omega_i = 10000^(-2i \\/ 512), quad i = 0, 1, ..., 255",
    )

    @staticmethod
    def step_text(w: float) -> str:
        """One seat's turn of a clock, in degrees, two significant digits: +57°, +5.7°, +0.0059°."""
        return f"+{float(f'{np.degrees(w):.2g}'):g}°"

    def construct(self) -> None:
        params = self.params()
        row = self.make_row(params)
        header = self.header()
        note = theme.body_text(params["note"], color=theme.TEXT).move_to(np.array([0.0, 3.1, 0.0]))
        formula = VGroup(*[theme.formula(src, color=theme.TEXT, font_size=40) for src in self.PAPER_FORMULA])
        formula.arrange(DOWN, buff=0.2).move_to(np.array([0.0, -1.3, 0.0]))
        ratio = theme.small_text(f"i 每加 1：ω 乘上约 {figures.value('paper_speed_ratio')}", color=theme.ANGLE)
        ratio.next_to(formula, DOWN, buff=0.15)
        table = self._table(row, params)
        ticks = [
            theme.body_text(t, color=theme.HIGHLIGHT).move_to(np.array([0.0, self.TICK_Y, 0.0]))
            for t in params["ticks"]
        ]
        same_clock = theme.small_text(figures.fill(params["same_clock"]), color=theme.ANGLE)
        same_clock.move_to(np.array([0.0, -0.9, 0.0]))  # where the sin/cos rows come in the next cue
        nxt = self.TABLE_POSITIONS[-1] + 1  # the faint hands: the seat after the table's last one
        ghosts = VGroup(
            *[
                Line(c, c + 0.9 * row.radius * np.array([np.cos(nxt * w), np.sin(nxt * w), 0.0]), stroke_width=4)
                .set_color(theme.ANGLE)
                .set_opacity(0.4)
                for c, w in zip(row.centers, row.w)
            ]
        )
        arcs = VGroup(
            *[
                Arc(
                    radius=0.5 * row.radius,
                    start_angle=float(np.mod((nxt - 1) * w, 2 * np.pi)),
                    angle=float(w),
                    arc_center=c,
                    color=theme.ANGLE,
                    stroke_width=4,
                )
                for c, w in zip(row.centers, row.w)
            ]
        )
        xs = [c[0] for c in row.centers]
        y_step = table.readings[-1][0].get_y() - 0.62
        step_rule = Line(
            np.array([xs[0] - 2.15, y_step + 0.31, 0.0]),
            np.array([xs[-1] + 0.6, y_step + 0.31, 0.0]),
            color=theme.MUTED,
            stroke_width=2,
        )
        step_label = theme.small_text(params["step_label"], color=theme.ANGLE).move_to(
            np.array([table.labels[0].get_x(), y_step, 0.0])
        )
        step_cells = [
            theme.small_text(self.step_text(w), color=theme.ANGLE).move_to(np.array([x, y_step, 0.0]))
            for x, w in zip(xs, row.w)
        ]
        steps = VGroup(step_rule, step_label, *step_cells)
        any_start = theme.small_text(params["any_start"], color=theme.TEXT).move_to(np.array([0.0, y_step - 0.62, 0.0]))
        self.watch_clocks(
            row,
            table,
            ghosts_on_screen=lambda: self.on_screen(ghosts),
            steps_on_screen=lambda: self.on_screen(steps),
        )

        # -- intro: lesson 1's row, recalled in a picture; the paper's formula ---------------------------
        with self.cue("intro") as cue:
            self.play(FadeIn(header), FadeIn(note), run_time=cue.share(0.15))
            self.play(Create(row.faces), FadeIn(row.names), Create(row.hands), run_time=cue.share(0.25))
            self.add(row)
            self.hold_to(max(self.frame, cue.bookmark("formula")))
            self.play(FadeIn(formula[0]), run_time=cue.share(0.15))
            self.play(FadeIn(formula[1]), run_time=min(cue.share(0.1), cue.remaining()))

        # -- speeds: one factor per step of i; the first and last wavelengths ---------------------------
        with self.cue("speeds") as cue:
            self.play(FadeIn(ratio), run_time=cue.share(0.15))
            self.hold_to(max(self.frame, cue.bookmark("ends")))
            fast_slow, ends = self._fast_slow(row)
            self.play(FadeIn(row.wavelength_labels, lag_ratio=0.4), run_time=cue.share(0.3))
            self.play(Create(fast_slow), FadeIn(ends), run_time=cue.share(0.15))

        # -- unique: seats 0 and 44; requirement 1 ---------------------------------------------------
        with self.cue("unique") as cue:
            gone = [row.wavelength_labels, fast_slow, ends, formula, ratio, note]
            self.swap(gone, FadeIn(table.angles), run_time=cue.share(0.25))
            marks = self.box_seat_against_zero(row, table, cue)
            self.play(FadeIn(same_clock), run_time=cue.share(0.15))
            self.play(FadeIn(ticks[0]), run_time=cue.remaining())
            self.probe_table(row, table, ticks[0])
            self.probe("same_clock", text=same_clock.text, on_screen=self.on_screen(same_clock))

        # -- readings: the two rows written into x, within −1 … 1; requirement 2 ----------------------
        with self.cue("readings") as cue:
            self.swap([*marks, ticks[0], same_clock], FadeIn(table.reading_rows), run_time=cue.share(0.3))
            rows_box = SurroundingRectangle(
                VGroup(*table.readings[0], *table.readings[1]), color=theme.HIGHLIGHT, buff=0.06
            )
            self.play(Create(rows_box), run_time=cue.share(0.25))
            self.hold_to(max(self.frame, cue.start_frame + int(0.75 * cue.plan.speech_frames)))
            self.play(FadeIn(ticks[1]), run_time=cue.remaining())
            self.probe(
                "readings",
                shown=[[c.text for c in r] for r in table.readings],
                sin_cos=row.sin_cos(self.TABLE_POSITIONS[-1]).tolist(),
                boxed=[c.text for r in table.readings for c in r],
                tick=ticks[1].text,
                on_screen=[self.on_screen(m) for m in (table.reading_rows, rows_box, ticks[1])],
            )

        # -- step: requirement 3 as the narration states it (the same rule from p(n) to p(n+1), whatever n):
        #    the next seat's hands, faint, the arc each turns, ω_i in degrees under the table, any start ------
        with self.cue("step") as cue:
            self.play(FadeOut(rows_box), FadeOut(ticks[1]), run_time=cue.share(0.1))
            self.hold_to(max(self.frame, cue.bookmark("turn")))
            self.play(FadeIn(ghosts), Create(arcs), run_time=cue.share(0.15))
            self.play(FadeIn(steps, lag_ratio=0.2), run_time=cue.share(0.15))
            self.hold_to(max(self.frame, cue.bookmark("any")))
            self.play(FadeIn(any_start, shift=0.1 * UP), run_time=cue.share(0.12))
            self.hold_to(max(self.frame, cue.start_frame + int(0.8 * cue.plan.speech_frames)))
            self.play(FadeIn(ticks[2]), run_time=cue.remaining())
            self.probe(
                "step",
                seat=int(nxt),
                centers=[c.tolist() for c in row.centers],
                ghost_ends=[g.get_end().tolist() for g in ghosts],
                arc_starts=[float(a.start_angle) for a in arcs],
                arc_angles=[float(a.angle) for a in arcs],
                shown=[c.text for c in step_cells],
                label=step_label.text,
                any_start=any_start.text,
                tick=ticks[2].text,
                on_screen=[self.on_screen(m) for m in (ghosts, arcs, steps, any_start, ticks[2])],
            )

        with self.cue("takeaway") as cue:
            line = theme.body_text(params["takeaway"], color=theme.HIGHLIGHT)
            line.move_to(np.array([0.0, 3.1, 0.0]))
            self.swap([ticks[2]], FadeIn(line), run_time=cue.share(0.3))
