"""注意力看不见顺序: shuffling the words only shuffles the outputs.

This module draws two scenes, each with its class, so it is named for neither scene id: ``attention_blind``
(trig_to_rope, :class:`AttentionIsBlind`) is the course's one full demonstration: where q, k and v come from,
the three steps, the shuffle and the measured gap. ``blind_bag`` (word_order, :class:`BlindBagReminder`) only
recalls it in two cues: a card (what lesson 1 showed, and when) and the bag of words.

The word vectors come from :func:`mathcore.toy_words.word_vectors` (same word, same
vector), the scores, weights and outputs from mathcore, and the measured gap
between "attention then shuffle" and "shuffle then attention" from
:func:`mathcore.permutation_error`.
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
    Ellipse,
    FadeIn,
    FadeOut,
    Indicate,
    ReplacementTransform,
    SurroundingRectangle,
    VGroup,
)

import mathcore
from mathcore.toy_words import attention_scores, attention_weights, word_vectors
from narration.figures import fmt_dec, fmt_sci
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects import HeatMap
from scenes.mobjects.sci_figure import sci_line
from scenes.mobjects.token_row import TokenRow

VEC_LOW = "#26304a"  # a word-vector entry at its most negative; its most positive is theme.TEXT


def bag_of_words(pair: tuple[str, str], words, cue, scene: NarratedScene, until: float | None = None):
    """Two opposite sentences pour into one bag of the same words (the ``example``/``bag`` beat).

    A copy of each sentence shrinks into the bag and fades while the words appear in it: no
    glyph-by-glyph morph, which scrambled the sentences on the way. The bag is pointed at up to the end of
    the cue, or, with ``until``, up to that share of its speech (the cue goes on from there). Returns the two
    sentences and the words in the bag, as drawn.
    """
    left, right = pair
    sa = theme.title_text(left, color=theme.TEXT).move_to(np.array([-3.3, 1.6, 0.0]))
    sb = theme.title_text(right, color=theme.TEXT).move_to(np.array([3.3, 1.6, 0.0]))
    bag = Ellipse(width=6.2, height=2.4, color=theme.MUTED, stroke_width=3).move_to(np.array([0.0, -0.75, 0.0]))
    spots = [
        np.array([np.cos(a) * 2.0, 0.55 * np.sin(a), 0.0])
        for a in np.linspace(0.5, 0.5 + 2 * np.pi, len(words), endpoint=False)
    ]
    inside = VGroup(*[theme.body_text(w, color=theme.TEXT).move_to(bag.get_center() + s) for w, s in zip(words, spots)])
    bag_label = theme.small_text("在注意力眼里：同一袋词", color=theme.HIGHLIGHT).next_to(bag, UP, buff=0.12)
    scene.play(FadeIn(sa), FadeIn(sb), run_time=cue.share(0.25))
    pour = [m.copy().animate.scale(0.35).move_to(bag.get_center()).set_opacity(0) for m in (sa, sb)]
    scene.play(FadeIn(bag), FadeIn(bag_label), *pour, FadeIn(inside, scale=0.6), run_time=cue.share(0.4))
    point = Indicate(inside, color=theme.HIGHLIGHT, scale_factor=1.08)
    if until is None:
        scene.play(point, run_time=cue.remaining())
    else:
        scene.play_frames(point, frames=max(1, cue.start_frame + int(until * cue.plan.speech_frames) - scene.frame))
    return (sa, sb), inside


class AttentionIsBlind(NarratedScene):
    """setup (the two sentences, the question) → example (the watched word's output row in both: the same four
    numbers) → qkv (x → q, k, v; here q = k = v = x) → mechanism (q·k, softmax, weighted sum of v) → shuffle (the
    watched word and its partner change places: the first sentence becomes the second) → compare (置换等变) →
    takeaway (why the example came out equal).

    K3 (review 9): the puzzle comes first and the mechanism explains it, not the other way round.
    """

    SCENE_IDS = ("attention_blind",)
    CUES = ("setup", "example", "qkv", "mechanism", "shuffle", "compare", "takeaway")
    D = 4
    PARAMS = {
        "attention_blind": {
            "words": ("我", "等", "你"),
            "perm": (2, 1, 0),  # the shuffled row reads 你 等 我, the other sentence of the example cue
            "pair": ("我等你", "你等我"),
            "watched": "我",  # the example cue's word: its output row in both sentences
            "cell": 0.62,
            "question": "注意力分得出谁等谁吗？",
            "answer": "前提：每个词都看得到整句话，不加位置信息",
            "columns": (-5.0, -1.55, 1.95, 5.35),
            "takeaway": ("分数只看哪两个词配对，不看坐第几", "位置要另外告诉模型"),
        },
    }
    MAP_Y = 0.1
    #: where q, k and v come from (the ``qkv`` cue): symbol in Typst, its colour, what it is for
    QKV = (
        ("q = W_Q x", theme.Q, "查询向量 q：拿去提问"),
        ("k = W_K x", theme.K, "键向量 k：拿来被比对"),
        ("v = W_V x", theme.TEXT, "值向量 v：要取走的内容"),
    )

    def construct(self) -> None:
        params = self.PARAMS[self.plan.id]
        words, perm = list(params["words"]), list(params["perm"])
        self.cell = params["cell"]
        x = word_vectors(words, self.D)
        xp = x[perm]
        shuffled = [words[i] for i in perm]
        vmax = float(np.abs(x).max())
        header = self.header()

        # -- setup: the two sentences, and the question --------------------------------------
        row = TokenRow(words, center=np.array([0.0, 2.9, 0.0]))
        sentences, rows = self._same_row(params, x, xp, shuffled, vmax)
        with self.cue("setup") as cue:
            q = theme.body_text(params["question"], color=theme.TEXT).move_to(np.array([0.0, -1.45, 0.0]))
            ans = theme.small_text(params["answer"], color=theme.HIGHLIGHT).move_to(np.array([0.0, -2.15, 0.0]))
            self.play(FadeIn(header), FadeIn(sentences, lag_ratio=0.3), run_time=cue.share(0.3))
            self.play(FadeIn(q), run_time=cue.share(0.25))
            self.play(FadeIn(ans, shift=0.2 * UP), run_time=cue.remaining())

        # -- example: the watched word's output row, first in one sentence and last in the other --------
        with self.cue("example") as cue:
            self._show_rows(sentences, rows, cue)

        # -- qkv: each word's x makes a query, a key and a value; the demo takes x itself ----------
        source = theme.body_text("词向量 x", color=theme.TEXT).move_to(np.array([-4.6, 0.4, 0.0]))
        made = VGroup()
        for k, (symbol, color, role) in enumerate(self.QKV):
            made.add(
                VGroup(
                    theme.formula(symbol, color=color, font_size=theme.SIZE_FORMULA),
                    theme.body_text(role, color=color, font_size=theme.SIZE_SMALL),
                ).arrange(RIGHT, buff=0.5)
            )
        made.arrange(DOWN, aligned_edge=LEFT, buff=0.45).move_to(np.array([1.4, 0.4, 0.0]))
        fan = VGroup(
            *[
                Arrow(
                    source.get_right() + 0.1 * RIGHT,
                    m[0].get_left() + 0.1 * LEFT,
                    buff=0.1,
                    color=theme.MUTED,
                    stroke_width=3,
                    max_tip_length_to_length_ratio=0.12,
                )
                for m in made
            ]
        )
        same = theme.formula('"小实验里：" q = k = v = x', color=theme.HIGHLIGHT).move_to(np.array([0.0, -1.9, 0.0]))
        with self.cue("qkv") as cue:
            self.play(*[FadeOut(m) for m in list(self.mobjects) if m is not header], run_time=cue.share(0.08))
            self.play(FadeIn(source), run_time=cue.share(0.06))
            for k in range(len(made)):
                self.play(Create(fan[k]), FadeIn(made[k], shift=0.2 * RIGHT), run_time=cue.share(0.14))
            self.hold_frames(max(0, cue.start_frame + int(0.72 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(same, shift=0.2 * UP), run_time=cue.remaining())
        intro = VGroup(source, made, fan, same)

        # -- mechanism: X → scores → softmax weights → outputs ----------------------------
        xs = params["columns"]
        X = self._vectors(x, words, xs[0], vmax)
        S = HeatMap(attention_scores(x), cell=self.cell, center=np.array([xs[1], self.MAP_Y, 0.0]), col_labels=words)
        W = HeatMap(
            attention_weights(x),
            cell=self.cell,
            vmin=0.0,
            vmax=1.0,
            center=np.array([xs[1], self.MAP_Y, 0.0]),
            col_labels=words,
        )
        Y = self._vectors(mathcore.attention(x, x, x), words, xs[2], vmax)
        self._stagger(S)
        self._stagger(W)

        def cap(lines, m, color=theme.TEXT):
            """A caption of one or more short lines under the cells of ``m``."""
            out = VGroup(*[theme.small_text(t, color=color) for t in lines]).arrange(DOWN, buff=0.1)
            return out.next_to(m.cells, DOWN, buff=0.22)

        cap_x, cap_s = cap(["x（= q = k = v）"], X), cap(["① 分数：q·k ÷ √d"], S, theme.SCORE)
        cap_w, cap_y = cap(["② softmax", "化成权重（和为 1）"], W, theme.SCORE), cap(["③ 按权重加起 v"], Y)
        self.probe("inputs", words=words, x=x.tolist(), drawn=self._drawn(X))
        with self.cue("mechanism") as cue:
            self.play(FadeOut(intro), FadeIn(row), FadeIn(X), FadeIn(cap_x), run_time=cue.share(0.2))
            self.play(FadeIn(S), FadeIn(cap_s), run_time=cue.share(0.25))
            self.probe("scores", values=S.values.tolist(), want=attention_scores(x).tolist())
            self.play(ReplacementTransform(S, W), ReplacementTransform(cap_s, cap_w), run_time=cue.share(0.25))
            self.probe("weights", values=W.values.tolist(), drawn=self._drawn(W))
            self.play(FadeIn(Y, shift=0.2 * RIGHT), FadeIn(cap_y), run_time=cue.remaining())
            self.probe("outputs", values=Y.values.tolist(), drawn=self._drawn(Y))

        # -- shuffle: the same rows in a new order, computed again ------------------------
        Xp = self._vectors(xp, shuffled, xs[0], vmax)
        Wp = HeatMap(
            attention_weights(xp),
            cell=self.cell,
            vmin=0.0,
            vmax=1.0,
            center=np.array([xs[1], self.MAP_Y, 0.0]),
            col_labels=shuffled,
        )
        Yp = self._vectors(mathcore.attention(xp, xp, xp), shuffled, xs[2], vmax)
        self._stagger(Wp)
        old = Y.copy().move_to(Y).shift((xs[3] - xs[2]) * RIGHT)
        cap_old = cap(["原来的结果"], old, theme.MUTED)
        cap_new = theme.small_text("挪完再算", color=theme.TEXT).next_to(Yp.cells, DOWN, buff=0.22)
        with self.cue("shuffle") as cue:
            self.play(
                Y.animate.move_to(old),
                FadeOut(cap_y),
                FadeIn(cap_old),
                FadeOut(W),
                FadeOut(cap_w),
                run_time=cue.share(0.25),
            )
            self.remove(Y)
            self.add(old)
            moves, moved = self._row_moves(X, perm)
            self.play(row.make_reorder_animation(perm), *moves, run_time=cue.share(0.35))
            self.remove(X, *moved)  # the shuffled copy takes their place
            self.add(Xp)
            self.play(FadeIn(Wp), FadeIn(cap_w), FadeIn(Yp), FadeIn(cap_new), run_time=cue.remaining())
            self.probe(
                "shuffled",
                words=shuffled,
                perm=perm,
                x=xp.tolist(),
                drawn=self._drawn(Xp),
                outputs=Yp.values.tolist(),
                out_drawn=self._drawn(Yp),
                tokens=row.shown_words(),
            )

        # -- compare: reorder the old outputs; they are the new outputs, row for row -------
        err = mathcore.permutation_error(x, perm)
        verdict = VGroup(
            theme.body_text("置换等变：", color=theme.HIGHLIGHT),
            theme.body_text("两边相同，", color=theme.TEXT),
            sci_line("只差舍入误差 ", fmt_sci(err), color=theme.TEXT, text_size=theme.SIZE_BODY),
        )
        verdict.arrange(RIGHT, buff=0.1).move_to(np.array([0.0, -2.2, 0.0]))
        with self.cue("compare") as cue:
            self.play(FadeOut(Wp), FadeOut(cap_w), FadeOut(cap_old), run_time=cue.share(0.15))
            moves, moved = self._row_moves(old, perm)
            self.play(*moves, run_time=cue.share(0.35))
            olds = self._vectors(mathcore.attention(x, x, x)[perm], shuffled, xs[3], vmax)
            cap_olds = theme.small_text("算完再挪", color=theme.TEXT).next_to(olds.cells, DOWN, buff=0.22)
            self.remove(old, *moved)
            self.add(olds)
            self.play(FadeIn(cap_olds), run_time=cue.share(0.1))
            boxes = VGroup(
                *[
                    SurroundingRectangle(
                        VGroup(*[Yp.cell(i, j) for j in range(self.D)], *[olds.cell(i, j) for j in range(self.D)]),
                        color=theme.HIGHLIGHT,
                        buff=0.04,
                        stroke_width=2,
                    )
                    for i in range(len(words))
                ]
            )
            self.play(Create(boxes, lag_ratio=0.3), FadeIn(verdict), run_time=cue.remaining())
            self.probe(
                "compare",
                before_then_shuffle=olds.values.tolist(),
                shuffle_then_after=Yp.values.tolist(),
                drawn_old=self._drawn(olds),
                drawn_new=self._drawn(Yp),
                error_shown=fmt_sci(err),
                error=err,
            )

        # -- takeaway ----------------------------------------------------------------------
        first, second = params["takeaway"]
        line = VGroup(theme.body_text(first, color=theme.TEXT), theme.body_text(second, color=theme.HIGHLIGHT))
        line.arrange(DOWN, buff=0.35).move_to(np.array([0.0, 0.3, 0.0]))
        with self.cue("takeaway") as cue:
            self.play(*[FadeOut(m) for m in list(self.mobjects) if m is not header], run_time=cue.share(0.25))
            self.play(FadeIn(line[0]), run_time=cue.share(0.3))
            self.play(FadeIn(line[1], shift=0.2 * UP), run_time=cue.remaining())

    # -- helpers ----------------------------------------------------------------------------
    def _same_row(self, params, x: np.ndarray, xp: np.ndarray, shuffled: list[str], vmax: float):
        """Each sentence of ``pair`` (shown in setup), and under it the watched word's attention output in it
        (shown in example, by :meth:`_show_rows`)."""
        word, words = params["watched"], list(params["words"])
        rows, sentences = [], VGroup()
        for k, (sentence, order, xs) in enumerate(zip(params["pair"], (words, shuffled), (x, xp))):
            side = (-1 if k == 0 else 1) * 3.3
            title = theme.title_text(sentence, color=theme.TEXT).move_to(np.array([side, 1.6, 0.0]))
            title[sentence.index(word)].set_color(theme.HIGHLIGHT)
            seat = order.index(word)
            row = HeatMap(
                mathcore.attention(xs, xs, xs)[seat],
                cell=self.cell,
                vmin=-vmax,
                vmax=vmax,
                low_color=VEC_LOW,
                high_color=theme.TEXT,
                center=np.array([side, 0.0, 0.0]),
                row_labels=[word],
            )
            where = theme.small_text(f"“{word}”排第 {seat + 1}", color=theme.MUTED).next_to(row.cells, DOWN, buff=0.3)
            sentences.add(title)
            rows.append((row, where, seat))
        return sentences, rows

    def _show_rows(self, sentences: VGroup, rows: list, cue) -> None:
        """The watched word's two output rows under their sentences, with = between."""
        equal = theme.title_text("=", color=theme.HIGHLIGHT).move_to(np.array([0.0, 0.0, 0.0]))
        self.play(*[FadeIn(VGroup(r, w), shift=0.2 * DOWN) for r, w, _ in rows], run_time=cue.share(0.5))
        self.play(FadeIn(equal, scale=1.2), run_time=cue.remaining())
        self.probe(
            "example",
            sentences=[t.text for t in sentences],
            seats=[seat for _, _, seat in rows],
            values=[r.values[0].tolist() for r, _, _ in rows],
            drawn=[self._drawn(r)[0] for r, _, _ in rows],
            on_screen=[self.on_screen(m) for m in (*sentences, *[r for r, _, _ in rows], equal)],
        )

    def _vectors(self, values: np.ndarray, labels: list[str], x: float, vmax: float) -> HeatMap:
        """One row per word, one column per dimension, words written on the left."""
        return HeatMap(
            values,
            cell=self.cell,
            vmin=-vmax,
            vmax=vmax,
            low_color=VEC_LOW,
            high_color=theme.TEXT,
            center=np.array([x, self.MAP_Y, 0.0]),
            row_labels=labels,
        )

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


