"""收尾: the course's three lessons tied together, then one question the course itself answers: lesson 1's
sentence moved on by SHIFT seats keeps every gap and order; does a RoPE score change, does the clock row's
(added to x, then W_Q, W_K)? through_projections showed both (tests/course/test_lesson_rotation_matrix.py checks
the premise with mathcore.projection). The course has no further lesson, so nothing points to one."""

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
    GrowArrow,
    Rectangle,
    TransformFromCopy,
    VGroup,
)

from scenes import theme
from scenes.base import NarratedScene

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
WORDS = ("猫", "追", "狗")  # lesson 1's sentence (order_entry's chain too)
SEATS = (0, 1, 2)
SHIFT = 300  # the question moves the whole sentence on by this many seats
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
    what follows) → question (the sentence moved on by SHIFT seats: does the score change, with RoPE, with the
    clock row added to x?)."""

    SCENE_IDS = ("next_step",)
    CUES = ("recap", "link", "question")

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

        # -- question: the whole sentence moved on by SHIFT seats; does each score change? -----------------
        # (P4, review 7: the course ends on its own thread, lesson 3's through_projections, not on a rank puzzle)
        tag = theme.small_text("想一想", color=theme.HIGHLIGHT)
        tag.to_corner(np.array([1.0, 1.0, 0.0]), buff=theme.MARGIN)
        before = self._sentence(SEATS, y=2.1)
        after = self._sentence(tuple(p + SHIFT for p in SEATS), y=0.4)
        down = Arrow(
            np.array([0.7, 1.75, 0.0]), np.array([0.7, 0.8, 0.0]), buff=0, color=theme.POSITION, stroke_width=4
        )
        moved = theme.small_text(f"整句往后挪 {SHIFT} 个位置", color=theme.POSITION)
        moved.next_to(down, RIGHT, buff=0.25)
        asks = VGroup(
            theme.body_text("RoPE 打分：变不变？", color=theme.HIGHLIGHT),
            theme.typst_text(
                "那排钟加到 $x$ 上，再过 $W_Q$、$W_K$：变不变？",
                color=theme.HIGHLIGHT,
                font_size=TYPST * theme.SIZE_BODY,
            ),
        ).arrange(DOWN, buff=0.3)
        asks.move_to(np.array([0.0, -1.6, 0.0]))
        self.probe(
            "question",
            tag=tag.text,
            seats=[[m.text for m in before[1]], [m.text for m in after[1]]],
            words=[m[1].text for m in before[0]],
            x=[[float(m.get_center()[0]) for m in before[0]], [float(m.get_center()[0]) for m in after[0]]],
            moved=moved.text,
            asks=[asks[0].text, asks[1].typst_code],
        )
        with self.cue("question") as cue:
            self.play(FadeOut(rows), FadeOut(root), run_time=cue.share(0.08))
            self.play(FadeIn(tag), FadeIn(before), run_time=cue.share(0.12))
            self.hold_frames(max(0, cue.start_frame + int(0.2 * cue.plan.speech_frames) - self.frame))
            self.play(TransformFromCopy(before, after), GrowArrow(down), FadeIn(moved), run_time=cue.share(0.2))
            self.hold_frames(max(0, cue.start_frame + int(0.55 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(asks[0], shift=0.2 * UP), run_time=cue.share(0.1))
            self.hold_frames(max(0, cue.start_frame + int(0.75 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(asks[1], shift=0.2 * UP), run_time=cue.remaining())

    @staticmethod
    def _sentence(seats: tuple[int, ...], y: float) -> VGroup:
        """Lesson 1's sentence, a box a word, each with its seat under it: VGroup(boxes, seat labels)."""
        boxes = VGroup()
        for word in WORDS:
            box = Rectangle(width=1.0, height=0.8, stroke_color=theme.MUTED, stroke_width=2)
            boxes.add(VGroup(box, theme.body_text(word, color=theme.TEXT).move_to(box)))
        boxes.arrange(RIGHT, buff=0.35).move_to(np.array([-1.6, y, 0.0]))
        seat_labels = VGroup(
            *[theme.small_text(str(p), color=theme.POSITION).next_to(b, DOWN, buff=0.12) for p, b in zip(seats, boxes)]
        )
        return VGroup(boxes, seat_labels)
