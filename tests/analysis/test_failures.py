"""Single-failure analysis of Hall B3 against hand calculations, and its invariants."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from facility.analysis.failures import FailureReport, analyse_failures, utilisation
from facility.cli import app
from facility.engine.evaluate import audit, audit_in_context
from facility.engine.rules import load_rules
from facility.model.document import SiteDocument
from facility.model.load import load_site, resolve
from facility.model.source import SourceMap

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RULES = load_rules(profile="tier-iii")


def analyse(site) -> FailureReport:
    return analyse_failures(site, RULES, audit(site, RULES))


@pytest.fixture(scope="module")
def hall_b3() -> FailureReport:
    return analyse(load_site(EXAMPLES / "hall-b3.yaml"))


def scenario(report: FailureReport, scenario_id: str):
    return next(r for r in report.results if r.scenario.id == scenario_id)


def test_cdu_b1_is_a_single_point_of_failure(hall_b3: FailureReport) -> None:
    r = scenario(hall_b3, "cdu:CDU-B1")
    assert r.single_point_of_failure
    heat = next(f for f in r.new_failures if f.rule == "LIQ-001")
    # TCS-B's only CDU out: 12 · 32 kW · 0.85 = 326.4 kW of liquid heat against 0 kW
    assert heat.observed.value == pytest.approx(326_400)
    assert heat.limit.value == 0.0


def test_losing_cdu_a1_starves_tcs_a_of_flow(hall_b3: FailureReport) -> None:
    r = scenario(hall_b3, "cdu:CDU-A1")
    assert r.single_point_of_failure
    assert {(f.rule, f.entity_id) for f in r.new_failures} == {("LIQ-003", "TCS-A")}
    flow = r.new_failures[0]
    # heat still fits: 972 kW ≤ 1,350 kW; flow does not: ≈1,455 L/min > 1,200 L/min
    assert flow.limit.value * 60_000 == pytest.approx(1_200)
    assert flow.observed.value * 60_000 == pytest.approx(1_455, rel=0.003)
    heat = next(f for f in r.findings if f.rule == "LIQ-001")
    assert heat.status == "pass" and heat.limit.value == pytest.approx(1_350_000)


def test_losing_a_power_side_of_a01_overloads_the_other_sides_pdus(hall_b3: FailureReport) -> None:
    r = scenario(hall_b3, "rack_side:A01:A")
    assert r.single_point_of_failure
    failing = {f.entity_id for f in r.new_failures}
    assert failing == {"A01-B1", "A01-B2", "A01-B3", "A01-B4"}
    # each B PDU carries 155 kW / 0.95 / 4 = 40.8 kVA against √3·415·63·0.8 = 36.2 kVA: 112.6 %
    assert r.worst_utilisation == pytest.approx((155_000 / 0.95 / 4) / (3**0.5 * 415 * 63 * 0.8))


def test_row_b_survives_a_side_loss(hall_b3: FailureReport) -> None:
    r = scenario(hall_b3, "rack_side:B05:B")
    assert not r.single_point_of_failure
    # B05-A1 carries the whole cabinet: 38 kW / 0.95 = 40.0 kVA of √3·415·80·0.8 = 46.0 kVA: 87.0 %
    assert r.worst.entity_id == "B05-A1"
    assert r.worst_utilisation == pytest.approx((38_000 / 0.95) / (3**0.5 * 415 * 80 * 0.8))


def test_losing_one_crah(hall_b3: FailureReport) -> None:
    r = scenario(hall_b3, "air_unit:CRAH-2")
    assert not r.single_point_of_failure
    # 8·135·0.10 + 12·32·0.15 = 165.6 kW on the two remaining 100 kW units: 82.8 %
    assert r.worst.rule == "AIR-001"
    assert r.worst_utilisation == pytest.approx(165.6 / 200)


def test_a_spare_pump_changes_nothing(hall_b3: FailureReport) -> None:
    for cdu in ("CDU-A1", "CDU-A2", "CDU-B1"):
        r = scenario(hall_b3, f"cdu_pump:{cdu}")
        assert not r.new_failures and r.worst is None


def test_single_points_of_failure_of_hall_b3(hall_b3: FailureReport) -> None:
    spofs = {r.scenario.id for r in hall_b3.single_points_of_failure}
    sides = {f"rack_side:A{n:02d}:{s}" for n in range(1, 9) for s in "AB"}
    assert spofs == sides | {"cdu:CDU-A1", "cdu:CDU-A2", "cdu:CDU-B1", "facility_water:FW-1"}


def test_pump_without_a_spare_loses_flow(tmp_path: Path) -> None:
    data = yaml.safe_load((EXAMPLES / "hall-b3.yaml").read_text(encoding="utf-8"))
    data["cooling"]["cdus"][2]["pumps"] = {"installed": 1, "required": 1}  # CDU-B1
    site = resolve(SiteDocument.model_validate(data), SourceMap("b3.yaml"), "0" * 64)
    r = scenario(analyse(site), "cdu_pump:CDU-B1")
    # no pump left: 900 L/min × 0/1 = 0 L/min < 590 L/min → LIQ-003 fails
    assert ("LIQ-003", "TCS-B") in {(f.rule, f.entity_id) for f in r.new_failures}


def test_single_corded_rack_loses_power_with_its_ups(tmp_path: Path) -> None:
    data = yaml.safe_load((EXAMPLES / "hall-b3.yaml").read_text(encoding="utf-8"))
    data["power"]["sources"] = [{"id": "UPS-A", "kind": "ups", "capacity": "2000 kVA"}]
    data["rows"][1]["pdus"] = {"A": {"type": "pdu-415v-80a", "count": 1, "fed_by": "UPS-A"}}
    site = resolve(SiteDocument.model_validate(data), SourceMap("b3.yaml"), "0" * 64)
    r = scenario(analyse(site), "power_source:UPS-A")
    down = {f.entity_id for f in r.new_failures if f.rule == "PWR-009"}
    assert down == {f"B{n:02d}" for n in range(1, 13)}


def test_cli_failures_json(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["failures", str(EXAMPLES / "hall-b3.yaml"), "-f", "json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert "cdu:CDU-B1" in data["single_points_of_failure"]
    crah = next(s for s in data["scenarios"] if s["id"] == "air_unit:CRAH-1")
    assert crah["worst"]["utilisation"] == pytest.approx(0.828)
    assert all(f["status"] in ("pass", "fail", "not_evaluated") for f in crah["findings"])


def test_small_ready_survives_every_single_loss() -> None:
    report = analyse(load_site(EXAMPLES / "small-ready.yaml"))
    # Every source, busway, panel, rack side, CDU, pump, air unit, either facility water loop
    # and one dry cooler of either bank can be lost: 4 sources (2 UPS, 2 transformers),
    # 4 distribution (2 busways, 2 panels), 8 rack sides, 2 CDUs, 2 pumps, 2 water loops,
    # 2 units, 2 heat rejection entries (N+1: one unit lost reads as normal) = 26
    assert len(report.results) == 26
    assert report.single_points_of_failure == []


def _one_water_loop(data: dict) -> dict:
    """small-ready with both CDUs on FW-1, as it was before it had FW-2."""
    data = copy.deepcopy(data)
    data["cooling"]["facility_water"] = data["cooling"]["facility_water"][:1]
    for cdu in data["cooling"]["cdus"]:
        cdu["facility_water"] = "FW-1"
    plant = data["cooling"].get("heat_rejection", [])  # FW-1's dry coolers: 650 kW ≥ 486 kW
    data["cooling"]["heat_rejection"] = [e for e in plant if e["facility_water"] == "FW-1"]
    return data


def _no_upstream(data: dict) -> dict:
    """small-ready without its sources, distribution and non-IT loads: the rack PDUs feed
    nothing judged upstream."""
    for key in ("sources", "distribution", "loads"):
        data["power"].pop(key, None)
    for row in data["rows"]:
        for side in row["pdus"].values():
            side.pop("fed_by", None)
    return data


# Every element a loss affects here only gains load (one water loop, no upstream power), so
# no margin may improve; with two water loops, a CDU's loss unloads its own water loop (and
# with upstream power, a busway's imbalance limit grows with its load).
LIMIT_GROWS_WITH_LOAD = {"LIQ-027"}
BASE = _no_upstream(
    _one_water_loop(yaml.safe_load((EXAMPLES / "small-ready.yaml").read_text(encoding="utf-8")))
)


def test_one_facility_water_loop_is_a_single_point_of_failure() -> None:
    site = resolve(SiteDocument.model_validate(BASE), SourceMap("s.yaml"), "0" * 64)
    # FW-1 lost: both CDUs lose their heat sink, and TCS-1 fails LIQ-001 (CDU capacity
    # 0 kW < 486 kW), LIQ-009 (pump head) and LIQ-014 (4 racks > 0 CDUs · 8 racks).
    spofs = analyse(site).single_points_of_failure
    assert [r.scenario.id for r in spofs] == ["facility_water:FW-1"]
    assert {f.rule for f in spofs[0].new_failures} == {"LIQ-001", "LIQ-009", "LIQ-014"}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scale=st.floats(0.5, 1.6))
def test_failing_an_element_never_improves_a_margin(scale: float) -> None:
    data = copy.deepcopy(BASE)
    for rack_type in data["rack_types"]:
        for field in ("nominal_power", "peak_power"):
            if field in rack_type:
                value, unit = rack_type[field].split()
                rack_type[field] = f"{float(value) * scale!r} {unit}"
    site = resolve(SiteDocument.model_validate(data), SourceMap("s.yaml"), "0" * 64)
    baseline = audit(site, RULES)
    before = {f.id: f for f in baseline.findings}
    for r in analyse_failures(site, RULES, baseline).results:
        for after in r.findings:
            prior = before.get(after.id)
            if prior is None or prior.margin is None or after.margin is None:
                continue
            # LIQ-027's limit grows with its load: a CDU that takes its lost neighbour's share
            # runs nearer its rated secondary flow, and its exchanger conducts more. Its
            # utilisation still may not fall (below).
            if after.rule not in LIMIT_GROWS_WITH_LOAD:
                assert after.margin <= prior.margin + 1e-9 * max(1.0, abs(prior.margin)), (
                    r.scenario.id,
                    after.id,
                )
            if prior.status == "fail":
                assert after.status == "fail", (r.scenario.id, after.id)
            u_before, u_after = utilisation(prior), utilisation(after)
            if u_before is not None and u_after is not None:
                assert u_after >= u_before - 1e-9


def test_the_analysis_refuses_a_normal_context_of_another_audit() -> None:
    # The scenarios start from the normal context's values: one of another site, other
    # assumptions (a profile judging breakers at nominal power) or another report date would
    # judge them against the wrong audit.
    site = load_site(EXAMPLES / "hall-b3.yaml")
    ruleset = load_rules(profile="tier-iii")
    baseline, context = audit_in_context(site, ruleset)
    assert analyse_failures(site, ruleset, baseline, normal=context).results
    at_nominal = dataclasses.replace(
        ruleset,
        assumptions=dataclasses.replace(ruleset.assumptions, electrical_power_basis="nominal"),
    )
    wrong = [
        audit_in_context(load_site(EXAMPLES / "small-ready.yaml"), ruleset)[1],
        audit_in_context(site, ruleset, as_of=dt.date(2026, 12, 1))[1],
        audit_in_context(site, at_nominal)[1],
    ]
    for normal in wrong:
        with pytest.raises(ValueError, match="the normal context is of another site"):
            analyse_failures(site, ruleset, baseline, normal=normal)
