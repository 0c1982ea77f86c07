"""注意力看不见顺序: shuffling the words only shuffles the outputs.

The word vectors come from :func:`mathcore.toy_words.word_vectors` (same word, same
vector), the scores, weights and outputs from mathcore, and the measured gap
between "attention then shuffle" and "shuffle then attention" from
:func:`mathcore.permutation_error`.
"""
from __future__ import annotations

import numpy as np
from manim import DOWN, RIGHT, UP, Create, Ellipse, FadeIn, FadeOut, Indicate, ReplacementTransform, \
    SurroundingRectangle, VGroup

import mathcore
from narration.figures import fmt_sci
from mathcore.toy_words import attention_scores, attention_weights, word_vectors
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import HeatMap
from scenes.mobjects.sci_figure import sci_line
from scenes.mobjects.token_row import TokenRow

VEC_LOW = "#26304a"   # a word-vector entry at its most negative; its most positive is theme.TEXT


class AttentionIsBlind(NarratedScene):
    """setup → mechanism (dot products, softmax, weighted sum) → shuffle → compare → example (one bag) → takeaway.

    ``PARAMS`` by plan id: the words (three words of four dimensions in
    trig_to_rope, the lending sentence in word_order), the shuffle, the pair of
    opposite sentences, and the closing line.
    """

    SCENE_IDS = ("attention_blind", "blind_bag")
    CUES = ("setup", "mechanism", "shuffle", "compare", "example", "takeaway")
    D = 4
    PARAMS = {
        "attention_blind": {
            "words": ("猫", "追", "狗"), "perm": (2, 0, 1), "pair": ("猫追狗", "狗追猫"), "opposite": None, "cell": 0.62,
            "question": "谁在前？谁在后？", "answer": "不加位置信息：它不知道", "columns": (-5.0, -1.55, 1.95, 5.35),
            "takeaway": ("谁追谁，由次序决定", "得把每个词排第几告诉模型")},
        "blind_bag": {
            "words": ("小明", "把", "书", "借给", "小红"), "perm": (2, 4, 3, 0, 1),
            "pair": ("小明把书借给小红", "小红把书借给小明"), "opposite": ("小红", "把", "书", "借给", "小明"), "cell": 0.5,
            "question": "谁借出？谁借到？正好相反", "answer": None, "columns": (-4.75, -1.55, 1.75, 5.15),
            "takeaway": ("所有词一起并行地算：快", "代价：丢掉了先后")},
    }
    MAP_Y = 0.1

    def construct(self) -> None:
        params = self.PARAMS.get(self.plan.id)
        if params is None:
            raise KeyError(f"AttentionIsBlind has no parameters for scene {self.plan.id!r} (known: {sorted(self.PARAMS)})")
        words, perm = list(params["words"]), list(params["perm"])
        self.cell = params["cell"]
        x = word_vectors(words, self.D)
        xp = x[perm]
        shuffled = [words[i] for i in perm]
        vmax = float(np.abs(x).max())
        header = self.header()

        # -- setup: the sentence(s), and the question ------------------------------------
        row = TokenRow(words, center=np.array([0.0, 2.9, 0.0]))
        with self.cue("setup") as cue:
            if params["opposite"] is not None:                 # two opposite sentences
                a = TokenRow(words, center=np.array([0.0, 1.5, 0.0]))
                b = TokenRow(params["opposite"], center=np.array([0.0, 0.2, 0.0]))
                q = theme.body_text(params["question"], color=theme.HIGHLIGHT).move_to(np.array([0.0, -1.2, 0.0]))
                self.play(FadeIn(header), FadeIn(a), run_time=cue.share(0.3))
                self.play(FadeIn(b, shift=0.2 * DOWN), run_time=cue.share(0.3))
                self.play(FadeIn(q), run_time=cue.remaining())
                intro = VGroup(a, b, q)
            else:
                q = theme.title_text(params["question"], color=theme.TEXT).move_to(np.array([0.0, 0.9, 0.0]))
                ans = theme.body_text(params["answer"], color=theme.HIGHLIGHT).move_to(np.array([0.0, -0.5, 0.0]))
                self.play(FadeIn(header), FadeIn(row), run_time=cue.share(0.25))
                self.play(FadeIn(q), run_time=cue.share(0.3))
                self.play(FadeIn(ans, shift=0.2 * UP), run_time=cue.remaining())
                intro = VGroup(q, ans)

        # -- mechanism: X → scores → softmax weights → outputs ----------------------------
        xs = params["columns"]
        X = self._vectors(x, words, xs[0], vmax)
        S = HeatMap(attention_scores(x), cell=self.cell, center=np.array([xs[1], self.MAP_Y, 0.0]), col_labels=words)
        W = HeatMap(attention_weights(x), cell=self.cell, vmin=0.0, vmax=1.0,
                    center=np.array([xs[1], self.MAP_Y, 0.0]), col_labels=words)
        Y = self._vectors(mathcore.attention(x, x, x), words, xs[2], vmax)
        self._stagger(S)
        self._stagger(W)
        cap = lambda text, m, color=theme.TEXT: theme.small_text(text, color=color).next_to(m.cells, DOWN, buff=0.22)  # noqa: E731
        cap_x, cap_s, cap_w, cap_y = cap("词向量 x", X), cap("① 两两点积", S, theme.SCORE), \
            cap("② softmax 权重", W, theme.SCORE), cap("③ 加权求和", Y)
        self.probe("inputs", words=words, x=x.tolist(), drawn=self._drawn(X))
        with self.cue("mechanism") as cue:
            fade = [FadeOut(intro)] + ([] if params["opposite"] is None else [FadeIn(row)])
            self.play(*fade, FadeIn(X), FadeIn(cap_x), run_time=cue.share(0.2))
            self.play(FadeIn(S), FadeIn(cap_s), run_time=cue.share(0.25))
            self.probe("scores", values=S.values.tolist(), want=attention_scores(x).tolist())
            self.play(ReplacementTransform(S, W), ReplacementTransform(cap_s, cap_w), run_time=cue.share(0.25))
            self.probe("weights", values=W.values.tolist(), drawn=self._drawn(W))
            self.play(FadeIn(Y, shift=0.2 * RIGHT), FadeIn(cap_y), run_time=cue.remaining())
            self.probe("outputs", values=Y.values.tolist(), drawn=self._drawn(Y))

        # -- shuffle: the same rows in a new order, computed again ------------------------
        Xp = self._vectors(xp, shuffled, xs[0], vmax)
        Wp = HeatMap(attention_weights(xp), cell=self.cell, vmin=0.0, vmax=1.0,
                     center=np.array([xs[1], self.MAP_Y, 0.0]), col_labels=shuffled)
        Yp = self._vectors(mathcore.attention(xp, xp, xp), shuffled, xs[2], vmax)
        self._stagger(Wp)
        old = Y.copy().move_to(Y).shift((xs[3] - xs[2]) * RIGHT)
        cap_old = theme.small_text("打乱前的输出", color=theme.MUTED).next_to(old.cells, DOWN, buff=0.22)
        cap_new = theme.small_text("先打乱，再算", color=theme.TEXT).next_to(Yp.cells, DOWN, buff=0.22)
        with self.cue("shuffle") as cue:
            self.play(Y.animate.move_to(old), ReplacementTransform(cap_y, cap_old), FadeOut(W), FadeOut(cap_w),
                      run_time=cue.share(0.25))
            self.remove(Y)
            self.add(old)
            moves, moved = self._row_moves(X, perm)
            self.play(row.make_reorder_animation(perm), *moves, run_time=cue.share(0.35))
            self.remove(X, *moved)         # the shuffled copy takes their place
            self.add(Xp)
            self.play(FadeIn(Wp), FadeIn(cap_w), FadeIn(Yp), FadeIn(cap_new), run_time=cue.remaining())
            self.probe("shuffled", words=shuffled, perm=perm, x=xp.tolist(), drawn=self._drawn(Xp),
                       outputs=Yp.values.tolist(), out_drawn=self._drawn(Yp), tokens=row.shown_words())

        # -- compare: reorder the old outputs; they are the new outputs, row for row -------
        err = mathcore.permutation_error(x, perm)
        verdict = VGroup(theme.body_text("两边相同，", color=theme.TEXT),
                         sci_line("只差舍入误差 ", fmt_sci(err), color=theme.HIGHLIGHT, text_size=theme.SIZE_BODY))
        verdict.arrange(RIGHT, buff=0.1).move_to(np.array([0.0, -2.2, 0.0]))
        with self.cue("compare") as cue:
            self.play(FadeOut(Wp), FadeOut(cap_w), FadeOut(cap_old), run_time=cue.share(0.15))
            moves, moved = self._row_moves(old, perm)
            self.play(*moves, run_time=cue.share(0.35))
            olds = self._vectors(mathcore.attention(x, x, x)[perm], shuffled, xs[3], vmax)
            cap_olds = theme.small_text("先算，再打乱", color=theme.TEXT).next_to(olds.cells, DOWN, buff=0.22)
            self.remove(old, *moved)
            self.add(olds)
            self.play(FadeIn(cap_olds), run_time=cue.share(0.1))
            boxes = VGroup(*[SurroundingRectangle(VGroup(*[Yp.cell(i, j) for j in range(self.D)],
                                                         *[olds.cell(i, j) for j in range(self.D)]),
                                                  color=theme.HIGHLIGHT, buff=0.04, stroke_width=2)
                             for i in range(len(words))])
            self.play(Create(boxes, lag_ratio=0.3), FadeIn(verdict), run_time=cue.remaining())
            self.probe("compare", before_then_shuffle=olds.values.tolist(), shuffle_then_after=Yp.values.tolist(),
                       drawn_old=self._drawn(olds), drawn_new=self._drawn(Yp), error_shown=fmt_sci(err), error=err)

        # -- example: two opposite sentences, one bag of words -----------------------------
        left, right = params["pair"]
        sa = theme.title_text(left, color=theme.TEXT).move_to(np.array([-3.3, 1.6, 0.0]))
        sb = theme.title_text(right, color=theme.TEXT).move_to(np.array([3.3, 1.6, 0.0]))
        bag = Ellipse(width=6.2, height=2.4, color=theme.MUTED, stroke_width=3).move_to(np.array([0.0, -0.75, 0.0]))
        spots = [np.array([np.cos(a) * 2.0, 0.55 * np.sin(a), 0.0]) for a in np.linspace(0.5, 0.5 + 2 * np.pi, len(words),
                                                                                       endpoint=False)]
        inside = VGroup(*[theme.body_text(w, color=theme.TEXT).move_to(bag.get_center() + s) for w, s in zip(words, spots)])
        bag_label = theme.small_text("在注意力眼里：同一袋词", color=theme.HIGHLIGHT).next_to(bag, UP, buff=0.12)
        with self.cue("example") as cue:
            self.play(*[FadeOut(m) for m in list(self.mobjects) if m is not header], run_time=cue.share(0.15))
            self.play(FadeIn(sa), FadeIn(sb), run_time=cue.share(0.25))
            # both sentences pour into the bag (a copy of each shrinks into it and fades), and the same
            # words come out: no glyph-by-glyph morph, which scrambled the sentences on the way
            pour = [m.copy().animate.scale(0.35).move_to(bag.get_center()).set_opacity(0) for m in (sa, sb)]
            self.play(FadeIn(bag), FadeIn(bag_label), *pour, FadeIn(inside, scale=0.6), run_time=cue.share(0.4))
            self.play(Indicate(inside, color=theme.HIGHLIGHT, scale_factor=1.08), run_time=cue.remaining())

        # -- takeaway ----------------------------------------------------------------------
        first, second = params["takeaway"]
        line = VGroup(theme.body_text(first, color=theme.TEXT), theme.body_text(second, color=theme.HIGHLIGHT))
        line.arrange(DOWN, buff=0.35).move_to(np.array([0.0, 0.3, 0.0]))
        with self.cue("takeaway") as cue:
            self.play(*[FadeOut(m) for m in list(self.mobjects) if m is not header], run_time=cue.share(0.25))
            self.play(FadeIn(line[0]), run_time=cue.share(0.3))
            self.play(FadeIn(line[1], shift=0.2 * UP), run_time=cue.remaining())

    # -- helpers ----------------------------------------------------------------------------
    def _vectors(self, values: np.ndarray, labels: list[str], x: float, vmax: float) -> HeatMap:
        """One row per word, one column per dimension, words written on the left."""
        return HeatMap(values, cell=self.cell, vmin=-vmax, vmax=vmax, low_color=VEC_LOW, high_color=theme.TEXT,
                       center=np.array([x, self.MAP_Y, 0.0]), row_labels=labels)

    def _row_moves(self, hm: HeatMap, perm: list[int]) -> tuple[list, list]:
        """Animations moving row ``perm[s]`` of ``hm`` (cells and label) to row s, and the row groups
        they move (a play adds them to the scene: remove them with ``hm`` afterwards)."""
        rows, cols = hm.values.shape
        anims, groups = [], []
        for s, i in enumerate(perm):
            dy = (i - s) * self.cell
            group = VGroup(*[hm.cell(i, j) for j in range(cols)])
            if len(hm.labels) == rows:
                group.add(hm.labels[i])
            anims.append(group.animate(path_arc=0.6).shift(dy * UP))
            groups.append(group)
        return anims, groups

    def _stagger(self, hm: HeatMap) -> None:
        """Lift every other column label when the words are wider than a cell."""
        if max(l.width for l in hm.labels) > self.cell - 0.05:
            for j, label in enumerate(hm.labels):
                if j % 2:
                    label.shift(0.4 * UP)

    @staticmethod
    def _drawn(hm: HeatMap) -> list[list[str]]:
        """The fill colour of every cell, as drawn (hex)."""
        rows, cols = hm.values.shape
        return [[hm.cell(i, j).get_fill_color().to_hex() for j in range(cols)] for i in range(rows)]
