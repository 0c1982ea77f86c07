"""Write docs/settings.md's two tables from the code that defines them, between their markers:

- ``<!-- settings -->``: every key of config.yaml, what it accepts and its default
  (``coursekit.core.config.reference_table``: the config model, with each voice's section ``voice.<name>``
  from the settings model its own module declares);
- ``<!-- output -->``: every path under the output folder (``coursekit.core.layout.reference_table``).

    .venv/bin/python scripts/settings_doc.py          # rewrite the tables in docs/settings.md
    .venv/bin/python scripts/settings_doc.py --check  # exit 1 and name the stale table, changing nothing

The rest of the page is written by hand. tests/engine/core/test_config.py and test_layout.py keep the tables equal
to the code.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import coursekit.speech.voices  # noqa: E402, F401  every voice module: each registers its settings section
from coursekit.core import config, layout  # noqa: E402

DOC = Path(__file__).resolve().parent.parent / "docs" / "settings.md"


def tables() -> dict[str, str]:
    """Each marker's table, as the code makes it now."""
    return {"settings": config.reference_table(), "output": layout.reference_table()}


def rewrite(text: str, made: dict[str, str] | None = None) -> str:
    """``text`` with the block between each ``<!-- name -->`` and ``<!-- /name -->`` replaced by its table;
    ValueError naming the marker if a block is missing or written twice."""
    for name, table in (made or tables()).items():
        opening, closing = f"<!-- {name} -->\n", f"\n<!-- /{name} -->"
        if text.count(opening) != 1 or text.count(closing) != 1:
            raise ValueError(f"docs/settings.md needs one {opening.strip()} ... {closing.strip()} block")
        head, rest = text.split(opening, 1)
        text = head + opening + table + closing + rest.split(closing, 1)[1]
    return text


def stale(text: str, made: dict[str, str] | None = None) -> list[str]:
    """The names of the tables in ``text`` that differ from the code's."""
    made = made or tables()
    return [name for name in made if rewrite(text, {name: made[name]}) != text]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a table is stale; write nothing")
    args = ap.parse_args(argv)
    text = DOC.read_text(encoding="utf-8")
    try:
        old = stale(text)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if old:
            print(
                f"docs/settings.md: the {' and '.join(old)} table is stale; run scripts/settings_doc.py",
                file=sys.stderr,
            )
        return 1 if old else 0
    if old:
        DOC.write_text(rewrite(text), encoding="utf-8")
        print(f"docs/settings.md: wrote the {' and '.join(old)} table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
