"""A JSON result read as ``facility check`` writes it, one finding at a time (issue 21).

``facility diff`` of two campus results held both whole, every finding as a dict: 2.5 GB at
10,000 racks. A result facility wrote has a fixed layout (facility/report/json_report.py): the
head indented by two, then each finding on a line of its own, as each figures entry and each
single-failure scenario. So a result is read in two passes over its lines:

1. Everything but the findings: the head, ``rules`` and the ``figures`` lines are parsed with
   the same strict hooks as the whole-file reader (no key twice, no NaN, no 31-digit number,
   no lone surrogate) and checked; the scenarios and the members ``diff`` does not read
   (``coverage``, ``account``…) are parsed and dropped. Any line not laid out so (a result
   reformatted by jq, minified, not UTF-8, with a key the layout does not expect) makes the
   file :class:`NotLaidOut`: it is read whole as before, with the same messages.
2. :meth:`StreamedResult.findings` yields the findings in file order, each line parsed and
   checked alone (compact or full), a problem named at its own line and field
   (``findings[12]``); the file's SHA-256 is taken again and a file changed in between refused.
"""

from __future__ import annotations

import hashlib
import json
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from facility.analysis.diff import (
    Tally,
    _Compact,
    _CompactFinding,
    _CompactRun,
    _Entity,
    _Figures,
    _Finding,
    _finite,
    _in_site_file,
    _integer,
    _no_duplicate_keys,
    _not_a_number,
    _NotAFigure,
    _Result,
)
from facility.messages import Message
from facility.model.errors import validation_message
from facility.model.source import InputError, Location, Problem, field_name, no_lone_surrogates


class NotLaidOut(Exception):
    """The file is not laid out as facility writes a result: read it whole instead."""


# The members a result is read for (diff.py's _Result and _Compact); any other is parsed, to
# keep the hostile-input guarantees, and dropped (``null`` in the head).
_KEPT = frozenset(
    {"schema", "tool", "site", "profile", "rules_version", "verdict", "detail", "counts"}
    | {"failures", "fixes", "waivers", "rules"}
)
_MEMBER = re.compile(r'  ("(?:[^"\\]|\\.)*"): (.*)', re.DOTALL)
# A compact finding as facility writes one without a waiver (a failing one with its place in the
# site file). JSON reads such a line exactly as this does (no escape in a text, no key twice,
# short whole numbers), and the checks of _CompactFinding could only pass (one of the four
# statuses, a figures index ≥ 0, a place of a text and two whole numbers).
_PLAIN = re.compile(
    r'\{"id": "([^"\\\x00-\x1f]{1,2200})", '
    r'"status": "(pass|fail|not_evaluated|waived)", "figures": (0|[1-9][0-9]{0,17})'
    r'(?:, "source": (?:null|\{"file": "([^"\\\x00-\x1f]*)", '
    r'"line": (0|[1-9][0-9]{0,17}), "column": (0|[1-9][0-9]{0,17})\}), "waiver": null)?\}'
)  # and a failing one: its place in the site file, no waiver
# The same as facility-result/3 writes it: no blanks, the place without its file (the site's).
_PLAIN3 = re.compile(
    r'\{"id":"([^"\\\x00-\x1f]{1,2200})",'
    r'"status":"(pass|fail|not_evaluated|waived)","figures":(0|[1-9][0-9]{0,17})'
    r'(?:,"source":(?:null|\{"line":(0|[1-9][0-9]{0,17}),"column":(0|[1-9][0-9]{0,17})\}))?\}'
)
_STATUSES = {s: s for s in ("pass", "fail", "not_evaluated", "waived")}
_RULE_KEYS = frozenset({"name", "title", "area", "severity"})
_FIGURE_KEYS = frozenset({"observed", "limit", "relation", "margin", "message", "how", "missing"})
_HOOKS: dict[str, Any] = {
    "parse_constant": _not_a_number,
    "parse_int": _integer,
    "parse_float": _finite,
    "object_pairs_hook": _no_duplicate_keys,
}

# (id, status, figures index, source, waiver) of a compact finding; (id, status, -1, the
# finding, None) of a full one
Entry = tuple[str, str, int, Any, Any]


