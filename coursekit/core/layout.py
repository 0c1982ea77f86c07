"""The output folder (``output`` in config.yaml, default ``media/``): every path under it, named once.

``MediaLayout(root)`` gives each path a name: a folder is a property (``layout.previews``), a file a
method (``layout.preview_video(scene)``), each entry one line of the class. Every module that writes or
reads under the output folder asks the layout; none joins a folder name onto the output folder itself
(``tests/engine/core/test_layout.py`` scans the engine's sources for that).

``ENTRIES`` lists everything that can be found there, one line each, with what ``render.py clean`` does
with it (``KEPT``, ``REMOVED``, or ``STALE``: removed when the lesson, scene or audio it belongs to is no
longer current). ``reference_table()`` prints the table in docs/settings.md, and ``clean_help()`` the
text of ``render.py clean --help``; a test keeps both equal to ``ENTRIES``, and after a full run of the
mini course and a studio run, finds nothing on disk that no entry names.

An entry's ``path`` is relative to the output folder: ``<name>`` is a part that varies (``<scene>`` a
scene id, ``<lesson>`` a lesson id, ``<fps>``, ``<quality>``, ``<key>`` a content hash, ``<name>`` any),
and a path ending in ``/`` is a folder with everything in it.
"""

from __future__ import annotations

import re
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from coursekit.core.paths import plain_name

KEPT = "kept"  #: clean never touches it
REMOVED = "removed"  #: clean removes it
STALE = "stale"  #: clean removes it when what it belongs to (``Entry.of``) is not current

#: what makes a STALE entry current, as clean's help and the docs say it
CURRENT = {
    "plan": "its lesson is in the course and it can be read",
    "lesson": "its lesson is in the course",
    "scene": "its scene is in the course",
    "audio": "a kept lesson plan uses it",
    "transcript": "its audio is used by a kept lesson plan",
    "writer": "the process writing it runs",
}

_FIELD = re.compile(r"<([a-z]+)>")
#: what a varying part may be, where it is not any name (``[^/]+?``)
_FIELD_RE = {"pid": r"\d+", "thread": r"\d+", "suffix": r"(?:\.[^./]+)?"}
_ANYWHERE = "**/"  #: an entry's path that starts so is found in any folder


@dataclass(frozen=True)
class Entry:
    """One kind of path under the output folder (module docstring)."""

    name: str  #: unique; the layout's method or property that makes it, where there is one
    path: str  #: relative to the output folder; ``<field>`` varies, a trailing ``/`` is a folder
    what: str  #: one line
    clean: str  #: KEPT | REMOVED | STALE
    of: str | None = None  #: for STALE: a key of ``CURRENT``

    @property
    def folder(self) -> bool:
        return self.path.endswith("/")

    @property
    def glob(self) -> str:
        """The entry's paths as a glob pattern relative to the output folder (a folder: the folder)."""
        return _FIELD.sub("*", self.path.rstrip("/"))

    def _regex(self) -> re.Pattern:
        parts, at = [], 0
        body = self.path.rstrip("/")
        if body.startswith(_ANYWHERE):
            parts, body = ["(?:.*/)?"], body[len(_ANYWHERE) :]
        for m in _FIELD.finditer(body):
            parts.append(re.escape(body[at : m.start()]))
            parts.append(f"(?P<{m.group(1)}>{_FIELD_RE.get(m.group(1), '[^/]+?')})")
            at = m.end()
        parts.append(re.escape(body[at:]))
        return re.compile("".join(parts) + ("(?P<_inside>/.*)?" if self.folder else ""))

    def fields(self, rel: str | PurePosixPath, is_dir: bool | None = None) -> dict[str, str] | None:
        """The varying parts of ``rel`` (a path relative to the output folder) if this entry names it,
        else None. A folder entry names the folder (unless ``is_dir`` is False) and everything in it."""
        m = self._regex().fullmatch(PurePosixPath(rel).as_posix())
        if m is None:
            return None
        got = m.groupdict()
        if self.folder and got.pop("_inside") is None and is_dir is False:
            return None
        return got

    def relative(self, **fields: str) -> str:
        """The entry's path with its varying parts filled in (a folder: the folder)."""
        return _FIELD.sub(lambda m: str(fields[m.group(1)]), self.path.rstrip("/"))

    @property
    def when_cleaned(self) -> str:
        """What clean does, in words."""
        if self.clean == STALE:
            return f"kept while {CURRENT[self.of or '']}, else removed"
        return self.clean


def _read_entries() -> tuple[Entry, ...]:
    with (Path(__file__).with_name("layout.toml")).open("rb") as f:
        return tuple(Entry(**row) for row in tomllib.load(f)["entry"])


#: every kind of path under the output folder, in the order docs/settings.md and clean --help list them
#: (the data: layout.toml beside this module)
ENTRIES: tuple[Entry, ...] = _read_entries()

BY_NAME: dict[str, Entry] = {e.name: e for e in ENTRIES}
#: the order ``entry_of`` tries them in: a temporary file is one wherever it is
_MATCH_ORDER = sorted(ENTRIES, key=lambda e: not e.path.startswith(_ANYWHERE))

