"""What a project holds: the course root, the config, the one ``MediaLayout`` of its output folder, the
course and its lexicon (``ProjectBase``), and the preview's quality (``PREVIEW``).

``ProjectBase.open(course_dir, config_file, overrides)`` opens a course: it is the only place that sets
the course for this process and every process it starts (``use_course``: Manim, the viewer check's child
and local Dask workers read the course root from the environment). ``coursekit.project.project.Project``
adds the pipeline's stages; a command that runs none of them (``doctor``) opens this alone, without
loading the stages' modules.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from coursekit.content.narration import Course, load_course
from coursekit.core.config import QUALITIES, Config, load_config
from coursekit.core.errors import UserError
from coursekit.core.layout import MediaLayout
from coursekit.core.paths import course_root, use_course
from coursekit.zh.lexicon import Lexicon


class Quality(NamedTuple):
    quality: str  #: a key of ``coursekit.core.config.QUALITIES``
    fps: int


#: what ``render.py preview`` and the studio render, and what ``listen`` and ``inspect`` plan at: 480p15
PREVIEW = Quality("low", QUALITIES["low"][2])


def _say(line: str) -> None:
    print(line, flush=True)  # plain: rich would take a path or an address in brackets for markup


class ProjectBase:
    """One course opened (module docstring). ``say`` is where its lines go: which voice and why, a lock it
    waits for, a fallback (the studio prefixes them)."""

    def __init__(
        self,
        root: Path,
        config_file: Path | None = None,
        overrides: dict[str, object] | None = None,
        say: Callable[[str], None] = _say,
    ) -> None:
        self.root = Path(root)
        self._config_arg = config_file  # as given: a --config that names no file is one line
        #: the config file read (a run's sources and the studio's watched files include it)
        self.config_file = (Path(config_file) if config_file else self.root / "config.yaml").resolve()
        self.overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
        self.say = say
        self.reload()

    @classmethod
    def open(
        cls,
        course_dir: Path | None = None,
        config_file: Path | None = None,
        overrides: dict[str, object] | None = None,
        say: Callable[[str], None] = _say,
    ):
        """The course in ``course_dir`` (default: the course this process makes, ``course_root()``), made
        the course of this process and every process it starts; its config read from ``config_file``
        (default: the course's ``config.yaml``, which a ``course_dir`` must hold: one line if it does not) with
        ``overrides`` (``{"voice.backend": "espeak"}``; a None value is no override)."""
        if course_dir is not None and config_file is None and not (Path(course_dir) / "config.yaml").is_file():
            raise UserError(
                f"--course {course_dir}: no config.yaml in it, so no lessons to make; give the folder that holds "
                "the course's config.yaml and narration/ (render.py init DIR writes a new course)"
            )
        root = use_course(course_dir) if course_dir is not None else course_root()
        return cls(root, config_file, overrides, say)

    def reload(self):
        """Read the config again; the course and the lexicon are read again when next asked for."""
        self.config: Config = load_config(self._config_arg, **self.overrides)
        self.layout = MediaLayout.of(self.config)  #: the output folder's paths (``coursekit.core.layout``)
        self._course: Course | None = None
        self._lexicon: Lexicon | None = None
        self._validated: set[str] = set()  #: the parts of the validation pass checked since (``Project.validate``)
        return self

    @property
    def course(self) -> Course:
        """The course as its narration said when first asked for (since ``reload``)."""
        if self._course is None:
            self._course = load_course(self.config.lessons, allowed_format=self.config.course.allowed_format)
        return self._course

    @property
    def lexicon(self) -> Lexicon:
        """The course's lexicon as it was when first asked for (since ``reload``)."""
        if self._lexicon is None:
            self._lexicon = Lexicon.load()
        return self._lexicon

    def lessons(self, lesson: str | None = None) -> list[str]:
        """Every lesson's id in course order, or the one ``lesson`` names (an unknown one: one line)."""
        if lesson is None:
            return [l.id for l in self.course.lessons]
        return [self.course.lesson(lesson).id]
