"""One scene render as a self-contained job, for a worker on another machine (coursekit.render.executors.dask_cluster).

The client builds the job (``make_job``): the scene id, its plan slice as JSON, the quality, the
scene-cache key, the worker memory limit, the client's ``environment()``, and the narration audio
either as bytes keyed by their sha256 or, when ``render.shared_store`` is set, as hashes only, read
by the worker from ``<store>/audio/<sha256>.wav``.

The worker runs ``run_scene_job(job)``. It imports only this project, renders into its own temporary
folder with the very same Manim command as the local path (``manim_process.run_manim``), mixes and
muxes the planned narration as ``deliver_scene`` does, and returns the scene MP4 as bytes with a small
record: frames and duration (ffprobe), the MP4's sha256 and size, the scene-cache key and the narration
clips' hashes it was made from, the worker's ``environment()``, peak memory, and the Manim and whole
job times. The client verifies the record and writes the MP4 into media/ itself.

``environment()`` is what must be equal on the client and every worker, because any difference can
change pixels or samples: ``coursekit.render.fingerprint.render_environment()`` (the libraries, ffmpeg, the
font files by content, manim.cfg) and the project's own sources (a digest of every .py file in
the engine's and the course's Python packages).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import socket
import tempfile
import time
from pathlib import Path

from coursekit.core.atomic import write_bytes
from coursekit.core.config import DEFAULT_FONT
from coursekit.core.errors import UserError
from coursekit.core.media_tools import mux, probe, video_frames
from coursekit.core.paths import course_root, source_packages
from coursekit.core.sources import python_sources
from coursekit.plan.model import scene_plan_from_json, scene_plan_to_json
from coursekit.render.fingerprint import render_environment
from coursekit.render.manim_process import run_manim
from coursekit.render.one_scene import render_while_mixing
from coursekit.render.registry import find_scene_module

JOB_FORMAT = 1
_TMP_PREFIX = "coursekit-job-"


class SceneJobError(Exception):
    """A scene job failed on a worker; the message is one line and names the worker."""


# ---------------------------------------------------------------- versions


def _sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def project_digest() -> str:
    """sha256 over every .py file (path relative to its package's parent, and content) of the engine
    and the course (``coursekit.core.paths.source_packages``)."""
    h = hashlib.sha256()
    for pkg in source_packages():
        for f in python_sources([pkg]):
            h.update(f.relative_to(pkg.parent).as_posix().encode() + b"\0")
            h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


def environment(font: str = DEFAULT_FONT) -> dict[str, str]:
    """Everything that must match between the client and a worker (see the module docstring)."""
    return {**render_environment(font), "project sources": project_digest()[:16]}


def differences(mine: dict[str, str], theirs: dict[str, str]) -> list[str]:
    """``'<item>: <mine> here, <theirs> on the worker'`` for every item that differs."""
    return [
        f"{k}: {mine.get(k, 'absent')} here, {theirs.get(k, 'absent')} on the worker"
        for k in sorted(set(mine) | set(theirs))
        if mine.get(k) != theirs.get(k)
    ]


# ---------------------------------------------------------------- client side


def shared_audio_path(store: Path, sha: str) -> Path:
    return Path(store) / "audio" / f"{sha}.wav"


def publish_audio(scene, store: Path) -> None:
    """Copy the scene's narration clips into the shared store by content hash (skipped when present)."""

    for c in scene.cues:
        if not c.audio_sha256:
            continue
        dst = shared_audio_path(store, c.audio_sha256)
        src = course_root() / c.audio
        if dst.exists() and dst.stat().st_size == src.stat().st_size:
            continue
        data = src.read_bytes()
        if _sha256_bytes(data) != c.audio_sha256:
            raise UserError(f"scene '{scene.id}': narration clip {c.audio} changed since the plan was made; run again")
        write_bytes(dst, data)


def make_job(
    scene,
    quality: str,
    key: str,
    memory_gb: float,
    env: dict[str, str],
    store: Path | None,
    font: str = DEFAULT_FONT,
    piece: tuple[int, int] | None = None,
) -> dict:
    """The job for one scene (plain data: str, float, bytes, dicts), see the module docstring. With
    ``piece`` (start, end): only those frames, silent, without narration (``coursekit.render.pieces``);
    the client joins the pieces and mixes the narration."""

    audio: dict[str, bytes | None] = {}
    for c in scene.cues if piece is None else ():
        if not c.audio_sha256:
            continue
        if store is not None:
            audio[c.audio_sha256] = None
            continue
        data = (course_root() / c.audio).read_bytes()
        if _sha256_bytes(data) != c.audio_sha256:
            raise UserError(f"scene '{scene.id}': narration clip {c.audio} changed since the plan was made; run again")
        audio[c.audio_sha256] = data
    if store is not None and piece is None:
        publish_audio(scene, store)
    return {
        "piece": list(piece) if piece is not None else None,
        "format": JOB_FORMAT,
        "scene": scene.id,
        "plan": scene_plan_to_json(scene),
        "quality": quality,
        "key": key,
        "memory_gb": memory_gb,
        "environment": env,
        "audio": audio,
        "font": font,
        "store": str(store) if store is not None else None,
    }


# ---------------------------------------------------------------- worker side


def _worker_name() -> str:
    try:
        from distributed import get_worker  # Dask: only with the dask executor

        return get_worker().address
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}"


