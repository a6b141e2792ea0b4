"""What an audit judged, what it could not evaluate and why, and what the site does not model.

Per area (power, liquid, air, floor, cluster, single failures): for each kind of entity the
area's rules run on, how many entities there are, how many had every applicable check
evaluated, how many had a check not evaluated, and how many no check applied to; the reasons
checks were not evaluated, grouped by rule and reason; and statements of what the site (or this version of
the tool) does not model at all, derived from the model, so nothing is silently out of scope.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from facility.engine.findings import Finding
from facility.engine.quantities import scopes
from facility.engine.rules import AREAS, RuleSet
from facility.messages import Message
from facility.model.site import Site


@dataclass(frozen=True, slots=True)
class ScopeCoverage:
    scope: str  # rack, pdu, tcs_loop, …
    entities: int  # in the site
    judged: int  # every applicable check of the area evaluated
    gaps: int  # at least one check not evaluated
    unchecked: int  # no check of the area applies (its ``when`` did not hold)


@dataclass(frozen=True, slots=True)
class Gap:
    """Checks of one rule not evaluated for one reason."""

    rule: str
    severity: str
    scope: str  # the kind of the entities
    reason: str  # the first missing input of the entities (a Message)
    entities: int
    example: str  # one entity id


@dataclass(slots=True)
class AreaCoverage:
    area: str
    scopes: list[ScopeCoverage] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)  # Messages


@dataclass(slots=True)
class Coverage:
    areas: list[AreaCoverage]

    def gaps(self, severities: tuple[str, ...] = ("error", "warning", "info")) -> list[Gap]:
        return [g for a in self.areas for g in a.gaps if g.severity in severities]


def coverage(
    site: Site,
    ruleset: RuleSet,
    findings: list[Finding],
    single_failures: list[str] | None = None,
) -> Coverage:
    """The coverage of an audit of ``site`` under ``ruleset`` with these ``findings``.

    ``single_failures`` are the scenario ids of the single-failure analysis, None when it was
    not run (the site holds no entity of that scope; the analysis makes them)."""
    by_entity: dict[tuple[str, str, str], set[str]] = defaultdict(set)  # area, scope, id
    gaps: dict[tuple[str, str, str, str, str], list[str]] = defaultdict(list)
    for f in findings:
        by_entity[(f.area, f.entity_kind, f.entity_id)].add(f.status)
        if f.status == "not_evaluated":
            reason = f.missing[0] if f.missing else ""
            gaps[(f.area, f.rule, f.severity, f.entity_kind, reason)].append(f.entity_id)
    area_scopes: dict[str, list[str]] = defaultdict(list)
    for rule in ruleset.rules:
        if rule.spec.scope not in area_scopes[rule.spec.area]:
            area_scopes[rule.spec.area].append(rule.spec.scope)
    listing = scopes()
    areas = []
    for area in AREAS:
        if area == "redundancy":
            statements = _redundancy(single_failures is not None, bool(area_scopes.get(area)))
        else:
            statements = not_modelled(site, area)
        entry = AreaCoverage(area, not_modelled=statements)
        for scope in sorted(area_scopes.get(area, [])):
            if scope == "single_failure":
                ids = list(single_failures or ())
            else:
                ids = [entity_id for entity_id, _ in listing[scope].entities(site)]
            states = Counter(_state(by_entity.get((area, scope, i))) for i in ids)
            entry.scopes.append(
                ScopeCoverage(
                    scope, len(ids), states["judged"], states["gaps"], states["unchecked"]
                )
            )
        for (gap_area, code, severity, kind, reason), ids in sorted(gaps.items()):
            if gap_area == area:
                entry.gaps.append(Gap(code, severity, kind, reason, len(ids), min(ids)))
        areas.append(entry)
    return Coverage(areas)


def _state(statuses: set[str] | None) -> str:
    if not statuses:
        return "unchecked"
    return "gaps" if "not_evaluated" in statuses else "judged"


def not_modelled(site: Site, area: str) -> list[str]:
    """What the site does not model in ``area``, and what this version never models."""
    return _NOT_MODELLED[area](site)


def _power(site: Site) -> list[str]:
    out: list[str] = []
    if not site.sources and not site.distribution:
        out.append(
            Message(
                "no busway, panel, UPS or other source in the site: upstream of the rack PDUs "
                "is not audited"
            )
        )
    elif not site.sources:
        out.append(
            Message("no UPS, generator or utility source in the site: sources are not audited")
        )
    if site.sources or site.distribution:
        unfed = sum(1 for pdu in site.pdus.values() if pdu.fed_by is None)
        if unfed:
            out.append(
                Message(
                    "rack PDUs that name no upstream element (fed_by): %(n)s; their load reaches "
                    "no busway or source check",
                    n=f"{unfed:,}",
                )
            )
    if not site.loads:
        out.append(
            Message(
                "no non-IT loads (power.loads: CDU pumps, fans, heat rejection, lighting): "
                "sources and distribution carry the racks' IT load only, no pPUE is "
                "estimated, and no pump or fan heat is in the facility water's plant heat"
            )
        )
    else:
        out.append(
            Message(
                "a heat rejection, lighting or other load that loses every feed only leaves the "
                "power chain: what it serves is not stopped (a CDU's pumps and an air unit's "
                "fans are: that CDU or unit is then out of service)"
            )
        )
        three_phase = {e.id for e in site.distribution.values() if e.phases == 3}
        unphased = sum(
            1 for load in site.loads.values() if three_phase.intersection(load.fed_by.values())
        )
        if unphased:
            out.append(
                Message(
                    "non-IT loads fed from a three-phase busway, panel or RPP: %(n)s; the site "
                    "model gives them no phase, so they are not in its line currents "
                    "(PWR-019, PWR-020)",
                    n=f"{unphased:,}",
                )
            )
        served = {load.serves for load in site.loads.values() if load.serves is not None}
        unpowered = [c for c in site.cdus if c not in served]
        if unpowered:
            out.append(
                Message(
                    "CDUs whose pump power no load states (power.loads with serves): %(n)s; "
                    "it is not on any source nor in the facility water's plant heat",
                    n=f"{len(unpowered):,}",
                )
            )
        written = {u.rsplit("-", 1)[0] for u in site.air_units} | set(site.air_units)
        if site.air_units and not served & written:
            out.append(Message("no load states the air units' fan power (power.loads with serves)"))
    without = [s.id for s in site.sources.values() if s.efficiency is None]
    if without:
        out.append(
            Message(
                "sources without an efficiency: %(n)s; their losses are not in the power account",
                n=f"{len(without):,}",
            )
        )
    out.append(
        Message(
            "the power chain above a source (a transformer feeding a UPS, a generator behind a "
            "transfer switch) is not modelled: each source is judged on what it feeds"
        )
    )
    return out


def _liquid(site: Site) -> list[str]:
    out: list[str] = []
    if not site.loops:
        out.append(Message("no TCS loop in the site: liquid cooling is not audited"))
    if not site.facility_water:
        out.append(Message("no facility water loop in the site: CDU heat rejection is not audited"))
    idle = sum(1 for cdu in site.cdus.values() if cdu.loop is None)
    if idle:
        out.append(Message("CDUs that serve no TCS loop: %(n)s", n=f"{idle:,}"))
    empty = {loop for loop in site.loops} - {rack.loop for rack in site.racks}
    if empty:
        out.append(
            Message("TCS loops with no racks: %(n)s; they carry no heat", n=f"{len(empty):,}")
        )
    plant = {entry.facility_water for entry in site.heat_rejection.values()}
    bare = [w for w in site.facility_water if w not in plant]
    if bare:
        out.append(
            Message(
                "facility water loops with no heat rejection plant (cooling.heat_rejection): "
                "%(n)s; their supply temperature is taken as declared",
                n=f"{len(bare):,}",
            )
        )
    out.append(
        Message(
            "the heat rejection plant (chillers, dry coolers, cooling towers) is modelled by "
            "its capacity and approach at the design ambient only: its pumps, controls, "
            "piping and part-load behaviour are not modelled, nor heat gained by the facility "
            "water's piping"
        )
    )
    out.append(
        Message(
            "a utility loss is judged by its ride-through (LIQ-019 to LIQ-021: pumps on a UPS, "
            "the loop's coolant against the transfer and the restart, lumped); the transient "
            "itself (pump run-down, temperatures along the loop) is not modelled"
        )
    )
    return out


def _air(site: Site) -> list[str]:
    out: list[str] = []
    if not site.air_units:
        out.append(Message("no air units in the site: room air is not audited"))
    own_condenser = sum(1 for unit in site.air_units.values() if unit.facility_water is None)
    if own_condenser:
        out.append(
            Message(
                "air units with their own condenser (naming no facility water): %(n)s; how "
                "their condensers reject the room's heat outdoors is not judged",
                n=f"{own_condenser:,}",
            )
        )
    if any(load.kind in ("lighting", "other") for load in site.loads.values()):
        out.append(
            Message(
                "the heat of lighting and other non-IT loads in the room is not added to its "
                "air heat"
            )
        )
    out.append(
        Message(
            "airflow and rack inlet air temperature are not modelled: room air is judged as "
            "sensible heat against the air units' sensible capacity"
        )
    )
    with_racks = {rack.room for rack in site.racks if rack.room is not None}
    unstated = [r for r in sorted(with_racks) if site.rooms[r].cooling_loss is None]
    if unstated:
        out.append(
            Message(
                "rooms with racks that state no cooling_loss: %(n)s; their air during a loss "
                "of its cooling (a utility loss, a chiller restart) is not judged (AIR-005)",
                n=f"{len(unstated):,}",
            )
        )
    if len(unstated) < len(with_racks):
        out.append(
            Message(
                "the room air during a loss of its cooling is judged as two lumps, the air and "
                "the solids stated (AIR-005): airflow and recirculation are not modelled"
            )
        )
    return out


def _floor(site: Site) -> list[str]:
    out: list[str] = []
    if not site.zones:
        out.append(Message("no floor zones in the site: floor loading is not audited"))
    no_height = sum(1 for zone in site.zones.values() if zone.clear_height is None)
    if no_height:
        out.append(
            Message(
                "floor zones that state no clear_height: %(n)s; rack heights are not checked there",
                n=f"{no_height:,}",
            )
        )
    out.append(
        Message(
            "only racks load the floor: CDUs, filled manifolds and busways are not added to "
            "zone loads"
        )
    )
    with_racks = {rack.room for rack in site.racks if rack.room is not None}
    unrouted = sum(1 for r in with_racks if site.rooms[r].move_in_route is None)
    if unrouted:
        out.append(
            Message(
                "rooms with racks that declare no move_in_route: %(n)s; whether their racks "
                "can be brought in (doors, corridors, lifts, ramps, floors on the way) is not "
                "judged",
                n=f"{unrouted:,}",
            )
        )
    if unrouted < len(with_racks):
        out.append(
            Message(
                "a move-in route is judged segment by segment as straight passages: turns, a "
                "rack's tilt on a ramp and at its ends, and the space the movers need are not "
                "modelled"
            )
        )
    return out + _space(site)


def _space(site: Site) -> list[str]:
    """What the space and cabling checks (FLR-014 to FLR-017) leave out."""
    out: list[str] = []
    if any(rack.zone is not None for rack in site.racks):
        out.append(
            Message(
                "a floor zone's area is judged against its racks with half of each aisle "
                "(FLR-014), a necessary condition: walls, end-of-row and cross aisles, columns, "
                "CDUs and other in-row equipment are not placed"
            )
        )
    laid_out = {
        (zone.id, row.row)
        for zone in site.zones.values()
        if zone.layout is not None
        for row in zone.layout.rows
    }
    rows = {(rack.zone, rack.row) for rack in site.racks if rack.row is not None}
    unplaced = {row for zone, row in rows if (zone, row) not in laid_out}
    if unplaced:
        out.append(
            Message(
                "rows of racks that no floor zone's layout places: %(n)s; their length "
                "(FLR-015) and the cable routes of their supernodes (FLR-017) are not judged",
                n=f"{len(unplaced):,}",
            )
        )
    if not any(zone.layout is not None and zone.layout.cable_trays for zone in site.zones.values()):
        out.append(
            Message("no cable trays in the site (floor_zones[].layout): tray fill is not judged")
        )
    return out


def _cluster(site: Site) -> list[str]:
    if site.cluster is None:
        return [
            Message(
                "no cluster plan (cluster:): network, storage and training-time checks are not run"
            )
        ]
    out: list[str] = []
    test = site.cluster.thermal_test
    if test is not None and test.rack is not None:
        tested = test.rack.type.id
        untested = {r.type.id for r in site.racks if r.type.is_liquid} - {tested}
        if untested:
            out.append(
                Message(
                    "liquid-cooled rack types that the single-rack thermal test (of a "
                    "'%(tested)s' rack) does not cover: %(n)s; their racks' limits are not "
                    "proven by a test (CLU-016 to CLU-021)",
                    tested=tested,
                    n=f"{len(untested):,}",
                )
            )
    out.append(
        Message(
            "commissioning evidence is judged as recorded: the thermal test's measurements and "
            "the monitoring layers' metrics are taken from the record, not verified against "
            "the sensors, exporters or dashboards they name"
        )
    )
    return out


def _redundancy(analysed: bool, judged: bool) -> list[str]:
    if not judged:
        return [
            Message(
                "single-failure analysis not run: the rule profile has no rule of the "
                "single_failure scope (RED-001)"
            )
        ]
    if not analysed:
        return [Message("single-failure analysis not run")]
    return [
        Message("one element out of service at a time: two elements out at once are not analysed"),
        Message("pipework, valves, manifolds and controls are not modelled as elements that fail"),
    ]


_NOT_MODELLED = {
    "power": _power,
    "liquid": _liquid,
    "air": _air,
    "floor": _floor,
    "cluster": _cluster,
}
