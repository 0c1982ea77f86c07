"""Clocks of different speeds: hand i turns ω_i per step.

One class, :class:`ClockSpeeds`, draws two scenes (its ``PARAMS`` by scene id), and the module is named for the
first: ``clock_row`` (trig_to_rope) draws RoPE's four planes of d = 8, each hand showing how far k has turned
past q at a distance n − m; ``clock_row_paper`` (word_order) draws the paper's clocks, whose hands name
positions.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, Arrow, Create, FadeIn, Line, SurroundingRectangle, VGroup

from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import ClockRow


class ClockSpeeds(NarratedScene):
    """intro → speeds (fast to slow) → step (p·ω_i) → unique (a table of hand angles) → takeaway; the paper's
    scenes (:class:`PaperClockSpeeds`) add readings (the last position's sin and cos rows) after unique.

    ``PARAMS`` picks the encoding by plan id: d = 8 draws RoPE's 4 planes and their speeds (in radians,
    with 1 弧度 ≈ 57° beside them), the counter and the table in distances n − m; the paper's d = 512 draws 5 representative clocks, says so on
    screen, writes the paper's formula, and adds the last position's two readings (sin, cos) under
    the table. Each lesson names a position its own way (位置 in trig_to_rope, 座位 in word_order).
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
            "show_speeds": True,
            "readings": False,
            "positions": (0, 1, 2, 3, 44),
            "takeaway": "快慢搭配：近处远处都顾得上",
        },
        "clock_row_paper": {
            "d": 512,
            "indices": (0, 64, 128, 192, 255),
            "note": "d = 512：共 256 个钟，这里只画其中 5 个",
            "unit": "个座位",
            "row_label": "座位 {p}",
            "counter": "座位 =",
            "show_speeds": False,
            "readings": True,
            "positions": (0, 1, 2, 44),
            # requirement 1 (unique) and requirement 2 (readings), each ticked under the table in its own cue
            "ticks": ("第一条：座位不同，读数就不同 ✓", "第二条：读数都在 −1 到 1 之间 ✓"),
            "takeaway": "三条要求，一次满足",
        },
    }
    STEPS = (1, 2, 3, 4, 5)
    TICK_Y = 2.97  # the requirement ticked, above the clocks and under the header (the takeaway takes it over)
    #: the paper's formula (word_order): the two readings of clock i at position pos, and its speed
    PAPER_FORMULA = (
        '"PE"("pos", 2i) = sin("pos" dot omega_i), quad "PE"("pos", 2i+1) = cos("pos" dot omega_i)',
        "omega_i = 10000^(-2i \\/ 512), quad i = 0, 1, ..., 255",
    )

    def construct(self) -> None:
        params = self.PARAMS.get(self.plan.id)
        if params is None:
            raise KeyError(f"ClockSpeeds has no parameters for scene {self.plan.id!r} (known: {sorted(self.PARAMS)})")
        # 44: the fastest clock is back near 0°, the next one is not
        self.TABLE_POSITIONS = params["positions"]
        n = len(params["indices"])
        # more clocks: closer together, and the row shifted right to leave room for the table's labels
        row = ClockRow(
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
        if "counter" in params:  # the paper's: its label put in place of the default one
            row.counter.label.become(theme.body_text(params["counter"], color=theme.TEXT).move_to(row.counter.label))
        counter = row.counter.move_to(np.array([0.0, -1.85, 0.0]))
        header = self.header()
        note = theme.body_text(params["note"], color=theme.TEXT).move_to(np.array([0.0, 3.1, 0.0]))
        if params["show_speeds"]:  # the wavelengths go under the speeds
            row.wavelength_labels.next_to(row.speed_labels, DOWN, buff=0.25)
            formula = theme.formula("omega_i = 10000^(-2i \\/ d)", color=theme.ANGLE).move_to(
                np.array([0.0, -1.05, 0.0])
            )
            aside = theme.small_text(f"1 弧度 ≈ {figures.value('one_rad_deg')}°", color=theme.ANGLE)
            aside.move_to(np.array([0.0, -1.05, 0.0]))
        else:  # the paper's own formula, once
            formula = VGroup(*[theme.formula(src, color=theme.TEXT, font_size=40) for src in self.PAPER_FORMULA])
            formula.arrange(DOWN, buff=0.2).move_to(np.array([0.0, -1.3, 0.0]))
            aside = None
        table = self._table(row, params)
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
            },
        )

        with self.cue("intro") as cue:
            self.play(FadeIn(header), FadeIn(note), run_time=cue.share(0.2))
            self.play(Create(row.faces), FadeIn(row.names), run_time=cue.share(0.25))
            self.play(Create(row.hands), run_time=cue.share(0.12))
            self.add(row)
            if params["show_speeds"]:
                self.play(FadeIn(row.speed_labels, lag_ratio=0.4), run_time=cue.share(0.25))
                self.play(FadeIn(aside), run_time=cue.share(0.1))
            else:
                self.play(FadeIn(formula, lag_ratio=0.3), run_time=cue.share(0.25))

        with self.cue("speeds") as cue:
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
            if params["show_speeds"]:
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
            # the labels under the clocks leave before the table takes their place (the speeds were drawn
            # only where show_speeds: fading out labels never shown would draw them)
            gone = [row.wavelength_labels] + ([row.speed_labels] if params["show_speeds"] else []) + [counter, note]
            self.swap(gone, FadeIn(table.angles), run_time=cue.share(0.25))
            first, last = table.cells[0][0], table.cells[-1][0]
            same = VGroup(
                SurroundingRectangle(first, color=theme.HIGHLIGHT, buff=0.06),
                SurroundingRectangle(last, color=theme.HIGHLIGHT, buff=0.06),
            )
            differ = VGroup(
                SurroundingRectangle(table.cells[0][1], color=theme.HIGHLIGHT, buff=0.06),
                SurroundingRectangle(table.cells[-1][1], color=theme.HIGHLIGHT, buff=0.06),
            )
            # the hands go to the last row's position while its readings are boxed
            self.play(row.make_step_animation(self.TABLE_POSITIONS[-1]), Create(same), run_time=cue.share(0.3))
            self.play(Create(differ), run_time=cue.share(0.25))
            marks = [same, differ]
            if params.get("ticks"):  # requirement 1, ticked above the clocks
                tick = theme.body_text(params["ticks"][0], color=theme.HIGHLIGHT).move_to(
                    np.array([0.0, self.TICK_Y, 0.0])
                )
                self.play(FadeIn(tick), run_time=cue.remaining())
                marks.append(tick)
            self.probe(
                "table",
                positions=list(self.TABLE_POSITIONS),
                w=row.w.tolist(),
                shown=[[c.text for c in r] for r in table.cells],
                readings=[[c.text for c in r] for r in table.readings],
                sin_cos=row.sin_cos(self.TABLE_POSITIONS[-1]).tolist() if table.readings else [],
                boxed=[[c.text for c in (table.cells[0][j], table.cells[-1][j])] for j in (0, 1)],
                tick=marks[-1].text if params.get("ticks") else None,
            )

        if "readings" in self.CUES:
            with self.cue("readings") as cue:
                # the boxes and the first tick leave; the two reading rows come in, boxed, and requirement 2
                tick2 = theme.body_text(params["ticks"][1], color=theme.HIGHLIGHT).move_to(
                    np.array([0.0, self.TICK_Y, 0.0])
                )
                self.swap(marks, FadeIn(table.reading_rows), run_time=cue.share(0.3))
                rows_box = SurroundingRectangle(
                    VGroup(*table.readings[0], *table.readings[1]), color=theme.HIGHLIGHT, buff=0.06
                )
                self.play(Create(rows_box), run_time=cue.share(0.25))
                self.hold_to(max(self.frame, cue.start_frame + int(0.75 * cue.plan.speech_frames)))
                self.play(FadeIn(tick2), run_time=cue.remaining())
                values = row.sin_cos(self.TABLE_POSITIONS[-1])
                self.probe(
                    "readings",
                    shown=[[c.text for c in r] for r in table.readings],
                    sin_cos=values.tolist(),
                    boxed=[c.text for r in table.readings for c in r],
                    tick=tick2.text,
                    on_screen=[self.on_screen(m) for m in (table.reading_rows, rows_box, tick2)],
                )

        with self.cue("takeaway") as cue:
            line = theme.body_text(params["takeaway"], color=theme.HIGHLIGHT)
            line.move_to(np.array([0.0, 3.1, 0.0]))
            if "readings" in self.CUES:  # the takeaway takes the second tick's place
                self.swap([tick2], FadeIn(line), run_time=cue.share(0.3))
            else:
                self.play(FadeIn(line), run_time=cue.share(0.3))

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
    """The paper's clocks (word_order): :class:`ClockSpeeds` with one more cue, readings, after unique: the
    last position's sin and cos rows come in, boxed, and requirement 2 is ticked (requirement 1 in unique)."""

    SCENE_IDS = ("clock_row_paper",)
    CUES = ("intro", "speeds", "step", "unique", "readings", "takeaway")
