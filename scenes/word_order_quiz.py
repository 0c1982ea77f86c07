"""小测验：四道题: four questions, each read, then a visible thinking pause, then the answer.

The question on screen is the cue's own text (from the plan), the pause length is
the plan's (the ``pause:`` of each ``qN_think`` cue), and a :class:`Countdown`
shows the whole seconds left, reaching 0 exactly when the pause ends.
"""

from __future__ import annotations

import re

import numpy as np
from manim import DOWN, LEFT, UP, FadeIn, FadeOut, VGroup

from coursekit.zh.chars import CLAUSE_BREAKS, NO_LINE_START, SENTENCE_ENDS, cell_width
from narration import figures
from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects.countdown import Countdown

BREAK_AFTER = SENTENCE_ENDS | CLAUSE_BREAKS


def _cells(text: str) -> float:
    """Width in full-width cells (``cell_width``): a Chinese character or full-width mark is 1, Latin
    letters, digits and spaces are about half."""
    return sum(map(cell_width, text))


def wrap_cjk(text: str, width: int) -> list[str]:
    """Split ``text`` into lines of at most ``width`` full-width cells (Latin counts half), breaking after
    punctuation when possible; a line never starts with a closing mark (``，。？！：；、）》」』】”``, W3C clreq),
    which then hangs at the end of the line before.

    >>> wrap_cjk("一二三，四五六七", 5)
    ['一二三，', '四五六七']
    >>> wrap_cjk("RoPE 跟那种做法，有什么不同？", 8)
    ['RoPE 跟那种做法，', '有什么不同？']
    """
    lines: list[str] = []
    rest = text
    while _cells(rest) > width:
        fit = max(i for i in range(1, len(rest) + 1) if _cells(rest[:i]) <= width)
        cut = max((i + 1 for i, ch in enumerate(rest[:fit]) if ch in BREAK_AFTER), default=fit)
        if cut < fit // 2:
            cut = fit
        while cut < len(rest) and rest[cut] in NO_LINE_START:
            cut += 1
        lines.append(rest[:cut])
        rest = rest[cut:]
    if rest:
        lines.append(rest)
    return lines


SEAT = figures.QUIZ_SEAT  # answer 3 works out a pair the lesson does not show: seat 0 against seat 25


