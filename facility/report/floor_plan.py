"""The floor plan of the view model: racks by row and position, each with its worst status.

A rack's status is the worst of its own findings and its PDUs' findings (a failing error
beats a failing warning, which beats a check that could not be evaluated, …). Each status
has a letter as well as a colour, so the plan reads in greyscale and for colour-blind readers.

Each rack also carries its floor zone and its TCS loop: the plan draws a zone as a labelled
region around the racks of a row that stand in it, and marks each rack with its loop (a
stripe of the loop's colour and dash, named in the legend with the loop's CDUs). The site
model gives CDUs and air units no place on the floor, so the plan never draws them: it lists
them beside the plan, by loop and by room, and says that their position is not modelled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from facility.engine.findings import Finding
from facility.model.site import Rack, Site
from facility.report.anchors import FindingLinks, finding_anchor, natural_key
from facility.report.i18n import N_, _, ngettext

DETAILED_LIMIT = 1500  # above this many racks the plan drops letters and links (file size)
MAX_ATTENTION = 50  # rack ids listed per row in the text equivalent
MAX_TABLE_ROWS = 200  # rows the HTML report's table lists (a campus has thousands)
MAX_NAMED = 24  # zones and loops the plan's description names
MAX_UNPLACED = 50  # loops' CDUs and rooms' air units a bounded report lists beside the plan
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
    zone: str = ""  # floor zone id, "" when the rack names none
    loop: str = ""  # TCS loop id, "" when the rack names none


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
    zones: list[ZoneRun] = field(default_factory=list)  # the zones' regions in this row
    zone_ids: str = ""  # "Z-A, Z-B": the zones of the row's racks
    loop_ids: str = ""  # "TCS-A": the loops of the row's racks
    span: str = ""  # "A01 … A08": the row's first and last rack, by position


@dataclass(frozen=True, slots=True)
class ZoneRun:
    """Racks side by side in one line of a row and in one floor zone: a region of the plan."""

    zone: str
    line: int
    first: int  # column of the first rack
    last: int  # column of the last rack
    racks: int


@dataclass(frozen=True, slots=True)
class LegendEntry:
    key: str
    letter: str
    label: str


@dataclass(frozen=True, slots=True)
class LoopKey:
    """A TCS loop in the plan's legend: its mark (``style``: 0, 1, …) and its CDUs."""

    loop: str
    style: int
    cdus: str  # "CDU-A1, CDU-A2"
    racks: int


@dataclass(frozen=True, slots=True)
class Unplaced:
    """Equipment the site model gives no position: 'CDUs of TCS-A' — 'CDU-A1, CDU-A2'."""

    kind: str  # cdu | air_unit
    label: str
    members: str


@dataclass(frozen=True, slots=True)
class FloorPlan:
    rows: list[FloorRow]
    legend: list[LegendEntry]
    racks: int
    columns: int
    detailed: bool
    loops: list[LoopKey] = field(default_factory=list)
    zones: list[str] = field(default_factory=list)  # zone ids drawn, in order
    unplaced: list[Unplaced] = field(default_factory=list)  # CDUs and air units
    description: str = ""  # the plan in one sentence: its text alternative
    # The rows a bounded table lists (every row when not bounded) and the totals of the rest
    listed: list[FloorRow] = field(default_factory=list)
    rest: RowTotals | None = None
    # The unplaced groups a bounded report lists, and what it says of the others ("" if none)
    unplaced_listed: list[Unplaced] = field(default_factory=list)
    unplaced_more: str = ""


@dataclass(frozen=True, slots=True)
class RowTotals:
    """The rows a bounded table does not list, summed: each column's total over them."""

    label: str  # "and 8,634 more rows"
    racks: int
    errors: int
    warnings: int
    not_evaluated: int
    waived: int
    passed: int


def _status(f: Finding) -> str:
    if f.status == "fail":
        return f.severity if f.severity in _RANK else "error"
    return f.status


