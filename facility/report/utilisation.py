"""Utilisation of power elements, loops, rooms and floor zones, taken from the findings.

A rule that compares a load with a capacity (``observed ≤ limit``) gives a utilisation
``observed / limit`` for each entity it ran on. Pairs of rules give the same element in
normal operation and after the single failure the second rule assumes (PWR-002 / PWR-003
for rack PDUs: the other side lost; LIQ-001 / LIQ-002 for a loop's heat: its largest CDU
out; AIR-001 / AIR-002 for a room: its redundant air units out …). Many identical entities (the 8,000 PDUs of a campus) are grouped (rack PDUs by row and side, racks by row
or floor zone) and each group shows its most utilised member.

The result is format-neutral data of the view model: charts draw it as SVG, tables print it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from facility.engine.findings import Finding
from facility.model.site import Site
from facility.report.anchors import FindingLinks, finding_anchor, natural_key, slug
from facility.report.findings_view import text_cached as text_of
from facility.report.i18n import N_, _
from facility.report.quantities import format_quantity
from facility.report.words import counted_kind_word, status_word

MAX_BARS = 40  # elements per chart (the most utilised); the table under it lists the same


@dataclass(frozen=True, slots=True)
class Utilisation:
    """One element's load against its limit in one scenario (its most utilised member)."""

    rule: str
    entity: str
    observed: str
    limit: str
    ratio: float | None  # observed / limit; None when the limit is zero or less
    percent: str  # "112.6 %", or "no capacity" when the limit is zero
    status: str  # fail | pass | waived
    status_label: str
    anchor: str


@dataclass(frozen=True, slots=True)
class UtilisationBar:
    key: str
    element: str  # "TCS-A", "Row A · side A"
    measure: str  # "heat to liquid"
    members: str  # "32 rack PDUs"
    normal: Utilisation | None
    failure: Utilisation | None
    failure_label: str  # "largest CDU out"; "" when there is no failure scenario

    @property
    def worst(self) -> float:
        ratios = [u.ratio if u.ratio is not None else float("inf") for u in self.scenarios]
        return max(ratios, default=0.0)

    @property
    def scenarios(self) -> list[Utilisation]:
        return [u for u in (self.normal, self.failure) if u is not None]


@dataclass(frozen=True, slots=True)
class UtilisationChart:
    key: str  # power | cooling | floor
    title: str
    description: str
    bars: list[UtilisationBar]  # at most MAX_BARS: the most utilised elements, in order
    total: int  # elements measured; more than len(bars) on a large site
    note: str = ""

    @property
    def failure_cases(self) -> list[str]:
        """The single failures the hatched bars show, in order: 'other side lost', 'largest
        CDU out' … (each check assumes its own; none is 'the worst' of the whole site)."""
        return list(dict.fromkeys(b.failure_label for b in self.bars if b.failure is not None))


@dataclass(frozen=True, slots=True)
class Lookup:
    """What grouping needs to know about racks and PDUs, computed once per report."""

    site: Site
    rack_row: dict[str, str | None]
    rack_zone: dict[str, str | None]
    labels: dict[tuple[str | None, ...], str]  # group labels made so far (words cost a lookup)

    @staticmethod
    def of(site: Site) -> Lookup:
        return Lookup(
            site,
            {rack.id: rack.row for rack in site.racks},
            {rack.id: rack.zone for rack in site.racks},
            {},
        )

    def label(self, key: tuple[str | None, ...], make: Callable[[], str]) -> str:
        found = self.labels.get(key)
        if found is None:
            found = self.labels[key] = make()
        return found


Group = Callable[[Finding, Lookup], tuple[str, str]]


def _by_entity(f: Finding, lookup: Lookup) -> tuple[str, str]:
    if f.entity_kind == "room":
        return f.entity_id, lookup.label(
            ("room", f.entity_id), lambda: _("Room %(room)s") % {"room": f.entity_id}
        )
    if f.entity_kind == "floor_zone":
        return f.entity_id, lookup.label(
            ("zone", f.entity_id), lambda: _("Zone %(zone)s") % {"zone": f.entity_id}
        )
    return f.entity_id, f.entity_id


def _row_label(row: str | None) -> str:
    return _("Row %(row)s") % {"row": row} if row is not None else _("Racks without a row")