#: the names the layout puts directly under the output folder (what no other module may join onto it)
TOP_FOLDERS: tuple[str, ...] = tuple(
    dict.fromkeys(PurePosixPath(e.path).parts[0] for e in ENTRIES if not e.path.startswith(_ANYWHERE))
)


class _EntryPath:
    """The layout's attribute for one entry of ENTRIES, named as the entry (``preview_video = _EntryPath()``
    in ``MediaLayout``; a name that is no entry fails when the class is made): a path for an entry without
    varying parts (``layout.manifest``), else a call that takes them innermost first, the file's own name
    before the folders it is in (``layout.scene_video("intro", "high")`` for
    ``scenes/<quality>/<scene>.mp4``), or by name (``layout.lesson_plan(lesson="x", fps=15)``)."""

    def __set_name__(self, owner: type, name: str) -> None:
        if name not in BY_NAME:
            raise TypeError(f"{owner.__name__}.{name}: no entry of that name in layout.toml")
        self.entry = BY_NAME[name]
        self.fields = tuple(reversed(_FIELD.findall(self.entry.path)))
        self.__doc__ = f"``{self.entry.path}``: {self.entry.what}"

    def __get__(self, layout: MediaLayout | None, owner: type) -> Any:
        if layout is None:
            return self
        if not self.fields:
            return layout.root / self.entry.relative()

        def path(*values: Any, **named: Any) -> Path:
            fields = {**dict(zip(self.fields, values)), **named}
            return layout.root / self.entry.relative(**{k: _part(k, v) for k, v in fields.items()})

        path.__doc__ = self.__doc__
        return path


def _part(field: str, value: Any) -> str:
    """A varying part of a path as the layout fills it: a plain name (``plain_name``), so that no id read
    from data (a lesson id of the delivered manifest, a scene id) can climb out of the output folder."""
    return plain_name(
        str(value), field if field != "name" else "name", "it comes from the course's files; fix it there"
    )


class _Folder:
    """The layout's attribute for a folder that holds entries: ``layout.scenes`` is ``<output>/scenes``."""

    def __init__(self, rel: str, doc: str = "") -> None:
        self.rel = rel
        self.__doc__ = doc or f"``{rel}/``"

    def __get__(self, layout: MediaLayout | None, owner: type) -> Any:
        return self if layout is None else layout.root / self.rel


