"""One scene, start to finish on this machine: its plan file, the silent Manim render (under a lock,
guarded against a killed run), the narration mixed meanwhile, the mux, and the scene cache, all under
the output file's course lock."""

from __future__ import annotations

import dataclasses
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path

from coursekit.core import stopping
from coursekit.core.atomic import replacing, write_text
from coursekit.core.config import DEFAULT_FONT, Config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.core.locks import course_lock, names, waiting_lock
from coursekit.core.media_tools import mux, video_frames
from coursekit.core.paths import shown
from coursekit.plan.model import ScenePlan, scene_plan_to_json
from coursekit.render import parked, pieces, preview_pieces
from coursekit.render.manim_process import CANNOT_CUT, run_manim
from coursekit.render.parked import PARKING
from coursekit.render.pieces import Piece
from coursekit.render.registry import find_scene_module
from coursekit.render.scene_cache import is_fresh, remember, scene_key
from coursekit.render.soundtrack import RemadeSounds, write_scene_narration
from coursekit.render.warm_manim import STARTER
from coursekit.subtitles.files import write_vtt


def _write_scene_plan(layout: MediaLayout, scene: ScenePlan) -> Path:
    path = layout.scene_plan(scene.id, scene.fps)
    text = scene_plan_to_json(scene)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        write_text(path, text)
    return path


def _forget_manim_cache(media_dir: Path) -> None:
    """Remove everything Manim cached for one scene: videos/, texts/, Tex/, images/ (any of them may be
    half-written when a render died)."""
    for left in media_dir.iterdir():
        if left.is_dir():
            shutil.rmtree(left, ignore_errors=True)


def render_silent(
    cfg: Config,
    layout: MediaLayout,
    scene: ScenePlan,
    quality: str,
    use_cache: bool = True,
    media_dir: Path | None = None,
    stats: dict | None = None,
    piece: Piece | None = None,
    warm: bool = False,
    nice: int = 0,
) -> Path:
    """Run Manim for one scene in a subprocess; return the silent MP4 (exactly scene.frames frames).

    ``piece``: render only that piece of the scene (``coursekit.render.pieces``), in its own Manim folder
    inside the scene's, with its own lock; the MP4 holds its frames.

    Each scene keeps its own Manim media folder, so Manim's per-animation cache
    survives between runs. Manim writes every partial movie straight to its final
    cache path and reuses any file found there (so does its Text/Tex SVG cache), so a
    render killed mid-write could leave a truncated segment or SVG that the next run
    would reuse. Guard: a marker file exists while Manim runs; if a run finds it (the
    last one died), everything Manim cached for that scene is discarded first; a render stopped by
    SIGTERM or Ctrl-C discards it at once. A lock keeps two renders of the same scene from writing at
    once; the second says that it waits. Manim dies with the thread that started it, even when this
    process is killed with SIGKILL.
    """
    module = find_scene_module(scene.cls)
    if module is None:
        raise UserError(
            f"scene '{scene.id}': no class {scene.cls} in the course's scenes/; write it or fix 'class' in the narration"
        )
    if media_dir is None and piece is not None:
        media_dir = piece_dir(layout, scene, piece.index)
    lock = layout.manim_lock(scene.id) if media_dir is None else f"{media_dir}.lock"
    media_dir = media_dir or layout.manim_dir(scene.id)
    media_dir.mkdir(parents=True, exist_ok=True)
    with waiting_lock(lock, f"another render of {scene.id}"):
        # the plan file is written under the lock: two renders of one scene from different plans
        # (another voice, another narration) must not read each other's
        plan_file = _write_scene_plan(layout, scene)
        marker = media_dir / ".render-in-progress"
        if marker.exists():
            _forget_manim_cache(media_dir)
        marker.touch()
        try:
            video = run_manim(
                scene,
                module,
                plan_file,
                quality,
                media_dir,
                cfg.render.worker_memory_gb,
                use_cache=use_cache,
                stats=stats,
                die_with_parent=True,
                piece=(piece.start, piece.end) if piece is not None else None,
                warm=warm,
                nice=nice,
            )
        except BaseException:
            if stopping.STOPPING.is_set():  # Manim was killed mid-write: leave nothing half-made behind
                _forget_manim_cache(media_dir)
                marker.unlink(missing_ok=True)
            raise
        marker.unlink()
        return video


