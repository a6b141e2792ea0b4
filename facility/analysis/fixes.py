"""The fix for each failing finding: the smallest change of one input that makes it pass.

For a failing finding the rule's *levers* are tried: an input on the limit side (one more PDU
per side, a higher breaker rating, one more CDU or air unit of the model already there, a floor
rated higher, more power shelves, a source rated higher in kVA or kW or with more modules, a
busway's next standard rating) or on the observed side (cap the rack type's peak power,
spread the mass over a larger area, a larger design coolant rise). Each lever is a list of
candidate values ordered from the smallest change to the largest (whole steps: a count, a
standard breaker or busway rating, 10 kVA, 10 kW, 0.1 kW, 0.1 kPa, 0.01 m², 0.1 K), so the
value proposed is already rounded the safe way. A single failure may need several changes:
a source or busway lost, each check failing after the loss made to pass by its own lever (the
surviving side rated higher); the only facility water loop lost, a second loop with CDUs on
it. Such a fix is one candidate with a change per input, and says each. The smallest candidate that passes is found by bisection (the rule's
physics is monotone in each lever), re-running only the rule on its entity, each run counted.

A candidate is then *verified*: the whole check (the audit, and the single-failure analysis
when the rule set judges single failures) runs on the changed site; the fix is offered only
when the finding passes there and no other finding is worse (a pass that becomes a failure or
not evaluated; an entity the change adds that fails). When the smallest passing candidate is
not verified, a second bisection over the larger ones finds the smallest that is. A rule with no lever, or whose levers
find nothing verified, gets none: its report shows "no computed fix: see remediation" and
the rule's ``remediation`` list.

Findings with the same rule and the same figures (64 identical rack PDUs) are searched once:
the levers act on what the site file states for all of them (the rack type, the row's PDUs,
the PDU type, the zone, the loop), and the verified run shows which of them the fix also
makes pass. The site is never changed: each candidate is a new site (``dataclasses.replace``)
whose relations are built anew.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from facility.analysis.failures import (
    FAILURE_SCOPE,
    SINGLE_FAILURE_TAG,
    Scenario,
    ScenarioResult,
    analyse_failures,
    single_failure_findings,
    site_without,
)
from facility.engine.evaluate import audit_in_context, evaluate_entities
from facility.engine.findings import AuditResult, Finding
from facility.engine.quantities import scopes
from facility.engine.rules import Rule, RuleSet
from facility.messages import Join, Message
from facility.model.cluster import (
    MONITORING_METRICS,
    CardMetric,
    CardMonitoring,
    Evidence,
    LinkMetric,
    LinkMonitoring,
    SchedulerMetric,
    SchedulerMonitoring,
    TrainingMetric,
    TrainingMonitoring,
)
from facility.model.power import PowerSource
from facility.model.site import Pdu, Rack, Site

# Breaker ratings of rack PDUs as sold (A): a higher rating is the next of these.
STANDARD_RATINGS = (16.0, 20.0, 24.0, 30.0, 32.0, 40.0, 50.0, 60.0, 63.0, 80.0, 100.0, 125.0)
# Current ratings of busways, panels and RPPs (A): a higher rating is the next of these. The
# union of two series, so the step proposed is the smallest standard one: the IEC preferred
# ratings (IEC 60059, R10 series) that IEC 60947-2 breaker frames and IEC 61439-6 busbar
# trunking are built in (16, 20, 25, 32, 40, 50, 63, 80, 100, 125, 160, … 6,300 A), and the
# standard ampere ratings of fuses and inverse-time breakers of NEC (NFPA 70-2023) 240.6(A),
# which UL 489 breakers follow (15, 20, 25, 30, 35, … 6,000 A).
DISTRIBUTION_RATINGS = (
    15.0, 16.0, 20.0, 25.0, 30.0, 32.0, 35.0, 40.0, 45.0, 50.0, 60.0, 63.0, 70.0, 80.0, 90.0,
    100.0, 110.0, 125.0, 150.0, 160.0, 175.0, 200.0, 225.0, 250.0, 300.0, 315.0, 350.0, 400.0,
    450.0, 500.0, 600.0, 630.0, 700.0, 800.0, 1000.0, 1200.0, 1250.0, 1600.0, 2000.0, 2500.0,
    3000.0, 3200.0, 4000.0, 5000.0, 6000.0, 6300.0,
)  # fmt: skip
SOURCE_STEP = 10_000.0  # a source's kVA or kW rating in whole 10 kVA / 10 kW steps
MORE_COUNT = 8  # at most this many more PDUs per side, CDUs, air units, shelves or modules
# Scopes whose findings only the whole check judges: the single failures (the analysis makes
# their entities) and the commissioning items (their age needs the report date).
_WHOLE_CHECK = (FAILURE_SCOPE, "commissioning_item")
_STATUS_RANK = {"pass": 0, "waived": 0, "not_evaluated": 1, "fail": 2}


@dataclass(frozen=True, slots=True)
class Change:
    """One input of the site file changed: ``field`` of the ``kind`` entry ``id``."""

    kind: str  # rack_type, row, rack, pdu_type, floor_zone, tcs_loop, room
    id: str
    field: str  # the site file's field: peak_power, pdus_per_side, breaker_rating, …
    quantity: str  # the quantity kind of before/after (count, power, current, pressure, …)
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class Fix:
    """A verified change that makes a failing finding pass."""

    lever: str  # more_pdus, pdu_rating, cap_power, more_shelves, floor_rating, spread, …
    changes: tuple[Change, ...]
    after: Finding  # the finding re-run on the changed site: passes; its observed and limit
    # carry the working (n · √3 · V_LL · I · DF, with n = 5 … → 181.1 kVA ≥ 163.2 kVA)
    params: dict[str, str] = field(default_factory=dict)  # ids the sentence names
    # A fix of several changes (a second facility water loop and the CDUs on it; each
    # surviving element rated higher): one part per change, each with its own lever and ids.
    parts: tuple[Fix, ...] = ()

    def text(self, fmt: Callable[[float, str], str]) -> Message:
        """The fix as a sentence, its figures formatted by ``fmt(value, kind)``: the report's
        formatter, in its language and units (facility.report.fixes_view.fix_figure); a fix of
        several changes says each, joined by '; '."""
        if self.parts:
            return Join([fix_text(part, fmt) for part in self.parts])
        return fix_text(self, fmt)


@dataclass(slots=True)
class FindingFixes:
    """The fixes of one failing finding; none: see the rule's remediation list."""

    finding: str  # the finding's id
    rule: str
    fixes: list[Fix] = field(default_factory=list)

    @property
    def note(self) -> Message | None:
        return None if self.fixes else Message("no computed fix: see remediation")


@dataclass(slots=True)
class Counts:
    """Work done, for the tests' bounds: rule re-runs in the search, whole checks run."""

    groups: int = 0
    rule_runs: int = 0
    checks: int = 0


@dataclass(frozen=True, slots=True)
class _Lever:
    name: str
    change: Change  # with after = the candidate's value (filled per candidate)
    candidates: tuple[float, ...]  # smallest change first
    apply: Callable[[Site, float], Site]
    params: dict[str, str]
    # The other changes of a fix of several (one candidate: the changes are already sized),
    # and the fix's lever then (the parts keep their own).
    parts: tuple[Fix, ...] = ()
    fix_name: str = ""


