"""Single-failure (N-1) analysis: fail each element, shift its load, re-run the affected rules.

For every element whose loss the design must survive — each power source and distribution
element, each power side of each rack, each CDU, each CDU's pumps (one pump lost), each
facility water loop, each room air unit and one unit of each heat rejection entry (a chiller,
dry cooler or cooling tower) — the site is copied with that element out of service, the load
moves where it physically goes (the other side's PDUs carry whole racks; the loop's other CDUs
carry its heat and flow; the room's other air units carry its air heat; the entry's other units
carry the facility water's heat, the lost one counted among the units it may have out), and
the normal-operation rules are evaluated again on the entities the failure touches.

Rules tagged ``single-failure`` are not re-run: they already assume one failure, and running
them inside a failure scenario would judge a double failure.

Scenarios are incremental: each one copies only what it changes and evaluates only the
entities it affects, so a campus's thousands of scenarios cost about one audit in total. What
an earlier scenario already judged is not judged again: identical racks losing the same side,
an element above left in the state an earlier loss left it in, and a check the normal audit
could not evaluate (its normal finding stands).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from facility.engine.evaluate import evaluate_entities
from facility.engine.findings import AuditResult, Finding
from facility.engine.quantities import Context
from facility.engine.reads import Affected, Seed, affected, changed_quantities
from facility.engine.rules import RuleSet
from facility.gcpause import paused_gc
from facility.messages import Message
from facility.model import overlay
from facility.model.cooling import Pumps
from facility.model.site import Pdu, Rack, ResolvedCdu, Site
from facility.model.source import Location
from facility.model.topology import Feed, Moved, Topology

SINGLE_FAILURE_TAG = "single-failure"


@dataclass(frozen=True, slots=True)
class Scenario:
    # power_source, distribution, rack_side, cdu, cdu_pump, facility_water, air_unit,
    # heat_rejection
    kind: str
    element: str
    description: str  # a Message: English, shown translated through localized()

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.element}"


@dataclass(slots=True)
class ScenarioResult:
    scenario: Scenario
    changed: list[Finding]  # the affected checks the loss moved (status or figures)
    new_failures: list[Finding]  # failing now, not failing before the loss
    worst: Finding | None  # the affected finding with the highest utilisation
    worst_utilisation: float | None
    # The affected checks the loss did not move: the normal audit's own findings, shared, so a
    # campus's tens of thousands of scenarios do not each keep a copy of what reads the same.
    unchanged: list[Finding] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        """Every check the loss touches, judged with the element out of service."""
        return [*self.changed, *self.unchanged]

    @property
    def id(self) -> str:
        """The scenario's id: the entity a single_failure rule judges."""
        return self.scenario.id

    @property
    def single_point_of_failure(self) -> bool:
        """The loss makes an error-severity check fail that passed before."""
        return any(f.severity == "error" for f in self.new_failures)


@dataclass(slots=True)
class FailureReport:
    results: list[ScenarioResult] = field(default_factory=list)

    @property
    def single_points_of_failure(self) -> list[ScenarioResult]:
        return [r for r in self.results if r.single_point_of_failure]


def utilisation(finding: Finding) -> float | None:
    """observed / limit for a '≤' check, limit / observed for '≥' (1.0 = at the limit)."""
    if (
        finding.observed is None
        or finding.limit is None
        or finding.kind in ("count", "temperature")
    ):
        return None  # counts and absolute temperatures are not capacities
    observed, limit = finding.observed.value, finding.limit.value
    if observed is None or limit is None:
        return None
    if finding.relation in ("≤", "<"):
        if limit > 0:
            return observed / limit
        return float("inf") if observed > 0 else None
    if finding.relation in ("≥", ">"):
        if observed > 0:
            return limit / observed
        return float("inf") if limit > 0 else None
    return None


def scenarios(site: Site) -> list[Scenario]:
    """Every single failure the design must survive, in a stable order."""
    out: list[Scenario] = []
    for source in sorted(site.sources):
        out.append(Scenario("power_source", source, Message("%(element)s lost", element=source)))
    for element in sorted(site.distribution):
        out.append(Scenario("distribution", element, Message("%(element)s lost", element=element)))
    for rack in site.racks:
        for side in sorted(rack.pdus):
            description = Message("side %(side)s of rack %(rack)s lost", side=side, rack=rack.id)
            out.append(Scenario("rack_side", f"{rack.id}:{side}", description))
    for cdu_id in sorted(site.cdus):
        out.append(Scenario("cdu", cdu_id, Message("%(cdu)s out of service", cdu=cdu_id)))
        if site.cdus[cdu_id].figures.pumps is not None:
            out.append(
                Scenario("cdu_pump", cdu_id, Message("one pump of %(cdu)s lost", cdu=cdu_id))
            )
    for water in sorted(site.facility_water):
        out.append(
            Scenario("facility_water", water, Message("facility water %(water)s lost", water=water))
        )
    for unit in sorted(site.air_units):
        out.append(Scenario("air_unit", unit, Message("air unit %(unit)s lost", unit=unit)))
    for entry in sorted(site.heat_rejection):
        out.append(
            Scenario("heat_rejection", entry, Message("one unit of %(entry)s lost", entry=entry))
        )
    return out


