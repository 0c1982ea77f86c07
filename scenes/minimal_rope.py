"""动手：一个最小的 RoPE — the code, its angles, two score tables, the same word at every seat, a shuffle."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    FadeOut,
    Line,
    SurroundingRectangle,
    VGroup,
)

import mathcore
from mathcore.scores import distance_changed, reorder, score_matrix
from narration import figures
from scenes import theme
from scenes.base import NarratedScene, run_time_for_frames
from scenes.mobjects import HeatMap
from scenes.mobjects.code_listing import CodeListing
from scenes.mobjects.colored_text import colored, rich
from scenes.mobjects.score_grid import ScoreGrid, format_cell

WORDS = ("A", "B", "C", "D", "E", "F")
LEFT_C = np.array([-3.3, 0.15, 0.0])  # centre of the left table's cells
RIGHT_C = np.array([3.95, 0.15, 0.0])  # centre of the right table's cells
X_C = np.array([-3.9, 0.3, 0.0])  # centre of the word vectors' cells
CELL_W, CELL_H = 0.86, 0.56
NOTE_Y = -2.05
VEC_LOW = "#26304a"  # a word-vector entry at its most negative (as in attention_blind); most positive: TEXT

#: the listing on screen: our own numpy code, the same computation as mathcore.rope / score_matrix
CODE = """def rope(x, seat, d=8):
    w = 10000.0 ** (-np.arange(0, d, 2) / d)
    ang = np.outer(seat, w)
    c, s = np.cos(ang), np.sin(ang)
    x0, x1 = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2] = x0 * c - x1 * s
    out[:, 1::2] = x0 * s + x1 * c
    return out

