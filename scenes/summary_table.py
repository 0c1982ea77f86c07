"""收尾：一张表串起全课 — one row per idea, each appearing with its cue, then a three-line recap."""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, UP, Create, FadeIn, FadeOut, Line, Rectangle, Rotate, VGroup
from manim.animation.animation import prepare_animation

from narration import figures
from scenes import theme
from scenes.base import Beat, NarratedScene
from scenes.mobjects.lesson_icons import ICONS

#: column left edges and widths (scene units); the picture column starts with an icon. The widths are
#: the widest cell of each column at CELL_SIZE, and the columns stand about 0.35 apart.
COLS = ((-6.8, 1.65), (-4.8, 2.9), (-1.55, 4.75), (3.5, 3.32))
TOP = 2.85
ROW_H = 0.9
ICON = 0.7
CELL_SIZE = 30  # between theme.SIZE_SMALL and SIZE_BODY: five rows fill the frame


class SummaryTable(NarratedScene):
    """intro → sincos → matrix → addition → freqs → dot (a row each) → recap_one/two/three → close.

    A row's cells appear as the narration reaches them: the cue text is split at
    its "；" and each part's share of the characters times the picture column and
    the model column.
    """

    SCENE_IDS = ("summary_table",)
    CUES = ("intro", "sincos", "matrix", "addition", "freqs", "dot", "recap_one", "recap_two", "recap_three", "close")
    HEADS = ("概念", "课本怎么讲", "这一课的画面", "在大模型里")
    ROWS = (
        ("sincos", "sin / cos", "初中：边长之比", "pointer", "指针的两个坐标", "位置编码的原料"),
        ("matrix", "旋转矩阵", "课本一般不讲", "turn", "转向量，只改方向", "按位置转 q 和 k"),
        ("addition", "和角公式", "背一长串", "arcs", "转两次 = 转一次", "相对位置能算出来"),
        ("freqs", "转速 ω", "算周期", "clocks", "快慢不同的平面", "每对维度的转速"),
        ("dot", "点积", "求夹角", "angle", "一对 q、k：随距离变", "分数带上相对位置"),
    )
    #: the recap: three pictures of the lesson, each with its figures (rope_invariance's pairs and swap,
    #: minimal_rope's table of F at every seat)
    RECAPS = (
        ("recap_one", "angle", f"(0, 3)、(2, 5)、(10, 13)：夹角都是 {figures.value('rope_pair_gap_deg')}°"),
        ("recap_two", "arcs", "F 坐满 6 个位置：每条斜线上的数都一样"),
        (
            "recap_three",
            "turn",
            f"相距 3：k 在后 {figures.value('rope_pair_score')}，k 在前 +{figures.value('rope_swap_score')}",
        ),
    )
    CLOSE = "给词标位置，除了转，还有别的办法吗？"

    def construct(self) -> None:
        header = self.header()
        heads = VGroup(*[theme.body_text(h, color=theme.MUTED, font_size=theme.SIZE_SMALL) for h in self.HEADS])
        for h, (x0, _) in zip(heads, COLS):
            h.move_to(np.array([x0, TOP, 0.0]), aligned_edge=LEFT)
        width = COLS[-1][0] + COLS[-1][1] - COLS[0][0]
        rules = VGroup(
            *[
                Line(
                    np.array([COLS[0][0], TOP - ROW_H / 2 - k * ROW_H, 0.0]),
                    np.array([COLS[0][0] + width, TOP - ROW_H / 2 - k * ROW_H, 0.0]),
                    color=theme.MUTED,
                    stroke_width=2 if k == 0 else 1,
                )
                for k in range(len(self.ROWS) + 1)
            ]
        )
        rows = [self._row(k, row) for k, row in enumerate(self.ROWS)]
        self.table = VGroup(heads, rules, *[r for r in rows])
        marker = Rectangle(width=width, height=ROW_H * 0.96, stroke_width=0).set_fill(theme.HIGHLIGHT, opacity=0.14)

        with self.cue("intro") as cue:
            self.play(FadeIn(header), FadeIn(heads, lag_ratio=0.2), Create(rules[0]), run_time=cue.remaining())

        for k, ((short, *_), row) in enumerate(zip(self.ROWS, rows)):
            with self.cue(short) as cue:
                parts = self._part_frames(cue)
                spot = np.array([COLS[0][0] + width / 2, self._row_y(k), 0.0])
                first = [FadeIn(row.concept), FadeIn(row.school), Create(rules[k + 1])]
                if k == 0:
                    marker.move_to(spot)
                    first.append(FadeIn(marker))
                else:
                    first.append(marker.animate.move_to(spot))
                self._beat(cue, parts[1], *first)
                self._beat(cue, parts[2], FadeIn(row.icon, scale=0.6), FadeIn(row.picture))
                self._beat(cue, cue.speech_end_frame, FadeIn(row.model))
            self.probe(
                f"row_{short}",
                shown=[row.concept.text, row.school.text, row.picture.text, row.model.text],
                on_screen=[self.on_screen(m) for m in (row.concept, row.school, row.icon, row.picture, row.model)],
            )

        # -- the three-sentence recap ------------------------------------------------------------
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

    def _row(self, k: int, row) -> VGroup:
        _, concept, school, icon_name, picture, model = row
        y = self._row_y(k)
        cells = VGroup()
        cells.concept = theme.body_text(concept, color=theme.TEXT, font_size=CELL_SIZE)
        cells.school = theme.body_text(school, color=theme.TEXT, font_size=CELL_SIZE)
        cells.icon = ICONS[icon_name](size=ICON)
        cells.picture = theme.body_text(picture, color=theme.TEXT, font_size=CELL_SIZE)
        cells.model = theme.body_text(model, color=theme.HIGHLIGHT, font_size=CELL_SIZE)
        (x0, _), (x1, _), (x2, _), (x3, _) = COLS
        cells.concept.move_to(np.array([x0, y, 0.0]), aligned_edge=LEFT)
        cells.school.move_to(np.array([x1, y, 0.0]), aligned_edge=LEFT)
        cells.icon.move_to(np.array([x2 + ICON / 2, y, 0.0]))
        cells.picture.move_to(np.array([x2 + ICON + 0.15, y, 0.0]), aligned_edge=LEFT)
        cells.model.move_to(np.array([x3, y, 0.0]), aligned_edge=LEFT)
        cells.add(cells.concept, cells.school, cells.icon, cells.picture, cells.model)
        return cells

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