def _air_unit_seeds(unit: Any) -> list[Seed]:
    """What an air unit out of service changes: its room's units, and the heat on the
    facility water its coil rejects into."""
    seeds: list[Seed] = []
    if unit.room is not None:
        seeds.append(("room", unit.room, "air_units"))
    if unit.facility_water is not None:
        seeds.append(("facility_water", unit.facility_water, "air_units"))
    return seeds


def _merged(found: Affected, more: Affected) -> Affected:
    """``found`` and ``more`` together, each scope's entities once, by id."""
    merged = {scope: list(items) for scope, items in found.items()}
    for scope, items in more.items():
        known_ids = {i for i, _ in merged.get(scope, [])}
        merged.setdefault(scope, []).extend(x for x in items if x[0] not in known_ids)
        merged[scope].sort(key=lambda item: item[0])
    return merged


class _Failer:
    """Builds the failed overlay of a site and the entities a failure affects, from the
    site's relations (:mod:`facility.model.topology`)."""

    def __init__(self, site: Site):
        self.site = site
        self.topology = site.topology
        self.seeds: list[Seed] = []  # what the last scenario applied changes
        self.rack_alike: dict[str, tuple[Any, tuple[str, ...]]] = {}  # for _rack_key
        # Built once (a scenario looks up its element instead of scanning the site):
        # each element → itself and every element it feeds, as (scope, id), in chain order.
        below: dict[str, list[tuple[str, str]]] = {}
        for e, chain in self.topology.chain.items():
            entry = ("distribution" if e in site.distribution else "power_source", e)
            for above in dict.fromkeys(a.id for a in chain):
                below.setdefault(above, []).append(entry)
        self._below = {element: tuple(found) for element, found in below.items()}
        # each facility water → the air units whose coils it cools, by id
        self._units_on_water: dict[str, list[str]] = {}
        for unit in sorted(site.air_units):
            water = site.air_units[unit].facility_water
            if water is not None:
                self._units_on_water.setdefault(water, []).append(unit)
        # an air unit entry's id → its units: the unit of that id, and <id>-1 … <id>-n
        self._units_of_entry: dict[str, list[str]] = {}
        for unit in site.air_units:
            self._units_of_entry.setdefault(unit, []).append(unit)
            prefix, dash, number = unit.rpartition("-")
            if dash and re.fullmatch(r"\d+", number):
                self._units_of_entry.setdefault(prefix, []).append(unit)
        # (kind, entity served) → the loads of that kind serving it
        self._serving: dict[str, dict[str, list[str]]] = {}
        for load in site.loads.values():
            if load.serves is not None:
                by_entity = self._serving.setdefault(load.kind, {})
                by_entity.setdefault(load.serves, []).append(load.id)

    def affected(
        self, site: Site, seeds: list[Seed], *, exclude: Iterable[tuple[str, str]] = ()
    ) -> Affected:
        """:func:`facility.engine.reads.affected`, the seeds kept for the scenario's
        :func:`facility.engine.reads.changed_quantities`."""
        self.seeds += seeds
        return affected(site, seeds, exclude=exclude)

    def without_pdus(
        self,
        lost: Iterable[Pdu],
        feeds: tuple[Feed, ...] = (),
        out: tuple[tuple[str, str], ...] = (),
    ) -> tuple[Site, Affected]:
        """The racks lose ``lost`` and the non-IT loads the ``feeds``: each rack's PDUs in
        service change, and so does what every element above a lost PDU or above any feed of
        a load that lost one feeds; the rest follows from what the quantities read."""
        lost = tuple(lost)
        feeds_lost = frozenset((load.id, side) for load, side in feeds)
        failed, changed = overlay.without_pdus(self.site, lost, feeds_lost)
        site = self.site
        seeds: list[Seed] = [("rack", rack_id, "pdus") for rack_id in changed]
        above = self.topology.elements_above(lost)
        above |= self.topology.elements_above_feeds({load.id: load for load, _ in feeds}.values())
        for element in sorted(above):
            kind = "distribution" if element in site.distribution else "power_source"
            seeds.append((kind, element, "below"))
        exclude = [("pdu", p.id) for p in lost] + list(out)
        return failed, self.affected(failed, seeds, exclude=exclude)

    def stopped_with_their_power(
        self, failed: Site, found: Affected, feeds: tuple[Feed, ...]
    ) -> tuple[Site, Affected]:
        """What stops when the loads that power it lose every feed: a CDU whose pump loads
        (kind cdu, ``serves`` it) and the air units whose fan loads (kind air_unit) are all
        without power are out of service too (their pumps or fans stop)."""
        dead = {load.id for load, _side in feeds if not failed.topology.feeds_in_service(load)}
        if not dead:
            return failed, found
        cdus = self._stopped(dead, "cdu")
        units = self._stopped(dead, "air_unit")
        seeds: list[Seed] = []
        if cdus:
            failed = overlay.without_cdus(failed, cdus)
            for cdu_id in sorted(cdus):
                cdu = self.site.cdus[cdu_id]
                if cdu.loop is not None:
                    seeds.append(("tcs_loop", cdu.loop, "cdus"))
                if cdu.spec.facility_water is not None:
                    seeds.append(("facility_water", cdu.spec.facility_water, "cdus"))
        for unit in sorted(units):
            seeds += _air_unit_seeds(failed.air_units[unit])
            failed = overlay.without_air_unit(failed, unit)
        out = [("cdu", c) for c in cdus]
        merged = _merged(found, self.affected(failed, seeds, exclude=out))
        # A stopped CDU's own checks are not judged again: it is out of service.
        if "cdu" in merged:
            merged["cdu"] = [c for c in merged["cdu"] if c[0] not in cdus]
        return failed, merged

    def _stopped(self, dead: set[str], kind: str) -> set[str]:
        """The CDUs or air units (``kind``) whose every load of that kind serving them is in
        ``dead`` (an air unit entry of several units: each of its units)."""
        stopped: set[str] = set()
        for served, loads in self._serving.get(kind, {}).items():
            if all(load in dead for load in loads):
                if kind == "air_unit":
                    stopped.update(self._units_of_entry.get(served, ()))
                elif served in self.site.cdus:
                    stopped.add(served)
        return stopped

    def without_cdus(self, lost: set[str]) -> tuple[Site, Affected]:
        """The CDUs ``lost`` out of service: their loops' CDUs change, and their facility
        water's."""
        failed = overlay.without_cdus(self.site, lost)
        seeds: list[Seed] = []
        for cdu_id in sorted(lost):
            cdu = self.site.cdus[cdu_id]
            if cdu.loop is not None:
                seeds.append(("tcs_loop", cdu.loop, "cdus"))
            if cdu.spec.facility_water is not None:
                seeds.append(("facility_water", cdu.spec.facility_water, "cdus"))
        return failed, self.affected(failed, seeds, exclude=[("cdu", c) for c in lost])

    def below(self, element: str) -> tuple[tuple[str, str], ...]:
        """(scope, id) of ``element`` and of every element it feeds, directly or through
        distribution."""
        return self._below.get(element, ())

    def lost_pdus(self, scenario: Scenario) -> tuple[Pdu, ...] | None:
        """The PDUs a power loss takes out of service (None: not a power loss)."""
        if scenario.kind in ("power_source", "distribution"):
            return self.topology.pdus_below.get(scenario.element, ())
        if scenario.kind == "rack_side":
            rack_id, side = scenario.element.rsplit(":", 1)
            return tuple(self.topology.rack_by_id[rack_id].pdus[side])
        return None

    def apply(self, scenario: Scenario) -> tuple[Site, Affected]:
        site, kind, element = self.site, scenario.kind, scenario.element
        self.seeds = []
        lost = self.lost_pdus(scenario)
        if lost is not None:
            # The racks, their surviving PDUs, and every element upstream of the racks' PDUs:
            # the survivors' busways and source now carry the whole rack (and the non-IT
            # loads fed from below a lost element: their other feeds carry them).
            if kind == "rack_side":
                return self.without_pdus(lost)
            # The lost element and every element below it are out of service (de-energised):
            # their own checks are not judged again.
            feeds = self.topology.loads_below.get(element, ())
            failed, found = self.without_pdus(lost, feeds, self.below(element))
            return self.stopped_with_their_power(failed, found, feeds)
        if kind == "cdu":
            return self.without_cdus({element})
        if kind == "facility_water":
            failed, found = self.without_cdus(set(self.topology.cdus_by_water.get(element, ())))
            # The air units whose coils it cools stop cooling too.
            units = self._units_on_water.get(element, [])
            if units:
                seeds: list[Seed] = []
                for unit in units:
                    seeds += _air_unit_seeds(site.air_units[unit])
                    failed = overlay.without_air_unit(failed, unit)
                found = _merged(found, self.affected(failed, seeds))
            # The lost loop itself is out of service: its own checks are not judged again.
            if "facility_water" in found:
                found["facility_water"] = [w for w in found["facility_water"] if w[0] != element]
            return failed, found
        if kind == "cdu_pump":
            return self.one_pump_lost(site.cdus[element])
        if kind == "air_unit":
            failed = overlay.without_air_unit(site, element)
            return failed, self.affected(failed, _air_unit_seeds(site.air_units[element]))
        if kind == "heat_rejection":
            return self.one_unit_lost(element)
        raise ValueError(f"unknown failure kind {kind}")

    def one_pump_lost(self, cdu: ResolvedCdu) -> tuple[Site, Affected]:
        pumps = cdu.figures.pumps
        assert pumps is not None
        running = pumps.installed - 1
        update: dict[str, Any] = {
            "pumps": Pumps.model_construct(installed=running, required=pumps.required)
        }
        if running < pumps.required and cdu.figures.rated_flow is not None:
            # Parallel pumps: flow in proportion to the pumps still running (an approximation).
            update["rated_flow"] = cdu.figures.rated_flow * running / pumps.required
        figures = cdu.figures.model_copy(update=update)
        failed_cdu = dataclasses.replace(cdu, figures=figures)
        site = overlay.with_cdu(self.site, failed_cdu)
        return site, self.affected(site, [("cdu", cdu.id, "figures")])

    def one_unit_lost(self, entry_id: str) -> tuple[Site, Affected]:
        """One unit of the heat rejection entry ``entry_id`` lost. The units the entry may have
        out (``redundant``) include it: one fewer installed and one fewer that may be out, so an
        N+1 plant judged with one unit out reads as before, and an N plant loses a unit."""
        entry = self.site.heat_rejection[entry_id]
        failed_entry = entry.model_copy(
            update={"count": entry.count - 1, "redundant": max(0, entry.redundant - 1)}
        )
        site = overlay.with_heat_rejection(self.site, failed_entry)
        return site, self.affected(
            site, [("facility_water", entry.facility_water, "heat_rejection")]
        )


