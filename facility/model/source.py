"""Reading site files safely, remembering where every value was written.

YAML is composed by libyaml (PyYAML's C parser when present) into a node tree, then turned
into plain Python data here, so that every mapping key and sequence item keeps its line and
column. That walk also enforces what ``yaml.safe_load`` alone would not:

- no tags beyond the YAML core schema (``!!python/object`` and custom tags are refused);
- no duplicate keys in a mapping (PyYAML silently keeps the last one);
- aliases may not expand beyond a bound (a "billion laughs" file fails fast, in little memory).

JSON files are checked by the ``json`` module first (for JSON's own error positions) and then
composed the same way, since JSON is a subset of YAML for our purposes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from facility.messages import Message, localized

try:  # libyaml's C parser: ~10x faster than the pure-Python one
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_FILE_BYTES = 256 * 1024 * 1024
# Nodes that aliases may add on top of the document's own nodes.
MAX_ALIAS_EXPANSION = 100_000

_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:timestamp",
}

Path_ = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Location:
    """A place in an input file; line and column are 1-based."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, with where it is and which field."""

    location: Location
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"{self.location}: {where}{self.message}"

    def localized(self) -> str:
        """As :meth:`__str__`, with the message in the current language (file, line, column
        and field as they are)."""
        where = f"{self.field}: " if self.field else ""
        return f"{self.location}: {where}{localized(self.message)}"


class InputError(Exception):
    """Bad input. Carries every problem found, each with file, line, column and field."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


@dataclass(slots=True)
class SourceMap:
    """Where each value of a document was written: data path -> location.

    A position is ``(line, column)`` in the file ``written_in`` (``file`` unless set), or
    ``(file, line, column)`` for a value of a layered site that came from another file
    (:mod:`facility.model.layers`). ``file`` is always the file that was given.
    """

    file: str
    positions: dict[Path_, tuple[int, int] | tuple[str, int, int]] = field(default_factory=dict)
    written_in: str = ""

    def __post_init__(self) -> None:
        if not self.written_in:
            self.written_in = self.file

    def locate(self, path: Path_) -> Location:
        """The location of ``path``, or of its nearest written ancestor."""
        path = tuple(path)
        while path:
            found = self.positions.get(path)
            if found is not None:
                if len(found) == 2:
                    return Location(self.written_in, *found)  # type: ignore[arg-type]
                return Location(*found)  # type: ignore[arg-type]
            path = path[:-1]
        found = self.positions.get((), (1, 1))
        if len(found) == 2:
            return Location(self.written_in, *found)  # type: ignore[arg-type]
        return Location(*found)  # type: ignore[arg-type]


def field_name(path: Path_) -> str:
    """``("racks", 3, "pdus")`` -> ``racks[3].pdus``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


class _Builder:
    def __init__(self, source: SourceMap):
        self.source = source
        self.scalars = yaml.constructor.SafeConstructor()
        self.seen: set[int] = set()
        self.visits = 0
        self.problems: list[Problem] = []

    def problem(self, node: yaml.Node, path: Path_, message: str) -> None:
        mark = node.start_mark
        self.problems.append(
            Problem(
                Location(self.source.file, mark.line + 1, mark.column + 1),
                field_name(path),
                message,
            )
        )

    def build(self, node: yaml.Node, path: Path_) -> Any:
        self.visits += 1
        if id(node) in self.seen:
            if self.visits > len(self.seen) + MAX_ALIAS_EXPANSION:
                raise _AliasBomb(node)
        else:
            self.seen.add(id(node))
        if node.tag not in _STANDARD_TAGS:
            self.problem(
                node,
                path,
                Message("YAML tag '%(tag)s' is not allowed (only plain data)", tag=node.tag),
            )
            return None
        if isinstance(node, yaml.MappingNode):
            result: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    self.problem(
                        key_node, path, Message("YAML merge keys ('<<') are not supported")
                    )
                    continue
                key = self.build(key_node, path)
                if not isinstance(key, str):
                    if isinstance(key, bool | int | float) or key is None:
                        key = str(key).lower() if isinstance(key, bool) else str(key)
                    else:
                        self.problem(key_node, path, Message("mapping keys must be plain strings"))
                        continue
                child = (*path, key)
                if key in result:
                    self.problem(key_node, child, Message("duplicate key '%(key)s'", key=key))
                    continue
                mark = key_node.start_mark
                self.source.positions[child] = (mark.line + 1, mark.column + 1)
                result[key] = self.build(value_node, child)
            return result
        if isinstance(node, yaml.SequenceNode):
            items = []
            for index, item in enumerate(node.value):
                child = (*path, index)
                mark = item.start_mark
                self.source.positions[child] = (mark.line + 1, mark.column + 1)
                items.append(self.build(item, child))
            return items
        if node.tag == "tag:yaml.org,2002:timestamp":
            return node.value  # dates stay text: ISO 8601, as written (a bad date: pydantic's)
        try:
            return self.scalars.construct_object(node, deep=True)
        except (ValueError, KeyError, IndexError):  # !!int "x", or more digits than Python reads
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            if len(node.value) > 1000:
                message = Message(
                    "a value of %(n)s characters is too long to read as %(tag)s",
                    n=format(len(node.value), ","),
                    tag=tag,
                )
            else:
                message = Message("cannot read '%(value)s' as %(tag)s", value=node.value, tag=tag)
            self.problem(node, path, message)
            return None


