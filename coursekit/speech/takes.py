"""The author's own recordings of cues ("takes"), stored inside the course, and whether each is current.

A take of cue ``<scene>.<cue>`` of lesson ``<lesson>`` is two files in the course's narration folder:

- ``recordings/<lesson>/<scene>.<cue>.flac``: the audio, 24 kHz mono 16-bit, trimmed of the silence before
  and after it and normalised to the narration's loudness (``audio.TARGET_LUFS``, true peak at most
  ``audio.MAX_TRUE_PEAK``), as every scene's narration track is;
- ``recordings/<lesson>/<scene>.<cue>.json``: what was read (``text``: the cue's ``say`` if it has one,
  else its ``text``, figures filled and bookmarks taken out, as the teleprompter shows it), its sha256,
  the audio's sha256 and length, and the bookmarks placed in it (name -> seconds from the take's start).

A take is *current* while the cue still reads ``text`` and the audio is the one the sidecar names; when the
cue's words (or a figure they quote) change, the take is *stale*: it is never used for the new words
(``current`` gives None), and ``stale_lines`` says so, one line per take, with the file and what to do.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from coursekit.content.cue_text import strip_bookmarks
from coursekit.content.narration import Course, Cue
from coursekit.core.atomic import replacing, write_text
from coursekit.core.digest import file_sha256
from coursekit.core.errors import UserError
from coursekit.core.paths import RECORDINGS, recordings_dir, shown
from coursekit.speech import audio

FOLDER = RECORDINGS
FORMAT = 1
#: a take's silence before and after: quieter than this below its own peak (a room's noise is not the
#: synthetic voices' digital silence), and never louder than -30 dBFS
TRIM_BELOW_PEAK_DB = 45.0
TRIM_CEILING_DBFS = -30.0


def read_aloud(cue: Cue) -> str:
    """What the author reads for ``cue``: its ``say`` if any, else its ``text``, figures filled and
    bookmarks taken out (the key of its take)."""
    text, _ = strip_bookmarks(cue.figures.fill(cue.say if cue.say is not None else cue.text))
    return text


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Take:
    lesson: str
    cue: str  # the full id, "<scene>.<cue>"
    audio: Path
    text: str  # what was read
    duration: float  # seconds
    audio_sha256: str
    bookmarks: dict[str, float] = field(default_factory=dict)  # name -> seconds from the take's start

    @property
    def sidecar(self) -> Path:
        return self.audio.with_suffix(".json")


def paths(lesson: str, cue_id: str, root: Path | None = None) -> tuple[Path, Path]:
    """(audio, sidecar) of the take of ``cue_id`` in ``lesson``."""
    folder = (root or recordings_dir()) / lesson
    return folder / f"{cue_id}.flac", folder / f"{cue_id}.json"


def read(lesson: str, cue_id: str, root: Path | None = None) -> Take | None:
    """The take stored for the cue, whatever its text, or None if there is none; a sidecar that cannot be
    read, or audio that is not the one it names, is one line."""
    flac, meta = paths(lesson, cue_id, root)
    if not meta.exists():
        return None
    fix = f"import the take again: render.py record import {lesson} {cue_id} FILE"
    try:
        doc = json.loads(meta.read_text(encoding="utf-8"))
        take = Take(
            lesson,
            cue_id,
            flac,
            str(doc["text"]),
            float(doc["duration"]),
            str(doc["audio_sha256"]),
            {str(k): float(v) for k, v in dict(doc.get("bookmarks") or {}).items()},
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise UserError(f"{shown(meta)}: not a take's description (text, duration, audio_sha256); {fix}") from None
    if not flac.is_file():
        raise UserError(f"{shown(flac)}: missing, though {meta.name} describes it; {fix}")
    if file_sha256(flac) != take.audio_sha256:
        raise UserError(f"{shown(flac)}: not the audio {meta.name} describes (its sha256 differs); {fix}")
    return take


def current(lesson: str, cue: Cue, root: Path | None = None) -> Take | None:
    """The cue's take if it reads what the cue says now, else None (none, or stale)."""
    take = read(lesson, cue.id, root)
    return take if take is not None and take.text == read_aloud(cue) else None


def stale_lines(course: Course, root: Path | None = None) -> list[str]:
    """One line per take that is not used: its cue reads other words now (stale), or the course has no
    such cue; each with the file and what to do."""
    root = root or recordings_dir()
    cues = {(lesson.id, cue.id): cue for lesson in course.lessons for scene in lesson.scenes for cue in scene.cues}
    lines = []
    for meta in sorted(root.glob("*/*.json")) if root.is_dir() else []:
        lesson, cue_id = meta.parent.name, meta.stem
        flac = meta.with_suffix(".flac")
        cue = cues.get((lesson, cue_id))
        if cue is None:
            lines.append(
                f"{shown(flac)}: a take of cue '{cue_id}', which lesson '{lesson}' does not have; "
                f"delete {flac.name} and {meta.name}, or move them to the cue's new id"
            )
            continue
        take = read(lesson, cue_id, root)
        if take is not None and take.text != read_aloud(cue):
            lines.append(
                f"{shown(flac)}: stale: it reads '{_short(take.text)}', the cue now reads "
                f"'{_short(read_aloud(cue))}', so the fallback voice reads it; record it again "
                f"(render.py record import {lesson} {cue_id} FILE) or delete {flac.name} and {meta.name}"
            )
    return lines


