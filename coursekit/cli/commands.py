"""What each render.py sub-command does. Thin: each delegates to one module.

Every command that writes under the output folder first checks the folders it writes
(``coursekit.cli.outputs.prepare``) and holds the course locks of what it writes while it writes it;
every command that builds scenes first checks that they fit their classes
(``coursekit.render.scene_contract``)."""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from coursekit.assemble.lesson_video import assemble_course
from coursekit.assemble.subtitle_files import write_course_subtitles
from coursekit.cli import doctor, outputs, preflight
from coursekit.cli.clean import clean
from coursekit.cli.watch import watch_and_rerun
from coursekit.content.glyphs import GLYPH_FIX, course_texts, font_cmap, missing_glyphs
from coursekit.content.narration import Course, load_course
from coursekit.core.config import QUALITIES, Config, load_config
from coursekit.core.errors import UserError, UserErrors
from coursekit.core.layout import MediaLayout
from coursekit.core.locks import course_lock, names
from coursekit.core.media_tools import extract_frame
from coursekit.core.paths import shown
from coursekit.core.sources import RunSources
from coursekit.deliver.export import export_course
from coursekit.deliver.page import read_manifest, write_page
from coursekit.deliver.serve import serve
from coursekit.plan.build import make_plans
from coursekit.plan.model import LessonPlan
from coursekit.render.batch import render_scenes
from coursekit.render.executors import open_executor
from coursekit.render.one_scene import deliver_scene
from coursekit.render.registry import find_scene_module, scene_class
from coursekit.render.scene_contract import building, require_fit
from coursekit.render.soundtrack import write_scene_narration
from coursekit.render.viewer_check import check_scene
from coursekit.speech import listening
from coursekit.speech.audio_cache import AudioCache
from coursekit.speech.voices.auto import falling_back, resolve_voice
from coursekit.studio.server import make_studio, run_studio
from coursekit.zh.lexicon import Lexicon

console = Console(highlight=False, soft_wrap=True)


def _course(cfg: Config) -> Course:
    return load_course(cfg.lessons, allowed_format=cfg.course.allowed_format)


def _lessons(course: Course, lesson: str | None) -> list[str]:
    if lesson is None:
        return [l.id for l in course.lessons]
    return [course.lesson(lesson).id]


def _speech_stack(cfg: Config, quiet: bool = False):
    """Voice (resolved, with its one-line reason), audio cache and lexicon."""

    preflight.for_audio()
    lexicon = Lexicon.load()  # once: the voice reads its pinyin from the same lexicon
    voice, reason = resolve_voice(cfg.voice, lexicon)
    if not quiet:
        console.print(reason)
    return voice, AudioCache(MediaLayout.of(cfg).audio_cache), lexicon


def cmd_check(cfg: Config, args: argparse.Namespace) -> int:
    """The config, the narration and the lexicon, each cue's text for both kinds of voice, and every
    scene against the class that draws it (``scene_contract``): all that a render needs, without one."""
    speech = getattr(args, "speech", False)
    if not speech and (getattr(args, "lesson", None) or getattr(args, "sample", None)):
        raise UserError("check: --lesson and --sample only apply to the listening check; add --speech")
    if speech:
        outputs.prepare(cfg, "check")
    course = _course(cfg)
    lessons = _lessons(course, args.lesson) if speech else []  # a misspelt lesson: before the slow checks
    n_cues = sum(len(scene.cues) for scene in course.scenes.values())
    _require_glyphs(cfg.course.font, course_texts(cfg.course.title, course, Lexicon.load()))
    require_fit(course)
    console.print(
        f"config, narration and scenes OK: {len(course.lessons)} lessons, {len(course.scenes)} scenes, {n_cues} cues"
    )
    if speech:
        return _check_speech(cfg, args, course, lessons)
    return 0


def _require_glyphs(font: str, texts: list[tuple[str, str]]) -> None:
    """Every character of the subtitles and titles has a glyph in the course font (``coursekit.content.glyphs``),
    else one line per character and place: the player would draw it from another font."""
    missing = missing_glyphs(texts, font_cmap(font))
    if missing:
        raise UserErrors([f"{m.line(font)}; {GLYPH_FIX}" for m in missing])


