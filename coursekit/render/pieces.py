"""A scene rendered in pieces: cut at cue starts, each piece rendered by its own Manim process, joined.

A piece is the frames ``start..end-1`` of a scene, ``start`` and ``end`` being cue starts (or 0 and the
scene's last frame). Its process runs ``construct`` from the beginning: every play before ``start`` is
stepped through frame by frame without drawing or encoding (``NarratedScene.play``: updaters get every
``dt`` a whole render gives them, ``renderer.time`` advances by whole frames), then it renders its own
plays and stops at ``end``. A cue's start is always the end of one play and the start of the next
(``NarratedScene.cue`` holds up to it), so the pieces' partial movies are the very ones a whole render
encodes, and their concatenation (``join``, a stream copy as Manim's own ``combine_files``) decodes to the
same frames.

What is checked (``join_problems``), before a joined video is kept:

- each piece holds exactly ``end - start`` frames (ffprobe), and the pieces tile the scene: no frame
  twice, none missing, at a cut;
- at each cut, the two frames beside it are drawn by both pieces (one of them written, the other drawn
  and not written: the earlier piece steps one frame into the next piece's first play) and must be the
  same pixels (sha256 of the RGBA array): the later piece reached the state the earlier one left, on the
  same frame. A construct that stepping cannot reproduce (anything that depends on
  frames being drawn) shows here; that scene is then rendered whole, and the render log says so.

Which scenes are cut (``cuts``): with ``slots`` renders at once, a scene at least 1.5 times the batch's
share per slot is cut into ``round(frames / share)`` pieces, at the cue starts nearest to equal lengths, each at
least ``MIN_PIECE_S`` long; so a scene rendered alone with ``--jobs 2`` becomes two pieces, a course of
many scenes on two cores keeps its scenes whole, and on a cluster with many workers long scenes are cut.

``COURSEKIT_PIECES=off`` (or ``0``, ``false``, ``no``) renders every scene whole. The joined video has the
frames of the whole render, so the scene cache does not tell the two apart. Measured in
``docs/performance.md``, "Pieces".
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

from coursekit.core.media_tools import mux
from coursekit.plan.model import ScenePlan
from coursekit.render.soundtrack import write_scene_narration

SWITCH_ENV = "COURSEKIT_PIECES"
OFF_VALUES = frozenset({"0", "off", "false", "no"})
#: no piece shorter than this (seconds of video): each piece pays a Manim start-up and the stepping
#: through the plays before it; MIN_PIECE_ENV sets another (the tests cut the mini course's short scenes)
MIN_PIECE_S = 20.0
MIN_PIECE_ENV = "COURSEKIT_PIECE_MIN_S"


def switched_on(environ: Any = os.environ) -> bool:
    """Whether the switch leaves pieces on (on unless set to one of OFF_VALUES)."""
    return environ.get(SWITCH_ENV, "").strip().lower() not in OFF_VALUES


@dataclass(frozen=True)
class Piece:
    """Frames ``start..end-1`` of scene ``scene``, the ``index``-th of ``count``."""

    scene: str
    index: int
    count: int
    start: int
    end: int

    @property
    def frames(self) -> int:
        return self.end - self.start

    @property
    def env(self) -> str:
        return f"{self.start}:{self.end}"


def cut_points(scene: ScenePlan) -> list[int]:
    """Where the scene may be cut: its cues' start frames, but the first frame."""
    return sorted({c.start_frame for c in scene.cues if 0 < c.start_frame < scene.frames})


def cut(scene: ScenePlan, n: int, min_frames: int = 1) -> list[Piece]:
    """The scene in at most ``n`` pieces, cut at the cue starts nearest to ``n`` equal lengths, no piece
    shorter than ``min_frames``."""
    points = cut_points(scene)
    chosen: list[int] = []
    for k in range(1, max(1, n)):
        target = scene.frames * k / n
        last = chosen[-1] if chosen else 0
        ok = [p for p in points if p - last >= min_frames and scene.frames - p >= min_frames]
        if not ok:
            break
        best = min(ok, key=lambda p: (abs(p - target), p))
        if best > last:
            chosen.append(best)
    bounds = [0, *chosen, scene.frames]
    return [Piece(scene.id, i, len(bounds) - 1, a, b) for i, (a, b) in enumerate(zip(bounds, bounds[1:]))]


def cuts(scenes: list[ScenePlan], slots: int, environ: Any = os.environ) -> dict[str, list[Piece]]:
    """Each scene's pieces for a batch rendered ``slots`` at a time (module docstring); one piece each
    when the switch is off or one render runs at a time."""
    total = sum(s.frames for s in scenes)
    least = float(environ.get(MIN_PIECE_ENV) or MIN_PIECE_S)
    out: dict[str, list[Piece]] = {}
    for s in scenes:
        n = max(1, round(s.frames / (total / slots))) if switched_on(environ) and slots > 1 and total else 1
        out[s.id] = cut(s, n, min_frames=max(1, math.ceil(least * s.fps)))
    return out


def cost(piece: Piece) -> int:
    """What a piece costs to render, for longest-first scheduling: its frames, and a hundredth of a frame
    for each frame stepped through before it (measured at 1080p60, ``docs/performance.md``, "Pieces":
    stepping through 4495 frames of an 84 s scene cost 1 to 2 CPU s, rendering a frame about 16.5 ms)."""
    return piece.frames + piece.start // 100


