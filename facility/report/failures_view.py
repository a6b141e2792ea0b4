"""The report's single-failure (N-1) section: the view model of a FailureReport.

:func:`failure_section` turns the analysis (:mod:`facility.analysis.failures`) into plain,
formatted strings for the HTML and Markdown templates, as :mod:`facility.report.view` does:

- the single points of failure, grouped when identical ("16 × rack side (A01:A, …): PWR-002");
- every group of failures with the rules that break and the worst utilisation it leaves;
- a matrix, failed element × affected entity: a row per group of failures, a column per
  entity whose status changed or whose utilisation rose (rack PDUs grouped by row and side,
  racks by row), each cell the worst status and utilisation there ("fail 121.4 %").

Failures group as ``facility failures`` groups them: the same kind of element, the same rules
broken and the same figures (identical racks losing a side, the CDUs of one loop). A grouped
row of the matrix shows, in each column, the worst that any of its failures does there.
Everything is sorted and capped, so a campus's 25,000 failures give a section of bounded size;
the JSON result lists every failure with every finding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from facility.analysis.failures import FailureReport, Scenario, ScenarioResult, utilisation
from facility.engine.findings import Finding
from facility.engine.rules import SEVERITY_ORDER
from facility.model.site import Site
from facility.report.anchors import natural_key, slug
from facility.report.context import ReportInput
from facility.report.findings_view import missing_text, text_of
from facility.report.i18n import N_, _, ngettext
from facility.report.quantities import format_quantity
from facility.report.utilisation import Lookup, _by_entity, _pdu_by_row_and_side, _rack_by_row
from facility.report.words import (
    counted_kind_word,
    entity_kind_word,
    list_separator,
    severity_word,
)

MAX_GROUPS = 60  # groups of failures listed, each a row of the matrix
MAX_COLUMNS = 30  # affected entities (columns) in the matrix
PANEL_COLUMNS = 8  # matrix columns per table: a table fits the width of a printed page
MAX_ELEMENTS = 6  # failed elements named per group in the table; the rest are counted
MAX_LINE_ELEMENTS = 4  # failed elements named in a single point of failure's one line
MAX_ROW_ELEMENTS = 3  # failed elements named in a matrix row's header
MAX_BROKEN = 6  # broken rules listed per group
_EPSILON = 1e-9

KINDS = ("power_source", "distribution", "rack_side", "cdu", "cdu_pump", "facility_water",
         "air_unit", "heat_rejection")  # fmt: skip
_KIND_ORDER = {kind: i for i, kind in enumerate(KINDS)}
COLUMN_KINDS = ("power_source", "distribution", "pdu", "rack", "cdu", "tcs_loop",
                "facility_water", "room", "floor_zone")  # fmt: skip
_COLUMN_ORDER = {kind: i for i, kind in enumerate(COLUMN_KINDS)}
# A cell shows the worst of its findings: a failure, then a check that can no longer run,
# then a pass whose utilisation rose.
_STATUS_RANK = {"fail": 3, "waived": 2, "not_evaluated": 1, "pass": 0}
CELL_WORDS = {
    "fail": N_("fail"),
    "waived": N_("waived"),
    "not_evaluated": N_("not evaluated"),
    "pass": N_("pass"),
}


@dataclass(frozen=True, slots=True)
class BrokenRule:
    """A rule the loss makes fail: PWR-002 — '4 rack PDUs, e.g. A01-B1: 40.8 kVA of 36.2 kVA'."""

    rule: str
    title: str
    severity: str
    severity_label: str
    detail: str


@dataclass(frozen=True, slots=True)
class FailureGroup:
    """Failures of one kind with the same consequence, e.g. either side of 8 identical racks."""

    anchor: str
    kind: str
    count: int
    label: str  # "CDU-B1 out of service", or "16 × rack side"
    elements: str  # "A01:A, A01:B, … and 4 more" for a group of several; "" for one failure
    example: str  # "figures for side A of rack A01 lost" for a group of several; ""
    single_point_of_failure: bool
    outcome: str  # "single point of failure" | "survived"
    broken: list[BrokenRule]  # the rules that break (new failures), errors first
    broken_more: str
    worst_percent: str  # "121.4 %", "no capacity", or "" when no check changes
    worst_status: str
    worst_detail: str  # "LIQ-003 TCS-A: 1,457 L/min of 1,200 L/min"
    summary: str  # one line: "16 × rack side (A01:A, A01:B, A02:A, A02:B and 12 more): PWR-002"


@dataclass(frozen=True, slots=True)
class MatrixColumn:
    key: str
    label: str  # "TCS-A", "Row A · side B", "Room B3"
    note: str  # "TCS loop", "32 rack PDUs"


@dataclass(frozen=True, slots=True)
class MatrixCell:
    status: str  # fail | not_evaluated | pass; "" when the failure leaves the entity as it was
    word: str  # "fail"
    percent: str  # "121.4 %", "no capacity", or "" (counts and temperatures have none)
    rule: str
    detail: str  # "LIQ-003 TCS-A: 1,457 L/min of 1,200 L/min"


@dataclass(frozen=True, slots=True)
class MatrixRow:
    anchor: str  # the group's row in the list of failures
    label: str  # "CDU-A1, CDU-A2"
    note: str  # "2 × CDU · single point of failure"
    single_point_of_failure: bool
    cells: list[MatrixCell]  # one per column of the panel


@dataclass(frozen=True, slots=True)
class MatrixPanel:
    """The columns of the matrix that fit a page's width, with each row that has a cell there."""

    caption: str
    columns: list[MatrixColumn]
    rows: list[MatrixRow]


