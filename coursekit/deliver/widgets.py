"""The course's live widgets on its page: the course ships them, the engine only places them.

A widget *kind* is a folder of the course, ``widgets/<kind>/`` (beside ``narration/``):

- ``widget.html``: the markup of one widget, a template whose outermost element carries
  ``id="{{uid}}"``; the engine fills ``{{uid}}`` (the widget's id on the page, unique; derive the ids
  of its parts from it: ``{{uid}}-title``), ``{{title}}`` (its title, escaped) and ``{{seek}}`` (a
  button that plays the widget's chapter, or nothing if it names none);
- ``widget.js``: its script, run once after the page's own. It calls
  ``coursekit.widget("<kind>", function (element, data) {...})``, and that function runs once for each
  widget of the kind on the page, with its outermost element and its data;
- ``widget.css`` (optional): its style, scoped by the kind's own class names.

Script and style are inlined once per kind that the page shows; each widget's data follows its markup
as a ``<script type="application/json" class="widget-data">`` (``data-kind``, ``data-for`` its id).

Which widgets a lesson shows is the course's ``narration/page.py``: ``WIDGETS``, a list of dicts::

    {"kind": "dot_counter",       # a folder widgets/dot_counter/
     "lesson": "counting",        # the lesson whose page section shows it
     "scene": "count_dots",       # optional: the chapter it goes with (beside it, and {{seek}} plays it)
     "title": "…",                # its heading
     "data": {"start": 3}}        # what its script reads: JSON (finite numbers, text, lists, dicts)

its numbers computed, as the narration's are, by the course's figures. The engine checks the entries,
the kinds' files and the data's form (not its meaning, which is the course's); a mistake is one line
naming the file and the fix (``UserError``).
"""

from __future__ import annotations

import html
import json
import math
import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from numbers import Integral, Real
from pathlib import Path

from coursekit.core.errors import UserError
from coursekit.core.modules import load_by_path
from coursekit.core.paths import ID_RE, NotAPlainName, course_root, narration_dir, plain_name, shown

FOLDER = "widgets"
MARKUP, SCRIPT, STYLE = "widget.html", "widget.js", "widget.css"
#: what the engine fills in a kind's markup
PLACEHOLDERS = ("uid", "title", "seek")
KEYS = ("kind", "lesson", "scene", "title", "data")
_KIND = ID_RE  # a kind is an id (plain_name, snake_case)
_PLACE = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")
#: the markup's first element (after blanks and comments) carries id="{{uid}}"
_OUTER = re.compile(r"\s*(?:<!--.*?-->\s*)*<[A-Za-z][^>]*\sid=\"\{\{uid\}\}\"", re.S)
_SHAPE = "a widget is {kind, lesson, scene (optional), title, data}"


@dataclass(frozen=True)
class WidgetKind:
    """One kind's files, read and checked."""

    name: str
    folder: Path
    markup: str = field(repr=False)
    script: str = field(repr=False)
    style: str = field(repr=False)


@dataclass(frozen=True)
class Widget:
    """One widget to place: its kind, the lesson (and chapter) it belongs to, its title and data."""

    kind: WidgetKind
    lesson: str
    title: str
    scene: str | None = None
    data: dict = field(default_factory=dict)


