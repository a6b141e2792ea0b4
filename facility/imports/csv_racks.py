"""Racks from a spreadsheet: one CSV row per rack, into the ``racks:`` of a site file.

The result is a *base* site file (``schema_version``, ``site: {name}``, ``racks:``) for an
engineer's file to extend (``extends: racks.yaml``) with the rack types, floor zones, loops,
PDU types and everything else the racks name (docs/import-csv.md, docs/layering.md).

A column header is the field's path in a rack entry of the site file, with an optional unit:

- placement: ``id`` and ``type`` (required), ``row``, ``position``, ``zone``, ``loop``;
- the PDUs of a power side: ``pdus.<side>.type``, ``pdus.<side>.count``, ``pdus.<side>.fed_by``,
  ``pdus.<side>.names`` (names separated by ``;``);
- per-rack figure overrides (:class:`~facility.model.equipment.RackFigures`, all but
  ``flow_table``): ``peak_power [kW]``, ``filled_mass [lb]``, ``footprint.width [mm]``,
  ``allowed_supply_temperature.min [degC]``, … A cell ``null`` removes a catalog figure.

Headers are case-insensitive and spaces stand for underscores (``Peak power [kW]``), except the
side of a PDU column, which is an id (``pdus.A.type``). A unit in the header applies to the
bare numbers of its column; a cell may also carry its own unit (``12 kW``). An empty cell is
a field not set. Cells are trimmed, and one leading quote before ``= + - @`` TAB or CR is
removed (see :func:`inert`).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

from facility.messages import Message, message_of
from facility.model.equipment import RackFigures
from facility.model.fields import _QuantityValidator
from facility.model.source import (
    InputError,
    Location,
    Path_,
    Problem,
    SourceMap,
    decode,
    read_bytes,
)

REQUIRED = ("id", "type")
PLACEMENT = ("id", "type", "row", "position", "zone", "loop")
PDU_FIELDS = ("type", "count", "fed_by", "names")
NOT_IN_CSV = ("flow_table",)  # a table per rack: keep it in the site file
NAME_SEPARATOR = ";"

# OWASP: a cell starting with one of these is a formula to a spreadsheet.
_FORMULA = re.compile(r"^'*[=+\-@\t\r]")
_QUOTED_FORMULA = re.compile(r"^'+[=+\-@\t\r]")
# A greedy name, trimmed after the match: linear in the header's length (a lazy name before
# "\s*" took quadratic time on a long run of spaces).
_HEADER = re.compile(r"(?P<name>[^\[\]]*)(?:\[(?P<unit>[^\[\]]*)\])?")
_INTEGER = re.compile(r"^[-+]?\d+$")
_NUMBER = re.compile(r"^[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$")


# --- columns ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Column:
    """What one column holds."""

    name: str  # canonical header without unit: "peak_power", "pdus.A.type"
    path: Path_  # where in a rack entry
    kind: str | None = None  # quantity kind: the column takes a unit
    integer: bool = False
    override: bool = False  # a figure override: "null" removes a catalog figure


def inert(cell: str) -> str:
    """A cell a spreadsheet will not run as a formula: a quote before a leading ``= + - @``,
    TAB or CR (OWASP), and one more before cells that already start with quotes and one of
    those, so that :func:`unquoted` gives back exactly ``cell``."""
    return "'" + cell if _FORMULA.match(cell) else cell


def unquoted(cell: str) -> str:
    """The inverse of :func:`inert`."""
    return cell[1:] if _QUOTED_FORMULA.match(cell) else cell


def split_header(text: str) -> tuple[str, str | None]:
    """``"Peak power [kW]"`` -> ``("Peak power", "kW")``; no unit gives None."""
    match = _HEADER.fullmatch(text.strip())
    if match is None:
        return text.strip(), None
    unit = match["unit"]
    return match["name"].rstrip(), unit.strip() if unit is not None else None


def normalised(name: str) -> str:
    """``"Peak power"`` -> ``peak_power``; the side of ``pdus.<side>.<field>`` stays as written."""
    parts = [p.strip() for p in name.split(".")]

    def word(text: str) -> str:
        return re.sub(r"[\s-]+", "_", text.lower())

    if len(parts) >= 3 and word(parts[0]) == "pdus":  # a side may hold dots
        return f"pdus.{'.'.join(parts[1:-1])}.{word(parts[-1])}"
    return ".".join(word(p) for p in parts)


def column(name: str) -> Column | None:
    """The column of a normalised header name; None when there is no such column."""
    if name.startswith("pdus."):
        side, _, field = name[len("pdus.") :].rpartition(".")
        if side and field in PDU_FIELDS:
            return Column(name, ("pdus", side, field), integer=field == "count")
        return None
    if name in PLACEMENT:
        return Column(name, (name,), integer=name == "position")
    return figure_columns().get(name)


@cache
def figure_columns() -> dict[str, Column]:
    """The override columns, in the order of :class:`RackFigures`."""
    found: dict[str, Column] = {}
    for name, info in RackFigures.model_fields.items():
        if name in NOT_IN_CSV:
            continue
        model = _model_in(info.annotation)
        if model is None:
            found[name] = _figure(name, ("overrides", name), info.annotation)
            continue
        for part, sub in model.model_fields.items():
            found[f"{name}.{part}"] = _figure(
                f"{name}.{part}", ("overrides", name, part), sub.annotation
            )
    return found


def _figure(name: str, path: Path_, annotation: Any) -> Column:
    return Column(name, path, _kind(annotation), _is_integer(annotation), override=True)


def _members(annotation: Any) -> list[Any]:
    return [annotation, *get_args(annotation)]


def _model_in(annotation: Any) -> type[BaseModel] | None:
    for member in _members(annotation):
        if isinstance(member, type) and issubclass(member, BaseModel):
            return member
    return None


def _kind(annotation: Any) -> str | None:
    for member in _members(annotation):
        for meta in getattr(member, "__metadata__", ()):
            if isinstance(meta, _QuantityValidator):
                return meta.kind.name
    return None


def _is_integer(annotation: Any) -> bool:
    return any(member is int for member in _members(annotation))


# --- reading ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Imported:
    """Rack entries read from a CSV file, each as the site file would hold it."""

    racks: list[dict[str, Any]]
    file: str


def read_racks(path: Path) -> Imported:
    """Read and check every row of a rack CSV. Raises InputError with every problem, each at
    its file:row:column (a row's number is its line in the file)."""
    file = str(path)
    text = decode(read_bytes(path), file)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    problems: list[Problem] = []
    rows: list[tuple[int, list[str]]] = []
    try:
        line = 1
        for cells in reader:
            if any(cell.strip() for cell in cells):
                rows.append((line, cells))
            line = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(
            [
                Problem(
                    Location(file, reader.line_num or 1, 1),
                    "",
                    Message("invalid CSV: %(detail)s", detail=str(exc)),
                )
            ]
        ) from None
    if not rows:
        raise InputError([Problem(Location(file, 1, 1), "", Message("the file is empty"))])
    header_line, header = rows[0]
    columns = _columns(header, file, header_line, problems)
    if problems:
        raise InputError(problems)
    racks: list[dict[str, Any]] = []
    first_row: dict[str, int] = {}
    for line, cells in rows[1:]:
        rack = _rack(cells, columns, file, line, problems)
        if rack is None:
            continue
        rack_id = rack.get("id")
        if isinstance(rack_id, str):
            if rack_id in first_row:
                problems.append(
                    Problem(
                        Location(file, line, _index(columns, "id") + 1),
                        "id",
                        Message(
                            "duplicate rack id '%(id)s' (first defined at line %(line)s)",
                            id=rack_id,
                            line=first_row[rack_id],
                        ),
                    )
                )
                continue
            first_row[rack_id] = line
        racks.append(rack)
    if problems:
        raise InputError(problems)
    return Imported(racks, file)


def _index(columns: list[tuple[Column, str | None]], name: str) -> int:
    return next(i for i, (c, _unit) in enumerate(columns) if c.name == name)


def _columns(
    header: list[str], file: str, line: int, problems: list[Problem]
) -> list[tuple[Column, str | None]]:
    """Each header cell's column and unit; problems for unknown, repeated or missing ones."""
    from facility.units import KINDS, QuantityError, UnitError, kind_phrase, parse_quantity

    found: list[tuple[Column, str | None]] = []
    seen: set[str] = set()
    for index, text in enumerate(header):
        where = Location(file, line, index + 1)
        raw_name, unit = split_header(text)
        name = normalised(raw_name)
        spec = column(name)
        if spec is None:
            problems.append(Problem(where, "", _unknown_column(text.strip())))
            continue
        if name in seen:
            problems.append(
                Problem(where, name, Message("column '%(column)s' appears twice", column=name))
            )
            continue
        seen.add(name)
        if unit is not None:
            if spec.kind is None:
                problems.append(
                    Problem(where, name, Message("column '%(column)s' takes no unit", column=name))
                )
                continue
            try:
                parse_quantity(f"1 {unit}", spec.kind)
            except UnitError as exc:  # refused by the unit grammar: the message names the unit
                problems.append(Problem(where, name, message_of(exc)))
                continue
            except QuantityError as exc:
                kind = KINDS[spec.kind]
                said = message_of(exc)
                if isinstance(said, Message) and "problem" in said.params:  # unknown unit
                    problems.append(Problem(where, name, said.params["problem"]))
                    continue
                problems.append(
                    Problem(
                        where,
                        name,
                        Message(
                            "unit '%(unit)s' does not fit column '%(column)s', which takes "
                            "%(what)s like '%(example)s'",
                            unit=unit,
                            column=name,
                            what=kind_phrase(kind),
                            example=kind.example,
                        ),
                    )
                )
                continue
        found.append((spec, unit or None))
    for name in REQUIRED:
        if name not in seen:
            problems.append(
                Problem(
                    Location(file, line, 1),
                    "",
                    Message("missing required column '%(column)s'", column=name),
                )
            )
    return found


def _unknown_column(text: str) -> Message:
    import difflib

    known = [*PLACEMENT, *(f"pdus.A.{f}" for f in PDU_FIELDS), *figure_columns()]
    close = difflib.get_close_matches(normalised(split_header(text)[0]), known, n=1)
    if close:
        return Message(
            "unknown column '%(column)s' (did you mean '%(suggestion)s'?)",
            column=text,
            suggestion=close[0],
        )
    return Message("unknown column '%(column)s' (see docs/import-csv.md)", column=text)


def _rack(
    cells: list[str],
    columns: list[tuple[Column, str | None]],
    file: str,
    line: int,
    problems: list[Problem],
) -> dict[str, Any] | None:
    """One row as a rack entry, checked by the site model; None (with problems) when bad."""
    from facility.model.load import _problems_from
    from facility.model.racks import Rack

    if len(cells) > len(columns):
        extra = next(i for i in range(len(cells) - 1, -1, -1) if cells[i].strip())
        if extra >= len(columns):
            problems.append(
                Problem(
                    Location(file, line, extra + 1),
                    "",
                    Message(
                        "this row has a cell beyond the %(n)s columns of the header",
                        n=len(columns),
                    ),
                )
            )
            return None
    rack: dict[str, Any] = {}
    source = SourceMap(file)
    source.positions[()] = (line, 1)
    labels: dict[str, str] = {}
    for index, (spec, unit) in enumerate(columns):
        for depth in range(1, len(spec.path) + 1):  # a missing field is located at its column
            source.positions.setdefault(spec.path[:depth], (line, index + 1))
        labels[".".join(str(p) for p in spec.path)] = spec.name
        text = unquoted(cells[index].strip()) if index < len(cells) else ""
        if text == "":
            continue
        _put(rack, spec.path, _value(text, spec, unit))
    try:
        Rack.model_validate(rack)
    except ValidationError as exc:
        for problem in _problems_from(exc, rack, source):
            field = labels.get(problem.field) or problem.field.removeprefix("overrides.")
            problems.append(Problem(problem.location, field, problem.message))
        return None
    return rack


def _value(text: str, spec: Column, unit: str | None) -> Any:
    if spec.override and text == "null":
        return None
    if spec.integer and _INTEGER.match(text):
        return int(text)
    if spec.kind is not None and _NUMBER.match(text):
        if unit:
            return f"{text} {unit}"
        if spec.kind == "fraction":  # a bare fraction: 0.95
            return int(text) if _INTEGER.match(text) else float(text)
    if spec.path[-1] == "names":
        return [name.strip() for name in text.split(NAME_SEPARATOR)]
    return text


def _put(target: dict[str, Any], path: Path_, value: Any) -> None:
    for part in path[:-1]:
        target = target.setdefault(str(part), {})
    target[str(path[-1])] = value


# --- writing the base site file -----------------------------------------------------------------


def site_yaml(imported: Imported, name: str) -> str:
    """The base site file of ``imported``: one rack a line, as flow mappings."""
    import yaml

    try:
        from yaml import CSafeDumper as Dumper
    except ImportError:  # pragma: no cover
        from yaml import SafeDumper as Dumper  # type: ignore[assignment]

    def flow(value: Any) -> str:
        return yaml.dump(
            value,
            Dumper=Dumper,
            default_flow_style=True,
            sort_keys=False,
            allow_unicode=True,
            width=1 << 30,
        ).rstrip("\n")

    lines = [
        f"# Racks imported from {_printable(Path(imported.file).name)} by `facility import csv`.",
        "# A base: the rack types, floor zones, loops and PDU types these racks name belong in",
        "# a site file that starts with `extends: <this file>` (see docs/layering.md).",
        "schema_version: 1",
        f"site: {flow({'name': name})}",
    ]
    if not imported.racks:
        lines.append("racks: []")
    else:
        lines.append("racks:")
        lines += [f"  - {flow(rack)}" for rack in imported.racks]
    return "\n".join(lines) + "\n"


def _printable(text: str) -> str:
    """``text`` for a comment line: control characters (a newline in a file name) as ``?``."""
    return re.sub(r"[\x00-\x1f\x7f\u2028\u2029\x85]", "?", text)