def site_without(site: Site, scenario: Scenario) -> Site:
    """``site`` with the scenario's element out of service, as the analysis builds it (its
    load moved where it physically goes): what the fix search re-checks a fix on."""
    return _Failer(site).apply(scenario)[0]


def analyse_failures(
    site: Site,
    ruleset: RuleSet,
    baseline: AuditResult,
    touching: set[tuple[str, str]] | None = None,
    normal: Context | None = None,
) -> FailureReport:
    """Run every single-failure scenario of ``site`` against ``baseline`` (its normal audit).

    ``normal``: the context ``baseline`` was computed in (:func:`facility.engine.evaluate.audit_in_context`), whose
    values and sums the scenarios start from; None: a context of its own, filled as they go.
    ``touching`` (scope, id): only the scenarios whose loss affects one of these entities
    (headroom: those the added racks change; a loss that reaches none of them reads as in
    the site without the racks)."""
    normal_rules = [r for r in ruleset.rules if SINGLE_FAILURE_TAG not in r.spec.tags]
    failing_before = {f.id for f in baseline.findings if f.status in ("fail", "waived")}
    before = {f.id: f for f in baseline.findings}
    # A check the normal audit could not evaluate stays not evaluated after a loss: the loss
    # cannot supply the input it lacks (a sum over no CDU left is not a known "0 racks").
    unknown_before = {f.id: f for f in baseline.findings if f.status == "not_evaluated"}
    # So those of the elements (not racks and PDUs, whose findings are mapped within a class)
    # are given as the normal audit's, not judged again: the tally would keep those anyway.
    settled: dict[str, dict[str, Finding]] = {}
    for f in unknown_before.values():
        if f.entity_kind not in ("rack", "pdu"):
            settled.setdefault(f.rule, {})[f.entity_id] = f
    # The normal audit's context: a scenario's upstream sums are its sums with the changed
    # PDUs' shares moved, and the values the area modules share are computed once.
    if normal is not None and not (
        normal.site is site
        and normal.assumptions == ruleset.assumptions
        and normal.as_of == baseline.as_of
        and normal.baseline is None
    ):
        raise ValueError("the normal context is of another site, assumptions or date")
    base = normal or Context(site, ruleset.assumptions, as_of=baseline.as_of)
    failer = _Failer(site)
    report = FailureReport()
    classes: dict[Any, _Class] = {}  # identical racks losing the same side
    above_alike: dict[Any, list[Finding]] = {}  # what is above them, by the loss alike
    # A side lost alike an earlier one, wholly judged by what that one made (the elements
    # above, the rack's class): the failed site is not built again.
    sides_done: dict[Any, list[Finding]] = {}
    above_tallied: dict[Any, _Tally] = {}  # those findings against the normal audit's
    # An element above lost PDUs whose PDUs below changed exactly as in an earlier loss (a
    # busway's partner, when its row's busway is lost and when its source is): the findings
    # it had then, by (scope, id, state below it) (_PowerStates)
    by_state: dict[Any, list[Finding]] = {}
    # Only the losses ``touching`` something: what a side lost alike an earlier one reaches
    # beyond its rack and PDUs (the elements above), to skip it without building it.
    sides_reach: dict[Any, frozenset[tuple[str, str]]] = {}
    with paused_gc():
        for scenario in scenarios(site):
            lost = failer.lost_pdus(scenario)
            alike = None if lost is None else _side_alike(failer, scenario, lost)
            if touching is not None and alike is not None and alike in sides_reach:
                rack = failer.topology.rack_by_id[scenario.element.rsplit(":", 1)[0]]
                if not _side_touches(rack, sides_reach[alike], touching):
                    continue  # (it touches what an earlier side alike touched, for its rack)
            above = sides_done.get(alike) if alike is not None and touching is None else None
            if above is not None and alike is not None:
                rack = failer.topology.rack_by_id[scenario.element.rsplit(":", 1)[0]]
                tallied = above_tallied.get(alike)
                if tallied is None:
                    tallied = above_tallied[alike] = _Tally()
                    tallied.add(above, before, failing_before, unknown_before)
                mapped = _mapped(classes[alike[0]], rack, site, before)
                report.results.append(
                    _result(scenario, mapped, before, failing_before, unknown_before, tallied)
                )
                continue
            failed_site, touched = failer.apply(scenario)
            if touching is not None and alike is not None:
                reach = _side_reach(scenario, touched)
                if reach is not None:
                    sides_reach[alike] = reach
            if touching is not None and not any(
                (scope, i) in touching for scope, items in touched.items() for i, _ in items
            ):
                continue
            # What the loss cannot change is the normal audit's, not derived again.
            changed_q = changed_quantities(failer.seeds)
            if lost is not None:
                findings = _power_loss(
                    failer,
                    base,
                    lost,
                    failed_site,
                    touched,
                    ruleset,
                    normal_rules,
                    classes,
                    before,
                    changed_q,
                    alike,
                    above_alike,
                    sides_done,
                    by_state,
                    settled,
                )
            else:
                findings = evaluate_entities(
                    failed_site, ruleset, normal_rules, touched, base, changed_q, settled=settled
                )
            report.results.append(
                _result(scenario, findings, before, failing_before, unknown_before)
            )
    return report