@dataclass(slots=True)
class StreamedResult:
    """A result's head (everything but its findings, checked), and its findings on demand."""

    path: Path
    head: dict[str, Any]
    digest: str
    size: int  # bytes read in the first pass
    findings_at: int  # the line of the first finding
    count: int  # how many finding lines
    compact: bool
    figure_lines: list[bytes] = field(default_factory=list)  # compact: each entry, checked
    margins: list[float | None] = field(default_factory=list)  # each entry's margin value
    parsed: int = 0  # finding lines parsed as JSON (the others matched :data:`_PLAIN`)
    _figure: Any = None  # index -> the figures entry, parsed (a bounded cache)
    _files: dict[str, str] = field(default_factory=dict)

    def findings(self) -> Iterator[Entry]:
        """Each finding in file order, checked (see :data:`Entry`; a place read by the pattern
        is a tuple of its file, line and column); at the end, InputError if the file's bytes
        are no longer those of the first pass (as soon as there are more of them)."""
        digest = hashlib.sha256()
        last = self.findings_at + self.count
        where = str(self.path)
        read = 0
        tally = Tally(self.head["counts"])
        with self.path.open("rb") as file:
            for number, raw in enumerate(file, 1):
                digest.update(raw)
                read += len(raw)
                if read > self.size:
                    break
                if self.findings_at <= number < last:
                    index = number - self.findings_at
                    for entry in self._entries(raw, number, index, where):
                        problem = tally.add(entry[1])
                        if problem is not None:
                            at = Location(where, number, 5)
                            raise _unreadable(at, ("findings", index, "status"), problem)
                        yield entry
        if read != self.size or digest.hexdigest() != self.digest:
            problem = Message("the file changed while it was read")
            raise InputError([Problem(Location(where, 0, 0), "", problem)])
        short = tally.short()
        if short is not None:  # where the whole-file reader names it
            raise _unreadable(Location(where, 1, 1), ("counts", short[0]), short[1])

    def _entries(self, raw: bytes, number: int, index: int, where: str) -> Iterator[Entry]:
        """The findings of one line: one, or each of a run's (facility-result/3)."""
        text = raw.rstrip(b"\n").removesuffix(b",").decode("utf-8", errors="replace")[4:]
        if self.compact:
            plain = self._plain(text)
            if plain is not None:
                yield plain
                return
        self.parsed += 1
        at = Location(where, number, 5)
        data = strict_json(text, at, ("findings", index))
        if self.compact and isinstance(data, dict) and "entities" in data:
            yield from self._run(data, at, index)
            return
        try:
            (_CompactFinding if self.compact else _Finding).model_validate(data)
        except ValidationError as exc:
            raise _located(exc, at, ("findings", index)) from None
        if not self.compact:
            yield data["id"], data["status"], -1, data, None
            return
        code, kind, entity = data["id"].split(":", 2)
        self._check_references(code, kind, entity, data["figures"], at, (index, "id"))
        status = _STATUSES[data["status"]]
        source = data.get("source")
        if isinstance(source, dict) and source.get("file") is None:
            source = _in_site_file(source, self.site_file)
        yield data["id"], status, data["figures"], source, data.get("waiver")

    def _plain(self, text: str) -> Entry | None:
        """A compact finding's entry read by :data:`_PLAIN` or :data:`_PLAIN3`, or None when
        the line is not one of theirs (it is then parsed and checked)."""
        plain = _PLAIN3.fullmatch(text)
        if plain is not None:
            fid, status, figures, line, column = plain.groups()
            file = self.site_file
        else:
            plain = _PLAIN.fullmatch(text)
            if plain is None:
                return None
            fid, status, figures, file, line, column = plain.groups()
        parts = fid.split(":", 2)
        if not (
            len(parts) == 3
            and parts[1]
            and parts[0] in self.head["rules"]
            and int(figures) < len(self.margins)
            and len(parts[1]) <= 64
            and len(parts[2]) <= 1_000
        ):
            return None
        source = None
        if line is not None:  # (file, line, column): a third of the dict's bytes
            file = self._files.setdefault(file, file)  # one string a site file
            source = (file, int(line), int(column))
        return fid, _STATUSES[status], int(figures), source, None

    def _run(self, data: dict[str, Any], at: Location, index: int) -> Iterator[Entry]:
        """Each finding of a run (facility-result/3), checked as the whole-file reader does."""
        try:
            run = _CompactRun.model_validate(data)
        except ValidationError as exc:
            raise _located(exc, at, ("findings", index)) from None
        code, kind, figures = run.rule, run.kind, run.figures
        # the entities' lengths are checked by _CompactRun: the references once for all
        self._check_references(code, kind, run.entities[0], figures, at, (index, "rule"))
        status = _STATUSES[run.status]
        for entity in run.entities:
            yield f"{code}:{kind}:{entity}", status, figures, None, None

    @property
    def site_file(self) -> str:
        """The site file a compact finding's place is in when it names none."""
        file: str = self.head["site"]["file"]
        return self._files.setdefault(file, file)

    def _check_references(
        self,
        code: str,
        kind: str,
        entity: str,
        figures: int,
        at: Location,
        field: tuple[int, str],
    ) -> None:
        """What :func:`facility.analysis.diff.checked_result` would refuse of this finding
        written out: a rule or figures entry that is not there, an entity too long. ``field``:
        the entry's index and the member that names the rule."""
        index, named = field
        place: tuple[str | int, ...] = ("findings", index)
        problem: Message | None = None
        if code not in self.head["rules"]:
            place = (*place, named)
            problem = Message("no rule %(code)s in rules", code=code[:40])
        elif figures >= len(self.margins):
            place, problem = (*place, "figures"), Message("no such entry in figures")
        if problem is not None:
            raise _unreadable(at, place, problem)
        try:
            _Entity.model_validate({"kind": kind, "id": entity})
        except ValidationError as exc:
            raise _located(exc, at, (*place, "entity")) from None

    def figures(self, index: int) -> dict[str, Any]:
        """The figures entry ``index`` (checked in the first pass), parsed again when asked:
        a campus's table is tens of MB of lines, several times that as dicts."""
        if self._figure is None:
            self._figure = lru_cache(maxsize=4096)(self._parse_figures)
        entry: dict[str, Any] = self._figure(index)
        return entry

    def _parse_figures(self, index: int) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.figure_lines[index].decode(), **_HOOKS)
        return data