@dataclass(slots=True)
class _Search:
    """What the levers of a single failure read: the rule set, the report date, the counts,
    the whole check of the site and its failure scenarios (by scenario id)."""

    ruleset: RuleSet
    as_of: Any
    counts: Counts
    base: dict[str, Finding] = field(default_factory=dict)
    outcomes: dict[str, ScenarioResult] = field(default_factory=dict)


def fixes(
    site: Site,
    ruleset: RuleSet,
    result: AuditResult,
    *,
    as_of: Any = None,
    counts: Counts | None = None,
) -> dict[str, FindingFixes]:
    """The fixes of every failing finding of ``result`` (``site`` checked under ``ruleset``),
    by finding id. ``as_of`` is the report date (:func:`facility.check.run_check`'s)."""
    counts = counts if counts is not None else Counts()
    if not any(f.status == "fail" for f in result.findings):
        return {}  # nothing to fix: no check run
    search = _Search(ruleset, as_of, counts)
    base = search.base = _judge(site, ruleset, as_of, counts, search.outcomes)
    failing = [f for f in result.findings if f.status == "fail" and f.id in base]
    # A single failure (RED-001) fails because a check fails after a loss: the fixes of the
    # checks themselves come first, and one that makes it pass too is its fix as well.
    failing.sort(key=lambda f: f.entity_kind == FAILURE_SCOPE)
    out = {f.id: FindingFixes(f.id, f.rule) for f in failing}
    verified: list[tuple[Fix, dict[str, Finding]]] = []
    done: set[str] = set()
    for finding in failing:
        if finding.id in done:
            continue
        done.add(finding.id)
        rule = ruleset.by_code(finding.rule)
        if rule is None:
            continue
        counts.groups += 1
        same = [
            f.id
            for f in failing
            if f.id not in done
            and f.rule == finding.rule
            and _figures(f) == _figures(finding)
            and not _rates_survivors(f)  # each loss has survivors of its own
        ]
        found = []
        if finding.entity_kind == FAILURE_SCOPE:
            found = [
                (fix, judged)
                for fix, judged in verified
                if _passes_in(judged, finding.id) and _no_worse(base, judged, finding.id)
            ]
        if not found or _rates_survivors(finding):
            for lever in _levers(site, finding, rule, search):
                searched = _search(site, ruleset, rule, finding, lever, as_of, counts, base)
                if searched is not None and _no_worse(base, searched[1], finding.id):
                    found.append(searched)
                    verified.append(searched)
        # Fewest changes first: a fix of several is offered only when no fix of some of its
        # changes is (the PDUs and a UPS rated higher, where the PDUs alone do).
        for fix, judged in sorted(found, key=lambda found: len(found[0].changes)):
            for fid in (finding.id, *same):  # the same change, judged on the same run
                if _passes_in(judged, fid) and all(
                    not set(f.changes) <= set(fix.changes) for f in out[fid].fixes
                ):
                    out[fid].fixes.append(dataclasses.replace(fix, after=judged[fid]))
        done.update(f for f in same if out[f].fixes)
    return out


def _verified(base: dict[str, Finding], judged: dict[str, Finding], fid: str) -> bool:
    """The whole check ``judged`` passes finding ``fid`` and makes no other worse."""
    return _passes_in(judged, fid) and _no_worse(base, judged, fid)


def _rates_survivors(f: Finding) -> bool:
    """The loss of a source or distribution element: its own lever (the surviving elements
    rated higher) is searched even when a fix of another check already makes it pass."""
    return f.entity_kind == FAILURE_SCOPE and f.entity_id.startswith(
        ("power_source:", "distribution:")
    )


def _passes_in(judged: dict[str, Finding], fid: str) -> bool:
    after = judged.get(fid)
    return after is not None and after.status == "pass"


def _figures(f: Finding) -> tuple[Any, ...]:
    """What identical findings share: their figures, and a single failure's kind of loss."""
    lost = f.entity_id.partition(":")[0] if f.entity_kind == FAILURE_SCOPE else ""
    return (
        f.observed.value if f.observed else None,
        f.limit.value if f.limit else None,
        f.entity_kind,
        lost,
    )


def _judge(
    site: Site,
    ruleset: RuleSet,
    as_of: Any,
    counts: Counts,
    outcomes: dict[str, ScenarioResult] | None = None,
) -> dict[str, Finding]:
    """Every finding of the whole check of ``site``, as run_check makes them (no waivers);
    ``outcomes``, when given, receives its failure scenarios by id."""
    counts.checks += 1
    result, normal = audit_in_context(site, ruleset, as_of=as_of)
    judging = [r for r in ruleset.rules if r.spec.scope == FAILURE_SCOPE]
    if judging:
        failures = analyse_failures(site, ruleset, result, normal=normal)
        result.findings += single_failure_findings(site, ruleset, judging, failures)
        if outcomes is not None:
            outcomes.update((r.id, r) for r in failures.results)
    return {f.id: f for f in result.findings}


def _no_worse(base: dict[str, Finding], judged: dict[str, Finding], target: str) -> bool:
    """No finding but ``target`` is worse on the changed site; none it adds fails."""
    for fid, after in judged.items():
        before = base.get(fid)
        if before is None:
            if after.status == "fail":
                return False
        elif fid != target and _STATUS_RANK[after.status] > _STATUS_RANK[before.status]:
            return False
    return True


def _rerun(
    site: Site, ruleset: RuleSet, rule: Rule, finding: Finding, as_of: Any, counts: Counts
) -> Finding | None:
    """The finding's rule on its entity of ``site`` (the whole check for a single failure)."""
    if rule.spec.scope in _WHOLE_CHECK:
        return _judge(site, ruleset, as_of, counts).get(finding.id)
    counts.rule_runs += 1
    scope = rule.spec.scope
    entity = next((e for i, e in scopes()[scope].entities(site) if i == finding.entity_id), None)
    if entity is None:
        return None
    found = evaluate_entities(
        site, ruleset, [rule], {scope: [(finding.entity_id, entity)]}, as_of=as_of
    )
    return found[0] if found else None


def _search(
    site: Site,
    ruleset: RuleSet,
    rule: Rule,
    finding: Finding,
    lever: _Lever,
    as_of: Any,
    counts: Counts,
    base: dict[str, Finding],
) -> tuple[Fix, dict[str, Finding]] | None:
    """The smallest candidate of ``lever`` that makes ``finding`` pass, verified by the whole
    check; None when the largest does not, or the whole check does not confirm it.

    When the smallest that passes makes another check worse (a UPS rated just enough for
    its load in normal operation, which a rack's side loss then overloads: a check failing
    before could not fail anew), the smallest of the larger candidates the whole check
    verifies is found by a second bisection (more of a lever never makes a check worse that
    the smaller passed), its whole checks counted; None when the largest is not verified."""

    def passes(i: int) -> bool:
        after = _rerun(
            lever.apply(site, lever.candidates[i]), ruleset, rule, finding, as_of, counts
        )
        return after is not None and after.status == "pass"

    if len(lever.candidates) == 1 and rule.spec.scope in _WHOLE_CHECK:
        high: int | None = 0  # one candidate, judged by the whole check: judged once, below
    else:
        high = _smallest(len(lever.candidates), passes)
    if high is None:
        return None
    value = lever.candidates[high]
    judged = _judge(lever.apply(site, value), ruleset, as_of, counts)
    if not _verified(base, judged, finding.id):
        larger = lever.candidates[high + 1 :]
        runs: dict[int, dict[str, Finding]] = {}

        def verified(i: int) -> bool:
            runs[i] = _judge(lever.apply(site, larger[i]), ruleset, as_of, counts)
            return _verified(base, runs[i], finding.id)

        more = _smallest(len(larger), verified)
        if more is None:
            return None
        value, judged = larger[more], runs[more]
    after = judged[finding.id]
    change = dataclasses.replace(lever.change, after=value)
    if not lever.parts:
        return Fix(lever.name, (change,), after, lever.params), judged
    first = Fix(lever.name, (change,), after, lever.params)
    parts = (first, *(dataclasses.replace(p, after=after) for p in lever.parts))
    name = lever.fix_name or lever.name
    changes = tuple(c for p in parts for c in p.changes)
    return Fix(name, changes, after, lever.params, parts), judged