@dataclass(frozen=True, slots=True)
class FailureMatrix:
    panels: list[MatrixPanel]  # none when no failure changes any check
    columns: int  # shown
    columns_total: int  # affected entities (grouped) in the rows shown
    rows: int
    notes: list[str]  # what the caps left out; the failures that change nothing


@dataclass(frozen=True, slots=True)
class FailureSection:
    scenarios: int
    single_points_of_failure: int
    survived: int
    spof_groups: list[FailureGroup]
    groups: list[FailureGroup]  # at most MAX_GROUPS: single points of failure first
    groups_note: str
    matrix: FailureMatrix


def kind_word(kind: str, n: int = 1) -> str:
    """'rack side' / 'rack sides' … for ``n`` failed elements of ``kind``."""
    if kind in ("power_source", "distribution", "cdu", "facility_water"):
        return entity_kind_word(kind, n)
    if kind == "rack_side":
        return ngettext("rack side", "rack sides", n)
    if kind == "cdu_pump":
        return ngettext("CDU pump", "CDU pumps", n)
    if kind == "air_unit":
        return ngettext("air unit", "air units", n)
    if kind == "heat_rejection":
        return ngettext("heat rejection unit", "heat rejection units", n)
    return kind.replace("_", " ")


def describe(scenario: Scenario) -> str:
    """The failure in words: 'side A of rack A01 lost', 'CDU-B1 out of service'."""
    element = scenario.element
    if scenario.kind == "rack_side":
        rack, side = element.rsplit(":", 1)
        return _("side %(side)s of rack %(rack)s lost") % {"side": side, "rack": rack}
    if scenario.kind == "cdu":
        return _("%(cdu)s out of service") % {"cdu": element}
    if scenario.kind == "cdu_pump":
        return _("one pump of %(cdu)s lost") % {"cdu": element}
    if scenario.kind == "facility_water":
        return _("facility water %(loop)s lost") % {"loop": element}
    if scenario.kind == "air_unit":
        return _("air unit %(unit)s lost") % {"unit": element}
    if scenario.kind == "heat_rejection":
        return _("one unit of %(entry)s lost") % {"entry": element}
    return _("%(element)s lost") % {"element": element}


def percent(u: float | None) -> str:
    """'121.4 %'; 'no capacity' when nothing is left to carry the load; '' without a ratio."""
    if u is None:
        return ""
    return _("no capacity") if math.isinf(u) else format_quantity(u, "fraction")


