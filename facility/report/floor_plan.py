"""The floor plan of the view model: racks by row and position, each with its worst status.

A rack's status is the worst of its own findings and its PDUs' findings (a failing error
beats a failing warning, which beats a check that could not be evaluated, …). Each status
has a letter as well as a colour, so the plan reads in greyscale and for colour-blind readers.
"""

from __future__ import annotations

from dataclasses import dataclass

from facility.engine.findings import Finding
from facility.model.site import Rack, Site
from facility.report.anchors import finding_anchor, natural_key
from facility.report.i18n import N_, _

DETAILED_LIMIT = 1500  # above this many racks the plan drops letters and links (file size)
MAX_ATTENTION = 50  # rack ids listed per row in the text equivalent
WRAP = 48  # racks without a position wrap after this many squares

# status key, letter, words (marked for translation), from worst to best
STATES: tuple[tuple[str, str, str], ...] = (
    ("error", "E", N_("fails, error")),
    ("warning", "W", N_("fails, warning")),
    ("not_evaluated", "N", N_("not evaluated")),
    ("info", "I", N_("fails, info")),
    ("waived", "V", N_("waived")),
    ("pass", "", N_("passes")),
    ("none", "", N_("no rack checks")),
)
_RANK = {key: i for i, (key, _letter, _words) in enumerate(STATES)}


@dataclass(frozen=True, slots=True)
class FloorRack:
    id: str
    column: int  # 0-based place in the row's line of squares
    line: int  # 0-based line within the row (rows without positions wrap)
    status: str
    letter: str
    label: str  # the status in words
    rules: str  # rules behind the status: "PWR-001, PWR-003"
    anchor: str  # the worst finding's element id, "" when there is none to link to


@dataclass(frozen=True, slots=True)
class FloorRow:
    key: str
    label: str
    racks: list[FloorRack]
    errors: int
    warnings: int
    not_evaluated: int
    waived: int
    passed: int
    attention: list[str]  # racks failing or not evaluated, up to MAX_ATTENTION
    more: str


@dataclass(frozen=True, slots=True)
class LegendEntry:
    key: str
    letter: str
    label: str


@dataclass(frozen=True, slots=True)
class FloorPlan:
    rows: list[FloorRow]
    legend: list[LegendEntry]
    racks: int
    columns: int
    detailed: bool


def _status(f: Finding) -> str:
    if f.status == "fail":
        return f.severity if f.severity in _RANK else "error"
    return f.status


def floor_plan(site: Site, findings: list[Finding]) -> FloorPlan | None:
    """Racks by row and position with their worst status; None for a site without racks."""
    if not site.racks:
        return None
    pdu_rack = {pdu_id: pdu.rack for pdu_id, pdu in site.pdus.items()}
    worst: dict[str, list[Finding]] = {}
    for f in findings:
        if f.entity_kind == "rack":
            rack_id: str | None = f.entity_id
        elif f.entity_kind == "pdu":
            rack_id = pdu_rack.get(f.entity_id)
        else:
            continue
        if rack_id is not None:
            worst.setdefault(rack_id, []).append(f)
    rooms = {rack.room for rack in site.racks}
    rows: dict[tuple[str, str], list[Rack]] = {}
    for rack in site.racks:
        rows.setdefault((rack.room or "", rack.row or ""), []).append(rack)
    detailed = len(site.racks) <= DETAILED_LIMIT
    plan_rows = []
    for room, row in sorted(rows, key=lambda k: (natural_key(k[0]), k[1] == "", natural_key(k[1]))):
        label = _("Row %(row)s") % {"row": row} if row else _("Racks without a row")
        if len(rooms) > 1 and room:
            label = f"{room} · {label}"
        plan_rows.append(_row(f"{room}\0{row}", label, rows[(room, row)], worst, detailed))
    legend = [LegendEntry(key, letter, _(words)) for key, letter, words in STATES]
    columns = max((r.column + 1 for row in plan_rows for r in row.racks), default=0)
    return FloorPlan(plan_rows, legend, len(site.racks), columns, detailed)


def _row(
    key: str, label: str, racks: list[Rack], worst: dict[str, list[Finding]], detailed: bool
) -> FloorRow:
    placed: list[FloorRack] = []
    taken: set[int] = set()
    ordered = sorted(
        racks, key=lambda r: (r.position is None, r.position or 0, natural_key(r.id), r.id)
    )
    next_free = 0
    for rack in ordered:
        if rack.position is not None and rack.position >= 1 and rack.position - 1 not in taken:
            column = rack.position - 1
        else:
            while next_free in taken:
                next_free += 1
            column = next_free
        taken.add(column)
        line, column = (column // WRAP, column % WRAP) if rack.position is None else (0, column)
        placed.append(_rack(rack.id, column, line, worst.get(rack.id, []), detailed))
    counts = {state: 0 for state, _letter, _words in STATES}
    for r in placed:
        counts[r.status] += 1
    attention = sorted(
        (r.id for r in placed if r.status in ("error", "warning", "info", "not_evaluated")),
        key=natural_key,
    )
    more = ""
    if len(attention) > MAX_ATTENTION:
        more = _("and %(n)s more") % {"n": f"{len(attention) - MAX_ATTENTION:,}"}
    return FloorRow(
        key=key,
        label=label,
        racks=placed,
        errors=counts["error"],
        warnings=counts["warning"] + counts["info"],
        not_evaluated=counts["not_evaluated"],
        waived=counts["waived"],
        passed=counts["pass"] + counts["none"],
        attention=attention[:MAX_ATTENTION],
        more=more,
    )


def _rack(
    rack_id: str, column: int, line: int, findings: list[Finding], detailed: bool
) -> FloorRack:
    state = "none"
    for f in findings:
        if _RANK[_status(f)] < _RANK[state]:
            state = _status(f)
    letter, words = next((lt, w) for key, lt, w in STATES if key == state)
    behind = sorted(
        (f for f in findings if _status(f) == state),
        key=lambda f: (f.rule, natural_key(f.entity_id)),
    )
    rules = ", ".join(dict.fromkeys(f.rule for f in behind)) if state != "pass" else ""
    anchor = ""
    if detailed and behind and state in ("error", "warning", "info", "waived"):
        first = behind[0]
        anchor = finding_anchor(first.rule, first.entity_kind, first.entity_id)
    elif detailed and state == "not_evaluated":
        anchor = "not-evaluated"
    return FloorRack(rack_id, column, line, state, letter, _(words), rules, anchor)