def floor_plan(
    site: Site,
    findings: list[Finding],
    links: FindingLinks | None = None,
    table_rows: int | None = None,
) -> FloorPlan | None:
    """Racks by row and position with their worst status; None for a site without racks.
    ``links``: where a rack's link to its first failing finding goes (its own anchor when
    none is given). ``table_rows``: how many rows the table of its figures lists at most
    (:func:`_bounded`; None: every row, and every loop's CDUs and room's air units; else at
    most MAX_UNPLACED of those)."""
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
        link = links or finding_anchor
        plan_rows.append(_row(f"{room}\0{row}", label, rows[(room, row)], worst, detailed, link))
    legend = [LegendEntry(key, letter, _(words)) for key, letter, words in STATES]
    columns = max((r.column + 1 for row in plan_rows for r in row.racks), default=0)
    loops = _loops(site)
    zones = sorted({r.zone for r in site.racks if r.zone}, key=natural_key)
    unplaced = _unplaced(site)
    listed, rest = _bounded(plan_rows, table_rows)
    unplaced_listed = unplaced if table_rows is None else unplaced[:MAX_UNPLACED]
    more = len(unplaced) - len(unplaced_listed)
    unplaced_more = ""
    if more:
        unplaced_more = ngettext(
            "and %(n)s more loop or room; the Markdown report lists every one",
            "and %(n)s more loops and rooms; the Markdown report lists every one",
            more,
        ) % {"n": f"{more:,}"}
    return FloorPlan(
        plan_rows,
        legend,
        len(site.racks),
        columns,
        detailed,
        loops,
        zones,
        unplaced,
        _description(len(site.racks), len(plan_rows), zones, loops, unplaced),
        listed,
        rest,
        unplaced_listed,
        unplaced_more,
    )


def _bounded(rows: list[FloorRow], limit: int | None) -> tuple[list[FloorRow], RowTotals | None]:
    """Every row, when there are at most ``limit``; else, in their order, the rows with a rack
    to attend to (failing, not evaluated or waived), at most ``limit``, and the others summed:
    a campus's rows where every rack passes are one line, and the totals still add up."""
    if limit is None or len(rows) <= limit:
        return rows, None
    listed = [r for r in rows if r.errors or r.warnings or r.not_evaluated or r.waived][:limit]
    shown = {id(r) for r in listed}
    rest = [r for r in rows if id(r) not in shown]
    more = len(rest)
    label = ngettext("and %(n)s more row", "and %(n)s more rows", more) % {"n": f"{more:,}"}
    return listed, RowTotals(
        label,
        sum(len(r.racks) for r in rest),
        sum(r.errors for r in rest),
        sum(r.warnings for r in rest),
        sum(r.not_evaluated for r in rest),
        sum(r.waived for r in rest),
        sum(r.passed for r in rest),
    )


def _named(ids: list[str]) -> str:
    """At most MAX_NAMED ids, then how many more (a campus's description named 5,248 zones)."""
    shown = ", ".join(ids[:MAX_NAMED])
    if len(ids) <= MAX_NAMED:
        return shown
    return _("%(ids)s and %(n)s more") % {"ids": shown, "n": f"{len(ids) - MAX_NAMED:,}"}


def _loops(site: Site) -> list[LoopKey]:
    """The loops the racks name, each with its mark and CDUs (a loop the site does not
    define is still marked: its racks' checks say what is wrong with it)."""
    racks: dict[str, int] = {}
    for rack in site.racks:
        if rack.loop:
            racks[rack.loop] = racks.get(rack.loop, 0) + 1
    out = []
    for i, loop_id in enumerate(sorted(racks, key=natural_key)):
        spec = site.loops.get(loop_id)
        cdus = ", ".join(spec.cdus) if spec is not None else ""
        out.append(LoopKey(loop_id, i, cdus, racks[loop_id]))
    return out