def _names(elements: list[str], limit: int) -> str:
    """'A01:A, A01:B, A02:A and 13 more'."""
    shown = list_separator().join(elements[:limit])
    extra = len(elements) - limit
    return shown + " " + _("and %(n)s more") % {"n": f"{extra:,}"} if extra > 0 else shown


def _finding_order(f: Finding) -> tuple[object, ...]:
    return (SEVERITY_ORDER.get(f.severity, 9), f.rule, f.entity_kind, natural_key(f.entity_id))


def _figures(f: Finding) -> str:
    """'1,457 L/min of 1,200 L/min' for a capacity; '12, must be ≤ 0' for a count."""
    observed = text_of(f.observed.value if f.observed else None, f.kind)
    limit = text_of(f.limit.value if f.limit else None, f.kind)
    if f.relation in ("≤", "<") and utilisation(f) is not None:
        return _("%(observed)s of %(limit)s") % {"observed": observed, "limit": limit}
    return _("%(observed)s, must be %(relation)s %(limit)s") % {
        "observed": observed, "relation": f.relation, "limit": limit}  # fmt: skip


def _detail(f: Finding) -> str:
    """'LIQ-003 TCS-A: 1,457 L/min of 1,200 L/min'."""
    if f.status == "not_evaluated":
        what = _("not evaluated: %(missing)s") % {"missing": missing_text(f)}
    else:
        what = _figures(f)
    return _("%(rule)s %(entity)s: %(message)s") % {
        "rule": f.rule, "entity": f.entity_id, "message": what}  # fmt: skip


def _unwaived(status: str) -> str:
    """Failures are judged without waivers: a waived finding counts as failing."""
    return "fail" if status == "waived" else status


def _rank(f: Finding) -> tuple[int, float]:
    """Larger is worse: the status first, then the utilisation (none left is the worst)."""
    u = utilisation(f)
    return _STATUS_RANK.get(f.status, 0), (-1.0 if u is None else u)


def _changed(after: Finding, before: Finding | None) -> bool:
    """The failure changed the finding's status or raised its utilisation."""
    if before is None or _unwaived(before.status) != after.status:
        return True
    u_after, u_before = utilisation(after), utilisation(before)
    if u_after is None:
        return False
    if u_before is None:
        return True
    if math.isinf(u_after):
        return not math.isinf(u_before)
    return u_after > u_before + _EPSILON * max(1.0, abs(u_before))


class _Group:
    """Failures alike, and the worst utilisation any of them leaves."""

    __slots__ = ("members", "worst", "worst_u")

    def __init__(self) -> None:
        self.members: list[ScenarioResult] = []
        self.worst: Finding | None = None
        self.worst_u: float | None = None

    @property
    def head(self) -> ScenarioResult:
        return self.members[0]

    @property
    def spof(self) -> bool:
        return self.head.single_point_of_failure

    @property
    def kind(self) -> str:
        return self.head.scenario.kind

    def elements(self) -> list[str]:
        return [m.scenario.element for m in self.members]

    def order(self) -> tuple[object, ...]:
        """Single points of failure by kind of element; the others the most utilised first."""
        first = natural_key(self.head.scenario.element)
        if self.spof:
            return (0, _KIND_ORDER.get(self.kind, 9), first)
        u = -1.0 if self.worst_u is None else self.worst_u
        return (1, -u, _KIND_ORDER.get(self.kind, 9), first)


def _group_key(r: ScenarioResult) -> tuple[object, ...]:
    """Failures alike: same kind, same rules broken, same first broken or worst figures."""
    new = sorted(r.new_failures, key=_finding_order)
    rules = tuple(sorted({f.rule for f in new}))
    if r.single_point_of_failure:
        first = next(f for f in new if f.severity == "error")
        return (r.scenario.kind, True, rules, first.rule, _figures(first))
    worst = "" if r.worst is None else f"{r.worst.rule} {_figures(r.worst)}"
    return (r.scenario.kind, False, rules, percent(r.worst_utilisation), worst)


