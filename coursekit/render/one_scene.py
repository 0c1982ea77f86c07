"""One scene, start to finish on this machine: its plan file, the silent Manim render (under a lock,
guarded against a killed run), the narration mixed meanwhile, the mux, and the scene cache, all under
the output file's course lock."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coursekit.core import stopping
from coursekit.core.atomic import replacing, write_text
from coursekit.core.config import DEFAULT_FONT, Config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.core.locks import course_lock, names, waiting_lock
from coursekit.core.media_tools import mux
from coursekit.core.paths import shown
from coursekit.plan.model import ScenePlan, scene_plan_to_json
from coursekit.render.manim_process import run_manim
from coursekit.render.registry import find_scene_module
from coursekit.render.scene_cache import is_fresh, remember, scene_key
from coursekit.render.soundtrack import write_scene_narration
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
) -> Path:
    """Run Manim for one scene in a subprocess; return the silent MP4 (exactly scene.frames frames).

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
            )
        except BaseException:
            if stopping.STOPPING.is_set():  # Manim was killed mid-write: leave nothing half-made behind
                _forget_manim_cache(media_dir)
                marker.unlink(missing_ok=True)
            raise
        marker.unlink()
        return video


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
) -> Path:
    """Render silent, mux narration (and soft subtitles), write ``out`` atomically.

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
        module, key = scene_cache_key(scene, quality, subtitles, cfg.course.font)
        reused = bool(module and is_fresh(out, key))
        if stats is not None:
            stats["reused"] = reused
        if reused:
            return out
        work = layout.scene_work(scene.fps)
        video, audio = render_while_mixing(
            scene, work / f"{scene.id}.m4a", lambda: render_silent(cfg, layout, scene, quality, stats=stats)
        )
        vtt = _scene_subtitles(scene, work / f"{scene.id}.vtt") if subtitles else None
        with replacing(out) as tmp:
            mux(video, audio, tmp, subtitles=vtt)
            if guard is not None:
                guard()
        remember(out, key)
        return out


def deliver_timed(
    cfg: Config, layout: MediaLayout, s: ScenePlan, quality: str, out: Path, guard: Callable[[], None] | None = None
) -> tuple[Path, dict]:
    """``deliver_scene`` with its wall time and the row the render log keeps."""
    stats: dict = {}
    t0 = time.perf_counter()
    path = deliver_scene(cfg, layout, s, quality, out, stats=stats, guard=guard)
    stats.update(
        scene=s.id,
        quality=quality,
        fps=s.fps,
        video_s=round(s.duration, 3),
        wall_s=round(time.perf_counter() - t0, 3),
        time=round(time.time(), 3),
    )
    return path, stats