def _side_reach(scenario: Scenario, touched: Affected) -> frozenset[tuple[str, str]] | None:
    """What a rack side's loss touched beyond its rack and its PDUs: the elements above
    them; None when it touched anything else (another rack, another scope)."""
    rack_id = scenario.element.rsplit(":", 1)[0]
    if set(touched) - {"rack", "pdu", "distribution", "power_source"}:
        return None
    if [i for i, _ in touched.get("rack", ())] != [rack_id]:
        return None
    if any(pdu.rack != rack_id for _, pdu in touched.get("pdu", ())):
        return None
    return frozenset(
        (scope, i) for scope in ("distribution", "power_source") for i, _ in touched.get(scope, ())
    )


def _side_touches(rack: Rack, reach: frozenset[tuple[str, str]], touching: set[Any]) -> bool:
    """A side of ``rack`` lost alike one that reached ``reach`` (beyond its rack and PDUs)
    touches one of ``touching``: its rack, one of its PDUs (any, lost or not) or one of those
    elements. Identical racks on the same circuits reach the same elements (_side_alike)."""
    if ("rack", rack.id) in touching or not reach.isdisjoint(touching):
        return True
    return any(("pdu", p.id) in touching for pdus in rack.pdus.values() for p in pdus)


def _result(
    scenario: Scenario,
    findings: list[Finding],
    before: dict[str, Finding],
    failing_before: set[str],
    unknown_before: dict[str, Finding],
    start: _Tally | None = None,
) -> ScenarioResult:
    """The scenario's outcome: its findings against the normal audit's (``before``), after
    those already tallied in ``start`` (a copy is taken)."""
    tally = _Tally() if start is None else start.copy()
    tally.add(findings, before, failing_before, unknown_before)
    return ScenarioResult(
        scenario, tally.changed, tally.new, tally.worst, tally.worst_u, tally.unchanged
    )


