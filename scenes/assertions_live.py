"""五条结论，机器逐条验算: A1–A5 recomputed by mathcore while the video renders, one table row per cue, then the
same check run on a wrong version (the row/column bug of shift_machine, ``checks.row_bug_assertion()``) failing
its bound, and the verdict: all five pass, and a numerical check is not a proof.

``checks.lesson_assertions()`` is called in ``construct`` (not a cached constant), so every render
measures the errors again. Every row is held to the same bound, ``checks.BOUND`` = 100 ε (ε = float64's
machine epsilon, 机器精度), and shows its error both as a number and in units of ε, so pass and fail can be
read off the row. The errors are typeset as Typst math (a real superscript, not Unicode superscript glyphs).
The five are named 结论一 … 结论五 on screen, as the voice says them. (The source document's own figures,
measured on other inputs, are not shown: the viewer has never seen that document.)
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, Create, FadeIn, FadeOut, Indicate, Line, SurroundingRectangle, VGroup, VMobject

from mathcore import checks
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects.sci_figure import typst_sci

TYPST = 4 / 3  # Typst text comes out at 3/4 of Text's size for the same font_size

# what each assertion says, as the narration says it (the Assertion's own claim is ASCII); Typst markup
CLAIMS = {
    "A1": "正交：$R^T R = I$，$det R = +1$",
    "A2": "长度、点积不变（同一角度）",
    "A3": "复合 = 角度相加，一圈回原样",
    "A4": '$M_k "PE"(n) = "PE"(n+k)$',
    "A5": "Gram 矩阵只依赖相对距离",
}
COLS = {"key": -5.95, "claim": -5.05, "error": 1.45, "eps": 3.6, "mark": 5.4}
NAMES = {"A1": "结论一", "A2": "结论二", "A3": "结论三", "A4": "结论四", "A5": "结论五"}  # as the voice says them
BUG_NAME, BUG_CLAIM = "写错", '$"PE"(n)^T M_k$：当作往后拨'  # the row/column bug; L3 (review 13): no 左乘
HEADER_Y = 1.75
ROW_Y0, ROW_STEP = 1.12, 0.5
BUG_Y = -1.55  # the wrong version's row, under a rule
VERDICT_Y = -2.2
NOT_PROOF = "验算不是证明：推导说明为什么对，验算抓住写错的地方"
NEAR_BOUND = 0.5  # an error above this share of its bound is shown with 3 significant digits


def check_mark(center: np.ndarray, passed: bool) -> VMobject:
    """A drawn tick (passed) or cross (failed); no font glyph needed."""
    c = np.asarray(center, dtype=float)
    if passed:
        mark = VMobject(color=theme.HIGHLIGHT, stroke_width=7)
        mark.set_points_as_corners(
            [c + np.array([-0.2, 0.0, 0]), c + np.array([-0.05, -0.16, 0]), c + np.array([0.22, 0.2, 0])]
        )
        mark.kind = "tick"
        return mark
    cross = VGroup(
        Line(c + np.array([-0.18, -0.18, 0]), c + np.array([0.18, 0.18, 0]), color=theme.HIGHLIGHT, stroke_width=7),
        Line(c + np.array([-0.18, 0.18, 0]), c + np.array([0.18, -0.18, 0]), color=theme.HIGHLIGHT, stroke_width=7),
    )
    cross.kind = "cross"
    return cross


def shown_error(a: checks.Assertion) -> str:
    """The measured error as drawn: 2 significant digits, 3 when it comes near its bound."""
    return figures.fmt_sci(a.error, 3 if a.error > NEAR_BOUND * a.bound else 2)


def shown_eps(a: checks.Assertion) -> str:
    """The measured error in units of ε, as drawn, two significant digits: ``≈ 4.5 ε``, ``≈ 12 ε``."""
    v = a.error_in_eps
    return f"≈ {figures.fmt_fixed(v, 1) if round(v, 1) < 10 else figures.fmt_int(v)} ε"


def shown_eps_typst(a: checks.Assertion) -> str:
    """A huge error in units of ε as Typst math, two significant digits: ``approx 7.6 times 10^(15) epsilon``."""
    return f"approx {typst_sci(figures.fmt_sci(a.error_in_eps))} epsilon"


class AssertionsLive(NarratedScene):
    """intro (fixed inputs, ε and the bound, table head) → a1 … a5 (one row each: name, claim, measured error,
    in ε, mark) → bug (the row/column bug through the same check: an error of order 1, a cross) → verdict (five
    pass; a check is not a proof)."""

    SCENE_IDS = ("assertions_live",)
    CUES = ("intro", "a1", "a2", "a3", "a4", "a5", "bug", "verdict")

    def construct(self) -> None:
        results = checks.lesson_assertions()  # measured now, while the video renders
        header = self.header()
        fixed = theme.small_text("输入是固定的随机数：每次算，结果都一样", color=theme.TEXT)
        fixed.move_to(np.array([0.0, 2.75, 0.0]))
        bound_in_eps = figures.fmt_int(checks.BOUND_IN_EPS)
        unit = theme.typst_text(
            f"机器精度 $epsilon = {typst_sci(figures.fmt_sci(checks.EPS))}$（双精度浮点数）。"
            f"通过：偏差 $<= {bound_in_eps} epsilon = {typst_sci(figures.fmt_sci(checks.BOUND))}$",
            color=theme.TEXT,
            font_size=TYPST * theme.SIZE_SMALL,
        )
        unit.move_to(np.array([0.0, 2.3, 0.0]))
        heads = VGroup()
        for key, text in (
            ("key", "结论"),
            ("claim", "内容"),
            ("error", "实测偏差"),
            ("eps", "约合几个 ε"),
            ("mark", "通过"),
        ):
            t = theme.small_text(text, color=theme.MUTED)
            t.move_to(np.array([COLS[key], HEADER_Y, 0.0]))
            if key == "claim":
                t.align_to(np.array([COLS["claim"], 0, 0]), LEFT)
            heads.add(t)
        rule = Line(
            np.array([-6.6, HEADER_Y - 0.28, 0]), np.array([6.6, HEADER_Y - 0.28, 0]), color=theme.MUTED, stroke_width=2
        )
        self.probe(
            "intro", shown_unit=unit.typst_code, eps=checks.EPS, bound=checks.BOUND, heads=[h.text for h in heads]
        )

        with self.cue("intro") as cue:
            self.play(FadeIn(header), FadeIn(fixed), run_time=cue.share(0.3))
            self.play(FadeIn(heads), Create(rule), run_time=cue.share(0.3))
            self.play(FadeIn(unit), run_time=cue.share(0.3))
        self.bring_to_back(header, fixed, unit, heads, rule)

        rows = []
        focus = None
        for r, a in enumerate(results):
            y = ROW_Y0 - r * ROW_STEP
            key = theme.body_text(NAMES[a.key], color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL + 4).move_to(
                np.array([COLS["key"], y, 0])
            )
            claim = theme.typst_text(CLAIMS[a.key], color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL)
            claim.move_to(np.array([0.0, y, 0])).align_to(np.array([COLS["claim"], 0, 0]), LEFT)
            err = theme.formula(typst_sci(shown_error(a)), color=theme.TEXT, font_size=TYPST * (theme.SIZE_SMALL + 2))
            err.move_to(np.array([COLS["error"], y, 0]))
            eps = theme.small_text(shown_eps(a), color=theme.TEXT).move_to(np.array([COLS["eps"], y, 0]))
            mark = check_mark(np.array([COLS["mark"], y, 0]), a.passed)
            row = VGroup(key, claim, err, eps, mark)
            rows.append(row)
            box = SurroundingRectangle(row, color=theme.HIGHLIGHT, buff=0.08, stroke_width=3)
            with self.cue(a.key.lower()) as cue:
                self.probe(
                    "row",
                    key=a.key,
                    claim=a.claim,
                    error=a.error,
                    bound=a.bound,
                    passed=a.passed,
                    shown_key=key.text,
                    shown_error=err.typst_code,
                    shown_eps=eps.text,
                    mark=mark.kind,
                    error_in_eps=a.error_in_eps,
                )
                self.play(
                    FadeIn(key),
                    FadeIn(claim),
                    FadeIn(box) if focus is None else focus.animate.become(box),
                    run_time=cue.share(0.3),
                )
                if focus is None:
                    focus = box
                self.play(FadeIn(err, shift=0.15 * LEFT), FadeIn(eps), run_time=cue.share(0.3))
                self.play(Create(mark), run_time=min(cue.remaining(), cue.share(0.25)))
            self.settle(row)

        # -- bug: the row/column bug run through the same check: it fails ---------------------------------
        bug = checks.row_bug_assertion()
        cut = Line(
            np.array([-6.6, BUG_Y + 0.33, 0]), np.array([6.6, BUG_Y + 0.33, 0]), color=theme.MUTED, stroke_width=2
        )
        bug_row = VGroup(
            theme.body_text(BUG_NAME, color=theme.SCORE, font_size=theme.SIZE_SMALL + 4).move_to(
                np.array([COLS["key"], BUG_Y, 0])
            ),
            theme.typst_text(BUG_CLAIM, color=theme.TEXT, font_size=TYPST * theme.SIZE_SMALL)
            .move_to(np.array([0.0, BUG_Y, 0]))
            .align_to(np.array([COLS["claim"], 0, 0]), LEFT),
            theme.formula(
                figures.value("row_bug_err"), color=theme.SCORE, font_size=TYPST * (theme.SIZE_SMALL + 2)
            ).move_to(np.array([COLS["error"], BUG_Y, 0])),
            theme.formula(shown_eps_typst(bug), color=theme.SCORE, font_size=TYPST * theme.SIZE_SMALL).move_to(
                np.array([COLS["eps"], BUG_Y, 0])
            ),
            check_mark(np.array([COLS["mark"], BUG_Y, 0]), bug.passed),
        )
        bug_row[-1].set_color(theme.SCORE)
        self.probe(
            "bug",
            error=bug.error,
            bound=bug.bound,
            passed=bug.passed,
            shown_key=bug_row[0].text,
            shown_claim=bug_row[1].typst_code,
            shown_error=bug_row[2].typst_code,
            shown_eps=bug_row[3].typst_code,
            mark=bug_row[4].kind,
            error_in_eps=bug.error_in_eps,
        )
        with self.cue("bug") as cue:
            self.play(FadeOut(focus), Create(cut), FadeIn(bug_row[0]), FadeIn(bug_row[1]), run_time=cue.share(0.25))
            self.hold_frames(max(0, cue.start_frame + int(0.5 * cue.plan.speech_frames) - self.frame))
            self.play(FadeIn(bug_row[2], shift=0.15 * LEFT), FadeIn(bug_row[3]), run_time=cue.share(0.2))
            self.play(Create(bug_row[4]), run_time=min(cue.remaining(), cue.share(0.15)))
        self.settle(bug_row)

        # -- verdict: all five pass; a check is not a proof ----------------------------------------------------
        passed = sum(a.passed for a in results)
        # M4 (review 13): the ε column's range, as the voice says it (not one power of ten)
        in_eps = [a.error_in_eps for a in results if a.passed]
        verdict = theme.body_text(
            f"{passed} / {len(results)} 通过：偏差在 {min(in_eps):.0f} 到 {max(in_eps):.0f} 个 ε 之间，只是舍入误差",
            color=theme.HIGHLIGHT,
            font_size=theme.SIZE_SMALL + 4,
        )
        verdict.move_to(np.array([0.0, VERDICT_Y, 0.0]))
        not_proof = theme.body_text(NOT_PROOF, color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL + 4)
        not_proof.move_to(np.array([0.0, VERDICT_Y, 0.0]))
        self.probe("verdict", passed=passed, total=len(results), shown=verdict.text, not_proof=not_proof.text)
        with self.cue("verdict") as cue:
            self.play(FadeIn(verdict), run_time=cue.share(0.15))
            self.play(
                *[Indicate(row[4], color=theme.HIGHLIGHT, scale_factor=1.3) for row in rows],
                run_time=cue.share(0.2),
            )
            self.hold_frames(max(0, cue.start_frame + int(0.42 * cue.plan.speech_frames) - self.frame))
            self.swap(verdict, FadeIn(not_proof), run_time=cue.share(0.12))