def _one_line(exc: BaseException) -> str:
    lines = [l.strip() for l in str(exc).splitlines() if l.strip()]
    text = lines[0] if len(lines) <= 1 else f"{lines[0]} … {lines[-1]}"
    text = f"{type(exc).__name__}: {text}" if not isinstance(exc, SceneJobError) else text
    return text if len(text) <= 400 else text[:397] + "..."


def _sweep_orphans() -> None:
    """Remove job folders left by worker processes that died mid-job (their pid is gone)."""
    base = Path(tempfile.gettempdir())
    for d in base.glob(f"{_TMP_PREFIX}*"):
        try:
            pid = int(d.name[len(_TMP_PREFIX) :].split("-", 1)[0])
        except ValueError:
            continue
        if pid != os.getpid() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(d, ignore_errors=True)


def _nanny_env() -> list[str]:
    """The variables the Dask nanny put into this worker's environment (``distributed.nanny.pre-spawn-
    environ``, MALLOC_TRIM_THRESHOLD_ and the BLAS thread counts by default): none reaches Manim, which
    runs in the environment a local render has (RENDER_ENV pinned, RENDER_ENV_UNSET removed)."""
    try:
        import dask  # Dask: only with the dask executor
        import distributed  # noqa: F401  (loads its config defaults, where pre-spawn-environ lives)
    except ImportError:
        return []
    return list(dask.config.get("distributed.nanny.pre-spawn-environ", None) or {})


