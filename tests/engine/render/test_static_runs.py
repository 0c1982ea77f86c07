"""Static runs converted once (coursekit.render.static_runs): the same frames, as many, with fewer conversions."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from manim import RIGHT, Create, Rotate, Square, tempconfig
from manim._config.video_encoder import VideoEncoderSpec
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from coursekit.render import static_runs
from coursekit.render.narrated_scene import NarratedScene
from coursekit.render.testing import quiet_render, synthetic_plan

FPS = 15
#: a decoded frame that is not bit-exact must still be this close to the lever-off render's (x264 may decide
#: differently on other input); measured: the lever gives the very same frames
MIN_PSNR_DB = 45.0


class Holds(NarratedScene):
    """Every kind of still stretch: a frozen hold, a hold inside an animation, an updater that changes nothing."""

    def construct(self) -> None:
        sq = Square(side_length=1.5)
        with self.cue("a") as cue:
            self.play(Create(sq), run_time=cue.until("m"))
            self.hold_frames(7)  # nothing moves by itself: a frozen wait, one frame written 7 times
            # moves in the first half, then holds still for the rest of the play
            self.play(sq.animate.shift(RIGHT), rate_func=lambda t: min(1.0, 2 * t), run_time=cue.remaining())
        with self.cue("b") as cue:
            sq.add_updater(lambda m, dt: None)  # time-based, so the wait draws every frame: all the same
            self.wait(cue.share(0.5))
            sq.clear_updaters()
            self.play(Rotate(sq), run_time=cue.remaining())


def holds_plan():
    return synthetic_plan(
        "holds", "Holds", [("a", 30, 28, {"m": 8}), ("b", 24, 24, {})], fps=FPS, lead_in=2, gap=3, tail=6
    )


#: x264 on one thread: its output then depends on its input alone. Both renders of a comparison hand it
#: their frames the same way, so any difference in the video is a difference in what the lever sent (with
#: x264's own threads, a CI run once decoded frames 45+ dB alike but not bit-exact, where this machine
#: never did in 40 renders under load: the comparison should not rest on that)
ONE_THREAD = {"video_encoder_options": {"threads": "1"}}


def render(tmp: Path, writer=static_runs.write_frame) -> tuple[Path, dict[str, int]]:
    """Render Holds at 480p15 (x264 on one thread) with ``writer`` as the segment encoder's write_frame
    (None: Manim's own); the video and the lever's counts for it."""
    original = VideoSegmentEncoder.write_frame
    VideoSegmentEncoder.write_frame = writer or static_runs.MANIMS_WRITE_FRAME
    before = dict(static_runs.counts)
    try:
        with tempconfig({**quiet_render(tmp, FPS), **ONE_THREAD}):
            scene = Holds(plan=holds_plan())
            scene.render()
            movie = Path(scene.renderer.file_writer.movie_file_path)
    finally:
        VideoSegmentEncoder.write_frame = original
    return movie, {k: static_runs.counts[k] - before[k] for k in before}


def decoded(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as c:
        return [f.to_ndarray(format="yuv420p") for f in c.decode(video=0)]


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return float("inf") if mse == 0 else 10 * np.log10(255**2 / mse)


def differences(expected: Path, got: Path, planned: int, count_frames) -> list[str]:
    """What differs between a render with the lever and one without: frame counts, then frames."""
    problems = []
    for name, path in (("lever off", expected), ("lever on", got)):
        if (n := count_frames(path)) != planned:
            problems.append(f"{name}: {n} frames, the plan has {planned}")
    a, b = decoded(expected), decoded(got)
    for i, (x, y) in enumerate(zip(a, b)):
        if not np.array_equal(x, y) and (p := psnr(x, y)) < MIN_PSNR_DB:
            problems.append(f"frame {i}: PSNR {p:.1f} dB against the render without the lever")
    return problems


@pytest.fixture(scope="module")
def lever_off(tmp_path_factory) -> Path:
    return render(tmp_path_factory.mktemp("off"), writer=None)[0]


@pytest.mark.render
def test_the_lever_keeps_every_frame_and_converts_fewer(tmp_path, lever_off, count_frames):
    plan = holds_plan()
    movie, counts = render(tmp_path)
    assert differences(lever_off, movie, plan.frames, count_frames) == []
    # bit-exact, not merely close: the lever hands x264 the very same pictures
    assert all(np.array_equal(x, y) for x, y in zip(decoded(lever_off), decoded(movie)))
    assert counts["frames"] == plan.frames
    # the frozen holds (7 frames, the lead-in, the gap, the tail), the still half of a play and the
    # wait whose updater changes nothing are each converted once
    assert counts["converted"] < plan.frames - 20, counts


def _drops_one_repeat(self, pixels, *, repeat=1):
    """A broken lever: one frame short on every frozen wait."""
    static_runs.write_frame(self, pixels, repeat=repeat - 1 if repeat > 1 else repeat)


def _never_compares(self, pixels, *, repeat=1):
    """A broken lever: sends again whatever it converted last, changed or not."""
    last = getattr(self, "_static_last", None)
    if last is None:
        static_runs.write_frame(self, pixels, repeat=repeat)
        return
    frame = last[1]
    for _ in range(repeat):
        frame.pts, frame.time_base = self._next_pts, Fraction(1, FPS)
        self._next_pts += 1
        for packet in self._stream.encode(frame):
            self._container.mux(packet)


@pytest.mark.render
@pytest.mark.parametrize(
    "broken, found",
    [(_drops_one_repeat, "frames, the plan has"), (_never_compares, "PSNR")],
    ids=["drops-a-repeat", "never-compares"],
)
def test_the_check_catches_a_broken_lever(broken, found, tmp_path, lever_off, count_frames):
    plan = holds_plan()
    movie, _ = render(tmp_path, writer=broken)
    problems = differences(lever_off, movie, plan.frames, count_frames)
    assert any(found in p for p in problems), problems


def test_same_pixels_compares_every_byte():
    rng = np.random.default_rng(7)
    a = rng.integers(0, 256, (48, 64, 4), dtype=np.uint8)
    assert static_runs.same_pixels(a, a.copy())
    b = a.copy()
    b[static_runs.SAMPLE_STRIDE + 3, 17, 2] ^= 1  # one byte, in a row the sample skips
    assert not static_runs.same_pixels(a, b)
    c = a.copy()
    c[0, 0, 3] ^= 1  # alpha counts too
    assert not static_runs.same_pixels(a, c)


def test_the_switch_turns_the_lever_off():
    assert static_runs.switched_on({})
    assert static_runs.switched_on({static_runs.SWITCH_ENV: "on"})
    for off in ("0", "off", "OFF", "false", "no "):
        assert not static_runs.switched_on({static_runs.SWITCH_ENV: off})
    was = static_runs.installed()
    try:
        assert static_runs.apply({static_runs.SWITCH_ENV: "off"}) is False
        assert VideoSegmentEncoder.write_frame is not static_runs.write_frame
        assert static_runs.apply({}) is True
        assert VideoSegmentEncoder.write_frame is static_runs.write_frame
    finally:
        static_runs.install() if was else static_runs.uninstall()


# -- the encoder alone, lossless: one pixel of difference must reach the video ---------------------------

LOSSLESS = VideoEncoderSpec(
    container_format="mp4",
    codec="libx264",
    pixel_format="yuv420p",
    width=64,
    height=48,
    frame_rate=Fraction(FPS),
    options=(("qp", "0"), ("preset", "ultrafast"), ("threads", "1")),
)


def one_pixel_apart() -> list[tuple[np.ndarray, int]]:
    """(pixels, repeat) as Manim writes them: A, then B (A with one pixel changed, in a row the sample of
    rows skips), then A again (a new array) and once more A, frozen for 3 frames."""
    rng = np.random.default_rng(3)
    a = rng.integers(0, 256, (48, 64, 4), dtype=np.uint8)
    a[..., 3] = 255
    b = a.copy()
    b[static_runs.SAMPLE_STRIDE + 3, 17, :3] ^= 0xFF  # a different colour: its luma differs
    return [(a, 1), (b, 1), (a.copy(), 1), (a.copy(), 3)]


def encode(tmp: Path, writer) -> tuple[list[np.ndarray], dict[str, int]]:
    """The frames of ``one_pixel_apart`` through a lossless segment encoder whose write_frame is ``writer``;
    the decoded frames and the lever's counts for them."""
    before = dict(static_runs.counts)
    encoder = VideoSegmentEncoder(target=tmp / "seg.mp4", spec=LOSSLESS)
    for pixels, repeat in one_pixel_apart():
        writer(encoder, pixels, repeat=repeat)
    encoder.finish()
    return decoded(tmp / "seg.mp4"), {k: static_runs.counts[k] - before[k] for k in before}


def test_frames_one_pixel_apart_are_not_merged(tmp_path):
    (tmp_path / "off").mkdir(), (tmp_path / "on").mkdir()
    expected, _ = encode(tmp_path / "off", static_runs.MANIMS_WRITE_FRAME)
    got, counts = encode(tmp_path / "on", static_runs.write_frame)
    assert len(got) == len(expected) == 6
    assert not np.array_equal(expected[0], expected[1])  # lossless: the one pixel is in the video
    assert all(np.array_equal(x, y) for x, y in zip(expected, got))
    assert counts == {"frames": 6, "converted": 3}  # A, B, A; the last A (3 frames) is A's copy


def test_a_comparison_that_skips_rows_is_caught(tmp_path, monkeypatch):
    """The seeded case: a lever that compares only the sample of rows merges B into A, and the
    comparison with the lever-off encoder finds it."""
    (tmp_path / "off").mkdir(), (tmp_path / "on").mkdir()
    expected, _ = encode(tmp_path / "off", static_runs.MANIMS_WRITE_FRAME)
    monkeypatch.setattr(
        static_runs,
        "same_pixels",
        lambda a, b: np.array_equal(a[:: static_runs.SAMPLE_STRIDE], b[:: static_runs.SAMPLE_STRIDE]),
    )
    got, counts = encode(tmp_path / "on", static_runs.write_frame)
    assert counts["converted"] == 1
    assert [i for i, (x, y) in enumerate(zip(expected, got)) if not np.array_equal(x, y)] == [1]


def test_a_render_process_reads_the_switch_and_reports_its_counts(tmp_path):
    """What a Manim process does on importing the engine: the lever follows the environment (here: off,
    where the lever is on by default), and with STATS_ENV set the process appends its counts when it exits
    (what bench/run.py reads)."""
    import json
    import os
    import subprocess
    import sys

    stats = tmp_path / "counts.jsonl"
    env = {**os.environ, static_runs.SWITCH_ENV: "off", static_runs.STATS_ENV: str(stats)}
    code = "import coursekit.render.manim_tuning; from coursekit.render import static_runs as s; print(s.installed())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]
    (line,) = stats.read_text(encoding="utf-8").splitlines()
    assert json.loads(line) == {"pid": json.loads(line)["pid"], "frames": 0, "converted": 0, "on": False}
