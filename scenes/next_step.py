"""收尾: the course's three lessons tied together, then one question to think about outside the course (low rank
and subspaces: with q = W_Q x as in lesson 1, one head's score matrix W_Qᵀ W_K is 512 × 512 of rank at most d_k). The course has no further lesson, so nothing points to one."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Rectangle,
    VGroup,
)

from mathcore.low_rank import head_dim, head_score_rank
from scenes import theme
from scenes.base import NarratedScene

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
D_MODEL, HEADS = 512, 8
RECAP = (
    # P2 (review 6): the clock-row / RoPE contrast is said once in this lesson (rot_opening), not here again
    ("第一课", "sin、cos 是指针的坐标；转两次，角度相加"),
    ("第二课", "位置要写进向量：定下三条要求"),
    ("第三课", "旋转不改长度和点积：条纹由此而来"),
)
ROOT = (  # Typst markup: W_Q, W_K with real subscripts
    "那排钟：读数的点积只看距离，过了 $W_Q$、$W_K$ 就保不住",
    "RoPE：最后才转，分数只看 $n - m$：隔几个、谁在前",
)


class NextStep(NarratedScene):
    """recap (lessons one and two, a row each) → link (lesson three: the two properties both uses rest on, and
    what follows) → question (课外思考: a head defined; 8 heads × 64; W_Qᵀ W_K, rank ≤ d_k; what is lost, what is gained?)."""

    SCENE_IDS = ("next_step",)
    CUES = ("recap", "link", "question")

    def construct(self) -> None:
        d_k = head_dim(D_MODEL, HEADS)
        rank = head_score_rank(D_MODEL, d_k)
        self.probe("numbers", d_model=D_MODEL, heads=HEADS, d_k=d_k, rank=rank)
        header = self.header()

        # -- recap and link: one row per lesson, then the common root ------------------------------
        rows = VGroup()
        for name, line in RECAP:
            rows.add(
                VGroup(theme.body_text(name, color=theme.HIGHLIGHT), theme.body_text(line, color=theme.TEXT)).arrange(
                    RIGHT, buff=0.45
                )
            )
        rows.arrange(DOWN, aligned_edge=LEFT, buff=0.55).move_to(np.array([0.0, 1.0, 0.0]))
        root = VGroup(
            *[theme.typst_text(line, color=theme.HIGHLIGHT, font_size=TYPST * theme.SIZE_BODY) for line in ROOT]
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        root.next_to(rows, DOWN, buff=0.6)
        self.probe("recap", rows=[[m.text for m in r] for r in rows], root=[m.typst_code for m in root])
        with self.cue("recap") as cue:
            self.play(FadeIn(header), run_time=cue.share(0.05))
            self.play(FadeIn(rows[0], shift=0.2 * RIGHT), run_time=cue.share(0.15))
            self.hold_frames(max(0, cue.start_frame + int(0.5 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(rows[1], shift=0.2 * RIGHT), run_time=cue.share(0.15))
        with self.cue("link") as cue:
            self.play(FadeIn(rows[2], shift=0.2 * RIGHT), run_time=cue.share(0.25))
            self.hold_frames(max(0, cue.start_frame + int(0.55 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(root, shift=0.2 * UP), run_time=cue.share(0.2))

        # -- question (课外思考): 8 heads × 64 dims; one head's W_Q^T W_K (512 × 512) has rank ≤ d_k ----------
        heads = VGroup()
        for h in range(HEADS):
            box = Rectangle(width=1.2, height=0.55, stroke_color=theme.MUTED, stroke_width=2)
            box.set_fill(theme.HIGHLIGHT, opacity=0.15)
            heads.add(VGroup(box, theme.small_text(f"{d_k} 维", color=theme.TEXT).move_to(box)))
        heads.arrange(RIGHT, buff=0.08).move_to(np.array([0.0, 2.55, 0.0]))
        heads_note = theme.small_text(f"{HEADS} 个头 × {d_k} 维 = {D_MODEL} 维", color=theme.MUTED)
        heads_note.next_to(heads, DOWN, buff=0.15)

        side = 2.0  # the 512 side; the 64 side is drawn to scale
        thin = side * d_k / D_MODEL
        wq = Rectangle(width=thin, height=side, stroke_color=theme.Q, stroke_width=3).set_fill(theme.Q, opacity=0.35)
        wk = Rectangle(width=side, height=thin, stroke_color=theme.K, stroke_width=3).set_fill(theme.K, opacity=0.35)
        prod = Rectangle(width=side, height=side, stroke_color=theme.SCORE, stroke_width=3).set_fill(
            theme.SCORE, opacity=0.25
        )
        times = theme.body_text("×", color=theme.TEXT)
        equals = theme.body_text("=", color=theme.TEXT)
        VGroup(wq, times, wk, equals, prod).arrange(RIGHT, buff=0.35).move_to(np.array([-1.7, -0.2, 0.0]))
        wk.match_y(wq)
        labels = VGroup(
            theme.formula("W_Q^T", color=theme.Q, font_size=36).next_to(wq, UP, buff=0.15),
            theme.formula("W_K", color=theme.K, font_size=36).next_to(wk, UP, buff=0.15),
            theme.formula("W_Q^T W_K", color=theme.SCORE, font_size=36).next_to(prod, UP, buff=0.15),
        )
        sizes = VGroup(
            theme.small_text(f"{D_MODEL}×{d_k}").next_to(wq, DOWN, buff=0.15),
            theme.small_text(f"{d_k}×{D_MODEL}").next_to(wk, DOWN, buff=0.15),
            theme.small_text(f"{D_MODEL}×{D_MODEL}").next_to(prod, DOWN, buff=0.15),
        )
        bound = theme.formula(f'"秩" <= d_k = {d_k}', color=theme.HIGHLIGHT).next_to(prod, RIGHT, buff=0.5)
        measured = theme.small_text(f"随机抽一组权重：秩 = {rank}", color=theme.MUTED)
        measured.next_to(bound, DOWN, buff=0.25).align_to(bound, LEFT)
        self.probe(
            "shown",
            heads=[h[1].text for h in heads],
            bound=f"{d_k}",
            measured=measured.text,
            thin_over_side=thin / side,
        )
        tag = theme.small_text("课外思考", color=theme.HIGHLIGHT)
        tag.to_corner(np.array([1.0, 1.0, 0.0]), buff=theme.MARGIN)
        ask = theme.body_text(f"每个头只用 {d_k} 维：丢了什么，换来什么？", color=theme.HIGHLIGHT).move_to(
            np.array([0.0, -2.15, 0.0])
        )
        self.probe("question", tag=tag.text, ask=ask.text)
        with self.cue("question") as cue:
            self.play(FadeOut(rows), FadeOut(root), run_time=cue.share(0.08))
            self.play(FadeIn(tag), FadeIn(heads, lag_ratio=0.15), run_time=cue.share(0.15))
            self.play(FadeIn(heads_note), run_time=cue.share(0.08))
            self.play(
                GrowFromEdge(wq, UP),
                GrowFromEdge(wk, LEFT),
                FadeIn(times),
                FadeIn(labels[:2]),
                FadeIn(sizes[:2]),
                run_time=cue.share(0.15),
            )
            self.play(FadeIn(equals), FadeIn(prod), FadeIn(labels[2]), FadeIn(sizes[2]), run_time=cue.share(0.12))
            self.play(FadeIn(bound, shift=0.2 * LEFT), FadeIn(measured), run_time=cue.share(0.12))
            self.hold_frames(max(0, cue.start_frame + int(0.8 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(ask, shift=0.2 * UP), run_time=cue.remaining())
