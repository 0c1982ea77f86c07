"""只看相对距离: q turns mθ, k turns nθ, so k gains (n − m)θ on q and the score depends only on n − m.

q and k do not start aligned (k leads by ``figures.ROPE_PAIR_K_LEAD_DEG``, which is not θ), so the
angle between them is never (n − m)θ itself: RoPE *adds* (n − m)θ to the directed angle from q to k
(the 夹角 is that angle only while it stays within 0°–180°, as it does for the pairs shown). The
picture keeps the starting arrows as ghosts with their arc, so the change is visible, and writes the
identity behind it, R(mθ)ᵀR(nθ) = R((n − m)θ), where the narration says why.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Arc, Circle, Create, Dot, FadeIn, FadeOut, VGroup

import mathcore
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import QKPair, ScoreCurve, SpinArrow


def _deg(x: float) -> str:
    return f"{x:g}°"


class RopeInvariance(NarratedScene):
    """turn_q → turn_k → same_gap → pairs (0,3) (2,5) (10,13) → curve → takeaway.

    q, k, θ and the pairs are the very constants the narration quotes (``narration/figures.py``);
    scores come from :func:`mathcore.rope_score`. Watches record each label's text beside the raw
    points of what it describes (tests/course/test_scene_rope_invariance.py compares them).
    """

    SCENE_IDS = ("rope_invariance",)
    CUES = ("turn_q", "turn_k", "same_gap", "pairs", "curve", "takeaway")
    BOOKMARKS = {"same_gap": ("identity",)}
    #: why only n − m counts: turning back by mθ (the transpose), then on by nθ
    IDENTITY = "R(m theta)^T R(n theta) = R(-m theta) R(n theta) = R((n-m) theta)"
    SEAT_WORD = {"rope_invariance": "位置", "rope_gap_only": "座位"}  # as each lesson calls a seat ...
    SCORE_WORD = {"rope_invariance": "点积", "rope_gap_only": "分数"}  # ... and the score
    M, N = 2, 5
    CURVE_D = 8  # planes of a d = 8 RoPE, speeds mathcore.frequencies(8)
    CURVE_PLANES = (0, 1, 2)
    CURVE_MAX = 24
    STARTS = (0, 2, 10)  # the same distances from these starts land on the same points
    DISTANCES = (3.0, 10.0, 17.0)

    def construct(self) -> None:
        theta_deg, lead = figures.THETA_DEG, figures.ROPE_PAIR_K_LEAD_DEG
        theta = float(np.radians(theta_deg))
        q, k = figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K
        seat = self.SEAT_WORD.get(self.plan.id, "位置")
        score_word = self.SCORE_WORD.get(self.plan.id, "分数")
        gain = (self.N - self.M) * theta_deg
        header = self.header()
        c = np.array([-3.6, 0.3, 0.0])
        main = QKPair(q=q, k=k, theta=theta, scale=1.6, center=c, arc_radius=0.85)
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
        lines = self.info_lines(seat, lead, gain)
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.32).move_to(np.array([2.6, 0.75, 0.0]))
        main.score.next_to(lines, DOWN, aligned_edge=LEFT, buff=0.4)
        theta_note = theme.small_text(f"θ = {_deg(theta_deg)}", color=theme.ANGLE)
        theta_note.next_to(header, DOWN, buff=0.2, aligned_edge=LEFT)
        identity = theme.formula(self.IDENTITY, color=theme.ANGLE, font_size=40).move_to(np.array([2.3, 3.2, 0.0]))
        self.watch("identity", lambda: {"on_screen": self.on_screen(identity)})
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
                "lines": [m.text for m in lines],
                "lines_on_screen": [self.on_screen(m) for m in lines],
                "score_on_screen": self.on_screen(main.score),
            },
        )

        with self.cue("turn_q") as cue:
            self.play(
                FadeIn(header),
                FadeIn(main.circle),
                FadeIn(main.q_arrow),
                FadeIn(main.q_label),
                FadeIn(main.k_arrow),
                FadeIn(main.k_label),
                Create(start_arc),
                FadeIn(lines[0]),
                FadeIn(theta_note),
                run_time=cue.share(0.45),
            )
            self.add(ghosts, main)
            self.bring_to_front(main)
            self.play(FadeIn(lines[1]), main.m.animate.set_value(self.M), run_time=cue.remaining())

        with self.cue("turn_k") as cue:
            self.play(FadeIn(lines[2]), main.n.animate.set_value(self.N), run_time=cue.remaining())

        with self.cue("same_gap") as cue:
            self.add(main.gap_arc)
            before = cue.frames_until("identity")
            self.play_frames(FadeIn(lines[3]), frames=max(1, before // 2))
            self.play(Create(main.gap_arc), FadeIn(lines[4]), run_time=cue.until("identity"))
            self.play(FadeIn(identity, shift=0.2 * DOWN), run_time=cue.share(0.15))
            # the score arrives as it is named ("点积/分数只由这个角决定")
            said = cue.plan.text.rfind(score_word) / max(1, len(cue.plan.text))
            self.hold_frames(
                max(
                    0, min(cue.start_frame + int(said * cue.plan.speech_frames), cue.speech_end_frame - 30) - self.frame
                )
            )
            self.play_frames(FadeIn(main.score), frames=max(1, min(int(0.6 * self.fps), cue.frames_remaining())))
            cue.hold()

        pairs = VGroup()
        for j, (m, n) in enumerate(figures.ROPE_PAIRS):
            pc = np.array([-4.4 + 4.4 * j, 0.4, 0.0])
            pair = QKPair(q=q, k=k, theta=theta, scale=1.0, center=pc, font_size=theme.SIZE_SMALL)
            pair.title = theme.body_text(f"m = {m}，n = {n}", color=theme.POSITION).move_to(pc + 2.1 * UP)
            pair.score.move_to(pc + 1.6 * DOWN)
            pair.target = (m, n)
            pairs.add(pair)
            self.watch(
                f"pair{j}",
                lambda pair=pair: {
                    **pair.probe_values(),
                    **pair.drawn(),
                    "title": pair.title.text,
                    "score_on_screen": self.on_screen(pair.score),
                },
            )
        same = theme.body_text(
            f"都隔 {self.N - self.M} 个{seat}：夹角都是 {figures.value('rope_pair_gap_deg')}°，"
            f"{score_word}都是 {figures.value('rope_pair_score')}",
            color=theme.SCORE,
        )
        same.move_to(np.array([0.0, -2.0, 0.0]))
        self.watch("same", lambda: {"text": same.text, "on_screen": self.on_screen(same)})
        with self.cue("pairs") as cue:
            self.play(
                FadeOut(main),
                FadeOut(main.gap_arc),
                FadeOut(main.score),
                FadeOut(lines),
                FadeOut(ghosts),
                FadeOut(start_arc),
                FadeOut(identity),
                run_time=cue.share(0.15),
            )
            self.play(
                *[FadeIn(p) for p in pairs],
                *[FadeIn(p.title) for p in pairs],
                *[FadeIn(p.score) for p in pairs],
                run_time=cue.share(0.2),
            )
            self.add(*[p.gap_arc for p in pairs])
            self.play(*[p.make_positions_animation(*p.target) for p in pairs], run_time=cue.share(0.35))
            self.play(FadeIn(same), run_time=cue.share(0.15))
            cue.hold()

        chart, rings, ring_key = self._chart(q, k, score_word, seat)
        radian = theme.small_text(f"1 弧度 ≈ {figures.value('one_rad_deg')}°", color=theme.ANGLE)
        radian.next_to(chart.y_label, RIGHT, buff=0.6)
        with self.cue("curve") as cue:
            self.play(
                FadeOut(pairs),
                FadeOut(same),
                *[FadeOut(p.title) for p in pairs],
                *[FadeOut(p.score) for p in pairs],
                *[FadeOut(p.gap_arc) for p in pairs],
                FadeOut(theta_note),
                run_time=cue.share(0.1),
            )
            # the empty chart first; each curve is then drawn on its own
            frame = VGroup(chart.axes, chart.ticks, chart.x_label, chart.y_label)
            self.play(FadeIn(frame), FadeIn(chart.legend), FadeIn(radian), run_time=cue.share(0.1))
            self.remove(frame)
            self.add(chart)
            self.remove(*chart.curves)
            for i in range(len(chart.curves)):
                self.play(chart.make_draw_animation(i), run_time=cue.share(0.12))
            # one start at a time: each lands on the rings already there
            for ring_set, key in zip(rings, ring_key):
                self.play(FadeIn(ring_set), FadeIn(key), run_time=cue.share(0.08))
            self.probe(
                "curve",
                distances=chart.distances.tolist(),
                planes=list(self.CURVE_PLANES),
                drawn=[chart.drawn_samples(i).tolist() for i in range(len(chart.curves))],
                rings=[[r.get_center().tolist() for r in ring_set] for ring_set in rings],
            )
            cue.hold()

        with self.cue("takeaway") as cue:
            line = theme.body_text(f"同一对 q、k：{score_word}只随 n − m 变，与起点无关", color=theme.HIGHLIGHT)
            line.move_to(np.array([0.0, 3.1, 0.0]))
            caveat = theme.small_text("超出训练时的长度，效果仍会打折扣", color=theme.TEXT)
            caveat.next_to(line, DOWN, buff=0.15)
            self.play(FadeIn(line), FadeOut(radian), run_time=cue.share(0.3))
            self.play(Create(chart.curves[0].copy().set_stroke(width=8, opacity=0.5)), run_time=cue.share(0.3))
            self.hold_frames(max(0, cue.start_frame + int(0.6 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(caveat), run_time=cue.remaining())
            self.probe("takeaway", line=line.text, caveat=caveat.text)

    def info_lines(self, seat: str, lead: float, gain: float) -> VGroup:
        """What the labels beside the main pair say (a test puts the old wrong label back through here)."""
        theta_deg = figures.THETA_DEG
        return VGroup(
            theme.body_text(f"开始：k 相对 q 转过 {_deg(lead)}", color=theme.ANGLE),
            theme.body_text(f"q 在{seat} m = {self.M}：转 mθ = {_deg(self.M * theta_deg)}", color=theme.Q),
            theme.body_text(f"k 在{seat} n = {self.N}：转 nθ = {_deg(self.N * theta_deg)}", color=theme.K),
            theme.body_text(f"k 多转了 (n − m)θ = {_deg(gain)}", color=theme.ANGLE),
            theme.body_text(
                f"现在：k 相对 q 转过 {_deg(lead)} + {_deg(gain)} = {_deg(lead + gain)}", color=theme.ANGLE
            ),
        )

    def _chart(self, q, k, score_word: str, seat: str):
        """The score-against-distance chart, and rings where the same distances from other starts land."""
        w = mathcore.frequencies(self.CURVE_D)
        dist = np.linspace(0, self.CURVE_MAX, 241)
        curves, names = [], []
        for i in self.CURVE_PLANES:
            qf, kf = np.zeros(self.CURVE_D), np.zeros(self.CURVE_D)
            qf[2 * i : 2 * i + 2], kf[2 * i : 2 * i + 2] = q, k
            curves.append(mathcore.rope_scores(qf, kf, dist))
            names.append(f"每个{seat}转 {w[i]:g} 弧度")
        chart = ScoreCurve(
            dist,
            curves,
            names=names,
            x_range=(0, self.CURVE_MAX, 4),
            y_range=(-1, 1, 0.5),
            y_label=score_word,
            x_length=7.0,
            y_length=3.4,
            center=np.array([-1.6, 0.1, 0.0]),
        )
        self.curve_chart = chart
        qf, kf = np.zeros(self.CURVE_D), np.zeros(self.CURVE_D)
        qf[0:2], kf[0:2] = q, k
        rings, keys = [], []
        for j, m0 in enumerate(self.STARTS):
            radius = 0.07 + 0.07 * j
            ring_set = VGroup()
            for dd in self.DISTANCES:
                s = float(mathcore.rope_scores(qf, kf, [dd], m=m0)[0])
                p = chart.axes.c2p(dd, s)
                mark = (
                    Dot(p, radius=radius, color=theme.POSITION)
                    if j == 0
                    else Circle(radius=radius, color=theme.POSITION, stroke_width=3).move_to(p)
                )
                ring_set.add(mark)
            rings.append(ring_set)
            sample = (
                Dot(radius=radius, color=theme.POSITION)
                if j == 0
                else Circle(radius=radius, color=theme.POSITION, stroke_width=3)
            )
            keys.append(
                VGroup(sample, theme.small_text(f"起点 m = {m0}", color=theme.TEXT).next_to(sample, RIGHT, buff=0.2))
            )
        key = VGroup(*keys).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        key.next_to(chart.legend, DOWN, aligned_edge=LEFT, buff=0.45)
        return chart, rings, keys