@dataclass(slots=True)
class _Tally:
    """A scenario's findings sorted against the normal audit's so far, in order: the part a
    side lost alike an earlier one shares (the elements above) is tallied once."""

    new: list[Finding] = field(default_factory=list)
    changed: list[Finding] = field(default_factory=list)
    unchanged: list[Finding] = field(default_factory=list)
    worst: Finding | None = None
    worst_u: float | None = None
    worst_id: str = ""

    def copy(self) -> _Tally:
        return _Tally(
            [*self.new],
            [*self.changed],
            [*self.unchanged],
            self.worst,
            self.worst_u,
            self.worst_id,
        )

    def add(
        self,
        findings: list[Finding],
        before: dict[str, Finding],
        failing_before: set[str],
        unknown_before: dict[str, Finding],
    ) -> None:
        worst, worst_u, worst_id = self.worst, self.worst_u, self.worst_id
        new, changed, unchanged = self.new, self.changed, self.unchanged
        for f in findings:
            fid = f.id  # a formatted string: made once per finding
            prior = before.get(fid)
            if prior is f:
                unchanged.append(f)  # the normal finding itself (a rack of a class)
                continue
            f = _still_unknown(fid, f, unknown_before)
            if f.status == "fail" and fid not in failing_before:
                new.append(f)
            if prior is not None and not _changed(f, prior):
                unchanged.append(prior)  # untouched by this failure (the floor under a rack)
                continue
            changed.append(f)
            u = utilisation(f)
            # The highest utilisation; of equals, the first by id (whatever the order the
            # checks were judged in).
            if u is not None and (
                worst_u is None or u > worst_u or (u == worst_u and fid < worst_id)
            ):
                worst, worst_u, worst_id = f, u, fid
        self.worst, self.worst_u, self.worst_id = worst, worst_u, worst_id


