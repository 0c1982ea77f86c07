"""A scene rendered in pieces (coursekit.render.pieces): the joined video has the frames of the whole render."""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

import av
import numpy as np
import pytest
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    Dot,
    FadeIn,
    Line,
    Scene,
    Square,
    ValueTracker,
    always_redraw,
    tempconfig,
)

from coursekit.render import pieces
from coursekit.render.executors.local import RenderSlots
from coursekit.render.narrated_scene import NarratedScene, PieceCutError
from coursekit.render.testing import quiet_render, synthetic_plan
from tests.support.mini_runs import BEYOND_PLAN, copy_made, run

FPS = 15
#: a decoded frame that is not bit-exact must still be this close to the whole render's
MIN_PSNR_DB = 45.0


class Drift(NarratedScene):
    """What a cut can break: an updater that integrates ``dt`` (a square turning and sliding), two
    ``always_redraw`` mobjects that follow it and a ``ValueTracker``, tracker animations, an unfrozen wait
    (the updater runs), frozen holds (after the updater is removed)."""

    def construct(self) -> None:
        sq = Square(side_length=1.0).shift(2 * LEFT)
        t = ValueTracker(0.0)
        sq.add_updater(lambda m, dt: m.rotate(0.7 * dt).shift(0.05 * dt * RIGHT))
        dot = always_redraw(lambda: Dot(sq.get_center() + UP * (1 + t.get_value())))
        line = always_redraw(lambda: Line(3 * LEFT, 3 * LEFT + RIGHT * t.get_value()))
        self.add(sq, dot, line)
        with self.cue("a") as cue:
            self.play(t.animate.set_value(1.5), run_time=cue.until("m"))
            self.wait(cue.share(0.3))
            self.play(Create(Square(0.5).shift(2 * RIGHT)), run_time=cue.remaining())
        with self.cue("b") as cue:
            self.wait(cue.share(0.4))
            sq.clear_updaters()
            cue.hold()
        with self.cue("c") as cue:
            self.play(t.animate.set_value(-1), run_time=cue.remaining())
        with self.cue("d") as cue:
            self.play(FadeIn(Square(0.3).shift(2 * DOWN)), run_time=cue.until("m"))
            cue.hold()


def drift_plan():
    return synthetic_plan(
        "drift",
        "Drift",
        [("a", 30, 28, {"m": 8}), ("b", 24, 20, {}), ("c", 20, 18, {}), ("d", 26, 20, {"m": 9})],
        fps=FPS,
        lead_in=2,
        gap=3,
        tail=6,
    )


def render(tmp: Path, piece: tuple[int, int] | None = None) -> tuple[Path, dict | None]:
    """Drift at 480p15 in this process, whole or one piece; the video and the piece's report."""
    with tempconfig(quiet_render(tmp, FPS)):
        scene = Drift(plan=drift_plan(), piece=piece)
        scene.render()
        return Path(scene.renderer.file_writer.movie_file_path), scene.piece_report() if piece else None


def render_pieces(tmp: Path, cut: list[pieces.Piece], rendered=None) -> tuple[list[Path], list[dict]]:
    """Each piece of ``cut`` rendered (as ``rendered``, default: as cut); their videos and reports."""
    videos, reports = [], []
    for p, (start, end) in zip(cut, rendered or [(p.start, p.end) for p in cut]):
        video, report = render(tmp / f"piece{p.index}", piece=(start, end))
        videos.append(video)
        reports.append(report)
    return videos, reports


