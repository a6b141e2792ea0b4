"""Reading site files safely, remembering where every value was written.

YAML is read from libyaml's events into plain Python data (:mod:`facility.model.yaml_reader`),
so that every mapping key and sequence item keeps its line and column; the reader refuses
tags, merge keys, duplicate keys and alias bombs. Here: the file (size, UTF-8), the problems
as :class:`Problem` with file, line, column and field, and :class:`InputError`.

JSON files are checked by the ``json`` module first (for JSON's own error positions) and then
read the same way, since JSON is a subset of YAML for our purposes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from facility.messages import Message, localized
from facility.model.yaml_reader import MAX_ALIAS_EXPANSION, AliasBomb, Path_, Reader

MAX_FILE_BYTES = 256 * 1024 * 1024


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
    reader = Reader(source.positions)
    try:
        found, data = reader.read(text)
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
    except AliasBomb as bomb:
        raise InputError(
            [
                Problem(
                    Location(file, bomb.line, bomb.column),
                    "",
                    Message(
                        "YAML aliases expand to more than %(limit)s extra values; "
                        "refusing to expand further (an alias bomb?)",
                        limit=format(MAX_ALIAS_EXPANSION, ","),
                    ),
                )
            ]
        ) from None
    except RecursionError:  # an alias of a structure nested hundreds deep
        raise InputError(
            [Problem(Location(file, 1, 1), "", Message("the document is nested too deeply"))]
        ) from None
    if not found:
        raise InputError([Problem(Location(file, 1, 1), "", Message("the file is empty"))])
    if reader.problems:
        raise InputError(
            [
                Problem(Location(file, line, column), field_name(path), message)
                for line, column, path, message in reader.problems
            ]
        )
    return data, source


def read_document(path: Path) -> tuple[Any, SourceMap, bytes]:
    """Read, decode and parse one site file. Returns data, source map and the raw bytes."""
    raw = read_bytes(path)
    text = decode(raw, str(path))
    data, source = parse_document(text, str(path))
    return data, source, raw
