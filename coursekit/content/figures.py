"""Figures: numbers the narration quotes, computed by the course instead of typed into it.

A cue writes a placeholder such as ``{rope_scale}``; the course's ``figures.py`` (next to its
narration) maps each name to a function returning the *written* form, exactly as the subtitles
show it (``"6.28"``, ``"2.2×10⁻¹⁶"``). The lexicon then says how that written form is spoken.
``{@name}`` (with the ``@``) is a bookmark, not a figure, and is left alone.

This module holds what every course needs: the written-form helpers (``fmt_*``), reading a
written figure back (``parse_figure``), loading a course's ``FIGURES`` table by path, and filling
placeholders. It never imports manim.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from coursekit.core.errors import UserError
from coursekit.core.modules import load_by_path

FIGURE_RE = re.compile(r"\{([a-z][a-z0-9_]*)\}")

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_FROM_SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


# --- written forms -------------------------------------------------------------------
def fmt_int(x: float) -> str:
    """A whole number: ``60611``."""
    return str(int(round(float(x))))


def fmt_dec(x: float, places: int = 2) -> str:
    """A decimal with at most ``places`` places, trailing zeros dropped: ``6.28``, ``0.5``, ``0``.

    A negative value uses the minus sign U+2212.
    """
    v = round(float(x), places)
    if v == 0:
        v = 0.0
    s = f"{abs(v):.{places}f}".rstrip("0").rstrip(".") if places else f"{abs(v):.0f}"
    return ("−" if v < 0 else "") + s


def fmt_fixed(x: float, places: int = 2) -> str:
    """A decimal with exactly ``places`` places: ``0.70``."""
    v = round(float(x), places)
    if v == 0:
        v = 0.0
    return ("−" if v < 0 else "") + f"{abs(v):.{places}f}"


def fmt_sci(x: float, digits: int = 2) -> str:
    """A small number in scientific form with ``digits`` significant digits: ``2.2×10⁻¹⁶``."""
    v = float(x)
    if v == 0:
        return "0"
    exp = math.floor(math.log10(abs(v)))
    mant = round(v / 10**exp, digits - 1)
    if abs(mant) >= 10:
        mant, exp = mant / 10, exp + 1
    return f"{mant:.{digits - 1}f}×10{str(exp).translate(_SUPERSCRIPT)}"


def fmt_order(x: float) -> str:
    """The power of ten nearest to ``x`` (on a log scale), for speaking a size: ``10⁻¹⁵``."""
    return "10" + str(round(math.log10(abs(float(x))))).translate(_SUPERSCRIPT)


def fmt_order_above(x: float) -> str:
    """The smallest power of ten strictly above ``|x|``, for saying "under 10⁻¹⁵" truthfully (8.9e−16 → ``10⁻¹⁵``)."""
    return "10" + str(math.floor(math.log10(abs(float(x)))) + 1).translate(_SUPERSCRIPT)


def fmt_point(p) -> str:
    """A 2-D point with up to two decimals: ``(0, 1)``."""
    return f"({fmt_dec(p[0])}, {fmt_dec(p[1])})"


def parse_figure(text: str) -> float | tuple[float, ...]:
    """Read a written figure back as a number (or a tuple for a point); used by the tests."""
    t = text.strip().replace("−", "-")
    if t.startswith("(") and t.endswith(")"):
        return tuple(float(part) for part in t[1:-1].split(","))
    if "×10" in t:
        mant, exp = t.split("×10")
        return float(mant) * 10.0 ** int(exp.translate(_FROM_SUPERSCRIPT))
    if t.startswith("10") and len(t) > 2 and t[2] in "⁻⁰¹²³⁴⁵⁶⁷⁸⁹":  # a power of ten: 10⁻¹⁵
        return 10.0 ** int(t[2:].translate(_FROM_SUPERSCRIPT))
    return float(t)


class Figures:
    """A course's figure table: ``name -> () -> written form``, each computed once."""

    def __init__(self, table: Mapping[str, Callable[[], str]], source: str = "figures.py") -> None:
        self.table = dict(table)
        self.source = source
        self._values: dict[str, str] = {}

    def __contains__(self, name: str) -> bool:
        return name in self.table

    def value(self, name: str) -> str:
        """The written form of one figure; an unknown name is one line naming close matches."""
        if name not in self.table:
            close = difflib.get_close_matches(name, list(self.table), n=3, cutoff=0.5)
            hint = (
                f"close matches: {', '.join(close)}"
                if close
                else f"known: {', '.join(sorted(self.table)[:12])} …"
                if self.table
                else "the course has no figures"
            )
            raise UserError(
                f"unknown figure '{name}' in the narration; {hint}; add it to {self.source} or fix the name"
            )
        if name not in self._values:
            try:
                value = self.table[name]()
            except Exception as exc:  # noqa: BLE001 - the course's code: one line naming the figure
                raise UserError(
                    f"figure '{name}' of {self.source} failed: {type(exc).__name__}: {exc}; fix its function"
                ) from None
            if not isinstance(value, str):
                raise UserError(
                    f"figure '{name}' of {self.source} gave {type(value).__name__}, not the written form; "
                    "return text, like fmt_dec(x)"
                )
            self._values[name] = value
        return self._values[name]

    def fill(self, text: str) -> str:
        """Replace every ``{name}`` with its written form; leave ``{@name}`` bookmarks alone."""
        return FIGURE_RE.sub(lambda m: self.value(m.group(1)), text)


NO_FIGURES = Figures({})


def names_in(text: str) -> list[str]:
    """The figure names used in ``text``, in order (bookmarks ``{@name}`` are not figures)."""
    return FIGURE_RE.findall(text)


class CourseFigures(Figures):
    """The figures of a course's ``figures.py``, loaded (by path) the first time one is asked for, so
    that commands which fill none (list, subtitles) do not import the course's math."""

    def __init__(self, path: Path) -> None:
        super().__init__({}, str(path))
        self.path = path
        self._loaded = False

    def _load(self) -> None:
        if not self._loaded:
            self.table = load_figures(self.path).table
            self._loaded = True

    def __contains__(self, name: str) -> bool:
        self._load()
        return super().__contains__(name)

    def value(self, name: str) -> str:
        self._load()
        return super().value(name)


def load_figures(path: Path) -> Figures:
    """The ``FIGURES`` table of a course's ``figures.py``, loaded by path (so two courses' modules
    cannot collide); a module already imported from that very file is reused. No file: no figures."""
    path = Path(path).resolve()
    if not path.is_file():
        return Figures({}, str(path))
    try:
        module = load_by_path(path, "figures")
    except Exception as exc:
        raise UserError(f"{path}: the course's figures failed to load: {type(exc).__name__}: {exc}") from None
    table = getattr(module, "FIGURES", None)
    if not isinstance(table, Mapping):
        raise UserError(f"{path}: defines no FIGURES mapping of name -> function; add one")
    return Figures(table, str(path))