def piece_dir(layout: MediaLayout, scene: ScenePlan, index: int) -> Path:
    """The Manim folder of a scene's ``index``-th piece: inside the scene's own, so it goes with it."""
    return layout.manim_dir(scene.id) / "pieces" / str(index)


#: ``submit(priority, fn)``: a Future of ``fn()`` run on the executor's render slots, the highest priority first
Submit = Callable[[int, Callable[[], Path]], Future]


def render_in_pieces(
    cfg: Config,
    layout: MediaLayout,
    scene: ScenePlan,
    quality: str,
    cut: list[Piece],
    submit: Submit,
    stats: dict | None = None,
) -> Path:
    """Render ``scene`` as the pieces ``cut``, each one Manim process run by ``submit`` (longest first),
    check the join (``pieces.join_problems``) and join them; return the silent MP4 (exactly scene.frames
    frames). A scene whose pieces do not join exactly, or that cannot be cut where ``cut`` says (a play
    across a cut), is rendered whole instead, and ``stats["pieces"]`` says why."""
    _write_scene_plan(layout, scene)  # once, before the pieces read it
    piece_stats = [dict() for _ in cut]
    futures = [
        submit(pieces.cost(p), partial(render_silent, cfg, layout, scene, quality, stats=piece_stats[p.index], piece=p))
        for p in cut
    ]
    videos: list[Path] = []
    error: BaseException | None = None
    for f in futures:
        try:
            videos.append(f.result())
        except (UserError, RuntimeError) as exc:
            if CANNOT_CUT not in str(exc) and "in its piece" not in str(exc):
                raise
            error = error or exc  # a play across a cut, a piece one frame off: the scene is rendered whole
    if stats is not None:
        stats.update(
            pieces=len(cut),
            manim_cpu_s=round(sum(st.get("manim_cpu_s", 0.0) for st in piece_stats), 3),
            peak_rss_mb=max((st.get("peak_rss_mb", 0.0) for st in piece_stats), default=0.0),
            piece_manim_s=[st.get("manim_s", 0.0) for st in piece_stats],
            piece_manim_cpu_s=[st.get("manim_cpu_s", 0.0) for st in piece_stats],
            piece_frames=[p.frames for p in cut],
        )
    problems = [str(error)] if error is not None else []
    if not problems:
        reports = [pieces.read_report(piece_dir(layout, scene, p.index) / "piece.json") for p in cut]
        problems = pieces.join_problems(scene, cut, reports, [video_frames(v) for v in videos])
    if problems:
        if stats is not None:
            stats["pieces"] = f"rendered whole: {problems[0]}"
        whole: dict = {}
        video = render_silent(cfg, layout, scene, quality, stats=whole)
        if stats is not None:
            stats["manim_cpu_s"] = round(stats.get("manim_cpu_s", 0.0) + whole.get("manim_cpu_s", 0.0), 3)
        return video
    return pieces.join(videos, layout.manim_dir(scene.id) / "pieces" / f"{scene.id}.mp4")


def _scene_subtitles(scene: ScenePlan, out: Path) -> Path:
    events = [e for c in scene.cues for e in c.subtitles]
    write_vtt(events, out)
    return out


_KEY_LOCK = threading.Lock()


def scene_cache_key(
    scene: ScenePlan, quality: str, subtitles: bool = False, font: str = DEFAULT_FONT
) -> tuple[Path | None, str]:
    """The scene's module and its scene-cache key (see coursekit.render.scene_cache); (None, "") without a module.
    Every executor uses this key, so a scene rendered by one is reused by the others.

    One key at a time: the key parses sources with ``ast.parse``, and CPython 3.11 can fail two parses
    running in threads at once ("SystemError: AST constructor recursion depth mismatch")."""
    module = find_scene_module(scene.cls)
    if module is None:
        return None, ""
    with _KEY_LOCK:
        return module, scene_key(scene, module, quality, extra=f"subtitles={subtitles}", font=font)