class BlindBagReminder(NarratedScene):
    """recall (a card: what lesson 1 showed, and when) → bag (the evidence: lesson 1's 我 row, the same four numbers
    first and last; the lending sentences likewise; tell it the order).

    word_order only recalls, in two cues, what trig_to_rope's ``attention_blind`` shows in full: no new
    sentence is shuffled and no output recomputed here. The card names lesson 1 and its finding, and states the
    condition (every word sees the whole sentence, not only the words before it, and no position is added); the
    bag beat shows the evidence (the 我 row) and this lesson's lending sentences (review 9, K4: no restated
    definition of the shuffle).
    """

    SCENE_IDS = ("blind_bag",)
    CUES = ("recall", "bag")
    WORDS = ("小明", "把", "书", "借给", "小红")
    PAIR = ("小明把书借给小红", "小红把书借给小明")
    #: the recall card, top to bottom: what lesson 1 found, the condition (three lines); each line is shown when
    #: the voice reaches it (a share of the cue's speech)
    CARD = (
        ("第一课看过：注意力自己分不出次序", theme.MUTED, 0.0),
        ("前提：每个词都能看到整句话", theme.TEXT, 0.38),
        ("（而不是只看前面的词）", theme.TEXT, 0.6),
        ("也不加位置信息", theme.TEXT, 0.82),
    )
    CLOSING = "先后要另外告诉它"
    RECALL_WORDS = ("我", "等", "你")  # lesson 1's sentence (trig_to_rope.attention_blind), 我 watched

    def construct(self) -> None:
        header = self.header()
        card = VGroup(*[theme.body_text(t, color=c) for t, c, _ in self.CARD])
        card.arrange(DOWN, buff=0.35).move_to(np.array([0.0, 0.2, 0.0]))
        card[0].shift(0.25 * UP)  # the heading stands apart from the condition
        with self.cue("recall") as cue:
            self.play(FadeIn(header), run_time=cue.share(0.05))
            for line, (_, _, at) in zip(card, self.CARD):
                self.hold_to(max(self.frame, cue.start_frame + int(at * cue.plan.speech_frames)))
                self.play(FadeIn(line, shift=0.15 * UP), run_time=min(cue.share(0.08), cue.remaining()))
            cue.hold()
            self.probe("recall", lines=[line.text for line in card], on_screen=[self.on_screen(m) for m in card])

        closing = theme.body_text(self.CLOSING, color=theme.HIGHLIGHT).move_to(np.array([0.0, -2.3, 0.0]))
        with self.cue("bag") as cue:
            self.play(*[FadeOut(m) for m in list(self.mobjects) if m is not header], run_time=cue.share(0.08))
            rows = self._lesson_one_rows()
            self.play(FadeIn(rows, lag_ratio=0.2), run_time=cue.share(0.25))
            self.hold_to(max(self.frame, cue.bookmark("lend")))
            sentences = VGroup(
                *[theme.body_text(t, color=theme.TEXT) for t in self.PAIR], theme.body_text("也一样", color=theme.TEXT)
            )
            sentences.arrange(RIGHT, buff=0.6).move_to(np.array([0.0, -1.2, 0.0]))
            self.play(FadeIn(sentences, lag_ratio=0.3), run_time=cue.share(0.2))
            self.play(FadeIn(closing, shift=0.15 * UP), run_time=cue.remaining())
            self.probe(
                "bag",
                sentences=[m.text for m in sentences[:2]],
                recalled=self.recalled,
                closing=closing.text,
                on_screen=[self.on_screen(m) for m in (rows, *sentences, closing)],
            )

    def _lesson_one_rows(self) -> VGroup:
        """Lesson 1's picture, recalled: the output row of 我 in 我等你 (first) and in 你等我 (last), from
        mathcore.attention on the same toy word vectors; both rows are the same four numbers."""
        words = list(self.RECALL_WORDS)
        x = word_vectors(words, 4)
        vmax = float(np.abs(x).max())
        group, self.recalled = VGroup(), []
        for k, order in enumerate((words, words[::-1])):
            xs = word_vectors(order, 4)
            seat = order.index("我")
            out = mathcore.attention(xs, xs, xs)[seat]
            side = (-1 if k == 0 else 1) * 3.4
            title = theme.body_text("".join(order), color=theme.TEXT).move_to(np.array([side, 2.0, 0.0]))
            title[seat].set_color(theme.HIGHLIGHT)  # 我, first in one sentence and last in the other
            row = HeatMap(
                out[None, :],
                cell=1.05,
                vmin=-vmax,
                vmax=vmax,
                low_color=VEC_LOW,
                high_color=theme.TEXT,
                center=np.array([side, 1.0, 0.0]),
                row_labels=["我"],
            )
            nums = VGroup(
                *[
                    theme.small_text(fmt_dec(v, 2), color=theme.MUTED).next_to(row.cell(0, j), DOWN, buff=0.15)
                    for j, v in enumerate(out)
                ]
            )
            group.add(VGroup(title, row, nums))
            self.recalled.append(
                {"sentence": "".join(order), "seat": seat, "values": out.tolist(), "shown": [t.text for t in nums]}
            )
        group.add(theme.title_text("=", color=theme.HIGHLIGHT).move_to(np.array([0.0, 1.0, 0.0])))
        return group