def join_problems(scene: ScenePlan, pieces: list[Piece], reports: list[dict], frames: list[int]) -> list[str]:
    """What is wrong with joining ``pieces`` of ``scene``, given each piece's report (``NarratedScene.
    piece_report``) and the frames its video holds (ffprobe): one line each, none if the join is exact."""
    problems: list[str] = []
    if not pieces or pieces[0].start != 0 or pieces[-1].end != scene.frames:
        problems.append(f"scene {scene.id}: the pieces do not span its frames 0..{scene.frames}")
    for a, b in zip(pieces, pieces[1:]):
        if a.end != b.start:
            problems.append(
                f"scene {scene.id}: piece {a.index} ends on frame {a.end}, piece {b.index} starts on {b.start}"
            )
    for p, r, n in zip(pieces, reports, frames):
        if (r.get("start"), r.get("end")) != (p.start, p.end):
            problems.append(
                f"scene {scene.id}: piece {p.index} rendered frames {r.get('start')}..{r.get('end')}, not {p.start}..{p.end}"
            )
        if n != p.frames:
            problems.append(
                f"scene {scene.id}: piece {p.index} ({p.start}..{p.end}) holds {n} frames, not {p.frames}: "
                f"{'a frame twice' if n > p.frames else 'a frame missing'} at a cut"
            )
    for (a, ra), (b, rb) in zip(zip(pieces, reports), list(zip(pieces, reports))[1:]):
        # frame b.start - 1 as both pieces drew it, then frame b.start: a piece that starts from another
        # state, or a frame early or late, draws one of them differently (unless the frames there are still)
        for frame, mine, theirs in ((b.start - 1, "last", "before"), (b.start, "after", "first")):
            if ra.get(mine) and rb.get(theirs) and ra[mine] != rb[theirs]:
                problems.append(
                    f"scene {scene.id}: at the cut on frame {b.start}, piece {a.index} and piece {b.index} "
                    f"drew frame {frame} differently"
                )
    return problems


def cut_slips(whole: list[str], joined: list[str], at: list[int], window: int = 8) -> list[str]:
    """Frames duplicated or dropped at the cuts ``at``, from per-frame digests of the whole render's decoded
    frames and of the joined video's: from the first frame beside a cut where the two differ, the joined
    frames must not be the whole render's a frame earlier (a frame twice) or later (a frame dropped). For
    the tests and the bench, which have a whole render to compare with."""
    problems = [f"{len(joined)} frames, the whole render has {len(whole)}"] if len(joined) != len(whole) else []
    for c in at:
        i = next(
            (i for i in range(max(0, c - 1), c + window) if i >= len(joined) or joined[i : i + 1] != whole[i : i + 1]),
            None,
        )
        if i is None:
            continue
        got = joined[i : i + window]
        if got and got == whole[i - 1 : i - 1 + len(got)]:
            problems.append(f"frame {i - 1} twice at the cut on frame {c}")
        elif got and got == whole[i + 1 : i + 1 + len(got)]:
            problems.append(f"frame {i} dropped at the cut on frame {c}")
        else:
            problems.append(f"frames after the cut on frame {c} differ from the whole render's")
    return problems


def read_report(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def join(videos: list[Path], out: Path) -> Path:
    """Concatenate the pieces' videos into ``out`` with the packets copied, as Manim's
    ``SceneFileWriter.combine_files`` joins a scene's partial movies (PyAV's concat demuxer, the dts
    left to libav)."""
    import av  # PyAV: only when pieces are joined

    manifest = "".join(f"file 'file:{Path(v).resolve().as_posix()}'\n" for v in videos).encode()
    out.parent.mkdir(parents=True, exist_ok=True)
    with av.open(BytesIO(manifest), options={"safe": "0", "an": "1"}, format="concat") as src:
        stream = src.streams.video[0]
        with av.open(str(out), mode="w") as dst:
            dst_stream = dst.add_stream_from_template(template=stream)
            for packet in src.demux(stream):
                if packet.dts is None:
                    continue
                packet.dts = None
                packet.stream = dst_stream
                dst.mux(packet)
    return out


def join_results(
    scene: ScenePlan, cut: list[Piece], results: list[dict], folder: Path, narration: Path, mine: dict[str, str]
) -> dict | None:
    """The pieces' results from Dask workers (``scene_job._render_piece``: each piece's MP4 bytes, sha256,
    report, frames, environment) joined in ``folder`` and muxed with the scene's narration, mixed into
    ``narration``: one scene result as a whole scene's job returns it (its environment the first of the
    pieces' that differs from ``mine``, this machine's), or None when they do not join exactly
    (``join_problems``)."""
    for r in results:
        if len(r["mp4"]) != r["size"] or hashlib.sha256(r["mp4"]).hexdigest() != r["sha256"]:
            return None
    if join_problems(scene, cut, [r["report"] for r in results], [r["frames"] for r in results]):
        return None
    folder.mkdir(parents=True, exist_ok=True)
    videos = [folder / f"received-{p.index}.mp4" for p in cut]
    for v, r in zip(videos, results):
        v.write_bytes(r["mp4"])
    video = join(videos, folder / f"{scene.id}.mp4")
    out = mux(video, write_scene_narration(scene, narration), folder / f"{scene.id}.muxed.mp4")
    data = out.read_bytes()
    for v in (*videos, video, out):
        v.unlink(missing_ok=True)
    return {
        "mp4": data,
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "environment": next((r["environment"] for r in results if r["environment"] != mine), mine),
        "key": results[0]["key"],
        "audio_sha256": sorted({c.audio_sha256 for c in scene.cues if c.audio_sha256}),
        "frames": sum(r["frames"] for r in results),
        "worker": ", ".join(dict.fromkeys(r["worker"] for r in results)),
        "peak_rss_mb": max(r["peak_rss_mb"] for r in results),
        "manim_s": round(sum(r["manim_s"] for r in results), 3),
        "manim_cpu_s": round(sum(r.get("manim_cpu_s", 0.0) for r in results), 3),
        "job_s": max(r.get("job_s", 0.0) for r in results),
        "pieces": len(cut),
    }
