"""A cue's text in the forms the pipeline needs: written (subtitles), spoken (the voice), bookmark offsets."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from coursekit.content.narration import BOOKMARK_RE, Cue


def strip_bookmarks(text: str) -> tuple[str, dict[str, int]]:
    """Remove ``{@name}`` marks; return the clean text and each mark's character offset in it."""
    out, marks, pos = [], {}, 0
    for m in BOOKMARK_RE.finditer(text):
        out.append(text[pos : m.start()])
        marks[m.group(1)] = sum(len(p) for p in out)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out), marks


@dataclass(frozen=True)
class CueText:
    """The forms of one cue's text that the pipeline needs."""

    written: str  # subtitle text: figures filled, bookmarks removed
    spoken: str  # what the voice reads (lexicon applied)
    bookmarks_spoken: dict[str, int]  # bookmark -> offset in `spoken`
    written_to_spoken: Callable[[int], int] | None  # None when `say` differs from `text`


def cue_text(cue: Cue, lexicon, reads_latin: bool = False) -> CueText:
    """``reads_latin``: the voice reads Latin script (``Voice.reads_latin``), so terms keep their
    Latin spoken form instead of a transliteration."""

    written, _ = strip_bookmarks(cue.figures.fill(cue.text))
    source, marks = strip_bookmarks(cue.figures.fill(cue.say if cue.say is not None else cue.text))
    spoken = lexicon.speak(source, barriers=tuple(marks.values()), reads_latin=reads_latin)
    bookmarks = {name: spoken.written_to_spoken(off) for name, off in marks.items()}
    mapping = spoken.written_to_spoken if cue.say is None else None
    return CueText(written, spoken.text, bookmarks, mapping)
