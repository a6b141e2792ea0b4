"""A site's racks as a spreadsheet: the CSV that ``facility import csv`` reads back.

Rows of identical racks are written one rack a line (``row`` and ``position`` filled in); values
are written as the site file has them (``155 kW`` stays ``155 kW``), so export → import →
export gives the same bytes. A column appears when some rack has a value for it (``id`` and
``type`` always). Every cell is made inert for spreadsheets (:func:`~.csv_racks.inert`).
"""

from __future__ import annotations

import csv
import hashlib
import io
from pathlib import Path
from typing import Any

from facility.imports.csv_racks import NAME_SEPARATOR, PDU_FIELDS, PLACEMENT, figure_columns, inert
from facility.messages import Message
from facility.model.source import InputError, Path_, Problem, SourceMap, field_name, read_document


def export_racks(path: Path) -> str:
    """The racks of the site file ``path`` (over its bases) as CSV text. Raises InputError for
    an invalid site or a figure a CSV cell cannot hold."""
    from facility.model.load import validate_document

    data, source, raw = read_document(path)
    if isinstance(data, dict) and "extends" in data:
        from facility.model.layers import apply_extends

        data, source, _layers = apply_extends(path, data, source, hashlib.sha256(raw).hexdigest())
    document = validate_document(data, source)
    entries: list[tuple[dict[str, Any], Path_]] = []
    for i, row in enumerate(document.rows):
        written = data["rows"][i]
        n = row.racks
        for k in range(n.count):
            rack = {
                "id": f"{n.prefix}{n.first + k:0{n.digits}d}",
                "row": row.id,
                "position": k + 1,
                **{
                    key: written[key]
                    for key in ("type", "zone", "loop", "pdus", "overrides")
                    if key in written
                },
            }
            entries.append((rack, ("rows", i)))
    for i, written in enumerate(data.get("racks") or []):
        entries.append((written, ("racks", i)))
    return _csv([_cells(rack, at, source) for rack, at in entries])


def _cells(rack: dict[str, Any], at: Path_, source: SourceMap) -> dict[str, str]:
    """One rack's cells by column name."""
    problems: list[Problem] = []

    def unwritable(path: Path_, message: Message) -> None:
        problems.append(Problem(source.locate((*at, *path)), field_name((*at, *path)), message))

    cells: dict[str, str] = {}
    for name in PLACEMENT:
        if rack.get(name) is not None:
            cells[name] = _text(rack[name])
    for side, group in (rack.get("pdus") or {}).items():
        for name in PDU_FIELDS:
            value = (group or {}).get(name)
            if value is None:
                continue
            if name == "names":
                if any(NAME_SEPARATOR in n for n in value):
                    unwritable(
                        ("pdus", side, "names"),
                        Message(
                            "a PDU name with '%(separator)s' cannot be written to a CSV cell",
                            separator=NAME_SEPARATOR,
                        ),
                    )
                    continue
                cells[f"pdus.{side}.names"] = f"{NAME_SEPARATOR} ".join(value)
            else:
                cells[f"pdus.{side}.{name}"] = _text(value)
    overrides = rack.get("overrides") or {}
    columns = figure_columns()
    for name, value in overrides.items():
        if name in columns:
            cells[name] = "null" if value is None else _text(value)
        elif isinstance(value, dict):
            for part, sub in value.items():
                cells[f"{name}.{part}"] = "null" if sub is None else _text(sub)
        else:
            unwritable(
                ("overrides", name),
                Message(
                    "%(field)s cannot be written to a CSV cell; keep it in the site file",
                    field=name,
                ),
            )
    if problems:
        raise InputError(problems)
    return cells


def _text(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _csv(racks: list[dict[str, str]]) -> str:
    used = {name for cells in racks for name in cells}
    sides: list[str] = []
    for cells in racks:
        for name in cells:
            if name.startswith("pdus."):
                side = name[len("pdus.") :].rpartition(".")[0]
                if side not in sides:
                    sides.append(side)
    header = [name for name in PLACEMENT if name in ("id", "type") or name in used]
    header += [f"pdus.{s}.{f}" for s in sides for f in PDU_FIELDS if f"pdus.{s}.{f}" in used]
    header += [name for name in figure_columns() if name in used]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for cells in racks:
        writer.writerow([inert(cells.get(name, "")) for name in header])
    return out.getvalue()