def _check_speech(cfg: Config, args: argparse.Namespace, course: Course, lessons: list[str]) -> int:
    """The listening check of ``lessons``: each cue's audio (synthesised or cached) transcribed offline
    and scored."""
    voice, cache, lexicon = _speech_stack(cfg)
    try:
        cues = listening.sample_cues(course, lessons, args.sample)
        t0 = time.perf_counter()
        listening.prefetch(course, cfg, cues, voice, cache, lexicon, say=console.print)
        items = listening.synthesise(cues, voice, cache, lexicon)
        synth_s = time.perf_counter() - t0
        recogniser = listening.Recogniser(
            cache_root=MediaLayout.of(cfg).transcripts, say=console.print, hotwords=cfg.course.listening_words
        )
        report = listening.check_items(items, recogniser, voice.describe())
        report.synth_s = synth_s
    finally:
        voice.close()
    console.print(listening.report_table(report))
    for line in listening.summary_lines(report, recogniser):
        console.print(line)
    return 1 if report.flagged else 0


def _plans(cfg: Config, fps: int, lesson: str | None = None, quiet: bool = False):
    """Plan the lessons, holding their plans' course locks while they are written. With voice ``auto``,
    if edge-tts gives up mid-way (after its retries), the whole plan is made again with the offline
    voice, and that is said (``auto.falling_back``)."""

    course = _course(cfg)
    lessons = _lessons(course, lesson)
    with outputs.plan_locks(cfg, fps, lessons, console.print):
        voice, cache, lexicon = _speech_stack(cfg, quiet)
        plans, _ = falling_back(
            cfg.voice,
            voice,
            lexicon,
            lambda v: make_plans(course, cfg, MediaLayout.of(cfg), fps, v, cache, lexicon, lessons),
            console.print,
        )
        return course, plans


def cmd_plan(cfg: Config, args: argparse.Namespace) -> int:
    outputs.prepare(cfg, "plan")
    fps = args.fps or cfg.video.frame_rate
    t0 = time.perf_counter()
    _, plans = _plans(cfg, fps, args.lesson)
    for lid, (plan, path) in plans.items():
        console.print(
            f"{lid}: {len(plan.scenes)} scenes, {plan.frames} frames = {plan.frames / fps:.1f} s at {fps} fps -> {path.relative_to(cfg.output_dir.parent)}"
        )
    console.print(f"planned in {time.perf_counter() - t0:.1f} s")
    return 0


def cmd_list(cfg: Config, args: argparse.Namespace) -> int:
    course = _course(cfg)
    fps = cfg.video.frame_rate
    table = Table(title=f"course ({fps} fps plan where it exists)")
    for col in ("lesson", "scene", "class", "cues", "duration"):
        table.add_column(col)
    for lesson in course.lessons:
        path = MediaLayout.of(cfg).lesson_plan(lesson.id, fps)
        plan = LessonPlan.read(path) if path.exists() else None
        for s in lesson.scenes:
            dur = "—"
            if plan is not None:
                try:
                    dur = f"{plan.scene(s.id).duration:.1f} s"
                except KeyError:
                    dur = "stale"
            table.add_row(lesson.id, s.id, s.cls, str(len(s.cues)), dur)
    console.print(table)
    return 0


def cmd_subtitles(cfg: Config, args: argparse.Namespace) -> int:
    course = _course(cfg)
    outputs.prepare(cfg, "subtitles", [MediaLayout.of(cfg).lesson_dir(l) for l in _lessons(course, args.lesson)])
    t0 = time.perf_counter()
    written = write_course_subtitles(cfg, MediaLayout.of(cfg), course, _lessons(course, args.lesson))
    for path in written:
        console.print(f"wrote {path.relative_to(cfg.output_dir.parent)}")
    console.print(f"subtitles written in {time.perf_counter() - t0:.2f} s")
    return 0