class MediaLayout:
    """Every path under one output folder (module docstring). Each entry of ENTRIES but the temporary file
    (named by ``coursekit.core.atomic`` wherever it is written) is one line below, an attribute of the
    entry's name (``_EntryPath``: ``layout.manifest``, ``layout.scene_video(scene, quality)``); the
    ``_Folder`` attributes and the methods name the folders that hold them and what is found inside."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    @classmethod
    def of(cls, cfg) -> MediaLayout:
        """The layout of a config's output folder (``cfg.output_dir``); ``coursekit.project.base.ProjectBase``
        makes the one a command or the studio uses."""
        return cls(cfg.output_dir)

    def __repr__(self) -> str:
        return f"MediaLayout({str(self.root)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MediaLayout) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    # -- plans ----------------------------------------------------------------------------------
    plans = _Folder("plan")
    lesson_plan = _EntryPath()
    scene_plan = _EntryPath()

    def plan_folder(self, fps: int) -> Path:
        return self.plans / f"{_part('fps', fps)}fps"

    def lesson_plans(self, lesson: str) -> list[Path]:
        """The lesson's plans at every frame rate, sorted."""
        return sorted(self.root.glob(BY_NAME["lesson_plan"].relative(lesson=_part("lesson", lesson), fps="*")))

    def plan_fps(self, plan_file: Path) -> int:
        """The frame rate of a lesson plan (``lesson_plan``), from its path."""
        return int(BY_NAME["lesson_plan"].fields(self.relative(plan_file))["fps"])

    # -- caches ---------------------------------------------------------------------------------
    cache = _Folder("cache")
    audio_cache = _Folder("cache/audio", "The audio cache (``coursekit.speech.audio_cache.AudioCache``).")
    audio_clip = _EntryPath()
    audio_record = _EntryPath()
    audio_locks = _EntryPath()
    transcripts = _Folder("cache/transcripts", "The listening check's transcripts (``speech.listening``).")
    transcript = _EntryPath()

    # -- rendering ------------------------------------------------------------------------------
    scenes = _Folder("scenes")
    scene_video = _EntryPath()
    scene_video_key = _EntryPath()

    def scene_videos(self, quality: str) -> Path:
        return self.scenes / _part("quality", quality)

    manim = _Folder("manim")
    manim_dir = _EntryPath()
    manim_lock = _EntryPath()
    work = _EntryPath()

    def scene_work(self, fps: int) -> Path:
        """Each scene's narration track and soft subtitles at ``fps``, before the mux."""
        return self.work / f"{_part('fps', fps)}fps"

    def lesson_work(self, lesson: str, fps: int) -> Path:
        """A lesson's joined video, narration, chapters and poster frame, before assembly."""
        return self.scene_work(fps) / _part("lesson", lesson)

    logs = _Folder("logs")
    render_log = _EntryPath()

    # -- the delivered course -------------------------------------------------------------------
    course = _Folder("course", "The delivered course: what ``render.py serve`` serves.")
    lesson_dir = _EntryPath()
    manifest = _EntryPath()
    page = _EntryPath()
    page_asset = _EntryPath()

    def lesson_file(self, lesson: str, suffix: str) -> Path:
        """``course/<lesson>/<lesson><suffix>``: ``.mp4``, ``.srt``, ``.vtt``, ``.jpg`` (poster), ``.txt``
        (transcript), ``.chapters.txt``, ``.chapters.vtt``, ``.burned.mp4``; beside them the seek-bar
        thumbnails, ``thumbnails.jpg`` and ``thumbnails.vtt`` (``coursekit.assemble.thumbnails``)."""
        return self.lesson_dir(lesson) / _part("file", f"{lesson}{suffix}")

    def lesson_video(self, lesson: str) -> Path:
        return self.lesson_file(lesson, ".mp4")

    def lesson_subtitles(self, lesson: str, fmt: str) -> Path:
        """The lesson's subtitle file, ``fmt`` ``srt`` or ``vtt``."""
        return self.lesson_file(lesson, f".{fmt}")

    def overview_video(self, lesson: str) -> Path:
        """The lesson's overview scene delivered alone."""
        return self.lesson_dir(lesson) / "overview.mp4"

    # -- exports for the video platforms (``coursekit.deliver.export``) ------------------------------
    exports = _Folder("export")
    youtube_chapters = _EntryPath()
    youtube_subtitles = _EntryPath()
    bilibili_subtitles = _EntryPath()
    bilibili_chapters = _EntryPath()
    handout = _EntryPath()

    # -- previews, the viewer check, the studio -------------------------------------------------
    previews = _Folder("preview")
    preview_video = _EntryPath()
    preview_key = _EntryPath()
    preview_frame = _EntryPath()
    preview_narration = _EntryPath()
    preview_stretches = _EntryPath()
    inspect = _EntryPath()
    studio = _Folder("studio")
    studio_preview_record = _EntryPath()
    studio_findings = _EntryPath()
    studio_plan_record = _EntryPath()
    studio_keys = _EntryPath()
    studio_check = _EntryPath()

    # -- locks, benchmarks ----------------------------------------------------------------------
    locks = _Folder("locks", "The course locks (``coursekit.core.locks.course_lock``).")
    course_lock = _EntryPath()
    course_lock_note = _EntryPath()
    bench = _EntryPath()

    # -- what is there --------------------------------------------------------------------------
    def relative(self, path: Path) -> PurePosixPath:
        return PurePosixPath(Path(path).relative_to(self.root).as_posix())

    def entry_of(self, path: Path) -> tuple[Entry, dict[str, str]] | None:
        """The entry that names ``path`` (a path under the output folder) and its varying parts."""
        rel, is_dir = self.relative(path), Path(path).is_dir() and not Path(path).is_symlink()
        for entry in _MATCH_ORDER:
            got = entry.fields(rel, is_dir)
            if got is not None:
                return entry, got
        return None

    def found(self, entry: Entry) -> list[tuple[Path, dict[str, str]]]:
        """The paths on disk that ``entry`` names (a folder entry: the folders), with their varying parts."""
        out = []
        for p in sorted(self.root.glob(entry.glob)):
            is_dir = p.is_dir() and not p.is_symlink()
            got = entry.fields(self.relative(p), is_dir)
            if got is not None and is_dir == entry.folder:
                out.append((p, got))
        return out

    def unlisted(self) -> list[Path]:
        """Every file under the output folder that no entry names."""
        return [
            p
            for p in sorted(self.root.rglob("*"))
            if not (p.is_dir() and not p.is_symlink()) and self.entry_of(p) is None
        ]


def reference_table() -> str:
    """The table of the output folder in docs/settings.md (between ``<!-- output -->`` markers)."""
    rows = ["| path | what | `clean` |", "|---|---|---|"]
    rows += [f"| `{e.path}` | {e.what} | {e.when_cleaned} |" for e in ENTRIES]
    return "\n".join(rows)


def clean_help() -> str:
    """``render.py clean --help``'s description: what it removes and what it keeps, from ``ENTRIES``."""

    def lines(entries) -> list[str]:
        return [f"  {e.path}  {e.what}" for e in entries]

    stale: dict[str, list[Entry]] = {}
    for e in ENTRIES:
        if e.clean == STALE:
            stale.setdefault(e.of or "", []).append(e)
    out = [
        textwrap.fill(
            "Remove what a run can make again and no current lesson, scene or plan refers to, and "
            "say how much was freed. Paths are under the output folder (config.yaml: output, default "
            "media/); <...> is a part that varies, a path ending in / a folder and all in it.",
            100,
        ),
        "",
        "removed:",
    ]
    out += lines(e for e in ENTRIES if e.clean == REMOVED)
    for of, entries in stale.items():
        out += ["", f"removed unless {CURRENT[of]}:"] + lines(entries)
    out += ["", "kept:"] + lines(e for e in ENTRIES if e.clean == KEPT)
    return "\n".join(out)
