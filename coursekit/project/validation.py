"""The one validation pass: all of a command's input that can be checked before its first expensive step
(synthesis, Manim, ffmpeg) is checked then, by ``Project.validate(command)``, which ``check`` runs, which
``Project.prepare`` runs for every command that writes, and which the stages run themselves (``plans``,
``deliver``, ``serve``): the command line and the studio share it. A problem is one line (or one line
per problem, ``UserErrors``) and exit status 2, before anything is made.

The parts, each checked once per project until it is read again (``Project.reload``):

- ``narration``: the lessons to make (``Project.course``: the schema, ids that are plain names, bookmarks,
  each cue's text and spoken form with no stray brace and something to read aloud); at least one lesson;
  scene ids unique across the whole course, the lessons ``lessons:`` leaves out included; every figure a
  cue's text or spoken form names, known to the course and computed (one line each, ``file:line`` and cue);
- ``lexicon``: the course's lexicon, read and checked (``Project.lexicon``);
- ``scenes`` / ``drawn_scenes``: every scene fits the class that draws it (``require_fit``): every scene of
  the course (``check``), or every scene whose class is written (``course``: one not written yet is skipped);
- ``widgets``: the course page's widgets (``course_widgets``: each entry, its kind's files, its data), each
  placed in a lesson of the course and, if it names one, a scene of that lesson;
- ``voice``: the files the voice loads, checked against their pinned sha256 (``Voice.check_files``: kokoro's
  model), for the voice the config names, or for ``auto`` the offline one it falls back on;
- ``delivery``: the delivered course (``check_delivery``: the manifest's schema, every lesson's SRT and VTT).

The config was checked when the project was opened (``load_config``); the output folder's folders are checked
by ``Project.prepare`` (``coursekit.project.outputs``), before this.
"""

from __future__ import annotations

from collections.abc import Callable

from coursekit.content.narration import figure_problems, load_course
from coursekit.core import voice_registry
from coursekit.core.errors import UserError, UserErrors
from coursekit.core.paths import narration_dir, shown
from coursekit.deliver.manifest import check_delivery
from coursekit.deliver.widgets import course_widgets
from coursekit.project.base import ProjectBase
from coursekit.render.registry import find_scene_module
from coursekit.render.scene_contract import require_fit
from coursekit.speech.voices.auto import voice_class

_MAKE = ("narration", "lexicon", "voice")  # what every command that plans needs
#: the parts each command checks (module docstring); a command not named checks none
COMMANDS: dict[str, tuple[str, ...]] = {
    "check": ("narration", "lexicon", "widgets", "voice", "scenes"),
    "plan": _MAKE,
    "listen": _MAKE,
    "preview": _MAKE,
    "inspect": _MAKE,
    "render": _MAKE,
    "course": ("narration", "lexicon", "widgets", "voice", "drawn_scenes"),
    "studio": ("voice",),  # each build plans (``plans``: the rest), and shows a narration error as it edits
    "subtitles": ("narration",),
    "record": ("narration",),
    "export": ("delivery",),
    "serve": ("delivery",),
}


def narration(project: ProjectBase) -> None:
    cfg = project.config
    if not cfg.lessons:
        raise UserError(
            f"{shown(project.config_file)}: course.lessons names no lesson, so there is nothing to make; list the "
            "course's lessons there (narration/<id>.yaml holds each), or give --course the folder of a course"
        )
    course = project.course
    if set(cfg.lessons) != set(cfg.course.lessons):
        # scene ids are unique across the whole course, not only across the lessons ``lessons:`` makes: a
        # scene's files are named by its id alone (media/scenes/<quality>/<id>.mp4); load_course says so
        folder = narration_dir()
        load_course(
            [l for l in cfg.course.lessons if (folder / f"{l}.yaml").is_file()], folder, cfg.course.allowed_format
        )
    problems = figure_problems(course)
    if problems:
        raise UserErrors(problems)


def lexicon(project: ProjectBase) -> None:
    project.lexicon  # noqa: B018 - reading it checks it


def scenes(project: ProjectBase) -> None:
    require_fit(project.course)


def drawn_scenes(project: ProjectBase) -> None:
    course = project.course
    require_fit(course, [s.id for s in course.scenes.values() if find_scene_module(s.cls) is not None])


def widgets(project: ProjectBase) -> None:
    where = shown(narration_dir() / "page.py")
    lessons = {l.id: l for l in project.course.lessons}
    for n, widget in enumerate(course_widgets()):
        if widget.lesson not in project.config.course.lessons:
            raise UserError(
                f"{where}: WIDGETS[{n}]: lesson {widget.lesson!r} is not a lesson of the course (course.lessons: "
                f"{', '.join(project.config.course.lessons)}); name the lesson whose page shows it"
            )
        lesson = lessons.get(widget.lesson)
        if widget.scene is not None and lesson is not None and widget.scene not in {s.id for s in lesson.scenes}:
            raise UserError(
                f"{where}: WIDGETS[{n}]: scene {widget.scene!r} is not a scene of lesson {widget.lesson} "
                f"({', '.join(s.id for s in lesson.scenes)}); name the chapter's scene, or leave scene out"
            )


def voice(project: ProjectBase) -> None:
    cfg = project.config.voice
    name = cfg.backend
    if name == voice_registry.AUTO:  # the offline voice it would fall back on (the online one loads no file)
        offline = [s.name for s in voice_registry.auto_order() if not s.online]
        name = next((n for n in offline if voice_class(n).available(cfg)[0]), None)
    if name is not None:
        voice_class(name).check_files(cfg)


def delivery(project: ProjectBase) -> None:
    check_delivery(project.layout)


PARTS: dict[str, Callable[[ProjectBase], None]] = {
    f.__name__: f for f in (narration, lexicon, scenes, drawn_scenes, widgets, voice, delivery)
}


def validate(project: ProjectBase, command: str, done: set[str]) -> None:
    """Check the parts ``command`` needs (``COMMANDS``) that ``done`` does not hold yet, and add them to it."""
    for part in COMMANDS.get(command, ()):
        if part not in done:
            PARTS[part](project)
            done.add(part)
