"""Static runs converted once: a stretch of identical frames is turned into the video's pixel format once.

Manim 0.22's segment encoder (``manim.scene.video_segment_encoder.VideoSegmentEncoder.write_frame``)
makes a new ``av.VideoFrame`` from the RGBA pixels (a copy) for every frame it writes, and PyAV converts
each to the stream's pixel format (yuv420p) before x264 sees it: a frozen ``wait`` of n frames
(``write_frame(pixels, repeat=n)``) copies and converts the same picture n times, and so does a play
whose frames do not change for a while (a hold inside an animation, an updater that changes nothing).

With this lever the encoder converts a frame once and sends that same converted frame again, each copy
with its own pts, for every repeat and for every following frame whose pixels equal it (checked exactly:
a sample of rows first, then every byte). Why that gives x264 the very same input (read in PyAV 18):

- ``VideoCodecContext._prepare_frames_for_encode`` sends a frame as it is when its pixel format and size
  are the codec's; otherwise it converts it with its own ``VideoReformatter`` and defaults (the frame's
  colourspace, unspecified range, bilinear flags, ``threads=`` the codec's ``thread_count``). The lever
  makes the same call, with the same arguments, on the opened codec context.
- ``avcodec_send_frame`` takes a reference to the frame (pts included, at the time of the call), and x264
  copies the picture into its own buffers; nothing writes into the frame's planes, so the object may be
  sent again with a new pts. ``_rebase_time`` changes only pts and time base, both set again each time.
- Manim hands each array over for good (``SceneFileWriter.write_frame``: "callers must not mutate or reuse
  it"; ``CairoRenderer.get_frame`` returns a copy), so the last array can be kept to compare with.

x264 is still called once per frame: the output keeps exactly its planned frame count, and encoding a
repeated picture is x264's own business (it finds the skip blocks).

``COURSEKIT_STATIC_RUNS=off`` (or ``0``, ``false``, ``no``) in a render's environment leaves Manim's
encoder as it is, to compare with the lever off. ``COURSEKIT_STATIC_RUNS_STATS=FILE`` makes each render
process append one JSON line of its counts to FILE when it exits (frames written, frames converted), what
``bench/run.py --phase static-runs`` reports. Measured in ``docs/performance.md``, "Static runs".
"""

from __future__ import annotations

import atexit
import json
import os
import threading
from fractions import Fraction
from typing import Any

import av
import numpy as np
from av.video.reformatter import VideoReformatter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

#: the switch: set to one of OFF_VALUES in a render's environment, Manim's encoder is left as it is
SWITCH_ENV = "COURSEKIT_STATIC_RUNS"
OFF_VALUES = frozenset({"0", "off", "false", "no"})
#: a file each render process appends its ``counts`` to (one JSON line) when it exits
STATS_ENV = "COURSEKIT_STATIC_RUNS_STATS"
#: rows compared first (every SAMPLE_STRIDE-th): most changed frames differ there, at an eighth of the cost
SAMPLE_STRIDE = 8

MANIMS_WRITE_FRAME = VideoSegmentEncoder.write_frame
#: frames written through the lever in this process, and how many of them were converted
counts = {"frames": 0, "converted": 0}
_counts_lock = threading.Lock()  # one encoder thread per segment, and segments overlap


def switched_on(environ: Any = os.environ) -> bool:
    """Whether the switch leaves the lever on (it is on unless set to one of OFF_VALUES)."""
    return environ.get(SWITCH_ENV, "").strip().lower() not in OFF_VALUES


def same_pixels(a: np.ndarray, b: np.ndarray) -> bool:
    """True if two frames of RGBA pixels are equal, byte for byte; a sample of rows is compared first."""
    if a is b:
        return True
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if not np.array_equal(a[::SAMPLE_STRIDE], b[::SAMPLE_STRIDE]):
        return False
    # a pixel as one uint32: a quarter of the comparisons of bytes (the arrays are C-contiguous RGBA)
    return bool(np.array_equal(a.view(np.uint32), b.view(np.uint32)))


def _converted(encoder: VideoSegmentEncoder, pixels: np.ndarray) -> av.VideoFrame:
    """``pixels`` as a frame the codec sends as it is, converted exactly as the codec would convert it."""
    ctx = encoder._stream.codec_context
    ctx.open(strict=False)  # what encode() does first; its thread_count is known once it is open
    if ctx.format.name == "rgba":  # nothing to convert: the codec gets its own copy, as before
        return av.VideoFrame.from_ndarray(pixels, format="rgba")
    # the conversion reads the pixels where they are (from_ndarray would copy them first)
    frame = av.VideoFrame.from_numpy_buffer(pixels, format="rgba")
    reformatter = getattr(encoder, "_static_reformatter", None)
    if reformatter is None:
        reformatter = encoder._static_reformatter = VideoReformatter()
    return reformatter.reformat(frame, ctx.width, ctx.height, ctx.format, threads=ctx.thread_count)


def write_frame(self: VideoSegmentEncoder, pixels: np.ndarray, *, repeat: int = 1) -> None:
    """``VideoSegmentEncoder.write_frame`` that converts a run of identical frames once."""
    self._validate_frame(pixels, repeat)
    time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
    try:
        last: tuple[np.ndarray, av.VideoFrame] | None = getattr(self, "_static_last", None)
        converted = last is None or not same_pixels(last[0], pixels)
        if converted:
            frame = _converted(self, pixels)
            self._static_last = (pixels, frame)
        else:
            frame = last[1]
        with _counts_lock:
            counts["frames"] += repeat
            counts["converted"] += converted
        for _ in range(repeat):
            frame.pts = self._next_pts
            frame.time_base = time_base
            self._next_pts += 1
            for packet in self._stream.encode(frame):
                self._container.mux(packet)
    except BaseException as error:
        raise self._operation_error("encode", error) from error


def install() -> None:
    """Put the lever into Manim's encoder (idempotent)."""
    VideoSegmentEncoder.write_frame = write_frame  # type: ignore[method-assign]


def uninstall() -> None:
    """Give Manim its own encoder back."""
    VideoSegmentEncoder.write_frame = MANIMS_WRITE_FRAME  # type: ignore[method-assign]


def installed() -> bool:
    return VideoSegmentEncoder.write_frame is write_frame


def _append_counts(path: str) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"pid": os.getpid(), **counts, "on": installed()}) + "\n")


def apply(environ: Any = os.environ) -> bool:
    """Install the lever unless the switch turns it off; return whether it is on. With STATS_ENV set, the
    process appends its counts to that file when it exits."""
    if path := environ.get(STATS_ENV):
        atexit.unregister(_append_counts)  # once per process, even if applied again
        atexit.register(_append_counts, path)
    if switched_on(environ):
        install()
        return True
    uninstall()
    return False
