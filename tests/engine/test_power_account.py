"""Non-IT loads on the power chain, the kW and kVA of sources with them, and the hall's power
account (examples/hall-b3-power.yaml and small hand-made sites).

Every expected figure is worked by hand in the comment beside it.
"""

from __future__ import annotations

import copy
import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from facility.analysis.failures import analyse_failures
from facility.cli import app
from facility.engine.evaluate import audit
from facility.engine.findings import AuditResult
from facility.engine.rules import load_rules
from facility.model.document import SiteDocument
from facility.model.load import load_site, resolve
from facility.model.source import SourceMap

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TIER_III = load_rules(profile="tier-iii")
SUPERNODE = load_rules(profile="supernode")
kW = 1000.0


@pytest.fixture(scope="module")
def power() -> AuditResult:
    return audit(load_site(EXAMPLES / "hall-b3-power.yaml"), TIER_III)


def finding(result: AuditResult, rule: str, entity: str):
    (found,) = [f for f in result.findings if f.rule == rule and f.entity_id == entity]
    return found


def run(data: dict[str, Any], ruleset=SUPERNODE) -> AuditResult:
    site = resolve(SiteDocument.model_validate(data), SourceMap("t.yaml"), "0" * 64)
    return audit(site, ruleset)


# --- the example: 2N UPS at PF 0.8 with CDU pumps and CRAH fans -------------------------------


def test_the_ups_is_over_its_kw_after_a_side_loss_but_within_its_kva(power) -> None:
    # After side B is lost UPS-A carries every rack whole and every dual-fed load whole:
    #   IT 8 · 155 + 12 · 38 = 1,696 kW; pumps 15 + 15 + 8 = 38 kW; fans 3 · 7.5 = 22.5 kW
    #   1,696 + 38 + 22.5 = 1,756.5 kW > 2,000 kVA · 0.8 = 1,600 kW           PWR-012 fails
    kw = finding(power, "PWR-012", "UPS-A")
    assert kw.status == "fail"
    assert kw.observed.value == pytest.approx(1_756.5 * kW)
    assert kw.limit.value == pytest.approx(1_600 * kW)
    # kVA: 1,696 / 0.95 + 38 / 0.9 + 22.5 / 0.9 = 1,785.26 + 42.22 + 25.00 = 1,852.49 kVA
    #   ≤ 2,000 kVA                                                            PWR-007 passes
    kva = finding(power, "PWR-007", "UPS-A")
    assert kva.status == "pass"
    assert kva.observed.value == pytest.approx(1_852_485.4, rel=1e-6)
    # Normal operation: half of it on each UPS, 878.25 kW ≤ 1,600 kW; 926.24 kVA ≤ 2,000 kVA
    normal = finding(power, "PWR-011", "UPS-B")
    assert normal.status == "pass"
    assert normal.observed.value == pytest.approx(878.25 * kW)
    assert finding(power, "PWR-010", "UPS-B").observed.value == pytest.approx(926_242.7, rel=1e-6)
    # The working names the non-IT loads: 44 PDUs and 4 load feeds below each UPS
    assert "non-IT" in str(kw.observed.formula)
    assert dict((s, v) for s, v, _ in normal.observed.inputs) == {"n_PDU": 44, "n_load": 4}


def test_panels_and_a_transformer_carry_their_loads(power) -> None:
    # MCC-A after side B is lost: (38 + 22.5) kW / 0.9 = 67.22 kVA ≤ √3 · 415 · 200 · 0.8
    #   = 115.0 kVA; in normal operation half: 33.61 kVA
    after = finding(power, "PWR-006", "MCC-A")
    assert after.observed.value == pytest.approx(60_500 / 0.9)
    assert after.limit.value == pytest.approx(3**0.5 * 415 * 200 * 0.8)
    assert finding(power, "PWR-005", "MCC-A").observed.value == pytest.approx(30_250 / 0.9)
    # TX-M (single-fed loads): 2 · 80 / 0.9 + 4 / 1.0 = 181.78 kVA ≤ 500 kVA; rated in kVA
    # only, so its kW limit is its kVA rating: 164 kW ≤ 500 kW
    assert finding(power, "PWR-010", "TX-M").observed.value == pytest.approx(181_777.8, rel=1e-6)
    kw = finding(power, "PWR-011", "TX-M")
    assert (kw.status, kw.observed.value, kw.limit.value) == ("pass", 164 * kW, 500_000)
    assert "kVA only" in str(kw.limit.formula)