def _smallest(n: int, passes: Callable[[int], bool]) -> int | None:
    """The index of the first of ``n`` candidates that ``passes`` (monotone: once a candidate
    passes, every later one does), by bisection; None when the last does not."""
    if not n or not passes(n - 1):
        return None
    low, high = -1, n - 1  # candidates[high] passes, candidates[low] not
    while high - low > 1:
        mid = (low + high) // 2
        if passes(mid):
            high = mid
        else:
            low = mid
    return high


# --- levers: what each rule's fix may change ----------------------------------------------


def _levers(site: Site, finding: Finding, rule: Rule, search: _Search) -> list[_Lever]:
    code, kind, eid, as_of = finding.rule, finding.entity_kind, finding.entity_id, search.as_of
    rack = _rack_of(site, kind, eid)
    out: list[_Lever | None] = []
    if code == "PWR-001" and rack is not None:
        out += [_more_pdus(site, rack), *_pdu_ratings(site, rack), _cap_power(site, rack)]
    elif code in ("PWR-002", "PWR-003") and rack is not None:
        pdu = site.pdus.get(eid)
        out += [_more_pdus(site, rack), *_pdu_ratings(site, rack, pdu), _cap_power(site, rack)]
    elif code == "PWR-021" and rack is not None:
        out += [_more_shelves(site, rack), _cap_power(site, rack)]
    elif code == "FLR-001" and rack is not None:
        out += [_zone_rating(site, rack.zone, "uniform_load_rating", 100.0), _spread(site, rack)]
    elif code == "FLR-002" and rack is not None:
        out += [_zone_rating(site, rack.zone, "concentrated_load_rating", 10.0)]
    elif code == "FLR-006" and rack is not None:
        out += [_zone_rating(site, rack.zone, "rolling_load_rating", 10.0)]
    elif code == "FLR-003":
        out += [_zone_rating(site, eid, "uniform_load_rating", 100.0)]
    elif code in ("LIQ-001", "LIQ-002", "LIQ-014"):
        out += [_more_cdus(site, eid)]
    elif code in ("LIQ-003", "LIQ-004"):
        out += [_more_cdus(site, eid), _design_rise(site, eid)]
    elif code in ("AIR-001", "AIR-002"):
        out += [_more_air_units(site, eid)]
    elif code in ("LIQ-020", "LIQ-021"):
        out += [_buffer(site, eid)]
    elif code == "LIQ-019":
        out += [_pumps_on_ups(site, eid)]
    elif code == "LIQ-029":
        out += [_automatic_balancing(site, eid)]
    elif code in ("CLU-003", "CLU-004"):
        out += [_target_duration(site)]
    elif code in ("CLU-013", "CLU-014"):
        out += [_record(site, eid, rule, as_of)]
    elif code == "CLU-022":
        out += [_declare_metrics(site, eid)]
    elif code in _SOURCE_RULES and eid in site.sources:
        out += _source_levers(site, code, eid)
    elif code in ("PWR-005", "PWR-006") and eid in site.distribution:
        out += [_distribution_rating(site, eid)]
    elif code == "RED-001":
        lost, _, element = eid.partition(":")
        if lost == "rack_side" and rack is not None:
            out += [_more_pdus(site, rack), *_pdu_ratings(site, rack), _cap_power(site, rack)]
        elif lost in ("cdu", "cdu_pump") and element in site.cdus:
            out += [_more_cdus(site, site.cdus[element].loop)]
        elif lost == "air_unit" and element in site.air_units:
            out += [_more_air_units(site, site.air_units[element].room)]
        elif lost in ("power_source", "distribution"):
            out += [_after_power_loss(site, eid, element, search)]
        elif lost == "facility_water" and element in site.facility_water:
            out += [_second_water(site, finding.id, element, search)]
    return [lever for lever in out if lever is not None]


def _rack_of(site: Site, kind: str, eid: str) -> Rack | None:
    by_id = site.topology.rack_by_id
    if kind == "rack":
        return by_id.get(eid)
    if kind == "pdu" and eid in site.pdus:
        return by_id.get(site.pdus[eid].rack)
    if kind == "single_failure" and eid.startswith("rack_side:"):
        return by_id.get(eid.split(":")[1])
    return None


def _steps(current: float, step: float, stop: float) -> tuple[float, ...]:
    """current ± whole steps toward ``stop``, each rounded to the step's grid."""
    up = stop > current
    start = (math.floor if up else math.ceil)(round(current / step, 9))
    out = []
    k = start + (1 if up else -1)
    while (k * step <= stop) if up else (k * step >= stop):
        out.append(round(k * step, 9))
        k += 1 if up else -1
    return tuple(out)


def _racks_where(site: Site, rack: Rack) -> list[Rack]:
    """The racks the site file declares together with ``rack``: its row's, else itself."""
    if rack.row is None:
        return [rack]
    return [r for r in site.racks if r.row == rack.row]


def _more_pdus(site: Site, rack: Rack) -> _Lever | None:
    if not rack.pdus:
        return None
    n = min(len(pdus) for pdus in rack.pdus.values())
    members = {r.id for r in _racks_where(site, rack)}

    def apply(s: Site, count: float) -> Site:
        changed = {}
        for r in s.racks:
            if r.id not in members:
                continue
            sides = {}
            for side, pdus in r.pdus.items():
                total = max(int(count), len(pdus))
                added = [
                    dataclasses.replace(pdus[-1], id=f"{r.id}-{side}{i}")
                    for i in range(len(pdus) + 1, total + 1)
                ]
                sides[side] = [
                    dataclasses.replace(p, position_on_side=i, pdus_on_side=total)
                    for i, p in enumerate([*pdus, *added])
                ]
            changed[r.id] = dataclasses.replace(r, pdus=sides)
        return _with_racks(s, changed)

    owner = ("row", rack.row) if rack.row is not None else ("rack", rack.id)
    change = Change(*owner, "pdus_per_side", "count", float(n), float(n))
    candidates = tuple(float(n + k) for k in range(1, MORE_COUNT + 1))
    return _Lever("more_pdus", change, candidates, apply, {"where": owner[1], "of": owner[0]})