def _unplaced(site: Site) -> list[Unplaced]:
    """CDUs by loop and air units by room: the model has no position for either."""
    out = []
    by_loop: dict[str, list[str]] = {}
    for cdu_id, cdu in site.cdus.items():
        by_loop.setdefault(cdu.loop or "", []).append(cdu_id)
    for loop_id in sorted(by_loop, key=lambda k: (k == "", natural_key(k))):
        label = _("CDUs of %(loop)s") % {"loop": loop_id} if loop_id else _("CDUs of no TCS loop")
        members = ", ".join(sorted(by_loop[loop_id], key=natural_key))
        out.append(Unplaced("cdu", label, members))
    by_room: dict[str, list[str]] = {}
    for unit_id, unit in site.air_units.items():
        by_room.setdefault(unit.room or "", []).append(unit_id)
    for room in sorted(by_room, key=lambda k: (k == "", natural_key(k))):
        label = (
            _("Air units of room %(room)s") % {"room": room} if room else _("Air units of no room")
        )
        members = ", ".join(sorted(by_room[room], key=natural_key))
        out.append(Unplaced("air_unit", label, members))
    return out


def _description(
    racks: int, rows: int, zones: list[str], loops: list[LoopKey], unplaced: list[Unplaced]
) -> str:
    """The plan in sentences: the text alternative of the picture."""
    sentences = [
        _("%(racks)s in %(rows)s.")
        % {
            "racks": ngettext("%(n)s rack", "%(n)s racks", racks) % {"n": f"{racks:,}"},
            "rows": ngettext("%(n)s row", "%(n)s rows", rows) % {"n": f"{rows:,}"},
        }
    ]
    if zones:
        sentences.append(_("Floor zones: %(zones)s.") % {"zones": _named(zones)})
    if loops:
        sentences.append(_("TCS loops: %(loops)s.") % {"loops": _named([k.loop for k in loops])})
    if unplaced:
        sentences.append(
            _(
                "CDUs and air units have no position in the site model: they are listed "
                "beside the plan, not drawn."
            )
        )
    text = sentences[0]
    for sentence in sentences[1:]:  # spaced as the language spaces sentences
        text = _("%(first)s %(second)s") % {"first": text, "second": sentence}
    return text


def _row(
    key: str,
    label: str,
    racks: list[Rack],
    worst: dict[str, list[Finding]],
    detailed: bool,
    link: Callable[[str, str, str], str],
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
        placed.append(
            _rack(
                rack.id, column, line, worst.get(rack.id, []), detailed, rack.zone, rack.loop, link
            )
        )
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
        zones=_zone_runs(placed),
        zone_ids=", ".join(sorted({r.zone for r in placed if r.zone}, key=natural_key)),
        loop_ids=", ".join(sorted({r.loop for r in placed if r.loop}, key=natural_key)),
        span=_span(placed),
    )


def _span(placed: list[FloorRack]) -> str:
    ordered = sorted(placed, key=lambda r: (r.line, r.column))
    if not ordered:
        return ""
    if len(ordered) == 1:
        return ordered[0].id
    return _("%(first)s … %(last)s") % {"first": ordered[0].id, "last": ordered[-1].id}


def _zone_runs(placed: list[FloorRack]) -> list[ZoneRun]:
    """Neighbouring racks of one line in the same zone, as regions (a gap in the positions
    or another zone between them starts a new region)."""
    runs: list[ZoneRun] = []
    for rack in sorted(placed, key=lambda r: (r.line, r.column)):
        last = runs[-1] if runs else None
        if (
            last is not None
            and rack.zone
            and last.zone == rack.zone
            and last.line == rack.line
            and last.last == rack.column - 1
        ):
            runs[-1] = ZoneRun(last.zone, last.line, last.first, rack.column, last.racks + 1)
        elif rack.zone:
            runs.append(ZoneRun(rack.zone, rack.line, rack.column, rack.column, 1))
    return runs


def _rack(
    rack_id: str,
    column: int,
    line: int,
    findings: list[Finding],
    detailed: bool,
    zone: str | None,
    loop: str | None,
    link: Callable[[str, str, str], str],
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
        anchor = link(first.rule, first.entity_kind, first.entity_id)
    elif detailed and state == "not_evaluated":
        anchor = "not-evaluated"
    return FloorRack(
        rack_id, column, line, state, letter, _(words), rules, anchor, zone or "", loop or ""
    )
