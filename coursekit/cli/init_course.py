"""``init DIR [--title T]``: write a new course that renders as it stands.

The course is copied from the templates in ``coursekit/scaffold/course/`` (package data: each file
there ends in ``.tmpl``, so the engine's own checks and tools never take a template for engine code):
``config.yaml``, one lesson with two scenes in ``narration/`` and ``scenes/`` (one waits for a bookmark,
one draws a figure of the course's ``narration/figures.py``), the lexicon, a test that checks a drawn
label against its math, a README and a ``.gitignore``. ``{{title}}`` in a template becomes the title.
A folder that exists and is not empty is refused, in one line, and nothing is written.
"""

from __future__ import annotations

import json
from pathlib import Path

from coursekit.content.glyphs import GLYPH_FIX, font_cmap, missing_glyphs
from coursekit.core.config import DEFAULT_FONT
from coursekit.core.errors import UserError
from coursekit.core.invisible import unseen
from coursekit.core.paths import writable_folder

TEMPLATES = Path(__file__).resolve().parents[1] / "scaffold" / "course"
SUFFIX = ".tmpl"
DEFAULT_TITLE = "我的第一门课"
#: templates whose file name is not the course file's own (a dot file would be hidden in the package)
RENAMED = {"gitignore": ".gitignore"}


def templates() -> list[Path]:
    """Every template file, sorted (paths inside ``TEMPLATES``)."""
    return sorted(p.relative_to(TEMPLATES) for p in TEMPLATES.rglob(f"*{SUFFIX}") if p.is_file())


def target_name(template: Path) -> Path:
    """The course file a template becomes: ``scenes/welcome.py.tmpl`` -> ``scenes/welcome.py``."""
    name = template.name[: -len(SUFFIX)]
    return template.with_name(RENAMED.get(name, name))


def check_title(title: str) -> str:
    """The title as ``init`` writes it, if the course's own ``check`` would take it: one line of at most
    200 characters, no character a viewer cannot see (``unseen``: a control or format character, the
    config's own check of ``course.title``), and, when the font can be read here, every character drawn by
    the course font (the glyph check of ``check``, ``coursekit.content.glyphs``). Else one line."""
    title = title.strip()
    if not title:
        raise UserError("init --title: the title is empty; give the course's title, like --title 我的第一门课")
    problem = unseen(title)
    if problem:
        raise UserError(
            f"init --title: the title holds {problem}, which a viewer cannot see and check would refuse; "
            "type the title again without it"
        )
    if len(title) > 200:
        raise UserError("init --title: the title must be one line of at most 200 characters")
    try:
        cmap = font_cmap(DEFAULT_FONT)
    except UserError:  # no font here: doctor and check say so; the title is still the user's
        return title
    missing = missing_glyphs([("init --title", title)], cmap)
    if missing:
        raise UserError(f"{missing[0].line(DEFAULT_FONT)}; check would refuse it; {GLYPH_FIX}")
    return title


def fill(text: str, name: Path, title: str) -> str:
    """A template's text with its ``{{title}}`` filled: as a YAML string in a ``.yaml`` file, else as it is."""
    value = json.dumps(title, ensure_ascii=False) if name.suffix == ".yaml" else title
    return text.replace("{{title}}", value)


def init_course(folder: Path, title: str = DEFAULT_TITLE) -> list[Path]:
    """Write a new course into ``folder`` (made if missing; refused if it holds anything); return the
    files written, relative to it."""
    folder = Path(folder)
    title = check_title(title)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"init: {folder} is a file, not a folder; give a new folder's name")
    if folder.is_dir() and any(folder.iterdir()):
        raise UserError(
            f"init: {folder} exists and is not empty; give a new folder (or an empty one), "
            "so that nothing of yours is overwritten"
        )
    writable_folder(folder, "init", "give a folder you can write")
    written = []
    for template in templates():
        dest = target_name(template)
        text = fill((TEMPLATES / template).read_text(encoding="utf-8"), dest, title)
        (folder / dest).parent.mkdir(parents=True, exist_ok=True)
        (folder / dest).write_text(text, encoding="utf-8")
        written.append(dest)
    return written


def run(folder: Path, title: str | None) -> int:
    """The command: write the course, then say what is in it and what to run next."""
    written = init_course(folder, DEFAULT_TITLE if title is None else title)
    print(f"wrote a new course into {folder}: {len(written)} files")
    for name in written:
        print(f"  {name.as_posix()}")
    print(
        f"next: coursekit --course {folder} check, then coursekit --course {folder} preview square "
        f"(or render.py in place of coursekit); the guide is docs/authoring.md"
    )
    return 0