def test_the_hall_power_account_and_its_ppue(power) -> None:
    account = power.power_account
    assert account is not None
    assert account.it == {"compute": 1_696 * kW}
    assert account.cooling == {"cdu": 38 * kW, "air_unit": 22.5 * kW, "heat_rejection": 160 * kW}
    assert account.other == {"lighting": 4 * kW}
    # Losses: a UPS delivering 878.25 kW at η 96 % draws 878.25 / 0.96 = 914.84 kW: 36.59 kW;
    # TX-M 164 kW at 98.5 %: 164 / 0.985 − 164 = 2.497 kW. 2 · 36.594 + 2.497 = 75.685 kW
    losses = {s.id: s.loss for s in account.sources}
    assert losses["UPS-A"] == pytest.approx(36_593.75)
    assert losses["TX-M"] == pytest.approx(2_497.46, rel=1e-5)
    assert account.losses == pytest.approx(75_684.96, rel=1e-6)
    # Critical (UPS-backed): 1,696 + 38 + 22.5 = 1,756.5 kW; facility: 160 + 4 = 164 kW
    assert (account.critical, account.facility, account.unmodelled) == (
        pytest.approx(1_756.5 * kW),
        pytest.approx(164 * kW),
        0.0,
    )
    # pPUE = (1,696 + 220.5 + 4 + 75.685) / 1,696 = 1,996.185 / 1,696 = 1.1770
    assert account.total == pytest.approx(1_996_184.96, rel=1e-6)
    assert account.ppue == pytest.approx(1.17700, abs=1e-5)


def test_small_ready_stays_ready_with_its_upstream_and_loads() -> None:
    # a report date after TCS-1's fluid analysis of 2026-11-16 (LIQ-035 judges its age)
    result = audit(load_site(EXAMPLES / "small-ready.yaml"), TIER_III, as_of=dt.date(2026, 12, 1))
    assert result.verdict == "ready"
    # UPS-A with side B lost: 4 · 155 + 2 · 12 + 2 · 5.5 = 655 kW ≤ 1,250 kVA · 0.9 = 1,125 kW;
    # 620 / 0.95 + 35 / 0.9 = 652.63 + 38.89 = 691.52 kVA ≤ 1,250 kVA
    kw = finding(result, "PWR-012", "UPS-A")
    assert (kw.observed.value, kw.limit.value) == (
        pytest.approx(655 * kW),
        pytest.approx(1_125 * kW),
    )
    assert finding(result, "PWR-007", "UPS-A").observed.value == pytest.approx(691_520.5, rel=1e-6)
    # TX-1: one dry cooler, 25 kW / 0.9 = 27.78 kVA ≤ 150 kVA
    assert finding(result, "PWR-010", "TX-1").observed.value == pytest.approx(25_000 / 0.9)
    # pPUE: losses 2 · 327.5 · (1/0.96 − 1) + 2 · 25 · (1/0.985 − 1) = 27.292 + 0.761 kW;
    # (620 + 24 + 11 + 50 + 28.053) / 620 = 733.053 / 620 = 1.18234
    account = result.power_account
    assert account is not None
    assert account.losses == pytest.approx(28_053.3, rel=1e-5)
    assert account.ppue == pytest.approx(1.18234, abs=1e-5)


def test_a_hall_without_cooling_loads_estimates_no_ppue() -> None:
    result = audit(load_site(EXAMPLES / "hall-b3.yaml"), TIER_III)
    account = result.power_account
    assert account is not None and account.ppue is None
    # No source above the PDUs: all 1,696 kW is on a path whose upstream is not modelled
    assert account.unmodelled == pytest.approx(1_696 * kW)
    assert account.critical == account.facility == 0.0


