"""When each character of a subtitle event is spoken, for the course page's word highlight.

The plan keeps, per cue, the time each character of its written text starts to be spoken
(``LessonPlan.char_ms``, scene-relative ms). A subtitle event holds a run of those characters (its line
breaks and the spaces between Latin words aside); :func:`page_subtitles` gives every event of a lesson
in lesson time, as the manifest lists them, with ``chars``: the lesson time of each of its characters
that is not whitespace, in order. An event whose cue has no character times (a plan made before they
were kept) has no ``chars``.

The plan is read by its fields, not imported (``coursekit.plan`` is the floor above this package).
"""

from __future__ import annotations

from coursekit.core.config import SubtitleConfig
from coursekit.subtitles.files import lesson_events
from coursekit.subtitles.rules import squeeze


def event_char_ms(plan) -> dict[tuple[int, int, str], list[int]]:
    """(start_ms, end_ms, text) of each event of a ``LessonPlan``, in lesson time -> its characters' lesson times."""
    out: dict[tuple[int, int, str], list[int]] = {}
    for scene in plan.scenes:
        offset = round(scene.start_frame * 1000 / scene.fps)
        for cue in scene.cues:
            times = plan.char_ms.get(cue.id)
            if not times or len(times) != len(cue.text) + 1:
                continue
            positions = [k for k, ch in enumerate(cue.text) if not ch.isspace()]
            p = 0
            for ev in cue.subtitles:
                chars = squeeze(ev.text)
                at = positions[p : p + len(chars)]
                if len(at) != len(chars) or any(cue.text[k] != ch for k, ch in zip(at, chars)):
                    break  # the events do not follow the text: no times for the rest
                out[(offset + ev.start_ms, offset + ev.end_ms, ev.text)] = [offset + times[k] for k in at]
                p += len(chars)
    return out


def page_subtitles(plan, limits: SubtitleConfig | None = None) -> list[dict]:
    """The lesson's subtitle events for the course page (lesson times in ms), each with ``chars`` when known."""
    chars = event_char_ms(plan)
    rows = []
    for e in lesson_events(plan, limits):
        a, b = round(e.start.total_seconds() * 1000), round(e.end.total_seconds() * 1000)
        row = {"start_ms": a, "end_ms": b, "text": e.content}
        if (a, b, e.content) in chars:
            row["chars"] = chars[(a, b, e.content)]
        rows.append(row)
    return rows
