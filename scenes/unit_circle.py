"""单位圆上的指针: sin and cos are the two readings of a turning pointer, a cabin on the opening's wheel.

K2 (review 9): the beats follow the course's own picture (trig_opening's Ferris wheel): 30° and 150° are as high
as each other, so sin alone cannot tell them apart; 270° is the lowest point.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    Arc,
    Create,
    FadeIn,
    FadeOut,
    GrowFromPoint,
    Succession,
    SurroundingRectangle,
    VGroup,
)

from scenes import theme
from scenes.base import NarratedScene


class UnitCirclePointer(NarratedScene):
    """hook → pointer → readout (50°, then from 0° the way a positive θ turns) → sweep (30°, 150°, 270°) → circle
    (a full turn) → takeaway (the two readings go together)."""

    SCENE_IDS = ("unit_circle",)
    CUES = ("hook", "pointer", "readout", "sweep", "circle", "takeaway")
    BOOKMARKS = {"sweep": ("at30", "at150", "at270")}
    SWEEP_STOPS = (("at30", 30.0), ("at150", 150.0), ("at270", 270.0))
    TURN_SECONDS = 0.9
    LAST = 270.0  # where the sweep leaves the pointer
    READOUT_DEG = 50.0  # where the pointer shows its two readings first
    HINT_RADIUS = 1.25  # the arrow of a positive turn: between the angle arc and the circle
    HINT_DEG = 75.0

    def construct(self) -> None:
        from scenes.mobjects.unit_circle_pointer import UnitCirclePointer as Pointer

        # -- hook: the claim, big ---------------------------------------------
        with self.cue("hook") as cue:
            title = theme.title_text("摩天轮，正对着看")
            self.play(FadeIn(title, shift=0.3 * UP), run_time=cue.share(0.35))
            header = theme.body_text("摩天轮，正对着看", color=theme.MUTED, font_size=theme.SIZE_SMALL)
            header.to_corner(LEFT + UP, buff=theme.MARGIN)
            self.hold_frames(max(0, cue.frames_remaining() - int(0.6 * self.fps)))
            self.play(title.animate.become(header), run_time=cue.remaining())

        # -- pointer: a unit circle and a pointer at 0° --------------------------
        dial = Pointer(radius=2.1, center=np.array([-3.3, 0.2, 0.0]), angle=0.0)
        readout = dial.readout
        with self.cue("pointer") as cue:
            self.play(Create(dial.axes), FadeIn(dial.axis_labels), Create(dial.circle), run_time=cue.share(0.45))
            radius_note = theme.small_text("半径 = 1", color=theme.TEXT).next_to(
                dial.center_point + 1.05 * RIGHT, UP, buff=0.08
            )
            self.play(
                GrowFromPoint(dial.pointer, dial.center_point),
                FadeIn(dial.tip_dot),
                FadeIn(radius_note),
                run_time=cue.share(0.35),
            )
            self.remove(dial.axes, dial.axis_labels, dial.circle, dial.pointer, dial.tip_dot)
            self.add(dial)  # from here on the dial's updater owns the pointer
            zero = theme.small_text("0°", color=theme.ANGLE).next_to(dial.tip_point(), UP + RIGHT, buff=0.15)
            self.watch(
                "pointer",
                lambda: {
                    **dial.probe_values(),
                    **dial.drawn(),
                    "readout_on_screen": self.on_screen(readout),
                    "zero_on_screen": self.on_screen(zero),
                },
            )
            self.play(FadeIn(zero), run_time=cue.remaining())

        # -- readout: (cos θ, sin θ); cos is the x reading, sin the y reading -------
        readout = dial.readout
        readout.move_to(np.array([2.2, 1.7, 0.0]))
        rule = VGroup(
            theme.body_text("x = cos θ：右正左负", color=theme.COS),
            theme.body_text("y = sin θ：上正下负", color=theme.SIN),
            theme.body_text("逆时针算正", color=theme.ANGLE),
        ).arrange(DOWN, aligned_edge=LEFT)
        # M6 (review 12): the readings carry a sign; the lines say so before the sweep reads −0.87 and −1
        self.probe("rule", lines=[m.text for m in rule])
        rule.next_to(readout, DOWN, buff=0.5).align_to(readout, LEFT)
        # which way a positive θ turns: an arrow drawn counter-clockwise from due right
        positive = Arc(
            radius=self.HINT_RADIUS,
            start_angle=0.0,
            angle=np.radians(self.HINT_DEG),
            arc_center=dial.center_point,
            color=theme.ANGLE,
            stroke_width=5,
        ).add_tip(tip_length=0.22, tip_width=0.22)
        head = positive.pop_tips()[0]  # drawn once the arc has grown (Create would draw it last, half the time)
        with self.cue("readout") as cue:
            # the readings first (a fading mobject's updater waits: faded in while turning, they would show 0°),
            # then a turn, so the two readings have a length to show
            self.play(FadeOut(zero), FadeOut(radius_note), FadeIn(readout), run_time=cue.share(0.08))
            self.play(dial.make_turn_animation(np.radians(self.READOUT_DEG)), run_time=cue.share(0.22))
            self.play(dial.make_projections_animation(), FadeIn(rule[0]), run_time=cue.share(0.2))
            self.play(FadeIn(rule[1]), run_time=cue.share(0.12))
            # "angles start from due right": the pointer starts again at 0°. It fades out and back in rather
            # than turning back, which would be a clockwise turn under "逆时针" (tests/course/test_motion_words.py)
            self.play(*self._shown(dial, 0.0), run_time=cue.share(0.05))
            dial.set_angle(0.0)
            self.play(*self._shown(dial, 1.0), run_time=cue.share(0.05))
            self.play(
                FadeIn(rule[2]),
                Succession(Create(positive, run_time=0.7), FadeIn(head, run_time=0.3)),
                run_time=cue.remaining(),
            )

        # -- sweep: 30°, 150° (as high, on the left), 270° (lowest), each turn starting on its bookmark ------
        with self.cue("sweep") as cue:
            for name, degrees in self.SWEEP_STOPS:
                self.hold_to(cue.bookmark(name))
                nxt = [cue.bookmark(n) for n, _ in self.SWEEP_STOPS if cue.bookmark(n) > self.frame]
                limit = (nxt[0] if nxt else cue.speech_end_frame) - self.frame
                frames = max(1, min(limit, int(round(self.TURN_SECONDS * self.fps))))
                leave = [FadeOut(positive), FadeOut(head)] if head in self.mobjects else []  # the pointer shows it now
                self.play_frames(dial.make_turn_animation(np.radians(degrees)), *leave, frames=frames)

        # -- circle: a full turn from 270°; the tip draws the circle ------------------
        with self.cue("circle") as cue:
            dial.start_trace()
            self.play(dial.make_turn_animation(np.radians(self.LAST + 360.0)), run_time=cue.share(0.75))
            every = theme.body_text("离轮轴始终是 1", color=theme.HIGHLIGHT)
            every.next_to(rule, DOWN, buff=0.35).align_to(rule, LEFT)
            self.play(FadeIn(every), run_time=cue.remaining())

        # -- takeaway: the two readings go together (sin alone mixes 30° and 150°); the pointer rests ---------
        with self.cue("takeaway") as cue:
            line = VGroup(
                theme.body_text("30°、150°：sin 一样", color=theme.SIN),
                theme.body_text("cos、sin 一起读", color=theme.TEXT),
            ).arrange(DOWN, aligned_edge=LEFT)
            line.next_to(readout, DOWN, buff=0.6).align_to(readout, LEFT)
            box = SurroundingRectangle(line, color=theme.HIGHLIGHT, buff=0.15)
            self.swap([every, rule], FadeIn(line), Create(box), run_time=cue.share(0.4))
            cue.hold()  # the words name no turn

    @staticmethod
    def _shown(dial, opacity: float) -> list[Animation]:
        """The pointer, its tip and its two readings faded to ``opacity`` (the dial's updater keeps placing them)."""
        return [
            dial.pointer.animate.set_stroke(opacity=opacity),
            dial.tip_dot.animate.set_opacity(opacity),
            dial.projections.animate.set_stroke(opacity=opacity),
        ]