def _unreadable(at: Location, place: tuple[str | int, ...], problem: Message) -> InputError:
    message = Message("not a facility result: %(problem)s", problem=problem)
    return InputError([Problem(at, field_name(place), message)])


class _Refused(InputError):
    """A result refused in the first pass, not read whole instead (see :class:`Tally`)."""


def _located(exc: ValidationError, at: Location, place: tuple[str | int, ...]) -> InputError:
    """Each pydantic error of one line (at most 20) at that line, its field under ``place``."""
    return InputError(
        [
            Problem(
                at,
                field_name((*place, *(p for p in e["loc"] if isinstance(p, str | int)))),
                Message("not a facility result: %(problem)s", problem=validation_message(e)),
            )
            for e in exc.errors(include_url=False)[:20]
        ]
    )


def strict_json(text: str, at: Location, place: tuple[str | int, ...]) -> Any:
    """``text`` as JSON with the whole-file reader's hooks; a problem is InputError at the
    line of ``at`` (the column within it) naming ``place``."""
    if "\\u" in text:
        try:
            no_lone_surrogates(text, at.file)
        except InputError as exc:
            (problem,) = exc.problems
            column = at.column - 1 + problem.location.column
            where = Location(at.file, at.line, column)
            raise InputError([Problem(where, field_name(place), problem.message)]) from None
    column = at.column
    try:
        return json.loads(text, **_HOOKS)
    except json.JSONDecodeError as exc:
        column += exc.colno - 1
        detail: Message = Message("invalid JSON: %(detail)s", detail=exc.msg)
    except _NotAFigure as exc:
        detail = exc.message
    except RecursionError:
        detail = Message("the JSON nests too deep to be a facility result")
    raise InputError([Problem(Location(at.file, at.line, column), field_name(place), detail)])


