"""Phase currents under single failures: each scenario equals a full re-audit (the oracle of
tests/analysis/test_failure_oracle.py) on a site whose upstream lines are unbalanced, so the
normal-audit contributions a scenario reuses are not all equal (the campus and examples there
have balanced three-phase PDUs only)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from facility.analysis.failures import analyse_failures
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model.load import load_site
from tests.analysis.test_failure_oracle import check_oracle

# Six racks on two 415 V 3φ RPPs per side, their single-phase 230 V PDUs spread unevenly over
# the lines; two racks on three-phase PDUs with banks. Each side has a UPS.
SITE = {
    "site": {"name": "phases under failures"},
    "rack_types": [
        {"id": "r8", "peak_power": "8 kW", "power_factor": 0.95},
        {"id": "r12", "peak_power": "12 kW", "power_factor": 0.95},
    ],
    "power": {
        "sources": [
            {"id": "UPS-A", "kind": "ups", "side": "A", "capacity": "500 kVA"},
            {"id": "UPS-B", "kind": "ups", "side": "B", "capacity": "500 kVA"},
        ],
        "distribution": [
            {
                "id": f"RPP-{side}{n}",
                "kind": "rpp",
                "side": side,
                "fed_by": f"UPS-{side}",
                "voltage": "415 V",
                "phases": 3,
                "rating": "250 A",
            }
            for side in "AB"
            for n in (1, 2)
        ],
        "pdu_types": [
            *(
                {"id": f"p-{phase}", "catalog": "pdu-1p-230v-32a", "inlet_phase": phase}
                for phase in ("L1", "L2", "L3")
            ),
            {
                "id": "p3",
                "voltage": "415 V",
                "phases": 3,
                "breaker_rating": "63 A",
                "banks": [
                    {"id": "L1", "phase": "L1", "breaker_rating": "32 A", "supplies": 3},
                    {"id": "L2", "phase": "L2", "breaker_rating": "32 A", "supplies": 2},
                    {"id": "L3", "phase": "L3", "breaker_rating": "32 A", "supplies": 1},
                ],
            },
        ],
    },
    "racks": [
        {
            "id": rack,
            "type": kind,
            "pdus": {
                "A": {"type": a, "fed_by": f"RPP-A{rpp}"},
                "B": {"type": b, "fed_by": f"RPP-B{rpp}"},
            },
        }
        for rack, kind, a, b, rpp in [
            ("R1", "r8", "p-L1", "p-L2", 1),
            ("R2", "r12", "p-L1", "p-L3", 1),
            ("R3", "r8", "p-L2", "p-L1", 1),
            ("R4", "r12", "p-L3", "p-L1", 2),
            ("R5", "r8", "p3", "p3", 2),
            ("R6", "r12", "p3", "p-L2", 2),
        ]
    ],
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):
    path = Path(tmp_path_factory.mktemp("phases")) / "site.yaml"
    path.write_text(yaml.safe_dump(SITE, sort_keys=False), encoding="utf-8")
    return load_site(path)


@pytest.mark.parametrize("profile", ["supernode", "tier-iii"])
def test_every_scenario_is_a_full_re_audit(site, profile: str) -> None:
    # 6 rack-side losses × 2, 4 RPPs, 2 UPSs: every finding of each compared
    assert check_oracle(site, load_rules(profile=profile)) > 100


def test_the_upstream_lines_are_unbalanced_and_a_loss_moves_them(site) -> None:
    # RPP-A1 in normal operation: each PDU carries half its rack, S / 2 / 230 V at PF 0.95:
    #   R1 8 kW on L1: 8,000 / 0.95 / 2 / 230 = 18.31 A; R2 12 kW on L1: 27.46 A;
    #   R3 8 kW on L2: 18.31 A → lines 45.77, 18.31, 0 A; average 21.36 A; deviation 24.41 A
    rules = load_rules(profile="supernode")
    result = audit(site, rules)
    (f,) = [f for f in result.findings if f.rule == "PWR-019" and f.entity_id == "RPP-A1"]
    assert f.status == "fail"
    assert f.observed.value == pytest.approx(24.41, abs=0.01)
    assert f.limit.value == pytest.approx(0.1 * 21.36, abs=0.01)
    # R1 loses side B: its A PDU carries the whole 8 kW, 36.61 A on L1 → lines 64.07, 18.31,
    # 0 A; average 27.46 A; deviation 36.61 A
    report = analyse_failures(site, rules, result)
    (scenario,) = [r for r in report.results if r.scenario.id == "rack_side:R1:B"]
    (moved,) = [f for f in scenario.findings if f.rule == "PWR-019" and f.entity_id == "RPP-A1"]
    assert moved.observed.value == pytest.approx(36.61, abs=0.01)
    assert moved.limit.value == pytest.approx(0.1 * 27.46, abs=0.01)


def test_neutral_current_of_a_pdu_and_of_an_rpp(site) -> None:
    from facility.engine.quantities import Assumptions, Context

    ctx = Context(site, Assumptions())
    # R5-A1 (p3, banks L1, L2, L3 with supplies 3, 2, 1): R5 is 8 kW at PF 0.95, half of it on
    # each side in normal operation: 4,210.5 VA over 6 supplies at 415 / √3 = 239.6 V:
    #   I_1N = 4,210.5 · 3/6 / 239.6 = 8.786 A, I_2N = 5.857 A, I_3N = 2.929 A
    #   I_N = √(8.786² + 5.857² + 2.929² − 8.786·5.857 − 5.857·2.929 − 2.929·8.786)
    #       = 2.929 · √(9 + 4 + 1 − 6 − 2 − 3) = 2.929 · √3 = 5.073 A
    pdu = site.pdus["R5-A1"]
    assert ctx.get("pdu", "pdu_neutral_current", pdu).value == pytest.approx(5.073, abs=0.001)
    # RPP-A1: single-phase PDUs on L1 (18.31 + 27.46 A) and L2 (18.31 A), nothing on L3:
    #   I_N = √(45.77² + 18.31² − 45.77 · 18.31) = √(2094.9 + 335.3 − 838.1) = √1592.1 = 39.90 A
    rpp = site.distribution["RPP-A1"]
    value = ctx.get("distribution", "distribution_neutral_current", rpp).value
    assert value == pytest.approx(39.90, abs=0.01)
