"""回到打分：还只看距离吗 — the Gram stripes through W_Q and W_K, against RoPE turning after them.

The same word x at seats m and m + 3 for four starts m (narration.figures.LOOP_STARTS, LOOP_GAP), one head
(W_Q, W_K and x from ``mathcore.projection.seeded_head()``), three schemes in a table of bars, one row each:

- the readings' own dot product PE(m)·PE(n): the same at every start (the stripes);
- the additive clock row through the projections, (W_Q (x + PE(m)))·(W_K (x + PE(n))): a different score at
  every start, because the turned readings pass through W_Q and W_K (and the word x is not turned);
- RoPE after the projections, (R_m W_Q x)·(R_n W_K x): the same at every start, for any W_Q and W_K.

Between the second row and the third, the limit of "exact in math" (document 000 §5): a model must learn W_Q,
W_K of a special form to keep "only the distance", and a big one may keep one answer per seen position
instead of the rule (a schematic, said to be one on screen).

Every number and bar comes from ``narration.figures.loop_table()`` (mathcore.projection.start_table).

Label equals drawing: the watch ``table`` (each row's numbers as drawn, its bars' raw top and bottom, its mark,
the column headers) and the probes ``formulas`` and ``memo`` are read by
tests/course/test_scene_through_projections.py.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    UP,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    Line,
    Rectangle,
    RoundedRectangle,
    SurroundingRectangle,
    VGroup,
)

from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects.marks import drawn_mark

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size
COLS = (-0.75, 1.35, 3.45, 5.55)  # the four starts' columns (their bar's centre is 0.45 left of this)
LABEL_X = -6.55  # the rows' names start here
MARK_X = -1.85
ROW_Y = (0.7, -0.5, -1.7)  # readings, additive, RoPE
HEAD_Y = 1.65
BAR_W, BAR_MAX = 0.36, 0.75  # a bar's width; the tallest bar of a row (scene units)
TOP_Y = 2.75  # the formula strip above the table
ROWS = ("readings", "added", "rope")
NAMES = {
    "readings": ("读数的点积", '$"PE"(m) dot "PE"(n)$'),
    "added": ("加法：读数加到 $x$ 上", "再乘 $W_Q$、$W_K$"),
    "rope": ("RoPE：先乘 $W_Q$、$W_K$", "最后才转"),
}
SEEN, SHOWN_SEATS = 24, 40  # the memorise schematic: positions 0 … SEEN − 1 seen in training, of 0 … SHOWN_SEATS − 1


def shown_value(v: float) -> str:
    """A score as drawn in the table: two decimals, the minus sign U+2212."""
    return figures.fmt_fixed(v)


class ThroughProjections(NarratedScene):
    """setup (the pipeline: x + PE → W_Q, W_K → q·k) → readings (row 1: PE·PE, flat) → projected (row 2: through
    W_Q, W_K, uneven) → why (the move needs the same turn right before the dot product) → learn (row 2 must be
    learned flat) → memorise (the schematic: one answer per seen position, or the rule) → rope (row 3: turned
    last, flat) → close (why RoPE turns after the projections)."""

    SCENE_IDS = ("through_projections",)
    CUES = ("setup", "readings", "projected", "why", "learn", "memorise", "rope", "close")

    def construct(self) -> None:
        table = figures.loop_table()
        values = {row: getattr(table, row) for row in ROWS}
        header = self.header()

        # -- setup: the additive pipeline, and the score it gives -----------------------------------------------
        pipe = self._pipeline()
        score = theme.formula('"分数" = (x + "PE"(m))^T {{W_Q^T W_K : w}} (x + "PE"(n))', font_size=40).move_to(
            np.array([0.0, -1.45, 0.0])
        )
        VGroup(*score.select("w")).set_color(theme.HIGHLIGHT)
        self.probe("setup", score=score.typst_code)
        with self.cue("setup") as cue:
            self.play(FadeIn(header), FadeIn(pipe[0]), run_time=cue.share(0.2))
            self.play(FadeIn(pipe[1]), run_time=cue.share(0.25))
            self.play(FadeIn(pipe[2]), run_time=cue.share(0.2))
            self.play(FadeIn(score, shift=0.15 * UP), run_time=min(cue.remaining(), cue.share(0.2)))

        # -- the table: column heads (m → n), row names, bars and numbers ------------------------------------
        heads = VGroup(
            *[
                theme.small_text(f"{m} → {m + table.gap}", color=theme.POSITION).move_to(np.array([x, HEAD_Y, 0.0]))
                for m, x in zip(table.starts, COLS)
            ]
        )
        corner = theme.small_text(f"位置 m → n，距离 {table.gap}", color=theme.POSITION)
        corner.move_to(np.array([0.0, HEAD_Y, 0.0])).align_to(np.array([LABEL_X, 0.0, 0.0]), LEFT)
        rule = Line(
            np.array([LABEL_X, HEAD_Y - 0.3, 0.0]),
            np.array([6.8, HEAD_Y - 0.3, 0.0]),
            color=theme.MUTED,
            stroke_width=2,
        )
        # one scale per kind of number: the readings' row alone, the two score rows together
        scale = {"readings": BAR_MAX / max(abs(v) for v in values["readings"])}
        scale["added"] = scale["rope"] = BAR_MAX / max(abs(v) for v in (*values["added"], *values["rope"]))
        rows = {row: self._row(row, values[row], scale[row], y) for row, y in zip(ROWS, ROW_Y)}
        marks = {
            row: drawn_mark(
                "tick" if table.spread(row) < 1e-9 else "cross", size=0.34, center=np.array([MARK_X, y, 0.0])
            )
            for row, y in zip(ROWS, ROW_Y)
        }

        def sample_row(row):
            r = rows[row]
            return {
                "shown": [n.text for n in r["numbers"]],
                "bars": [[float(b.get_top()[1]), float(b.get_bottom()[1])] for b in r["bars"]],
                "base": float(r["base"].get_y()),
                "bars_x": [float(b.get_x()) for b in r["bars"]],
                "on_screen": all(self.on_screen(m) for m in (*r["bars"], *r["numbers"])),
                "mark": marks[row].kind if self.on_screen(marks[row]) else None,
            }

        self.watch(
            "table",
            lambda: {
                "heads": [h.text for h in heads],
                "heads_x": [float(h.get_x()) for h in heads],
                "heads_on_screen": self.on_screen(heads),
                **{row: sample_row(row) for row in ROWS},
            },
        )

        # -- readings: the stripes, the same at every start ---------------------------------------------------
        top = score.copy().scale(0.85).move_to(np.array([0.0, TOP_Y, 0.0]))
        with self.cue("readings") as cue:
            self.play(FadeOut(pipe), score.animate.become(top), run_time=cue.share(0.15))
            self.play(FadeIn(corner), FadeIn(heads), Create(rule), run_time=cue.share(0.2))
            self.hold_frames(max(0, cue.start_frame + int(0.55 * cue.plan.speech_frames) - self.frame))
            self.play(*self._show_row(rows["readings"]), run_time=cue.share(0.2))
            self.play(Create(marks["readings"]), run_time=min(cue.remaining(), cue.share(0.1)))

        # -- projected: through W_Q and W_K, the same distance scores differently ---------------------------
        with self.cue("projected") as cue:
            self.hold_frames(max(0, cue.start_frame + int(0.3 * cue.plan.speech_frames) - self.frame))
            self.play(*self._show_row(rows["added"]), run_time=cue.share(0.3))
            self.play(Create(marks["added"]), run_time=cue.share(0.1))

        # -- why: the move needs one turn of both, right before the dot product --------------------------------
        why = theme.formula(
            'q = {{W_Q : wq}} (x + {{M_m : mq}} "PE"(0)),   k = {{W_K : wk}} (x + {{M_m : mk}} "PE"(n - m))',
            font_size=36,
        ).move_to(np.array([0.0, TOP_Y + 0.15, 0.0]))
        VGroup(*why.select("mq"), *why.select("mk")).set_color(theme.POSITION)
        VGroup(*why.select("wq"), *why.select("wk")).set_color(theme.HIGHLIGHT)
        why_note = theme.typst_text(
            "转的只是读数，$x$ 没转；转完还要乘 $W_Q$、$W_K$", color=theme.HIGHLIGHT, font_size=TYPST * theme.SIZE_SMALL
        ).move_to(np.array([0.0, TOP_Y - 0.45, 0.0]))
        with self.cue("why") as cue:
            self.swap(score, FadeIn(why), run_time=cue.share(0.2))
            self.hold_frames(max(0, cue.start_frame + int(0.6 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(why_note), run_time=min(cue.remaining(), cue.share(0.15)))

        # -- learn: row 2 is flat only for W_Q, W_K of a special form, which a model must learn ----------------
        box = SurroundingRectangle(
            VGroup(rows["added"]["name"], rows["added"]["numbers"], marks["added"]), color=theme.HIGHLIGHT, buff=0.12
        )
        # M5 (review 9), M4 (review 12), M2/P3 (review 13): the condition is on W_Q, W_K alone: the cross terms
        # (word times reading) they make must depend on n - m only, not on the start (not "be 0", not "not
        # change"); for every word at once the matrices must wipe the readings out: no position left
        learn = VGroup(
            theme.typst_text(
                "要让这一行变平，条件全在 $W_Q$、$W_K$ 上：",
                color=theme.HIGHLIGHT,
                font_size=TYPST * theme.SIZE_SMALL,
            ),
            theme.typst_text(
                "交叉项（词乘读数的两项）也得只看 $n - m$；", color=theme.HIGHLIGHT, font_size=TYPST * theme.SIZE_SMALL
            ),
            theme.typst_text(
                "对所有词都这样，读数只能被消掉：位置没了",
                color=theme.HIGHLIGHT,
                font_size=TYPST * theme.SIZE_SMALL,
            ),
        ).arrange(DOWN, buff=0.1)
        learn.move_to(np.array([0.0, TOP_Y - 0.15, 0.0]))
        self.probe("learn", shown=[m.typst_code for m in learn], bottom=float(learn.get_bottom()[1]))
        with self.cue("learn") as cue:
            self.swap([why, why_note], FadeIn(learn), Create(box), run_time=cue.share(0.3))

        # -- memorise: one answer per seen position, or the rule for every position (a schematic) ----------
        memo = self._memorise()
        table_parts = VGroup(
            corner, heads, rule, *[rows[r]["group"] for r in ("readings", "added")], marks["readings"], marks["added"]
        )
        self.probe(
            "memo",
            seen=SEEN,
            seats=SHOWN_SEATS,
            cards=len(memo["cards"]),
            unknown=len(memo["unknown"]),
            texts=[m.text for m in memo["texts"]],
            rule=memo["rule_text"].typst_code,
            caption=memo["caption"].text,
        )
        with self.cue("memorise") as cue:
            self.swap(
                [learn, box, table_parts], FadeIn(memo["axis"]), FadeIn(memo["caption"]), run_time=cue.share(0.15)
            )
            self.play(
                FadeIn(memo["band"]),
                FadeIn(memo["cards"], lag_ratio=0.05),
                FadeIn(memo["texts"][0]),
                run_time=cue.share(0.25),
            )
            self.play(FadeIn(memo["rule"]), FadeIn(memo["rule_text"]), run_time=cue.share(0.25))
            self.play(
                FadeIn(memo["unknown"], lag_ratio=0.1),
                FadeIn(memo["texts"][1]),
                run_time=min(cue.remaining(), cue.share(0.2)),
            )

        # -- rope: q and k from the word first, turned last: the same at every start ------------------------
        rope = theme.formula(
            "({{R_m : rm}} W_Q x) dot ({{R_n : rn}} W_K x) = (W_Q x) dot ({{R_(n - m) : rd}} W_K x)", font_size=36
        ).move_to(np.array([0.0, TOP_Y + 0.15, 0.0]))
        VGroup(*rope.select("rm"), *rope.select("rn"), *rope.select("rd")).set_color(theme.ANGLE)
        rope_note = theme.body_text("转完直接点积：两支一起转，点积不变", color=theme.ANGLE, font_size=theme.SIZE_SMALL)
        rope_note.move_to(np.array([0.0, TOP_Y - 0.45, 0.0]))
        self.probe("formulas", setup=score.typst_code, why=why.typst_code, rope=rope.typst_code, note=rope_note.text)
        with self.cue("rope") as cue:
            self.swap(
                [memo["group"]],
                FadeIn(table_parts),
                FadeIn(rope),
                run_time=cue.share(0.2),
            )
            self.hold_frames(max(0, cue.start_frame + int(0.45 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(rope_note), run_time=cue.share(0.12))
            self.hold_frames(max(0, cue.start_frame + int(0.75 * cue.plan.speech_frames) - self.frame))
            self.play(*self._show_row(rows["rope"]), run_time=cue.share(0.12))
            self.play(Create(marks["rope"]), run_time=min(cue.remaining(), cue.share(0.08)))

        # -- close: the turn next to the dot product keeps "only n − m" (signed) all the way ---------------------
        close = theme.body_text("旋转紧挨着点积，位置对分数的影响才能一直只看 n − m", color=theme.HIGHLIGHT)
        close.move_to(np.array([0.0, TOP_Y, 0.0]))
        final_box = SurroundingRectangle(
            VGroup(rows["rope"]["name"], rows["rope"]["numbers"], marks["rope"]), color=theme.HIGHLIGHT, buff=0.12
        )
        self.probe("close", shown=close.text)
        with self.cue("close") as cue:
            self.swap([rope, rope_note], FadeIn(close), Create(final_box), run_time=cue.share(0.25))

    # -- pieces -------------------------------------------------------------------------------------------
    def _pipeline(self) -> VGroup:
        """x + PE(m) → W_Q → q and x + PE(n) → W_K → k, then q·k: three parts, shown in turn."""
        ins = VGroup(
            theme.formula('x + {{"PE"(m) : p}}', font_size=40),
            theme.formula('x + {{"PE"(n) : p}}', font_size=40),
        )
        for f in ins:
            VGroup(*f.select("p")).set_color(theme.POSITION)
        ys = (1.45, 0.05)
        boxes, names, outs, arrows = VGroup(), VGroup(), VGroup(), VGroup()
        for i, (y, w, v, color) in enumerate(zip(ys, ("W_Q", "W_K"), ("q", "k"), (theme.Q, theme.K))):
            ins[i].move_to(np.array([-4.3, y, 0.0]))
            box = RoundedRectangle(width=1.3, height=0.8, corner_radius=0.12, color=theme.HIGHLIGHT, stroke_width=3)
            box.move_to(np.array([-1.2, y, 0.0]))
            boxes.add(box)
            names.add(theme.formula(w, font_size=40, color=theme.HIGHLIGHT).move_to(box))
            outs.add(theme.formula(v, font_size=44, color=color).move_to(np.array([1.2, y, 0.0])))
            arrows.add(
                Arrow(ins[i].get_right(), box.get_left(), buff=0.15, color=theme.MUTED, stroke_width=4),
                Arrow(box.get_right(), outs[i].get_left(), buff=0.15, color=theme.MUTED, stroke_width=4),
            )
        dot = theme.formula("q dot k", font_size=44, color=theme.SCORE).move_to(np.array([4.3, np.mean(ys), 0.0]))
        joins = VGroup(
            *[Arrow(o.get_right(), dot.get_left(), buff=0.2, color=theme.MUTED, stroke_width=4) for o in outs]
        )
        return VGroup(ins, VGroup(arrows[0::2], boxes, names, arrows[1::2], outs), VGroup(joins, dot))

    def _row(self, row: str, vals, scale: float, y: float) -> dict:
        """A table row: its name (two lines), a bar and a number per start; bars stand on a baseline."""
        first, second = NAMES[row]
        name = VGroup(
            theme.typst_text(first, color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL),
            theme.typst_text(second, color=theme.MUTED, font_size=TYPST * theme.SIZE_SMALL),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        name.move_to(np.array([0.0, y, 0.0])).align_to(np.array([LABEL_X, 0.0, 0.0]), LEFT)
        color = theme.POSITION if row == "readings" else theme.SCORE
        base_y = y - 0.4
        base = Line(
            np.array([COLS[0] - 0.8, base_y, 0.0]),
            np.array([COLS[-1] + 0.35, base_y, 0.0]),
            color=theme.MUTED,
            stroke_width=1.5,
        )
        bars, numbers = VGroup(), VGroup()
        for v, x in zip(vals, COLS):
            h = float(v) * scale
            bar = Rectangle(width=BAR_W, height=max(abs(h), 1e-3), stroke_width=0).set_fill(color, opacity=0.85)
            bar.move_to(np.array([x - 0.45, base_y + h / 2, 0.0]))
            bars.add(bar)
            numbers.add(theme.small_text(shown_value(v), color=theme.TEXT).move_to(np.array([x + 0.3, y, 0.0])))
        return {
            "name": name,
            "base": base,
            "bars": bars,
            "numbers": numbers,
            "group": VGroup(name, base, bars, numbers),
        }

    def _show_row(self, r: dict) -> list:
        return [
            FadeIn(r["name"]),
            Create(r["base"]),
            *[FadeIn(b, shift=0.1 * UP) for b in r["bars"]],
            FadeIn(r["numbers"]),
        ]

    def _memorise(self) -> dict:
        """The schematic: positions along an axis, the seen ones with a card each (one kept answer), a "?" over
        each unseen one, and the rule's arrow under every position."""
        x0, step, y = -6.0, 0.3, 0.35
        xs = [x0 + i * step for i in range(SHOWN_SEATS)]
        axis = Arrow(
            np.array([x0 - 0.3, y, 0.0]),
            np.array([xs[-1] + 0.5, y, 0.0]),
            buff=0,
            color=theme.MUTED,
            stroke_width=3,
            max_tip_length_to_length_ratio=0.02,
        )
        ticks = VGroup(
            *[
                Line(np.array([x, y - 0.08, 0]), np.array([x, y + 0.08, 0]), color=theme.MUTED, stroke_width=2)
                for x in xs
            ]
        )
        band = Rectangle(width=xs[SEEN - 1] - xs[0] + step, height=0.3, stroke_width=0)
        band.set_fill(theme.POSITION, opacity=0.35).move_to(np.array([(xs[0] + xs[SEEN - 1]) / 2, y, 0.0]))
        cards = VGroup(
            *[
                RoundedRectangle(width=0.2, height=0.26, corner_radius=0.03, stroke_width=0)
                .set_fill(theme.TEXT, opacity=0.75)
                .move_to(np.array([x, y + 0.45, 0.0]))
                for x in xs[:SEEN]
            ]
        )
        unknown = VGroup(
            *[theme.small_text("?", color=theme.HIGHLIGHT).move_to(np.array([x, y + 0.47, 0.0])) for x in xs[SEEN:]]
        )
        texts = VGroup(
            theme.small_text("训练时见过的位置：各记一份答案", color=theme.TEXT),
            theme.small_text("没见过：答案靠不住", color=theme.HIGHLIGHT),
        )
        texts[0].move_to(np.array([(xs[0] + xs[SEEN - 1]) / 2, y + 1.15, 0.0]))
        texts[1].move_to(np.array([(xs[SEEN] + xs[-1]) / 2 + 0.2, y + 1.15, 0.0]))
        rule = Arrow(
            np.array([xs[0], y - 0.75, 0.0]),
            np.array([xs[-1] + 0.5, y - 0.75, 0.0]),
            buff=0,
            color=theme.ANGLE,
            stroke_width=5,
            max_tip_length_to_length_ratio=0.02,
        )
        rule_text = theme.typst_text(
            "规律：往后挪 $k$ 步，每根指针多转 $omega k$（每个位置都适用）",
            color=theme.ANGLE,
            font_size=TYPST * theme.SIZE_SMALL,
        ).move_to(np.array([0.0, y - 1.3, 0.0]))
        caption = theme.small_text("示意图：一种可能，不是实测", color=theme.MUTED).move_to(
            np.array([0.0, y - 2.1, 0.0])
        )
        group = VGroup(axis, ticks, band, cards, unknown, texts, rule, rule_text, caption)
        return {
            "axis": VGroup(axis, ticks),
            "band": band,
            "cards": cards,
            "unknown": unknown,
            "texts": texts,
            "rule": rule,
            "rule_text": rule_text,
            "caption": caption,
            "group": group,
        }
