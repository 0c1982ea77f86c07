"""只看相对位置: q turns mθ, k turns nθ; turning both back by mθ shows the score depends only on n − m.

q and k do not start aligned (k leads by ``figures.ROPE_PAIR_K_LEAD_DEG``, which is not θ), so the
angle between them is never (n − m)θ itself: RoPE *adds* (n − m)θ to the directed angle from q to k
(the 夹角 is that angle only while it stays within 0°–180°, as it does for the pairs shown). The
picture keeps the starting arrows as ghosts with their arc, so the change is visible.

The proof is a motion, not a formula: both arrows turn back by mθ together (clockwise, as the words
say). A turn keeps lengths and the angle between them, so the score stays; afterwards q is back on its
ghost and k is left (n − m)θ past its own. Then the order is turned round (k three seats *before* q):
the same distance scores differently, which is how RoPE tells before from after. The chart puts both on
a signed distance axis.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arc,
    Circle,
    Create,
    Dot,
    DoubleArrow,
    FadeIn,
    FadeOut,
    Square,
    VGroup,
)

import mathcore
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import QKPair, ScoreCurve, SpinArrow


def _deg(x: float) -> str:
    return f"{x:g}°"


class RopeInvariance(NarratedScene):
    """turn_q → turn_k → same_gap (both turned back by mθ) → pairs (0,3) (2,5) (10,13) → swap (3,0) →
    right_angle (exact opposites only at 90°; the one-seat pair's two scores) → curve (θ = 30° first, the pairs' points on it, then three more speeds) → takeaway.

    q, k, θ, the pairs and the swapped pair are the very constants the narration quotes
    (``narration/figures.py``); scores come from :func:`mathcore.rope_score`. Watches record each
    label's text beside the raw points of what it describes (tests/course/test_scene_rope_invariance.py
    compares them).
    """

    SCENE_IDS = ("rope_invariance",)
    CUES = ("turn_q", "turn_k", "same_gap", "pairs", "swap", "right_angle", "curve", "takeaway")
    BOOKMARKS = {
        "turn_k": ("gain",),
        "same_gap": ("back", "after"),
        "swap": ("angle", "changed"),
        "right_angle": ("near",),
        "curve": ("first", "pairs", "swap", "others"),
    }
    M, N = 2, 5
    CURVE_D = 8  # the other speeds: planes of a d = 8 RoPE, mathcore.frequencies(8)
    CURVE_PLANES = (0, 1, 2)  # 1, 0.1 and 0.01 radians per position, after the θ = 30° curve
    CURVE_RANGE = 12  # the distance axis runs from −12 to 12: two turns of θ = 30° each way
    MARK_RADII = (0.07, 0.14, 0.21)  # the three pairs' marks: a dot and two rings around it

    def construct(self) -> None:
        self.theta = float(np.radians(figures.THETA_DEG))
        self.header_mob = self.header()
        self.theta_note = theme.small_text(f"θ = {_deg(figures.THETA_DEG)}", color=theme.ANGLE)
        self.theta_note.next_to(self.header_mob, DOWN, buff=0.2, aligned_edge=LEFT)
        self._main()
        self._pairs()
        self._swap()
        self._curve()
        self._takeaway()

    # -- turn_q, turn_k, same_gap: one pair, turned to its seats, then both turned back by mθ ----------
    def _main(self) -> None:
        theta_deg, lead = figures.THETA_DEG, figures.ROPE_PAIR_K_LEAD_DEG
        q, k = figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K
        gain = (self.N - self.M) * theta_deg
        c = np.array([-3.6, 0.3, 0.0])
        main = QKPair(q=q, k=k, theta=self.theta, scale=1.6, center=c, arc_radius=0.85)
        ghosts = VGroup(
            *[
                SpinArrow(
                    v,
                    lambda: 0.0,
                    scale=1.6,
                    center=c,
                    color=col,
                    opacity=0.35,
                    stroke_width=5,
                    tip_ratio=0.18,
                    live=False,
                )
                for v, col in ((q, theme.Q), (k, theme.K))
            ]
        )
        aq, ak = (float(np.arctan2(v[1], v[0])) for v in (q, k))
        start_arc = Arc(radius=0.5, start_angle=aq, angle=ak - aq, arc_center=c, color=theme.ANGLE, stroke_width=5)
        # after the turn back: k's own turn from its ghost, (n − m)θ
        k_turn_arc = Arc(
            radius=1.25,
            start_angle=ak,
            angle=float(np.radians(gain)),
            arc_center=c,
            color=theme.ANGLE,
            stroke_width=4,
        )
        lines = self.info_lines(lead, gain)
        lines[:5].arrange(DOWN, aligned_edge=LEFT, buff=0.32).move_to(np.array([2.6, 0.75, 0.0]))
        for new, old in ((lines[5], lines[1]), (lines[6], lines[2])):  # they take the seats' lines' places
            new.move_to(old, aligned_edge=LEFT)
        main.score.next_to(lines[:5], DOWN, aligned_edge=LEFT, buff=0.4)
        rule = theme.body_text("两支一起转，点积不变", color=theme.HIGHLIGHT)
        rule.move_to(np.array([2.6, 3.1, 0.0]))
        self.watch(
            "main",
            lambda: {
                **main.probe_values(),
                **main.drawn(),
                "ghost_q_end": ghosts[0].arrow.get_end().tolist(),
                "ghost_k_end": ghosts[1].arrow.get_end().tolist(),
                "start_arc": [start_arc.get_start().tolist(), start_arc.get_end().tolist()],
                "start_arc_on_screen": self.on_screen(start_arc),
                "arc_on_screen": self.on_screen(main.gap_arc),
                "k_turn_arc": [k_turn_arc.get_start().tolist(), k_turn_arc.get_end().tolist()],
                "k_turn_arc_on_screen": self.on_screen(k_turn_arc),
                "lines": [m.text for m in lines],
                "lines_on_screen": [self.on_screen(m) for m in lines],
                "score_on_screen": self.on_screen(main.score),
                "rule": rule.text,
                "rule_on_screen": self.on_screen(rule),
            },
        )

        with self.cue("turn_q") as cue:
            self.play(
                FadeIn(self.header_mob),
                FadeIn(main.circle),
                FadeIn(main.q_arrow),
                FadeIn(main.q_label),
                FadeIn(main.k_arrow),
                FadeIn(main.k_label),
                Create(start_arc),
                FadeIn(lines[0]),
                FadeIn(self.theta_note),
                run_time=cue.share(0.45),
            )
            self.add(ghosts, main)
            self.bring_to_front(main)
            self.play(FadeIn(lines[1]), main.m.animate.set_value(self.M), run_time=cue.remaining())

        with self.cue("turn_k") as cue:
            self.play(FadeIn(lines[2]), main.n.animate.set_value(self.N), run_time=cue.until("gain"))
            self.add(main.gap_arc)
            self.play(FadeIn(lines[3]), run_time=cue.share(0.15))
            self.play(Create(main.gap_arc), FadeIn(lines[4]), run_time=cue.remaining())

        with self.cue("same_gap") as cue:
            # the score arrives as it is named ("点积只看…"); the seats' lines leave before the turn back
            self.play_frames(FadeIn(main.score), frames=max(1, min(int(0.6 * self.fps), cue.frames_until("back") - 2)))
            self.play(FadeOut(lines[1]), FadeOut(lines[2]), run_time=cue.hold_until("back", leave=0.5))
            self.play(FadeIn(lines[5]), run_time=cue.share(0.06))
            # both back by mθ together, clockwise, as it is said; the score and the angle between them stay
            turn = min(int(3.0 * self.fps), cue.frames_until("after") - int(1.2 * self.fps))
            self.play_frames(main.make_positions_animation(0, self.N - self.M), frames=max(1, turn))
            self.play(FadeIn(rule), run_time=cue.hold_until("after", leave=0.6))
            self.play(FadeIn(lines[6]), Create(k_turn_arc), run_time=cue.share(0.12))
            cue.hold()
            self.probe("turned_back", **main.probe_values(), score_text=main.score.shown_text())

        # what leaves when the pairs come
        self.main_group = VGroup(main, main.gap_arc, main.score, lines[0], *lines[3:], ghosts, start_arc)
        self.main_group.add(k_turn_arc, rule)

    def info_lines(self, lead: float, gain: float) -> VGroup:
        """What the labels beside the main pair say (a test puts the old wrong label back through here):
        0 the start, 1–2 the seats' turns, 3 k's extra turn, 4 the angle now, 5 the turn back, 6 after it."""
        theta_deg = figures.THETA_DEG
        back = self.M * theta_deg
        return VGroup(
            theme.body_text(f"开始：k 相对 q 转过 {_deg(lead)}", color=theme.ANGLE),
            theme.body_text(f"q 在位置 m = {self.M}：转 mθ = {_deg(self.M * theta_deg)}", color=theme.Q),
            theme.body_text(f"k 在位置 n = {self.N}：转 nθ = {_deg(self.N * theta_deg)}", color=theme.K),
            theme.body_text(f"k 多转了 (n − m)θ = {_deg(gain)}", color=theme.ANGLE),
            theme.body_text(
                f"现在：k 相对 q 转过 {_deg(lead)} + {_deg(gain)} = {_deg(lead + gain)}", color=theme.ANGLE
            ),
            theme.body_text(f"两支一起顺时针转回 mθ = {_deg(back)}", color=theme.TEXT),
            theme.body_text(f"转完：q 回到起点，k 离起点 {_deg(gain)}", color=theme.TEXT),
        )

    # -- pairs: three pairs three seats apart -----------------------------------------------------------
    def _pair(self, m: int, n: int, x: float) -> QKPair:
        pc = np.array([x, 0.4, 0.0])
        q, k = figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K
        pair = QKPair(q=q, k=k, theta=self.theta, scale=1.0, center=pc, font_size=theme.SIZE_SMALL)
        pair.title = theme.body_text(f"m = {m}，n = {n}", color=theme.POSITION).move_to(pc + 2.1 * UP)
        pair.score.move_to(pc + 1.6 * DOWN)
        pair.target = (m, n)
        return pair

    def _watch_pair(self, name: str, pair: QKPair) -> None:
        self.watch(
            name,
            lambda: {
                **pair.probe_values(),
                **pair.drawn(),
                "title": pair.title.text,
                "score_on_screen": self.on_screen(pair.score),
            },
        )

    def _pairs(self) -> None:
        self.pairs = VGroup(*[self._pair(m, n, -4.4 + 4.4 * j) for j, (m, n) in enumerate(figures.ROPE_PAIRS)])
        for j, pair in enumerate(self.pairs):
            self._watch_pair(f"pair{j}", pair)
        gap = self.pairs[0].target[1] - self.pairs[0].target[0]
        self.same = theme.body_text(
            f"都相距 {gap} 个位置：夹角都是 {figures.value('rope_pair_gap_deg')}°，"
            f"点积都是 {figures.value('rope_pair_score')}",
            color=theme.SCORE,
        )
        self.same.move_to(np.array([0.0, -2.0, 0.0]))
        self.watch("same", lambda: {"text": self.same.text, "on_screen": self.on_screen(self.same)})

        with self.cue("pairs") as cue:
            self.play(FadeOut(self.main_group), run_time=cue.share(0.15))
            self._play_pairs(cue)

    def _play_pairs(self, cue) -> None:
        pairs = self.pairs
        self.play(
            *[FadeIn(p) for p in pairs],
            *[FadeIn(p.title) for p in pairs],
            *[FadeIn(p.score) for p in pairs],
            run_time=cue.share(0.2),
        )
        self.add(*[p.gap_arc for p in pairs])
        self.play(*[p.make_positions_animation(*p.target) for p in pairs], run_time=cue.share(0.35))
        self.play(FadeIn(self.same), run_time=cue.share(0.15))
        cue.hold()

    # -- swap: the first pair with its order turned round -------------------------------------------------
    def _swap(self) -> None:
        first, swapped = self.pairs[0], self._pair(*figures.ROPE_SWAP, 4.4)
        self.swapped = swapped
        self._watch_pair("swapped", swapped)
        turn = VGroup(DoubleArrow(np.array([-2.4, 0.4, 0.0]), np.array([2.4, 0.4, 0.0]), color=theme.MUTED, buff=0))
        turn.add(theme.small_text("先后对调", color=theme.TEXT).next_to(turn[0], UP, buff=0.2))
        # under the arrow's two ends: which pair is which
        sides = VGroup(
            theme.small_text("k 在 q 后面", color=theme.TEXT).next_to(turn[0], DOWN, buff=0.2, aligned_edge=LEFT),
            theme.small_text("k 在 q 前面", color=theme.TEXT).next_to(turn[0], DOWN, buff=0.2, aligned_edge=RIGHT),
        )
        (m0, n0), (m1, n1) = first.target, swapped.target
        before = mathcore.rope_score(first.q, first.k, m0, n0, self.theta)
        after = mathcore.rope_score(swapped.q, swapped.k, m1, n1, self.theta)
        compare = theme.body_text(
            f"先后一换：夹角 {figures.value('rope_pair_gap_deg')}° → {figures.value('rope_swap_gap_deg')}°，"
            f"点积 {figures.fmt_dec(before)} → {'+' if after > 0 else ''}{figures.fmt_dec(after)}",
            color=theme.SCORE,
        )
        compare.move_to(np.array([0.0, -2.0, 0.0]))
        self.watch(
            "swap",
            lambda: {
                "sides": [t.text for t in sides],
                "side_x": [float(t.get_x()) for t in sides],
                "sides_on_screen": [self.on_screen(t) for t in sides],
                "compare": compare.text,
                "compare_on_screen": self.on_screen(compare),
            },
        )
        others = [p for p in self.pairs[1:]]
        with self.cue("swap") as cue:
            # shares of the time up to the bookmark "angle", not of the cue: the cue goes on long after it
            # (the one-seat pair, M2 of review 9)
            lead = cue.until("angle")
            self.play(
                *[FadeOut(VGroup(p, p.title, p.score, p.gap_arc)) for p in others],
                FadeOut(self.same),
                run_time=0.3 * lead,
            )
            self.play(FadeIn(sides[0]), FadeIn(turn), FadeIn(swapped), FadeIn(swapped.title), run_time=0.25 * lead)
            self.add(swapped.gap_arc)
            # the swapped pair reaches its seats as its angle is named
            self.play(swapped.make_positions_animation(*swapped.target), FadeIn(sides[1]), run_time=cue.until("angle"))
            self.play(FadeIn(swapped.score), run_time=cue.share(0.06))
            self.hold_to(cue.bookmark("changed"))
            self.play(FadeIn(compare), run_time=cue.share(0.08))
            cue.hold()
        # P2 (review 10), M3 (review 12): what is special to 3 seats = 90° is that the two scores are exact
        # opposites (opposite signs alone come with any extra turn between 70° and 110°); one seat apart both
        # orders score positive. Both of those scores stay on screen; the voice says neither (P2, review 12).
        turn_deg = figures.value("rope_pair_turn_deg")
        special = VGroup(
            theme.small_text("两个点积恰好是相反数，", color=theme.TEXT),
            theme.small_text(f"只因相距 3 正好多转 {turn_deg}°", color=theme.TEXT),
        ).arrange(DOWN, buff=0.1)
        near = figures.rope_near_scores()
        near_line = VGroup(
            theme.small_text(f"相距 1：k 在后 {figures.fmt_dec(near[0])}，", color=theme.SCORE),
            theme.small_text(f"k 在前 {figures.fmt_dec(near[1])}，都是正的", color=theme.SCORE),
        ).arrange(DOWN, buff=0.1)
        # they take the place of the arrow "先后对调" between the two pairs (the subtitles own the bottom)
        VGroup(special, near_line).arrange(DOWN, buff=0.35).move_to(np.array([0.0, 0.45, 0.0]))
        self.watch(
            "right_angle",
            lambda: {
                "special": "".join(t.text for t in special),
                "special_on_screen": self.on_screen(special),
                "near": "".join(t.text for t in near_line),
                "near_on_screen": self.on_screen(near_line),
            },
        )
        with self.cue("right_angle") as cue:
            self.swap([turn, sides], FadeIn(special), run_time=cue.share(0.12))
            self.hold_to(cue.bookmark("near"))
            self.play(FadeIn(near_line), run_time=cue.share(0.1))
            cue.hold()
        self.swap_group = VGroup(first, first.title, first.score, first.gap_arc, swapped, swapped.title)
        self.swap_group.add(swapped.score, swapped.gap_arc, compare, special, near_line)  # turn, sides went

    # -- curve: the score against the signed distance n − m -------------------------------------------------
    def _curve(self) -> None:
        chart, marks, keys, sides = self._chart()
        radian = theme.small_text(f"1 弧度 ≈ {figures.value('one_rad_deg')}°", color=theme.ANGLE)
        radian.next_to(keys, DOWN, buff=0.3, aligned_edge=LEFT)
        self.probe(
            "curve",
            distances=chart.distances.tolist(),
            speeds=[self.theta] + [float(w) for w in mathcore.frequencies(self.CURVE_D)[list(self.CURVE_PLANES)]],
            drawn=[chart.drawn_samples(i).tolist() for i in range(len(chart.curves))],
            legend=[entry[1].text for entry in chart.legend],
            heading=chart.legend_heading.text,
            colors=[c.get_stroke_color().to_hex() for c in chart.curves],
            swatches=[entry[0].get_stroke_color().to_hex() for entry in chart.legend],
        )
        self.watch(
            "marks",
            lambda: {
                "centers": [[float(v) for v in chart.axes.p2c(m.get_center())] for m in marks],
                "keys": [k[1].text for k in keys],
                "on_screen": [self.on_screen(m) for m in marks],
                "keys_on_screen": [self.on_screen(k) for k in keys],
                "sides": [t.text for t in sides],
                "side_x": [float(chart.axes.p2c(t.get_center())[0]) for t in sides],
                "sides_on_screen": [self.on_screen(t) for t in sides],
            },
        )
        with self.cue("curve") as cue:
            self.play(FadeOut(self.swap_group), FadeOut(self.theta_note), run_time=cue.share(0.08))
            frame = VGroup(chart.axes, chart.ticks, chart.x_label, chart.y_label)
            self.play(FadeIn(frame), FadeIn(sides), run_time=cue.share(0.12))
            self.remove(frame)
            self.add(chart)
            self.remove(*chart.curves)
            self.hold_to(cue.bookmark("first"))
            self.play(
                chart.make_draw_animation(0),
                FadeIn(chart.legend_heading),
                FadeIn(chart.legend[0]),
                run_time=cue.until("pairs"),
            )
            self.play(FadeIn(marks[:3]), FadeIn(keys[0]), run_time=cue.share(0.08))
            self.hold_to(cue.bookmark("swap"))
            self.play(FadeIn(marks[3]), FadeIn(keys[1]), run_time=cue.share(0.08))
            self.hold_to(cue.bookmark("others"))
            # the other speeds share what is left of the speech, a frame of it kept for the radian note
            per = max(1, (cue.frames_remaining() - 1) // (len(chart.curves) - 1))
            for i in range(1, len(chart.curves)):
                self.play_frames(chart.make_draw_animation(i), FadeIn(chart.legend[i]), frames=per)
            self.play_frames(FadeIn(radian), frames=max(1, cue.frames_remaining()))
        self.chart, self.radian = chart, radian

    def _chart(self):
        """The chart (θ = 30° first, then the d = 8 planes' speeds), the marks of the pairs and of the
        swapped pair, their keys, and the two sides of the distance axis."""
        q, k = figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K
        w = mathcore.frequencies(self.CURVE_D)
        r = self.CURVE_RANGE
        dist = np.linspace(-r, r, 20 * r + 1)
        curves = [np.array([mathcore.rope_score(q, k, 0.0, d, self.theta) for d in dist])]
        names = [f"{_deg(figures.THETA_DEG)}（{figures.fmt_dec(self.theta)} 弧度）"]
        for i in self.CURVE_PLANES:
            qf, kf = np.zeros(self.CURVE_D), np.zeros(self.CURVE_D)
            qf[2 * i : 2 * i + 2], kf[2 * i : 2 * i + 2] = q, k
            curves.append(mathcore.rope_scores(qf, kf, dist))
            names.append(f"{w[i]:g} 弧度")
        chart = ScoreCurve(
            dist,
            curves,
            names=names,
            x_range=(-r, r, 3),
            y_range=(-1, 1, 0.5),
            y_label="点积",
            x_length=7.0,
            y_length=3.2,
            center=np.array([-1.6, 0.35, 0.0]),
            colors=theme.SPEEDS_4,
        )
        chart.curves[0].set_stroke(width=6)  # the θ = 30° curve, the pairs' own, stays the one to look at
        for curve in chart.curves[1:]:
            curve.set_stroke(width=3)
        chart.y_ticks.shift(0.1 * LEFT)  # clear of the first distance label (−12) under them
        chart.x_ticks.shift(0.1 * DOWN)  # the lowest score label (−1) and the first distance (−12) apart
        chart.x_label.next_to(chart.x_ticks, DOWN, buff=0.15)
        chart.legend_heading = theme.small_text("每个位置转", color=theme.TEXT)
        chart.legend_heading.next_to(chart.axes, RIGHT, buff=0.4).align_to(chart.y_label, UP)
        chart.legend.next_to(chart.legend_heading, DOWN, buff=0.2, aligned_edge=LEFT)
        sides = VGroup(
            theme.small_text("k 在前", color=theme.TEXT).move_to(chart.axes.c2p(-3 * r / 4, 1) + 0.45 * UP),
            theme.small_text("k 在后", color=theme.TEXT).move_to(chart.axes.c2p(3 * r / 4, 1) + 0.45 * UP),
        )
        marks = VGroup()
        for (m, n), radius in zip(figures.ROPE_PAIRS, self.MARK_RADII):
            p = chart.axes.c2p(n - m, mathcore.rope_score(q, k, m, n, self.theta))
            mark = Dot(p, radius=radius, color=theme.POSITION) if radius == self.MARK_RADII[0] else None
            marks.add(mark or Circle(radius=radius, color=theme.POSITION, stroke_width=3).move_to(p))
        m, n = figures.ROPE_SWAP
        diamond = Square(0.22, color=theme.POSITION, stroke_width=3).rotate(np.pi / 4)
        marks.add(diamond.move_to(chart.axes.c2p(n - m, mathcore.rope_score(q, k, m, n, self.theta))))
        starts = "、".join(str(m) for m, _ in figures.ROPE_PAIRS)
        gap = figures.ROPE_PAIRS[0][1] - figures.ROPE_PAIRS[0][0]
        three = VGroup(*[Circle(radius=r_, color=theme.POSITION, stroke_width=3) for r_ in self.MARK_RADII[1:]])
        three.add(Dot(radius=self.MARK_RADII[0], color=theme.POSITION))
        keys = VGroup(
            VGroup(three, theme.small_text(f"q 在 {starts}，k 在后 {gap} 个", color=theme.TEXT)),
            VGroup(diamond.copy(), theme.small_text(f"对调：q 在 {m}，k 在 {n}", color=theme.TEXT)),
        )
        for key in keys:
            key[1].next_to(key[0], RIGHT, buff=0.2)
        keys.arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        keys.next_to(chart.legend, DOWN, buff=0.4, aligned_edge=LEFT)
        return chart, marks, keys, sides

    # -- takeaway ----------------------------------------------------------------------------------------
    def _takeaway(self) -> None:
        chart = self.chart
        with self.cue("takeaway") as cue:
            line = theme.body_text("同一对 q、k：点积只随 n − m 变，与起点无关", color=theme.HIGHLIGHT)
            line.move_to(np.array([0.0, 2.95, 0.0]))
            self.play(FadeIn(line), FadeOut(self.radian), run_time=cue.share(0.3))
            self.play(Create(chart.curves[0].copy().set_stroke(width=8, opacity=0.5)), run_time=cue.remaining())
            self.probe("takeaway", line=line.text)
