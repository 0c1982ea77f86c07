"""YAML loading with the safe loader only, bounded in size, with errors as one line."""

from __future__ import annotations

import difflib
import typing
from pathlib import Path

import yaml

from coursekit.core.errors import UserError

MAX_BYTES = 2_000_000
MAX_DEPTH = 50  # lists and mappings inside each other; the course's files use at most 6


class _Loader(yaml.SafeLoader):
    """SafeLoader that refuses aliases, so an anchor bomb cannot expand, and nesting deeper than
    MAX_DEPTH, which would otherwise end in a RecursionError inside PyYAML's composer."""

    _depth = 0

    def compose_node(self, parent, index):  # noqa: D401 - PyYAML hook
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.YAMLError(
                f"line {mark.line + 1}: anchors and aliases (&name / *name) are not supported; write the values out"
            )
        nested = self.check_event(yaml.SequenceStartEvent, yaml.MappingStartEvent)
        self._depth += nested
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.YAMLError(
                    f"line {mark.line + 1}, column {mark.column + 1}: lists and mappings are nested "
                    f"more than {MAX_DEPTH} deep; flatten the structure"
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= nested


def load_text(text: str, source: str) -> object:
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        raise UserError(
            f"{source}: line {line}: control character U+{exc.character:04X} is not allowed; delete it"
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        problem = exc.problem or "invalid YAML"
        if "could not determine a constructor" in str(exc):
            problem = "a tag like '!!python/...' is not allowed; use plain values"
        raise UserError(f"{source}: {where}: {problem}; fix the YAML syntax there") from None
    except yaml.YAMLError as exc:
        raise UserError(f"{source}: {exc}") from None


def read_text(path: Path) -> str:
    """A YAML file's text: readable, at most MAX_BYTES, UTF-8; else one line saying which."""
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
    return text


def load_file(path: Path) -> object:
    return load_text(read_text(path), str(path))


#: the last document read from each path, with its text: a file read again unchanged (the studio reads every
#: lesson and the lexicon at each edit) is not parsed again; its document is only ever read
_LAST: dict[Path, tuple[str, "LinedDocument"]] = {}


def load_lined(path: Path) -> "LinedDocument":
    """The YAML file at ``path`` as a LinedDocument (data plus the line of every value)."""
    path = Path(path)
    text = read_text(path)
    last = _LAST.get(path)
    if last is not None and last[0] == text:
        return last[1]
    doc = LinedDocument(path, text)
    _LAST[path] = (text, doc)
    return doc


_KINDS = {
    "string_type": "must be text or a number",
    "list_type": "must be a list",
    "model_type": "must be a mapping of keys",
    "dict_type": "must be a mapping of 'key: value' entries",
}


class LinedDocument:
    """A YAML document as plain data (for pydantic) that remembers the line of every value and key,
    so every error can name ``file:line``."""

    def __init__(self, path: Path, text: str):
        self.path = path
        loader = None
        try:
            loader = _Loader(text)
            self.root = loader.get_single_node()
        except yaml.reader.ReaderError as exc:
            line = text[: exc.position].count("\n") + 1
            raise UserError(
                f"{self.where(line)}: control character U+{exc.character:04X} is not allowed; delete it"
            ) from None
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark
            raise UserError(
                f"{self.where(mark.line + 1 if mark else 0)}: {exc.problem}; fix the YAML syntax there"
            ) from None
        except yaml.YAMLError as exc:
            raise UserError(f"{path}: {exc}") from None
        finally:
            if loader is not None:
                loader.dispose()
        self.lines: dict[tuple, int] = {}  # where each value starts
        self.key_lines: dict[tuple, int] = {}  # where each mapping key is written
        self.data = self._plain(self.root, ())

    def where(self, line: int) -> str:
        try:
            shown = self.path.relative_to(Path.cwd())
        except ValueError:
            shown = self.path
        return f"{shown}:{line}"

    def where_at(self, loc: tuple, key: bool = False) -> str:
        """``file:line`` of the value (or key) at ``loc``, or of its nearest parent."""
        table = self.key_lines if key else self.lines
        while loc and loc not in table:
            loc = loc[:-1]
        return self.where(table.get(loc, self.lines.get(loc, 1)))

    def fail_at(self, loc: tuple, problem: str, key: bool = False) -> UserError:
        """An error at the value (or, with ``key``, the key) at ``loc``, or its nearest parent."""
        table = self.key_lines if key else self.lines
        while loc and loc not in table:
            loc = loc[:-1]
        return UserError(f"{self.where(table.get(loc, self.lines.get(loc, 1)))}: {problem}")

    def _plain(self, node: yaml.Node | None, loc: tuple) -> object:
        """The node as plain data for pydantic: mappings, lists, and scalars as text (numbers
        included), booleans and nulls as themselves; every position recorded in ``lines``."""
        if node is None:
            return None
        self.lines[loc] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            out: dict[str, object] = {}
            for k, v in node.value:
                key = k.value if isinstance(k, yaml.ScalarNode) else str(k.start_mark.line)
                if key in out:
                    self.key_lines[loc + (key,)] = k.start_mark.line + 1
                    raise self.fail_at(loc + (key,), f"key '{key}' appears twice", key=True)
                self.key_lines[loc + (key,)] = k.start_mark.line + 1
                out[key] = self._plain(v, loc + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self._plain(v, loc + (i,)) for i, v in enumerate(node.value)]
        tag = node.tag.rsplit(":", 1)[-1]
        if tag == "null":
            return None
        if tag == "bool":
            return node.value.lower() in ("true", "yes", "on")
        if tag not in ("str", "int", "float"):
            raise self.fail_at(loc, f"'{loc[-1] if loc else 'the file'}' must be text or a number, not {tag}")
        return node.value

    def describe(self, err: dict, schema: type) -> UserError:
        """One pydantic error as ``file:line: problem; fix``."""
        loc = tuple(err["loc"])
        real = loc
        while real and real not in self.lines and real not in self.key_lines:
            real = real[:-1]  # drop a union member's name pydantic adds
        name = real[-1] if real else "the file"
        if err["type"] == "extra_forbidden":
            allowed = sorted(_fields_at(schema, loc[:-1]))
            close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            return self.fail_at(loc, f"unknown key '{loc[-1]}'; {hint}allowed here: {', '.join(allowed)}", key=True)
        if err["type"] == "missing":
            return self.fail_at(loc[:-1], f"missing key '{loc[-1]}'")
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] in _KINDS:
            msg = f"{name} {_KINDS[err['type']]}"
        return self.fail_at(loc, msg)


def _models_in(annotation: object) -> list[type]:
    """The pydantic models inside a type annotation (``list[Cue]``, ``dict[str, str | Form]``)."""
    if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def _fields_at(schema: type, loc: tuple) -> list[str]:
    """The keys allowed in the mapping at ``loc`` of ``schema`` (aliases as written in the file)."""
    model = schema
    for part in loc:
        fields = getattr(model, "model_fields", {})
        field = next((f for n, f in fields.items() if (f.alias or n) == part), None)
        if field is not None:
            inner = _models_in(field.annotation)
            model = inner[0] if inner else None
    return [f.alias or n for n, f in getattr(model, "model_fields", {}).items()]