def open_result(path: Path, limit: int) -> StreamedResult:
    """Pass 1 over ``path`` (see the module's docstring): its head checked, and where its
    findings are. NotLaidOut when the file is not a regular file of at most ``limit`` bytes
    laid out as facility writes a result (the whole-file reader then says what is wrong)."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
            raise NotLaidOut
        with path.open("rb") as file:
            return _FirstPass(path, file, limit).result()
    except _Refused:
        raise
    except (OSError, ValueError, InputError) as exc:  # UnicodeDecodeError is a ValueError
        raise NotLaidOut from exc


class _FirstPass:
    """The head's lines (each finding, figures entry and scenario line left out), the figures
    entries, and where the findings are."""

    def __init__(self, path: Path, file: Any, limit: int) -> None:
        self.path, self.lines, self.limit = path, enumerate(file, 1), limit
        self.digest = hashlib.sha256()
        self.size = 0
        self.head: list[str] = []
        self.figure_lines: list[bytes] = []
        self.margins: list[float | None] = []

    def text(self, raw: bytes) -> str:
        self.digest.update(raw)
        self.size += len(raw)
        if self.size > self.limit:  # grown since it was measured
            raise NotLaidOut
        if not raw.endswith(b"\n"):
            raise NotLaidOut
        decoded: str = raw[:-1].decode("utf-8")
        return decoded

    def elements(self, indent: str, close: str, into: list[str]) -> Iterator[tuple[int, str]]:
        """The lines of an array's elements, one value each (``{…}``; a comma after each but
        the last) up to its closing line, which goes to ``into``."""
        seen = comma = False
        for number, raw in self.lines:
            line = self.text(raw)
            if line in (close, close + ","):
                if comma:
                    raise NotLaidOut
                into.append(line)
                return
            if (seen and not comma) or not line.startswith(indent + "{"):
                raise NotLaidOut
            seen, comma = True, line.endswith(",")
            body = line[len(indent) : -1 if comma else None]
            if not body.endswith("}"):
                raise NotLaidOut
            yield number, body
        raise NotLaidOut

    def checked(self, text: str, number: int) -> Any:
        return strict_json(text, Location(str(self.path), number, 1), ())

    def result(self) -> StreamedResult:
        head = self.head
        if self.text(next(self.lines, (0, b""))[1]) != "{":
            raise NotLaidOut
        findings_at = count = 0
        done = False
        for number, raw in self.lines:
            line = self.text(raw)
            if done:
                raise NotLaidOut
            if line == "}":
                done = True
                continue
            member = _MEMBER.fullmatch(line)
            if member is None:
                raise NotLaidOut
            key, rest = json.loads(member.group(1)), member.group(2)
            if key == "findings" and rest == "[":
                if findings_at:
                    raise NotLaidOut
                head.append(line)
                findings_at = number + 1
                count = sum(1 for _ in self.elements("    ", "  ]", head))
            elif key == "figures" and rest == "[":
                head.append(line)
                for at, body in self.elements("    ", "  ]", head):
                    entry = self.checked(body, at)
                    _check_figures(entry)
                    self.figure_lines.append(body.encode())
                    margin = entry.get("margin")
                    self.margins.append(margin["value"] if margin is not None else None)
            elif rest in ("{", "["):
                self.member(key, member.group(1), line, number)
            elif key in _KEPT:
                head.append(line)
            else:
                self.checked("{" + line.removesuffix(",") + "}", number)
                head.append(f"  {member.group(1)}: null" + ("," if line.endswith(",") else ""))
        if not done or not findings_at:
            raise NotLaidOut
        return self.checked_head(findings_at, count)

    def member(self, key: str, name: str, line: str, number: int) -> None:
        """A member over many lines, up to its closing one: kept in the head if a result is
        read for it, else parsed and left out (``null``)."""
        closing = "  }" if line.endswith("{") else "  ]"
        lines = [line]
        for _, raw in self.lines:
            inner = self.text(raw)
            if inner in (closing, closing + ","):
                lines.append(inner)
                break
            if not inner.startswith("    "):
                raise NotLaidOut
            lines.append(inner)
            if key == "failures" and inner == '    "scenarios": [':
                for at, scenario in self.elements("      ", "    ]", lines):
                    self.checked(scenario, at)  # diff reads none: each checked, then dropped
        else:
            raise NotLaidOut
        if key in _KEPT:
            self.head += lines
        else:
            self.checked("{" + "\n".join(lines)[2:].removesuffix(",") + "}", number)
            self.head.append(f"  {name}: null" + ("," if lines[-1].endswith(",") else ""))

    def checked_head(self, findings_at: int, count: int) -> StreamedResult:
        data = self.checked("{\n" + "\n".join(self.head) + "\n}", 1)
        if not isinstance(data, dict):
            raise NotLaidOut
        compact = data.get("detail") == "compact"
        try:
            _Result.model_validate(data)
            if compact:
                _Compact.model_validate(data)
        except ValidationError as exc:
            raise NotLaidOut from exc
        if compact and not all(set(rule) <= _RULE_KEYS for rule in data["rules"].values()):
            raise NotLaidOut  # a member that could stand in for another written out
        if not compact and self.figure_lines:
            raise NotLaidOut
        too_many = Tally(data["counts"]).too_many()
        if too_many is not None:  # read whole, the file would be held first
            raise _Refused(
                _unreadable(Location(str(self.path), 1, 1), ("counts",), too_many).problems
            )
        return StreamedResult(
            self.path,
            data,
            self.digest.hexdigest(),
            self.size,
            findings_at,
            count,
            compact,
            self.figure_lines,
            self.margins,
        )


def _check_figures(entry: Any) -> None:
    """A figures entry as the whole-file reader checks it; one with a member facility does not
    write (it could stand in for another of the finding written out) is read whole."""
    if not isinstance(entry, dict) or not set(entry) <= _FIGURE_KEYS:
        raise NotLaidOut
    try:
        _Figures.model_validate(entry)
    except ValidationError as exc:
        raise NotLaidOut from exc


class CompactFinding(Mapping[str, Any]):
    """A compact finding as :func:`~facility.analysis.diff.full_findings` writes it out, made
    when it is read: its rule's entry and figures entry are shared with every finding that
    names them, not copied (a diff keeps every change of a campus)."""

    __slots__ = ("_figures", "_id", "_result", "_rule", "_source", "_status", "_waiver")

    def __init__(
        self, fid: str, status: str, figures: int, source: Any, waiver: Any, result: StreamedResult
    ) -> None:
        self._id, self._status, self._figures = fid, status, figures
        self._source, self._waiver, self._result = source, waiver, result
        self._rule: dict[str, Any] = result.head["rules"][fid.split(":", 1)[0]]

    def __getitem__(self, key: str) -> Any:
        if key == "id":
            return self._id
        if key == "status":
            return self._status
        if key == "rule":
            return self._id.split(":", 1)[0]
        if key == "entity":
            _, kind, entity = self._id.split(":", 2)
            return {"kind": kind, "id": entity}
        if key == "source":
            if isinstance(self._source, tuple):
                file, line, column = self._source
                return {"file": file, "line": line, "column": column}
            return self._source
        if key == "waiver":
            return self._waiver
        figures = self._result.figures(self._figures)
        if key in figures:
            return figures[key]
        return self._rule[key]

    def __iter__(self) -> Iterator[str]:
        yield from ("id", "rule")
        yield from self._rule
        yield from ("status", "entity")
        yield from self._result.figures(self._figures)
        yield from ("source", "waiver")

    def __len__(self) -> int:
        return 6 + len(self._rule) + len(self._result.figures(self._figures))

    def shared(self) -> tuple[tuple[int, str], dict[str, Any], tuple[int, int], dict[str, Any]]:
        """Its rule's entry and its figures entry, each with a key naming it among every
        finding's of either result (what a writer may encode once): the members between
        ``rule`` and ``status``, and between ``entity`` and ``source``."""
        result, index = self._result, self._figures
        code = self._id.split(":", 1)[0]
        return (id(result), code), self._rule, (id(result), index), result.figures(index)
