"""YAML loading with the safe loader only, bounded in size, with errors as one line."""
from __future__ import annotations

from pathlib import Path

import yaml

from coursekit.errors import UserError

MAX_BYTES = 2_000_000
MAX_ALIASES = 100


class _Loader(yaml.SafeLoader):
    """SafeLoader that refuses alias bombs (too many alias expansions)."""

    def __init__(self, stream):
        super().__init__(stream)
        self._aliases = 0

    def compose_node(self, parent, index):  # noqa: D401 - PyYAML hook
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise yaml.YAMLError(f"too many aliases (more than {MAX_ALIASES}) at line {mark.line + 1}; write the values out")
        return super().compose_node(parent, index)


def load_text(text: str, source: str) -> object:
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        problem = exc.problem or "invalid YAML"
        if "could not determine a constructor" in str(exc):
            problem = "a tag like '!!python/...' is not allowed; use plain values"
        raise UserError(f"{source}: {where}: {problem}; fix the YAML syntax there") from None
    except yaml.YAMLError as exc:
        raise UserError(f"{source}: {exc}") from None


def load_file(path: Path) -> object:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror}); check the path") from None
    if len(raw) > MAX_BYTES:
        raise UserError(f"{path}: file is {len(raw)} bytes, more than {MAX_BYTES}; split it up")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: byte {exc.start} is not UTF-8; save the file as UTF-8") from None
    return load_text(text, str(path.name if path.parent == path.parent else path))