def _still_unknown(fid: str, after: Finding, unknown_before: dict[str, Finding]) -> Finding:
    """``after`` (of id ``fid``), unless its check was not evaluated before the loss: then
    that finding."""
    before = unknown_before.get(fid)
    if before is None or after.status == "not_evaluated":
        return after
    return before


def _changed(after: Finding, before: Finding | None) -> bool:
    """The loss moved the check: its status, or its observed or limit value."""
    if after is before:
        return False
    if before is None or before.status != after.status:
        return True
    a_obs, a_lim, b_obs, b_lim = after.observed, after.limit, before.observed, before.limit
    if a_obs is None or a_lim is None or b_obs is None or b_lim is None:
        return False
    return a_obs.value != b_obs.value or a_lim.value != b_lim.value


def _rack_key(
    rack: Rack, lost: frozenset[str], alike: dict[str, tuple[Any, tuple[str, ...]]]
) -> tuple[Any, ...]:
    """Racks that behave alike when they lose the PDUs ``lost``: same type, zone, room and
    loop, the same PDU circuits fed from the same elements, the same positions lost.
    ``alike``: by rack id, what does not depend on the loss and its PDUs in order, made once."""
    found = alike.get(rack.id)
    if found is None:
        sides = sorted(rack.pdus.items())
        layout = tuple(
            (s, tuple((id(p.figures), p.derating, p.fed_by) for p in pdus)) for s, pdus in sides
        )
        order = tuple(p.id for _, pdus in sides for p in pdus)
        found = alike[rack.id] = ((id(rack.type), rack.zone, rack.room, rack.loop, layout), order)
    same, order = found
    return (same, tuple(p in lost for p in order))


def _power_loss(
    failer: _Failer,
    base: Context,
    lost: tuple[Pdu, ...],
    failed_site: Site,
    touched: Affected,
    ruleset: RuleSet,
    rules: list[Any],
    classes: dict[Any, _Class],
    before: dict[str, Finding],
    changed: frozenset[tuple[str, str]],
    alike: Any,
    above_alike: dict[Any, list[Finding]],
    sides_done: dict[Any, list[Finding]],
    by_state: dict[Any, list[Finding]],
    settled: dict[str, dict[str, Finding]],
) -> list[Finding]:
    """A loss of PDUs (a rack side, a busway, a source): the elements above them judged for
    each scenario (their other loads differ), once per loss ``alike`` (a rack side: of
    identical racks on the same circuits, :func:`_side_alike`; None: judged anew); each rack
    that lost some, with its PDUs still in service, once per class of identical racks losing
    the same positions, mapped to the others (a UPS's loss is its racks' side losses at once)."""
    touched = dict(touched)
    racks, pdus = touched.pop("rack", []), touched.pop("pdu", [])
    above_key = None
    if alike is not None:
        above_key = (alike, tuple((scope, i) for scope, items in touched.items() for i, _ in items))
    judged = above_alike.get(above_key)
    if judged is None:
        judged = _judged_above(
            failed_site, ruleset, rules, touched, base, changed, by_state, settled
        )
        # (a check not evaluated may name the entity that lacks its input: not shared)
        if above_key is not None and all(f.status != "not_evaluated" for f in judged):
            above_alike[above_key] = judged
    found = list(judged)  # above them
    lost_ids = frozenset(p.id for p in lost)
    remaining: dict[str, list[tuple[str, Any]]] = {}
    for pdu_id, pdu in pdus:
        remaining.setdefault(pdu.rack, []).append((pdu_id, pdu))
    for rack_id, rack in racks:
        original = failer.topology.rack_by_id[rack_id]
        key = _rack_key(original, lost_ids, failer.rack_alike)
        if key not in classes:
            entities = {"rack": [(rack_id, rack)], "pdu": remaining.get(rack_id, [])}
            judged = evaluate_entities(failed_site, ruleset, rules, entities, base, changed)
            classes[key] = _Class(original, judged, _unmoved(judged, before))
        found += _mapped(classes[key], original, failer.site, before)
    # A rack side whose loss touched only its rack, its PDUs and the elements above, all
    # judged once for its kind: the next loss alike is these findings, mapped to its rack.
    if (
        above_key in above_alike
        and set(touched) <= {"distribution", "power_source"}
        and len(racks) == 1
        and _rack_key(failer.topology.rack_by_id[racks[0][0]], lost_ids, failer.rack_alike)
        == alike[0]
    ):
        sides_done[alike] = above_alike[above_key]
    return found


