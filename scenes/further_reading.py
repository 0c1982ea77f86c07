"""延伸阅读: the reading list, one entry per cue."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, FadeIn, RoundedRectangle, VGroup

from scenes import theme
from scenes.base import NarratedScene

# (tag, title, detail); the order is the order the narration names them
READING = (
    ("论文", "Attention Is All You Need（2017）", "Transformer 原论文"),
    ("论文", "RoFormer（2021）", "Enhanced Transformer with Rotary Position Embedding"),
    ("博客", "Transformer Architecture: The Positional Encoding", "想自己推一遍那排钟，读这篇"),
    ("博客", "Rotary Embeddings: A Relative Revolution", "EleutherAI：和第一课的转箭头对照着看"),
)
SECTION = "§3.5：那排钟的式子；查表的“分数差不多”也在这里"
TITLE_SIZE = theme.SIZE_BODY  # titles and details larger than a label: the list is read on a phone
DETAIL_SIZE = theme.SIZE_SMALL + 2
LEFT_X = -6.6
TEXT_X = -4.95
TOP_Y = 2.95  # the list spreads from here down to just above the subtitle band


class FurtherReading(NarratedScene):
    """paper → section (§3.5 under it) → roformer → blogs (two entries) → close."""

    SCENE_IDS = ("further_reading",)
    CUES = ("paper", "section", "roformer", "blogs", "close")

    def construct(self) -> None:
        header = self.header()
        entries = [self._entry(*item) for item in READING]
        section = theme.small_text(SECTION, color=theme.HIGHLIGHT, font_size=DETAIL_SIZE)
        # stack: entry 0 with its section line under it, entries 1..3; the gaps share the height left
        blocks = [VGroup(entries[0], section), *entries[1:]]
        section.next_to(entries[0], DOWN, buff=0.12).align_to(entries[0].text_block, LEFT)
        room = TOP_Y - (theme.safe_bottom() + 0.2) - sum(b.height for b in blocks)
        gap = min(0.7, room / (len(blocks) - 1))
        y = TOP_Y
        for block in blocks:
            block.shift(np.array([0.0, y - block.get_top()[1], 0.0]))
            y = block.get_bottom()[1] - gap
        self.probe("entries", titles=[e.title.text for e in entries], section=section.text)

        with self.cue("paper") as cue:
            self.play(FadeIn(header), run_time=cue.share(0.15))
            self.play(FadeIn(entries[0], shift=0.2 * RIGHT), run_time=cue.share(0.4))

        with self.cue("section") as cue:
            self.play(FadeIn(section, shift=0.15 * DOWN), run_time=cue.share(0.4))

        with self.cue("roformer") as cue:
            self.play(
                section.animate.set_color(theme.MUTED), FadeIn(entries[1], shift=0.2 * RIGHT), run_time=cue.share(0.5)
            )

        with self.cue("blogs") as cue:
            self.play(FadeIn(entries[2], shift=0.2 * RIGHT), run_time=cue.share(0.25))
            half = cue.start_frame + int(0.5 * (cue.speech_end_frame - cue.start_frame))
            self.hold_to(max(self.frame, half))
            self.play(FadeIn(entries[3], shift=0.2 * RIGHT), run_time=min(cue.share(0.25), cue.remaining()))

        with self.cue("close") as cue:
            # the list stays readable (it is the last picture); the heading says goodbye
            bye = theme.small_text("第二课完；下一课：旋转矩阵", color=theme.HIGHLIGHT)
            bye.to_corner(np.array([-1.0, 1.0, 0.0]), buff=theme.MARGIN)
            self.swap(header, FadeIn(bye, shift=0.3 * UP), run_time=cue.share(0.6))
            self.probe("final", shown=[e.title.text for e in entries])

    def _entry(self, tag: str, title: str, detail: str) -> VGroup:
        """A tag box on the left, the title and a muted detail line to its right."""
        label = theme.small_text(tag, color=theme.TEXT, font_size=DETAIL_SIZE)
        box = RoundedRectangle(
            corner_radius=0.1,
            width=label.width + 0.35,
            height=label.height + 0.25,
            stroke_color=theme.MUTED,
            stroke_width=2,
        )
        tag_mob = VGroup(box, label.move_to(box))
        title_mob = theme.body_text(title, color=theme.TEXT, font_size=TITLE_SIZE)
        detail_mob = theme.small_text(detail, color=theme.MUTED, font_size=DETAIL_SIZE)
        max_w = theme.content_right() - TEXT_X
        for m in (title_mob, detail_mob):
            if m.width > max_w:
                m.scale_to_fit_width(max_w)
        text_block = VGroup(title_mob, detail_mob).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        text_block.move_to(np.array([TEXT_X, 0.0, 0.0]), aligned_edge=LEFT)
        tag_mob.move_to(np.array([LEFT_X, 0.0, 0.0]), aligned_edge=LEFT).align_to(title_mob, UP)
        entry = VGroup(tag_mob, text_block)
        entry.title, entry.text_block = title_mob, text_block
        return entry
