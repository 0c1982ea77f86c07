"""RoPE：算出 q、k 之后再转 — why RoPE turns q and k after the projections (its job); then, on lesson 1's pair
(recalled in a clause), what lesson 1 did not show: k's word moves, k turns and the score changes, its value vector
v stays; RoPE against the three requirements, and why a longer context needs slower planes. The planes of a head
are lesson 1's (clock_row) and the overview's close: not re-run here (review 9, P1)."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    Line,
    RoundedRectangle,
    Square,
    VGroup,
)

from mathcore.scores import angle_between
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import LabeledNumber, QKPair
from scenes.mobjects.colored_text import colored, rich
from scenes.mobjects.marks import MarkedLine
from scenes.mobjects.seen_angles import SeenAngleDial

CENTER = np.array([-3.7, 0.25, 0.0])
SCALE = 1.8
PANEL_X = 0.9  # left edge of the readouts
STRIP_Y = -1.75
SEAT_W = 0.5
SCORE_PLACES = len(figures.value("rope_pair_score").partition(".")[2])  # the score readout's decimals, as said


def _box(text: str, color: str = theme.TEXT) -> VGroup:
    label = theme.body_text(text, color=color, font_size=theme.SIZE_BODY)
    frame = RoundedRectangle(
        corner_radius=0.12, width=label.width + 0.45, height=0.8, color=color, stroke_width=3
    ).move_to(label)
    return VGroup(frame, label)


OLD_CHAIN = (("x", theme.TEXT), ("x + 位置向量", theme.POSITION), ("q, k, v", theme.TEXT), ("打分", theme.SCORE))
NEW_CHAIN = (("x", theme.TEXT), ("q, k, v", theme.TEXT), ("按座位转 q、k", theme.HIGHLIGHT), ("打分", theme.SCORE))


def _chain(*parts: tuple[str, str]) -> VGroup:
    boxes = [_box(t, c) for t, c in parts]
    row = VGroup(*boxes).arrange(RIGHT, buff=0.6)
    links = VGroup(
        *[
            Arrow(
                a.get_right(),
                b.get_left(),
                buff=0.08,
                color=theme.MUTED,
                stroke_width=3,
                max_tip_length_to_length_ratio=0.3,
            )
            for a, b in zip(boxes, boxes[1:])
        ]
    )
    return VGroup(row, links)


class QKWidget(NarratedScene):
    """placement (RoPE's place: the third step) → after_qk → why (x + position passes through W_Q, W_K; RoPE turns
    after them) → value (lesson 1's pair in a clause, q on seat 0 and k on seat 3 from {@seats}; k's word moves to
    seat 1: k turns back, the score changes, the word's v stays) → ticks (the three requirements; the pair moves on a
    seat together) → longer (the slowest plane, seen and unseen angles).

    q and k are ``figures.ROPE_PAIR_Q/K``, θ is ``figures.THETA_DEG``, the seats ``figures.VALUE_SEATS``, v is
    ``figures.VALUE_V``. Turned arrows come from :func:`mathcore.rope_2d`, the
    angle between them from :func:`mathcore.scores.angle_between`, the score from
    :func:`mathcore.rope_score`; the slowest plane's angles from :func:`narration.figures.context_angle`.
    """

    SCENE_IDS = ("qk_widget",)
    CUES = (
        "placement",
        "after_qk",
        "why",
        "value",
        "ticks",
        "longer",
    )
    BOOKMARKS = {
        "placement": ("moved",),
        "why": ("rope",),
        "value": ("seats", "move", "still"),
        "longer": ("far", "base", "train"),
    }
    N_SEATS = 10

    def _why(self, old: VGroup, old_name, new: VGroup, v_note) -> None:
        """The added position goes through the matrices that make q and k, mixed with the word, so the same
        distance scores differently from another start; RoPE turns q and k after them (lesson 3 has the numbers)."""
        matrices = rich("乘 $W_Q$、$W_K$", font_size=theme.SIZE_SMALL)
        matrices.move_to(np.array([old[1][1].get_x(), old[0].get_top()[1] + 0.32, 0.0]))  # over its arrow
        mixed = MarkedLine(
            "cross",
            theme.small_text("位置跟词义一起乘矩阵：同样隔 3 个座位，换个起点，分数一般会变", color=theme.TEXT),
        ).move_to(np.array([0.3, 0.45, 0.0]))
        kept = MarkedLine(
            "tick", theme.small_text("算好 q、k 再转：同一对 q、k，分数只看 n − m", color=theme.HIGHLIGHT)
        ).move_to(np.array([0.3, -1.95, 0.0]))  # where "v 不转" was: it leaves as RoPE's chain lights up
        with self.cue("why") as cue:
            self.play(
                *[box.animate.set_color(c) for box, (_, c) in zip(old[0], OLD_CHAIN)],
                old_name.animate.set_color(theme.TEXT),
                *[box.animate.set_color(theme.MUTED) for box in new[0]],
                run_time=cue.share(0.12),
            )
            self.play(FadeIn(matrices, shift=0.1 * DOWN), run_time=cue.share(0.15))
            self.play(FadeIn(mixed), run_time=cue.share(0.15))
            self.hold_to(max(self.frame, cue.bookmark("rope")))
            self.play(
                *[box.animate.set_color(c) for box, (_, c) in zip(new[0], NEW_CHAIN)],
                *[box.animate.set_color(theme.MUTED) for box in old[0]],
                old_name.animate.set_color(theme.MUTED),
                FadeOut(v_note),
                run_time=cue.share(0.12),
            )
            self.play(FadeIn(kept), run_time=min(cue.share(0.12), cue.remaining()))
            cue.hold()
            self.probe(
                "why",
                matrices=matrices.typst_code,
                texts=[mixed.text.text, kept.text.text],
                kinds=[mixed.mark.kind, kept.mark.kind],
                at=[self.on_screen(mixed), self.on_screen(kept)],
            )
        self.why_group = VGroup(matrices, mixed, kept)

    def _value(self, cue, pair: QKPair, unit_note) -> VGroup:
        """k's word moves from seat 3 to seat 1 (``figures.VALUE_SEATS``): k turns back 2θ, the score changes;
        the word's value vector v (``figures.VALUE_V``) is drawn and never turns."""
        (_, n0), (_, n1) = figures.VALUE_SEATS
        v = np.asarray(figures.VALUE_V, dtype=float)
        v_arrow = Arrow(
            CENTER,
            CENTER + SCALE * np.array([v[0], v[1], 0.0]),
            buff=0,
            color=theme.TEXT,
            stroke_width=6,
            max_tip_length_to_length_ratio=0.15,
        )
        v_label = theme.body_text("v", color=theme.TEXT).next_to(v_arrow.get_end(), DOWN + LEFT, buff=0.08)
        v_note = theme.small_text("v 不转：座位只改分数", color=theme.TEXT)
        v_note.move_to(np.array([PANEL_X, -0.55, 0.0]), aligned_edge=LEFT)
        self.watch(
            "value",
            lambda: {
                "n": float(pair.n.get_value()),
                "v": v.tolist(),
                "v_start": v_arrow.get_start().tolist(),
                "v_end": v_arrow.get_end().tolist(),
                "unit": SCALE,
                "v_on": self.on_screen(v_arrow),
                "k_tip": pair.probe_values()["k_tip"],
            },
        )
        self.play(FadeOut(unit_note), GrowArrow(v_arrow), FadeIn(v_label), run_time=cue.share(0.08))
        self.hold_to(max(self.frame, cue.bookmark("move")))
        self.play_frames(
            pair.make_positions_animation(float(figures.VALUE_SEATS[1][0]), float(n1)),
            frames=max(1, int(0.6 * cue.frames_until("still"))),
        )
        self.hold_to(max(self.frame, cue.bookmark("still")))
        self.play(FadeIn(v_note, shift=0.1 * UP), run_time=cue.share(0.08))
        cue.hold()
        self.probe("value_note", text=v_note.text, on=self.on_screen(v_note), seats=[n0, n1])
        return VGroup(v_arrow, v_label, v_note)

    def construct(self) -> None:
        theta = float(np.radians(figures.THETA_DEG))
        (i0, j0), _ = figures.VALUE_SEATS
        header = self.header()

        # -- placement: the first two methods add a position vector to x ----------------
        old = _chain(*OLD_CHAIN)
        new = _chain(*NEW_CHAIN)
        old_name = theme.body_text("前两种", color=theme.TEXT)
        new_name = theme.body_text("RoPE", color=theme.HIGHLIGHT)
        for chain, name, y in ((old, old_name, 1.25), (new, new_name, -1.2)):
            chain.move_to(np.array([0.8, y, 0.0]))
            name.next_to(chain, LEFT, buff=0.4)
        # what q, k and v are (their first use in this lesson): q·k is the score (÷√d in real models), the
        # weights softmax makes of the scores weigh the v's
        legend = VGroup(
            rich(
                colored("q", theme.Q) + " 查询向量　" + colored("k", theme.K) + " 键向量　v 值向量",
                font_size=theme.SIZE_SMALL,
            ),
            rich(
                colored("分数 = q·k", theme.SCORE) + "（真实模型还要除以 √d），按 softmax 后的权重把 v 加起来",
                font_size=theme.SIZE_SMALL,
            ),
        ).arrange(DOWN, buff=0.14)
        legend.move_to(np.array([0.0, 2.8, 0.0]))
        with self.cue("placement") as cue:
            self.play(FadeIn(header), FadeIn(old_name), FadeIn(old[0][0]), run_time=cue.share(0.12))
            for k in range(1, 4):
                self.play(GrowArrow(old[1][k - 1]), FadeIn(old[0][k]), run_time=cue.share(0.1))
            self.play(FadeIn(legend, shift=0.15 * DOWN), run_time=cue.share(0.12))
            moved = theme.body_text("RoPE：第三步，转 q、k", color=theme.HIGHLIGHT).move_to(np.array([0.8, 0.25, 0.0]))
            self.hold_to(max(self.frame, cue.bookmark("moved")))
            self.play(FadeIn(moved), run_time=cue.remaining())
            self.probe("moved", text=moved.text, on=self.on_screen(moved))

        # -- after_qk: compute q, k as usual, then turn them by seat ---------------------
        v_note = theme.small_text("v 不转", color=theme.TEXT)
        v_note.next_to(new[0][2], DOWN, buff=0.3)
        with self.cue("after_qk") as cue:
            self.play(
                FadeOut(moved),
                old.animate.set_color(theme.MUTED),
                old_name.animate.set_color(theme.MUTED),
                FadeIn(new_name),
                FadeIn(new[0][0]),
                GrowArrow(new[1][0]),
                FadeIn(new[0][1]),
                run_time=cue.share(0.3),
            )
            self.play(
                GrowArrow(new[1][1]),
                FadeIn(new[0][2]),
                GrowArrow(new[1][2]),
                FadeIn(new[0][3]),
                run_time=cue.share(0.3),
            )
            self.play(FadeIn(v_note, shift=0.1 * UP), run_time=cue.remaining())
            self.probe("placement", legend=" ".join(line.typst_code for line in legend), v_note=v_note.text)

        # -- why: a position added to x passes through W_Q, W_K (with the word) before the score; RoPE turns after --
        self._why(old, old_name, new, v_note)

        # -- recall: lesson 1's pair over its rule (q turns mθ, k turns nθ), q on seat 0 and k on seat 3 ------------
        pair = QKPair(q=figures.ROPE_PAIR_Q, k=figures.ROPE_PAIR_K, theta=theta, scale=SCALE, center=CENTER)
        axes = VGroup(
            Line(CENTER + 2.3 * LEFT, CENTER + 2.3 * RIGHT, color=theme.MUTED, stroke_width=2),
            Line(CENTER + 2.1 * DOWN, CENTER + 2.3 * UP, color=theme.MUTED, stroke_width=2),
        )
        rules = (
            VGroup(
                rich(
                    colored("$m$", theme.POSITION)
                    + " 号座位的 "
                    + colored("q", theme.Q)
                    + "：转 "
                    + colored("$m theta$", theme.ANGLE),
                    font_size=theme.SIZE_SMALL,
                ),
                rich(
                    colored("$n$", theme.POSITION)
                    + " 号座位的 "
                    + colored("k", theme.K)
                    + "：转 "
                    + colored("$n theta$", theme.ANGLE),
                    font_size=theme.SIZE_SMALL,
                ),
            )
            .arrange(DOWN, aligned_edge=LEFT, buff=0.2)
            .move_to(np.array([PANEL_X, 2.85, 0.0]), aligned_edge=LEFT)
        )
        recalled = theme.small_text("第一课看过", color=theme.MUTED).move_to(np.array([-0.45, 2.85, 0.0]))
        theta_note = theme.body_text(f"θ = {figures.THETA_DEG:g}°", color=theme.ANGLE, font_size=theme.SIZE_SMALL)
        theta_note.move_to(CENTER + np.array([-1.75, 2.3, 0.0]))
        strip = VGroup(*[Square(SEAT_W, color=theme.MUTED, stroke_width=2) for _ in range(self.N_SEATS)])
        strip.arrange(RIGHT, buff=0.0).move_to(np.array([PANEL_X, STRIP_Y, 0.0]), aligned_edge=LEFT)
        seat_nums = VGroup(*[theme.small_text(str(s), color=theme.POSITION).move_to(sq) for s, sq in enumerate(strip)])
        seat_word = theme.small_text("座位", color=theme.POSITION).next_to(strip, RIGHT, buff=0.2)

        def seat_x(s: float) -> float:
            return float(strip[0].get_x() + s * SEAT_W)

        q_chip = theme.small_text("q", color=theme.Q)
        k_chip = theme.small_text("k", color=theme.K)
        q_chip.add_updater(lambda m: m.move_to(np.array([seat_x(pair.m.get_value()), STRIP_Y + 0.5, 0.0])))
        k_chip.add_updater(lambda m: m.move_to(np.array([seat_x(pair.n.get_value()), STRIP_Y - 0.5, 0.0])))

        def turn_q() -> float:
            return float(np.degrees(pair.m.get_value() * theta))

        def turn_k() -> float:
            return float(np.degrees(pair.n.get_value() * theta))

        def gap() -> float:
            return float(np.degrees(angle_between(pair.turned_q(), pair.turned_k())))

        fs = theme.SIZE_BODY
        q_turn = LabeledNumber(
            "q 转", turn_q(), decimals=0, suffix="°", color=theme.Q, label_color=theme.Q, font_size=fs
        )
        k_turn = LabeledNumber(
            "k 转", turn_k(), decimals=0, suffix="°", color=theme.K, label_color=theme.K, font_size=fs
        )
        gap_num = LabeledNumber(
            "夹角", gap(), decimals=0, suffix="°", color=theme.ANGLE, label_color=theme.ANGLE, font_size=fs
        )
        score = LabeledNumber(
            "分数 cos(夹角) =",
            pair.current_score(),
            decimals=SCORE_PLACES,  # as the figures are written and said: −0.34
            color=theme.SCORE,
            label_color=theme.SCORE,
            font_size=fs,
        )
        readouts = VGroup(q_turn, k_turn, gap_num, score)
        for mob, y in zip(readouts, (1.85, 1.3, 0.75, 0.1)):
            mob.move_to(np.array([PANEL_X, y, 0.0]), aligned_edge=LEFT)
        q_turn.add_updater(lambda m: m.set_value(turn_q()))
        k_turn.add_updater(lambda m: m.set_value(turn_k()))
        gap_num.add_updater(lambda m: m.set_value(gap()))
        score.add_updater(lambda m: m.set_value(pair.current_score()))
        unit_note = theme.small_text("长度之积是 1：点积 = cos(夹角)", color=theme.TEXT)
        unit_note.next_to(score, DOWN, buff=0.3).align_to(score, LEFT)
        self.watch(
            "widget",
            lambda: {
                "i": float(pair.m.get_value()),
                "j": float(pair.n.get_value()),
                "theta": theta,
                "q": list(figures.ROPE_PAIR_Q),
                "k": list(figures.ROPE_PAIR_K),
                "q_tip": pair.probe_values()["q_tip"],
                "k_tip": pair.probe_values()["k_tip"],
                "q_turn": q_turn.get_value(),
                "k_turn": k_turn.get_value(),
                "gap": gap_num.get_value(),
                "score": score.get_value(),
                "gap_shown": gap_num.shown_text(),
                "score_shown": score.shown_text(),
                "gap_on_screen": self.on_screen(gap_num),
                "score_on_screen": self.on_screen(score),
            },
        )
        self.watch(
            "widget_drawn",
            lambda: {
                "q_start": pair.q_arrow.get_start().tolist(),
                "q_end": pair.q_arrow.get_end().tolist(),
                "k_start": pair.k_arrow.get_start().tolist(),
                "k_end": pair.k_arrow.get_end().tolist(),
                "unit": SCALE,
                "arc_center": pair.gap_arc.get_arc_center().tolist(),
                "arc_start": pair.gap_arc.get_start().tolist(),
                "arc_end": pair.gap_arc.get_end().tolist(),
                "arc_on": self.on_screen(pair.gap_arc),
                "q_turn_text": q_turn.shown_text(),
                "k_turn_text": k_turn.shown_text(),
                "gap_text": gap_num.shown_text(),
                "score_text": score.shown_text(),
                "readouts_on": [self.on_screen(m) for m in (q_turn, k_turn, gap_num, score)],
                "q_chip_x": q_chip.get_x(),
                "k_chip_x": k_chip.get_x(),
                "seat0_x": strip[0].get_x(),
                "seat1_x": strip[1].get_x(),
                "chips_on": [self.on_screen(q_chip), self.on_screen(k_chip)],
                "theta_text": theta_note.text,
                "theta_on": self.on_screen(theta_note),
            },
        )
        # -- value: lesson 1's pair recalled in a clause (q on seat 0, k on seat 3); then k's word moves back two
        # seats: k turns, the score changes, the word's v stays --------------------------------------------------
        with self.cue("value") as cue:
            self.play(
                FadeOut(self.why_group),
                FadeOut(old),
                FadeOut(new),
                FadeOut(old_name),
                FadeOut(new_name),
                FadeOut(legend),
                run_time=cue.share(0.05),
            )
            readouts.update()
            # lesson 1's pair on seat 0, k already 20° ahead of q; then k's word takes seat 3 (q stays on 0)
            self.play(
                Create(axes),
                FadeIn(pair),
                FadeIn(rules),
                FadeIn(recalled),
                FadeIn(theta_note),
                FadeIn(strip),
                FadeIn(seat_nums),
                FadeIn(seat_word),
                FadeIn(q_chip),
                FadeIn(k_chip),
                FadeIn(q_turn),
                FadeIn(k_turn),
                run_time=min(cue.share(0.08), 0.8 * cue.until("seats")),
            )
            self.hold_to(max(self.frame, cue.bookmark("seats")))
            self.play(pair.make_positions_animation(float(i0), float(j0)), run_time=cue.share(0.07))
            pair._sync_arc()
            gap_num.update()
            score.update()
            self.play(FadeIn(pair.gap_arc), FadeIn(gap_num), FadeIn(score), FadeIn(unit_note), run_time=cue.share(0.06))
            self.probe("recall", recalled=recalled.text, on=[self.on_screen(recalled)])
            value_notes = self._value(cue, pair, unit_note)
        rules = VGroup(rules, recalled)

        # -- ticks: RoPE against the three requirements, beside the pair -----------------------------------------
        ticks = self._ticks(pair, VGroup(readouts, value_notes, rules, strip, seat_nums, seat_word, q_chip, k_chip))

        # -- longer: the slowest plane reaches, in training, only a small range of angles ------------------
        self._longer(VGroup(pair, pair.gap_arc, axes, theta_note, ticks))  # what ticks left on screen

    def _ticks(self, pair: QKPair, aside: VGroup) -> VGroup:
        """The three requirements, ticked beside the pair (still where the value beat left it: lesson 1 showed the
        slide, not re-run here)."""
        lines = VGroup(
            *[
                MarkedLine("tick", theme.small_text(t, color=theme.TEXT))
                for t in (
                    "第一条：平面快慢搭配，距离不同转角不同",
                    "第二条：旋转不改变长短",
                    "第三条：挪一个座位，总是同一次转动",
                )
            ]
        )
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.3).move_to(np.array([-1.0, 1.2, 0.0]), aligned_edge=LEFT)
        users = VGroup(
            *[
                theme.body_text(t, color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL + 4)
                for t in ("LLaMA 这类大模型", "都用它")
            ]
        ).arrange(DOWN, buff=0.12)
        users.move_to(np.array([2.2, -1.2, 0.0]))
        with self.cue("ticks") as cue:
            self.play(FadeOut(aside), run_time=cue.share(0.08))
            for k, line in enumerate(lines):
                self.play(FadeIn(line, shift=0.15 * RIGHT), run_time=cue.share(0.12))
                if k < len(lines) - 1:
                    self.hold_to(max(self.frame, cue.start_frame + int((0.3, 0.55)[k] * cue.plan.speech_frames)))
            self.play(FadeIn(users), run_time=min(cue.share(0.1), cue.remaining()))
            cue.hold()
            self.probe("ticks", lines=[line.probe_values() for line in lines], users="".join(t.text for t in users))
        return VGroup(lines, users)

    def _longer(self, gone: VGroup) -> None:
        """The slowest plane of one head: training's distances turn it through a small sector; a farther pair
        lands outside it; the formula's 10000 made larger turns it slower, back inside (figures.CONTEXT_*)."""
        seen = figures.context_angle(figures.CONTEXT_TRAIN)
        dial = SeenAngleDial(figures.context_angle, seen=seen, radius=1.8, center=np.array([-4.4, 0.0, 0.0]))
        title = theme.small_text(
            f"q、k 有 {figures.CONTEXT_D} 维时最慢的平面（平面 {figures.CONTEXT_PLANE}）", color=theme.TEXT
        ).move_to(np.array([0.0, 2.95, 0.0]))
        seen_label = theme.small_text("原来训练时的角度", color=theme.ANGLE)
        seen_label.move_to(dial.center_point + 2.45 * np.array([np.cos(seen / 2), np.sin(seen / 2), 0.0]))
        seen_label.shift((seen_label.width / 2 - 0.2) * RIGHT)
        distance = LabeledNumber(
            "距离 n − m =", 0, decimals=0, color=theme.POSITION, label_color=theme.POSITION, group_with_commas=False
        )
        turned = LabeledNumber("转过", 0, decimals=0, suffix="°", color=theme.ANGLE, label_color=theme.ANGLE)
        base = theme.body_text(f"公式里的 {figures.fmt_int(1e4)}", color=theme.TEXT)
        base_new = theme.body_text(
            f"{figures.fmt_int(1e4)} 改成 {figures.fmt_int(figures.CONTEXT_BASE)}", color=theme.HIGHLIGHT
        )
        panel = VGroup(distance, turned, base).arrange(DOWN, aligned_edge=LEFT, buff=0.45)
        panel.move_to(np.array([1.9, 0.7, 0.0]), aligned_edge=LEFT)
        base_new.move_to(base, aligned_edge=LEFT)
        distance.add_updater(lambda m: m.set_value(round(dial.distance.get_value())))
        turned.add_updater(lambda m: m.set_value(np.degrees(dial.angle()) % 360.0))
        unseen = theme.body_text("没见过的角度", color=theme.HIGHLIGHT).move_to(
            np.array([1.9, -1.2, 0.0]), aligned_edge=LEFT
        )
        back = VGroup(
            *[theme.body_text(t, color=theme.HIGHLIGHT) for t in ("平面转得更慢：", "回到见过的范围")]
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        back.move_to(unseen.get_left(), aligned_edge=UP + LEFT).shift(0.25 * UP)
        # a larger base changes every plane's angles but the fastest (ω = 1 for any base), the slow ones most: train on
        retrain = theme.small_text("改完还要接着训练一阵，让模型适应新的转速", color=theme.TEXT)
        retrain.move_to(np.array([0.0, -2.25, 0.0]))  # across the frame, under the dial and the panel
        self.watch(
            "longer",
            lambda: {
                **dial.drawn(),
                "on_screen": self.on_screen(dial.arrow),
                "distance_text": distance.shown_text(),
                "distance_on": self.on_screen(distance),
                "turned_text": turned.shown_text(),
                "turned_on": self.on_screen(turned),
                "base_texts": [base.text, base_new.text],
                "base_on": [self.on_screen(base), self.on_screen(base_new)],
            },
        )
        with self.cue("longer") as cue:
            # the first sentence is short: the set-up takes a share of it, not of the whole cue
            self.play(FadeOut(gone), run_time=min(cue.share(0.08), 0.15 * cue.until("far")))
            distance.update()
            turned.update()
            self.play(FadeIn(title), FadeIn(dial), FadeIn(panel), run_time=min(cue.share(0.1), 0.2 * cue.until("far")))
            self.play_frames(
                dial.distance.animate.set_value(float(figures.CONTEXT_TRAIN)),
                FadeIn(seen_label),
                frames=max(1, int(0.8 * cue.frames_until("far"))),
            )
            self.hold_to(max(self.frame, cue.bookmark("far")))
            self.play_frames(
                dial.distance.animate.set_value(float(figures.CONTEXT_FAR)),
                frames=max(1, int(0.6 * cue.frames_until("base"))),
            )
            self.play_frames(FadeIn(unseen), frames=max(1, int(0.25 * cue.frames_until("base"))))
            self.hold_to(max(self.frame, cue.bookmark("base")))
            self.swap([base], FadeIn(base_new), run_time=cue.share(0.1))
            self.play(
                dial.log_base.animate.set_value(float(np.log10(figures.CONTEXT_BASE))),
                run_time=min(cue.share(0.25), 0.7 * cue.remaining()),
            )
            self.swap([unseen], FadeIn(back), run_time=min(cue.share(0.12), cue.remaining()))
            self.hold_to(max(self.frame, cue.bookmark("train")))
            self.play(FadeIn(retrain), run_time=min(cue.share(0.08), cue.remaining()))
            cue.hold()
            self.probe("retrain", text=retrain.text, seen=seen_label.text, on=self.on_screen(retrain))