def _groups(report: FailureReport) -> list[_Group]:
    groups: dict[tuple[object, ...], _Group] = {}
    results = sorted(
        report.results,
        key=lambda r: (_KIND_ORDER.get(r.scenario.kind, 9), natural_key(r.scenario.element)),
    )
    for r in results:
        group = groups.setdefault(_group_key(r), _Group())
        group.members.append(r)
        u = r.worst_utilisation
        if r.worst is not None and u is not None and (group.worst_u is None or u > group.worst_u):
            group.worst, group.worst_u = r.worst, u
    return sorted(groups.values(), key=_Group.order)


def _broken(r: ScenarioResult, titles: dict[str, str]) -> tuple[list[BrokenRule], str]:
    by_rule: dict[str, list[Finding]] = {}
    for f in sorted(r.new_failures, key=_finding_order):
        by_rule.setdefault(f.rule, []).append(f)
    broken = []
    for members in by_rule.values():
        f = members[0]
        example = _("%(entity)s: %(message)s") % {"entity": f.entity_id, "message": _figures(f)}
        n = len(members)
        if n == 1:
            detail = example
        else:
            kinds = sorted({m.entity_kind for m in members})
            words = list_separator().join(counted_kind_word(k, n) for k in kinds)
            detail = _("%(n)s %(kind)s, e.g. %(example)s") % {
                "n": f"{n:,}", "kind": words, "example": example}  # fmt: skip
        title = titles.get(f.rule, f.title)
        broken.append(BrokenRule(f.rule, title, f.severity, severity_word(f.severity), detail))
    extra = len(broken) - MAX_BROKEN
    more = _("and %(n)s more") % {"n": f"{extra:,}"} if extra > 0 else ""
    return broken[:MAX_BROKEN], more


def _label(group: _Group) -> str:
    n = len(group.members)
    if n == 1:
        return describe(group.head.scenario)
    return _("%(n)s × %(kind)s") % {"n": f"{n:,}", "kind": kind_word(group.kind, 1)}


def _failure_group(group: _Group, titles: dict[str, str]) -> FailureGroup:
    scenario = group.head.scenario
    n = len(group.members)
    label = _label(group)
    broken, broken_more = _broken(group.head, titles)
    if group.spof:
        rules = list_separator().join(b.rule for b in broken if b.severity == "error")
        if n > 1:
            names = _names(group.elements(), MAX_LINE_ELEMENTS)
            summary = _("%(failure)s (%(elements)s): %(rules)s") % {
                "failure": label, "elements": names, "rules": rules}  # fmt: skip
        else:
            summary = _("%(failure)s: %(rules)s") % {"failure": label, "rules": rules}
    else:
        summary = label
    worst = group.worst
    return FailureGroup(
        anchor=f"failure-{slug(scenario.kind)}--{slug(scenario.element)}",
        kind=group.kind,
        count=n,
        label=label,
        elements=_names(group.elements(), MAX_ELEMENTS) if n > 1 else "",
        example=_("figures for %(failure)s") % {"failure": describe(scenario)} if n > 1 else "",
        single_point_of_failure=group.spof,
        outcome=_("single point of failure") if group.spof else _("survived"),
        broken=broken,
        broken_more=broken_more,
        worst_percent=percent(group.worst_u) if worst is not None else "",
        worst_status=worst.status if worst is not None else "",
        worst_detail=_detail(worst) if worst is not None else _("no check changes"),
        summary=summary,
    )


Column = tuple[int, str, tuple[tuple[int, int | str], ...], str]  # order, kind, sort key, key


def _column(f: Finding, lookup: Lookup) -> tuple[Column, str]:
    """The matrix column of a finding's entity (rack PDUs by row and side, racks by row)."""
    if f.entity_kind == "pdu":
        key, label = _pdu_by_row_and_side(f, lookup)
    elif f.entity_kind == "rack":
        key, label = _rack_by_row(f, lookup)
    else:
        key, label = _by_entity(f, lookup)
    return (_COLUMN_ORDER.get(f.entity_kind, 99), f.entity_kind, natural_key(key), key), label