def _cached(
    cfg: Config, scene: ScenePlan, quality: str, subtitles: bool, out: Path, stats: dict | None
) -> tuple[Path | None, str, bool]:
    """The scene's module, its scene-cache key, and whether ``out`` was made with that key (``stats`` gets
    ``reused``)."""
    module, key = scene_cache_key(scene, quality, subtitles, cfg.course.font)
    reused = bool(module and is_fresh(out, key))
    if stats is not None:
        stats["reused"] = reused
    return module, key, reused


def render_while_mixing(scene: ScenePlan, narration_out: Path, render: Callable[[], Path]) -> tuple[Path, Path]:
    """``render()`` (which waits for a Manim process) while the scene's narration track is mixed into
    ``narration_out`` in a thread; returns (silent video, narration). Used locally and by scene jobs."""
    with ThreadPoolExecutor(max_workers=1) as side:
        mixing = side.submit(write_scene_narration, scene, narration_out)
        video = render()
        return video, mixing.result()


def deliver_scene(
    cfg: Config,
    layout: MediaLayout,
    scene: ScenePlan,
    quality: str,
    out: Path,
    subtitles: bool = False,
    stats: dict | None = None,
    guard: Callable[[], None] | None = None,
    cut: list[Piece] | None = None,
    submit: Submit | None = None,
) -> Path:
    """Render silent, mux narration (and soft subtitles), write ``out`` atomically.

    With ``cut`` (more than one piece) and ``submit``, the scene renders in those pieces
    (``render_in_pieces``); otherwise whole, by ``submit`` if given (so that an executor's renders,
    whole or in pieces, share its slots).

    One writer per output: the whole delivery holds ``out``'s course lock, so a second command making
    the same file waits, then finds it made. An unchanged scene (same scene-cache key, see
    coursekit.render.scene_cache) is not rendered again; ``stats`` (if given) gets ``reused`` and, after
    a render, ``peak_rss_mb``. ``guard()`` (a run's ``RunSources.check``) is called before the key is
    computed and again before ``out`` is replaced: a source edited meanwhile stops the job and ``out``
    is left as it was, so a scene cached under a key is always made from the sources of that key.
    """
    stopping.check()
    with course_lock(layout.root, names.output(layout.root, out), f"writing {shown(out)}"):
        if guard is not None:
            guard()
        module, key, reused = _cached(cfg, scene, quality, subtitles, out, stats)
        if reused:
            return out
        work = layout.scene_work(scene.fps)

        def render() -> Path:
            if submit is not None and cut is not None and len(cut) > 1:
                return render_in_pieces(cfg, layout, scene, quality, cut, submit, stats)
            if submit is not None:
                return submit(scene.frames, partial(render_silent, cfg, layout, scene, quality, stats=stats)).result()
            return render_silent(cfg, layout, scene, quality, stats=stats)

        video, audio = render_while_mixing(scene, work / f"{scene.id}.m4a", render)
        vtt = _scene_subtitles(scene, work / f"{scene.id}.vtt") if subtitles else None
        with replacing(out) as tmp:
            mux(video, audio, tmp, subtitles=vtt)
            if guard is not None:
                guard()
        remember(out, key)
        return out


def deliver_timed(
    cfg: Config,
    layout: MediaLayout,
    s: ScenePlan,
    quality: str,
    out: Path,
    guard: Callable[[], None] | None = None,
    cut: list[Piece] | None = None,
    submit: Submit | None = None,
) -> tuple[Path, dict]:
    """``deliver_scene`` with its wall time and the row the render log keeps."""
    stats: dict = {}
    t0 = time.perf_counter()
    path = deliver_scene(cfg, layout, s, quality, out, stats=stats, guard=guard, cut=cut, submit=submit)
    stats.update(
        scene=s.id,
        quality=quality,
        fps=s.fps,
        video_s=round(s.duration, 3),
        wall_s=round(time.perf_counter() - t0, 3),
        time=round(time.time(), 3),
    )
    return path, stats


#: how much lower the priority of a remade preview's stretches after its first (the edited cue's) is
LATER_STRETCH_NICE = 10


