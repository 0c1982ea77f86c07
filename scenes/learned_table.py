"""查表：可学习的位置向量: one row per seat, trained with the model, length fixed.

The table is :func:`mathcore.learned_table` (a fixed seed: the random start BERT
and GPT-2 train from); the clock row is the sinusoidal encoding's
(:class:`scenes.mobjects.ClockRow`, speeds from :func:`mathcore.frequencies`).
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    CurvedArrow,
    DashedVMobject,
    FadeIn,
    FadeOut,
    Rectangle,
    SurroundingRectangle,
    VGroup,
)

import mathcore
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import ClockRow, HeatMap, LabeledNumber
from scenes.mobjects.marks import MarkedLine
from scenes.mobjects.token_row import TokenRow


class LearnedTable(NarratedScene):
    """table (what if the model learned each seat's p: a row per seat, down to the maximum length) → train (a
    sentence's words take their seats' rows; the rows start random and change with the model) → tradeoff (an
    eleventh word runs off the table's end: no row; then the three requirements: the first two from the start and
    not promised, the third's first half holds, its second nobody promises) → users (the name; BERT and GPT-2,
    so a longest sentence) → paper_choice (the clocks run past the table's end and still read; the paper kept
    them for that, a bet, after a tie with the table; unseen lengths often go badly)."""

    SCENE_IDS = ("learned_table",)
    CUES = ("table", "train", "tradeoff", "users", "paper_choice")
    BOOKMARKS = {
        "train": ("model",),
        "users": ("who",),
        "tradeoff": ("end", "check"),
        "paper_choice": ("run", "pick", "but"),
    }
    MAX_LEN, D, SEED = 10, 8, 0
    CELL = 0.42
    SENTENCE = ("我", "爱", "读", "书")
    CLOCK_TO = 14  # the clocks read any seat, also past the table's end

    def construct(self) -> None:
        values = mathcore.learned_table(self.MAX_LEN, self.D, seed=self.SEED)
        span = float(np.abs(values).max())
        header = self.header()
        table = HeatMap(
            values,
            cell=self.CELL,
            vmin=-span,
            vmax=span,
            low_color=theme.BACKGROUND,
            high_color=theme.POSITION,
            center=np.array([-4.0, 0.4, 0.0]),
            row_labels=[str(p) for p in range(self.MAX_LEN)],
        )
        table.labels.set_color(theme.POSITION)
        rows = [VGroup(*[table.cell(i, j) for j in range(self.D)], table.labels[i]) for i in range(self.MAX_LEN)]
        seat_head = theme.small_text("座位", color=theme.POSITION).next_to(table.labels[0], UP, buff=0.2)
        dims_head = theme.small_text(f"每行 {self.D} 个数", color=theme.MUTED).next_to(table.cells, UP, buff=0.2)
        max_note = theme.small_text(f"最大长度：{self.MAX_LEN} 行", color=theme.TEXT).next_to(
            table.cells, RIGHT, buff=0.3
        )
        max_note.align_to(table.cells, DOWN)
        self.probe("table", values=values.tolist(), drawn=self._drawn(table), want=values.tolist())
        panel_x = 2.6

        # -- table: a row per seat, down to the maximum length --------------------------------
        with self.cue("table") as cue:
            self.play(FadeIn(header), FadeIn(seat_head), FadeIn(dims_head), run_time=cue.share(0.15))
            self.play(*[FadeIn(r, shift=0.1 * RIGHT) for r in rows[:2]], run_time=cue.share(0.25))
            self.play(FadeIn(VGroup(*rows[2:]), lag_ratio=0.15), run_time=cue.share(0.35))
            self.play(FadeIn(max_note), run_time=cue.remaining())

        # -- train: random at first; each word looks up its seat's row; trained with the model ---
        start = theme.body_text("起初：随机的小数", color=theme.TEXT).move_to(np.array([panel_x, 2.7, 0.0]))
        sentence = TokenRow(self.SENTENCE, center=np.array([panel_x, 1.55, 0.0]))
        seat_nums = VGroup(
            *[
                theme.small_text(str(p), color=theme.POSITION).next_to(t, UP, buff=0.1)
                for p, t in enumerate(sentence.tokens)
            ]
        )
        lights = VGroup(
            *[
                SurroundingRectangle(
                    VGroup(*[table.cell(p, j) for j in range(self.D)]), color=theme.HIGHLIGHT, buff=0.0, stroke_width=4
                ).set_fill(theme.HIGHLIGHT, opacity=0.25)
                for p in range(len(self.SENTENCE))
            ]
        )
        looks = VGroup(
            *[
                Arrow(
                    table.cell(p, self.D - 1).get_right(),
                    sentence.tokens[p].get_bottom(),
                    color=theme.HIGHLIGHT,
                    buff=0.12,
                    stroke_width=3,
                    max_tip_length_to_length_ratio=0.06,
                )
                for p in range(len(self.SENTENCE))
            ]
        )
        model = theme.body_text("模型", color=theme.TEXT).move_to(np.array([panel_x, -0.6, 0.0]))
        model_box = SurroundingRectangle(model, color=theme.MUTED, buff=0.25, corner_radius=0.1)
        update = CurvedArrow(
            model_box.get_left() + 0.05 * DOWN,
            table.cells.get_right() + 1.3 * DOWN + 0.1 * RIGHT,
            color=theme.MUTED,
            angle=-0.9,
        )
        update_note = theme.small_text("一起训练，一起更新", color=theme.TEXT).next_to(model_box, DOWN, buff=0.35)
        with self.cue("train") as cue:
            self.play(FadeOut(max_note), FadeIn(sentence), FadeIn(seat_nums), run_time=cue.share(0.15))
            for p in range(len(self.SENTENCE)):
                was = [FadeOut(looks[p - 1]), sentence.tokens[p - 1][0].animate.set_stroke(theme.MUTED)] if p else []
                self.play(
                    *was,
                    FadeIn(lights[p]),
                    FadeIn(looks[p]),
                    sentence.tokens[p][0].animate.set_stroke(theme.HIGHLIGHT),
                    run_time=cue.share(0.08),
                )
            self.play(
                FadeOut(looks[-1]), sentence.tokens[-1][0].animate.set_stroke(theme.MUTED), run_time=cue.share(0.04)
            )
            self.probe(
                "lookups",
                seats=list(range(len(self.SENTENCE))),
                lit=[self._row_of(table, lights[p]) for p in range(len(self.SENTENCE))],
            )
            self.hold_to(max(self.frame, cue.bookmark("model")))
            self.play(FadeIn(start), run_time=cue.share(0.1))
            self.play(FadeIn(model), Create(model_box), run_time=cue.share(0.12))
            self.play(Create(update), FadeIn(update_note), run_time=cue.remaining())

        # -- tradeoff: a sentence runs off the table's end (seat MAX_LEN has no row); then the three requirements --
        # both marks drawn (the course font has no ✗)
        three = VGroup(
            theme.small_text("拿三条要求来检验：", color=theme.MUTED),
            theme.body_text("第一、二条：起初就满足，不保证", color=theme.TEXT),
            theme.body_text("第三条·不看句长：满足", color=theme.TEXT),
            theme.body_text("第三条·每步同一规则：没人保证", color=theme.TEXT),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        bad = MarkedLine("cross", theme.body_text("行数有上限：表外的座位查不到", color=theme.HIGHLIGHT))
        pros = VGroup(bad, three).arrange(DOWN, aligned_edge=LEFT, buff=0.45)
        pros.move_to(np.array([panel_x, 1.2, 0.0]))
        ghost = DashedVMobject(
            Rectangle(width=self.D * self.CELL, height=self.CELL, color=theme.HIGHLIGHT, stroke_width=2), num_dashes=30
        )
        ghost.next_to(table.cells, DOWN, buff=0.06)
        ghost_seat = theme.small_text(str(self.MAX_LEN), color=theme.HIGHLIGHT).next_to(ghost, LEFT, buff=0.1)
        ghost_seat.align_to(table.labels[0], RIGHT)
        missing = theme.small_text("没有这一行", color=theme.HIGHLIGHT).next_to(ghost, RIGHT, buff=0.3)
        with self.cue("tradeoff") as cue:
            self.play(
                FadeOut(VGroup(start, sentence, seat_nums, lights, model, model_box, update, update_note)),
                run_time=cue.share(0.1),
            )
            self.hold_to(max(self.frame, cue.bookmark("end")))
            self.play(Create(ghost), FadeIn(ghost_seat), FadeIn(missing), run_time=cue.share(0.12))
            self.play(FadeIn(bad), run_time=cue.share(0.08))
            self.hold_to(max(self.frame, cue.bookmark("check")))
            self.play(FadeIn(three, lag_ratio=0.4), run_time=cue.remaining())
            self.probe("verdicts", lines=[bad.probe_values()], three=[t.text for t in three])
            self.probe("ghost", seat=int(ghost_seat.text), rows=values.shape[0])

        # -- users: the learned table's name; BERT and GPT-2, each with a longest sentence -------------------
        names = VGroup(
            *[
                VGroup(
                    theme.title_text(name, color=theme.TEXT), theme.body_text(f"{rows} 行", color=theme.POSITION)
                ).arrange(DOWN, buff=0.15)
                for name, rows in figures.MODEL_TABLE_ROWS
            ]
        )
        names.arrange(RIGHT, buff=1.0).move_to(np.array([panel_x, 1.2, 0.0]))
        term = theme.body_text("可学习的位置向量", color=theme.POSITION).move_to(np.array([panel_x, 2.5, 0.0]))
        longest = theme.body_text("句子有最长的长度", color=theme.HIGHLIGHT).move_to(np.array([panel_x, -0.1, 0.0]))
        self.probe("users", names=[[n[0].text, n[1].text] for n in names])
        with self.cue("users") as cue:
            self.swap([pros], FadeIn(term, shift=0.15 * UP), run_time=cue.share(0.25))
            self.hold_to(max(self.frame, cue.bookmark("who")))
            self.play(FadeIn(names, lag_ratio=0.4), run_time=cue.share(0.2))
            self.play(FadeIn(longest), run_time=cue.remaining())

        # -- paper_choice: the clocks run past the table's end and still read; the paper kept them, hoping for
        #    longer sentences (the table, also tried, did about as well); unseen lengths go badly anyway ------
        clocks = ClockRow(d=self.D, radius=0.42, spacing=1.15, center=np.array([panel_x, 1.45, 0.0]))
        clocks.remove(clocks.names)  # no clock numbers here: the paper's row just named 钟 0, 64, … 255
        self.watch("clocks", lambda: {**clocks.probe_values(), "on_screen": self.on_screen(clocks)})
        counter = LabeledNumber("座位号 =", 0, decimals=0, color=theme.POSITION, label_color=theme.POSITION)
        counter.move_to(np.array([panel_x, 0.5, 0.0]))
        counter.add_updater(lambda m: m.set_value(float(np.round(clocks.p))))
        run = theme.small_text("过了表的最后一行：钟照样有读数", color=theme.TEXT).move_to(
            np.array([panel_x, -0.2, 0.0])
        )
        pick = theme.body_text("原论文留下那排钟：看中的正是这点", color=theme.HIGHLIGHT).move_to(
            np.array([panel_x, 3.0, 0.0])
        )
        tie = theme.small_text("两种都试过：分数差不多", color=theme.TEXT).move_to(np.array([panel_x, 2.45, 0.0]))
        but = theme.body_text("没见过的长度：效果往往也不好", color=theme.TEXT).move_to(np.array([panel_x, -0.9, 0.0]))
        with self.cue("paper_choice") as cue:
            self.swap([names, term, longest], FadeIn(clocks), FadeIn(counter), run_time=cue.share(0.12))
            self.hold_to(max(self.frame, cue.bookmark("run")))
            span = cue.frames_until("pick")
            self.play_frames(clocks.make_step_animation(self.CLOCK_TO), frames=max(1, int(0.7 * span)))
            self.play_frames(FadeIn(run), frames=max(1, int(0.2 * span)))
            self.probe("paper_line", text=run.text)
            self.hold_to(max(self.frame, cue.bookmark("pick")))
            span = cue.frames_until("but")
            self.play_frames(FadeIn(pick), frames=max(1, int(0.25 * span)))
            self.probe("paper_line", text=pick.text)
            self.hold_to(max(self.frame, cue.bookmark("pick") + int(0.6 * span)))
            self.play_frames(FadeIn(tie), frames=max(1, int(0.2 * span)))
            self.probe("paper_line", text=tie.text)
            self.hold_to(max(self.frame, cue.bookmark("but")))
            self.play(FadeIn(but, shift=0.15 * UP), run_time=min(cue.share(0.1), cue.remaining()))
            self.probe("paper_line", text=but.text)
            cue.hold()

    # -- helpers --------------------------------------------------------------------------------
    @staticmethod
    def _drawn(hm: HeatMap) -> list[list[str]]:
        rows, cols = hm.values.shape
        return [[hm.cell(i, j).get_fill_color().to_hex() for j in range(cols)] for i in range(rows)]

    @staticmethod
    def _row_of(hm: HeatMap, box) -> int:
        """Which table row a highlight box surrounds (by its centre height)."""
        ys = [hm.cell(i, 0).get_y() for i in range(hm.values.shape[0])]
        return int(np.argmin([abs(y - box.get_y()) for y in ys]))
