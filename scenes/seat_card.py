"""把座位号写进向量: the seats of the sentence, which attention cannot see; x and p in two rows, added cell by cell
into one row of sums; then the three requirements on p, each with its formula (the third: one rule from p(n) to
p(n+1), whatever n)."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    CurvedArrow,
    FadeIn,
    FadeOut,
    Line,
    RoundedRectangle,
    VGroup,
)

from scenes import theme
from scenes.base import NarratedScene
from scenes.mobjects.seat_card import THREE_REQUIREMENTS, RequirementList, SeatCard
from scenes.mobjects.word_chips import WordChips

SENTENCE = ("小明", "把", "书", "借给", "小红")
HOPS = ((10, 11), (800, 801))  # the same "one seat to the right", near and far


class SeatNumberCard(NarratedScene):
    """idea → card (x and p in two framed rows; added, one row of sums) → req_unique → req_small →
    req_steady → takeaway."""

    SCENE_IDS = ("seat_card",)
    CUES = ("idea", "card", "req_unique", "req_small", "req_steady", "takeaway")
    BOOKMARKS = {"card": ("merge",)}

    def construct(self) -> None:
        header = self.header()

        # -- idea: attention only reads vectors; write the seat in before it -------------
        chips = WordChips(SENTENCE, center=np.array([-1.9, 1.2, 0.0]), spacing=1.55)
        seats = chips.seat_labels()
        attn = VGroup(
            RoundedRectangle(corner_radius=0.15, width=2.2, height=1.1, stroke_color=theme.MUTED),
            theme.body_text("注意力", color=theme.TEXT),
        )
        attn[1].move_to(attn[0])
        attn.move_to(np.array([5.0, 1.2, 0.0]))
        feed = Arrow(chips.get_right() + 0.1 * RIGHT, attn.get_left(), buff=0.1, color=theme.MUTED, stroke_width=4)
        only = theme.small_text("只收向量", color=theme.MUTED).next_to(attn, DOWN, buff=0.2)
        write = theme.body_text("座位也要藏进这行数里", color=theme.POSITION).move_to(np.array([0.0, -0.9, 0.0]))
        with self.cue("idea") as cue:
            self.play(FadeIn(header), FadeIn(chips), FadeIn(attn), Create(feed), run_time=cue.share(0.3))
            self.play(FadeIn(only), run_time=cue.share(0.15))
            self.play(FadeIn(seats, shift=0.2 * UP, lag_ratio=0.2), FadeIn(write), run_time=cue.remaining())
            self.probe("idea_seats", shown=[s.text for s in seats])

        # -- card: x and p in two framed rows, cell under cell (so as many cells); added, one row of sums ----------
        card = SeatCard(d=4, center=np.array([0.4, 0.6, 0.0]))
        sheets = VGroup(
            *[
                RoundedRectangle(
                    corner_radius=0.12,
                    width=cells.width + 0.3,
                    height=cells.height + 0.2,
                    stroke_color=color,
                    stroke_width=2,
                    fill_color=color,
                    fill_opacity=0.06,
                ).move_to(cells)
                for cells, color in ((card.x_cells, theme.TEXT), (card.p_cells, theme.POSITION))
            ]
        )
        card.frame.set_stroke(opacity=0)  # no card: the frame only appears around the merged row
        self.watch(
            "card",
            lambda: {
                **card.probe_values(),
                "on_screen": self.on_screen(card.merged_cells if card.merged else card.x_cells),
            },
        )
        one_row = theme.small_text("加完只剩一行数：分不出哪部分是词义、哪部分是座位", color=theme.TEXT)
        with self.cue("card") as cue:
            self.swap(
                VGroup(chips, seats, attn, feed, only, write),
                FadeIn(sheets[0]),
                FadeIn(card.x_cells),
                run_time=cue.share(0.1),
            )
            self.play(FadeIn(sheets[1]), FadeIn(card.p_cells, lag_ratio=0.15), run_time=cue.share(0.14))
            self.play(card.make_add_animation(), run_time=cue.share(0.22))
            self.play(FadeIn(card.row_labels), FadeIn(card.title), run_time=cue.share(0.12))
            self.hold_to(max(self.frame, cue.bookmark("merge")))
            mid_y = card.merged_cells.get_y()
            self.add(card.frame)
            self.play(
                *card.merge_animations(),
                *[sheet.animate.set_y(mid_y).set_opacity(0) for sheet in sheets],
                run_time=cue.share(0.14),
            )
            self.remove(*card.settle_merge(), sheets)
            one_row.next_to(card.merged_frame, DOWN, buff=0.35)
            self.play(FadeIn(one_row, shift=0.15 * UP), run_time=cue.remaining())

        # -- the three requirements, one per cue -------------------------------------------
        reqs = RequirementList(THREE_REQUIREMENTS)
        reqs.to_edge(LEFT, buff=0.6).set_y(0.35)
        panel = np.array([3.3, -0.9, 0.0])
        card_group = VGroup(card, card.title)
        with self.cue("req_unique") as cue:
            self.play(
                FadeOut(one_row),
                card_group.animate.scale(0.8).move_to(np.array([3.75, 2.15, 0.0])),
                run_time=cue.share(0.3),
            )
            unique = theme.formula("p(m) != p(n) quad (m != n)", color=theme.TEXT).move_to(panel)
            self.play(
                FadeIn(reqs.items[0], shift=0.2 * RIGHT), *reqs.focus_animations(0, shown=1), run_time=cue.share(0.3)
            )
            self.play(FadeIn(unique), run_time=cue.remaining())

        with self.cue("req_small") as cue:
            small = (
                VGroup(
                    theme.formula("|p| approx |x|", color=theme.TEXT), theme.small_text("同一个量级", color=theme.MUTED)
                )
                .arrange(DOWN, buff=0.2)
                .move_to(panel)
            )
            self.play(
                FadeOut(unique),
                FadeIn(reqs.items[1], shift=0.2 * RIGHT),
                *reqs.focus_animations(1, shown=2),
                run_time=cue.share(0.4),
            )
            self.play(FadeIn(small), run_time=cue.remaining())

        ruler = self._ruler(panel + 0.2 * DOWN + 0.4 * RIGHT)
        with self.cue("req_steady") as cue:
            self.play(
                FadeOut(small),
                FadeIn(reqs.items[2], shift=0.2 * RIGHT),
                *reqs.focus_animations(2, shown=3),
                run_time=cue.share(0.3),
            )
            self.play(FadeIn(ruler.marks), run_time=cue.share(0.2))
            self.play(Create(ruler.hops[0]), FadeIn(ruler.plus[0]), run_time=cue.share(0.2))
            self.play(Create(ruler.hops[1]), FadeIn(ruler.plus[1]), run_time=cue.remaining())
            self.probe(
                "hops",
                pairs=[list(h) for h in HOPS],
                shown=[[t.text for t in pair] for pair in ruler.numbers],
                hop_ends=[[h.get_start()[0], h.get_end()[0]] for h in ruler.hops],
                ticks=[[n.get_x() for n in pair] for pair in ruler.numbers],
            )

        # -- takeaway: a steady "one seat right"; test the candidates with the three rules ---
        with self.cue("takeaway") as cue:
            same = theme.body_text("每一步：同一条规则", color=theme.HIGHLIGHT).next_to(ruler, UP, buff=0.35)
            test = theme.body_text("接下来：用这三条检验候选方案", color=theme.TEXT).move_to(np.array([0.0, -2.1, 0.0]))
            self.play(
                ruler.hops.animate.set_color(theme.HIGHLIGHT),
                FadeIn(same),
                *reqs.focus_animations(-1),
                run_time=cue.share(0.45),
            )
            self.play(FadeIn(test, shift=0.2 * UP), run_time=cue.remaining())
            self.probe("final_layout", on_screen=True)

    def _ruler(self, center: np.ndarray) -> VGroup:
        """Seats 10, 11 … 800, 801 on a line; a hop from each seat to the next, labelled p(10) → p(11) and
        p(800) → p(801): two steps that requirement 3 asks to follow one rule, whatever the seat."""
        ruler = VGroup()
        ruler.marks, ruler.hops, ruler.plus, ruler.numbers = VGroup(), VGroup(), VGroup(), []
        xs = ((-2.0, -0.9), (0.9, 2.0))
        line = Line(center + 2.4 * LEFT, center + 2.4 * RIGHT, color=theme.MUTED, stroke_width=2)
        dots = theme.small_text("…", color=theme.MUTED).move_to(center + 0.3 * DOWN)
        ruler.marks.add(line, dots)
        for (a, b), (xa, xb) in zip(HOPS, xs):
            pa, pb = center + xa * RIGHT, center + xb * RIGHT
            nums = [
                theme.small_text(str(s), color=theme.POSITION).next_to(p, DOWN, buff=0.15)
                for s, p in ((a, pa), (b, pb))
            ]
            ticks = [Line(p + 0.1 * DOWN, p + 0.1 * UP, color=theme.POSITION, stroke_width=3) for p in (pa, pb)]
            ruler.marks.add(*ticks, *nums)
            ruler.numbers.append(nums)
            hop = CurvedArrow(pa + 0.15 * UP, pb + 0.15 * UP, angle=-np.pi / 2, color=theme.POSITION, stroke_width=4)
            ruler.hops.add(hop)
            ruler.plus.add(
                theme.formula(f"p({a}) -> p({b})", color=theme.TEXT, font_size=theme.SIZE_SMALL + 4).next_to(
                    hop, UP, buff=0.1
                )
            )
        ruler.add(ruler.marks, ruler.hops, ruler.plus)
        return ruler