class _Columns:
    """The columns met so far: labels and the entities each groups."""

    def __init__(self, site: Site):
        self.lookup = Lookup.of(site)
        self.labels: dict[Column, str] = {}
        self.entities: dict[Column, set[str]] = {}

    def cells(self, group: _Group, before: dict[str, Finding]) -> dict[Column, Finding]:
        """The worst changed finding in each column, over every failure of ``group``."""
        cells: dict[Column, Finding] = {}
        for r in group.members:
            for f in r.changed:  # what the loss did not move reads as before
                if not _changed(f, before.get(f.id)):
                    continue
                column, label = _column(f, self.lookup)
                self.labels.setdefault(column, label)
                self.entities.setdefault(column, set()).add(f.entity_id)
                worst = cells.get(column)
                if worst is None or _rank(f) > _rank(worst):
                    cells[column] = f
        return cells

    def view(self, column: Column) -> MatrixColumn:
        kind = column[1]
        if kind in ("pdu", "rack"):
            n = len(self.entities[column])
            note = f"{n:,} {counted_kind_word(kind, n)}"
        else:
            note = entity_kind_word(kind, 1)
        return MatrixColumn(f"{slug(kind)}--{slug(column[3])}", self.labels[column], note)


def _cell(f: Finding | None) -> MatrixCell:
    if f is None:
        return MatrixCell("", "", "", "", "")
    return MatrixCell(
        status=f.status,
        word=_(CELL_WORDS.get(f.status, f.status)),
        percent=percent(utilisation(f)),
        rule=f.rule,
        detail=_detail(f),
    )


def _spans(count: int) -> list[tuple[int, int]]:
    """``count`` columns in balanced tables of at most PANEL_COLUMNS each."""
    tables = max(1, math.ceil(count / PANEL_COLUMNS))
    size, extra = divmod(count, tables)
    spans, start = [], 0
    for i in range(tables):
        end = start + size + (1 if i < extra else 0)
        spans.append((start, end))
        start = end
    return spans


def _worst_first(cells: dict[Column, Finding]) -> list[Column]:
    ranks = {column: _rank(f) for column, f in cells.items()}
    return sorted(cells, key=lambda c: (-ranks[c][0], -ranks[c][1], c))


def _choose(rows: list[tuple[_Group, FailureGroup, dict[Column, Finding]]]) -> set[Column]:
    """At most MAX_COLUMNS columns, so that as many failures as possible show their worst.

    In rounds, each failure in the order of the list (single points of failure first) adds its
    worst-hit column not yet chosen: every failure gets a column before any gets a second, and a campus's thousands of loops do not crowd out its rack PDUs.
    """
    ranked = [_worst_first(cells) for _group, _view, cells in rows]
    chosen: set[Column] = set()
    added = True
    while added and len(chosen) < MAX_COLUMNS:
        added = False
        for columns in ranked:
            column = next((c for c in columns if c not in chosen), None)
            if column is not None:
                chosen.add(column)
                added = True
                if len(chosen) == MAX_COLUMNS:
                    break
    return chosen


