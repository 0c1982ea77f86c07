"""Seek-bar thumbnails of a lesson video, made at assembly from the finished mp4.

``write_thumbnails(video, folder, duration_s)`` writes two files beside the video:

- ``thumbnails.jpg``: one sprite sheet of small tiles (``TILE_WIDTH`` wide, the video's aspect ratio,
  ``COLUMNS`` to a row, in time order);
- ``thumbnails.vtt``: a WebVTT track with one cue per tile, its text ``thumbnails.jpg#xywh=X,Y,W,H``
  (the tile's place in the sprite); the cues follow each other without gaps from 0 to the video's end.
  The course page (``coursekit.deliver.page``) shows them over the progress bar when the track exists.

A tile is a keyframe: the first frame, then each next keyframe at least ``EVERY_S`` seconds after the
last one taken, and its cue starts at that frame's own time, so a tile is the picture at its cue's start.
A Manim scene's video has a keyframe at every animation (each is a partial movie of its own) and x264
adds one at least every 250 frames, so the keyframes are a second or two apart and the tiles a few
seconds more than ``EVERY_S`` (6.5 s on average in a 1080p60 lesson).

Only the frames taken are decoded: every packet of the video is read (PyAV, the library Manim encodes
with), and only the chosen keyframes go to the decoder, without deblocking (invisible at a twelfth of the
size), scaled by area averaging. On a 1080p60 lesson of 600 s (36,000 frames, 314 keyframes, 92 tiles)
that is 0.8 s, 3% of the lesson's assembly; ffmpeg decoding every frame (``fps=1/5,scale,tile``) took
110 s, four times the assembly, and every keyframe (``-skip_frame nokey``) 5 s, a fifth of it
(docs/performance.md, ``bench/thumbnails.py``). Both files are written under temporary names and renamed
(``coursekit.core.atomic``), the sprite first.
"""

from __future__ import annotations

from pathlib import Path

from coursekit.core.atomic import replacing, write_text

SPRITE = "thumbnails.jpg"  #: the sprite sheet, in the lesson's folder
TRACK = "thumbnails.vtt"  #: its WebVTT track, in the lesson's folder (the page looks for this name)
TILE_WIDTH = 160  #: a tile's width in pixels; its height keeps the video's aspect ratio (even)
COLUMNS = 10  #: tiles in a row of the sprite
EVERY_S = 5.0  #: a tile's frame is at least this many seconds after the previous tile's
JPEG_QUALITY = 80  #: the sprite's JPEG quality (PIL's scale, 1 to 95)


def _vtt_time(ms: int) -> str:
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def tile_size(width: int, height: int) -> tuple[int, int]:
    """A tile's (width, height) for a video of ``width`` × ``height``: ``TILE_WIDTH`` wide, as tall as the
    aspect ratio makes it, rounded to an even number."""
    return TILE_WIDTH, max(2, round(TILE_WIDTH * height / width / 2) * 2)


def track_text(starts_s: list[float], duration_s: float, columns: int, tile: tuple[int, int]) -> str:
    """The WebVTT track of tiles whose frames are at ``starts_s`` (in tile order): cue k from its frame's
    time (the first from 0) to the next tile's, the last to ``duration_s``; ``tile`` is (width, height)."""
    w, h = tile
    end_ms = round(duration_s * 1000)
    starts = [0] + [min(round(s * 1000), end_ms) for s in starts_s[1:]]
    cues = []
    for k, a in enumerate(starts):
        b = starts[k + 1] if k + 1 < len(starts) else end_ms
        x, y = k % columns * w, k // columns * h
        cues.append(f"{_vtt_time(a)} --> {_vtt_time(b)}\n{SPRITE}#xywh={x},{y},{w},{h}\n")
    return "WEBVTT\n\n" + "\n".join(cues)


def keyframe_tiles(video: Path, every_s: float = EVERY_S) -> tuple[list[float], list, tuple[int, int]]:
    """The tiles of ``video``: (each tile's frame time in seconds, its RGB pixels as an array, the tile
    size). The packets are read in order and only the keyframes taken are decoded (module docstring)."""
    import av  # PyAV: only assembly reads video packets; every command imports this module

    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        # every packet is read, none but the chosen keyframes decoded: the mp4 demuxer's own skipping of
        # non-key packets (AVDISCARD_NONKEY) leaves keyframes with wrong times (their composition offsets
        # lost), a frame or two off
        ctx = stream.codec_context
        ctx.thread_type = "NONE"  # a frame at a time: no decoding ahead of what is asked
        ctx.options = {"skip_loop_filter": "all"}  # no deblocking: invisible at a twelfth of the size
        size = tile_size(ctx.width, ctx.height)
        base = stream.time_base
        frames, last = [], None
        for packet in container.demux(stream):
            if (
                packet.is_keyframe
                and packet.pts is not None
                and (last is None or (packet.pts - last) * base >= every_s)
            ):
                last = packet.pts
                frames += ctx.decode(packet)
        frames += ctx.decode(None)  # what the decoder still holds
        tiles = sorted(
            (
                (
                    float(f.pts * base),
                    f.reformat(width=size[0], height=size[1], format="rgb24", interpolation="AREA").to_ndarray(),
                )
                for f in frames
                if f.pts is not None
            ),
            key=lambda t: t[0],
        )
    return [t for t, _ in tiles], [a for _, a in tiles], size


def write_thumbnails(video: Path, folder: Path, duration_s: float) -> tuple[Path, Path]:
    """The sprite and its track for ``video`` (``duration_s`` long) in ``folder`` (module docstring)."""
    import numpy as np  # only assembly composes a sprite
    from PIL import Image  # only assembly writes a JPEG

    times, pixels, (w, h) = keyframe_tiles(video)
    if not times:
        raise RuntimeError(f"seek-bar thumbnails of {Path(video).name}: no keyframe could be decoded")
    cols = min(COLUMNS, len(times))
    rows = -(-len(times) // cols)
    sheet = np.zeros((rows * h, cols * w, 3), np.uint8)
    for k, tile in enumerate(pixels):
        y, x = k // cols * h, k % cols * w
        sheet[y : y + h, x : x + w] = tile
    sprite, track = Path(folder) / SPRITE, Path(folder) / TRACK
    with replacing(sprite) as tmp:
        Image.fromarray(sheet).save(tmp, format="JPEG", quality=JPEG_QUALITY)
    write_text(track, track_text(times, duration_s, cols, (w, h)))
    return sprite, track
