"""收尾：一张表串起全课 — the lesson's pictures in the order it showed them, a row each, then a two-line recap.

K2 (review 7): the rows follow the lesson's own path (pointer → turning arrow → shuffled words → RoPE →
planes), and the columns are what each picture showed and what the lesson took from it. P1 (review 8): the
recap adds only what the rows do not say: minimal_rope's table of F at every seat (its figures, symmetric since
q = k) and why rope_invariance's pair tells before from after (k starts ahead of q; M1).
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, UP, Create, FadeIn, FadeOut, Line, Rectangle, Rotate, VGroup
from manim.animation.animation import prepare_animation

from narration import figures
from scenes import theme
from scenes.angle_addition import AngleAddition
from scenes.base import Beat, NarratedScene
from scenes.mobjects.lesson_icons import ICONS

GAP = 0.35  # between columns (scene units); the table is centred
TOP = 2.85
ROW_H = 0.9
ICON = 0.7
CELL_SIZE = theme.SIZE_SMALL  # three columns of short sentences fit the width

_FIRST, _SECOND = AngleAddition.FIRST, AngleAddition.SECOND


class SummaryTable(NarratedScene):
    """intro → pointer → turn → blind → seats → planes (a row each) → recap_two/three → close.

    A row's cells appear as the narration reaches them: the cue text is split at
    its "；" and each part's share of the characters times the "what it showed"
    column and the "what we took from it" column.
    """

    SCENE_IDS = ("summary_table",)
    CUES = ("intro", "pointer", "turn", "blind", "seats", "planes", "recap_two", "recap_three", "close")
    HEADS = ("画面", "看到了什么", "由此得到")
    #: (cue, icon, the picture, what it showed, what the lesson took from it), in the lesson's order
    ROWS = (
        ("pointer", "pointer", "单位圆上的指针", "转过 θ：指尖在 (cos θ, sin θ)", "位置可以写成角度"),
        (
            "turn",
            "arcs",
            "转动箭头",
            f"{_FIRST:g}° 再 {_SECOND:g}° = {_FIRST + _SECOND:g}°，长度不变",
            "角度一减，得出第二步",
        ),
        ("blind", "shuffle", "打乱词序", "“我”拿到的四个数不变", "位置要另外告诉模型"),
        ("seats", "turn", "RoPE", "位置 m：q、k 转 m 个 θ", "点积只跟 n − m 有关"),
        ("planes", "clocks", "快慢不同的平面", "0、44：平面 1 分得开", "每种距离都不一样"),
    )
    #: the recap: minimal_rope's table of F at every seat, then why rope_invariance's pair tells before from after
    RECAPS = (
        (
            "recap_two",
            "arcs",
            f"F 坐满 6 个位置：{figures.value('same_word_d0')}、{figures.value('same_word_d1')}、"
            f"{figures.value('same_word_d2')}，两边对称",
        ),
        (
            "recap_three",
            "turn",
            f"k 起初多偏 {figures.value('rope_pair_lead_deg')}°：k 在后 {figures.value('rope_pair_score')}，"
            f"k 在前 +{figures.value('rope_swap_score')}",
        ),
    )
    CLOSE = "给词标位置，除了转，还有别的办法吗？"

    def construct(self) -> None:
        header = self.header()
        heads = VGroup(*[theme.body_text(h, color=theme.MUTED, font_size=theme.SIZE_SMALL) for h in self.HEADS])
        rows = [self._row(row) for row in self.ROWS]
        # each column starts GAP after the widest cell of the one before it
        xs = [0.0]
        for col in range(len(self.HEADS) - 1):
            cells = [ICON + 0.15 + r.picture.width for r in rows] if col == 0 else [r.cells[col].width for r in rows]
            widest = max([heads[col].width, *cells])
            xs.append(xs[-1] + widest + GAP)
        width = xs[-1] + max([heads[-1].width] + [r.cells[-1].width for r in rows])
        left = -width / 2
        xs = [left + x for x in xs]
        self.columns = xs
        for h, x0 in zip(heads, xs):
            h.move_to(np.array([x0, TOP, 0.0]), aligned_edge=LEFT)
        for k, row in enumerate(rows):
            y = self._row_y(k)
            row.icon.move_to(np.array([xs[0] + ICON / 2, y, 0.0]))
            row.picture.move_to(np.array([xs[0] + ICON + 0.15, y, 0.0]), aligned_edge=LEFT)
            for cell, x0 in zip(row.cells[1:], xs[1:]):
                cell.move_to(np.array([x0, y, 0.0]), aligned_edge=LEFT)
        rules = VGroup(
            *[
                Line(
                    np.array([left, TOP - ROW_H / 2 - k * ROW_H, 0.0]),
                    np.array([left + width, TOP - ROW_H / 2 - k * ROW_H, 0.0]),
                    color=theme.MUTED,
                    stroke_width=2 if k == 0 else 1,
                )
                for k in range(len(self.ROWS) + 1)
            ]
        )
        self.table = VGroup(heads, rules, *rows)
        marker = Rectangle(width=width, height=ROW_H * 0.96, stroke_width=0).set_fill(theme.HIGHLIGHT, opacity=0.14)

        with self.cue("intro") as cue:
            self.play(FadeIn(header), FadeIn(heads, lag_ratio=0.2), Create(rules[0]), run_time=cue.remaining())

        for k, ((short, *_), row) in enumerate(zip(self.ROWS, rows)):
            with self.cue(short) as cue:
                parts = self._part_frames(cue)
                spot = np.array([left + width / 2, self._row_y(k), 0.0])
                first = [FadeIn(row.icon, scale=0.6), FadeIn(row.picture), Create(rules[k + 1])]
                if k == 0:
                    marker.move_to(spot)
                    first.append(FadeIn(marker))
                else:
                    first.append(marker.animate.move_to(spot))
                self._beat(cue, parts[1], *first)
                self._beat(cue, parts[2], FadeIn(row.saw))
                self._beat(cue, cue.speech_end_frame, FadeIn(row.took))
            self.probe(
                f"row_{short}",
                shown=[row.picture.text, row.saw.text, row.took.text],
                on_screen=[self.on_screen(m) for m in (row.icon, row.picture, row.saw, row.took)],
                left=[float(c.get_left()[0]) for c in row.cells],
                right=[float(c.get_right()[0]) for c in row.cells],
            )

        # -- the two-line recap ------------------------------------------------------------
        lines = []
        for k, (short, icon_name, text) in enumerate(self.RECAPS):
            icon = ICONS[icon_name](size=0.8)
            num = theme.body_text(f"{k + 1}", color=theme.HIGHLIGHT)
            words = theme.body_text(text, color=theme.TEXT)
            line = VGroup(num, icon, words).arrange(RIGHT, buff=0.35)
            line.move_to(np.array([0.0, 1.9 - 1.25 * k, 0.0]))
            line.align_to(np.array([-5.6, 0.0, 0.0]), LEFT)
            lines.append(line)
        for k, (short, _, _) in enumerate(self.RECAPS):
            with self.cue(short) as cue:
                if k == 0:
                    self.play(FadeOut(self.table), FadeOut(marker), run_time=cue.share(0.2))
                self.play(FadeIn(lines[k], shift=0.2 * UP), run_time=min(cue.share(0.35), cue.remaining()))
                self.probe(short, shown=lines[k][2].text)

        # -- close: the question the next lesson takes up --------------------------------------------------
        with self.cue("close") as cue:
            final = theme.body_text(self.CLOSE, color=theme.HIGHLIGHT)
            final.move_to(np.array([0.7, -1.95, 0.0]))
            dial = ICONS["pointer"](size=1.0).next_to(final, LEFT, buff=0.4)
            self.play(
                *[line.animate.set_color(theme.MUTED) for line in lines],
                FadeIn(final),
                FadeIn(dial),
                run_time=cue.share(0.3),
            )
            # the hand turns with its tip; the cos reading (fixed at the start angle) leaves first
            self.play(FadeOut(dial.cos), run_time=cue.share(0.1))
            self.play(
                Rotate(VGroup(dial.hand, dial.tip), angle=2 * np.pi, about_point=dial[0].get_center()),
                run_time=cue.remaining(),
            )

    # -- helpers ---------------------------------------------------------------------------------------
    def _row_y(self, k: int) -> float:
        return TOP - (k + 1) * ROW_H

    def _row(self, row) -> VGroup:
        """A row's mobjects; ``cells`` are its three columns (the icon and the picture's name make the first)."""
        _, icon_name, picture, saw, took = row
        out = VGroup()
        out.icon = ICONS[icon_name](size=ICON)
        out.picture = theme.body_text(picture, color=theme.TEXT, font_size=CELL_SIZE)
        out.picture.move_to(np.array([ICON + 0.15, 0.0, 0.0]), aligned_edge=LEFT)
        out.saw = theme.body_text(saw, color=theme.TEXT, font_size=CELL_SIZE)
        out.took = theme.body_text(took, color=theme.HIGHLIGHT, font_size=CELL_SIZE)
        out.cells = [VGroup(out.icon, out.picture), out.saw, out.took]
        out.add(out.icon, out.picture, out.saw, out.took)
        return out

    def _part_frames(self, cue: Beat) -> list[int]:
        """Frames where each "；"-separated part of the cue's text starts (a share of its characters)."""
        text = cue.plan.text
        starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "；"]
        starts = (starts + [len(text)] * 3)[:3]
        span = cue.speech_end_frame - cue.start_frame
        return [cue.start_frame + int(round(span * s / max(1, len(text)))) for s in starts]

    def _beat(self, cue: Beat, until: int, *anims) -> None:
        """Play ``anims`` (about a second, never past ``until``), then hold to ``until``."""
        until = min(until, cue.speech_end_frame)
        n = max(until - self.frame, min(1, cue.frames_remaining(to="cue")))
        if n < 1:  # no frame left in the cue: show the end state at once
            for a in map(prepare_animation, anims):
                a.begin()
                a.finish()
                a.clean_up_from_scene(self)
                self.add(a.mobject)
            return
        self.play_frames(*anims, frames=max(1, min(n, int(0.9 * self.fps))))
        self.hold_to(max(until, self.frame))
