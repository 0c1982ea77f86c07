"""一排快慢不同的钟: clock i turns w_i per position; together they name every position."""
from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, Arrow, Create, FadeIn, FadeOut, SurroundingRectangle, VGroup

from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import ClockRow as ClockRowMob


class ClockRow(NarratedScene):
    """intro → speeds (fast to slow) → step (p·w_i) → unique (a table of readings) → takeaway.

    ``PARAMS`` picks the encoding by plan id: d = 8 draws all 4 clocks, the
    paper's d = 512 draws 5 representative clocks and says so on screen.
    """

    SCENE_IDS = ("clock_row", "clock_row_paper")
    CUES = ("intro", "speeds", "step", "unique", "takeaway")
    PARAMS = {
        "clock_row": {"d": 8, "indices": (0, 1, 2, 3), "note": "d = 8：4 个钟"},
        "clock_row_paper": {"d": 512, "indices": (0, 64, 128, 192, 255),
                            "note": "d = 512：共 256 个钟，这里只画其中 5 个"},
    }
    STEPS = (1, 2, 3, 4, 5)
    TABLE_POSITIONS = (0, 1, 2, 3, 44)   # 44: the fastest clock is back near 0°, the next one is not

    def construct(self) -> None:
        params = self.PARAMS.get(self.plan.id)
        if params is None:
            raise KeyError(f"ClockRow has no parameters for scene {self.plan.id!r} (known: {sorted(self.PARAMS)})")
        n = len(params["indices"])
        row = ClockRowMob(d=params["d"], indices=params["indices"], radius=0.62, spacing=min(2.4, 12.0 / n),
                          center=np.array([0.0, 1.2, 0.0]))
        self.watch("clocks", lambda: {**row.probe_values(), "counter_on_screen": self.on_screen(row.counter)})
        header = self.header()
        note = theme.body_text(params["note"], color=theme.TEXT).move_to(np.array([0.0, 3.1, 0.0]))

        with self.cue("intro") as cue:
            self.play(FadeIn(header), FadeIn(note), run_time=cue.share(0.25))
            self.play(Create(row.faces), FadeIn(row.names), run_time=cue.share(0.35))
            self.play(Create(row.hands), run_time=cue.remaining())
            self.add(row)

        with self.cue("speeds") as cue:
            fast_slow = Arrow(row.centers[0] + 1.75 * DOWN + 0.3 * LEFT, row.centers[-1] + 1.75 * DOWN + 0.3 * RIGHT,
                              color=theme.MUTED, buff=0, stroke_width=4)
            ends = VGroup(theme.small_text("快", color=theme.TEXT).next_to(fast_slow, LEFT, buff=0.15),
                          theme.small_text("慢", color=theme.TEXT).next_to(fast_slow, RIGHT, buff=0.15))
            self.play(FadeIn(row.wavelength_labels, lag_ratio=0.4), run_time=cue.share(0.5))
            self.play(Create(fast_slow), FadeIn(ends), run_time=cue.remaining())

        counter = row.counter.move_to(np.array([0.0, -1.3, 0.0]))
        with self.cue("step") as cue:
            self.play(FadeIn(counter), FadeOut(fast_slow), FadeOut(ends), run_time=cue.share(0.15))
            for k, p in enumerate(self.STEPS):
                left = len(self.STEPS) - k
                frames = max(1, cue.frames_remaining() // left)
                self.play_frames(row.make_step_animation(p), frames=frames)

        with self.cue("unique") as cue:
            table = self._table(row)
            self.play(FadeOut(row.wavelength_labels), FadeOut(counter), FadeOut(note), FadeIn(table),
                      run_time=cue.share(0.3))
            first, last = table.cells[0][0], table.cells[-1][0]
            same = VGroup(SurroundingRectangle(first, color=theme.ANGLE, buff=0.06),
                          SurroundingRectangle(last, color=theme.ANGLE, buff=0.06))
            differ = VGroup(SurroundingRectangle(table.cells[0][1], color=theme.HIGHLIGHT, buff=0.06),
                            SurroundingRectangle(table.cells[-1][1], color=theme.HIGHLIGHT, buff=0.06))
            self.play(Create(same), run_time=cue.share(0.3))
            self.play(Create(differ), run_time=cue.remaining())
            self.probe("table", positions=list(self.TABLE_POSITIONS), w=row.w.tolist(),
                       shown=[[c.text for c in r] for r in table.cells])

        with self.cue("takeaway") as cue:
            line = theme.body_text("快钟分辨邻居，慢钟管到远处", color=theme.HIGHLIGHT)
            line.move_to(np.array([0.0, 3.1, 0.0]))
            self.play(FadeIn(line), run_time=cue.share(0.3))

    def _table(self, row: ClockRowMob) -> VGroup:
        """Readings in whole degrees: one row per position, one column per clock."""
        readings = row.readings(self.TABLE_POSITIONS)
        xs = [c[0] for c in row.centers]
        top = -0.05
        step = 0.5
        table = VGroup()
        table.cells = []
        for r, (p, vals) in enumerate(zip(self.TABLE_POSITIONS, readings)):
            y = top - r * step
            label = theme.small_text(f"p = {p}", color=theme.POSITION).move_to(np.array([xs[0] - 1.5, y, 0.0]))
            cells = [theme.small_text(f"{int(round(v)) % 360}°", color=theme.TEXT).move_to(np.array([x, y, 0.0]))
                     for x, v in zip(xs, vals)]
            table.add(label, *cells)
            table.cells.append(cells)
        return table