class Quiz(NarratedScene):
    """intro → (qN: the question → qN_think: countdown → qN_answer: the key points) × 4."""

    SCENE_IDS = ("word_order_quiz",)
    CUES = ("intro",) + tuple(f"q{n}{s}" for n in range(1, 5) for s in ("", "_think", "_answer"))
    #: the key points shown under each question (the narration says them in full)
    ANSWERS = {
        1: (
            "不变：两句里，小明拿到的结果相同",
            "小明那行分数还是那几个数，只换了位置",
            "分不出谁借给了谁",
        ),
        2: (
            f"“狗”更近：同在 3 号，猫和狗才差 {figures.value('raw_cat_dog_dist')}",
            f"两只猫反倒相距 {figures.value('raw_cat_drift')}",
            "远近几乎全由座位定",
        ),
        3: (
            f"只有钟 0：0 号和 {SEAT} 号几乎分不开",
            f"钟 0 转了好几圈，停在 {figures.value('quiz_clock0_deg')}°，离起点只差 {figures.value('quiz_clock0_short_deg')}°",
            f"钟 64 慢很多：才转到 {figures.value('quiz_clock64_deg')}°，一眼分开",
        ),
        4: (
            "RoPE：不变。q、k 算好了才转，k 多转 (n − m)θ",
            "分数只看 n − m：隔几个、谁在前",
            "加在 x 上：位置先乘上矩阵，换起点分数一般会变",
        ),
    }
    LEFT_X = -6.3
    WRAP = 22  # characters per question line at QUESTION_SIZE
    QUESTION_SIZE = theme.SIZE_BODY + 6  # large: the question is read on a phone while the clock runs
    ANSWER_SIZE = theme.SIZE_BODY + 2
    ANSWER_INDENT = 1.0  # the answer lines start right of the 答 tag
    CLOCK_CENTER = np.array([0.0, -0.75, 0.0])

    def construct(self) -> None:
        header = self.header()
        think = self.cue_plan("q1_think")
        pause_s = int(round((think.frames - think.speech_frames) / self.fps))

        # -- intro -------------------------------------------------------------------------
        title = theme.title_text(self.plan.title, color=theme.TEXT).move_to(np.array([0.0, 1.0, 0.0]))
        sub = theme.body_text(f"每题先停 {pause_s} 秒，自己想一想", color=theme.MUTED)
        sub.next_to(title, DOWN, buff=0.5)
        with self.cue("intro") as cue:
            self.play(FadeIn(header), FadeIn(title, shift=0.2 * UP), run_time=cue.share(0.4))
            self.play(FadeIn(sub), run_time=cue.remaining())
        previous = VGroup(title, sub)

        for n in range(1, 5):
            # -- qN: the question --------------------------------------------------------------
            question = self._question(n)
            with self.cue(f"q{n}") as cue:
                self.play(FadeOut(previous), run_time=cue.share(0.12))
                self.play(FadeIn(question[0]), run_time=cue.share(0.15))
                self.play(FadeIn(question[1], shift=0.1 * UP), run_time=cue.share(0.3))
                self.probe("question", n=n, shown="".join(l.text for l in question[1]))

            # -- qN_think: the countdown, reaching 0 on the cue's last frame + 1 ------------------
            beat = self.cue_plan(f"q{n}_think")
            seconds = int(round((beat.frames - beat.speech_frames) / self.fps))
            clock = Countdown(seconds, radius=0.85, center=self.CLOCK_CENTER)
            label = theme.body_text("想一想", color=theme.MUTED).next_to(clock, DOWN, buff=0.3)
            end = beat.end_frame
            clock.add_updater(lambda m, dt, end=end: m.set_frames_left(end - self.frame, self.fps))  # dt: every frame
            self.watch(
                f"countdown{n}",
                lambda clock=clock, end=end: {
                    **clock.probe_values(),
                    "end": end,
                    "seconds": clock.seconds,
                    "on_screen": self.on_screen(clock),
                },
            )
            with self.cue(f"q{n}_think") as cue:
                clock.set_frames_left(end - self.frame, self.fps)
                self.add(clock)  # no fade: a Transform would fight the updater over the digit
                self.play_frames(FadeIn(label), frames=max(1, min(4, cue.frames_remaining("cue") - 1)))
                self.hold_to(cue.end_frame)

            # -- qN_answer: the key points under the question ---------------------------------------
            answer = self._answer(n, below=question)
            with self.cue(f"q{n}_answer") as cue:
                clock.set_frames_left(end - self.frame, self.fps)  # 0: the pause is over
                clock.clear_updaters()
                self.play(FadeOut(clock), FadeOut(label), FadeIn(answer[0]), run_time=cue.share(0.12))
                for line in answer[1]:
                    self.play(FadeIn(line, shift=0.1 * UP), run_time=cue.share(0.66 / len(answer[1])))
            previous = VGroup(question, answer)

    # -- pieces -------------------------------------------------------------------------------
    def _question(self, n: int) -> VGroup:
        """``第 N 题`` and the cue's question text, wrapped, left-aligned under it."""
        text = re.sub(r"^第[一二三四五六七八九十]+题[：:]\s*", "", self.cue_plan(f"q{n}").text)
        tag = theme.body_text(f"第 {n} 题", color=theme.HIGHLIGHT, font_size=self.QUESTION_SIZE)
        tag.move_to(np.array([0.0, 2.95, 0.0])).align_to(np.array([self.LEFT_X, 0.0, 0.0]), LEFT)
        lines = VGroup(
            *[theme.body_text(l, color=theme.TEXT, font_size=self.QUESTION_SIZE) for l in wrap_cjk(text, self.WRAP)]
        )
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        lines.next_to(tag, DOWN, buff=0.25).align_to(tag, LEFT)
        return VGroup(tag, lines)

    def _answer(self, n: int, *, below: VGroup) -> VGroup:
        """``答`` at the left, the key points to its right, the first on the tag's line."""
        tag = theme.body_text("答", color=theme.HIGHLIGHT, font_size=self.ANSWER_SIZE)
        lines = VGroup(*[theme.body_text(p, color=theme.TEXT, font_size=self.ANSWER_SIZE) for p in self.ANSWERS[n]])
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.24)
        lines.next_to(below, DOWN, buff=0.5).align_to(np.array([self.LEFT_X + self.ANSWER_INDENT, 0.0, 0.0]), LEFT)
        tag.align_to(below, LEFT).match_y(lines[0])
        return VGroup(tag, lines)
