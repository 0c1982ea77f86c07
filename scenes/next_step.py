"""下一步想什么: a teaser for low rank and subspaces (W^Q (W^K)^T has rank at most d_k)."""
from __future__ import annotations

import numpy as np
from manim import (
    DOWN, LEFT, RIGHT, UP, FadeIn, FadeOut, GrowFromEdge, Indicate, Rectangle, VGroup,
)

from mathcore.low_rank import head_dim, head_score_rank
from scenes import theme
from scenes.base import NarratedScene

D_MODEL, HEADS = 512, 8


class NextStep(NarratedScene):
    """pointer (a tool to encode word order → low rank) → question (8 heads × 64; W^Q (W^K)^T, rank ≤ d_k) → close."""

    SCENE_IDS = ("next_step",)
    CUES = ("pointer", "question", "close")

    def construct(self) -> None:
        d_k = head_dim(D_MODEL, HEADS)
        rank = head_score_rank(D_MODEL, d_k)
        self.probe("numbers", d_model=D_MODEL, heads=HEADS, d_k=d_k, rank=rank)
        header = self.header()

        # -- pointer: word order has an encoding tool now; the next thing to think about ---
        done = theme.body_text("词序：有了编码工具", color=theme.TEXT).move_to(np.array([0.0, 1.0, 0.0]))
        nxt = theme.title_text("下一个问题：低秩与子空间", color=theme.HIGHLIGHT).move_to(np.array([0.0, -0.1, 0.0]))
        with self.cue("pointer") as cue:
            self.play(FadeIn(header), FadeIn(done), run_time=cue.share(0.3))
            self.play(FadeIn(nxt, shift=0.3 * UP), run_time=cue.share(0.4))

        # -- question: 8 heads × 64 dims; one head's W^Q (W^K)^T has rank ≤ d_k ----------------
        heads = VGroup()
        for h in range(HEADS):
            box = Rectangle(width=1.2, height=0.55, stroke_color=theme.MUTED, stroke_width=2)
            box.set_fill(theme.HIGHLIGHT, opacity=0.15)
            heads.add(VGroup(box, theme.small_text(f"{d_k} 维", color=theme.TEXT).move_to(box)))
        heads.arrange(RIGHT, buff=0.08).move_to(np.array([0.0, 2.55, 0.0]))
        heads_note = theme.small_text(f"{HEADS} 个头 × {d_k} 维 = {D_MODEL} 维", color=theme.MUTED)
        heads_note.next_to(heads, DOWN, buff=0.15)

        side = 2.0                                   # the 512 side; the 64 side is drawn to scale
        thin = side * d_k / D_MODEL
        wq = Rectangle(width=thin, height=side, stroke_color=theme.Q, stroke_width=3).set_fill(theme.Q, opacity=0.35)
        wk = Rectangle(width=side, height=thin, stroke_color=theme.K, stroke_width=3).set_fill(theme.K, opacity=0.35)
        prod = Rectangle(width=side, height=side, stroke_color=theme.SCORE, stroke_width=3).set_fill(theme.SCORE, opacity=0.25)
        times = theme.body_text("×", color=theme.TEXT)
        equals = theme.body_text("=", color=theme.TEXT)
        VGroup(wq, times, wk, equals, prod).arrange(RIGHT, buff=0.35).move_to(np.array([-1.7, -0.2, 0.0]))
        wk.match_y(wq)
        labels = VGroup(
            theme.formula("W^Q", color=theme.Q, font_size=36).next_to(wq, UP, buff=0.15),
            theme.formula("(W^K)^T", color=theme.K, font_size=36).next_to(wk, UP, buff=0.15),
            theme.formula("W^Q (W^K)^T", color=theme.SCORE, font_size=36).next_to(prod, UP, buff=0.15),
        )
        sizes = VGroup(
            theme.small_text(f"{D_MODEL}×{d_k}").next_to(wq, DOWN, buff=0.15),
            theme.small_text(f"{d_k}×{D_MODEL}").next_to(wk, DOWN, buff=0.15),
            theme.small_text(f"{D_MODEL}×{D_MODEL}").next_to(prod, DOWN, buff=0.15),
        )
        bound = theme.formula(f"\"秩\" <= d_k = {d_k}", color=theme.HIGHLIGHT).next_to(prod, RIGHT, buff=0.5)
        measured = theme.small_text(f"随机抽一组权重：秩 = {rank}", color=theme.MUTED)
        measured.next_to(bound, DOWN, buff=0.25).align_to(bound, LEFT)
        self.probe("shown", heads=[h[1].text for h in heads], bound=f"{d_k}", measured=measured.text,
                   thin_over_side=thin / side)
        with self.cue("question") as cue:
            self.play(FadeOut(done), FadeOut(nxt), run_time=cue.share(0.08))
            self.play(FadeIn(heads, lag_ratio=0.15), run_time=cue.share(0.2))
            self.play(FadeIn(heads_note), run_time=cue.share(0.1))
            self.play(GrowFromEdge(wq, UP), GrowFromEdge(wk, LEFT), FadeIn(times), FadeIn(labels[:2]),
                      FadeIn(sizes[:2]), run_time=cue.share(0.2))
            self.play(FadeIn(equals), FadeIn(prod), FadeIn(labels[2]), FadeIn(sizes[2]), run_time=cue.share(0.15))
            self.play(FadeIn(bound, shift=0.2 * LEFT), run_time=cue.share(0.12))
            self.play(FadeIn(measured), run_time=cue.remaining())

        # -- close: waste, or a feature? ----------------------------------------------------
        with self.cue("close") as cue:
            ask = theme.title_text("低秩：是浪费，还是本事？", color=theme.TEXT).move_to(heads)
            go = theme.small_text("带着这个问题，去看秩与子空间", color=theme.HIGHLIGHT)
            go.move_to(np.array([0.0, -2.1, 0.0]))
            self.swap([heads, heads_note], FadeIn(ask, shift=0.2 * DOWN), run_time=cue.share(0.3))
            self.play(Indicate(bound, color=theme.HIGHLIGHT, scale_factor=1.1), run_time=cue.share(0.3))
            self.play(FadeIn(go), run_time=cue.remaining())