def _pdu_ratings(site: Site, rack: Rack, only: Pdu | None = None) -> list[_Lever | None]:
    types = {only.type_id: only} if only is not None else {}
    if only is None:
        for pdus in rack.pdus.values():
            for p in pdus:
                types.setdefault(p.type_id, p)
    out: list[_Lever | None] = []
    for type_id, pdu in sorted(types.items()):
        current = pdu.figures.breaker_rating
        if current is None:
            continue

        def apply(s: Site, rating: float, type_id: str = type_id) -> Site:
            changed = {}
            for r in s.racks:
                if any(p.type_id == type_id for ps in r.pdus.values() for p in ps):
                    sides = {
                        side: [
                            dataclasses.replace(
                                p, figures=p.figures.model_copy(update={"breaker_rating": rating})
                            )
                            if p.type_id == type_id
                            else p
                            for p in ps
                        ]
                        for side, ps in r.pdus.items()
                    }
                    changed[r.id] = dataclasses.replace(r, pdus=sides)
            return _with_racks(s, changed)

        change = Change("pdu_type", type_id, "breaker_rating", "current", current, current)
        candidates = tuple(a for a in STANDARD_RATINGS if a > current)
        out.append(_Lever("pdu_rating", change, candidates, apply, {"type": type_id}))
    return out


def _with_racks(site: Site, changed: dict[str, Rack]) -> Site:
    """``site`` with the racks ``changed`` (by id) and their PDUs; relations built anew."""
    racks = [changed.get(r.id, r) for r in site.racks]
    pdus = {p.id: p for r in racks for ps in r.pdus.values() for p in ps}
    locations = dict(site.locations)
    for pdu in pdus.values():
        locations.setdefault(("pdu", pdu.id), pdu.location)
    return dataclasses.replace(site, racks=racks, pdus=pdus, locations=locations)


def _with_type_figures(site: Site, type_id: str, update: Callable[[Any], dict[str, Any]]) -> Site:
    """``site`` with the figures of every rack of type ``type_id`` updated."""
    made: dict[int, Any] = {}
    changed = {}
    for r in site.racks:
        if r.type.id != type_id:
            continue
        new = made.get(id(r.type))
        if new is None:
            figures = r.type.figures
            new = made[id(r.type)] = dataclasses.replace(
                r.type, figures=figures.model_copy(update=update(figures))
            )
        changed[r.id] = dataclasses.replace(r, type=new)
    types = dict(site.rack_types)
    if type_id in types:
        old = types[type_id]
        types[type_id] = dataclasses.replace(
            old, figures=old.figures.model_copy(update=update(old.figures))
        )
    return dataclasses.replace(_with_racks(site, changed), rack_types=types)


def _cap_power(site: Site, rack: Rack) -> _Lever | None:
    peak = rack.type.figures.peak_power
    if peak is None or peak <= 0:
        return None

    def apply(s: Site, cap: float) -> Site:
        def update(f: Any) -> dict[str, Any]:
            nominal = f.nominal_power
            return {
                "peak_power": cap,
                "nominal_power": None if nominal is None else min(nominal, cap),
            }

        return _with_type_figures(s, rack.type.id, update)

    change = Change("rack_type", rack.type.id, "peak_power", "power", peak, peak)
    return _Lever("cap_power", change, _steps(peak, 100.0, 100.0), apply, {"type": rack.type.id})


def _more_shelves(site: Site, rack: Rack) -> _Lever | None:
    shelves = getattr(rack.type.figures, "power_shelves", None)
    if shelves is None:
        return None

    def apply(s: Site, n: float) -> Site:
        return _with_type_figures(s, rack.type.id, lambda f: {"power_shelves": int(n)})

    change = Change("rack_type", rack.type.id, "power_shelves", "count", shelves, shelves)
    candidates = tuple(float(shelves + k) for k in range(1, MORE_COUNT + 1))
    return _Lever("more_shelves", change, candidates, apply, {"type": rack.type.id})


def _spread(site: Site, rack: Rack) -> _Lever | None:
    fp = rack.type.figures.footprint
    if fp is None or not fp.width or not fp.depth:
        return None
    area = fp.width * fp.depth

    def apply(s: Site, a: float) -> Site:
        def update(f: Any) -> dict[str, Any]:
            return {"footprint": f.footprint.model_copy(update={"depth": a / f.footprint.width})}

        return _with_type_figures(s, rack.type.id, update)

    change = Change("rack_type", rack.type.id, "footprint_area", "area", area, area)
    return _Lever("spread", change, _steps(area, 0.01, 4 * area), apply, {"type": rack.type.id})


def _zone_rating(site: Site, zone_id: str | None, name: str, step: float) -> _Lever | None:
    zone = site.zones.get(zone_id or "")
    current = getattr(zone, name, None) if zone is not None else None
    if zone is None or current is None:
        return None

    def apply(s: Site, v: float) -> Site:
        zones = {**s.zones, zone.id: s.zones[zone.id].model_copy(update={name: v})}
        return dataclasses.replace(s, zones=zones)

    kind = "floor_load" if name == "uniform_load_rating" else "force"
    change = Change("floor_zone", zone.id, name, kind, current, current)
    return _Lever(
        "floor_rating", change, _steps(current, step, 4 * current), apply, {"zone": zone.id}
    )


def _next_id(taken: Sequence[str], model: str) -> Callable[[int], str]:
    """Ids for added copies of ``model``: its trailing number counted on (CDU-A2 → CDU-A3)."""
    stem = model.rstrip("0123456789")
    digits = model[len(stem) :]
    start = int(digits) if digits else 1
    used = set(taken)

    def name(k: int) -> str:
        n = start + k
        candidate = f"{stem}{n}" if digits else f"{model}-{n}"
        while candidate in used:
            n += 100
            candidate = f"{stem}{n}" if digits else f"{model}-{n}"
        return candidate

    return name


def _more_cdus(site: Site, loop_id: str | None) -> _Lever | None:
    loop = site.loops.get(loop_id or "")
    if loop is None or not loop.cdus:
        return None
    cdus = [site.cdus[c] for c in loop.cdus if c in site.cdus]
    if not cdus:
        return None
    model = max(cdus, key=lambda c: (c.figures.capacity or 0.0, c.id))
    ids = _next_id(list(site.cdus), max(c.id for c in cdus))

    def apply(s: Site, n: float) -> Site:
        added = {}
        for k in range(1, int(n) - len(loop.cdus) + 1):
            new_id = ids(k)
            added[new_id] = dataclasses.replace(
                model, id=new_id, spec=model.spec.model_copy(update={"id": new_id})
            )
        loops = {**s.loops, loop.id: loop.model_copy(update={"cdus": [*loop.cdus, *added]})}
        locations = {**s.locations, **{("cdu", c): model.location for c in added}}
        return dataclasses.replace(s, cdus={**s.cdus, **added}, loops=loops, locations=locations)

    n = len(loop.cdus)
    change = Change("tcs_loop", loop.id, "cdus", "count", float(n), float(n))
    candidates = tuple(float(n + k) for k in range(1, MORE_COUNT + 1))
    return _Lever("more_cdus", change, candidates, apply, {"loop": loop.id, "model": model.id})