def json_for_html(data: object) -> str:
    """JSON to sit inside a <script type="application/json">: <, > and & as \\u escapes, so no text in it
    can end the element or be read as markup."""
    return (
        json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{shown(path)}: not UTF-8 text; save {what} as UTF-8") from None
    except OSError as exc:
        raise UserError(f"{shown(path)}: cannot be read ({exc.strerror}); make it readable") from None


def load_kind(kinds: Path, name: object, where: str) -> WidgetKind:
    """The kind ``name`` from the folder of kinds ``kinds`` (``where`` names the entry that asked for it)."""
    try:
        plain_name(name, "a widget kind", snake_case=True)  # it names its folder: widgets/<kind>/
    except NotAPlainName:
        raise UserError(
            f"{where}: kind {name!r} is not a folder name in snake_case; name the folder "
            f"{shown(kinds)}/<kind>/ that holds its {MARKUP} and {SCRIPT}"
        ) from None
    folder = kinds / name
    if not folder.is_dir():
        known = (
            sorted(p.name for p in kinds.iterdir() if p.is_dir() and _KIND.fullmatch(p.name)) if kinds.is_dir() else []
        )
        raise UserError(
            f"{where}: unknown kind {name!r}: no folder {shown(folder)}/ (known: {', '.join(known) or 'none'}); "
            f"make it, with {MARKUP} and {SCRIPT}, or fix the kind"
        )
    for needed, what in ((MARKUP, "its markup"), (SCRIPT, "its script")):
        if not (folder / needed).is_file():
            raise UserError(
                f"{shown(folder / needed)}: missing; a widget kind's folder holds {MARKUP} (its markup), "
                f"{SCRIPT} (its script) and, if it wants one, {STYLE}; write {what}"
            )
    markup = _read(folder / MARKUP, "the markup")
    unknown = sorted({m.group(1) for m in _PLACE.finditer(markup)} - set(PLACEHOLDERS))
    if unknown:
        raise UserError(
            f"{shown(folder / MARKUP)}: unknown placeholder {{{{{unknown[0]}}}}}; the engine fills "
            f"{', '.join('{{' + p + '}}' for p in PLACEHOLDERS)}, and the script reads the rest from its data"
        )
    if not _OUTER.match(markup):
        raise UserError(
            f'{shown(folder / MARKUP)}: the outermost element needs id="{{{{uid}}}}" '
            f"(the engine hands that element its data); put it on the first tag"
        )
    script = _read(folder / SCRIPT, "the script")
    if re.search(r"</script|<!--", script, re.I):
        raise UserError(
            f"{shown(folder / SCRIPT)}: holds </script or <!--, which would end or upset the inlined "
            f"script; write <\\/script and \\x3c!-- in its strings"
        )
    style = _read(folder / STYLE, "the style") if (folder / STYLE).is_file() else ""
    if re.search(r"</style", style, re.I):
        raise UserError(f"{shown(folder / STYLE)}: holds </style, which would end the inlined style; write \\3c /style")
    return WidgetKind(name, folder, markup, script, style)


def plain_data(value: object, where: str) -> object:
    """``value`` as plain JSON (tuples as lists, numpy's numbers as Python's), or one line saying where it is not."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, Real):
        x = float(value)
        if not math.isfinite(x):
            raise UserError(f"{where}: {x} is not a finite number; give a number the page can show")
        return x
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise UserError(f"{where}: key {key!r} is not text; data's keys are names")
            out[key] = plain_data(item, f"{where}.{key}")
        return out
    if isinstance(value, (list, tuple)):
        return [plain_data(item, f"{where}[{n}]") for n, item in enumerate(value)]
    raise UserError(f"{where}: {type(value).__name__} is not JSON; give numbers, text, lists or dicts")


def check_widget(entry: object, where: str, kinds: Path, loaded: dict[str, WidgetKind] | None = None) -> Widget:
    """One ``WIDGETS`` entry, checked, its kind read from ``kinds`` (once per kind, kept in ``loaded``)."""
    if not isinstance(entry, Mapping):
        raise UserError(f"{where} must be a dict; {_SHAPE}")
    extra = [k for k in entry if k not in KEYS]
    if extra:
        raise UserError(f"{where}: unknown key {extra[0]!r}; {_SHAPE}: what the widget's script reads goes in data")
    for key in ("kind", "lesson", "title"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise UserError(f"{where}: {key} is missing or not text; {_SHAPE}")
    scene = entry.get("scene")
    if scene is not None and not isinstance(scene, str):
        raise UserError(f"{where}: scene {scene!r} is not a scene id; name the chapter's scene, or leave it out")
    data = entry.get("data", {})
    if not isinstance(data, Mapping):
        raise UserError(f"{where}: data must be a dict (what the widget's script reads)")
    loaded = {} if loaded is None else loaded
    if entry["kind"] not in loaded:
        loaded[entry["kind"]] = load_kind(kinds, entry["kind"], where)
    return Widget(loaded[entry["kind"]], entry["lesson"], entry["title"], scene, plain_data(data, f"{where}: data"))


def course_widgets(folder: Path | None = None, kinds: Path | None = None) -> list[Widget]:
    """``WIDGETS`` of the course's ``narration/page.py`` (loaded by path, like its figures), checked, with their
    kinds from ``widgets/`` beside the narration folder (``kinds``; default: the course root's). No page.py:
    no widgets."""
    narration = Path(folder) if folder is not None else narration_dir()
    kinds = Path(kinds) if kinds is not None else (narration.parent if folder is not None else course_root()) / FOLDER
    path = narration / "page.py"
    if not path.is_file():
        return []
    try:
        module = load_by_path(path, "page")
    except Exception as exc:
        raise UserError(
            f"{shown(path)}: the course's page widgets failed to load: {type(exc).__name__}: {exc}"
        ) from None
    entries = getattr(module, "WIDGETS", [])
    if not isinstance(entries, (list, tuple)):
        raise UserError(f"{shown(path)}: WIDGETS must be a list of dicts; {_SHAPE}")
    loaded: dict[str, WidgetKind] = {}
    return [check_widget(w, f"{shown(path)}: WIDGETS[{n}]", kinds, loaded) for n, w in enumerate(entries)]


def widget_html(widget: Widget, uid: str, seek: str = "") -> str:
    """One widget's markup, its placeholders filled (``seek``: the button's markup, or nothing), and its data."""
    fill = {"uid": uid, "title": html.escape(widget.title, quote=True), "seek": seek}
    markup = _PLACE.sub(lambda m: fill[m.group(1)], widget.kind.markup).strip("\n")
    return textwrap.indent(
        f'{markup}\n<script type="application/json" class="widget-data" '
        f'data-kind="{widget.kind.name}" data-for="{uid}">{json_for_html(widget.data)}</script>',
        "  ",
    )


def kinds_shown(widgets: list[Widget]) -> list[WidgetKind]:
    """The kinds of ``widgets``, once each, in the order they first appear."""
    return list({w.kind.name: w.kind for w in widgets}.values())


def styles_html(kinds: list[WidgetKind]) -> str:
    return "".join(f'\n<style data-widget="{k.name}">\n{k.style.strip()}\n</style>' for k in kinds if k.style.strip())


def scripts_html(kinds: list[WidgetKind]) -> str:
    return "".join(f'\n<script data-widget="{k.name}">\n{k.script.strip()}\n</script>' for k in kinds)