def cmd_listen(cfg: Config, args: argparse.Namespace) -> int:
    outputs.prepare(cfg, "listen")
    course = _course(cfg)
    scene = course.scene(args.scene)
    lesson = course.lesson_of(scene.id)
    fps = QUALITIES["low"][2]
    _, plans = _plans(cfg, fps, lesson.id)
    out = MediaLayout.of(cfg).preview_narration(scene.id)
    with course_lock(cfg.output_dir, names.output(cfg.output_dir, out), f"writing {shown(out)}", console.print):
        write_scene_narration(plans[lesson.id][0].scene(scene.id), out)
    console.print(f"narration of {scene.id}: {out}")
    return 0


def cmd_preview(cfg: Config, args: argparse.Namespace) -> int:
    outputs.prepare(cfg, "preview")
    preflight.for_render(cfg.course.font)

    course = _course(cfg)
    scene = course.scene(args.scene)
    lesson = course.lesson_of(scene.id)

    def once() -> None:
        t0 = time.perf_counter()
        require_fit(_course(cfg), [scene.id])
        _, plans = _plans(cfg, QUALITIES["low"][2], lesson.id)
        layout = MediaLayout.of(cfg)
        mp4 = layout.preview_video(scene.id)
        with course_lock(cfg.output_dir, names.output(cfg.output_dir, mp4), f"writing {shown(mp4)}"):
            deliver_scene(cfg, layout, plans[lesson.id][0].scene(scene.id), "low", mp4, subtitles=True)
            png = extract_frame(mp4, plans[lesson.id][0].scene(scene.id).frames - 1, layout.preview_frame(scene.id))
        console.print(f"preview {scene.id} in {time.perf_counter() - t0:.1f} s\n  video: {mp4}\n  last frame: {png}")

    once()
    if args.watch:
        watch_and_rerun(scene.id, once, cfg, getattr(args, "config", None))
    return 0


def cmd_inspect(cfg: Config, args: argparse.Namespace) -> int:
    """The viewer check (coursekit.render.viewer_check) of scenes, on the preview's plan (480p15 timing)."""

    outputs.prepare(cfg, "inspect")
    preflight.for_render(cfg.course.font)

    course = _course(cfg)
    wanted = [course.scene(s) for s in args.scene] if args.scene else list(course.scenes.values())
    require_fit(course, [s.id for s in wanted])
    fps = QUALITIES["low"][2]
    plans: dict[str, object] = {}
    found = 0
    for scene in wanted:
        lesson = course.lesson_of(scene.id)
        if lesson.id not in plans:
            plans[lesson.id] = _plans(cfg, fps, lesson.id, quiet=bool(plans))[1][lesson.id][0]
        plan = next(s for s in plans[lesson.id].scenes if s.id == scene.id)
        with building(scene.id, plan.cls):
            cls = scene_class(plan.cls)
            report = check_scene(cls, plan, cls.viewer_rules(), media_dir=MediaLayout.of(cfg).inspect)
        for line in report.lines():
            console.print(line)
        found += len(report.findings)
        console.print(
            f"{scene.id}: {len(report.findings) or 'no'} finding{'s' if len(report.findings) != 1 else ''} "
            f"after {report.steps} steps"
        )
    return 1 if found else 0


def _executor(cfg: Config):
    """Where scene jobs run (render.executor / --executor), opened before planning so that a missing or
    unreachable Dask scheduler, or a worker with other versions, is reported before any work."""

    return open_executor(cfg, MediaLayout.of(cfg))


def cmd_render(cfg: Config, args: argparse.Namespace) -> int:
    outputs.prepare(cfg, "render")
    preflight.for_render(cfg.course.font)

    sources = RunSources(getattr(args, "config", None))  # the version this run is made from
    course = _course(cfg)
    lesson_ids = _lessons(course, args.lesson)
    scene_ids = None
    if args.scene:
        scene = course.scene(args.scene)
        lesson_ids = [course.lesson_of(scene.id).id]
        scene_ids = [scene.id]
    require_fit(course, scene_ids or [s.id for l in lesson_ids for s in course.lesson(l).scenes])
    fps = cfg.video.frame_rate
    with _executor(cfg) as executor, outputs.plan_locks(cfg, fps, [l.id for l in course.lessons], console.print):
        _, plans = _plans(cfg, fps)
        results = render_scenes(
            cfg,
            MediaLayout.of(cfg),
            [plans[l][0] for l in lesson_ids],
            scene_ids,
            executor=executor,
            guard=sources.check,
        )
    for path in results:
        console.print(f"rendered {path.relative_to(cfg.output_dir.parent)}")
    return 0