def _judged_above(
    failed_site: Site,
    ruleset: RuleSet,
    rules: list[Any],
    touched: Affected,
    base: Context,
    changed: frozenset[tuple[str, str]],
    by_state: dict[Any, list[Finding]],
    settled: dict[str, dict[str, Finding]],
) -> list[Finding]:
    """The rules on the elements above a power loss (and what else it touched), in the order
    :func:`evaluate_entities` gives them: an element an earlier loss left in the same state
    (:class:`_PowerStates`) has that loss's findings, the others are judged."""
    states = _PowerStates.of(failed_site, base)
    if states is None:
        return evaluate_entities(
            failed_site, ruleset, rules, touched, base, changed, settled=settled
        )
    known: dict[tuple[str, str], list[Finding]] = {}
    todo: dict[str, list[tuple[str, Any]]] = {}
    keys: dict[tuple[str, str], Any] = {}
    for scope, items in touched.items():
        for entity_id, entity in items:
            key = states.key(scope, entity_id)
            found = None if key is None else by_state.get(key)
            if found is None:
                todo.setdefault(scope, []).append((entity_id, entity))
                if key is not None:
                    keys[scope, entity_id] = key
            else:
                known[scope, entity_id] = found
    if not known:
        judged = evaluate_entities(
            failed_site, ruleset, rules, touched, base, changed, settled=settled
        )
        by_entity = _by_entity(judged)
        for where, key in keys.items():
            by_state[key] = by_entity.get(where, [])
        return judged
    fresh = _by_entity(
        evaluate_entities(failed_site, ruleset, rules, todo, base, changed, settled=settled)
    )
    for where, key in keys.items():
        by_state[key] = fresh.get(where, [])
    known.update(fresh)
    # evaluate_entities' order: by rule, then by entity as touched lists them
    of_rule = {
        where: {f.rule: f for f in findings} for where, findings in known.items() if findings
    }
    out = []
    for rule in rules:
        scope = rule.spec.scope
        for entity_id, _ in touched.get(scope, ()):
            finding = of_rule.get((scope, entity_id), {}).get(rule.code)
            if finding is not None:
                out.append(finding)
    return out


def _by_entity(findings: list[Finding]) -> dict[tuple[str, str], list[Finding]]:
    out: dict[tuple[str, str], list[Finding]] = {}
    for f in findings:
        out.setdefault((f.entity_kind, f.entity_id), []).append(f)
    return out


@dataclass(slots=True)
class _PowerStates:
    """What a loss of PDUs (and feeds) left below each power element: the racks with PDUs
    below it that lost PDUs, each with every PDU it lost and its sides lost, and the feeds out
    of the non-IT loads fed from below it.

    An element's values read its own figures, the PDUs in service below it and their racks'
    PDUs in service, and its loads' feeds in service (the quantities' ``reads``): the same
    element with the same state below it has the same values, so the same findings."""

    topology: Topology  # the failed site's
    moved: Moved  # what its loss changed on the power tree
    lost_by_rack: dict[str, tuple[str, ...]]
    feeds_out: frozenset[tuple[str, str]]

    @staticmethod
    def of(failed_site: Site, base: Context) -> _PowerStates | None:
        """None unless the failed site is the normal one with PDUs moved (and feeds lost)."""
        topology, normal = failed_site.topology, base.topology
        moved = topology.moved
        if (
            moved is None
            or base.baseline is not None
            or topology.pdus_below is not normal.pdus_below
            or normal.pdus_out_of_service
            or normal.load_feeds_out
            or topology.pdus_out_of_service != moved.lost
        ):
            return None
        lost_by_rack: dict[str, list[str]] = {}
        for pdu in moved.before:
            lost = lost_by_rack.setdefault(pdu.rack, [])
            if pdu.id in moved.lost:
                lost.append(pdu.id)
        return _PowerStates(
            topology,
            moved,
            {rack: tuple(ids) for rack, ids in lost_by_rack.items()},
            topology.load_feeds_out,
        )

    def key(self, scope: str, element_id: str) -> Any:
        """The element's state, when it is one another loss can leave it in: every PDU below
        it changed (a busway whose racks' other sides are on the busway lost, or on its
        source). None: not kept (a part changed, or not a power element)."""
        if scope not in ("distribution", "power_source"):
            return None
        topology = self.topology
        below = self.moved.below.get(element_id, ())
        if len(below) != len(topology.pdus_below.get(element_id, ())):
            return None
        # (the changed PDUs below it are those of these racks)
        racks = frozenset(
            (rack, self.lost_by_rack[rack], topology.rack_by_id[rack].sides_lost)
            for rack in {p.rack for p in below}
        )
        feeds: frozenset[tuple[str, str]] = frozenset()
        if self.feeds_out:  # the loads fed from below it that lost a feed (any of theirs)
            loads = {load.id for load, _ in topology.loads_below.get(element_id, ())}
            feeds = frozenset(out for out in self.feeds_out if out[0] in loads)
        return (scope, element_id, racks, feeds)


