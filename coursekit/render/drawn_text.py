"""Every string a scene puts on screen, recorded while it is built (a dry run is enough).

A :class:`TextRecorder` attached to a narrated scene looks at the screen on every frame the renderer
draws (and after every ``play`` and ``wait``) and records, once per mobject and string, each text
that has ink on the frame at that moment:

``Text``
    ``Text`` (its ``original_text``: spaces and line breaks as written);
``MarkupText``
    the text of a ``MarkupText`` with its Pango markup removed and entities decoded;
``Paragraph``
    the lines of a ``Paragraph``, joined by line breaks;
``Typst``
    the source of a ``Typst``/``MathTypst`` (it carries its own fonts: ``typst`` is True);
``glyphs``
    a unit that draws characters from glyphs it built beforehand and says which with a
    ``glyph_pairs()`` method (a live number): the characters it shows now.

A text counts as on screen when any of its glyphs has points and some opacity, so a text
half-way through a fade or a ``Write`` counts, and one kept in the scene at opacity 0 does not.
Texts inside groups are found at any depth; a composite label (a ``Text`` beside a live number)
gives one record per part.

Example
-------
::

    recorder = TextRecorder(scene)      # before scene.render()
    scene.render()
    for t in recorder.texts:
        print(t.where(), t.kind, t.text)
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

MARKUP_TAG = re.compile(r"<[^<>]*>")


@dataclass(frozen=True)
class DrawnText:
    """One string seen on screen: first frame and cue it was seen in."""

    scene: str
    text: str
    kind: str  #: Text | MarkupText | Paragraph | Typst | glyphs
    frame: int
    cue: str  #: the cue's full id, or "(before the first cue)" / "(after <cue>)"

    @property
    def typst(self) -> bool:
        """Typst sets its text with its own fonts (its math font included)."""
        return self.kind == "Typst"

    def where(self) -> str:
        return f"{self.scene} · {self.cue} · frame {self.frame}"

    def to_dict(self) -> dict[str, Any]:
        return {"scene": self.scene, "text": self.text, "kind": self.kind, "frame": self.frame, "cue": self.cue}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "DrawnText":
        return DrawnText(str(d["scene"]), str(d["text"]), str(d["kind"]), int(d["frame"]), str(d["cue"]))


@lru_cache(maxsize=None)
def _classes() -> tuple[type, ...]:
    from manim import MarkupText, Paragraph, Text, Typst, VMobject  # Manim: heavy, only when a scene is built

    return Typst, MarkupText, Text, Paragraph, VMobject


def _has_ink(mob) -> bool:
    vmobject = _classes()[-1]
    for m in mob.get_family():
        if isinstance(m, vmobject) and len(m.points) > 0:
            if m.get_fill_opacity() > 0 or (m.get_stroke_width() > 0 and m.get_stroke_opacity() > 0):
                return True
    return False


#: classes whose objects are never texts (no text class, no ``glyph_pairs`` method): the recorder walks every
#: mobject on screen on every frame, and most are shapes
_NOT_TEXT: set[type] = set()


def text_of(mob) -> tuple[str, str] | None:
    """``(kind, text)`` if ``mob`` is a text this module records (see the module doc), else None."""
    cls = type(mob)
    if cls in _NOT_TEXT:
        return None
    Typst, MarkupText, Text, Paragraph, _ = _classes()
    if not (issubclass(cls, (Typst, MarkupText, Text, Paragraph)) or callable(getattr(cls, "glyph_pairs", None))):
        _NOT_TEXT.add(cls)
        return None
    if isinstance(mob, Typst):
        return "Typst", str(mob.typst_code)
    if isinstance(mob, MarkupText):
        return "MarkupText", html.unescape(MARKUP_TAG.sub("", str(mob.original_text)))
    if isinstance(mob, Text):
        return "Text", str(mob.original_text)
    if isinstance(mob, Paragraph):
        return "Paragraph", str(mob.lines_text.original_text)
    pairs = getattr(mob, "glyph_pairs", None)
    if callable(pairs):
        return "glyphs", "".join(ch for ch, glyph in pairs() if _has_ink(glyph))
    return None


class TextRecorder:
    """Attached to a narrated scene (anything with ``renderer``, ``mobjects``, ``plan``, ``frame`` and
    ``step_hooks``); ``texts`` holds what it has seen, in the order first seen."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.texts: list[DrawnText] = []
        self._seen: set[tuple[int, str]] = set()  # (id of the mobject, its string) already recorded
        self._strings: set[tuple[str, str]] = set()  # (kind, string) already recorded
        renderer = scene.renderer
        original_render = renderer.render

        def render(s: Any, time: float, moving_mobjects: Any = None) -> None:
            self.sample()
            original_render(s, time, moving_mobjects)

        renderer.render = render  # type: ignore[method-assign]
        scene.step_hooks.append(lambda kind="step": self.sample())

    def _cue(self) -> str:
        scene = self.scene
        beat = getattr(scene, "_active_beat", None)
        if beat is not None:
            return beat.id
        done = getattr(scene, "_cues_done", [])
        return f"(after {done[-1]})" if done else "(before the first cue)"

    def sample(self) -> None:
        """Record every text with ink on the screen now."""
        found: list[tuple[Any, str, str]] = []
        visited: set[int] = set()

        def walk(mob) -> None:
            if id(mob) in visited:
                return
            visited.add(id(mob))
            got = text_of(mob)
            if got is not None:
                found.append((mob, *got))
                if got[0] != "glyphs":
                    return  # a text's submobjects are its glyphs
            for sub in mob.submobjects:
                walk(sub)

        for top in self.scene.mobjects:
            walk(top)
        for mob, kind, text in found:
            key = (id(mob), text)
            if not text or key in self._seen or not _has_ink(mob):
                continue
            self._seen.add(key)
            if (kind, text) in self._strings:
                continue
            self._strings.add((kind, text))
            self.texts.append(DrawnText(self.scene.plan.id, text, kind, int(self.scene.frame), self._cue()))


def attach(scene) -> TextRecorder:
    """Record the texts ``scene`` draws from now on (call before ``render()``)."""
    return TextRecorder(scene)