def deliver_remade(
    cfg: Config,
    layout: MediaLayout,
    scene: ScenePlan,
    quality: str,
    out: Path,
    provisional: Callable[[Path], None] | None = None,
    stats: dict | None = None,
    warm: bool = False,
) -> Path:
    """``deliver_scene`` with subtitles, for the studio: the silent video remade from the stretches the
    last preview left (``coursekit.render.preview_pieces``), only what an edit changed rendered again;
    ``provisional(out)`` is called once ``out`` holds a provisional preview (the edited cue with the old
    frames after it), before the remade one replaces it. ``stats`` gets ``reused`` and the remake's
    ``stretches`` (what was reused and rendered, or why the scene was rendered whole). ``warm``: for a
    process that renders again later (the studio): stretches run in Manim processes started beforehand, and
    new ones are started once this remake's renders are done (``coursekit.render.warm_manim``)."""
    stopping.check()
    with course_lock(layout.root, names.output(layout.root, out), f"writing {shown(out)}"):
        module, key, reused = _cached(cfg, scene, quality, True, out, stats)
        if reused:
            return out
        if module is None or not pieces.switched_on():
            return deliver_scene(cfg, layout, scene, quality, out, subtitles=True, stats=stats)
        work = layout.scene_work(scene.fps)
        _write_scene_plan(layout, scene)
        vtt = _scene_subtitles(scene, work / f"{scene.id}.vtt")

        times: dict[str, dict] = {}
        code = preview_pieces.code_key(scene, module, quality, cfg.course.font)
        sigs = preview_pieces.prefix_signatures(scene, code)
        if warm:
            PARKING.forget(scene.id, code, sigs)  # a process parked where this plan differs before it

        sounds = RemadeSounds(scene, work, quick=provisional is not None)

        def render_piece(p: Piece) -> tuple[Path, dict]:
            media = layout.manim_dir(scene.id) / "stretches" / str(p.index)
            times[f"{p.start}-{p.end}"] = took = {}
            waiting = PARKING.take(scene.id, p.start, code, sigs[p.start]) if warm else None
            try:  # a process already stepped to this stretch's start (``parked``)?
                drawn = parked.draw(waiting, scene, p.end, took) if waiting is not None else None
            finally:
                if p.index == 0:  # the edited cue (``preview_pieces.remake``)
                    sounds.drawn()
            if drawn is not None:
                took["parked"] = drawn if isinstance(drawn, str) else True
                if not isinstance(drawn, str):
                    return drawn
            # the edited cue first (the provisional preview waits for it), what follows on the cores it leaves
            nice = LATER_STRETCH_NICE if p.index else 0
            video = render_silent(
                cfg, layout, scene, quality, use_cache=False, media_dir=media, stats=took, piece=p, warm=warm, nice=nice
            )
            return video, pieces.read_report(media / "piece.json")

        def early(video: Path) -> None:
            with replacing(out) as tmp:
                mux(video, sounds.provisional(), tmp, subtitles=vtt)
            provisional(out)

        with sounds:
            store = preview_pieces.store_for(layout, scene)
            # one render of a scene at a time, whole or in stretches (the store is the scene's)
            with waiting_lock(layout.manim_lock(scene.id), f"another render of {scene.id}"):
                video, did = preview_pieces.remake(
                    scene, code, store, render_piece, work / f"{scene.id}.stretches.mp4", early if provisional else None
                )
            sounds.drawn()
            if video is None:
                video = render_silent(cfg, layout, scene, quality, stats=stats)
            audio = sounds.remade()
        if stats is not None:
            stats["stretches"] = {**dataclasses.asdict(did), "manim": times}
        with replacing(out) as tmp:
            mux(video, audio, tmp, subtitles=vtt)
        remember(out, key)
        if warm:  # for the next edit, now that this one's renders are done
            if did.edited is not None and not did.whole:  # most likely to the same cue: step to it now
                parked.park_at(layout, scene, quality, cfg.render.worker_memory_gb, module, code, sigs, did.edited[0])
            STARTER.refill()
        return out