def _design_rise(site: Site, loop_id: str) -> _Lever | None:
    racks = [r for r in site.racks if r.loop == loop_id and r.type.figures.design_coolant_rise]
    types = sorted({r.type.id for r in racks})
    if len(types) != 1:
        return None  # one rack type on the loop: one input to change
    rise = racks[0].type.figures.design_coolant_rise
    assert rise is not None

    def apply(s: Site, v: float) -> Site:
        return _with_type_figures(s, types[0], lambda f: {"design_coolant_rise": v})

    change = Change(
        "rack_type", types[0], "design_coolant_rise", "temperature_difference", rise, rise
    )
    candidates = _steps(rise, 0.1, 3 * rise)
    return _Lever("design_rise", change, candidates, apply, {"type": types[0]})


BUFFER_STEP = 0.1  # m³: a buffer tank proposed in tenths of a cubic metre
BUFFER_MORE = 100.0  # m³: at most this much more buffer is proposed


def _buffer(site: Site, loop_id: str) -> _Lever | None:
    """A buffer tank on the loop (or a larger one), in 0.1 m³ steps."""
    loop = site.loops.get(loop_id)
    if loop is None or loop.volume is None:
        return None
    current = loop.buffer_volume or 0.0

    def apply(s: Site, v: float) -> Site:
        loops = dict(s.loops)
        loops[loop_id] = loops[loop_id].model_copy(update={"buffer_volume": v})
        return dataclasses.replace(s, loops=loops)

    change = Change("tcs_loop", loop_id, "buffer_volume", "volume", current, current)
    candidates = _steps(current, BUFFER_STEP, current + BUFFER_MORE)
    return _Lever("buffer", change, candidates, apply, {"loop": loop_id})


def _automatic_balancing(site: Site, loop_id: str) -> _Lever | None:
    """Pressure-independent (automatic) balancing valves on every branch of the loop."""
    loop = site.loops.get(loop_id)
    if loop is None or loop.topology is None or loop.topology.balancing == "automatic":
        return None

    def apply(s: Site, _: float) -> Site:
        loops = dict(s.loops)
        old = loops[loop_id]
        topology = old.topology.model_copy(update={"balancing": "automatic"})  # type: ignore[union-attr]
        loops[loop_id] = old.model_copy(update={"topology": topology})
        return dataclasses.replace(s, loops=loops)

    change = Change("tcs_loop", loop_id, "topology.balancing", "count", 0.0, 0.0)
    return _Lever("automatic_balancing", change, (1.0,), apply, {"loop": loop_id})


def _pumps_on_ups(site: Site, cdu_id: str) -> _Lever | None:
    """The CDU's pump loads fed, on each side a UPS has, from the first panel (else
    switchboard, RPP, floor PDU, else the UPS itself) whose path ends at that UPS."""
    loads = [load for load in site.loads.values() if load.kind == "cdu" and load.serves == cdu_id]
    if not loads:
        return None
    chain = site.topology.chain
    feeds: dict[str, str] = {}
    for ups in sorted(u for u, src in site.sources.items() if src.kind == "ups"):
        side = site.sources[ups].side or ups
        if side in feeds:
            continue
        below = sorted(
            (d.id for d in site.distribution.values()
             if d.kind != "busway" and chain.get(d.id, ()) and chain[d.id][-1].id == ups),
            key=lambda i: (site.distribution[i].kind != "panel", i),
        )  # fmt: skip
        feeds[side] = below[0] if below else ups
    if not feeds:
        return None
    ids = {load.id for load in loads}
    before = sum(
        1
        for load in loads
        for element in load.fed_by.values()
        if chain.get(element, ()) and chain[element][-1].id in site.sources
        and site.sources[chain[element][-1].id].kind == "ups"
    )  # fmt: skip

    def apply(s: Site, _: float) -> Site:
        loads_ = {
            k: (v.model_copy(update={"fed_by": dict(feeds)}) if k in ids else v)
            for k, v in s.loads.items()
        }
        return dataclasses.replace(s, loads=loads_)

    change = Change("load", ",".join(sorted(ids)), "fed_by", "count", float(before), 0.0)
    params = {"cdu": cdu_id, "loads": ", ".join(sorted(ids)),
              "elements": ", ".join(feeds.values()),
              "feeds": ",".join(f"{side}={e}" for side, e in feeds.items())}  # fmt: skip
    return _Lever("pumps_on_ups", change, (float(len(feeds)),), apply, params)


def _more_air_units(site: Site, room: str | None) -> _Lever | None:
    units = [u for u in site.air_units.values() if u.room == room and room is not None]
    if not units:
        return None
    model = max(units, key=lambda u: (u.sensible_capacity or 0.0, u.id))
    ids = _next_id(list(site.air_units), max(u.id for u in units))

    def apply(s: Site, n: float) -> Site:
        added = {
            ids(k): model.model_copy(update={"id": ids(k)})
            for k in range(1, int(n) - len(units) + 1)
        }
        return dataclasses.replace(s, air_units={**s.air_units, **added})

    n = len(units)
    change = Change("room", str(room), "air_units", "count", float(n), float(n))
    candidates = tuple(float(n + k) for k in range(1, MORE_COUNT + 1))
    return _Lever(
        "more_air_units", change, candidates, apply, {"room": str(room), "model": model.id}
    )


# --- power sources and distribution -------------------------------------------------------

# What each source rule compares: the kVA rating (normal, after a side loss), the kW rating
# (the same two), or the modules with one out (kVA, kW).
_SOURCE_RULES = {
    "PWR-010": "kva",
    "PWR-007": "kva",
    "PWR-011": "kw",
    "PWR-012": "kw",
    "PWR-008": "module",
    "PWR-013": "module",
}


def _source_levers(site: Site, code: str, source_id: str) -> list[_Lever | None]:
    """The source rated higher through the one field of the site file the rule's limit
    follows (facility.engine.derive_power.source_capacity, source_real_capacity): the kVA
    rating; the kW rating when given (never above the kVA rating: kW = kVA · PF ≤ kVA); the
    kW rating of a source rated in kW only (its kVA is kW / PF); for a source given only
    kVA and a power factor, its kVA for the kW checks too (its kW rating is kVA · PF); one
    more module when the modules are its capacity, and for the checks with one module out."""
    source = site.sources[source_id]
    compares = _SOURCE_RULES[code]
    if compares == "module":
        return [_more_modules(source)]
    if compares == "kw" and source.real_power_capacity is not None:
        return [_source_rating(source, "real_power_capacity", "power", source.capacity)]
    if compares == "kva" and source.capacity is None and source.modules is None:
        return [_source_rating(source, "real_power_capacity", "power", None)]
    if source.capacity is not None:
        return [_source_rating(source, "capacity", "apparent_power", None, compares == "kw")]
    return [_more_modules(source)]


def _source_rating(
    source: PowerSource, name: str, kind: str, ceiling: float | None, follows: bool = False
) -> _Lever | None:
    current = getattr(source, name)
    if current is None or current <= 0:
        return None
    candidates = _steps(current, SOURCE_STEP, 4 * current)
    if ceiling is not None:  # the kW rating stays within the kVA rating (the loader's check)
        candidates = tuple(v for v in candidates if v <= ceiling * (1 + 1e-9))

    def apply(s: Site, v: float) -> Site:
        changed = s.sources[source.id].model_copy(update={name: v})
        return dataclasses.replace(s, sources={**s.sources, source.id: changed})

    params = {"source": source.id}
    if follows and source.power_factor is not None:  # the kW rating is kVA · PF
        params["power_factor"] = format(source.power_factor, "g")
    change = Change("power_source", source.id, name, kind, current, current)
    return _Lever("source_rating", change, candidates, apply, params)


