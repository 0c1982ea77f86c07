"""两分钟看全貌: the whole word_order argument, one compact picture per cue.

Published on its own as overview.mp4, so every beat names itself (a caption at the
top) and nothing refers to other videos. Every number drawn comes from mathcore
or narration/figures.py: the short shuffle swaps 小明 and 小红 of the premise (the toy word vectors of
``mathcore.toy_words``, as in the lesson's own blind_bag, which shows the whole experiment), the
failures use ``raw_index_encoding`` / ``length_normalised_encoding``, the clocks
``frequencies(512)``, the table ``learned_table``, the arrows ``rope_score``.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    Dot,
    FadeIn,
    RoundedRectangle,
    SurroundingRectangle,
    VGroup,
)

import mathcore
from mathcore.toy_words import word_vectors
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import ClockRow, HeatMap, LabeledNumber, TurningArrow
from scenes.mobjects.clock_row import TwoLines
from scenes.mobjects.seat_card import THREE_REQUIREMENTS, RequirementList, SeatCard
from scenes.mobjects.word_chips import WordChips

CAPTIONS = {
    "seat": "把座位号写进向量：x + p",
    "rules": "p 要满足三条",
    "fail": "两个行不通的写法",
    "clocks": "原论文（2017）：一排钟",
    "table": "另一条路：查表",
    "close": "RoPE：按座位转 q、k，转速同一个公式",
}


class OverviewReel(NarratedScene):
    """premise → seat (blind without positions, then x + p) → rules → fail → clocks → table → close (RoPE)."""

    SCENE_IDS = ("word_order_overview",)
    CUES = ("premise", "seat", "rules", "fail", "clocks", "table", "close")
    WORDS = ("小明", "把", "书", "借给", "小红")  # the premise's sentence, cut as everywhere in the lesson
    SWAP = (4, 1, 2, 3, 0)  # 小明 ↔ 小红: the premise's second sentence
    WORD_D = 4  # the toy word vectors' size, as in blind_bag
    RAW_SEAT = 5000  # a far seat, written raw (as in failing_encodings)
    CLOCK_INDICES = (0, 64, 128, 192, 255)  # 5 of the 256 clocks of d = 512
    CLOCK_STEPS = (1, 2, 3)
    TABLE_ROWS = (0, 1, 2, 3, 4, 5)
    TABLE_LEN, TABLE_D = 512, 8
    # the published tables' lengths (BERT's paper, GPT-2's released weights): the drawn table is BERT's length only
    MODEL_TABLE_ROWS = figures.MODEL_TABLE_ROWS
    CLOSE_ROW_D, CLOSE_HEAD_D, CLOSE_POSITION = 512, 128, 3  # the clock row's d, one head's d, the seat reached
    CLOSE_PLANES = (0, 16, 32, 48, 63)  # planes of the head; each turns with clock i·512/128 of the row above it
    CLOSE_Q = (1.0, 0.0)  # the q arrows of `close` start where the hands start, so both point the same way

    def construct(self) -> None:
        self.caption = None
        for short in self.CUES:
            with self.cue(short) as cue:
                getattr(self, f"_{short}")(cue)

    # -- helpers ------------------------------------------------------------------------
    def _swap_caption(self, short: str, cue, *extra) -> None:
        """Fade out what is on screen (``extra``) and the old caption, then bring in this beat's caption."""
        new = theme.body_text(CAPTIONS[short], color=theme.HIGHLIGHT).move_to(np.array([0.0, 3.35, 0.0]))
        old = [self.caption] if self.caption is not None else []
        self.swap([*old, *extra], FadeIn(new, shift=0.2 * DOWN), run_time=cue.share(0.1))
        self.caption = new

    def _at(self, cue, fraction: float) -> None:
        """Hold until ``fraction`` of the cue's speech (never backwards)."""
        self.hold_to(max(self.frame, cue.start_frame + int(fraction * cue.plan.speech_frames)))

    # -- the beats ----------------------------------------------------------------------
    def _premise(self, cue) -> None:
        title = theme.title_text(self.plan.lesson_title).move_to(np.array([0.0, 2.7, 0.0]))
        a = WordChips(self.WORDS, center=np.array([0.0, 1.2, 0.0]), spacing=1.55)
        b = WordChips([self.WORDS[i] for i in self.SWAP], center=np.array([0.0, 0.0, 0.0]), spacing=1.55)
        self.probe("premise", title=title.text, rows=[list(a.words), list(b.words)])
        marks = VGroup(
            *[SurroundingRectangle(row.chips[i], color=theme.HIGHLIGHT, buff=0.05) for row in (a, b) for i in (0, 4)]
        )
        ask = theme.body_text("Transformer 知道每个词排第几吗？", color=theme.HIGHLIGHT).move_to(
            np.array([0.0, -1.5, 0.0])
        )
        self.play(FadeIn(title, shift=0.3 * UP), run_time=cue.share(0.15))
        self.play(FadeIn(a), FadeIn(b), run_time=cue.share(0.2))
        self.play(Create(marks), run_time=cue.share(0.15))
        self._at(cue, 0.62)
        self.play(FadeIn(ask, shift=0.2 * UP), run_time=cue.remaining())
        self.premise_group = VGroup(title, a, b, marks, ask)

    def _seat(self, cue) -> None:
        self._swap_caption("seat", cue, self.premise_group)
        card = SeatCard(d=4, cell=0.85, center=np.array([-1.3, 0.6, 0.0]), font_size=theme.SIZE_SMALL + 4)
        attn = VGroup(
            RoundedRectangle(corner_radius=0.15, width=2.1, height=1.0, stroke_color=theme.MUTED),
            theme.body_text("注意力", color=theme.TEXT, font_size=theme.SIZE_SMALL + 4),
        )
        attn[1].move_to(attn[0])
        attn.move_to(np.array([4.6, 0.6, 0.0]))
        self.watch(
            "seat",
            lambda: {
                **card.probe_values(),
                "on_screen": self.on_screen(card.merged_cells if card.merged else card.x_cells),
            },
        )
        self.play(FadeIn(card.x_cells), FadeIn(card.row_labels[0]), FadeIn(attn), run_time=cue.share(0.15))
        self.play(
            FadeIn(card.p_cells, shift=0.3 * UP, lag_ratio=0.15), FadeIn(card.row_labels[1]), run_time=cue.share(0.15)
        )
        self.play(card.make_add_animation(), Create(card.frame), FadeIn(card.title), run_time=cue.share(0.25))
        # the sum is one row of numbers: the two rows merge (as in the lesson's seat card)
        self.play(*card.merge_animations(), run_time=cue.share(0.15))
        self.remove(*card.settle_merge())
        feed = Arrow(card.merged_frame.get_right(), attn.get_left(), buff=0.15, color=theme.MUTED, stroke_width=4)
        self.play(Create(feed), run_time=cue.remaining())
        self.card_group = VGroup(card, card.title, attn, feed)

    def _rules(self, cue) -> None:
        self._swap_caption("rules", cue, self.card_group)
        reqs = RequirementList(THREE_REQUIREMENTS).move_to(np.array([0.0, 0.4, 0.0]))
        for i, row in enumerate(reqs.items):
            row[0].set_color(theme.TEXT)
            self._at(cue, (0.1, 0.3, 0.46)[i])
            self.play(FadeIn(row, shift=0.2 * RIGHT), run_time=cue.share(0.12))
        self.rules_group = reqs

    def _fail(self, cue) -> None:
        self._swap_caption("fail", cue, self.rules_group)
        raw = mathcore.raw_index_encoding([self.RAW_SEAT], 4)[0]
        word = word_vectors(self.WORDS[:1], self.WORD_D)[0][:2]  # 小明, as in the blind beat
        seat, (short, long) = figures.NORM_SEAT, figures.NORM_LENGTHS
        code = [float(mathcore.length_normalised_encoding([seat], n, 1)[0, 0]) for n in (short, long)]
        step = [
            float(np.diff(mathcore.length_normalised_encoding([seat, seat + 1], n, 1)[:, 0])[0]) for n in (short, long)
        ]
        fmt = figures.fmt_dec
        left = (
            VGroup(
                theme.body_text("① 直接写座位号", color=theme.TEXT),
                theme.small_text(f"词向量 x = ({fmt(word[0])}, {fmt(word[1])}, …)", color=theme.TEXT),
                theme.small_text(f"座位 {self.RAW_SEAT}：p = ({fmt(raw[0])}, {fmt(raw[1])}, …)", color=theme.POSITION),
                theme.body_text("数太大，盖住词义", color=theme.HIGHLIGHT),
            )
            .arrange(DOWN, aligned_edge=LEFT, buff=0.3)
            .move_to(np.array([-6.3, 2.0, 0.0]), aligned_edge=UP + LEFT)
        )
        right = (
            VGroup(
                theme.body_text("② 除以句子长度", color=theme.TEXT),
                theme.small_text(f"座位 {seat}，{short} 个词：p = {fmt(code[0], 3)}", color=theme.POSITION),
                theme.small_text(f"座位 {seat}，{long} 个词：p = {fmt(code[1], 3)}", color=theme.POSITION),
                theme.small_text(f"挪一个座位：+{fmt(step[0], 3)} 或 +{fmt(step[1], 3)}", color=theme.POSITION),
                theme.body_text("同一个座位，读数不同", color=theme.HIGHLIGHT),
            )
            .arrange(DOWN, aligned_edge=LEFT, buff=0.3)
            .move_to(np.array([0.9, 2.0, 0.0]), aligned_edge=UP + LEFT)
        )
        self.probe(
            "fail",
            raw=raw.tolist(),
            word=word.tolist(),
            seat=seat,
            lengths=[short, long],
            code=code,
            step=step,
            shown=[m.text for m in (*left, *right)],
        )
        self.play(FadeIn(left[:3], lag_ratio=0.3), run_time=cue.share(0.2))
        self.play(FadeIn(left[3]), run_time=cue.share(0.1))
        self._at(cue, 0.45)
        self.play(FadeIn(right[:3], lag_ratio=0.3), run_time=cue.share(0.2))
        self.play(FadeIn(right[3:], lag_ratio=0.4), run_time=cue.remaining())
        self.fail_group = VGroup(left, right)

    def _clocks(self, cue) -> None:
        self._swap_caption("clocks", cue, self.fail_group)
        row = ClockRow(
            d=512, indices=self.CLOCK_INDICES, radius=0.6, spacing=2.7, center=np.array([0.0, 1.25, 0.0]), unit="个座位"
        )
        # the slowest clock's turn as the lesson says it (约 6.1 万), not five digits
        slow = row.wavelength_labels[-1]
        slow_wan = TwoLines("一圈", f"≈{figures.value('wl_slow_512_wan')} 万个座位").move_to(slow)
        row.wavelength_labels.remove(slow)
        row.wavelength_labels.add(slow_wan)
        self.watch("clocks", lambda: {**row.probe_values(), "on_screen": self.on_screen(row)})
        # the seat counter says 座位号 like the rest of the lesson (the row's own says 位置 p)
        counter = LabeledNumber("座位号 =", 0, decimals=0, color=theme.POSITION, label_color=theme.POSITION)
        counter.move_to(np.array([0.0, -1.0, 0.0]))
        counter.add_updater(lambda m: m.set_value(float(np.round(row.p))))
        self.watch(
            "clocks_drawn",
            lambda: {
                "hands": [[h.get_start().tolist(), h.get_end().tolist()] for h in row.hands],
                "hands_on": self.on_screen(row.hands),
                "counter_text": counter.shown_text(),
                "counter_on": self.on_screen(counter),
                "wavelength_texts": [t.text for t in row.wavelength_labels],
                "wavelengths_on": [self.on_screen(t) for t in row.wavelength_labels],
            },
        )
        note = theme.small_text("256 个钟，这里画 5 个；读数都在 −1 到 1 之间", color=theme.TEXT)
        note.move_to(np.array([0.0, 2.78, 0.0]))
        fast_slow = theme.body_text("最左边几个座位一圈，最右边几万个座位一圈", color=theme.HIGHLIGHT).move_to(
            np.array([0.0, -1.85, 0.0])
        )
        self.play(FadeIn(row), FadeIn(note), run_time=cue.share(0.15))
        self.play(FadeIn(row.wavelength_labels), FadeIn(counter), run_time=cue.share(0.12))
        for p in self.CLOCK_STEPS:
            self.play(row.make_step_animation(p), run_time=cue.share(0.12))
        self._at(cue, 0.72)
        self.play(FadeIn(fast_slow), run_time=cue.remaining())
        self.clock_group = VGroup(row, row.wavelength_labels, counter, note, fast_slow)
        self.clock_row = row

    def _table(self, cue) -> None:
        self._swap_caption("table", cue, self.clock_group)
        table = mathcore.learned_table(self.TABLE_LEN, self.TABLE_D)
        rows = list(self.TABLE_ROWS) + [self.TABLE_LEN - 1]
        values = table[rows]
        lim = float(np.abs(table).max())
        heat = HeatMap(
            values,
            cell=0.48,
            vmin=-lim,
            vmax=lim,
            low_color=theme.BACKGROUND,
            high_color=theme.POSITION,
            center=np.array([-2.2, 0.55, 0.0]),
            row_labels=[f"座位 {r}" for r in rows],
        )
        below = heat.cell(len(rows) - 2, 0).get_bottom() + 0.175 * DOWN  # the middle of the gap opened below
        gap = VGroup(*[Dot(below + dy * UP, radius=0.035, color=theme.MUTED) for dy in (-0.11, 0.0, 0.11)])
        heat.cells[-self.TABLE_D :].shift(0.35 * DOWN)
        heat.labels[-1].shift(0.35 * DOWN)
        self.probe("table", rows=rows, values=values.tolist(), drawn=heat.values.tolist())
        side = VGroup(
            theme.body_text(f"座位 0 到 {self.TABLE_LEN - 1}：一行一个", color=theme.TEXT),
            theme.body_text("数是训练出来的", color=theme.TEXT),
            theme.body_text(f"座位 {self.TABLE_LEN}：查不到", color=theme.HIGHLIGHT),
            *[theme.body_text(f"{name}：{rows} 行", color=theme.TEXT) for name, rows in self.MODEL_TABLE_ROWS],
        )
        side.arrange(DOWN, aligned_edge=LEFT, buff=0.35).move_to(np.array([1.4, 0.45, 0.0]), aligned_edge=LEFT)
        self.probe("table_side", texts=[t.text for t in side])
        self.play(FadeIn(heat), FadeIn(gap), FadeIn(side[0]), run_time=cue.share(0.2))
        self.play(FadeIn(side[1]), run_time=cue.share(0.12))
        self._at(cue, 0.45)
        self.play(FadeIn(side[2]), run_time=cue.share(0.12))
        self._at(cue, 0.7)
        self.play(FadeIn(side[3:]), run_time=cue.remaining())
        self.table_group = VGroup(heat, gap, side)

    def _close(self, cue) -> None:
        """The same formula with the head's d: plane i of a 128-dimension head turns as fast as clock 4i of the 512
        row (the exponent 2i/d is the same). Each q arrow turns by its own plane's speed (mathcore.frequencies of
        the head), drawn under the clock that keeps pace with it."""
        self._swap_caption("close", cue, self.table_group)
        ratio = self.CLOSE_ROW_D // self.CLOSE_HEAD_D
        row = ClockRow(
            d=self.CLOSE_ROW_D,
            indices=[ratio * i for i in self.CLOSE_PLANES],
            radius=0.5,
            spacing=2.2,
            center=np.array([1.4, 1.6, 0.0]),
        )
        w_head = mathcore.frequencies(self.CLOSE_HEAD_D)[list(self.CLOSE_PLANES)]
        arrows, ghosts, plane_names = [], VGroup(), VGroup()
        for i, c in enumerate(row.centers):
            ghosts.add(
                TurningArrow(
                    self.CLOSE_Q,
                    scale=0.75,
                    center=c + 2.0 * DOWN,
                    color=theme.Q,
                    opacity=theme.GHOST_OPACITY,
                    stroke_width=3,
                )
            )
            arr = TurningArrow(self.CLOSE_Q, scale=0.75, center=c + 2.0 * DOWN, color=theme.Q, stroke_width=5)
            arr.clear_updaters()
            arr.add_updater(lambda m, i=i: m.set_angle(row.p * w_head[i]))  # its own plane's speed, not the hand's
            arrows.append(arr)
            plane_names.add(theme.small_text(f"平面 {self.CLOSE_PLANES[i]}", color=theme.TEXT).move_to(c + 3.05 * DOWN))
        self.watch(
            "close",
            lambda: {
                "p": row.p,
                "w": row.w.tolist(),
                "w_head": w_head.tolist(),
                "hand_angles": row.probe_values()["hand_angles"],
                "arrows": [a.probe_values() for a in arrows],
                "hand_points": [[h.get_start().tolist(), h.get_end().tolist()] for h in row.hands],
                "arrow_points": [[a.arrow.get_start().tolist(), a.arrow.get_end().tolist()] for a in arrows],
                "clock_names": [t.text for t in row.names],
                "plane_names": [t.text for t in plane_names],
                "on_screen": [self.on_screen(a) for a in arrows],
            },
        )
        names = VGroup(
            theme.small_text(f"那排钟 d = {self.CLOSE_ROW_D}", color=theme.ANGLE).move_to(
                np.array([-6.8, 1.6, 0.0]), aligned_edge=LEFT
            ),
            theme.small_text(f"q、k 的 d = {self.CLOSE_HEAD_D}", color=theme.Q).move_to(
                np.array([-6.8, -0.4, 0.0]), aligned_edge=LEFT
            ),
        )
        links = VGroup(
            *[
                Arrow(
                    c + 0.6 * DOWN,
                    c + 1.1 * DOWN,
                    buff=0,
                    color=theme.MUTED,
                    stroke_width=3,
                    max_tip_length_to_length_ratio=0.4,
                )
                for c in row.centers
            ]
        )
        swap = theme.body_text("同一个公式，d 换成 q、k 的维数", color=theme.TEXT).move_to(np.array([0.0, -2.25, 0.0]))
        self.play(FadeIn(row), FadeIn(names[0]), run_time=cue.share(0.12))
        self.play(
            *[FadeIn(a) for a in arrows],
            FadeIn(ghosts),
            Create(links),
            FadeIn(names[1]),
            FadeIn(plane_names),
            run_time=cue.share(0.12),
        )
        self.play(row.make_step_animation(self.CLOSE_POSITION), run_time=cue.share(0.25))
        self._at(cue, 0.45)
        self.play(FadeIn(swap), run_time=cue.share(0.12))
        cue.hold()