class _AliasBomb(Exception):
    def __init__(self, node: yaml.Node):
        self.node = node


def read_bytes(path: Path) -> bytes:
    """Read an input file, refusing what is not a regular file or is too large."""
    where = Location(str(path), 1, 1)
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise InputError([Problem(where, "", Message("not a regular file"))])
        if size > MAX_FILE_BYTES:
            raise InputError(
                [
                    Problem(
                        where,
                        "",
                        Message(
                            "file is %(size)s MB; the limit is %(limit)s MB",
                            size=format(size / 1e6, ".0f"),
                            limit=format(MAX_FILE_BYTES / 1e6, ".0f"),
                        ),
                    )
                ]
            )
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError([Problem(where, "", Message("file not found"))]) from None
    except PermissionError:
        raise InputError([Problem(where, "", Message("permission denied"))]) from None
    except IsADirectoryError:
        raise InputError([Problem(where, "", Message("is a directory, not a file"))]) from None


def decode(raw: bytes, file: str) -> str:
    """UTF-8 text (a BOM is allowed); other bytes are an error at their line and column."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start + (3 if raw.startswith(b"\xef\xbb\xbf") else 0)  # after a BOM
        before = raw[:start]
        line = before.count(b"\n") + 1
        column = start - (before.rfind(b"\n") + 1) + 1
        raise InputError(
            [
                Problem(
                    Location(file, line, column),
                    "",
                    Message("not UTF-8 text (byte 0x%(byte)s)", byte=format(raw[start], "02x")),
                )
            ]
        ) from None


def parse_document(text: str, file: str) -> tuple[Any, SourceMap]:
    """Parse YAML or JSON text into plain data plus a source map. Raises InputError."""
    source = SourceMap(file)
    if file.endswith(".json"):
        try:
            json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(
                [
                    Problem(
                        Location(file, exc.lineno, exc.colno),
                        "",
                        Message("invalid JSON: %(detail)s", detail=exc.msg),
                    )
                ]
            ) from None
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        # PyYAML's words, the problem first: "did not find expected key (while parsing a
        # block mapping at line 1)".
        message = str(exc.problem or exc.context or "")
        if exc.problem and exc.context:
            started = exc.context_mark
            if started is not None and (mark is None or started.line != mark.line):
                message += f" ({exc.context} at line {started.line + 1})"
            else:
                message += f" ({exc.context})"
        raise InputError(
            [
                Problem(
                    Location(file, line, column),
                    "",
                    Message("invalid YAML: %(detail)s", detail=message),
                )
            ]
        ) from None
    except yaml.YAMLError as exc:
        raise InputError(
            [
                Problem(
                    Location(file, 1, 1), "", Message("invalid YAML: %(detail)s", detail=str(exc))
                )
            ]
        ) from None
    if node is None:
        raise InputError([Problem(Location(file, 1, 1), "", Message("the file is empty"))])
    builder = _Builder(source)
    try:
        data = builder.build(node, ())
    except _AliasBomb as bomb:
        mark = bomb.node.start_mark
        raise InputError(
            [
                Problem(
                    Location(file, mark.line + 1, mark.column + 1),
                    "",
                    Message(
                        "YAML aliases expand to more than %(limit)s extra values; "
                        "refusing to expand further (an alias bomb?)",
                        limit=format(MAX_ALIAS_EXPANSION, ","),
                    ),
                )
            ]
        ) from None
    except RecursionError:
        raise InputError(
            [Problem(Location(file, 1, 1), "", Message("the document is nested too deeply"))]
        ) from None
    if builder.problems:
        raise InputError(builder.problems)
    return data, source


def read_document(path: Path) -> tuple[Any, SourceMap, bytes]:
    """Read, decode and parse one site file. Returns data, source map and the raw bytes."""
    raw = read_bytes(path)
    text = decode(raw, str(path))
    data, source = parse_document(text, str(path))
    return data, source, raw
