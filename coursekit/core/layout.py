"""The output folder (``output`` in config.yaml, default ``media/``): every path under it, named once.

``MediaLayout(root)`` (or ``MediaLayout.of(cfg)``) gives each path a name: a folder is a property
(``layout.previews``), a file a method (``layout.preview_video(scene)``). Every module that writes or
reads under the output folder asks the layout; none joins a folder name onto the output folder itself
(``tests/test_layout.py`` scans the engine's sources for that).

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
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

KEPT = "kept"            #: clean never touches it
REMOVED = "removed"      #: clean removes it
STALE = "stale"          #: clean removes it when what it belongs to (``Entry.of``) is not current

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
_ANYWHERE = "**/"          #: an entry's path that starts so is found in any folder


@dataclass(frozen=True)
class Entry:
    """One kind of path under the output folder (module docstring)."""

    name: str          #: unique; the layout's method or property that makes it, where there is one
    path: str          #: relative to the output folder; ``<field>`` varies, a trailing ``/`` is a folder
    what: str          #: one line
    clean: str         #: KEPT | REMOVED | STALE
    of: str | None = None      #: for STALE: a key of ``CURRENT``

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
            parts, body = ["(?:.*/)?"], body[len(_ANYWHERE):]
        for m in _FIELD.finditer(body):
            parts.append(re.escape(body[at:m.start()]))
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


ENTRIES: tuple[Entry, ...] = (
    Entry("lesson_plan", "plan/<fps>fps/<lesson>.json",
          "a lesson's timeline plan: every cue placed in whole frames, its audio and subtitle events", STALE, "plan"),
    Entry("scene_plan", "plan/<fps>fps/scenes/<scene>.json", "one scene's slice of its plan, which its Manim process reads",
          STALE, "scene"),
    Entry("audio_clip", "cache/audio/<key>.wav", "the audio cache: one spoken text in one voice, by content hash",
          STALE, "audio"),
    Entry("audio_record", "cache/audio/<key>.json", "its duration, clause timings, voice and the WAV's sha256",
          STALE, "audio"),
    Entry("audio_locks", "cache/audio/locks/", "a lock per audio-cache entry while it is made", REMOVED),
    Entry("transcript", "cache/transcripts/<key>.json",
          "the listening check's transcript of one clip by one recogniser (`check --speech`)", STALE, "transcript"),
    Entry("scene_video", "scenes/<quality>/<scene>.mp4", "a rendered scene with its narration (`render`, `course`)",
          STALE, "scene"),
    Entry("scene_video_key", "scenes/<quality>/.<scene>.mp4.key", "its scene-cache key, size and sha256",
          STALE, "scene"),
    Entry("manim_dir", "manim/<scene>/",
          "Manim's media folder for one scene: partial movies and text caches, reused between renders", STALE, "scene"),
    Entry("manim_lock", "manim/<scene>.lock", "the lock of that folder while Manim renders into it", STALE, "scene"),
    Entry("work", "work/", "intermediate files: each scene's narration track and subtitles, each lesson's joined "
                           "video, narration, chapters and poster frame", REMOVED),
    Entry("render_log", "logs/render-<quality>.jsonl",
          "one JSON line per rendered scene: wall time, peak memory, executor (read by bench/run.py)", KEPT),
    Entry("lesson_dir", "course/<lesson>/", "a lesson's delivered files: video, SRT and VTT, poster, transcript, "
                                            "chapters, seek-bar thumbnails (sprite and track), an overview scene's "
                                            "video", KEPT),
    Entry("manifest", "course/manifest.json", "what was delivered, from which sources; the page is made from it", KEPT),
    Entry("page", "course/index.html", "the course page", KEPT),
    Entry("page_asset", "course/page.<ext>", "the page's script and style", KEPT),
    Entry("youtube_chapters", "export/youtube/<lesson>.chapters.txt",
          "a lesson's chapter list for its YouTube description (`export youtube`)", STALE, "lesson"),
    Entry("youtube_subtitles", "export/youtube/<lesson>.srt", "its subtitles for YouTube, the delivered SRT",
          STALE, "lesson"),
    Entry("bilibili_subtitles", "export/bilibili/<lesson>.bcc", "a lesson's subtitles as Bilibili's BCC JSON "
                                                                "(`export bilibili`)", STALE, "lesson"),
    Entry("bilibili_chapters", "export/bilibili/<lesson>.chapters.txt", "its chapter list for Bilibili's chapter "
                                                                        "editor", STALE, "lesson"),
    Entry("preview_video", "preview/<scene>.mp4",
          "a scene's 480p15 preview with narration and soft subtitles (`preview`, the studio)", STALE, "scene"),
    Entry("preview_key", "preview/.<scene>.mp4.key", "its scene-cache key, size and sha256", STALE, "scene"),
    Entry("preview_frame", "preview/<scene>.png", "the preview's last frame", STALE, "scene"),
    Entry("preview_narration", "preview/<scene>.narration.m4a", "a scene's narration track alone (`listen`)",
          STALE, "scene"),
    Entry("inspect", "inspect/", "Manim's media folder for the viewer check's dry runs (`inspect`, the studio)",
          REMOVED),
    Entry("studio_preview_record", "studio/previews/<scene>.json",
          "the studio's last good preview of a scene: its plan slice and key (the page's timeline)", STALE, "scene"),
    Entry("studio_findings", "studio/findings/<scene>.json",
          "the studio's viewer-check findings of a scene, for one scene-cache key", STALE, "scene"),
    Entry("studio_plan_record", "studio/plans/<lesson>.json",
          "a digest of what the studio's last plan of a lesson was made from", STALE, "lesson"),
    Entry("studio_keys", "studio/keys.json", "the studio's scene-cache keys by the signature of their inputs", KEPT),
    Entry("studio_check", "studio/check/", "the files a viewer check's child process reads and writes", REMOVED),
    Entry("course_lock", "locks/<name>.lock",
          "a course lock (docs/reliability.md); removing one a command holds would let a second writer in", KEPT),
    Entry("course_lock_note", "locks/<name>.holder", "who holds that lock: pid and command", KEPT),
    Entry("bench", "bench/", "the benchmarks' workspaces and results (bench/)", REMOVED),
    Entry("temporary", "**/.<name>.<pid>-<thread>.tmp<suffix>",
          "in any folder: a file being written, renamed onto its path when whole (coursekit/core/atomic.py)",
          STALE, "writer"),
)

BY_NAME: dict[str, Entry] = {e.name: e for e in ENTRIES}
#: the order ``entry_of`` tries them in: a temporary file is one wherever it is
_MATCH_ORDER = sorted(ENTRIES, key=lambda e: not e.path.startswith(_ANYWHERE))

#: the names the layout puts directly under the output folder (what no other module may join onto it)
TOP_FOLDERS: tuple[str, ...] = tuple(dict.fromkeys(PurePosixPath(e.path).parts[0] for e in ENTRIES
                                                   if not e.path.startswith(_ANYWHERE)))


def _entry_path(root: Path, entry: str, **fields) -> Path:
    return root / BY_NAME[entry].relative(**fields)


class MediaLayout:
    """Every path under one output folder (module docstring)."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    @classmethod
    def of(cls, cfg) -> MediaLayout:
        """The layout of a config's output folder (``cfg.output_dir``)."""
        return cls(cfg.output_dir)

    def __repr__(self) -> str:
        return f"MediaLayout({str(self.root)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MediaLayout) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    # -- plans ----------------------------------------------------------------------------------
    @property
    def plans(self) -> Path:
        return self.root / "plan"

    def plan_folder(self, fps: int) -> Path:
        return self.plans / f"{fps}fps"

    def lesson_plan(self, lesson: str, fps: int) -> Path:
        return _entry_path(self.root, "lesson_plan", lesson=lesson, fps=fps)

    def lesson_plans(self, lesson: str) -> list[Path]:
        """The lesson's plans at every frame rate, sorted."""
        return sorted(self.root.glob(BY_NAME["lesson_plan"].relative(lesson=lesson, fps="*")))

    def plan_fps(self, plan_file: Path) -> int:
        """The frame rate of a lesson plan (``lesson_plan``), from its path."""
        return int(BY_NAME["lesson_plan"].fields(self.relative(plan_file))["fps"])

    def scene_plan(self, scene: str, fps: int) -> Path:
        return _entry_path(self.root, "scene_plan", scene=scene, fps=fps)

    # -- caches ---------------------------------------------------------------------------------
    @property
    def cache(self) -> Path:
        return self.root / "cache"

    @property
    def audio_cache(self) -> Path:
        """The audio cache's folder (``coursekit.speech.audio_cache.AudioCache``)."""
        return self.cache / "audio"

    @property
    def audio_locks(self) -> Path:
        return _entry_path(self.root, "audio_locks")

    @property
    def transcripts(self) -> Path:
        """The listening check's transcript cache (``coursekit.speech.listening.Recogniser``)."""
        return self.cache / "transcripts"

    # -- rendering ------------------------------------------------------------------------------
    @property
    def scenes(self) -> Path:
        return self.root / "scenes"

    def scene_videos(self, quality: str) -> Path:
        return self.scenes / quality

    def scene_video(self, scene: str, quality: str) -> Path:
        return _entry_path(self.root, "scene_video", scene=scene, quality=quality)

    @property
    def manim(self) -> Path:
        return self.root / "manim"

    def manim_dir(self, scene: str) -> Path:
        return _entry_path(self.root, "manim_dir", scene=scene)

    def manim_lock(self, scene: str) -> Path:
        return _entry_path(self.root, "manim_lock", scene=scene)

    @property
    def work(self) -> Path:
        return _entry_path(self.root, "work")

    def scene_work(self, fps: int) -> Path:
        """Each scene's narration track and soft subtitles at ``fps``, before the mux."""
        return self.work / f"{fps}fps"

    def lesson_work(self, lesson: str, fps: int) -> Path:
        """A lesson's joined video, narration, chapters and poster frame, before assembly."""
        return self.scene_work(fps) / lesson

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    def render_log(self, quality: str) -> Path:
        return _entry_path(self.root, "render_log", quality=quality)

    # -- the delivered course -------------------------------------------------------------------
    @property
    def course(self) -> Path:
        """The delivered course: what ``render.py serve`` serves."""
        return self.root / "course"

    def lesson_dir(self, lesson: str) -> Path:
        return _entry_path(self.root, "lesson_dir", lesson=lesson)

    def lesson_file(self, lesson: str, suffix: str) -> Path:
        """``course/<lesson>/<lesson><suffix>``: ``.mp4``, ``.srt``, ``.vtt``, ``.jpg`` (poster), ``.txt``
        (transcript), ``.chapters.txt``, ``.chapters.vtt``, ``.burned.mp4``; beside them the seek-bar
        thumbnails, ``thumbnails.jpg`` and ``thumbnails.vtt`` (``coursekit.assemble.thumbnails``)."""
        return self.lesson_dir(lesson) / f"{lesson}{suffix}"

    def lesson_video(self, lesson: str) -> Path:
        return self.lesson_file(lesson, ".mp4")

    def lesson_subtitles(self, lesson: str, fmt: str) -> Path:
        """The lesson's subtitle file, ``fmt`` ``srt`` or ``vtt``."""
        return self.lesson_file(lesson, f".{fmt}")

    def overview_video(self, lesson: str) -> Path:
        """The lesson's overview scene delivered alone."""
        return self.lesson_dir(lesson) / "overview.mp4"

    @property
    def manifest(self) -> Path:
        return _entry_path(self.root, "manifest")

    @property
    def page(self) -> Path:
        return _entry_path(self.root, "page")

    # -- exports for the video platforms (``coursekit.deliver.export``) ------------------------------
    @property
    def exports(self) -> Path:
        return self.root / "export"

    def youtube_chapters(self, lesson: str) -> Path:
        return _entry_path(self.root, "youtube_chapters", lesson=lesson)

    def youtube_subtitles(self, lesson: str) -> Path:
        return _entry_path(self.root, "youtube_subtitles", lesson=lesson)

    def bilibili_subtitles(self, lesson: str) -> Path:
        return _entry_path(self.root, "bilibili_subtitles", lesson=lesson)

    def bilibili_chapters(self, lesson: str) -> Path:
        return _entry_path(self.root, "bilibili_chapters", lesson=lesson)

    # -- previews, the viewer check, the studio -------------------------------------------------
    @property
    def previews(self) -> Path:
        return self.root / "preview"

    def preview_video(self, scene: str) -> Path:
        return _entry_path(self.root, "preview_video", scene=scene)

    def preview_frame(self, scene: str) -> Path:
        return _entry_path(self.root, "preview_frame", scene=scene)

    def preview_narration(self, scene: str) -> Path:
        return _entry_path(self.root, "preview_narration", scene=scene)

    @property
    def inspect(self) -> Path:
        """Manim's media folder for the viewer check's dry runs."""
        return _entry_path(self.root, "inspect")

    @property
    def studio(self) -> Path:
        return self.root / "studio"

    def studio_preview_record(self, scene: str) -> Path:
        return _entry_path(self.root, "studio_preview_record", scene=scene)

    def studio_findings(self, scene: str) -> Path:
        return _entry_path(self.root, "studio_findings", scene=scene)

    def studio_plan_record(self, lesson: str) -> Path:
        return _entry_path(self.root, "studio_plan_record", lesson=lesson)

    @property
    def studio_keys(self) -> Path:
        return _entry_path(self.root, "studio_keys")

    @property
    def studio_check(self) -> Path:
        return _entry_path(self.root, "studio_check")

    # -- locks, benchmarks ----------------------------------------------------------------------
    @property
    def locks(self) -> Path:
        """The course locks (``coursekit.core.locks.course_lock``)."""
        return self.root / "locks"

    def course_lock(self, name: str) -> Path:
        return _entry_path(self.root, "course_lock", name=name)

    def course_lock_note(self, name: str) -> Path:
        return _entry_path(self.root, "course_lock_note", name=name)

    @property
    def bench(self) -> Path:
        return _entry_path(self.root, "bench")

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
        return [p for p in sorted(self.root.rglob("*"))
                if not (p.is_dir() and not p.is_symlink()) and self.entry_of(p) is None]


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
    out = [textwrap.fill("Remove what a run can make again and no current lesson, scene or plan refers to, and "
                         "say how much was freed. Paths are under the output folder (config.yaml: output, default "
                         "media/); <...> is a part that varies, a path ending in / a folder and all in it.", 100),
           "", "removed:"]
    out += lines(e for e in ENTRIES if e.clean == REMOVED)
    for of, entries in stale.items():
        out += ["", f"removed unless {CURRENT[of]}:"] + lines(entries)
    out += ["", "kept:"] + lines(e for e in ENTRIES if e.clean == KEPT)
    return "\n".join(out)
