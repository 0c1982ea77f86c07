"""Which way a Mandarin sentence says something turns: the two words of plain Mandarin for it.

逆时针 (against the clock) is counter-clockwise, the mathematical positive angle; 顺时针 (with the clock) is
clockwise. They name a direction whatever the subject, so they are the language's, and here. Words that name one
only against a convention ("turning back" is clockwise only where turning on is counter-clockwise) are a course's,
and a course adds them where it checks its motion (``coursekit.render.motion``).
"""

from __future__ import annotations

from collections.abc import Mapping

COUNTER_CLOCKWISE = 1  #: the positive angle
CLOCKWISE = -1

TURN_WORDS: Mapping[str, int] = {"逆时针": COUNTER_CLOCKWISE, "顺时针": CLOCKWISE}


def said_ways(text: str, words: Mapping[str, int] = TURN_WORDS) -> dict[int, list[str]]:
    """The ways of turning ``text`` names (``COUNTER_CLOCKWISE``, ``CLOCKWISE``), each with the words that name
    it. Longer words are looked for first, and a word found is taken out of the text, so a longer phrase of a
    course is not also read as a shorter word inside it."""
    found: dict[int, list[str]] = {}
    rest = text
    for word in sorted(words, key=len, reverse=True):
        if word in rest:
            found.setdefault(words[word], []).append(word)
            rest = rest.replace(word, "\0")
    return found