def _more_modules(source: PowerSource) -> _Lever | None:
    modules = source.modules
    if modules is None:
        return None

    def apply(s: Site, n: float) -> Site:
        old = s.sources[source.id]
        assert old.modules is not None
        more = old.modules.model_copy(update={"installed": int(n)})
        changed = old.model_copy(update={"modules": more})
        return dataclasses.replace(s, sources={**s.sources, source.id: changed})

    n = float(modules.installed)
    change = Change("power_source", source.id, "modules.installed", "count", n, n)
    candidates = tuple(n + k for k in range(1, MORE_COUNT + 1))  # required stays as it is
    return _Lever("more_modules", change, candidates, apply, {"source": source.id})


def _distribution_rating(site: Site, element_id: str) -> _Lever:
    element = site.distribution[element_id]
    current = element.rating

    def apply(s: Site, rating: float) -> Site:
        changed = s.distribution[element_id].model_copy(update={"rating": rating})
        return dataclasses.replace(s, distribution={**s.distribution, element_id: changed})

    change = Change("distribution", element_id, "rating", "current", current, current)
    candidates = tuple(a for a in DISTRIBUTION_RATINGS if a > current * (1 + 1e-9))
    return _Lever("distribution_rating", change, candidates, apply, {"element": element_id})


def _after_power_loss(site: Site, fid: str, element: str, search: _Search) -> _Lever | None:
    """The loss of a source or a distribution element (scenario ``fid``): each error-severity
    check that fails anew after it (the surviving side's busway, source or rack PDUs, carrying
    whole racks) made to pass by its own levers, one check after the other, on the site with
    the element out of service; the changes together are one candidate. A change can turn a
    check failing before into one passing before and failing after the loss (a UPS rated for
    its kVA then passes its kW in normal operation): the whole check of the changed site says
    which, and they are made to pass in turn (at most ``_ROUNDS`` rounds)."""
    outcome = search.outcomes.get(fid)
    failing = [f for f in outcome.new_failures if f.severity == "error"] if outcome else []
    if not failing:
        return None
    chain: dict[tuple[str, str, str], tuple[_Lever, float]] = {}

    def lost(s: Site) -> Site:
        return _without(s, fid.partition(":")[0], element)

    def changed(s: Site) -> Site:
        for lever, value in chain.values():
            s = lever.apply(s, value)
        return s

    for _ in range(_ROUNDS):
        for f in sorted(failing, key=lambda f: f.id):
            if not _rated_for(site, f, lost, changed, chain, search):
                return None  # no lever of that check makes it pass after the loss
        outcomes: dict[str, ScenarioResult] = {}
        _judge(changed(site), search.ruleset, search.as_of, search.counts, outcomes)
        failing = [f for f in outcomes[fid].new_failures if f.severity == "error"]
        if not failing:
            break
    else:
        return None
    items = [(lever, dataclasses.replace(lever.change, after=v)) for lever, v in chain.values()]
    (first, change), rest = items[0], items[1:]
    parts = tuple(
        Fix(lever.name, (c,), search.base[f"RED-001:{FAILURE_SCOPE}:{fid}"], lever.params)
        for lever, c in rest
    )
    return _Lever(
        first.name,
        change,
        (change.after,),
        lambda s, _v: changed(s),
        first.params,
        parts,
        "after_loss" if parts else "",
    )


_ROUNDS = 3  # rounds of the checks a loss fails anew, each judged by a whole check


def _rated_for(
    site: Site,
    f: Finding,
    lost: Callable[[Site], Site],
    changed: Callable[[Site], Site],
    chain: dict[tuple[str, str, str], tuple[_Lever, float]],
    search: _Search,
) -> bool:
    """Add to ``chain`` the smallest change of one of ``f``'s levers that makes ``f`` pass on
    the changed site with the element lost (none when it passes already); False when none
    does. A field the chain already raised is not proposed lower."""
    rule = search.ruleset.by_code(f.rule)
    if rule is None:
        return False
    state = changed(site)
    if _passes_on(lost(state), search, rule, f):
        return True  # an earlier change made it pass (the 64 PDUs of one type)
    for lever in _levers(site, f, rule, search):
        c = lever.change
        key = (c.kind, c.id, c.field)
        floor = chain[key][1] if key in chain else -math.inf
        candidates = tuple(v for v in lever.candidates if v >= floor)

        def passes(i: int, lever: _Lever = lever, cs: tuple[float, ...] = candidates) -> bool:
            return _passes_on(lost(lever.apply(state, cs[i])), search, rule, f)

        i = _smallest(len(candidates), passes)
        if i is not None:
            chain[key] = (lever, candidates[i])
            return True
    return False


def _without(site: Site, kind: str, element: str) -> Site:
    """``site`` with ``element`` (a scenario of ``kind``) out of service, as the failure
    analysis makes it (its load moved where it goes: PDUs, non-IT feeds, CDUs)."""
    return site_without(site, Scenario(kind, element, ""))


def _passes_on(failed: Site, search: _Search, rule: Rule, f: Finding) -> bool:
    """``f``'s rule passes on its entity of ``failed`` (a failure overlay: its racks are the
    overlay's, with the PDUs they keep)."""
    search.counts.rule_runs += 1
    scope = rule.spec.scope
    if scope == "rack":
        entity = failed.topology.rack_by_id.get(f.entity_id)
    else:
        entity = next((e for i, e in scopes()[scope].entities(failed) if i == f.entity_id), None)
    if entity is None:
        return False
    found = evaluate_entities(
        failed, search.ruleset, [rule], {scope: [(f.entity_id, entity)]}, as_of=search.as_of
    )
    return bool(found) and found[0].status == "pass"


# --- a second facility water loop ---------------------------------------------------------


