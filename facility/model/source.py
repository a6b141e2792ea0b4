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
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from facility.messages import Message, localized
from facility.model import yaml_reader
from facility.model.yaml_reader import (
    MAX_ALIAS_EXPANSION,
    AliasBomb,
    Path_,
    Reader,
    TooDeep,
    TooMany,
)

MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_KEY_SHOWN = 80  # characters of a key shown in a field path


@dataclass(frozen=True, slots=True)
class Location:
    """A place in an input file; line and column are 1-based. Line 0 is the file as a whole
    (one that cannot be read has no line): shown as the file alone."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        if self.line == 0:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"


def whole_file(file: str) -> Location:
    """The location of a problem with a file as a whole (not found, not readable, too large)."""
    return Location(file, 0, 0)


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

    def original(self, path: Path_) -> Path_:
        """``path`` as the file numbers it (a map of a document with entries left out
        renumbers them: :class:`facility.model.load` resolves what validated that way)."""
        return tuple(path)

    def locate(self, path: Path_) -> Location:
        """The location of ``path``, or of its nearest written ancestor."""
        path = self.original(path)
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


@dataclass(slots=True)
class DeferredSourceMap(SourceMap):
    """The source map of a document read without positions (:func:`parse_plain`): ``text``
    is read again with the positional reader the first time a location is asked for, which
    only a problem found later asks (a rule file's unknown name)."""

    text: str | None = None

    def locate(self, path: Path_) -> Location:
        if self.text is not None:
            Reader(self.positions).read(self.text)  # read once without a problem: no problem
            self.text = None
        return SourceMap.locate(self, path)


def field_name(path: Path_) -> str:
    """``("racks", 3, "pdus")`` -> ``racks[3].pdus``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            name = str(part)
            if len(name) > MAX_KEY_SHOWN:  # a hostile key is named, not printed whole
                name = f"{name[:MAX_KEY_SHOWN]}…"
            out += ("." if out else "") + name
    return out


def not_a_file(mode: int) -> str | None:
    """What a path of this ``st_mode`` is when it is not a regular file ('a FIFO'), else None:
    a FIFO or device would block or never end if it were read."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return Message("a directory")
    if stat.S_ISFIFO(mode):
        return Message("a FIFO")
    return Message("a device or socket")


def value_marks(text: str | bytes) -> int:
    """An upper bound on the values (and members) of a JSON text, counted without parsing
    it: the characters that begin one, ``,`` ``:`` ``[`` ``{`` (those in strings too). Parsed,
    a value takes 30–120 bytes however few it is written in (``[],`` is 3 bytes and 64
    parsed): a reader bounds what it parses by this count, not by the file's size alone."""
    if isinstance(text, str):
        return sum(text.count(mark) for mark in (",", ":", "[", "{"))
    return sum(text.count(mark) for mark in (b",", b":", b"[", b"{"))


def read_bytes(path: Path, limit: int | None = MAX_FILE_BYTES) -> bytes:
    """Read an input file, refusing what is not a regular file (a FIFO would block the run)
    or is larger than ``limit`` bytes (None: no limit)."""
    where = whole_file(str(path))
    try:
        status = path.stat()
        size = status.st_size
        kind = not_a_file(status.st_mode)
        if kind is not None:
            raise InputError([Problem(where, "", Message("%(kind)s, not a file", kind=kind))])
        if limit is not None and size > limit:
            raise InputError(
                [
                    Problem(
                        where,
                        "",
                        Message(
                            "file is %(size)s MB; the limit is %(limit)s MB",
                            size=format(size / 1e6, ".0f"),
                            limit=format(limit / 1e6, ".0f"),
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
    except ValueError:  # a NUL byte in the path
        raise InputError([Problem(where, "", Message("the path holds a NUL byte"))]) from None
    except OSError as error:  # a symlink loop, a name too long, an I/O error
        reason = error.strerror or type(error).__name__
        raise InputError(
            [Problem(where, "", Message("cannot read the file: %(reason)s", reason=reason))]
        ) from None


def decode(raw: bytes, file: str) -> str:
    """UTF-8 text (a BOM is allowed); other bytes are an error at their line and column."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start + (3 if raw.startswith(b"\xef\xbb\xbf") else 0)  # after a BOM
        bom = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
        before = raw[bom:start].decode("utf-8", errors="replace")  # valid up to the bad byte
        line, column = line_and_column(before, len(before))
        raise InputError(
            [
                Problem(
                    Location(file, line, column),
                    "",
                    Message("not UTF-8 text (byte 0x%(byte)s)", byte=format(raw[start], "02x")),
                )
            ]
        ) from None


_JSON_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


def no_lone_surrogates(text: str, file: str) -> None:
    """Refuse a JSON ``\\u`` escape of a lone UTF-16 surrogate (``"\\ud800"`` with no low
    surrogate after it): it decodes to no character, and no output could hold it. At its line
    and column. Each escape is read as JSON reads it, so an escaped backslash before ``u`` is
    not taken for one."""
    if "\\u" not in text:
        return
    pending: re.Match[str] | None = None  # a high surrogate waiting for its low one
    for match in _JSON_ESCAPE.finditer(text):
        code = int(match.group(1), 16) if match.group(1) else None
        is_low = code is not None and 0xDC00 <= code <= 0xDFFF
        if pending is not None:
            if is_low and match.start() == pending.end():
                pending = None
                continue
            _lone(text, file, pending)
        if code is not None and 0xD800 <= code <= 0xDBFF:
            pending = match
        elif is_low:
            _lone(text, file, match)
    if pending is not None:
        _lone(text, file, pending)


def _lone(text: str, file: str, match: re.Match[str]) -> None:
    line, column = line_and_column(text, match.start())
    raise InputError(
        [
            Problem(
                Location(file, line, column),
                "",
                Message(
                    "the escape %(escape)s is half of a UTF-16 surrogate pair: it is no character",
                    escape=match.group(),
                ),
            )
        ]
    )


def parse_document(text: str, file: str) -> tuple[Any, SourceMap]:
    """Parse YAML or JSON text into plain data plus a source map. Raises InputError."""
    source = SourceMap(file)
    _no_control_characters(text, file)
    as_json: Any = _NOT_READ
    if file.endswith(".json"):
        no_lone_surrogates(text, file)
    # JSON is parsed first for its own error messages, unless it may hold more values than
    # the reader below reads (which refuses them at the value past its bound): parsed whole,
    # 256 MB of ``[],`` would take 5 GB.
    if file.endswith(".json") and value_marks(text) <= 2 * yaml_reader.MAX_VALUES:
        try:  # numbers kept as text here: the reader below reads them with their positions
            as_json = json.loads(text, parse_int=str, parse_float=str, parse_constant=str)
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
        except RecursionError:  # nested too deep for json: the reader says where
            pass
    reader = Reader(source.positions)
    try:
        found, data = reader.read(text)
    except yaml.MarkedYAMLError as exc:
        if as_json is not _NOT_READ:  # valid JSON that YAML refuses (a key of > 1,024 chars)
            return _from_json(text, file)
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if "maximum nesting depth" in str(exc.problem):  # libyaml's own bound, past ours
            raise _too_deep(file, line, column) from None
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
                    Message("invalid JSON: %(detail)s", detail=message)
                    if file.endswith(".json")
                    else Message("invalid YAML: %(detail)s", detail=message),
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
    except TooMany as many:
        raise InputError(
            [
                Problem(
                    Location(file, many.line, many.column),
                    "",
                    Message(
                        "more than %(limit)s values in one file; refusing to read further",
                        limit=format(yaml_reader.MAX_VALUES, ","),
                    ),
                )
            ]
        ) from None
    except TooDeep as deep:
        raise _too_deep(file, deep.line, deep.column) from None
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


_NOT_READ = object()


def parse_plain(text: str, file: str) -> tuple[Any, SourceMap]:
    """As :func:`parse_document`, the same data and problems, but a YAML document of plain
    data (:func:`facility.model.yaml_reader.read_plain`: no anchors, tags or merge keys, nothing
    refused) is read without its positions, which its source map reads when one is asked for.
    For files of the program's own that are read on every run: the rule files and profiles,
    the catalog. Anything else is read by :func:`parse_document`."""
    if not file.endswith(".json") and _CONTROL.search(text) is None:
        try:
            return yaml_reader.read_plain(text), DeferredSourceMap(file, text=text)
        except yaml_reader.NotPlain:
            pass
    return parse_document(text, file)


# What YAML does not allow in a file (YAML 1.1 §5.1): C0 controls but tab, line feed and
# carriage return; DEL; C1 controls but NEL; surrogates; U+FFFE and U+FFFF. Found before the
# parser, so the error names the character's own line and column.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")


def _too_deep(file: str, line: int, column: int) -> InputError:
    return InputError(
        [
            Problem(
                Location(file, line, column),
                "",
                Message(
                    "mappings and lists nest more than %(limit)s deep here",
                    limit=yaml_reader.MAX_DEPTH,
                ),
            )
        ]
    )


# Line breaks as YAML counts them (a CR alone too, and NEL, LS and PS): a position is given at
# the line and column the parser and an editor show.
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset`` in ``text``."""
    line, start = 1, 0
    for found in _BREAK.finditer(text, 0, offset):
        line, start = line + 1, found.end()
    return line, offset - start + 1


def _no_control_characters(text: str, file: str) -> None:
    found = _CONTROL.search(text)
    if found is None:
        return
    line, column = line_and_column(text, found.start())
    raise InputError(
        [
            Problem(
                Location(file, line, column),
                "",
                Message(
                    "control character U+%(code)s is not allowed in a site file",
                    code=format(ord(found.group()), "04X"),
                ),
            )
        ]
    )


def _from_json(text: str, file: str) -> tuple[Any, SourceMap]:
    """Valid JSON that the YAML reader cannot read: its data, without positions below the
    document (errors then point at the file's start)."""
    try:
        data = json.loads(text)
    except ValueError as exc:  # an integer of more digits than Python reads
        raise InputError(
            [
                Problem(
                    Location(file, 1, 1), "", Message("invalid JSON: %(detail)s", detail=str(exc))
                )
            ]
        ) from None
    return data, SourceMap(file)


def read_document(path: Path, *, plain: bool = False) -> tuple[Any, SourceMap, bytes]:
    """Read, decode and parse one site file. Returns data, source map and the raw bytes.
    ``plain``: parsed by :func:`parse_plain` (positions read when one is asked for)."""
    raw = read_bytes(path)
    text = decode(raw, str(path))
    data, source = (parse_plain if plain else parse_document)(text, str(path))
    return data, source, raw