def _matrix(
    groups: list[_Group], views: list[FailureGroup], before: dict[str, Finding], site: Site,
    hidden: int,
) -> FailureMatrix:  # fmt: skip
    found = _Columns(site)
    rows: list[tuple[_Group, FailureGroup, dict[Column, Finding]]] = []
    unchanged = []
    for group, view in zip(groups, views, strict=True):
        cells = found.cells(group, before)
        if cells:
            rows.append((group, view, cells))
        else:
            unchanged.append(view)
    every = {column for _group, _view, cells in rows for column in cells}
    columns = sorted(_choose(rows))
    notes = []
    if len(every) > len(columns):
        shown_rows = sum(1 for _group, _view, cells in rows if any(c in cells for c in columns))
        notes.append(
            _("%(shown)s of %(total)s affected entities have a column: the worst-hit of each "
              "failure in turn, in the order of the list above. The JSON result has every "
              "finding of every failure.")
            % {"shown": f"{len(columns):,}", "total": f"{len(every):,}"}
        )  # fmt: skip
        if shown_rows < len(rows):
            missing = len(rows) - shown_rows
            notes.append(
                ngettext("%(n)s more group of failures has no cell in these columns and no row.",
                         "%(n)s more groups of failures have no cell in these columns and no row.",
                         missing) % {"n": f"{missing:,}"}
            )  # fmt: skip
    if hidden:
        notes.append(
            ngettext("%(n)s more group of failures, left out of the list above, has no row.",
                     "%(n)s more groups of failures, left out of the list above, have no row.",
                     hidden) % {"n": f"{hidden:,}"}
        )  # fmt: skip
    if unchanged:
        names = "; ".join(v.label + _(" (%(note)s)") % {"note": v.elements} if v.elements
                          else v.label for v in unchanged)  # fmt: skip
        notes.append(_("These failures change no check and have no row: %(failures)s.")
                     % {"failures": names})  # fmt: skip
    spans = _spans(len(columns)) if columns else []
    panels = []
    for start, end in spans:
        chosen = columns[start:end]
        panel_rows = []
        for group, view, cells in rows:
            if not any(c in cells for c in chosen):
                continue  # a failure that touches none of these columns
            note = view.label if group.members[1:] else kind_word(group.kind, 1)
            if group.spof:
                note = f"{note} · {view.outcome}"
            panel_rows.append(
                MatrixRow(
                    anchor=view.anchor,
                    label=_names(group.elements(), MAX_ROW_ELEMENTS),
                    note=note,
                    single_point_of_failure=group.spof,
                    cells=[_cell(cells.get(c)) for c in chosen],
                )
            )
        caption = _("Status and utilisation of the affected entities after each failure")
        if len(spans) > 1:
            caption = _("Status and utilisation of the affected entities after each failure, "
                        "columns %(first)s–%(last)s of %(total)s") % {
                "first": start + 1, "last": end, "total": len(columns)}  # fmt: skip
        panels.append(MatrixPanel(caption, [found.view(c) for c in chosen], panel_rows))
    return FailureMatrix(panels, len(columns), len(every), len(rows), notes)


def _groups_note(shown: int, hidden: list[_Group]) -> str:
    if not hidden:
        return ""
    counts = {"shown": f"{shown:,}", "total": f"{shown + len(hidden):,}"}
    note = _("%(shown)s of %(total)s groups of failures are listed: the single points of failure "
             "first, then the most utilised.") % counts  # fmt: skip
    highest = max((g.worst_u for g in hidden if g.worst_u is not None), default=None)
    if any(g.spof for g in hidden):
        pass  # more single points of failure than the list holds: no bound to state
    elif highest is None:
        note += " " + _("The others change no check.")
    else:
        note += " " + _("The others leave at most %(highest)s utilisation.") % {
            "highest": percent(highest)}  # fmt: skip
    return note + " " + _("The JSON result lists every failure.")


def failure_section(report: ReportInput) -> FailureSection | None:
    """The single-failure section of ``report``; None when the analysis did not run."""
    failures = report.failures
    if failures is None:
        return None
    titles = {rule.code: rule.spec.text(report.lang).title for rule in report.ruleset.rules}
    before = {f.id: f for f in report.result.findings}
    groups = _groups(failures)
    shown, hidden = groups[:MAX_GROUPS], groups[MAX_GROUPS:]
    views = [_failure_group(g, titles) for g in shown]
    total = len(failures.results)
    spofs = len(failures.single_points_of_failure)
    return FailureSection(
        scenarios=total,
        single_points_of_failure=spofs,
        survived=total - spofs,
        spof_groups=[v for v in views if v.single_point_of_failure],
        groups=views,
        groups_note=_groups_note(len(shown), hidden),
        matrix=_matrix(shown, views, before, report.site, len(hidden)),
    )