def _short(text: str, n: int = 24) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def prepare(source: Path, name: str | None = None):
    """A recording made ready to be a cue's audio: 24 kHz mono 16-bit, trimmed of the silence before and
    after it (``TRIM_BELOW_PEAK_DB`` under its peak, at most ``TRIM_CEILING_DBFS``, 30 ms kept each side),
    normalised to ``audio.TARGET_LUFS`` with true peaks at most ``audio.MAX_TRUE_PEAK``. ``name``: how a
    message names it (default: its path)."""
    return _prepare(source, name)[0]


def _prepare(source: Path, name: str | None = None) -> tuple[object, float]:
    """``prepare``'s segment, and the seconds to add to a time measured on the recording to land on it."""
    name = name or shown(source)
    seg = audio.conform(source)
    peak = seg.max_dBFS
    if not math.isfinite(peak):
        raise UserError(f"{name}: the recording is silent; record the cue again")
    threshold = min(TRIM_CEILING_DBFS, max(audio.SILENCE_DBFS, peak - TRIM_BELOW_PEAK_DB))
    trimmed, shift = audio.trim(seg, threshold)
    if audio.duration_of(trimmed) < audio.MIN_LOUDNESS_SECONDS:
        raise UserError(
            f"{name}: under {audio.MIN_LOUDNESS_SECONDS} s of sound once its silence is trimmed; record the whole cue"
        )
    return audio.loudness_normalise(trimmed), shift


def import_take(
    source: Path,
    lesson: str,
    cue: Cue,
    marks: dict[str, float] | None = None,
    root: Path | None = None,
    *,
    name: str | None = None,
    marked_on_recording: bool = False,
) -> Take:
    """Store ``source`` (any audio ffmpeg reads) as the take of ``cue`` of ``lesson`` (``prepare``), keyed
    by what the cue reads now, with its bookmarks placed at ``marks`` (seconds from the start of the
    trimmed take; ``marked_on_recording``: from the start of ``source``, as the studio marks them while
    the author reads). A mark the cue has not, or one past the take's end, is one line; so is a file that
    is not audio; nothing is written. ``name``: how a message names ``source`` (default: its path)."""
    from pydub.exceptions import CouldntDecodeError  # audio library: only when importing

    source = Path(source)
    if not source.is_file():
        raise UserError(f"{source}: no such file; give the recording of cue '{cue.id}' (a WAV, FLAC, …)")
    marks = dict(marks or {})
    unknown = sorted(set(marks) - set(cue.bookmarks))
    if unknown:
        has = ", ".join(cue.bookmarks) or "none"
        raise UserError(f"--mark {unknown[0]}: cue '{cue.id}' has no bookmark {{@{unknown[0]}}} (it has: {has})")
    try:
        seg, shift = _prepare(source, name)
    except (OSError, IndexError, CouldntDecodeError) as exc:  # pydub: ffmpeg could not decode it
        raise UserError(
            f"{name or source}: not audio ffmpeg can read ({type(exc).__name__}); record it again, or give a WAV or FLAC"
        ) from None
    duration = audio.duration_of(seg)
    if marked_on_recording:  # a mark tapped in the silence trimmed off is at the take's start or end
        marks = {k: round(min(max(v + shift, 0.0), duration), 3) for k, v in marks.items()}
    for name, t in marks.items():
        if not 0 <= t <= duration:
            raise UserError(
                f"--mark {name}={t:g}: past the take, which is {duration:.2f} s once trimmed; give seconds from "
                "its start (0 to its length)"
            )
    placed = [name for name in cue.bookmarks if name in marks]
    for a, b in zip(placed, placed[1:]):
        if marks[b] < marks[a]:
            raise UserError(
                f"--mark {b}={marks[b]:g} comes before --mark {a}={marks[a]:g}, but the cue says {{@{a}}} first; "
                "give each bookmark the second at which it is said"
            )
    flac, meta = paths(lesson, cue.id, root)
    with replacing(flac) as tmp:
        seg.export(str(tmp), format="flac")
    text = read_aloud(cue)
    take = Take(lesson, cue.id, flac, text, round(duration, 6), file_sha256(flac), dict(sorted(marks.items())))
    doc = {
        "format": FORMAT,
        "text": text,
        "text_sha256": text_sha256(text),
        "duration": take.duration,
        "audio_sha256": take.audio_sha256,
        "bookmarks": take.bookmarks,
    }
    write_text(meta, json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    return take