xr = rope(x, np.arange(6))
score = xr @ xr.T / np.sqrt(8)"""
#: which lines of CODE each part of the narration is about
LINES = {"speeds": (1,), "angles": (2,), "rotate": (3, 4, 5, 6, 7, 8), "score": (10, 11)}


class MinimalRope(NarratedScene):
    """setup (X, plain scores) → build (code: speeds, angles) → rotate (code: turn, score) → scores
    (plain vs RoPE: which shown numbers changed) → same_word (one word at every seat: all equal) →
    diagonals (with RoPE: equal along each diagonal) → shuffle (plain: moved; RoPE: B–F changed most)
    → takeaway.

    X is ``figures.minimal_rope_input()``; every table comes from :func:`mathcore.scores.score_matrix`,
    the angles from ``figures.minimal_rope_angles()`` (``mathcore.frequencies``).
    """

    SCENE_IDS = ("minimal_rope",)
    CUES = ("setup", "build", "rotate", "scores", "same_word", "diagonals", "shuffle", "takeaway")
    BOOKMARKS = {
        "build": ("angles",),
        "rotate": ("slow", "score"),
        "scores": ("boxes",),
        "diagonals": ("d1", "d2", "slide"),
        "shuffle": ("plain", "roped", "most"),
    }

    def construct(self) -> None:
        x = figures.minimal_rope_input()
        n, d = x.shape
        seats = np.arange(n)
        perm = np.asarray(figures.MINIMAL_ROPE_PERM)
        plain = score_matrix(x)
        roped = score_matrix(x, seats)
        shuffled_roped = score_matrix(x[perm], seats)
        moved_roped = reorder(roped, perm)
        same = np.repeat(x[[figures.MINIMAL_ROPE_SAME_WORD]], n, axis=0)
        same_plain, same_roped = score_matrix(same), score_matrix(same, seats)
        w = mathcore.frequencies(d)
        angles = figures.minimal_rope_angles()
        lim = float(np.abs(np.concatenate([plain, roped, shuffled_roped])).max())
        grid_kw = dict(
            cell_width=CELL_W,
            cell_height=CELL_H,
            vmin=-lim,
            vmax=lim,
            row_labels=WORDS,
            col_labels=WORDS,
            seats=list(seats),
        )
        header = self.header()

        # -- setup: X (6 words × 8 dims, seats 0–5) and its score table, no positions ----------------
        xlim = float(np.abs(x).max())
        xmap = HeatMap(x, cell=0.5, vmin=-xlim, vmax=xlim, low_color=VEC_LOW, high_color=theme.TEXT, center=X_C)
        x_left = xmap.cells.get_left()[0]
        x_words = VGroup(
            *[
                theme.small_text(t, color=theme.TEXT).move_to(
                    np.array([x_left - ScoreGrid.WORD_GAP, xmap.cell(i, 0).get_y(), 0.0])
                )
                for i, t in enumerate(WORDS)
            ]
        )
        x_seats = VGroup(
            *[
                theme.small_text(str(p), color=theme.POSITION).move_to(
                    np.array([x_left - ScoreGrid.SEAT_GAP, xmap.cell(i, 0).get_y(), 0.0])
                )
                for i, p in enumerate(seats)
            ]
        )
        x_title = rich("$X$：6 个词 × 8 维", font_size=theme.SIZE_SMALL).next_to(xmap.cells, UP, buff=0.3)
        x_note = rich("词 A–F 依次坐在" + colored("位置 0–5", theme.POSITION), font_size=theme.SIZE_SMALL)
        x_note.next_to(xmap.cells, DOWN, buff=0.3)
        s_first = ScoreGrid(plain, center=RIGHT_C, **grid_kw)
        s_first_title = self._title("打分表（不加位置）", s_first)
        link = Arrow(
            xmap.cells.get_right() + 0.15 * RIGHT,
            np.array([s_first.row_seats.get_left()[0] - 0.2, X_C[1], 0]),
            buff=0.05,
            color=theme.MUTED,
            stroke_width=4,
        )
        link_label = rich("$X X^T \\/ sqrt(d)$", font_size=theme.SIZE_SMALL).next_to(link, UP, buff=0.15)
        self.probe("plain_first", shown=s_first.read(), values=s_first.read_values().tolist())
        with self.cue("setup") as cue:
            self.play(
                FadeIn(header),
                FadeIn(xmap),
                FadeIn(x_words),
                FadeIn(x_seats),
                FadeIn(x_title),
                run_time=cue.share(0.25),
            )
            self.play(FadeIn(x_note), run_time=cue.share(0.25))
            self.play(FadeIn(link), FadeIn(link_label), run_time=cue.share(0.2))
            self.play(FadeIn(s_first), FadeIn(s_first_title), run_time=cue.remaining())

        # -- build: the code; speeds ω_i, then angles seat × ω_i --------------------------------------
        code = CodeListing(CODE, font_size=21)
        code.to_edge(LEFT, buff=0.4).set_y(0.2)
        table, rows = self._angle_table(w, angles, seats)
        self.watch("code", lambda: {"lit": code.lit_lines(), "on_screen": self.on_screen(code)})
        with self.cue("build") as cue:
            self.play(
                FadeOut(VGroup(xmap, x_words, x_seats, x_title, x_note, link, link_label, s_first, s_first_title)),
                run_time=cue.share(0.1),
            )
            self.play(FadeIn(code), run_time=cue.share(0.12))
            self.play(
                *code.highlight(LINES["speeds"]), FadeIn(table.title), FadeIn(table.heads), run_time=cue.share(0.15)
            )
            self.play(FadeIn(table.speeds), run_time=cue.share(0.2))
            self.hold_to(cue.bookmark("angles"))
            self.play_frames(
                *code.highlight(LINES["angles"]), FadeIn(table.angles, lag_ratio=0.15), frames=self._quick(cue, 2.0)
            )
            cue.hold()
        self.probe(
            "angles",
            speeds_shown=[t.text for t in table.speed_cells],
            angles_shown=[[t.text for t in row] for row in rows],
            w=w.tolist(),
            angles=angles.tolist(),
        )

        # -- rotate: turn every pair by its angle; the slow pairs hardly turn; score again --------------
        slow = SurroundingRectangle(
            VGroup(*[rows[i][j] for i in range(n) for j in (2, 3)]), color=theme.HIGHLIGHT, buff=0.1, stroke_width=4
        )
        slow_note = theme.body_text("几乎没转", color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL)
        slow_note.next_to(slow, DOWN, buff=0.15)
        with self.cue("rotate") as cue:
            self.play_frames(*code.highlight(LINES["rotate"]), frames=self._quick(cue, until="slow"))
            self.hold_to(cue.bookmark("slow"))
            self.play_frames(FadeIn(slow), FadeIn(slow_note), frames=self._quick(cue, until="score"))
            self.hold_to(cue.bookmark("score"))
            self.play_frames(*code.highlight(LINES["score"]), frames=self._quick(cue))
            cue.hold()

        # -- scores: plain and RoPE side by side; outline the cells whose shown number changed ---------
        s0 = ScoreGrid(plain, center=LEFT_C, **grid_kw)
        s1 = ScoreGrid(roped, center=RIGHT_C, **grid_kw)
        t0, t1 = self._title("不加位置", s0), self._title("加 RoPE", s1)
        shown_changed = np.array(s0.read()) != np.array(s1.read())
        boxes = VGroup(*[self._outline(s1, i, j) for i, j in np.argwhere(shown_changed)])
        boxes_note = theme.body_text("框出的格子：数字变了", color=theme.TEXT, font_size=theme.SIZE_SMALL)
        boxes_note.move_to(np.array([RIGHT_C[0], NOTE_Y, 0.0]))
        self.probe("plain", shown=s0.read(), values=s0.read_values().tolist())
        self.probe("roped", shown=s1.read(), values=s1.read_values().tolist())
        with self.cue("scores") as cue:
            self.play(FadeOut(VGroup(code, table, slow, slow_note)), run_time=cue.share(0.12))
            self.play(FadeIn(s0), FadeIn(t0), FadeIn(s1), FadeIn(t1), run_time=min(cue.share(0.2), cue.until("boxes")))
            self.hold_to(cue.bookmark("boxes"))
            self.play(FadeIn(boxes), FadeIn(boxes_note), run_time=cue.share(0.2))
        self.probe(
            "changed_by_rope",
            cells=[[int(i), int(j)] for i, j in np.argwhere(shown_changed)],
            outlined=[self._cell_at(s1, b) for b in boxes],
        )

        # -- same_word: one word at all six seats; without positions every score is the same ------------
        same_kw = dict(
            grid_kw,
            vmin=float(same_roped.min()),
            vmax=float(same_roped.max()),
            row_labels=[WORDS[figures.MINIMAL_ROPE_SAME_WORD]] * n,
            col_labels=[WORDS[figures.MINIMAL_ROPE_SAME_WORD]] * n,
        )
        w0 = ScoreGrid(same_plain, center=LEFT_C, **same_kw)
        w1 = ScoreGrid(same_roped, center=RIGHT_C, **same_kw)
        all_same = theme.body_text(
            f"每个格子都是 {format_cell(same_plain[0, 0])}", color=theme.TEXT, font_size=theme.SIZE_SMALL
        ).move_to(np.array([LEFT_C[0], NOTE_Y, 0.0]))
        with self.cue("same_word") as cue:
            self.play(FadeOut(VGroup(boxes, boxes_note, s0, s1, t1)), run_time=cue.share(0.15))
            self.play(FadeIn(w0), run_time=cue.share(0.3))
            self.play(FadeIn(all_same), run_time=cue.remaining())
        self.probe(
            "same_plain",
            shown=w0.read(),
            values=w0.read_values().tolist(),
            rows=[t.text for t in w0.row_labels],
            note=all_same.text,
        )

        # -- diagonals: with RoPE the table is equal along each diagonal; sliding both keeps the score ---
        def diagonal(gap: int) -> VGroup:
            return VGroup(*[self._outline(w1, i, j) for i in range(n) for j in range(n) if abs(i - j) == gap])

        d1, d2 = diagonal(1), diagonal(2)
        note_d1 = self._note(f"距离 1：都是 {format_cell(same_roped[0, 1])}")
        note_d2 = self._note(f"距离 2：都是 {format_cell(same_roped[0, 2])}")
        note_slide = self._note("两个一起往后挪：分数不变")
        slider = SurroundingRectangle(w1.cell(0, 1), color=theme.HIGHLIGHT, buff=0.0, stroke_width=8)
        self.watch(
            "diagonals",
            lambda: {
                "d1": self.on_screen(d1),
                "d2": self.on_screen(d2),
                "slider": self.on_screen(slider),
                "slider_cell": self._cell_at(w1, slider),
                "note": [m.text for m in (note_d1, note_d2, note_slide) if self.on_screen(m)],
            },
        )
        with self.cue("diagonals") as cue:
            self.play(FadeIn(w1), FadeIn(t1), run_time=min(cue.share(0.2), cue.until("d1")))
            self.hold_to(cue.bookmark("d1"))
            self.play_frames(FadeIn(d1), FadeIn(note_d1), frames=self._quick(cue, until="d2"))
            self.hold_to(cue.bookmark("d2"))
            self.swap(
                [d1, note_d1],
                FadeIn(d2),
                FadeIn(note_d2),
                run_time=run_time_for_frames(self._quick(cue, until="slide"), self.fps),
            )
            self.hold_to(cue.bookmark("slide"))
            self.swap(
                [d2, note_d2],
                FadeIn(d1),
                FadeIn(slider),
                FadeIn(note_slide),
                run_time=run_time_for_frames(self._quick(cue), self.fps),
            )
            # the box steps down the diagonal: both words one seat later each time, the number stays
            step = max(2, cue.frames_remaining() // (n - 1))
            for k in range(1, n - 1):
                self.hold_frames(max(0, min(step // 2, cue.frames_remaining() - (n - 1 - k))))
                self.play_frames(
                    slider.animate.move_to(w1.cell(k, k + 1)),
                    frames=max(1, min(step - step // 2, cue.frames_remaining() - (n - 2 - k))),
                )
            cue.hold()
        self.probe("same_roped", shown=w1.read(), values=w1.read_values().tolist())

        # -- shuffle: back to A–F; plain scores only move, RoPE scores change where the gap changed -------
        s0 = ScoreGrid(plain, center=LEFT_C, **grid_kw)
        s1 = ScoreGrid(roped, center=RIGHT_C, **grid_kw)
        inv = np.argsort(perm)

        def move_anims(grid: ScoreGrid):
            anims = [
                grid.cell(i, j).animate.move_to(grid.slot_point(inv[i], inv[j])) for i in range(n) for j in range(n)
            ]
            for i in range(n):
                anims.append(grid.row_labels[i].animate.set_y(grid.slot_point(inv[i], 0)[1]))
                anims.append(grid.col_labels[i].animate.set_x(grid.slot_point(0, inv[i])[0]))
            return anims

        changed = distance_changed(perm)
        shown_new = np.vectorize(format_cell)(shuffled_roped) != np.vectorize(format_cell)(moved_roped)
        a, b, gap_before, gap_after = figures.minimal_rope_shuffle_pair()
        k_a, k_b = int(inv[a]), int(inv[b])
        moved_note = self._note("没有 RoPE：只是挪了格子", x=LEFT_C[0])
        most_note = (
            VGroup(
                rich(
                    f"{WORDS[a]}、{WORDS[b]}：相距 "
                    + colored(str(gap_before), theme.POSITION)
                    + " 个位置 → 相距 "
                    + colored(str(gap_after), theme.POSITION)
                    + " 个",
                    font_size=theme.SIZE_SMALL,
                ),
                rich(
                    f"{format_cell(moved_roped[k_a, k_b])} → {format_cell(shuffled_roped[k_a, k_b])}，变了约 "
                    + figures.value("rope_shuffle_change"),  # written as the subtitle writes it
                    font_size=theme.SIZE_SMALL,
                ),
            )
            .arrange(DOWN, buff=0.12)
            .next_to(s1.cells, DOWN, buff=0.14)
        )
        roped_note = self._note("有 RoPE：框出的格子变了数")
        self.watch(
            "shuffle",
            lambda: {
                "on_screen": self.on_screen(s1),
                "note_on_screen": self.on_screen(most_note),
                "note": [m.typst_code for m in most_note],
                "words": [[lab.text, float(lab.get_y())] for lab in s1.row_labels],
                "seats": [[lab.text, float(lab.get_y())] for lab in s1.row_seats],
                "cells": s1.read() if self.on_screen(s1) else None,
            },
        )
        with self.cue("shuffle") as cue:
            lead = cue.frames_until("plain")  # the tables are back and shuffled by the bookmark
            self.play_frames(FadeOut(VGroup(w0, w1, all_same, d1, slider, note_slide)), frames=max(1, lead // 4))
            self.play_frames(FadeIn(s0), FadeIn(s1), frames=max(1, lead // 4))
            self.play(*move_anims(s0), *move_anims(s1), run_time=cue.until("plain"))
            self.play(FadeIn(moved_note), run_time=min(cue.share(0.1), cue.until("roped")))
            self.hold_to(cue.bookmark("roped"))
            # the new number goes into its cell at once (what the cell reads), faded in over the old one;
            # the old one leaves the cell afterwards (a FadeOut of a cell's part would split the table)
            olds, anims, outlines = [], [], VGroup()
            for k in range(n):
                for l in range(n):
                    if not changed[k, l]:
                        continue
                    cell = s1.cell(perm[k], perm[l])  # the cell that moved to (k, l)
                    old = cell.number
                    new = s1.new_number(cell, shuffled_roped[k, l])
                    s1.set_number(cell, new, shuffled_roped[k, l])
                    anims.append(cell.box.animate.set_fill(s1.color_for(shuffled_roped[k, l])))
                    if shown_new[k, l]:
                        cell.add(old)
                        olds.append((cell, old))
                        new.set_opacity(0)
                        anims += [new.animate.set_opacity(1), old.animate.set_opacity(0)]
                        outlines.add(self._outline(s1, k, l))
            self.play(*anims, FadeIn(outlines), FadeIn(roped_note), run_time=min(cue.share(0.15), cue.until("most")))
            for cell, old in olds:
                cell.remove(old)
            self.hold_to(cue.bookmark("most"))
            most = VGroup(
                *[
                    SurroundingRectangle(s1.cell(perm[k], perm[l]), color=theme.HIGHLIGHT, buff=0.0, stroke_width=9)
                    for k, l in ((k_a, k_b), (k_b, k_a))
                ]
            )
            self.swap(
                roped_note,
                outlines.animate.set_stroke(width=2),
                FadeIn(most),
                FadeIn(most_note),
                run_time=cue.share(0.15),
            )
        self.probe(
            "shuffled",
            perm=perm.tolist(),
            plain_shown=s0.read(),
            plain_values=s0.read_values().tolist(),
            roped_shown=s1.read(),
            roped_values=s1.read_values().tolist(),
            outlined=sorted(self._cell_at(s1, o) for o in outlines),
            most=sorted(self._cell_at(s1, o) for o in most),
            most_note=[m.typst_code for m in most_note],
            row_labels=[lab.text for lab in sorted(s1.row_labels, key=lambda m: -m.get_y())],
            row_seats=[lab.text for lab in sorted(s1.row_seats, key=lambda m: -m.get_y())],
        )

        # -- takeaway: a word's seat now changes its scores ----------------------------------------------
        with self.cue("takeaway") as cue:
            line = theme.body_text("距离变了，分数就变", color=theme.HIGHLIGHT)
            line.move_to(np.array([0.3, NOTE_Y, 0.0]))
            self.play(FadeOut(moved_note), FadeOut(most_note), run_time=cue.share(0.2))
            self.play(FadeIn(line, shift=0.2 * UP), run_time=cue.remaining())
            self.probe("takeaway_line", shown=line.text, on_screen=self.on_screen(line))

    # -- helpers ---------------------------------------------------------------------------------------
    def _quick(self, cue, seconds: float = 0.6, until: str | None = None) -> int:
        """Frames for a short change (about ``seconds``), never past ``until`` or the end of the speech."""
        left = cue.frames_until(until) if until else cue.frames_remaining()
        return max(1, min(int(round(seconds * self.fps)), left))

    @staticmethod
    def _title(text: str, grid: ScoreGrid):
        title = theme.body_text(text, color=theme.TEXT, font_size=theme.SIZE_SMALL)
        return title.move_to(np.array([grid.cells.get_x(), grid.col_seats.get_top()[1] + 0.35, 0.0]))

    @staticmethod
    def _note(text: str, x: float = RIGHT_C[0]):
        return theme.body_text(text, color=theme.TEXT, font_size=theme.SIZE_SMALL).move_to(np.array([x, NOTE_Y, 0.0]))

    @staticmethod
    def _outline(grid: ScoreGrid, i: int, j: int):
        """A box on the slot at row i, column j (wherever the cells are now)."""
        box = SurroundingRectangle(grid.cell(0, 0).box, color=theme.HIGHLIGHT, buff=0.0, stroke_width=4)
        return box.move_to(grid.slot_point(i, j))

    @staticmethod
    def _cell_at(grid: ScoreGrid, mob) -> list[int]:
        """The (row, column) slot nearest a mobject's centre."""
        return list(grid.nearest_slot(mob.get_center()))

    @staticmethod
    def _angle_table(w: np.ndarray, angles: np.ndarray, seats: np.ndarray):
        """Speeds per pair and the angle each seat turns each pair by (radians), right of the code."""
        xs = [2.15 + 1.3 * j for j in range(len(w))]
        label_x, top = 0.85, 2.15
        table = VGroup()
        table.title = rich(
            "每个位置转 " + colored("$omega_i = 10000^(-2i \\/ d)$", theme.ANGLE) + " 弧度", font_size=32
        )
        table.title.move_to(np.array([3.7, top + 0.7, 0.0]))
        table.heads = VGroup(
            *[
                theme.small_text(f"第 {j} 对", color=theme.TEXT).move_to(np.array([x, top, 0.0]))
                for j, x in enumerate(xs)
            ]
        )
        y = top - 0.55
        speed_label = rich(colored("$omega_i$", theme.ANGLE), font_size=theme.SIZE_SMALL).move_to(
            np.array([label_x, y, 0.0])
        )
        table.speed_cells = VGroup(
            *[
                theme.small_text(figures.fmt_dec(wi, 3), color=theme.ANGLE).move_to(np.array([x, y, 0.0]))
                for wi, x in zip(w, xs)
            ]
        )
        rule = Line(
            np.array([label_x - 0.55, y - 0.3, 0.0]),
            np.array([xs[-1] + 0.55, y - 0.3, 0.0]),
            color=theme.MUTED,
            stroke_width=2,
        )
        table.speeds = VGroup(speed_label, table.speed_cells, rule)
        rows, table.angles = [], VGroup()
        for i, p in enumerate(seats):
            yy = y - 0.6 - 0.46 * i
            label = theme.small_text(f"位置 {p}", color=theme.POSITION).move_to(np.array([label_x, yy, 0.0]))
            cells = [
                theme.small_text(figures.fmt_dec(a, 3), color=theme.ANGLE).move_to(np.array([x, yy, 0.0]))
                for a, x in zip(angles[i], xs)
            ]
            rows.append(cells)
            table.angles.add(VGroup(label, *cells))
        table.caption = rich(
            "每行：" + colored("位置", theme.POSITION) + " × " + colored("$omega_i$", theme.ANGLE),
            font_size=theme.SIZE_SMALL,
        )
        table.caption.move_to(np.array([label_x + 0.8, y - 0.6 - 0.46 * len(seats) - 0.1, 0.0]))
        table.angles.add(table.caption)
        table.add(table.title, table.heads, table.speeds, table.angles)
        return table, rows