def decoded(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as c:
        return [f.to_ndarray(format="yuv420p") for f in c.decode(video=0)]


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return float("inf") if mse == 0 else 10 * np.log10(255**2 / mse)


def frame_differences(whole: Path, joined: Path) -> list[str]:
    """Where the joined video's frames differ from the whole render's (a count, then frame by frame)."""
    a, b = decoded(whole), decoded(joined)
    problems = [f"{len(b)} frames, the whole render has {len(a)}"] if len(a) != len(b) else []
    for i, (x, y) in enumerate(zip(a, b)):
        if not np.array_equal(x, y) and (p := psnr(x, y)) < MIN_PSNR_DB:
            problems.append(f"frame {i}: PSNR {p:.1f} dB against the whole render")
    return problems


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    return render(tmp_path_factory.mktemp("whole"))[0]


@pytest.fixture(scope="module")
def cut_at_every_cue(tmp_path_factory) -> tuple[list[pieces.Piece], list[Path], list[dict]]:
    """Drift cut at every cue's start, each piece rendered: the cut, the pieces' videos and reports."""
    plan = drift_plan()
    cut = pieces.cut(plan, len(plan.cues))
    return cut, *render_pieces(tmp_path_factory.mktemp("pieces"), cut)


def digests(video: Path) -> list[str]:
    return [hashlib.sha256(f.tobytes()).hexdigest() for f in decoded(video)]


@pytest.mark.render
def test_pieces_cut_at_every_cue_join_into_the_whole_render(tmp_path, whole, cut_at_every_cue, count_frames):
    plan = drift_plan()
    cut, videos, reports = cut_at_every_cue
    assert [p.start for p in cut[1:]] == [c.start_frame for c in plan.cues[1:]]  # a piece per cue
    assert pieces.join_problems(plan, cut, reports, [count_frames(v) for v in videos]) == []
    # the later piece reached the very pixels the earlier one left, at every cut, on both sides of it
    assert all(r["before"] and r["before"] == q["last"] for q, r in zip(reports, reports[1:]))
    assert all(r["first"] and r["first"] == q["after"] for q, r in zip(reports, reports[1:]))
    joined = pieces.join(videos, tmp_path / "joined.mp4")
    assert count_frames(joined) == count_frames(whole) == plan.frames
    assert frame_differences(whole, joined) == []
    assert pieces.cut_slips(digests(whole), digests(joined), [p.start for p in cut[1:]]) == []
    # bit-exact, not merely close: the pieces encode the very partial movies of the whole render
    assert all(np.array_equal(x, y) for x, y in zip(decoded(whole), decoded(joined)))


def test_cut_slips_names_a_frame_twice_or_dropped():
    """The seeded off-by-one cuts, on the frames' digests: the whole render's frames 0..19 cut at 8, joined
    with the first piece a frame too long, the second starting a frame early, or a frame late."""
    whole = [f"f{i}" for i in range(20)]
    assert pieces.cut_slips(whole, list(whole), [8]) == []
    assert pieces.cut_slips(whole, whole[:9] + whole[8:19], [8]) == ["frame 8 twice at the cut on frame 8"]
    assert pieces.cut_slips(whole, whole[:8] + whole[7:19], [8]) == ["frame 7 twice at the cut on frame 8"]
    assert pieces.cut_slips(whole, whole[:8] + whole[9:], [8]) == [
        "19 frames, the whole render has 20",
        "frame 8 dropped at the cut on frame 8",
    ]
    assert pieces.cut_slips(whole, whole[:8] + ["x"] + whole[9:], [8]) == [
        "frames after the cut on frame 8 differ from the whole render's"
    ]


@pytest.mark.render
@pytest.mark.parametrize("extra", [+1, -1], ids=["early", "late"])
def test_an_off_by_one_cut_is_caught(extra, tmp_path, whole, cut_at_every_cue, monkeypatch, count_frames):
    """The seeded case: the later piece miscounts the frames it steps over by one, so it reaches its cut a
    frame early or late while it believes it is on it (and the plays after it, timed from that count,
    run a frame short or long). The piece still holds its planned frames; the join check sees the frames
    beside the cut drawn differently, and against the whole render the frames after the cut differ."""
    step_over = NarratedScene._step_over

    def miscounts(self, n, pixels):
        if self._frame == 0 and self._step_frames == 0:
            self._step_frames += extra  # the first frame stepped over counted twice (or not at all)
        step_over(self, n, pixels)

    plan = drift_plan()
    cut, videos, reports = cut_at_every_cue
    monkeypatch.setattr(NarratedScene, "_step_over", miscounts)
    wrong_videos, wrong_reports = render_pieces(tmp_path, cut[2:3])  # the cut on frame 62
    videos, reports = [*videos[:2], *wrong_videos, videos[3]], [*reports[:2], *wrong_reports, reports[3]]
    assert [count_frames(v) for v in videos] == [p.frames for p in cut]
    problems = pieces.join_problems(plan, cut, reports, [count_frames(v) for v in videos])
    assert problems and all(
        f"cut on frame {cut[2].start}" in p or f"cut on frame {cut[3].start}" in p for p in problems
    )
    assert any(f"cut on frame {cut[2].start}, piece 1 and piece 2 drew frame" in p for p in problems), problems
    joined = pieces.join(videos, tmp_path / "joined.mp4")
    slips = pieces.cut_slips(digests(whole), digests(joined), [p.start for p in cut[1:]])
    assert f"frames after the cut on frame {cut[2].start} differ from the whole render's" in slips, slips


@pytest.mark.render
def test_manims_own_skipping_would_drift_and_the_check_sees_it(tmp_path, monkeypatch, cut_at_every_cue):
    """Why a piece steps through the plays before it: with Manim's own skipping (every frame of a skipped
    play at the play's end time, so the square's updater gets one ``dt`` of the whole play), the piece
    starts from another state than the pieces before it left, and the join check reports it."""

    class Jumps(list):
        def close(self) -> None:
            pass

    def jumping(self, run_time, description, n_iterations=None, override_skip_animations=False):
        """As Manim skips a play (every frame's time is the play's end), but as many frames as it has."""
        times = Scene.get_time_progression(self, run_time, description, n_iterations, True)
        return Jumps([run_time] * len(list(times))) if self._stepping else times

    plan = drift_plan()
    cut, videos, reports = cut_at_every_cue
    monkeypatch.setattr(NarratedScene, "get_time_progression", jumping)
    _, (jumped,) = render_pieces(tmp_path, cut[1:2])  # from frame 35: the square's updater ran before it
    problems = pieces.join_problems(plan, cut, [reports[0], jumped, *reports[2:]], [p.frames for p in cut])
    assert problems == [
        f"scene drift: at the cut on frame {cut[1].start}, piece 0 and piece 1 drew frame {f} differently"
        for f in (cut[1].start - 1, cut[1].start)
    ] + [
        f"scene drift: at the cut on frame {cut[2].start}, piece 1 and piece 2 drew frame {f} differently"
        for f in (cut[2].start - 1, cut[2].start)
    ]


@pytest.mark.render
def test_a_cut_inside_a_play_is_refused(tmp_path):
    plan = drift_plan()
    inside = plan.cues[0].start_frame + 4  # inside the tracker's play
    with pytest.raises(PieceCutError, match=f"cannot be cut at frame {inside}"):
        render(tmp_path, piece=(inside, plan.frames))


@pytest.mark.render
def test_the_mini_course_renders_in_pieces_with_the_frames_of_the_whole_render(tmp_path, made_mini, count_frames):
    """count_dots rendered alone with --jobs 2 (pieces of at least half a second): two pieces, joined, with
    the frames of the whole render ``course`` made; the render log says it was pieced."""
    course = copy_made(made_mini.course, tmp_path / "mini", without=BEYOND_PLAN)
    out = run(course, "render", "--scene", "count_dots", "--jobs", "2", COURSEKIT_PIECE_MIN_S="0.5")
    assert out.returncode == 0, out.stderr
    (row,) = [json.loads(line) for line in (course / "media" / "logs" / "render-low.jsonl").read_text().splitlines()]
    assert row["pieces"] == 2, row
    pieced = course / "media" / "scenes" / "low" / "count_dots.mp4"
    whole_render = made_mini.course / "media" / "scenes" / "low" / "count_dots.mp4"
    plan = json.loads((course / "media" / "plan" / "15fps" / "scenes" / "count_dots.json").read_text())
    assert count_frames(pieced) == count_frames(whole_render) == plan["frames"]
    assert frame_differences(whole_render, pieced) == []
    at = row["piece_frames"][0]
    assert at in [c["start_frame"] for c in plan["cues"]], row  # the cut is on a cue's start
    assert pieces.cut_slips(digests(whole_render), digests(pieced), [at]) == []


# -- which scenes are cut, and the order renders run in ---------------------------------------------------


def test_one_scene_on_two_slots_is_cut_in_two_at_a_cue_start():
    plan = drift_plan()
    (cut,) = pieces.cuts([plan], 2, environ={pieces.MIN_PIECE_ENV: "1"}).values()
    assert len(cut) == 2 and cut[1].start in [c.start_frame for c in plan.cues]
    assert (cut[0].start, cut[-1].end) == (0, plan.frames) and cut[0].end == cut[1].start
    # the cue start nearest half the scene
    assert cut[1].start == min(pieces.cut_points(plan), key=lambda f: abs(f - plan.frames / 2))


def test_no_piece_is_cut_shorter_than_the_least_length():
    plan = drift_plan()  # 117 frames, 7.8 s
    assert len(pieces.cuts([plan], 2, environ={}).get("drift")) == 1  # 20 s at least by default
    for cut in pieces.cuts([plan], 8, environ={pieces.MIN_PIECE_ENV: "2"}).values():
        assert all(p.frames >= 2 * FPS for p in cut), cut


def test_the_switch_and_one_slot_keep_scenes_whole():
    plan = drift_plan()
    low = {pieces.MIN_PIECE_ENV: "0.5"}
    assert len(pieces.cuts([plan], 2, environ={**low, pieces.SWITCH_ENV: "off"})["drift"]) == 1
    assert len(pieces.cuts([plan], 1, environ=low)["drift"]) == 1
    for off in ("0", "off", "OFF", "false", "no "):
        assert not pieces.switched_on({pieces.SWITCH_ENV: off})
    assert pieces.switched_on({})


def test_many_scenes_on_two_slots_stay_whole_and_one_long_scene_is_cut():
    short = [synthetic_plan(f"s{i}", "S", [("a", 600, 600, {}), ("b", 600, 600, {})]) for i in range(6)]
    long = synthetic_plan("long", "S", [(c, 600, 600, {}) for c in "abcdefgh"])  # 4800 frames of 12000
    cut = pieces.cuts([*short, long], 2, environ={})
    assert all(len(cut[s.id]) == 1 for s in short)
    assert len(cut["long"]) == 1  # 0.8 of a slot's share: whole
    cut = pieces.cuts([*short, long], 8, environ={})
    assert len(cut["long"]) == round(4800 / (12000 / 8)) == 3


def test_render_slots_run_the_longest_first():
    slots = RenderSlots(1)
    started = threading.Event()
    release = threading.Event()
    order: list[int] = []
    try:
        first = slots.submit(0, lambda: (started.set(), release.wait(5)))
        started.wait(5)  # the one slot is busy: what follows waits in the queue
        futures = [slots.submit(n, lambda n=n: order.append(n)) for n in (10, 300, 45, 300, 7)]
        release.set()
        first.result(5)
        for f in futures:
            f.result(5)
    finally:
        slots.shutdown()
    assert order == [300, 300, 45, 10, 7]
