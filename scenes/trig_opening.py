"""trig_to_rope's opening: the title, the question, the plan of the lesson.

It starts from a sentence whose two names swap, asks how a model tells which word comes first, brings in
sin 30° on a Ferris wheel as the tool, and
lists the lesson's stages (a row for each content scene's stage). Lesson 3 opens with its own scene,
``scenes/rot_opening.py``.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Circle,
    Create,
    FadeIn,
    FadeOut,
    ReplacementTransform,
    VGroup,
)

import mathcore
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import TurningArrow
from scenes.mobjects.word_chips import WordChips


class LessonOpening(NarratedScene):
    """title (the lesson's, from the plan) → question → plan; ``PARAMS[plan.id]`` holds the texts, ``["kind"]``
    picks the pictures."""

    SCENE_IDS = ("trig_opening",)
    CUES = ("title", "question", "plan")
    PARAMS = {
        "trig_opening": {
            "kind": "trig",
            # the title cue's two lines, then the question cue's last line
            "question": ("两人一对调，意思就反了", "谁在前面，模型怎么分清？", "词的先后，能不能也换成转角？"),
            "plan_note": "一根指针，从单位圆一路转到 RoPE",
            # one row per stage of the lesson, so that every content scene has its row (rope_turns and
            # rope_invariance share the fourth)
            "roadmap": (
                "单位圆上的指针",
                "旋转矩阵：角度相加",
                "注意力看不见顺序",
                "RoPE：按位置转，只看相对位置",
                "快慢不同的平面",
                "动手算一遍",
                "一张表串起全课",
            ),
        },
    }
    SPIN = 2 * np.pi / 5.0  # the plan's pointer: one turn every 5 seconds
    SENTENCE = ("小明", "把", "书", "借给", "小红")

    def construct(self) -> None:
        params = self.PARAMS.get(self.plan.id)
        if params is None:
            raise KeyError(f"LessonOpening has no parameters for scene {self.plan.id!r} (known: {sorted(self.PARAMS)})")
        self.params = params
        getattr(self, f"_{params['kind']}")()

    # -- shared beats ------------------------------------------------------------------
    def _title_to_header(self, title, cue) -> None:
        header = self.header()
        self.play(ReplacementTransform(title, header), run_time=cue.share(0.2))

    def _roadmap(
        self,
        items,
        *,
        left_x: float,
        top_y: float,
        arrows: bool,
        font_size: float = theme.SIZE_BODY,
        buff: float | None = None,
    ) -> VGroup:
        rows = VGroup(*[theme.body_text(t, color=theme.TEXT, font_size=font_size) for t in items])
        rows.arrange(DOWN, aligned_edge=LEFT, buff=buff if buff is not None else (0.55 if arrows else 0.4))
        rows.move_to(np.array([left_x, top_y, 0.0]), aligned_edge=LEFT + UP)
        rows[-1].set_color(theme.HIGHLIGHT)
        x0 = rows.get_left()[0] + 0.3
        links = (
            VGroup(
                *[
                    Arrow(
                        np.array([x0, a.get_bottom()[1], 0.0]),
                        np.array([x0, b.get_top()[1], 0.0]),
                        buff=0.06,
                        color=theme.MUTED,
                        stroke_width=3,
                        max_tip_length_to_length_ratio=0.35,
                    )
                    for a, b in zip(rows[:-1], rows[1:])
                ]
            )
            if arrows
            else VGroup()
        )
        return VGroup(rows, links)

    def _play_roadmap(self, roadmap: VGroup, cue) -> None:
        """Reveal the items spread evenly over what is left of the speech."""
        rows, links = roadmap
        n = len(rows)
        for i, row in enumerate(rows):
            anims = [FadeIn(row, shift=0.2 * RIGHT)] + ([FadeIn(links[i - 1])] if i and len(links) else [])
            slot = max(1, (cue.frames_remaining() - 1) // (n - i))
            frames = min(slot, int(round(0.8 * self.fps)))
            self.play_frames(*anims, frames=frames)
            if i < n - 1:
                self.hold_frames(slot - frames)

    # -- trig_to_rope ------------------------------------------------------------------
    def _trig(self) -> None:
        p = self.params
        sin30 = float(mathcore.pointer_tip(np.radians(30.0))[1])
        shown = figures.value("sin30")
        self.probe("sin30", value=sin30, shown=shown)
        title = theme.title_text(self.plan.lesson_title).move_to(np.array([0.0, 2.3, 0.0]))
        self.probe("title", shown=title.text)
        # title: the lending sentence, its two names swapped, and the question of order (K4, review 11: the
        # lesson opens from its own picture, the sentence, not from sin 30°)
        chips = WordChips(self.SENTENCE, center=np.array([0.0, 0.9, 0.0]), spacing=1.6)
        order = Arrow(
            chips.get_left() + 0.9 * DOWN, chips.get_right() + 0.9 * DOWN, buff=0, color=theme.POSITION, stroke_width=4
        )
        ends = VGroup(
            theme.small_text("前", color=theme.POSITION).next_to(order, LEFT, buff=0.15),
            theme.small_text("后", color=theme.POSITION).next_to(order, RIGHT, buff=0.15),
        )
        ask = VGroup(
            theme.body_text(p["question"][0], color=theme.TEXT),
            theme.body_text(p["question"][1], color=theme.HIGHLIGHT),
        ).arrange(DOWN, buff=0.3)
        ask.move_to(np.array([0.0, -1.5, 0.0]))
        with self.cue("title") as cue:
            self.play(FadeIn(title, shift=0.3 * UP), run_time=cue.share(0.12))
            self.play(FadeIn(chips, lag_ratio=0.15), run_time=cue.share(0.15))
            self.play(Create(order), FadeIn(ends), FadeIn(ask[0]), run_time=cue.share(0.2))
            self.hold_frames(max(0, cue.start_frame + int(0.45 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(ask[1], shift=0.2 * UP), run_time=cue.remaining())

        # question: the Ferris wheel (a cabin 30° up from level with the hub: half a radius higher), the number it
        # is, and the question it raises; each shown when the voice reaches it
        wheel = theme.body_text("摩天轮转过 30°：座舱升起半个半径", color=theme.TEXT)
        wheel.move_to(np.array([0.0, 1.0, 0.0]))
        fact = theme.body_text(f"sin 30° = {shown}", color=theme.SIN).move_to(np.array([0.0, 0.0, 0.0]))
        what = theme.body_text(p["question"][2], color=theme.HIGHLIGHT).move_to(np.array([0.0, -1.3, 0.0]))
        with self.cue("question") as cue:

            def hold_to_share(share: float) -> None:
                self.hold_frames(max(0, cue.start_frame + int(share * cue.plan.speech_frames) - self.frame))

            self.play(FadeOut(VGroup(chips, order, ends, ask)), run_time=cue.share(0.1))
            self._title_to_header(title, cue)
            self.play(FadeIn(wheel), run_time=cue.share(0.12))
            hold_to_share(0.45)
            self.play(FadeIn(fact), run_time=cue.share(0.1))
            hold_to_share(0.75)
            self.play(FadeIn(what, shift=0.2 * UP), run_time=cue.remaining())

        center = np.array([-4.3, 0.0, 0.0])
        dial = VGroup(Circle(radius=1.5, color=theme.MUTED, stroke_width=2).move_to(center))
        hand = TurningArrow((1.0, 0.0), scale=1.5, center=center, color=theme.TEXT)
        self.watch("pointer", hand.probe_values)
        note = theme.body_text(p["plan_note"], color=theme.TEXT).move_to(np.array([0.0, 2.75, 0.0]))
        # the lesson's steps in order, numbered (seven rows: no room for arrows between them)
        steps = [f"{i + 1}  {t}" for i, t in enumerate(p["roadmap"])]
        road = self._roadmap(steps, left_x=-1.6, top_y=2.05, arrows=False, font_size=30, buff=0.24)
        self.probe("roadmap", shown=[r.text for r in road[0]])
        with self.cue("plan") as cue:
            self.play(FadeOut(VGroup(wheel, fact, what)), run_time=cue.share(0.12))
            self.play(Create(dial), FadeIn(hand), FadeIn(note), run_time=cue.share(0.15))
            spin = lambda m, dt: m.set_angle(m.phi.get_value() + self.SPIN * dt)  # noqa: E731
            hand.add_updater(spin)
            self._play_roadmap(road, cue)
            self.hold_frames(max(0, cue.frames_remaining()))
            hand.remove_updater(spin)
