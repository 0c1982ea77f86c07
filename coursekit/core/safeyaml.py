"""YAML loading with the safe loader only, bounded in size, with errors as one line."""
from __future__ import annotations

from pathlib import Path

import yaml

from coursekit.core.errors import UserError

MAX_BYTES = 2_000_000
MAX_DEPTH = 50              # lists and mappings inside each other; the course's files use at most 6


class _Loader(yaml.SafeLoader):
    """SafeLoader that refuses aliases, so an anchor bomb cannot expand, and nesting deeper than
    MAX_DEPTH, which would otherwise end in a RecursionError inside PyYAML's composer."""

    _depth = 0

    def compose_node(self, parent, index):  # noqa: D401 - PyYAML hook
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.YAMLError(f"line {mark.line + 1}: anchors and aliases (&name / *name) are not supported; write the values out")
        nested = self.check_event(yaml.SequenceStartEvent, yaml.MappingStartEvent)
        self._depth += nested
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.YAMLError(f"line {mark.line + 1}, column {mark.column + 1}: lists and mappings are nested "
                                     f"more than {MAX_DEPTH} deep; flatten the structure")
            return super().compose_node(parent, index)
        finally:
            self._depth -= nested


def load_text(text: str, source: str) -> object:
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        raise UserError(f"{source}: line {line}: control character U+{exc.character:04X} is not allowed; delete it") from None
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
    return load_text(text, str(path))
