"""动手：一个最小的 RoPE — 6 words × 8 dims: scores before and after RoPE, then a shuffle."""
from __future__ import annotations

import numpy as np
from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Brace, FadeIn, FadeOut, ReplacementTransform, SurroundingRectangle, VGroup,
)

import mathcore
from coursekit import figures
from mathcore.scores import distance_changed, score_matrix
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import HeatMap
from scenes.mobjects.colored_text import colored, rich
from scenes.mobjects.score_grid import ScoreGrid

WORDS = ("A", "B", "C", "D", "E", "F")
LEFT_C = np.array([-3.5, 0.15, 0.0])
RIGHT_C = np.array([3.65, 0.15, 0.0])
NOTE_Y = -2.15


class MinimalRope(NarratedScene):
    """setup (X, scores) → build (4 pairs, 4 speeds) → rotate (RoPE(X), new scores) → scores
    (distance hidden in every score) → shuffle (plain: moved; RoPE: changed) → takeaway.

    X is ``figures.minimal_rope_input()``; tables come from :func:`mathcore.scores.score_matrix`.
    """

    SCENE_IDS = ("minimal_rope",)
    CUES = ("setup", "build", "rotate", "scores", "shuffle", "takeaway")

    def construct(self) -> None:
        x = figures.minimal_rope_input()
        n, d = x.shape
        seats = np.arange(n)
        perm = np.asarray(figures.MINIMAL_ROPE_PERM)
        plain = score_matrix(x)
        roped = score_matrix(x, seats)
        shuffled_plain = score_matrix(x[perm])
        shuffled_roped = score_matrix(x[perm], seats)
        changed = distance_changed(perm)
        w = mathcore.frequencies(d)
        lim = float(np.abs(np.concatenate([plain, roped, shuffled_roped])).max())
        grid_kw = dict(vmin=-lim, vmax=lim, row_labels=WORDS, col_labels=WORDS)
        header = self.header()

        # -- setup: X (6 × 8) and its score table, no positions ------------------------------
        xmap = HeatMap(x, cell=0.55, vmin=-2.5, vmax=2.5, low_color=theme.Q, high_color=theme.K,
                       center=np.array([-4.0, 0.3, 0.0]), row_labels=WORDS)
        xmap.labels.set_color(theme.TEXT)
        x_title = rich("$X$：6 个词 × 8 维", font_size=theme.SIZE_SMALL).next_to(xmap, UP, buff=0.3)
        s0 = ScoreGrid(plain, center=RIGHT_C, **grid_kw)
        s0_title = theme.body_text("打分表（不加位置）", color=theme.TEXT, font_size=theme.SIZE_SMALL)
        s0_title.next_to(s0, UP, buff=0.2)
        link = Arrow(xmap.get_right() + 0.2 * RIGHT, s0.get_left() + 0.3 * LEFT, buff=0.1, color=theme.MUTED,
                     stroke_width=4)
        link_label = rich("$X X^T \\/ sqrt(d)$", font_size=theme.SIZE_SMALL).next_to(link, UP, buff=0.15)
        self.probe("plain", shown=s0.read(), values=s0.read_values().tolist())
        with self.cue("setup") as cue:
            self.play(FadeIn(header), FadeIn(xmap), FadeIn(x_title), run_time=cue.share(0.3))
            self.play(FadeIn(link), FadeIn(link_label), run_time=cue.share(0.2))
            self.play(FadeIn(s0), FadeIn(s0_title), run_time=cue.remaining())

        # -- build: 8 dims = 4 pairs, each with its own speed, fast to slow ---------------------
        braces = VGroup()
        speeds = VGroup()
        for i in range(d // 2):
            pair = VGroup(xmap.cell(n - 1, 2 * i), xmap.cell(n - 1, 2 * i + 1))
            b = Brace(pair, DOWN, buff=0.08, color=theme.ANGLE)
            braces.add(b)
            speeds.add(theme.small_text(figures.fmt_dec(w[i], 3), color=theme.ANGLE).next_to(b, DOWN, buff=0.08))
        speed_name = theme.small_text("转速", color=theme.ANGLE).next_to(speeds, LEFT, buff=0.25)
        with self.cue("build") as cue:
            self.play(FadeIn(braces, lag_ratio=0.3), run_time=cue.share(0.4))
            self.play(FadeIn(speed_name), FadeIn(speeds, lag_ratio=0.4), run_time=cue.remaining())
        self.probe("speeds", shown=[s.text for s in speeds], w=w.tolist())

        # -- rotate: turn each pair of each row by seat × speed, score again -----------------------
        xr = mathcore.rope(x, seats)
        xr_map = HeatMap(xr, cell=0.55, vmin=-2.5, vmax=2.5, low_color=theme.Q, high_color=theme.K,
                         center=xmap.cells.get_center(), row_labels=WORDS)
        xr_map.labels.set_color(theme.TEXT)
        xr_title = rich("加 RoPE：第 " + colored("$m$", theme.POSITION) + " 个词转 " + colored("$m theta_i$", theme.ANGLE),
                        font_size=theme.SIZE_SMALL).next_to(xr_map, UP, buff=0.3)
        s1 = ScoreGrid(roped, center=RIGHT_C, **grid_kw)
        s1_title = theme.body_text("加 RoPE 后", color=theme.ANGLE, font_size=theme.SIZE_SMALL).next_to(s1, UP, buff=0.2)
        s0_left_title = theme.body_text("加 RoPE 前", color=theme.TEXT, font_size=theme.SIZE_SMALL)
        self.probe("roped", shown=s1.read(), values=s1.read_values().tolist())
        with self.cue("rotate") as cue:
            self.play(ReplacementTransform(xmap, xr_map), ReplacementTransform(x_title, xr_title),
                      run_time=cue.share(0.35))
            self.play(FadeOut(xr_map), FadeOut(xr_title), FadeOut(braces), FadeOut(speeds), FadeOut(speed_name),
                      FadeOut(link), FadeOut(link_label), s0.animate.move_to(LEFT_C),
                      run_time=cue.share(0.25))
            s0_left_title.next_to(s0, UP, buff=0.2)
            self.play(ReplacementTransform(s0_title, s0_left_title), FadeIn(s1), FadeIn(s1_title),
                      run_time=cue.remaining())

        # -- scores: the numbers changed; each now knows how far apart its two words are ------------
        diff = ~np.isclose(plain, roped, atol=5e-3)
        marks = VGroup(*[SurroundingRectangle(s1.cell(i, j), color=theme.HIGHLIGHT, buff=0.0, stroke_width=4)
                         for i in range(n) for j in range(n) if np.abs(i - j) == 1])
        with self.cue("scores") as cue:
            changed_note = theme.body_text("数变了：对角线以外", color=theme.TEXT, font_size=theme.SIZE_SMALL)
            changed_note.move_to(np.array([RIGHT_C[0], NOTE_Y, 0.0]))
            self.play(*[s1.cell(i, j).box.animate.set_stroke(theme.HIGHLIGHT, width=3)
                        for i in range(n) for j in range(n) if diff[i, j]], FadeIn(changed_note),
                      run_time=cue.share(0.35))
            far = rich("每个分数都藏着" + colored("相隔几个位置", theme.POSITION) + "：框出的格都" +
                       colored("相隔 1", theme.HIGHLIGHT), font_size=theme.SIZE_SMALL)
            far.move_to(np.array([0.0, NOTE_Y, 0.0]))
            self.play(*[s1.cell(i, j).box.animate.set_stroke(theme.MUTED, width=1) for i in range(n) for j in range(n)],
                      FadeIn(marks), FadeOut(changed_note), run_time=cue.share(0.3))
            self.play(FadeIn(far), run_time=cue.remaining())
        self.probe("changed_by_rope", cells=np.argwhere(diff).tolist())

        # -- shuffle: plain scores only move; RoPE scores change -------------------------------------
        inv = np.argsort(perm)

        def move_anims(grid: ScoreGrid):
            anims = [grid.cell(i, j).animate.move_to(grid.slot_point(inv[i], inv[j]))
                     for i in range(n) for j in range(n)]
            for i in range(n):
                anims.append(grid.row_labels[i].animate.set_y(grid.slot_point(inv[i], 0)[1]))
                anims.append(grid.col_labels[i].animate.set_x(grid.slot_point(0, inv[i])[0]))
            return anims

        with self.cue("shuffle") as cue:
            order = theme.small_text("新次序：" + " ".join(WORDS[p] for p in perm), color=theme.POSITION)
            order.next_to(header, DOWN, buff=0.15).align_to(header, LEFT)
            self.play(FadeOut(marks), FadeOut(far), FadeIn(order), run_time=cue.share(0.1))
            self.play(*move_anims(s0), *move_anims(s1), run_time=cue.share(0.3))
            moved = theme.body_text("没有 RoPE：只是挪了格子", color=theme.TEXT, font_size=theme.SIZE_SMALL)
            moved.move_to(np.array([LEFT_C[0], NOTE_Y, 0.0]))
            self.play(FadeIn(moved), run_time=cue.share(0.15))
            news, olds, outlines = [], [], []
            for k in range(n):
                for l in range(n):
                    if not changed[k, l]:
                        continue
                    cell = s1.cell(perm[k], perm[l])       # the cell that moved to (k, l)
                    new = s1.new_number(cell, shuffled_roped[k, l])
                    news.append((cell, new, shuffled_roped[k, l]))
                    olds.append(cell.number)
                    outlines.append(cell.box.animate.set_fill(s1.color_for(shuffled_roped[k, l]))
                                    .set_stroke(theme.HIGHLIGHT, width=3))
            self.play(*[FadeOut(o) for o in olds], *[FadeIn(nw) for _, nw, _ in news], *outlines,
                      run_time=cue.share(0.25))
            for cell, nw, v in news:
                s1.set_number(cell, nw, v)
            change = figures.fmt_fixed(figures.minimal_rope_shuffle_change())
            most = rich("有 RoPE：分数变了，最多 " + colored(change, theme.HIGHLIGHT), font_size=theme.SIZE_SMALL)
            most.move_to(np.array([RIGHT_C[0], NOTE_Y, 0.0]))
            self.play(FadeIn(most), run_time=cue.remaining())
        self.probe("shuffled", perm=perm.tolist(), plain_shown=s0.read(), plain_values=s0.read_values().tolist(),
                   roped_shown=s1.read(), roped_values=s1.read_values().tolist(), change_shown=change,
                   outlined=[[bool(s1.cell(perm[k], perm[l]).box.get_stroke_width() > 2) for l in range(n)]
                             for k in range(n)],
                   row_labels=[lab.text for lab in sorted(s1.row_labels, key=lambda m: -m.get_y())])

        # -- takeaway: now the model has a sense of order ---------------------------------------------
        with self.cue("takeaway") as cue:
            line = theme.body_text("模型终于有了顺序感", color=theme.HIGHLIGHT)
            line.move_to(np.array([0.0, NOTE_Y, 0.0]))
            self.play(FadeOut(moved), FadeOut(most), run_time=cue.share(0.2))
            self.play(FadeIn(line, shift=0.2 * UP), run_time=cue.remaining())