def test_the_account_is_in_every_report(tmp_path: Path) -> None:
    out = [tmp_path / f"r.{ext}" for ext in ("json", "html", "md", "sarif", "xml")]
    args = ["check", str(EXAMPLES / "hall-b3-power.yaml")]
    for path in out:
        args += ["-o", str(path)]
    run_ = CliRunner().invoke(app, args)
    assert run_.exit_code == 1, run_.output
    assert "pPUE of the hall: 1.18 = (IT 1,696.0 kW + cooling 220.5 kW" in run_.stdout
    import json

    data = json.loads(out[0].read_text(encoding="utf-8"))["power_account"]
    assert data["ppue"] == pytest.approx(1.177, abs=1e-3)
    assert data["critical"]["value"] == pytest.approx(1_756.5)
    assert 'id="power-account"' in out[1].read_text(encoding="utf-8")
    assert "| pPUE of the hall | 1.18 |" in out[2].read_text(encoding="utf-8")
    sarif = json.loads(out[3].read_text(encoding="utf-8"))
    assert sarif["runs"][0]["properties"]["powerAccount"] == data  # the JSON result's, SI
    assert '<property name="ppue" value="1.18 = (IT 1,696.0 kW' in out[4].read_text("utf-8")


# --- the same physics on small sites -----------------------------------------------------------


def _panel_site(**load: Any) -> dict[str, Any]:
    """One panel per side, 415 V three-phase 100 A (√3 · 415 · 100 · 0.8 = 57.50 kVA), under a
    UPS per side, feeding one pump load."""
    entry = {"id": "P", "kind": "cdu", "power": "30 kW", "power_factor": 0.9,
             "fed_by": {"A": "MCC-A", "B": "MCC-B"}, **load}  # fmt: skip
    return {
        "site": {"name": "panels"},
        "power": {
            "sources": [
                {"id": f"UPS-{s}", "kind": "ups", "side": s, "capacity": "100 kVA",
                 "power_factor": 0.9, "efficiency": "95 %"}
                for s in "AB"
            ],
            "distribution": [
                {"id": f"MCC-{s}", "kind": "panel", "side": s, "fed_by": f"UPS-{s}",
                 "voltage": "415 V", "phases": 3, "rating": "100 A"}
                for s in "AB"
            ],
            "loads": [entry],
        },
    }  # fmt: skip


def test_a_dual_fed_load_is_shared_then_carried_whole() -> None:
    result = run(_panel_site())
    # Normal: 30 kW / 2 feeds = 15 kW, 15 / 0.9 = 16.67 kVA on each panel and UPS
    assert finding(result, "PWR-005", "MCC-A").observed.value == pytest.approx(15_000 / 0.9)
    assert finding(result, "PWR-011", "UPS-A").observed.value == pytest.approx(15_000)
    # Side B lost: MCC-A carries it whole, 33.33 kVA; UPS-A 30 kW ≤ 90 kW
    assert finding(result, "PWR-006", "MCC-A").observed.value == pytest.approx(30_000 / 0.9)
    assert finding(result, "PWR-012", "UPS-A").observed.value == pytest.approx(30_000)


def test_a_count_multiplies_and_a_single_feed_carries_all() -> None:
    # 4 × 20 kW on MCC-A only: 80 kW / 0.9 = 88.89 kVA > 57.50 kVA: PWR-005 fails
    result = run(_panel_site(power="20 kW", count=4, fed_by={"A": "MCC-A"}))
    over = finding(result, "PWR-005", "MCC-A")
    assert over.status == "fail"
    assert over.observed.value == pytest.approx(80_000 / 0.9)
    assert finding(result, "PWR-005", "MCC-B").observed.value == 0.0


def test_a_load_without_a_power_factor_leaves_the_kva_checks_unevaluated() -> None:
    data = _panel_site()
    del data["power"]["loads"][0]["power_factor"]
    result = run(data)
    kva = finding(result, "PWR-010", "UPS-A")
    assert kva.status == "not_evaluated"
    assert "load 'P' has no power_factor" in " ".join(map(str, kva.missing))
    assert finding(result, "PWR-011", "UPS-A").status == "pass"  # kW needs no power factor


