"""The studio's recording lane: for each cue of a scene, what the author reads (the teleprompter: the cue's
``say`` or ``text`` with its figures filled, the lexicon's pinned readings in pinyin, its bookmarks where
they are said), whether the cue's take is current, stale or missing, and the upload that stores a take.

A take recorded in the browser (webm or ogg, whatever its MediaRecorder makes) is stored through the same
path as ``render.py record import`` (``coursekit.speech.takes.import_take``: decoded by ffmpeg, trimmed,
normalised, keyed by the words the cue reads now); its bookmarks are the moments the author marked while
reading, measured from the start of the recording. A bad upload (empty, not audio, silent, for a cue the
scene does not have) is one line and nothing is written.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from coursekit.content.cue_text import strip_bookmarks
from coursekit.content.narration import Course, Cue
from coursekit.core.errors import UserError
from coursekit.speech import takes
from coursekit.speech.voices.recorded import NAME as RECORDED
from coursekit.zh.lexicon import Lexicon
from coursekit.zh.spoken import index, match_longest

#: the largest upload taken: a cue of a minute in the browser's Opus is well under 2 MB
MAX_UPLOAD_BYTES = 32 * 1024 * 1024
#: the file name a recording is decoded from, by the type the browser sends (ffmpeg reads the rest too)
SUFFIXES = {"audio/webm": ".webm", "audio/ogg": ".ogg", "audio/wav": ".wav", "audio/x-wav": ".wav"}
MARKS = re.compile(r"([a-z_][a-z0-9_]*):(\d+(?:\.\d+)?)")


class UnknownCue(UserError):
    """The upload names a cue the scene does not have."""


def pinyin(syllables: tuple[str, ...]) -> str:
    """Tone-numbered syllables (``zhuan4``) as pinyin with tone marks (``zhuàn``)."""
    from pypinyin.contrib.tone_convert import to_tone  # the pinyin library: only for the teleprompter

    return " ".join(to_tone(s) for s in syllables)


def teleprompter(cue: Cue, lexicon: Lexicon) -> list[dict]:
    """What the author reads for ``cue`` (``takes.read_aloud``), in pieces: plain text ``{"text"}``, a
    pinned word ``{"text", "pinyin"}``, and a bookmark ``{"mark"}`` where it is said."""
    source = cue.figures.fill(cue.say if cue.say is not None else cue.text)
    text, marks = strip_bookmarks(source)
    at: dict[int, list[str]] = {}
    for name, offset in marks.items():
        at.setdefault(offset, []).append(name)
    pinned = dict(match_longest(text, index(lexicon.readings), frozenset(marks.values())))
    pieces: list[dict] = []
    plain = ""
    i = 0
    while i <= len(text):
        for name in at.get(i, ()):
            if plain:
                pieces.append({"text": plain})
                plain = ""
            pieces.append({"mark": name})
        if i == len(text):
            break
        word = pinned.get(i)
        if word is not None:
            if plain:
                pieces.append({"text": plain})
                plain = ""
            pieces.append({"text": word, "pinyin": pinyin(lexicon.readings[word])})
            i += len(word)
            continue
        plain += text[i]
        i += 1
    if plain:
        pieces.append({"text": plain})
    return pieces


def take_state(lesson: str, cue: Cue) -> dict:
    """The cue's take: ``{"state": "missing"}``; or "current" or "stale" with its length, what it reads and
    its audio's version; or "broken" with the one line that says why."""
    try:
        take = takes.read(lesson, cue.id)
    except UserError as exc:
        return {"state": "broken", "error": str(exc).splitlines()[0]}
    if take is None:
        return {"state": "missing"}
    current = take.text == takes.read_aloud(cue)
    return {
        "state": "current" if current else "stale",
        "duration": round(take.duration, 2),
        "reads": take.text,
        "version": take.audio_sha256[:16],
        "marks": take.bookmarks,
    }


def lane(course: Course, scene_id: str, lexicon: Lexicon, backend: str, fallback: str | None) -> dict:
    """The recording lane of ``scene_id``: the voice that uses the takes, and each cue's teleprompter and
    take."""
    lesson = course.lesson_of(scene_id)
    scene = course.scene(scene_id)
    cues = []
    for cue in scene.cues:
        short = cue.id.split(".", 1)[1]
        cues.append(
            {
                "id": cue.id,
                "short": short,
                "reads": takes.read_aloud(cue),
                "pieces": teleprompter(cue, lexicon),
                "bookmarks": list(cue.bookmarks),
                "take": take_state(lesson.id, cue),
                "audio": f"/take/{scene_id}/{short}",
            }
        )
    return {"voice": backend, "uses_takes": backend == RECORDED, "fallback": fallback, "cues": cues}


def parse_marks(query: str | None) -> dict[str, float]:
    """``name:seconds,name:seconds`` (the upload's ``marks``) as a mapping; anything else is one line."""
    marks: dict[str, float] = {}
    for part in filter(None, (query or "").split(",")):
        m = MARKS.fullmatch(part.strip())
        if not m:
            raise UserError(f"the bookmarks sent with the take are not name:seconds ({part!r}); record it again")
        marks[m.group(1)] = float(m.group(2))
    return marks


def store(course: Course, scene_id: str, short: str, body: bytes, ctype: str, marks: dict[str, float]) -> takes.Take:
    """Store the recording ``body`` (of type ``ctype``) as the take of cue ``short`` of ``scene_id``
    (``takes.import_take``); a bad one is one line (``UserError``) and nothing is written."""
    scene = course.scene(scene_id)
    cue = next((c for c in scene.cues if c.id == f"{scene_id}.{short}"), None)
    if cue is None:
        raise UnknownCue(f"scene {scene_id} has no cue '{short}' (it has: {', '.join(c.id for c in scene.cues)})")
    if not body:
        raise UserError(f"the recording of {cue.id} is empty: nothing was recorded; record it again")
    suffix = SUFFIXES.get(ctype.split(";")[0].strip().lower(), ".audio")
    with tempfile.TemporaryDirectory(prefix="coursekit-take-") as tmp:
        source = Path(tmp) / f"take{suffix}"
        source.write_bytes(body)
        return takes.import_take(
            source,
            course.lesson_of(scene_id).id,
            cue,
            marks,
            name=f"the recording of {cue.id}",
            marked_on_recording=True,
        )
