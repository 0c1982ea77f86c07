"""Files for the video platforms, made from the delivered course: ``render.py export youtube|bilibili``.

Nothing is computed again: the chapters are the manifest's (one per scene, as the course page marks them),
the subtitle events are the manifest's (the page's transcript), and YouTube's SRT is the lesson's own,
as delivered beside its video (it must still say what the manifest says). Per lesson, under the output
folder's ``export/<platform>/`` (``coursekit.core.layout``):

- ``youtube/<lesson>.chapters.txt``: the chapter list for the video's description, ``M:SS title`` a
  line (``H:MM:SS`` past an hour). YouTube's rules (its help page on video chapters): the first at 0:00,
  at least three, in ascending order, each at least 10 seconds long;
- ``youtube/<lesson>.srt``: the subtitles;
- ``bilibili/<lesson>.bcc``: the subtitles as Bilibili's BCC JSON: ``font_size``, ``font_color``,
  ``background_alpha``, ``background_color``, ``Stroke`` and ``body``, a list of ``{"from", "to",
  "location", "content"}`` (seconds, seconds, 2 = bottom centre, the text with its line breaks);
- ``bilibili/<lesson>.chapters.txt``: the chapter list for Bilibili's chapter editor, ``MM:SS title`` a
  line. Bilibili publishes no specification; what creators report of it is checked: the first at 00:00,
  ascending, at most ``BILIBILI_MAX_CHAPTERS`` chapters, titles of at most ``BILIBILI_MAX_TITLE``
  characters, each at least ``BILIBILI_MIN_CHAPTER_S`` seconds long.

Each file is checked by its validator before anything is written (``check_youtube_chapters``,
``check_srt``, ``check_bcc``, ``check_bilibili_chapters``: each returns its problems, none for a good
file). A lesson that breaks a rule is one line (which lesson, which chapter, what, how to fix) and exit
status 2, and nothing is written; every file is written under a temporary name and renamed.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import srt

from coursekit.core.atomic import write_text
from coursekit.core.errors import UserError, UserErrors
from coursekit.core.layout import MediaLayout
from coursekit.deliver import PLATFORMS
from coursekit.deliver.manifest import read_manifest, read_subtitles, read_text

YOUTUBE_MIN_CHAPTERS = 3
YOUTUBE_MIN_CHAPTER_S = 10
BILIBILI_MAX_CHAPTERS = 10
BILIBILI_MAX_TITLE = 16
BILIBILI_MIN_CHAPTER_S = 5

#: BCC's style keys, as Bilibili's own subtitle files have them (the body follows them)
BCC_STYLE = {
    "font_size": 0.4,
    "font_color": "#FFFFFF",
    "background_alpha": 0.5,
    "background_color": "#9C27B0",
    "Stroke": "none",
}
BCC_LOCATION = 2  #: bottom centre
_BCC_ITEM_KEYS = ("from", "to", "location", "content")
_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
_YOUTUBE_LINE = re.compile(r"(?P<clock>(?:\d+:)?\d{1,2}:\d{2})[ \t]+(?P<title>\S.*)")
_BILIBILI_LINE = re.compile(r"(?P<clock>(?:\d{1,2}:)?\d{2}:\d{2})[ \t]+(?P<title>\S.*)")


@dataclass(frozen=True)
class Problem:
    """One rule a file breaks: ``rule`` names it (for the fix), ``where`` says which chapter or event."""

    rule: str
    where: str
    what: str
    chapter: int | None = None  #: the chapter's number (from 1), for a rule of one chapter

    def __str__(self) -> str:
        return f"{self.where}: {self.what}" if self.where else self.what


# --- clocks and chapter lines -----------------------------------------------------------------------------
def youtube_clock(seconds: int) -> str:
    """``M:SS``, or ``H:MM:SS`` from an hour on."""
    h, m, s = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def bilibili_clock(seconds: int) -> str:
    """``MM:SS``, or ``HH:MM:SS`` from an hour on."""
    h, m, s = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{h:02d}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def _clock_seconds(clock: str) -> int:
    total = 0
    for part in clock.split(":"):
        total = total * 60 + int(part)
    return total


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def chapter_list(chapters: list[dict], clock) -> str:
    """The manifest's chapters as ``<clock> title`` lines, each at its start's whole second (rounded down:
    a platform's mark is never after the scene starts)."""
    return "".join(f"{clock(int(c['start_ms']) // 1000)} {_one_line(c['title'])}\n" for c in chapters)


def parse_chapters(text: str, line_re: re.Pattern) -> tuple[list[tuple[int, str]], list[Problem]]:
    """(seconds, title) of each non-empty line, and a problem for each line that is not ``<clock> title``."""
    rows, problems = [], []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        m = line_re.fullmatch(line.strip())
        if m is None or any(int(p) > 59 for p in m.group("clock").split(":")[1:]):
            problems.append(Problem("format", f"line {n}", f"{line.strip()!r} is not a time and a title"))
            continue
        rows.append((_clock_seconds(m.group("clock")), m.group("title").strip()))
    return rows, problems


def _chapter_checks(
    rows: list[tuple[int, str]], duration_s: float, clock, first: str, min_s: int, platform: str
) -> list[Problem]:
    problems: list[Problem] = []
    if rows and rows[0][0] != 0:
        problems.append(
            Problem(
                "first", "chapter 1", f"starts at {clock(rows[0][0])}; {platform} needs the first chapter at {first}", 1
            )
        )
    ends = [s for s, _ in rows[1:]] + [math.floor(duration_s)]
    for k, ((start, title), end) in enumerate(zip(rows, ends), 1):
        where = f"chapter {k} '{title}'"
        if k > 1 and start <= rows[k - 2][0]:
            problems.append(
                Problem(
                    "order",
                    where,
                    f"starts at {clock(start)}, not after chapter {k - 1} "
                    f"({clock(rows[k - 2][0])}); {platform} needs them in "
                    "ascending order",
                    k,
                )
            )
        elif start >= duration_s:
            problems.append(
                Problem(
                    "order",
                    where,
                    f"starts at {clock(start)}, after the video's end ({clock(math.floor(duration_s))})",
                    k,
                )
            )
        elif end - start < min_s:
            problems.append(
                Problem(
                    "length",
                    where,
                    f"lasts {end - start} s ({clock(start)} to {clock(end)}); "
                    f"{platform} needs each chapter to last {min_s} s or more",
                    k,
                )
            )
    return problems


def check_youtube_chapters(text: str, duration_s: float) -> list[Problem]:
    """YouTube's rules for a description's chapter list (module docstring), on the text as written:
    every line ``<M:SS|H:MM:SS> title``, the first at 0:00, at least three, ascending, each at least 10 s
    (the last until the video's end, ``duration_s``)."""
    rows, problems = parse_chapters(text, _YOUTUBE_LINE)
    if len(rows) < YOUTUBE_MIN_CHAPTERS:
        problems.append(
            Problem(
                "count",
                "",
                f"{len(rows)} chapter{'s' if len(rows) != 1 else ''}; YouTube needs at least {YOUTUBE_MIN_CHAPTERS}",
            )
        )
    return problems + _chapter_checks(rows, duration_s, youtube_clock, "0:00", YOUTUBE_MIN_CHAPTER_S, "YouTube")


def check_bilibili_chapters(text: str, duration_s: float) -> list[Problem]:
    """Bilibili's chapter list as creators report it (module docstring): every line ``<MM:SS|HH:MM:SS>
    title``, the first at 00:00, ascending, at most 10, titles of at most 16 characters, each at least 5 s."""
    rows, problems = parse_chapters(text, _BILIBILI_LINE)
    if not rows:
        problems.append(Problem("count", "", "no chapter"))
    if len(rows) > BILIBILI_MAX_CHAPTERS:
        problems.append(Problem("count", "", f"{len(rows)} chapters; Bilibili takes at most {BILIBILI_MAX_CHAPTERS}"))
    for k, (_, title) in enumerate(rows, 1):
        if len(title) > BILIBILI_MAX_TITLE:
            problems.append(
                Problem(
                    "title",
                    f"chapter {k} '{title}'",
                    f"its title has {len(title)} characters; Bilibili shows at most {BILIBILI_MAX_TITLE}",
                    k,
                )
            )
    return problems + _chapter_checks(rows, duration_s, bilibili_clock, "00:00", BILIBILI_MIN_CHAPTER_S, "Bilibili")


# --- subtitles ---------------------------------------------------------------------------------------------
def bcc(subtitles: list[dict]) -> dict:
    """The manifest's subtitle events (lesson times in ms) as a BCC document."""
    return {
        **BCC_STYLE,
        "body": [
            {
                "from": round(int(e["start_ms"]) / 1000, 3),
                "to": round(int(e["end_ms"]) / 1000, 3),
                "location": BCC_LOCATION,
                "content": str(e["text"]),
            }
            for e in subtitles
        ],
    }


def _number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def check_bcc(doc: object, duration_s: float | None = None) -> list[Problem]:
    """BCC's format: an object with the style keys (sizes and alphas numbers, colours ``#RRGGBB``,
    ``Stroke`` a string) and ``body``, a non-empty list of ``{"from", "to", "location", "content"}``: times
    in seconds, ``0 <= from < to`` (``to`` within ``duration_s`` when given), each event starting no
    earlier than the one before ends, ``location`` a whole number, ``content`` text that is not blank."""
    if not isinstance(doc, dict):
        return [Problem("format", "", f"a BCC file is a JSON object, not {type(doc).__name__}")]
    problems: list[Problem] = []
    for key in (*BCC_STYLE, "body"):
        if key not in doc:
            problems.append(Problem("format", "", f"no '{key}' key"))
    for key in ("font_size", "background_alpha"):
        if key in doc and not (_number(doc[key]) and doc[key] >= 0):
            problems.append(Problem("format", key, f"{doc[key]!r} is not a number of 0 or more"))
    if "background_alpha" in doc and _number(doc["background_alpha"]) and doc["background_alpha"] > 1:
        problems.append(Problem("format", "background_alpha", f"{doc['background_alpha']!r} is more than 1"))
    for key in ("font_color", "background_color"):
        if key in doc and not (isinstance(doc[key], str) and _COLOUR.fullmatch(doc[key])):
            problems.append(Problem("format", key, f"{doc[key]!r} is not a colour #RRGGBB"))
    if "Stroke" in doc and not isinstance(doc["Stroke"], str):
        problems.append(Problem("format", "Stroke", f"{doc['Stroke']!r} is not a string"))
    body = doc.get("body")
    if "body" in doc and (not isinstance(body, list) or not body):
        problems.append(Problem("format", "body", "must be a list of subtitles, and not empty"))
        return problems
    previous_end = None
    for k, item in enumerate(body or [], 1):
        where = f"subtitle {k}"
        if not isinstance(item, dict):
            problems.append(Problem("format", where, "is not an object"))
            continue
        missing = [key for key in _BCC_ITEM_KEYS if key not in item]
        if missing:
            problems.append(Problem("format", where, f"no {', '.join(repr(m) for m in missing)}"))
            continue
        a, b = item["from"], item["to"]
        if not (_number(a) and _number(b)):
            problems.append(Problem("format", where, f"from {a!r} and to {b!r} must be numbers of seconds"))
            continue
        if a < 0 or a >= b:
            problems.append(
                Problem("timing", where, f"from {a} is not before to {b}" if a >= b else f"from {a} is negative")
            )
        if previous_end is not None and a < previous_end:
            problems.append(Problem("timing", where, f"starts at {a}, before subtitle {k - 1} ends ({previous_end})"))
        if duration_s is not None and b > duration_s + 0.001:
            problems.append(Problem("timing", where, f"ends at {b}, after the video's end ({duration_s})"))
        if not isinstance(item["location"], int) or isinstance(item["location"], bool):
            problems.append(Problem("format", where, f"location {item['location']!r} is not a whole number"))
        if not isinstance(item["content"], str) or not item["content"].strip():
            problems.append(Problem("content", where, f"content {item['content']!r} is empty"))
        previous_end = max(b, previous_end or b)
    return problems


def check_srt(text: str, duration_s: float | None = None) -> list[Problem]:
    """SubRip: every block parses (index, ``HH:MM:SS,mmm --> HH:MM:SS,mmm``, text), each starts before it
    ends and no earlier than the one before ends (and ends within ``duration_s`` when given), and has text."""
    try:
        subs = list(srt.parse(text, ignore_errors=False))
    except (srt.SRTParseError, ValueError, OverflowError) as exc:
        return [Problem("format", "", f"not SubRip: {str(exc).splitlines()[0]}")]
    if not subs:
        return [Problem("format", "", "no subtitle")]
    problems: list[Problem] = []
    previous_end = None
    for k, s in enumerate(subs, 1):
        where = f"subtitle {k}"
        if s.start >= s.end:
            problems.append(Problem("timing", where, f"starts at {s.start}, not before it ends ({s.end})"))
        if previous_end is not None and s.start < previous_end:
            problems.append(Problem("timing", where, f"starts at {s.start}, before subtitle {k - 1} ends"))
        if duration_s is not None and s.end.total_seconds() > duration_s + 0.001:
            problems.append(Problem("timing", where, f"ends at {s.end}, after the video's end"))
        if not s.content.strip():
            problems.append(Problem("content", where, "has no text"))
        previous_end = max(s.end, previous_end or s.end)
    return problems


# --- the command -------------------------------------------------------------------------------------------
_FIX = {
    "count": "give the lesson more scenes (each scene is a chapter) in {narration}, then run render.py course",
    "length": "lengthen {scene}, or merge it with its neighbour, in {narration}, then run render.py course",
    "title": "shorten the title of {scene} in {narration}, then run render.py course",
    "first": "run render.py course again (the manifest's first chapter should start at 0)",
    "order": "run render.py course again (the manifest's chapters are out of order)",
    "format": "run render.py course again",
    "timing": "run render.py course again",
    "content": "run render.py course again",
}


def _delivered(layout: MediaLayout) -> dict:
    """The delivered manifest (``coursekit.deliver.manifest``: its schema checked, a damaged one one line),
    as JSON data."""
    fix = "run: python render.py course (it delivers the course and writes its manifest)"
    if not layout.manifest.is_file():
        raise UserError(f"export: no delivered course in {layout.course} (no manifest.json); {fix}")
    manifest = read_manifest(layout.manifest).model_dump()
    if not manifest["lessons"]:
        raise UserError(f"export: the delivered course ({layout.manifest}) has no lesson; {fix}")
    return manifest


def _lesson_line(platform: str, lesson: dict, file: str, problem: Problem) -> str:
    """One line: the platform, the lesson, the file, the problem and how to fix it (the chapter's scene named)."""
    scenes = lesson.get("scenes") or []
    k = problem.chapter
    scene = f"scene {scenes[k - 1]}" if k and k <= len(scenes) else "the scene"
    fix = _FIX.get(problem.rule, _FIX["format"]).format(scene=scene, narration=f"narration/{lesson['lesson']}.yaml")
    return f"export {platform}: lesson {lesson['lesson']}, {file}: {problem}; {fix}"


def _youtube(layout: MediaLayout, lesson: dict) -> tuple[dict[Path, str], list[str]]:
    lid, duration = str(lesson["lesson"]), float(lesson["duration_s"])
    chapters = chapter_list(lesson.get("chapters") or [], youtube_clock)
    srt_file = layout.lesson_subtitles(lid, "srt")
    if not srt_file.is_file():
        return {}, [f"export youtube: lesson {lid}: no {srt_file.name} in {srt_file.parent}; run render.py course"]
    subtitles = read_text(srt_file, "SubRip subtitles")
    errors = [_lesson_line("youtube", lesson, "chapters", p) for p in check_youtube_chapters(chapters, duration)[:1]]
    errors += [_lesson_line("youtube", lesson, srt_file.name, p) for p in check_srt(subtitles, duration)[:1]]
    if not errors and read_subtitles(srt_file) != [
        (int(e["start_ms"]), int(e["end_ms"]), str(e["text"])) for e in lesson.get("subtitles") or []
    ]:
        errors.append(
            f"export youtube: lesson {lid}: {srt_file.name} and the manifest's subtitles differ (the "
            "subtitles were written again after the course was assembled); run render.py course"
        )
    return {layout.youtube_chapters(lid): chapters, layout.youtube_subtitles(lid): subtitles}, errors


def _bilibili(layout: MediaLayout, lesson: dict) -> tuple[dict[Path, str], list[str]]:
    lid, duration = str(lesson["lesson"]), float(lesson["duration_s"])
    chapters = chapter_list(lesson.get("chapters") or [], bilibili_clock)
    doc = bcc(lesson.get("subtitles") or [])
    errors = [_lesson_line("bilibili", lesson, "chapters", p) for p in check_bilibili_chapters(chapters, duration)[:1]]
    errors += [_lesson_line("bilibili", lesson, "subtitles", p) for p in check_bcc(doc, duration)[:1]]
    return {
        layout.bilibili_subtitles(lid): json.dumps(doc, ensure_ascii=False, indent=1) + "\n",
        layout.bilibili_chapters(lid): chapters,
    }, errors


def export_course(layout: MediaLayout, platform: str, lesson_id: str | None = None) -> list[Path]:
    """Write ``platform``'s files for every delivered lesson (or ``lesson_id``'s); return them. Every lesson
    is checked before any file is written; one line per lesson that breaks a rule (its first problem)."""
    if platform not in PLATFORMS:
        raise UserError(f"export: unknown platform {platform!r}; give one of {', '.join(PLATFORMS)}")
    lessons = _delivered(layout)["lessons"]
    if lesson_id is not None:
        lessons = [l for l in lessons if str(l.get("lesson")) == lesson_id]
        if not lessons:
            known = ", ".join(str(l.get("lesson")) for l in _delivered(layout)["lessons"])
            raise UserError(
                f"export: no lesson '{lesson_id}' in the delivered course (it has: {known}); give one "
                "of them, or run render.py course to deliver it"
            )
    files: dict[Path, str] = {}
    errors: list[str] = []
    for lesson in lessons:
        made, wrong = (_youtube if platform == "youtube" else _bilibili)(layout, lesson)
        files.update(made)
        errors += wrong
    if errors:
        raise UserErrors(errors)
    return [write_text(path, text) for path, text in files.items()]
