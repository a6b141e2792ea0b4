"""Hall B3 (examples/hall-b3.yaml) gives exactly the verdicts of its hand calculation.

Every figure below is worked by hand in the scenario; comments repeat the arithmetic.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from facility.engine.evaluate import audit
from facility.engine.findings import AuditResult
from facility.engine.rules import load_rules
from facility.model.load import load_site

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ROW_A = [f"A{n:02d}" for n in range(1, 9)]
ROW_B = [f"B{n:02d}" for n in range(1, 13)]
PDUS_A = [f"{r}-{s}{n}" for r in ROW_A for s in "AB" for n in range(1, 5)]
PDUS_B = [f"{r}-{s}1" for r in ROW_B for s in "AB"]


@pytest.fixture(scope="module")
def result() -> AuditResult:
    site = load_site(EXAMPLES / "hall-b3.yaml")
    return audit(site, load_rules(profile="tier-iii"))


def statuses(result: AuditResult, rule: str) -> dict[str, str]:
    return {f.entity_id: f.status for f in result.findings if f.rule == rule}


def finding(result: AuditResult, rule: str, entity: str):
    return next(f for f in result.findings if f.rule == rule and f.entity_id == entity)


def test_verdict_is_not_ready(result: AuditResult) -> None:
    assert result.verdict == "not-ready"
    assert result.profile == "tier-iii"


def test_one_side_carries_rack_fails_row_a_passes_row_b(result: AuditResult) -> None:
    # A: side 4 × √3·415·63·0.8 = 144.9 kVA < peak 155/0.95 = 163.2 kVA → fail ×8
    # B: side √3·415·80·0.8 = 46.0 kVA ≥ 38/0.95 = 40.0 kVA → pass ×12
    assert statuses(result, "PWR-001") == {
        **dict.fromkeys(ROW_A, "fail"),
        **dict.fromkeys(ROW_B, "pass"),
    }
    a01 = finding(result, "PWR-001", "A01")
    assert a01.observed.value == pytest.approx(155_000 / 0.95)  # 163,157.9 VA
    assert a01.limit.value == pytest.approx(4 * 3**0.5 * 415 * 63 * 0.8)  # 144,933.9 VA
    assert a01.margin == pytest.approx(4 * 3**0.5 * 415 * 63 * 0.8 - 155_000 / 0.95)  # −18,224 VA


def test_each_pdu_after_side_loss(result: AuditResult) -> None:
    # A PDUs: 163.2 / 4 = 40.8 kVA > 36.2 kVA → fail; B PDUs: 40.0 / 1 = 40.0 ≤ 46.0 → pass
    assert statuses(result, "PWR-003") == {
        **dict.fromkeys(PDUS_A, "fail"),
        **dict.fromkeys(PDUS_B, "pass"),
    }
    assert finding(result, "PWR-003", "A01-B4").observed.value == pytest.approx(155_000 / 0.95 / 4)


def test_each_pdu_in_normal_operation_passes(result: AuditResult) -> None:
    # A: 163.2 / 8 = 20.4 kVA ≤ 36.2; B: 40.0 / 2 = 20.0 kVA ≤ 46.0
    assert statuses(result, "PWR-002") == dict.fromkeys(PDUS_A + PDUS_B, "pass")
    assert finding(result, "PWR-002", "B07-A1").observed.value == pytest.approx(38_000 / 0.95 / 2)


def test_cdu_heat(result: AuditResult) -> None:
    # N: TCS-A 8·135·0.9 = 972 kW ≤ 2,700; TCS-B 12·32·0.85 = 326.4 kW ≤ 600
    assert statuses(result, "LIQ-001") == {"TCS-A": "pass", "TCS-B": "pass"}
    # N+1: TCS-A 972 ≤ 1,350 kW pass; TCS-B one CDU: 326.4 kW > 0 kW fail
    assert statuses(result, "LIQ-002") == {"TCS-A": "pass", "TCS-B": "fail"}
    assert finding(result, "LIQ-002", "TCS-B").observed.value == pytest.approx(326_400)
    assert finding(result, "LIQ-002", "TCS-B").limit.value == 0.0


def test_cdu_flow(result: AuditResult) -> None:
    # TCS-A, PG25 at ~41 °C mean, 10 K: 972 kW → ≈1,455 L/min (ρ ≈ 1,010, cp ≈ 3,963:
    # 972,000 / (1,010 · 3,963 · 10) = 0.02428 m³/s = 1,457 L/min, with PG25 = 25.7 % by mass)
    flow_a = finding(result, "LIQ-003", "TCS-A").observed.value * 60_000
    assert flow_a == pytest.approx(1_455, rel=0.003)
    # N: 1,455 ≤ 2,400 L/min pass; TCS-B water, 8 K: 326.4 kW → ≈590 L/min ≤ 900 pass
    assert statuses(result, "LIQ-003") == {"TCS-A": "pass", "TCS-B": "pass"}
    assert finding(result, "LIQ-003", "TCS-B").observed.value * 60_000 == pytest.approx(
        590, rel=0.003
    )
    # N+1: TCS-A 1,455 > 1,200 L/min fail; TCS-B's single CDU: 590 > 0 fail (same cause as LIQ-002)
    assert statuses(result, "LIQ-004") == {"TCS-A": "fail", "TCS-B": "fail"}


def test_supply_temperature_in_range(result: AuditResult) -> None:
    # 32 °C + 4 K = 36 °C; A allows 20–45, B allows 18–40
    assert statuses(result, "LIQ-005") == {"TCS-A": "pass", "TCS-B": "pass"}
    assert statuses(result, "LIQ-006") == {"TCS-A": "pass", "TCS-B": "pass"}
    assert finding(result, "LIQ-005", "TCS-A").observed.value == pytest.approx(36.0)


def test_pump_head(result: AuditResult) -> None:
    # 1.27 + 0.40 = 1.67 ≤ 2.5 bar; 0.60 + 0.30 = 0.90 ≤ 2.0 bar
    assert statuses(result, "LIQ-009") == {"TCS-A": "pass", "TCS-B": "pass"}
    assert finding(result, "LIQ-009", "TCS-A").observed.value == pytest.approx(167_000)
    assert finding(result, "LIQ-009", "TCS-B").observed.value == pytest.approx(90_000)


def test_pump_redundancy_and_facility_pressure(result: AuditResult) -> None:
    # installed ≥ required + 1: 3 ≥ 3, 3 ≥ 3, 2 ≥ 2; 1.0 bar ≥ 0.7 / 0.7 / 0.6 bar
    cdus = {"CDU-A1": "pass", "CDU-A2": "pass", "CDU-B1": "pass"}
    assert statuses(result, "LIQ-010") == cdus
    assert statuses(result, "LIQ-012") == cdus


def test_facility_water_flow(result: AuditResult) -> None:
    # water, 8 K: (972 + 326.4) kW → 1,298,400 / (994 · 4,178 · 8) = 0.0391 m³/s ≈ 2,345 L/min ≤ 3,500
    assert statuses(result, "LIQ-011") == {"FW-1": "pass"}
    assert finding(result, "LIQ-011", "FW-1").observed.value * 60_000 == pytest.approx(
        2_345, rel=0.003
    )


def test_residual_air_heat_with_one_crah_out(result: AuditResult) -> None:
    # 8·135·0.10 + 12·32·0.15 = 108 + 57.6 = 165.6 kW ≤ 3·100 − 100 = 200 kW
    assert statuses(result, "AIR-002") == {"B3": "pass"}
    f = finding(result, "AIR-002", "B3")
    assert f.observed.value == pytest.approx(165_600)
    assert f.limit.value == pytest.approx(200_000)


def test_floor(result: AuditResult) -> None:
    # uniform: A 1,500·9.807/0.72 = 20.4 kPa ≤ 25 pass; B 1,100·9.807/0.72 = 15.0 kPa > 12 fail
    assert statuses(result, "FLR-001") == {
        **dict.fromkeys(ROW_A, "pass"),
        **dict.fromkeys(ROW_B, "fail"),
    }
    assert finding(result, "FLR-001", "B01").observed.value == pytest.approx(1_100 * 9.80665 / 0.72)
    # per caster, raised floor only (row B): 1,100·9.807/4 = 2.70 kN ≤ 4.45 kN
    assert statuses(result, "FLR-002") == dict.fromkeys(ROW_B, "pass")
    # zone aggregate: 8·1,500 kg over 60 m² = 1.96 kPa ≤ 25; 12·1,100 over 80 m² = 1.62 kPa ≤ 12
    assert statuses(result, "FLR-003") == {"Z-A": "pass", "Z-B": "pass"}
    assert finding(result, "FLR-003", "Z-A").observed.value == pytest.approx(12_000 * 9.80665 / 60)


def test_heat_rejection_at_design_ambient(result: AuditResult) -> None:
    # CT-1: 3 towers, N+1, 900 kW at 25.6 °C wet bulb, 3 %/K; design wet bulb 26 °C:
    # (3 − 1) · 900 · (1 − 0.03 · 0.4) = 2 · 889.2 = 1,778.4 kW ≥ 972 + 326.4 = 1,298.4 kW
    assert statuses(result, "LIQ-024") == {"FW-1": "pass"}
    f = finding(result, "LIQ-024", "FW-1")
    assert f.observed.value == pytest.approx(1_298_400)
    assert f.limit.value == pytest.approx(2 * 900_000 * (1 - 0.03 * 0.4))
    # 26 °C + 4 K = 30 °C ≤ min(32 °C declared, W32 32 °C)
    assert statuses(result, "LIQ-025") == {"FW-1": "pass"}
    assert finding(result, "LIQ-025", "FW-1").observed.value == pytest.approx(30.0)
    # primary flow, water ρ·cp ≈ 4.152 MJ/(m³·K) at 36 °C: 486 kW / (4.152e6 · 8) ≈ 877.9 L/min
    # ≤ 2,400 L/min (A1, A2); 326.4 kW → ≈589.6 L/min ≤ 1,100 L/min (B1)
    assert statuses(result, "LIQ-026") == dict.fromkeys(["CDU-A1", "CDU-A2", "CDU-B1"], "pass")
    a1 = finding(result, "LIQ-026", "CDU-A1")
    assert a1.observed.value * 60_000 == pytest.approx(877.9, rel=1e-3)
    assert a1.limit.value * 60_000 == pytest.approx(2_400)


def test_the_furthest_rack_branches(result: AuditResult) -> None:
    # TCS-A: 182.14 L/min per rack; 1.27 bar + 0.20 · (182.14 / 180)² = 0.2048 bar couplings
    # + 0.15 bar branch = 1.6248 bar ≤ 2.5 − 0.45 = 2.05 bar
    assert statuses(result, "LIQ-028") == {"TCS-A": "pass", "TCS-B": "pass"}
    a = finding(result, "LIQ-028", "TCS-A")
    assert a.observed.value == pytest.approx(162_478, rel=1e-4)
    assert a.limit.value == pytest.approx(205_000)
    # TCS-B: 49.21 L/min per cabinet; 0.60 + 0.10 · (49.21 / 50)² + 0.10 = 0.7969 bar
    # ≤ 2.0 − 0.35 = 1.65 bar
    assert finding(result, "LIQ-028", "TCS-B").observed.value == pytest.approx(79_685, rel=1e-4)
    # TCS-A direct-return, no balancing, at the drops as stated for the design (every one
    # scales with the flow squared, so the ratio holds at any load): far branch 1.27 + 0.20 +
    # 0.15 = 1.62 bar; √(1 + 0.45 / 1.62) − 1 = √1.27778 − 1 = 13.04 % > 10 %; TCS-B
    # reverse-return: 0
    assert statuses(result, "LIQ-029") == {"TCS-A": "fail", "TCS-B": "pass"}
    assert finding(result, "LIQ-029", "TCS-A").observed.value == pytest.approx(0.13039, abs=1e-4)
    # flow per kW of liquid heat: 182.14 / 121.5 = 1.499, 49.21 / 27.2 = 1.809 L/min/kW, both
    # within 1.25–2.0
    assert statuses(result, "LIQ-030") == {"TCS-A": "pass", "TCS-B": "pass"}


def test_only_the_scenarios_failures_fail(result: AuditResult) -> None:
    failing = {(f.rule, f.entity_id) for f in result.findings if f.status == "fail"}
    expected = (
        {("PWR-001", r) for r in ROW_A}
        | {("PWR-003", p) for p in PDUS_A}
        | {("LIQ-002", "TCS-B"), ("LIQ-004", "TCS-A"), ("LIQ-004", "TCS-B")}
        # Row A's direct-return header, no balancing: the nearest rack takes 13.0 % > 10 % more
        | {("LIQ-029", "TCS-A")}
        | {("FLR-001", r) for r in ROW_B}
        # GB300 shelves from the catalog: 8 × 33 kW, N+N: (8 − 4) · 33 = 132 kW < 155 kW peak
        | {("PWR-021", r) for r in ROW_A}
    )
    assert failing == expected


def test_missing_inputs_are_not_evaluated_not_passed(result: AuditResult) -> None:
    # No rack type states max_payload and no CDU states max_racks: reported, never passed.
    assert set(statuses(result, "FLR-004").values()) == {"not_evaluated"}
    assert set(statuses(result, "LIQ-014").values()) == {"not_evaluated"}
    f = finding(result, "LIQ-014", "TCS-A")
    assert "max_racks" in f.missing[0]


def test_supernode_profile_keeps_single_failure_findings_as_warnings() -> None:
    site = load_site(EXAMPLES / "hall-b3.yaml")
    result = audit(site, load_rules(profile="supernode"))
    severities = {f.rule: f.severity for f in result.findings if f.status == "fail"}
    assert severities["PWR-001"] == "warning"
    assert severities["LIQ-004"] == "warning"
    assert severities["FLR-001"] == "error"  # not a single-failure rule
    assert result.verdict == "not-ready"  # the raised floor still fails


def test_us_units_twin_gives_identical_verdicts(result: AuditResult) -> None:
    """The same hall in lb, BTU/h, gpm, psi, degF and psf: every finding has the same status."""
    us = audit(load_site(EXAMPLES / "hall-b3-us.yaml"), load_rules(profile="tier-iii"))
    si_status = {f.id: f.status for f in result.findings}
    us_status = {f.id: f.status for f in us.findings}
    assert us_status == si_status
    for f in us.findings:
        if f.observed is not None:
            twin = next(g for g in result.findings if g.id == f.id)
            assert f.observed.value == pytest.approx(twin.observed.value, rel=1e-6)