def _pdu_by_row_and_side(f: Finding, lookup: Lookup) -> tuple[str, str]:
    pdu = lookup.site.pdus.get(f.entity_id)
    if pdu is None:
        return f.entity_id, f.entity_id
    row = lookup.rack_row.get(pdu.rack)
    label = lookup.label(
        ("pdu", row, pdu.side),
        lambda: _("%(row)s · side %(side)s") % {"row": _row_label(row), "side": pdu.side},
    )
    return f"{row or ''}\0{pdu.side}", label


def _rack_by_row(f: Finding, lookup: Lookup) -> tuple[str, str]:
    row = lookup.rack_row.get(f.entity_id)
    return row or "", lookup.label(("row", row), lambda: _row_label(row))


def _rack_by_zone(f: Finding, lookup: Lookup) -> tuple[str, str]:
    zone = lookup.rack_zone.get(f.entity_id)
    label = lookup.label(
        ("zone", zone),
        lambda: _("Zone %(zone)s") % {"zone": zone} if zone else _("Racks without a zone"),
    )
    return zone or "", label


@dataclass(frozen=True, slots=True)
class Measure:
    chart: str
    key: str
    measure: str  # marked with N_, translated when used
    group: Group
    normal: tuple[str, ...]
    failure: tuple[str, ...] = ()
    failure_label: str = ""


MEASURES: tuple[Measure, ...] = (
    Measure("power", "pdu", N_("rack PDU load"), _pdu_by_row_and_side, ("PWR-002",), ("PWR-003",), N_("other side lost")),
    Measure("power", "rack-side", N_("one side carries the rack"), _rack_by_row, (), ("PWR-001",), N_("other side lost")),
    Measure("power", "distribution", N_("load"), _by_entity, ("PWR-005",), ("PWR-006",), N_("other side lost")),
    Measure("power", "source", N_("load"), _by_entity, (), ("PWR-007", "PWR-008"), N_("other side or a module lost")),
    Measure("cooling", "loop-heat", N_("heat to liquid vs CDU capacity"), _by_entity, ("LIQ-001",), ("LIQ-002",), N_("largest CDU out")),
    Measure("cooling", "loop-flow", N_("flow vs CDU flow"), _by_entity, ("LIQ-003",), ("LIQ-004",), N_("largest CDU out")),
    Measure("cooling", "loop-head", N_("pressure drop vs pump head"), _by_entity, ("LIQ-009",)),
    Measure("cooling", "facility-flow", N_("facility water flow"), _by_entity, ("LIQ-011",)),
    Measure("cooling", "room-air", N_("heat to room air vs air units"), _by_entity, ("AIR-001",), ("AIR-002",), N_("redundant units out")),
    Measure("floor", "zone-load", N_("zone load vs uniform rating"), _by_entity, ("FLR-003",)),
    Measure("floor", "rack-footprint", N_("rack footprint pressure"), _rack_by_zone, ("FLR-001",)),
    Measure("floor", "rack-caster", N_("caster load vs panel rating"), _rack_by_zone, ("FLR-002",)),
)  # fmt: skip

CHARTS = {
    "power": (
        N_("Power chain utilisation"),
        N_("Load over continuous capacity, in normal operation and with the single failure "
           "each check assumes: the other power side lost (a source: a side or a module). "
           "Rack PDUs are grouped by row and side, racks by row; each bar is the group's most "
           "loaded member."),
    ),
    "cooling": (
        N_("Cooling utilisation"),
        N_("Heat, flow and pressure over what the CDUs, facility water and air units deliver, "
           "in normal operation and with the largest CDU or the redundant air units out."),
    ),
    "floor": (
        N_("Floor utilisation"),
        N_("Floor load over the zone's rating; racks are grouped by floor zone and each bar "
           "is the zone's most loaded rack."),
    ),
}  # fmt: skip


