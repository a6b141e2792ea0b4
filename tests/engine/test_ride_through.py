"""A utility loss: CDU pumps on a UPS (LIQ-019) and the loop's ride-through (LIQ-020, LIQ-021)
on the bundled examples, and the fixes that close the gap. Figures worked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from facility.analysis.fixes import fixes
from facility.check import run_check
from facility.engine.evaluate import audit
from facility.engine.findings import AuditResult
from facility.engine.rules import load_rules
from facility.model.load import load_site
from facility.report.fixes_view import fix_figure

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TIER_III = load_rules(profile="tier-iii")


def finding(result: AuditResult, rule: str, entity: str):
    (found,) = [f for f in result.findings if f.rule == rule and f.entity_id == entity]
    return found


def test_small_ready_rides_through_the_chiller_restart() -> None:
    result = audit(load_site(EXAMPLES / "small-ready.yaml"), TIER_III)
    # 1.5 m³ loop + 5.0 m³ buffer; PG25 at 40.5 °C, ρ · cp = 1,010.1 · 3,962 = 4.002 MJ/(m³·K);
    # 9 K from the 36 °C supply to the racks' 45 °C; 4 · 135 · 0.9 = 486 kW to liquid:
    # t = 6.5 · 4.002e6 · 9 / 486,000 = 234,117,937 / 486,000 = 481.7 s ≥ 10 + 300 s
    restart = finding(result, "LIQ-021", "TCS-1")
    assert restart.status == "pass"
    assert restart.observed.value == pytest.approx(481.7, abs=0.1)
    assert restart.limit.value == pytest.approx(310.0)
    assert finding(result, "LIQ-020", "TCS-1").status == "pass"
    # The pumps of both CDUs are fed from MCC-A (UPS-A) and MCC-B (UPS-B): 2 UPS feeds each
    assert finding(result, "LIQ-019", "CDU-1").observed.value == 2


def test_the_first_drawing_passes_steady_state_but_not_a_utility_loss() -> None:
    result = audit(load_site(EXAMPLES / "pod-ride-through.yaml"), TIER_III)
    failing = sorted((f.rule, f.entity_id) for f in result.findings if f.status == "fail")
    assert failing == [("LIQ-019", "CDU-1"), ("LIQ-019", "CDU-2"), ("LIQ-021", "TCS-1")]
    # No buffer: t = 1.5 · 4.002e6 · 9 / 486,000 = 111.2 s: ≥ 10 s, < 310 s
    restart = finding(result, "LIQ-021", "TCS-1")
    assert restart.observed.value == pytest.approx(111.2, abs=0.1)
    assert finding(result, "LIQ-020", "TCS-1").status == "pass"
    assert result.verdict == "not-ready"  # tier-iii: single-failure rules are errors


def test_the_fixes_are_a_buffer_tank_and_pumps_on_the_ups() -> None:
    site = load_site(EXAMPLES / "pod-ride-through.yaml")
    report = run_check(site, TIER_III, generated_at=None)
    found = fixes(site, TIER_III, report.result)
    # Smallest buffer: V ≥ 310 · 486,000 / (4.002e6 · 9) = 4.183 m³ in all, 4.183 − 1.5 =
    # 2.683 m³, so 2.7 m³ in 0.1 m³ steps (2.6 m³ gives 4.1 m³: 303.9 s < 310 s)
    (buffer,) = found["LIQ-021:tcs_loop:TCS-1"].fixes
    assert buffer.lever == "buffer" and buffer.changes[0].after == pytest.approx(2.7)
    assert buffer.after.observed.value == pytest.approx(4.2 * 4.002e6 * 9 / 486_000, rel=1e-3)
    (pumps,) = found["LIQ-019:cdu:CDU-1"].fixes
    assert str(pumps.text(fix_figure)) == (
        "feed the pumps of CDU CDU-1 (CDU-1-pumps) from MCC-A, MCC-B, on a UPS"
    )
    assert pumps.after.status == "pass"


def test_without_loads_or_volume_the_checks_name_what_is_missing() -> None:
    result = audit(load_site(EXAMPLES / "hall-b3.yaml"), TIER_III)
    pumps = finding(result, "LIQ-019", "CDU-A1")
    assert pumps.status == "not_evaluated"
    assert "serves" in " ".join(map(str, pumps.missing))
    loop = finding(result, "LIQ-021", "TCS-A")
    assert loop.status == "not_evaluated" and "volume" in " ".join(map(str, loop.missing))


def test_a_lost_source_stops_the_cdus_whose_pumps_it_alone_feeds(tmp_path) -> None:
    # The first drawing, with both CDUs' pumps on TX-1 alone: TX-1 lost stops both CDUs, so
    # TCS-1 has no CDU in service (its heat, 486 kW, on no capacity): a single point of
    # failure the steady-state checks cannot see. With the pumps split over TX-1 and TX-2
    # (the example as it is), TX-1 lost stops CDU-1 only and CDU-2 carries the loop (N+1).
    import yaml

    from facility.analysis.failures import analyse_failures

    text = (EXAMPLES / "pod-ride-through.yaml").read_text(encoding="utf-8")
    both = tmp_path / "both-on-tx1.yaml"
    both.write_text(
        text.replace(
            "extends: small-ready.yaml", f"extends: {EXAMPLES / 'small-ready.yaml'}"
        ).replace("{A: null, B: null, M2: TX-2}", "{A: null, B: null, M1: TX-1}"),
        encoding="utf-8",
    )
    assert yaml.safe_load(both.read_text(encoding="utf-8"))["power"]["loads"][1]["fed_by"] == {
        "A": None, "B": None, "M1": "TX-1"
    }  # fmt: skip
    site = load_site(both, allow_outside_bases=True)  # the base is the bundled example
    report = analyse_failures(site, TIER_III, audit(site, TIER_III))
    (tx1,) = [r for r in report.results if r.scenario.id == "power_source:TX-1"]
    assert tx1.single_point_of_failure
    assert "LIQ-001" in {f.rule for f in tx1.new_failures}
    example = load_site(EXAMPLES / "pod-ride-through.yaml")
    split = analyse_failures(example, TIER_III, audit(example, TIER_III))
    (tx1,) = [r for r in split.results if r.scenario.id == "power_source:TX-1"]
    assert not tx1.single_point_of_failure
    capacity = next(f for f in tx1.findings if f.rule == "LIQ-001")
    assert capacity.limit.value == pytest.approx(1_350_000)  # CDU-2 alone, at its 4 K rating


def test_a_loop_without_liquid_racks_has_no_ride_through_to_judge(tmp_path) -> None:
    # A spare loop (no racks, no volume stated) carries no heat: LIQ-020 and LIQ-021 do not
    # apply to it, as the flow and head checks do not; it was "not evaluated" (no volume),
    # which under tier-iii made a site with a spare loop INCOMPLETE.
    text = (EXAMPLES / "small-ready.yaml").read_text(encoding="utf-8")
    spare = text.replace(
        "    - id: TCS-1\n",
        "    - {id: TCS-9, room: R1, coolant: {fluid: water}, cdus: [CDU-9]}\n    - id: TCS-1\n",
        1,
    ).replace(
        "  cdus:\n",
        "  cdus:\n    - {id: CDU-9, catalog: vertiv-xdu1350, facility_water: FW-1, approach: 4 K}\n",
        1,
    )
    path = tmp_path / "spare.yaml"
    path.write_text(spare, encoding="utf-8")
    result = audit(load_site(path), TIER_III)
    judged = {(f.rule, f.entity_id) for f in result.findings}
    assert ("LIQ-021", "TCS-1") in judged
    assert not {("LIQ-020", "TCS-9"), ("LIQ-021", "TCS-9")} & judged