def _second_water(site: Site, fid: str, water_id: str, search: _Search) -> _Lever | None:
    """The loss of a facility water loop that TCS loops hang on entirely: a second loop with
    its figures (``_next_id``: FW-1 → FW-2) and, for each such TCS loop, m CDUs on it of the
    TCS loop's model, moved from the first loop while that keeps m (every second, largest
    first), else added; the first keeps at least m (added when it has fewer). m is the fewest
    (1 … MORE_COUNT) with which no check of the TCS loop is worse than in normal operation
    with either water loop lost: its CDUs' heat, flow and head (LIQ-001, LIQ-003, LIQ-009 …)."""
    water = site.facility_water[water_id]
    on_water = {c for c, cdu in site.cdus.items() if cdu.spec.facility_water == water_id}
    loops = [
        lid
        for lid, loop in sorted(site.loops.items())
        if loop.cdus and all(c in on_water for c in loop.cdus)
    ]
    if not loops:
        return None
    second = _next_id(list(site.facility_water), water_id)(1)
    models = {
        lid: max((site.cdus[c] for c in site.loops[lid].cdus), key=_cdu_size).id for lid in loops
    }

    def plan(ms: dict[str, int]) -> dict[str, tuple[list[str], list[str], list[str]]]:
        """Per TCS loop: the CDUs moved to the second loop, those added on the first, on it."""
        taken, out = list(site.cdus), {}
        for lid in loops:
            m, ids = ms[lid], site.loops[lid].cdus
            cdus = sorted(ids, key=lambda c: (-(site.cdus[c].figures.capacity or 0.0), c))
            n = len(cdus)
            moved = cdus[1::2][: max(0, min(m, n - m))]
            on_first = max(0, m - (n - len(moved)))
            name = _next_id(taken, max(ids))
            added = [name(k) for k in range(1, on_first + m - len(moved) + 1)]
            taken += added
            out[lid] = (moved, added[:on_first], added[on_first:])
        return out

    def apply(s: Site, ms: dict[str, int]) -> Site:
        cdus, tcs, locations = dict(s.cdus), dict(s.loops), dict(s.locations)
        waters = {**s.facility_water, second: water.model_copy(update={"id": second})}
        where = s.where("facility_water", water_id)
        if where is not None:
            locations[("facility_water", second)] = where
        for lid, (moved, first, new) in plan(ms).items():
            model = s.cdus[models[lid]]
            for c in moved:
                cdus[c] = _fed_from(cdus[c], c, second)
            for c, on in [*((c, water_id) for c in first), *((c, second) for c in new)]:
                cdus[c] = _fed_from(model, c, on)
                locations[("cdu", c)] = model.location
            tcs[lid] = tcs[lid].model_copy(update={"cdus": [*tcs[lid].cdus, *first, *new]})
        # the second loop like the first: its own heat rejection plant, like the first's
        plant = dict(s.heat_rejection)
        for entry in s.heat_rejection.values():
            if entry.facility_water == water_id:
                copy_id = f"{entry.id}-{second}"
                plant[copy_id] = entry.model_copy(update={"id": copy_id, "facility_water": second})
        return dataclasses.replace(
            s,
            facility_water=waters,
            cdus=cdus,
            loops=tcs,
            locations=locations,
            heat_rejection=plant,
        )

    rules = [
        r
        for r in search.ruleset.rules
        if r.spec.scope == "tcs_loop" and SINGLE_FAILURE_TAG not in r.spec.tags
    ]
    ms = dict.fromkeys(loops, 1)
    settled: set[str] = set()
    for m in range(1, MORE_COUNT + 1):
        ms.update((lid, m) for lid in loops if lid not in settled)
        changed = apply(site, ms)
        failed = [_without(changed, "facility_water", w) for w in (water_id, second)]
        for lid in loops:
            if lid not in settled and not any(_worse_on(f, search, rules, lid) for f in failed):
                settled.add(lid)
        if len(settled) == len(loops):
            break
    else:
        return None
    return _water_lever(
        site, fid, water_id, second, models, plan(ms), lambda s, _v: apply(s, ms), search
    )


def _cdu_size(cdu: Any) -> tuple[float, str]:
    return (cdu.figures.capacity or 0.0, cdu.id)


def _fed_from(cdu: Any, new_id: str, water: str) -> Any:
    """``cdu`` (or a copy of it named ``new_id``) supplied from facility water ``water``."""
    spec = cdu.spec.model_copy(update={"id": new_id, "facility_water": water})
    return dataclasses.replace(cdu, id=new_id, spec=spec)


def _worse_on(failed: Site, search: _Search, rules: list[Rule], loop_id: str) -> bool:
    """A check of TCS loop ``loop_id`` worse on ``failed`` than in the site's normal audit."""
    search.counts.rule_runs += 1
    found = evaluate_entities(
        failed,
        search.ruleset,
        rules,
        {"tcs_loop": [(loop_id, failed.loops[loop_id])]},
        as_of=search.as_of,
    )
    for f in found:
        before = search.base.get(f.id)
        was = _STATUS_RANK[before.status] if before is not None else 0
        if _STATUS_RANK[f.status] > was:
            return True
    return False


def _water_lever(
    site: Site,
    fid: str,
    water_id: str,
    second: str,
    models: dict[str, str],
    planned: dict[str, tuple[list[str], list[str], list[str]]],
    apply: Callable[[Site, float], Site],
    search: _Search,
) -> _Lever:
    """The second water loop as one candidate: its parts are the loop added, the CDUs moved
    to it, and the CDUs added to each TCS loop, on the first water loop and on it."""
    finding = search.base[fid]
    moved = [c for lid in sorted(planned) for c in planned[lid][0]]
    parts: list[Fix] = []
    if moved:
        change = Change("facility_water", second, "cdus", "count", 0.0, float(len(moved)))
        params = {"water": second, "was": water_id, "cdus": ", ".join(moved)}
        parts.append(Fix("move_cdus", (change,), finding, params))
    for lid, (_, first, new) in sorted(planned.items()):
        n = float(len(site.loops[lid].cdus))
        for added, on in ((first, water_id), (new, second)):
            if added:
                change = Change("tcs_loop", lid, "cdus", "count", n, n + len(added))
                params = {"loop": lid, "model": models[lid], "water": on}
                parts.append(Fix("more_cdus_on", (change,), finding, params))
                n += len(added)
    change = Change("facility_water", second, "added", "count", 0.0, 1.0)
    params = {"water": second, "like": water_id}
    return _Lever("second_water", change, (1.0,), apply, params, tuple(parts), "second_water")


def _target_duration(site: Site) -> _Lever | None:
    cluster = site.cluster
    workload = cluster.spec.workload if cluster is not None else None
    if cluster is None or workload is None or not workload.target_duration:
        return None
    current = workload.target_duration

    def apply(s: Site, t: float) -> Site:
        assert s.cluster is not None
        spec = s.cluster.spec
        assert spec.workload is not None
        changed = spec.model_copy(
            update={"workload": spec.workload.model_copy(update={"target_duration": t})}
        )
        return dataclasses.replace(s, cluster=dataclasses.replace(s.cluster, spec=changed))

    change = Change("workload", cluster.id, "target_duration", "time", current, current)
    candidates = _steps(current, 8_640.0, 10 * current)  # 0.1 d steps, up to 10 times
    return _Lever("target_duration", change, candidates, apply, {"cluster": cluster.id})


def _record(site: Site, item_id: str, rule: Rule, as_of: Any) -> _Lever | None:
    """A dated, referenced record of the commissioning item, recent enough on the report
    date: age ≤ max → date ≥ report date − ⌊max / 1 d⌋ (closed form, one candidate)."""
    cluster = site.cluster
    item = next((i for i in cluster.items if i.id == item_id), None) if cluster else None
    if item is None or not isinstance(as_of, dt.date):
        return None
    oldest = rule.parameters.get("max_evidence_age")
    needed = as_of
    if oldest is not None and item.evidence is not None and item.evidence.date is not None:
        needed = as_of - dt.timedelta(days=math.floor(oldest.value / 86_400))
    before = item.evidence.date if item.evidence is not None else None

    def apply(s: Site, day: float) -> Site:
        assert s.cluster is not None
        date = dt.date.fromordinal(int(day))
        items = []
        for i in s.cluster.items:
            if i.id == item_id:
                e = i.evidence or Evidence()
                reference = e.reference or "(the record's reference)"
                i = dataclasses.replace(
                    i, evidence=e.model_copy(update={"date": date, "reference": reference})
                )
            items.append(i)
        return dataclasses.replace(s, cluster=dataclasses.replace(s.cluster, items=items))

    was = float(before.toordinal()) if before is not None else 0.0
    change = Change("commissioning", item_id, "date", "date", was, was)
    params = {"item": item_id, "date": needed.isoformat()}
    name = "renew_record" if before is not None else "add_record"
    return _Lever(name, change, (float(needed.toordinal()),), apply, params)


