"""Written text turned into spoken text by replacing terms, with character offsets mapped both ways."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Spoken:
    """The spoken form of a written string, with offsets mapped both ways.

    ``spans`` lists each replaced term as (written_start, written_end, spoken_start, spoken_end).
    Outside the spans characters map one to one; inside a span offsets map proportionally
    (rounded down), so span edges map exactly and the mapping is monotone.
    """

    written: str
    text: str
    spans: tuple[tuple[int, int, int, int], ...] = ()

    def written_to_spoken(self, i: int) -> int:
        return self._map(i, len(self.written), 0, 2)

    def spoken_to_written(self, j: int) -> int:
        return self._map(j, len(self.text), 2, 0)

    def _map(self, i: int, length: int, src: int, dst: int) -> int:
        if not 0 <= i <= length:
            raise IndexError(f"offset {i} outside 0..{length}")
        shift = 0
        for span in self.spans:
            a, b, c, d = span[src], span[src + 1], span[dst], span[dst + 1]
            if i <= a:
                break
            if i < b:
                return c + (i - a) * (d - c) // (b - a)
            shift = d - b
        return i + shift


def index(keys: Iterable[str]) -> dict[str, list[str]]:
    """The keys by first character, longest first: what ``match_longest`` searches."""
    out: dict[str, list[str]] = {}
    for k in keys:
        out.setdefault(k[0], []).append(k)
    for v in out.values():
        v.sort(key=lambda k: (-len(k), k))
    return out


def match_longest(text: str, keys: dict[str, list[str]], barriers: frozenset[int] = frozenset()):
    """Leftmost-longest, non-overlapping matches of the keys in ``keys`` (an ``index``). A match
    never strictly contains a barrier offset. Yields (start, key)."""
    i = 0
    n = len(text)
    while i < n:
        for key in keys.get(text[i], ()):
            end = i + len(key)
            if text.startswith(key, i) and not any(i < p < end for p in barriers):
                yield i, key
                i = end
                break
        else:
            i += 1


def replace_terms(
    written: str, terms: dict[str, str], keys: dict[str, list[str]], barriers: Iterable[int] = ()
) -> Spoken:
    """Replace the ``terms`` (written -> spoken; ``keys`` is their ``index``) longest-first,
    non-overlapping, left to right; no term spans a ``barriers`` offset."""
    parts: list[str] = []
    spans: list[tuple[int, int, int, int]] = []
    pos = 0
    out_len = 0
    for start, key in match_longest(written, keys, frozenset(barriers)):
        parts.append(written[pos:start])
        out_len += start - pos
        rep = terms[key]
        spans.append((start, start + len(key), out_len, out_len + len(rep)))
        parts.append(rep)
        out_len += len(rep)
        pos = start + len(key)
    parts.append(written[pos:])
    return Spoken(written, "".join(parts), tuple(spans))