def _materialise_audio(job: dict, folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for sha, data in job["audio"].items():
        if data is None:
            src = shared_audio_path(Path(job["store"]), sha)
            try:
                data = src.read_bytes()
            except OSError:
                raise SceneJobError(
                    f"narration clip {sha[:12]}… is not in the shared store at {src}; is "
                    f"render.shared_store mounted at the same path on every worker?"
                ) from None
        if _sha256_bytes(data) != sha:
            raise SceneJobError(f"narration clip {sha[:12]}… arrived damaged (its sha256 differs)")
        path = folder / f"{sha}.wav"
        path.write_bytes(data)
        paths[sha] = path
    return paths


def _render(job: dict, worker: str) -> dict:
    if job.get("format") != JOB_FORMAT:
        raise SceneJobError(f"job format {job.get('format')} is not {JOB_FORMAT}; install the same project version")
    mine = environment(job.get("font", DEFAULT_FONT))
    diff = differences(job["environment"], mine)
    if diff:
        raise SceneJobError(f"this worker does not match the client: {diff[0]}")
    scene = scene_plan_from_json(job["plan"])
    module = find_scene_module(scene.cls)
    if module is None:
        raise SceneJobError(f"no class {scene.cls} in the worker's scenes/")
    _sweep_orphans()
    if job.get("piece"):
        return _render_piece(job, scene, module, mine, worker)
    stats: dict = {}
    with tempfile.TemporaryDirectory(prefix=f"{_TMP_PREFIX}{os.getpid()}-{scene.id}-") as td:
        tmp = Path(td)
        plan_file = tmp / "plan.json"
        plan_file.write_text(job["plan"], encoding="utf-8")
        audio = _materialise_audio(job, tmp / "audio")
        local = dataclasses.replace(
            scene,
            cues=[
                dataclasses.replace(c, audio=str(audio[c.audio_sha256])) if c.audio_sha256 else c for c in scene.cues
            ],
        )
        t0 = time.perf_counter()
        video, narration = render_while_mixing(
            local,
            tmp / "narration.m4a",
            lambda: run_manim(
                scene,
                module,
                plan_file,
                job["quality"],
                tmp / "manim",
                job["memory_gb"],
                stats=stats,
                die_with_parent=True,
                unset_env=_nanny_env(),
            ),
        )
        manim_s = stats.get("manim_s", time.perf_counter() - t0)
        out = mux(video, narration, tmp / f"{scene.id}.mp4")
        data = out.read_bytes()
        info = probe(out)
    v = next(s for s in info["streams"] if s["codec_type"] == "video")
    return {
        "format": JOB_FORMAT,
        "scene": scene.id,
        "key": job["key"],
        "mp4": data,
        "size": len(data),
        "sha256": _sha256_bytes(data),
        "frames": int(v["nb_frames"]),
        "duration": float(v["duration"]),
        "audio_sha256": sorted(audio),
        "environment": mine,
        "worker": worker,
        "peak_rss_mb": round(stats.get("peak_rss_mb", 0.0), 1),
        "manim_s": round(manim_s, 3),
        "manim_cpu_s": stats.get("manim_cpu_s", 0.0),
    }


def _render_piece(job: dict, scene, module: Path, mine: dict[str, str], worker: str) -> dict:
    """One piece of a scene, silent: its MP4 and its report (``NarratedScene.piece_report``)."""
    start, end = job["piece"]
    stats: dict = {}
    with tempfile.TemporaryDirectory(prefix=f"{_TMP_PREFIX}{os.getpid()}-{scene.id}-{start}-") as td:
        tmp = Path(td)
        plan_file = tmp / "plan.json"
        plan_file.write_text(job["plan"], encoding="utf-8")
        media = tmp / "manim"
        media.mkdir()
        video = run_manim(
            scene,
            module,
            plan_file,
            job["quality"],
            media,
            job["memory_gb"],
            stats=stats,
            die_with_parent=True,
            unset_env=_nanny_env(),
            piece=(start, end),
        )
        data = video.read_bytes()
        report = json.loads((media / "piece.json").read_text(encoding="utf-8"))
        frames = video_frames(video)
    return {
        "format": JOB_FORMAT,
        "scene": scene.id,
        "piece": [start, end],
        "report": report,
        "key": job["key"],
        "mp4": data,
        "size": len(data),
        "sha256": _sha256_bytes(data),
        "frames": frames,
        "audio_sha256": [],
        "environment": mine,
        "worker": worker,
        "peak_rss_mb": round(stats.get("peak_rss_mb", 0.0), 1),
        "manim_s": stats.get("manim_s", 0.0),
        "manim_cpu_s": stats.get("manim_cpu_s", 0.0),
    }


def run_scene_job(job: dict) -> dict:
    """Render one scene on this machine and return its MP4 bytes with their record (see the module
    docstring). Any failure is raised as one ``SceneJobError`` line that names this worker."""
    t0 = time.perf_counter()
    worker = _worker_name()
    try:
        result = _render(job, worker)
    except SceneJobError as exc:
        raise SceneJobError(f"{exc} (on worker {worker})") from None
    except Exception as exc:  # noqa: BLE001 - reported to the client as one line
        raise SceneJobError(f"{_one_line(exc)} (on worker {worker})") from None
    result["job_s"] = round(time.perf_counter() - t0, 3)
    return result