def _side_alike(
    failer: _Failer, scenario: Scenario, lost: tuple[Pdu, ...]
) -> tuple[Any, ...] | None:
    """What the elements above a rack side's PDUs see of its loss, or None for another loss.

    A side lost takes its PDUs' currents out of every element above them and puts the rack's
    whole load on its other side's PDUs. Identical racks (:func:`_rack_key`: the same type and
    PDU circuits fed from the same elements) losing the same side, their sides declared in the
    same order, change the same elements by the same amounts, and the elements' sums are
    exactly rounded (order-free): the elements read the same, whichever rack it is."""
    if scenario.kind != "rack_side":
        return None
    rack = failer.topology.rack_by_id[scenario.element.rsplit(":", 1)[0]]
    lost_ids = frozenset(p.id for p in lost)
    return (_rack_key(rack, lost_ids, failer.rack_alike), tuple(rack.pdus))


@dataclass(slots=True)
class _Class:
    """Identical racks losing the same positions: the first one's (``model``'s) findings, and
    for each the normal finding it left as it was (None: the loss moved it)."""

    model: Rack
    findings: list[Finding]
    unmoved: list[Finding | None]
    mapped: dict[str, list[Finding]] = field(default_factory=dict)  # by rack id, made once


def _unmoved(findings: list[Finding], before: dict[str, Finding]) -> list[Finding | None]:
    out: list[Finding | None] = []
    for f in findings:
        prior = before.get(f.id)
        out.append(prior if prior is not None and not _changed(f, prior) else None)
    return out


def _mapped(
    rack_class: _Class, rack: Rack, site: Site, before: dict[str, Finding]
) -> list[Finding]:
    """The class's findings as ``rack``'s (a rack of the class: its PDUs position by
    position). A check the loss left as it was on the model, and that read the same on both
    before the loss, is ``rack``'s own normal finding (no copy)."""
    model = rack_class.model
    if model is rack:
        return rack_class.findings
    # A rack loses the same positions in several scenarios (its side, the busway, the source)
    found = rack_class.mapped.get(rack.id)
    if found is None:
        found = rack_class.mapped[rack.id] = _mapped_anew(rack_class, rack, site, before)
    return found


def _mapped_anew(
    rack_class: _Class, rack: Rack, site: Site, before: dict[str, Finding]
) -> list[Finding]:
    model = rack_class.model
    ids = {model.id: rack.id}
    for s, pdus in model.pdus.items():
        for mine, theirs in zip(pdus, rack.pdus[s], strict=True):
            ids[mine.id] = theirs.id
    out = []
    for f, prior in zip(rack_class.findings, rack_class.unmoved, strict=True):
        entity = ids[f.entity_id]
        if prior is not None:
            own = before.get(f"{f.rule}:{f.entity_kind}:{entity}")
            if own is not None and not _changed(own, prior):
                out.append(own)
                continue
        out.append(f.for_entity(entity, site.where(f.entity_kind, entity)))
    return out


FAILURE_SCOPE = "single_failure"  # the scope of the rules that judge each scenario (RED-)

# The kind of entity whose definition in the site file locates a scenario's finding.
_ELEMENT_KIND = {
    "power_source": "power_source",
    "distribution": "distribution",
    "rack_side": "rack",
    "cdu": "cdu",
    "cdu_pump": "cdu",
    "facility_water": "facility_water",
    "air_unit": "air_unit",
    "heat_rejection": "heat_rejection",
}


def single_failure_findings(
    site: Site, ruleset: RuleSet, rules: list[Any], failures: FailureReport
) -> list[Finding]:
    """The ``single_failure`` rules on each scenario, located where its element is defined."""
    outcomes: dict[str, ScenarioResult] = {r.scenario.id: r for r in failures.results}
    findings = evaluate_entities(site, ruleset, rules, {FAILURE_SCOPE: list(outcomes.items())})
    for finding in findings:
        finding.location = _location(site, outcomes[finding.entity_id])
    return findings


def _location(site: Site, outcome: ScenarioResult) -> Location | None:
    scenario = outcome.scenario
    element = scenario.element
    if scenario.kind == "rack_side":
        element = element.rsplit(":", 1)[0]
    return site.where(_ELEMENT_KIND[scenario.kind], element)
