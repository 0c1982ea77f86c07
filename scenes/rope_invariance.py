"""只看相对距离: q turns mθ, k turns nθ, and the score depends only on n − m."""
from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, UP, Create, Dot, FadeIn, FadeOut, VGroup

import mathcore
from coursekit import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import QKPair, ScoreCurve


class RopeInvariance(NarratedScene):
    """turn_q → turn_k → same_gap → pairs (0,3) (2,5) (10,13) → curve → takeaway.

    q, k, θ and the pairs are the very constants the narration quotes
    (``coursekit.figures``); scores come from :func:`mathcore.rope_score`.
    """

    SCENE_IDS = ("rope_invariance",)
    CUES = ("turn_q", "turn_k", "same_gap", "pairs", "curve", "takeaway")
    M, N = 2, 5
    CURVE_D = 8                 # planes of a d = 8 RoPE, speeds mathcore.frequencies(8)
    CURVE_PLANES = (0, 1, 2)
    CURVE_MAX = 24

    def construct(self) -> None:
        theta = float(np.radians(figures.THETA_DEG))
        q, k = figures.ROPE_PAIR_Q, figures.ROPE_PAIR_K
        header = self.header()
        main = QKPair(q=q, k=k, theta=theta, scale=1.7, center=np.array([-3.3, 0.4, 0.0]))
        self.watch("main", lambda: {**main.probe_values(), "score_on_screen": self.on_screen(main.score)})
        info = VGroup(theme.body_text(f"q 在位置 m = {self.M}：转 mθ", color=theme.Q),
                      theme.body_text(f"k 在位置 n = {self.N}：转 nθ", color=theme.K),
                      theme.body_text(f"夹角 = (n − m)θ = {(self.N - self.M) * figures.THETA_DEG:g}°", color=theme.ANGLE))
        info.arrange(DOWN, aligned_edge=LEFT, buff=0.35).move_to(np.array([2.6, 1.6, 0.0]))
        theta_note = theme.small_text(f"θ = {figures.THETA_DEG:g}°", color=theme.ANGLE).move_to(np.array([-5.8, 2.8, 0.0]))

        with self.cue("turn_q") as cue:
            self.play(FadeIn(header), FadeIn(main.circle), FadeIn(main.q_arrow), FadeIn(main.q_label),
                      FadeIn(theta_note), run_time=cue.share(0.25))
            self.add(main)
            main.k_arrow.set_opacity(0)
            main.k_label.set_opacity(0)
            self.play(FadeIn(info[0]), main.m.animate.set_value(self.M), run_time=cue.remaining())

        with self.cue("turn_k") as cue:
            self.play(main.k_arrow.animate.set_opacity(1), main.k_label.animate.set_opacity(1), FadeIn(info[1]),
                      run_time=cue.share(0.25))
            self.play(main.n.animate.set_value(self.N), run_time=cue.remaining())

        with self.cue("same_gap") as cue:
            main.score.move_to(np.array([2.6, -0.4, 0.0]))
            self.add(main.gap_arc)
            self.play(Create(main.gap_arc), FadeIn(info[2]), run_time=cue.share(0.4))
            self.play(FadeIn(main.score), run_time=cue.remaining())

        pairs = VGroup()
        for j, (m, n) in enumerate(figures.ROPE_PAIRS):
            c = np.array([-4.3 + 4.3 * j, 0.5, 0.0])
            pair = QKPair(q=q, k=k, theta=theta, scale=1.0, center=c, font_size=theme.SIZE_SMALL)
            pair.title = theme.body_text(f"({m}, {n})", color=theme.POSITION).move_to(c + 1.75 * UP)
            pair.score.move_to(c + 1.6 * DOWN)
            pair.target = (m, n)
            pairs.add(pair)
            self.watch(f"pair{j}", lambda pair=pair: {**pair.probe_values(),
                                                      "score_on_screen": self.on_screen(pair.score)})
        with self.cue("pairs") as cue:
            self.play(FadeOut(main), FadeOut(main.gap_arc), FadeOut(main.score), FadeOut(info), run_time=cue.share(0.15))
            self.play(*[FadeIn(p) for p in pairs], *[FadeIn(p.title) for p in pairs],
                      *[FadeIn(p.score) for p in pairs], run_time=cue.share(0.2))
            self.add(*[p.gap_arc for p in pairs])
            self.play(*[p.make_positions_animation(*p.target) for p in pairs], run_time=cue.share(0.4))
            same = theme.body_text("距离都是 3，分数都一样", color=theme.SCORE).move_to(np.array([0.0, -1.95, 0.0]))
            self.play(FadeIn(same), run_time=cue.remaining())

        w = mathcore.frequencies(self.CURVE_D)
        dist = np.linspace(0, self.CURVE_MAX, 241)
        curves, names = [], []
        for i in self.CURVE_PLANES:
            qf, kf = np.zeros(self.CURVE_D), np.zeros(self.CURVE_D)
            qf[2 * i:2 * i + 2], kf[2 * i:2 * i + 2] = q, k
            curves.append(mathcore.rope_scores(qf, kf, dist))
            names.append(f"转速 {w[i]:g}")
        chart = ScoreCurve(dist, curves, names=names, x_range=(0, self.CURVE_MAX, 4), y_range=(-1, 1, 0.5),
                           x_length=8.0, y_length=3.4, center=np.array([-0.9, 0.35, 0.0]))
        self.curve_chart = chart
        with self.cue("curve") as cue:
            self.play(FadeOut(pairs), FadeOut(same), *[FadeOut(p.title) for p in pairs],
                      *[FadeOut(p.score) for p in pairs], *[FadeOut(p.gap_arc) for p in pairs],
                      FadeOut(theta_note), run_time=cue.share(0.1))
            # the empty chart first; each curve is then drawn on its own
            frame = VGroup(chart.axes, chart.ticks, chart.x_label, chart.y_label)
            self.play(FadeIn(frame), FadeIn(chart.legend), run_time=cue.share(0.1))
            self.remove(frame)
            self.add(chart)
            self.remove(*chart.curves)
            for i in range(len(curves)):
                self.play(chart.make_draw_animation(i), run_time=cue.share(0.15))
            # the same distance from other starts lands on the same curve
            starts = (0, 2, 10)
            dots = VGroup()
            for m0 in starts:
                qf, kf = np.zeros(self.CURVE_D), np.zeros(self.CURVE_D)
                qf[0:2], kf[0:2] = q, k
                for dd in (3.0, 10.0, 17.0):
                    s = float(mathcore.rope_scores(qf, kf, [dd], m=m0)[0])
                    dots.add(Dot(chart.axes.c2p(dd, s), radius=0.07, color=theme.SCORE))
            self.probe("curve", distances=dist.tolist(), planes=list(self.CURVE_PLANES),
                       drawn=[chart.drawn_samples(i).tolist() for i in range(len(curves))])
            self.play(FadeIn(dots), run_time=cue.remaining())

        with self.cue("takeaway") as cue:
            line = theme.body_text("分数只看距离 n − m，不管从哪个位置开始", color=theme.HIGHLIGHT)
            line.move_to(np.array([0.0, 2.95, 0.0]))
            self.play(FadeIn(line), run_time=cue.share(0.4))
            self.play(Create(chart.curves[0].copy().set_stroke(width=8, opacity=0.5)), run_time=cue.remaining())