_LAYER_RECORD = {"card": CardMonitoring, "link": LinkMonitoring,
                 "scheduler": SchedulerMonitoring, "training": TrainingMonitoring}  # fmt: skip
_LAYER_METRIC = {"card": CardMetric, "link": LinkMetric,
                 "scheduler": SchedulerMetric, "training": TrainingMetric}  # fmt: skip


def _declare_metrics(site: Site, layer_id: str) -> _Lever | None:
    """The monitoring layer's missing metrics declared, each with its source (the source is
    the site's to name: the fix says which metrics, not where they come from)."""
    cluster = site.cluster
    layer = next((m for m in cluster.monitoring if m.id == layer_id), None) if cluster else None
    if layer is None:
        return None
    record = layer.evidence
    declared = {m.metric for m in record.metrics if m.source} if record is not None else set()
    missing = [m for m in MONITORING_METRICS[layer_id] if m not in declared]
    if not missing:
        return None

    def apply(s: Site, _: float) -> Site:
        assert s.cluster is not None
        layers = []
        for m in s.cluster.monitoring:
            if m.id == layer_id:
                old = m.evidence or _LAYER_RECORD[layer_id]()
                added = [_LAYER_METRIC[layer_id](metric=name, source="(the metric's source)")
                         for name in missing]  # fmt: skip
                kept = [x for x in old.metrics if x.metric not in missing]
                m = dataclasses.replace(
                    m, evidence=old.model_copy(update={"metrics": kept + added})
                )
            layers.append(m)
        return dataclasses.replace(s, cluster=dataclasses.replace(s.cluster, monitoring=layers))

    change = Change("monitoring_layer", layer_id, "metrics", "count", len(missing), 0.0)
    params = {"layer": layer_id, "metrics": ", ".join(missing)}
    return _Lever("declare_metrics", change, (0.0,), apply, params)


# --- words ----------------------------------------------------------------------------------


def fix_text(fix: Fix, fmt: Callable[[float, str], str]) -> Message:
    """The fix's sentence: 'a 5th PDU per side …'; its figures in ``fmt``."""
    c = fix.changes[0]
    before, after, p = fmt(c.before, c.quantity), fmt(c.after, c.quantity), fix.params
    if fix.lever == "more_pdus" and p.get("of") == "row":
        return Message(
            "row %(row)s: %(after)s PDUs per side on each rack (now %(before)s), the added ones "
            "of the type already there",
            row=p["where"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "more_pdus":
        return Message(
            "rack %(rack)s: %(after)s PDUs per side (now %(before)s), the added ones of the "
            "type already there",
            rack=p["where"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "pdu_rating":
        return Message(
            "PDUs of type %(type)s rated %(after)s (now %(before)s)",
            type=p["type"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "cap_power":
        return Message(
            "cap the peak power of rack type %(type)s at %(after)s (now %(before)s)",
            type=p["type"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "more_shelves":
        return Message(
            "%(after)s power shelves in rack type %(type)s (now %(before)s)",
            type=p["type"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "spread":
        return Message(
            "spread each rack of type %(type)s over at least %(after)s, e.g. with a "
            "load-spreading plate (now %(before)s)",
            type=p["type"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "floor_rating":
        return Message(
            "a floor in zone %(zone)s rated %(after)s (%(field)s, now %(before)s)",
            zone=p["zone"], field=c.field, after=after, before=before,
        )  # fmt: skip
    if fix.lever == "more_cdus":
        return Message(
            "loop %(loop)s: %(after)s CDUs (now %(before)s), the added ones of the model of "
            "%(model)s",
            loop=p["loop"], model=p["model"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "design_rise":
        return Message(
            "a design coolant rise of at least %(after)s for rack type %(type)s (now %(before)s)",
            type=p["type"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "more_air_units":
        return Message(
            "room %(room)s: %(after)s air units (now %(before)s), the added ones like %(model)s",
            room=p["room"], model=p["model"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "source_rating" and "power_factor" in p:
        real = fmt(c.after * float(p["power_factor"]), "power")
        return Message(
            "source %(source)s rated %(after)s (%(field)s, now %(before)s): %(real)s at its "
            "power factor %(power_factor)s",
            source=p["source"], field=c.field, after=after, before=before, real=real,
            power_factor=p["power_factor"],
        )  # fmt: skip
    if fix.lever == "source_rating":
        return Message(
            "source %(source)s rated %(after)s (%(field)s, now %(before)s)",
            source=p["source"], field=c.field, after=after, before=before,
        )  # fmt: skip
    if fix.lever == "more_modules":
        return Message(
            "source %(source)s: %(after)s modules installed (now %(before)s), the added ones "
            "like those installed",
            source=p["source"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "distribution_rating":
        return Message(
            "%(element)s rated %(after)s (now %(before)s)",
            element=p["element"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "second_water":
        return Message(
            "a second facility water loop %(water)s with the figures and the heat rejection plant "
            "of %(like)s",
            water=p["water"], like=p["like"],
        )  # fmt: skip
    if fix.lever == "move_cdus":
        return Message(
            "%(cdus)s fed from %(water)s (now %(was)s)",
            cdus=p["cdus"], water=p["water"], was=p["was"],
        )  # fmt: skip
    if fix.lever == "more_cdus_on":
        return Message(
            "loop %(loop)s: %(after)s CDUs (now %(before)s), the added ones of the model of "
            "%(model)s, fed from %(water)s",
            loop=p["loop"], model=p["model"], water=p["water"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "buffer":
        return Message(
            "a buffer tank of at least %(after)s on loop %(loop)s (buffer_volume, now %(before)s)",
            loop=p["loop"], after=after, before=before,
        )  # fmt: skip
    if fix.lever == "automatic_balancing":
        return Message(
            "pressure-independent balancing valves on every branch of loop %(loop)s "
            "(topology.balancing: automatic)",
            loop=p["loop"],
        )  # fmt: skip
    if fix.lever == "pumps_on_ups":
        return Message(
            "feed the pumps of CDU %(cdu)s (%(loads)s) from %(elements)s, on a UPS",
            cdu=p["cdu"], loads=p["loads"], elements=p["elements"],
        )  # fmt: skip
    if fix.lever == "renew_record":
        return Message(
            "repeat %(item)s and record it dated %(date)s or later, with its reference "
            "(the record is dated %(before)s)",
            item=p["item"], date=p["date"], before=dt.date.fromordinal(int(c.before)).isoformat(),
        )  # fmt: skip
    if fix.lever == "add_record":
        return Message(
            "record %(item)s with its date and its report or ticket reference",
            item=p["item"],
        )  # fmt: skip
    if fix.lever == "declare_metrics":
        return Message(
            "collect %(metrics)s in the %(layer)s monitoring layer and declare each with its "
            "source (exporter, counter or dashboard)",
            metrics=p["metrics"], layer=p["layer"],
        )  # fmt: skip
    if fix.lever == "target_duration":
        return Message(
            "a target duration of at least %(after)s for the workload of %(cluster)s "
            "(now %(before)s)",
            cluster=p["cluster"], after=after, before=before,
        )  # fmt: skip
    raise ValueError(f"unknown lever {fix.lever}")
