"""The oracle of the single-failure analysis: each scenario equals a full audit of the failed site.

The analysis is incremental: it copies only what a loss changes and judges only the entities
it affects (the rest keep their normal-operation findings). Here each scenario is checked
against a plain audit of a site built with the element out of service — by this test, from
the site's own figures — finding by finding, over every normal-operation rule and every
entity, with no allow-list. Only the lost element's own findings are left out (it is out of
service), and a check not evaluated in normal operation stays so (the analysis's documented
rule: a loss cannot supply a missing input).

Sites: every example, and campuses with busways and UPS (benchmarks/generate_campus.py); a
small campus in the default suite, larger ones under ``-m slow``.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from facility.analysis.failures import (
    SINGLE_FAILURE_TAG,
    Scenario,
    _Failer,
    analyse_failures,
)
from facility.engine.evaluate import audit, audit_in_context
from facility.engine.findings import Finding
from facility.engine.quantities import Value
from facility.engine.rules import RuleSet, load_rules
from facility.model.load import load_site
from facility.model.site import Site

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402

EXAMPLES = [
    "hall-b3.yaml",
    "small-ready.yaml",
    "hall-b3-cluster.yaml",
    "hall-b3-power.yaml",
    "pod-ride-through.yaml",
]
_OWN_KIND = {  # the entity kind of the lost element's own findings
    "power_source": "power_source",
    "distribution": "distribution",
    "cdu": "cdu",
    "facility_water": "facility_water",
}


def _without_pdus(site: Site, lost: set[str]) -> Site:
    racks = []
    for rack in site.racks:
        sides = {s: [p for p in pdus if p.id not in lost] for s, pdus in rack.pdus.items()}
        kept = {s: pdus for s, pdus in sides.items() if pdus}
        if kept != rack.pdus:
            rack = dataclasses.replace(
                rack, pdus=kept, sides_lost=rack.sides_lost + len(rack.pdus) - len(kept)
            )
        racks.append(rack)
    pdus = {k: p for k, p in site.pdus.items() if k not in lost}
    return dataclasses.replace(site, racks=racks, pdus=pdus)


def _below(site: Site, element: str) -> set[str]:
    """The PDUs fed by ``element``, directly or through distribution below it."""
    feeds = {element}
    grew = True
    while grew:
        more = {d.id for d in site.distribution.values() if d.fed_by in feeds}
        grew = not more <= feeds
        feeds |= more
    return {p.id for p in site.pdus.values() if p.fed_by in feeds}


def _without_feeds(site: Site, element: str) -> Site:
    """``site`` with every non-IT load feed from ``element`` (or below it) gone; a load with
    no feed left is gone."""
    elements = {element}
    grew = True
    while grew:
        more = {d.id for d in site.distribution.values() if d.fed_by in elements}
        grew = not more <= elements
        elements |= more
    loads = {}
    for load_id, load in site.loads.items():
        kept = {s: e for s, e in load.fed_by.items() if e not in elements}
        if kept:
            loads[load_id] = load.model_copy(update={"fed_by": kept})
    return dataclasses.replace(site, loads=loads)


def _stopped(failed: Site, site: Site) -> Site:
    """``failed`` with each CDU and air unit out whose loads (kind cdu or air_unit serving
    it) all lost every feed: its pumps or fans stop."""
    gone = set(site.loads) - set(failed.loads)

    def dead(kind: str, served: str) -> bool:
        serving = [k for k, ld in site.loads.items() if ld.kind == kind and ld.serves == served]
        return bool(serving) and all(k in gone for k in serving)

    cdus = {c for c in site.cdus if dead("cdu", c)}
    units = {
        u for u in failed.air_units
        if dead("air_unit", u) or dead("air_unit", u.rpartition("-")[0])
    }  # fmt: skip
    if units:
        failed = dataclasses.replace(
            failed, air_units={k: v for k, v in failed.air_units.items() if k not in units}
        )
    return _without_cdus(failed, cdus) if cdus else failed


def _without_cdus(site: Site, lost: set[str]) -> Site:
    loops = {
        k: loop.model_copy(update={"cdus": [c for c in loop.cdus if c not in lost]})
        for k, loop in site.loops.items()
    }
    return dataclasses.replace(site, loops=loops)


def failed_site(site: Site, scenario: Scenario, failer: _Failer) -> Site:
    """``site`` with the scenario's element out of service, built from the site's figures."""
    kind, element = scenario.kind, scenario.element
    if kind == "rack_side":
        rack_id, side = element.rsplit(":", 1)
        rack = next(r for r in site.racks if r.id == rack_id)
        return _without_pdus(site, {p.id for p in rack.pdus[side]})
    if kind in ("power_source", "distribution"):
        return _stopped(_without_feeds(_without_pdus(site, _below(site, element)), element), site)
    if kind == "cdu":
        return _without_cdus(site, {element})
    if kind == "facility_water":  # its CDUs and the air units whose coils it cools stop
        failed = _without_cdus(
            site, {c.id for c in site.cdus.values() if c.spec.facility_water == element}
        )
        units = {k: u for k, u in failed.air_units.items() if u.facility_water != element}
        return dataclasses.replace(failed, air_units=units)
    if kind == "air_unit":
        units = {k: u for k, u in site.air_units.items() if k != element}
        return dataclasses.replace(site, air_units=units)
    if kind == "heat_rejection":  # one unit lost: one fewer installed, one fewer may be out
        entry = site.heat_rejection[element]
        lost = entry.model_copy(
            update={"count": entry.count - 1, "redundant": max(0, entry.redundant - 1)}
        )
        return dataclasses.replace(site, heat_rejection={**site.heat_rejection, element: lost})
    if kind == "cdu_pump":  # the pump model itself (flow in proportion) is the analysis's
        failed, _ = failer.one_pump_lost(site.cdus[element])
        return failed
    raise AssertionError(kind)


def _out_of_service(site: Site, scenario: Scenario) -> set[tuple[str, str]]:
    """The lost element; for a source or distribution element every element below it, for a
    facility water loop the CDUs on it (the analysis leaves them out the same way)."""
    kind, element = scenario.kind, scenario.element
    out = {(_OWN_KIND[kind], element)} if kind in _OWN_KIND else set()
    if kind == "facility_water":  # its CDUs lose their heat sink: out of service with it
        out |= {("cdu", c.id) for c in site.cdus.values() if c.spec.facility_water == element}
    if kind in ("power_source", "distribution"):
        below, grew = {element}, True
        while grew:
            more = {d.id for d in site.distribution.values() if d.fed_by in below}
            grew = not more <= below
            below |= more
        out |= {("distribution", e) for e in below if e in site.distribution}
        # and the CDUs whose pumps lost every feed with it: stopped, out of service
        looped = {c for loop in site.loops.values() for c in loop.cdus}
        failed = _stopped(_without_feeds(site, element), site)
        out |= {("cdu", c) for c in looped - {c for lp in failed.loops.values() for c in lp.cdus}}
    return out


def _figures(f: Finding) -> tuple[object, ...]:
    """What a report shows of a finding: status, each value and its working (formula and the
    inputs put into it), values to 9 significant digits (sums taken in another order)."""
    return (f.status, _value(f.observed), _value(f.limit))


def _same(a: Finding, b: Finding) -> bool:
    """The same figures exactly (the common case, compared without rounding)."""
    return a is b or (a.status, a.observed, a.limit) == (b.status, b.observed, b.limit)


def _value(value: Value | None) -> tuple[object, ...] | None:
    if value is None:
        return None
    inputs = tuple((symbol, _rounded(number), kind) for symbol, number, kind in value.inputs)
    return (_rounded(value.value), str(value.formula), inputs)


def _rounded(value: float | None) -> float | None:
    return None if value is None else float(f"{value:.9g}")


def check_oracle(site: Site, ruleset: RuleSet, from_audit: bool = True) -> int:
    """Compare every scenario with a full audit of its failed site; the findings compared.

    ``from_audit``: the analysis starts from the audit's own context, as ``facility check``
    runs it; False: from a context of its own (as headroom runs it)."""
    baseline, context = audit_in_context(site, ruleset)
    before = {f.id: f for f in baseline.findings}
    normal = dataclasses.replace(
        ruleset, rules=[r for r in ruleset.rules if SINGLE_FAILURE_TAG not in r.spec.tags]
    )
    report = analyse_failures(site, ruleset, baseline, normal=context if from_audit else None)
    failer = _Failer(site)
    compared = 0
    for outcome in report.results:
        scenario = outcome.scenario
        incremental = {f.id: f for f in outcome.findings}
        full = audit(failed_site(site, scenario, failer), normal)
        mismatches = []
        out = _out_of_service(site, scenario)
        for f in full.findings:
            if (f.entity_kind, f.entity_id) in out:
                continue  # the lost element itself (and what it feeds): out of service
            prior = before.get(f.id)
            assert prior is not None, (scenario.id, f.id)
            expected = prior if prior.status == "not_evaluated" else f
            got = incremental.get(f.id, prior)
            if not _same(got, expected) and _figures(got) != _figures(expected):
                mismatches.append((f.id, _figures(got), _figures(expected)))
            compared += 1
        assert mismatches == [], (scenario.id, mismatches[:5], len(mismatches))
    return compared


@pytest.fixture(scope="module")
def rulesets() -> dict[str, RuleSet]:
    return {p: load_rules(profile=p) for p in ("supernode", "tier-iii")}


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_scenario_of_an_example_is_a_full_re_audit(example, rulesets) -> None:
    site = load_site(ROOT / "examples" / example)
    assert check_oracle(site, rulesets["tier-iii"]) > 1_000


# The analysis from a context of its own (as headroom runs it): the example with the most
# kinds of loss, and the one with busways and UPS.
@pytest.mark.parametrize("example", ["hall-b3.yaml", "hall-b3-power.yaml"])
def test_from_its_own_context_every_scenario_is_a_full_re_audit(example, rulesets) -> None:
    site = load_site(ROOT / "examples" / example)
    assert check_oracle(site, rulesets["tier-iii"], from_audit=False) > 1_000


@pytest.mark.slow  # a generated campus, each scenario re-audited (the examples' oracle runs by default)
def test_every_scenario_of_a_small_campus_is_a_full_re_audit(rulesets, tmp_path) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(24, path, seed=0, loads=True)
    site = load_site(path)
    assert site.sources and site.distribution  # a UPS per hall side, a busway per row side
    assert site.loads  # CDU pumps on both UPSs, lighting on one busway, per hall
    assert check_oracle(site, rulesets["supernode"]) > 1_000


@pytest.mark.slow
@pytest.mark.parametrize(("racks", "seed"), [(24, 3), (120, 0), (160, 1), (200, 7)])
def test_every_scenario_of_a_campus_is_a_full_re_audit(racks, seed, rulesets, tmp_path) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(racks, path, seed=seed, loads=seed % 2 == 1)  # with non-IT loads: odd seeds
    assert check_oracle(load_site(path), rulesets["tier-iii"]) > 10_000


def test_a_heat_rejection_unit_lost_is_a_full_re_audit(rulesets, tmp_path) -> None:
    """small-ready with FW-1's dry coolers as N (one unit, none redundant): losing it leaves
    FW-1 no capacity, 0 kW < 255 kW (LIQ-024: 243 kW and 12 kW of pump heat), a single point of failure; FW-2's N+1 bank
    loses a unit and reads as before. Both scenarios equal a full re-audit."""
    import yaml

    data = yaml.safe_load((ROOT / "examples" / "small-ready.yaml").read_text(encoding="utf-8"))
    for entry in data["cooling"]["heat_rejection"]:
        if entry["id"] == "DC-1":
            entry.update(count=1, redundant=0)
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    site = load_site(path)
    ruleset = rulesets["tier-iii"]
    assert check_oracle(site, ruleset) > 1_000
    report = analyse_failures(site, ruleset, audit(site, ruleset))
    outcome = {r.id: r for r in report.results}
    lost = outcome["heat_rejection:DC-1"]
    assert [(f.rule, f.entity_id) for f in lost.new_failures] == [("LIQ-024", "FW-1")]
    assert lost.new_failures[0].limit.value == 0.0  # (1 − 1) units left
    assert outcome["heat_rejection:DC-2"].new_failures == []


def test_chilled_water_air_units_stop_with_their_facility_water(rulesets, tmp_path) -> None:
    """small-ready with its two CRAHs on chilled water, CRAH-A on FW-1 and CRAH-B on FW-2,
    each with its 5.5 kW fan load. Losing FW-1 stops CDU-1 and CRAH-A: the room's 54 kW of
    air heat (4 · 135 kW · 10 %) all goes to CRAH-B, so FW-2 carries
        486 kW (TCS-1 whole) + 12 kW (CDU-2's pumps) + 54 kW + 5.5 kW = 557.5 kW,
    and the room has one 70 kW unit left: 54 kW ≤ 70 kW. Every scenario equals a full
    re-audit of the failed site (the oracle builds it without FW-1's CDUs and air units)."""
    import yaml

    data = yaml.safe_load((ROOT / "examples" / "small-ready.yaml").read_text(encoding="utf-8"))
    data["cooling"]["air_units"] = [
        {"id": f"CRAH-{x}", "room": "R1", "sensible_capacity": "70 kW", "facility_water": w}
        for x, w in (("A", "FW-1"), ("B", "FW-2"))
    ]
    loads = [load for load in data["power"]["loads"] if load["id"] != "CRAH-fans"]
    for x in "AB":
        loads.append(
            {"id": f"CRAH-{x}-fans", "kind": "air_unit", "serves": f"CRAH-{x}",
             "power": "5.5 kW", "power_factor": 0.9, "fed_by": {"A": "MCC-A", "B": "MCC-B"}}
        )  # fmt: skip
    data["power"]["loads"] = loads
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    site = load_site(path)
    ruleset = rulesets["tier-iii"]
    assert check_oracle(site, ruleset) > 1_000
    result = audit(site, ruleset)
    normal = {f.entity_id: f for f in result.findings if f.rule == "LIQ-024"}
    # 243 kW (half of TCS-1) + 12 kW pumps + 27 kW (half the air heat) + 5.5 kW fans
    assert normal["FW-2"].observed.value == pytest.approx(287_500)
    report = analyse_failures(site, ruleset, result)
    lost = next(r for r in report.results if r.id == "facility_water:FW-1")
    plant = {f.entity_id: f for f in lost.findings if f.rule == "LIQ-024"}
    assert plant["FW-2"].observed.value == pytest.approx(557_500)
    room = {f.entity_id: f for f in lost.findings if f.rule == "AIR-001"}
    assert room["R1"].limit.value == pytest.approx(70_000)
