"""What each render.py sub-command does: check the machine (``preflight``) and the folders it writes
(``Project.prepare``), make one call to the project (``coursekit.project``), print what came of it.

The project holds the locks of what each stage writes while it writes it, and checks that the scenes it
builds fit their classes (``coursekit.render.scene_contract``) before it builds them."""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from coursekit.cli import doctor, preflight
from coursekit.cli.clean import clean
from coursekit.cli.watch import watch_and_rerun
from coursekit.core.errors import UserError
from coursekit.core.paths import shown
from coursekit.core.sources import RunSources
from coursekit.plan.model import LessonPlan
from coursekit.project.project import Project
from coursekit.speech import listening
from coursekit.studio.server import make_studio, run_studio

console = Console(highlight=False, soft_wrap=True)


def cmd_check(project: Project, args: argparse.Namespace) -> int:
    """The config, the narration and the lexicon, each cue's text for both kinds of voice, and every
    scene against the class that draws it: all that a render needs, without one. With ``--speech``, the
    listening check (``coursekit.speech.listening``)."""
    if not args.speech and (args.lesson or args.sample):
        raise UserError("check: --lesson and --sample only apply to the listening check; add --speech")
    if args.speech:
        project.prepare("check")
    course = project.course
    lessons = project.lessons(args.lesson) if args.speech else []  # a misspelt lesson: before the slow checks
    project.check()
    n_cues = sum(len(scene.cues) for scene in course.scenes.values())
    console.print(
        f"config, narration and scenes OK: {len(course.lessons)} lessons, {len(course.scenes)} scenes, {n_cues} cues"
    )
    if not args.speech:
        return 0
    preflight.for_audio()
    report, recogniser = project.listening_check(lessons, args.sample)
    console.print(listening.report_table(report))
    for line in listening.summary_lines(report, recogniser):
        console.print(line)
    return 1 if report.flagged else 0


def cmd_plan(project: Project, args: argparse.Namespace) -> int:
    project.prepare("plan")
    preflight.for_audio()
    fps = args.fps or project.config.video.frame_rate
    t0 = time.perf_counter()
    plans = project.plans(fps, project.lessons(args.lesson))
    for lid, (plan, path) in plans.items():
        console.print(
            f"{lid}: {len(plan.scenes)} scenes, {plan.frames} frames = {plan.frames / fps:.1f} s at {fps} fps "
            f"-> {_shown(project, path)}"
        )
    console.print(f"planned in {time.perf_counter() - t0:.1f} s")
    return 0


def _shown(project: Project, path) -> str:
    """A path under the output folder as the commands print it: from the course root."""
    return str(path.relative_to(project.layout.root.parent))


def cmd_list(project: Project, args: argparse.Namespace) -> int:
    fps = project.config.video.frame_rate
    table = Table(title=f"course ({fps} fps plan where it exists)")
    for col in ("lesson", "scene", "class", "cues", "duration"):
        table.add_column(col)
    for lesson in project.course.lessons:
        path = project.layout.lesson_plan(lesson.id, fps)
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


def cmd_subtitles(project: Project, args: argparse.Namespace) -> int:
    project.prepare("subtitles", [project.layout.lesson_dir(l) for l in project.lessons(args.lesson)])
    t0 = time.perf_counter()
    for path in project.subtitles(args.lesson):
        console.print(f"wrote {_shown(project, path)}")
    console.print(f"subtitles written in {time.perf_counter() - t0:.2f} s")
    return 0


def cmd_listen(project: Project, args: argparse.Namespace) -> int:
    project.prepare("listen")
    preflight.for_audio()
    out = project.listen(args.scene)
    console.print(f"narration of {args.scene}: {out}")
    return 0


def cmd_preview(project: Project, args: argparse.Namespace) -> int:
    project.prepare("preview")
    preflight.for_render(project.config.course.font)
    scene_id = project.course.scene(args.scene).id

    def once() -> None:
        t0 = time.perf_counter()
        mp4, png = project.preview(scene_id)
        console.print(f"preview {scene_id} in {time.perf_counter() - t0:.1f} s\n  video: {mp4}\n  last frame: {png}")

    once()
    if args.watch:
        watch_and_rerun(project, scene_id, once)
    return 0


def cmd_inspect(project: Project, args: argparse.Namespace) -> int:
    """The viewer check (coursekit.render.viewer_check) and the motion check (coursekit.render.motion) of
    scenes, on the preview's plan (480p15 timing)."""
    project.prepare("inspect")
    preflight.for_render(project.config.course.font)
    found = 0
    for scene_id, report in project.inspect(args.scene):
        for line in report.lines():
            console.print(line)
        found += len(report.findings)
        n = len(report.findings)
        console.print(f"{scene_id}: {n or 'no'} finding{'s' if n != 1 else ''} after {report.steps} steps")
    return 1 if found else 0


def cmd_render(project: Project, args: argparse.Namespace) -> int:
    project.prepare("render")
    preflight.for_render(project.config.course.font)
    sources = RunSources(project.config_file)  # the version this run is made from
    for path in project.render(args.lesson, args.scene, guard=sources.check):
        console.print(f"rendered {_shown(project, path)}")
    return 0


def cmd_course(project: Project, args: argparse.Namespace) -> int:
    """Plan, render and assemble the whole course from one version of its sources (``Project.deliver``)."""
    t0 = time.perf_counter()
    sources = RunSources(project.config_file)
    project.prepare("course", [project.layout.lesson_dir(l) for l in project.lessons()])
    preflight.for_render(project.config.course.font)
    made = project.deliver(sources)
    console.print(
        f"course rendered in {time.perf_counter() - t0:.0f} s at {project.config.video.quality} from sources "
        f"{sources.digest[:12]}:"
    )
    for p in made:
        console.print(f"  {_shown(project, p)}")
    return 0


def cmd_export(project: Project, args: argparse.Namespace) -> int:
    project.prepare("export")
    for path in project.export(args.platform, args.lesson):
        console.print(f"wrote {_shown(project, path)}")
    return 0


def cmd_serve(project: Project, args: argparse.Namespace) -> int:
    project.serve(args.port)
    return 0


def cmd_studio(project: Project, args: argparse.Namespace) -> int:
    """The authoring studio (coursekit.studio), on the project; the config is read again before every build."""
    project.prepare("studio")
    preflight.for_render(project.config.course.font)

    def say(line: str) -> None:  # plain lines: rich would take an address in brackets for markup
        print(line, flush=True)

    run_studio(make_studio(project, args.host, args.port, public=args.public, say=say), say)
    return 0


def cmd_doctor(project: Project, args: argparse.Namespace) -> int:
    """Everything a render needs on this machine (``coursekit.cli.doctor``): exit 1 if a check fails."""
    return doctor.run(project, console.print)


def cmd_clean(project: Project, args: argparse.Namespace) -> int:
    n, freed = clean(project.layout, project.course)
    console.print(f"removed {n} stale cache items, freed {freed / 1e6:.1f} MB")
    return 0


def cmd_record(project: Project, args: argparse.Namespace) -> int:
    """``record import``: a recording stored as the author's take of one cue (``Project.import_take``)."""
    take = project.import_take(args.lesson, args.cue, args.file, dict(args.mark))
    marks = "".join(f", {{@{n}}} at {t:.2f} s" for n, t in take.bookmarks.items())
    console.print(f"take of {take.cue}: {take.duration:.2f} s{marks} -> {shown(take.audio)}")
    return 0