def test_the_design_reserve_is_a_profile_parameter(tmp_path: Path) -> None:
    # A 10 % reserve holds back a tenth of the rating: 100 kVA · 0.9 · (1 − 0.1) = 81 kW
    profile = tmp_path / "reserve.yaml"
    profile.write_text(
        "name: reserve\ndescription: supernode with a 10 % design reserve\nextends: supernode\n"
        "parameters:\n"
        "  PWR-011: {design_reserve: 10 %}\n  PWR-012: {design_reserve: 10 %}\n",
        encoding="utf-8",
    )
    ruleset = load_rules(profile=str(profile))
    kw = finding(run(_panel_site(power="85 kW"), ruleset), "PWR-012", "UPS-A")
    # 85 kW > 81 kW fails; with no reserve it would pass (85 ≤ 90 kW)
    assert kw.status == "fail"
    assert kw.limit.value == pytest.approx(81_000)
    assert finding(run(_panel_site(power="85 kW")), "PWR-012", "UPS-A").status == "pass"


def test_a_lost_ups_moves_the_load_to_the_other_feed() -> None:
    data = _panel_site(power="50 kW")
    site = resolve(SiteDocument.model_validate(data), SourceMap("t.yaml"), "0" * 64)
    baseline = audit(site, SUPERNODE)
    report = analyse_failures(site, SUPERNODE, baseline)
    (lost_a,) = [r for r in report.results if r.scenario.id == "power_source:UPS-A"]
    # UPS-B now carries the whole 50 kW: 50 / 0.9 = 55.56 kVA on MCC-B ≤ 57.50 kVA (pass),
    # and 50 kW ≤ 90 kW on UPS-B
    after = {f.id: f for f in lost_a.findings}
    assert after["PWR-005:distribution:MCC-B"].observed.value == pytest.approx(50_000 / 0.9)
    assert after["PWR-011:power_source:UPS-B"].observed.value == pytest.approx(50_000)


def test_rack_categories_are_lines_of_the_it_account() -> None:
    data = _panel_site()
    data["rack_types"] = [
        {"id": "sw", "category": "network", "cooling": "air", "peak_power": "12 kW",
         "power_factor": 0.95},
    ]  # fmt: skip
    data["power"]["pdu_types"] = [{"id": "p", "voltage": "415 V", "phases": 3,
                                   "breaker_rating": "32 A"}]  # fmt: skip
    data["racks"] = [{"id": "N1", "type": "sw", "pdus": {"A": {"type": "p", "fed_by": "MCC-A"},
                                                         "B": {"type": "p", "fed_by": "MCC-B"}}}]  # fmt: skip
    account = run(data).power_account
    assert account is not None
    assert account.it == {"network": 12 * kW}
    # pPUE = (12 + 30 + losses) / 12; losses = (6 + 15) kW per UPS · (1/0.95 − 1) · 2
    #      = 42 · 0.052632 = 2.2105 kW → (42 + 2.2105) / 12 = 3.684
    assert account.ppue == pytest.approx((42_000 + 42_000 * (1 / 0.95 - 1)) / 12_000)


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fed_by": {"A": "MCC-X"}}, "power.loads[0].fed_by.A: unknown upstream element 'MCC-X'"),
        ({"serves": "CDU-9"}, "power.loads[0].serves: unknown CDU 'CDU-9'"),
        ({"kind": "lighting", "serves": "MCC-A"}, "only a load of kind cdu or air_unit serves"),
        ({"fed_by": {}}, "power.loads[0].fed_by"),
        ({"power": "30 kVA"}, "power.loads[0].power"),
    ],
)
def test_a_bad_load_names_its_file_line_and_field(tmp_path: Path, change, message) -> None:
    data = copy.deepcopy(_panel_site(**change))
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    before = set(tmp_path.iterdir())
    run_ = CliRunner().invoke(app, ["check", str(path), "-o", str(tmp_path / "r.html")])
    assert run_.exit_code == 2
    assert message in run_.stderr
    assert f"{path}:" in run_.stderr and "Traceback" not in run_.stderr
    assert set(tmp_path.iterdir()) == before
