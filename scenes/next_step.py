"""收尾: the course's three lessons tied together, and the link that closes it. The course ends there: the question
it used to close on (lesson 1's sentence moved on by 300 seats) was lesson 2's quiz 4 and through_projections'
numbers again (review 9, P2). The course has no further lesson, so nothing points to one."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    VGroup,
)

from scenes import theme
from scenes.base import NarratedScene

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
RECAP = (
    # P2 (review 6): the clock-row / RoPE contrast is said once in this lesson (rot_opening), not here again
    ("第一课", "sin、cos 是指针的坐标；转两次，角度相加"),
    ("第二课", "位置要写进向量：定下三条要求"),
    ("第三课", "旋转不改长度和点积：条纹由此而来"),
)
ROOT = (  # Typst markup: W_Q, W_K with real subscripts
    "那排钟：读数的点积只看距离，过了 $W_Q$、$W_K$ 就保不住",
    "RoPE：最后才转，位置的影响只看 $n - m$：隔几个、谁在前",
)


class NextStep(NarratedScene):
    """recap (lessons one and two, a row each) → link (lesson three: the two properties both uses rest on, and
    what follows), where the course ends."""

    SCENE_IDS = ("next_step",)
    CUES = ("recap", "link")

    def construct(self) -> None:
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