def cmd_course(cfg: Config, args: argparse.Namespace) -> int:
    """Plan, render and assemble the whole course from one version of its sources: their digest is
    taken first, every scene job checks it (an edit saved meanwhile stops the run with one line, the
    finished scenes kept) and the manifest records it. The plans' locks are held for the whole run, the
    course files' lock while it assembles."""
    t0 = time.perf_counter()
    sources = RunSources(getattr(args, "config", None))
    course = _course(cfg)
    outputs.prepare(cfg, "course", [MediaLayout.of(cfg).lesson_dir(l.id) for l in course.lessons])
    preflight.for_render(cfg.course.font)
    # every drawn scene fits its class, checked (and its module imported) now, not after the last render
    require_fit(course, [s.id for s in course.scenes.values() if find_scene_module(s.cls) is not None])
    fps = cfg.video.frame_rate
    with _executor(cfg) as executor, outputs.plan_locks(cfg, fps, [l.id for l in course.lessons], console.print):
        course, plans = _plans(cfg, fps)
        lesson_plans = [plans[l.id][0] for l in course.lessons]
        render_scenes(
            cfg, MediaLayout.of(cfg), lesson_plans, None, only_existing=True, executor=executor, guard=sources.check
        )
        sources.check()
        with outputs.course_files_lock(cfg, console.print):
            made = assemble_course(cfg, MediaLayout.of(cfg), course, lesson_plans, sources=sources.record())
            course_dir = MediaLayout.of(cfg).course
            made.append(write_page(course_dir, read_manifest(course_dir)))
    console.print(
        f"course rendered in {time.perf_counter() - t0:.0f} s at {cfg.video.quality} from sources "
        f"{sources.digest[:12]}:"
    )
    for p in made:
        console.print(f"  {p.relative_to(cfg.output_dir.parent)}")
    return 0


def cmd_export(cfg: Config, args: argparse.Namespace) -> int:
    """The platform's files for each delivered lesson (``coursekit.deliver.export``), from the delivered
    course, under the course files' lock (a ``course`` or ``subtitles`` beside it waits, or it waits)."""
    outputs.prepare(cfg, "export")
    with outputs.course_files_lock(cfg, console.print):
        written = export_course(MediaLayout.of(cfg), args.platform, args.lesson)
    for path in written:
        console.print(f"wrote {path.relative_to(cfg.output_dir.parent)}")
    return 0


def cmd_serve(cfg: Config, args: argparse.Namespace) -> int:
    serve(MediaLayout.of(cfg).course, args.port)
    return 0


def cmd_studio(cfg: Config, args: argparse.Namespace) -> int:
    """The authoring studio (coursekit.studio); the config is read again before every build."""
    outputs.prepare(cfg, "studio")
    preflight.for_render(cfg.course.font)

    def say(line: str) -> None:  # plain lines: rich would take an address in brackets for markup
        print(line, flush=True)

    server = make_studio(
        lambda: load_config(args.config, **{"voice.backend": args.voice}),
        args.host,
        args.port,
        public=args.public,
        config_file=args.config,
        say=say,
    )
    run_studio(server, say)
    return 0


def cmd_doctor(cfg: Config, args: argparse.Namespace) -> int:
    """Everything a render needs on this machine (``coursekit.cli.doctor``): exit 1 if a check fails."""
    return doctor.run(cfg, console.print)


def cmd_clean(cfg: Config, args: argparse.Namespace) -> int:
    n, freed = clean(MediaLayout.of(cfg), _course(cfg))
    console.print(f"removed {n} stale cache items, freed {freed / 1e6:.1f} MB")
    return 0