def utilisation_charts(
    findings: list[Finding], site: Site, links: FindingLinks | None = None
) -> list[UtilisationChart]:
    """The power, cooling and floor charts' data (charts without any bar are left out);
    ``links``: where a bar's link to its finding goes (its own anchor when none is given)."""
    lookup = Lookup.of(site)
    link = links or finding_anchor
    by_rule: dict[str, list[Finding]] = {}
    for f in findings:
        if f.status != "not_evaluated" and f.relation in ("≤", "<") and f.observed and f.limit:
            by_rule.setdefault(f.rule, []).append(f)
    for listed in by_rule.values():
        listed.sort(key=lambda f: (natural_key(f.entity_id), f.entity_kind))
    charts = []
    for chart, (title, description) in CHARTS.items():
        bars: list[UtilisationBar] = []
        for measure in (m for m in MEASURES if m.chart == chart):
            bars += _bars(measure, by_rule, lookup, link)
        if not bars:
            continue
        shown = bars
        note = ""
        if len(bars) > MAX_BARS:
            keep = sorted(range(len(bars)), key=lambda i: (-bars[i].worst, i))[:MAX_BARS]
            shown = [bars[i] for i in sorted(keep)]
            lowest = min(bars[i].worst for i in keep)
            counts = {"shown": f"{MAX_BARS:,}", "total": f"{len(bars):,}"}
            if math.isinf(lowest):
                note = _("The %(shown)s most utilised of %(total)s elements are shown. "
                         "The JSON result has every figure.") % counts  # fmt: skip
            else:
                note = _(
                    "The %(shown)s most utilised of %(total)s elements are shown; each of the "
                    "others is at most %(lowest)s utilised. The JSON result has every figure."
                ) % {**counts, "lowest": format_quantity(lowest, "fraction")}
        charts.append(UtilisationChart(chart, _(title), _(description), shown, len(bars), note))
    return charts


def _bars(
    measure: Measure,
    by_rule: dict[str, list[Finding]],
    lookup: Lookup,
    link: Callable[[str, str, str], str],
) -> list[UtilisationBar]:
    groups: dict[str, dict[str, object]] = {}
    for scenario, codes in (("normal", measure.normal), ("failure", measure.failure)):
        for code in codes:
            for f in by_rule.get(code, []):
                key, label = measure.group(f, lookup)
                group = groups.setdefault(key, {"label": label, "members": set()})
                group["members"].add((f.entity_kind, f.entity_id))  # type: ignore[attr-defined]
                worst = group.get(scenario)
                if worst is None or _ratio_key(f) > _ratio_key(worst):  # type: ignore[arg-type]
                    group[scenario] = f
    bars = []
    for key in sorted(groups, key=natural_key):
        group = groups[key]
        members: set[tuple[str, str]] = group["members"]  # type: ignore[assignment]
        kinds = sorted({kind for kind, _ in members})
        count = len(members)
        words = ", ".join(counted_kind_word(kind, count) for kind in kinds)
        bars.append(
            UtilisationBar(
                key=f"{measure.key}-{slug(key)}",
                element=str(group["label"]),
                measure=_(measure.measure),
                members=f"{count} {words}",
                normal=_utilisation(group.get("normal"), link),  # type: ignore[arg-type]
                failure=_utilisation(group.get("failure"), link),  # type: ignore[arg-type]
                failure_label=_(measure.failure_label) if measure.failure_label else "",
            )
        )
    return bars


def _ratio_key(f: Finding) -> tuple[float, int]:
    """Larger is worse (no capacity at all is the worst; a failure beats a waived finding
    of the same figures); ties keep the first entity."""
    ratio = _ratio(f)
    return (float("inf") if ratio is None else ratio), (f.status == "fail")


def _ratio(f: Finding) -> float | None:
    observed = f.observed.value if f.observed else None
    limit = f.limit.value if f.limit else None
    if observed is None or limit is None:
        return None
    if limit <= 0:
        return None if observed > 0 else 0.0
    return observed / limit


def _utilisation(f: Finding | None, link: Callable[[str, str, str], str]) -> Utilisation | None:
    if f is None:
        return None
    ratio = _ratio(f)
    percent = format_quantity(ratio, "fraction") if ratio is not None else _("no capacity")
    return Utilisation(
        rule=f.rule,
        entity=f.entity_id,
        observed=text_of(f.observed.value if f.observed else None, f.kind),
        limit=text_of(f.limit.value if f.limit else None, f.kind),
        ratio=round(ratio, 6) if ratio is not None else None,
        percent=percent,
        status=f.status,
        status_label=status_word(f.status),
        anchor=link(f.rule, f.entity_kind, f.entity_id),
    )
