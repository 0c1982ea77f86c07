"""五条断言，当场重算: A1–A5 recomputed by mathcore while the video renders, one table row per cue.

``checks.lesson_assertions()`` is called in ``construct`` (not a cached constant), so
every render measures the errors again; the document's own figure sits small beside each.
"""
from __future__ import annotations

import numpy as np
from manim import LEFT, Create, FadeIn, FadeOut, Indicate, Line, SurroundingRectangle, VGroup, VMobject

from coursekit import figures
from mathcore import checks
from scenes import theme
from scenes.base import NarratedScene

# what each assertion says, as the narration says it (the Assertion's own claim is ASCII)
CLAIMS = {
    "A1": "正交：RᵀR = I，det R = +1",
    "A2": "长度、内积保持不变",
    "A3": "复合 = 角度相加，一圈回原样",
    "A4": "M_k 把表针拨快 k 步",
    "A5": "Gram 表只依赖相对距离",
}
COLS = {"key": -6.3, "claim": -5.6, "error": 1.0, "bound": 3.4, "mark": 4.75, "doc": 5.85}
HEADER_Y = 1.75
ROW_Y0, ROW_STEP = 1.0, 0.66


def check_mark(center: np.ndarray, passed: bool) -> VMobject:
    """A drawn tick (passed) or cross (failed); no font glyph needed."""
    c = np.asarray(center, dtype=float)
    if passed:
        mark = VMobject(color=theme.POSITION, stroke_width=7)
        mark.set_points_as_corners([c + np.array([-0.2, 0.0, 0]), c + np.array([-0.05, -0.16, 0]),
                                    c + np.array([0.22, 0.2, 0])])
        mark.kind = "tick"
        return mark
    cross = VGroup(Line(c + np.array([-0.18, -0.18, 0]), c + np.array([0.18, 0.18, 0]), color=theme.SCORE, stroke_width=7),
                  Line(c + np.array([-0.18, 0.18, 0]), c + np.array([0.18, -0.18, 0]), color=theme.SCORE, stroke_width=7))
    cross.kind = "cross"
    return cross


class AssertionsLive(NarratedScene):
    """intro (seed, table head) → a1 … a5 (one row each: claim, measured error, bound, mark) → verdict."""

    SCENE_IDS = ("assertions_live",)
    CUES = ("intro", "a1", "a2", "a3", "a4", "a5", "verdict")

    def construct(self) -> None:
        results = checks.lesson_assertions()          # measured now, while the video renders
        header = self.header()
        seed = theme.small_text(f"只用 numpy · 随机种子 {checks.SEED} 固定 · 每次结果都一样", color=theme.TEXT)
        seed.move_to(np.array([0.0, 2.55, 0.0]))
        heads = VGroup()
        for key, text in (("key", "断言"), ("claim", "内容"), ("error", "实测偏差"), ("bound", "上限"), ("mark", "通过"),
                          ("doc", "文档值")):
            t = theme.small_text(text, color=theme.MUTED)
            t.move_to(np.array([COLS[key], HEADER_Y, 0.0]))
            if key == "claim":
                t.align_to(np.array([COLS["claim"], 0, 0]), LEFT)
            heads.add(t)
        rule = Line(np.array([-6.6, HEADER_Y - 0.3, 0]), np.array([6.6, HEADER_Y - 0.3, 0]), color=theme.MUTED, stroke_width=2)

        with self.cue("intro") as cue:
            self.play(FadeIn(header), FadeIn(seed), run_time=cue.share(0.4))
            self.play(FadeIn(heads), Create(rule), run_time=cue.share(0.4))
        self.bring_to_back(header, seed, heads, rule)

        rows = []
        focus = None
        for r, a in enumerate(results):
            y = ROW_Y0 - r * ROW_STEP
            key = theme.body_text(a.key, color=theme.HIGHLIGHT, font_size=theme.SIZE_SMALL + 4).move_to(np.array([COLS["key"], y, 0]))
            claim = theme.small_text(CLAIMS[a.key], color=theme.TEXT)
            claim.move_to(np.array([0.0, y, 0])).align_to(np.array([COLS["claim"], 0, 0]), LEFT)
            err = theme.body_text(figures.fmt_sci(a.error), color=theme.TEXT, font_size=theme.SIZE_SMALL + 2)
            err.move_to(np.array([COLS["error"], y, 0]))
            bound = theme.small_text(f"≤ {figures.fmt_sci(a.bound, 1)}", color=theme.MUTED).move_to(np.array([COLS["bound"], y, 0]))
            mark = check_mark(np.array([COLS["mark"], y, 0]), a.passed)
            doc = theme.small_text(figures.fmt_sci(a.document_error), color=theme.MUTED,
                                   font_size=theme.SIZE_SMALL - 4).move_to(np.array([COLS["doc"], y, 0]))
            row = VGroup(key, claim, err, bound, mark, doc)
            rows.append(row)
            box = SurroundingRectangle(row, color=theme.HIGHLIGHT, buff=0.1, stroke_width=3)
            with self.cue(a.key.lower()) as cue:
                self.probe("row", key=a.key, claim=a.claim, error=a.error, bound=a.bound, passed=a.passed,
                           document_error=a.document_error, shown_error=err.text, shown_bound=bound.text,
                           shown_doc=doc.text, mark=mark.kind)
                self.play(FadeIn(key), FadeIn(claim), FadeIn(box) if focus is None else focus.animate.become(box),
                          run_time=cue.share(0.3))
                if focus is None:
                    focus = box
                self.play(FadeIn(err, shift=0.15 * LEFT), FadeIn(bound), run_time=cue.share(0.3))
                self.play(Create(mark), FadeIn(doc), run_time=min(cue.remaining(), cue.share(0.25)))
            self.settle(row)

        # -- verdict: all pass ------------------------------------------------------------------------
        passed = sum(a.passed for a in results)
        verdict = theme.body_text(f"{passed} / {len(results)} 通过：都只是浮点舍入量级，当作零", color=theme.POSITION)
        verdict.move_to(np.array([0.0, -2.22, 0.0]))
        self.probe("verdict", passed=passed, total=len(results), shown=verdict.text)
        with self.cue("verdict") as cue:
            self.play(FadeOut(focus), FadeIn(verdict), run_time=cue.share(0.35))
            self.play(*[Indicate(row[4], color=theme.POSITION, scale_factor=1.3) for row in rows],
                      run_time=min(cue.remaining(), cue.share(0.4)))
