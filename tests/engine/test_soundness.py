"""Never ready by omission (issue 13): each defect found from outside, as a test that failed
before its fix. Expected values are worked by hand in the comments.
"""

from __future__ import annotations

import copy
import json
import math
import re
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
from facility.model.load import resolve
from facility.model.source import SourceMap

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
B3 = yaml.safe_load((EXAMPLES / "hall-b3.yaml").read_text(encoding="utf-8"))
SUPERNODE = load_rules(profile="supernode")
L_PER_MIN = 1 / 60_000  # m³/s


def run(data: dict[str, Any], ruleset=SUPERNODE) -> AuditResult:
    site = resolve(SiteDocument.model_validate(data), SourceMap("t.yaml"), "0" * 64)
    return audit(site, ruleset)


def statuses(result: AuditResult, rule: str) -> dict[str, str]:
    return {f.entity_id: f.status for f in result.findings if f.rule == rule}


def finding(result: AuditResult, rule: str, entity: str):
    (found,) = [f for f in result.findings if f.rule == rule and f.entity_id == entity]
    return found


def check_file(tmp_path: Path, data: dict[str, Any], *args: str):
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return CliRunner().invoke(app, ["check", str(path), "--profile", "supernode", *args])


def gb300_pair(**placement: Any) -> dict[str, Any]:
    """Two GB300 NVL72 racks from the catalog (135 kW nominal, 90 % to liquid) on a floor zone
    with 2N power, N+1 air units; ``placement`` is added to each rack."""
    return {
        "site": {"name": "pair"},
        "rooms": [{"id": "R", "redundant_air_units": 1}],
        "floor_zones": [
            {"id": "Z", "construction": "slab", "uniform_load_rating": "30 kPa", "area": "50 m**2"}
        ],
        "rack_types": [{"id": "gb", "catalog": "gb300-nvl72", "max_payload": "1800 kg"}],
        "power": {"pdu_types": [{"id": "p", "catalog": "pdu-3p-415v-63a"}]},
        "cooling": {"air_units": [{"id": "CRAH", "count": 3, "sensible_capacity": "100 kW"}]},
        "racks": [
            {
                "id": rack,
                "type": "gb",
                "zone": "Z",
                "pdus": {"A": {"type": "p", "count": 5}, "B": {"type": "p", "count": 5}},
                **placement,
            }
            for rack in ("X1", "X2")
        ],
    }


# --- 1. a liquid-cooled rack with no loop ---------------------------------------------------


def test_liquid_racks_on_no_loop_fail_and_their_heat_is_accounted(tmp_path: Path) -> None:
    result = run(gb300_pair())
    # 135 kW · 90 % = 121.5 kW each lands on no loop: a failing finding per rack
    assert statuses(result, "LIQ-015") == {"X1": "fail", "X2": "fail"}
    assert finding(result, "LIQ-015", "X1").observed.value == pytest.approx(121_500)
    assert result.verdict == "not-ready"
    # the account still holds their heat: 2 · 135 = 270 kW = 2 · 13.5 kW room air + 243 kW
    heat = result.account.heat
    assert heat.total == pytest.approx(270_000)
    assert sum(heat.nowhere.values()) == pytest.approx(243_000)
    assert heat.parts["room"]["R"] == pytest.approx(27_000)
    cli = check_file(tmp_path, gb300_pair())
    assert cli.exit_code == 1
    assert "243.0 kW of liquid heat on no TCS loop (X1, X2)" in cli.stdout


# --- 2. an empty loop hid a failing facility water check ----------------------------------


def test_an_empty_loop_does_not_hide_a_failing_facility_water_check(tmp_path: Path) -> None:
    data = copy.deepcopy(B3)
    water = data["cooling"]["facility_water"][0]
    water["available_flow"] = "1000 L/min"  # B3 needs ≈2,340 L/min
    data["cooling"]["cdus"].append(
        {"id": "CDU-C1", "facility_water": "FW-1", "capacity": "600 kW", "rated_flow": "900 L/min"}
    )
    data["cooling"]["tcs_loops"].append(
        {"id": "TCS-C", "room": "B3", "coolant": {"fluid": "water"}, "cdus": ["CDU-C1"]}
    )
    result = run(data)
    # TCS-C has no racks: 0 kW, judged (not 'unknown'), so FW-1 is judged on 1,298.4 kW
    assert finding(result, "LIQ-001", "TCS-C").status == "pass"
    assert statuses(result, "LIQ-011") == {"FW-1": "fail"}
    assert check_file(tmp_path, data).exit_code == 1


# --- 3. a loop on two facility water loops is split, not doubled --------------------------


@pytest.mark.parametrize(
    ("capacities", "shares"),
    [
        # 8 · 135 kW · 0.90 = 972 kW; equal CDUs: 486 kW on each water
        (("1350 kW", "1350 kW"), (486_000, 486_000)),
        # 600 : 1,800 → 25 % and 75 %: 243 kW and 729 kW
        (("600 kW", "1800 kW"), (243_000, 729_000)),
    ],
)
def test_a_loop_on_two_facility_water_loops_is_split_by_cdu_capacity(capacities, shares) -> None:
    data = copy.deepcopy(B3)
    data["rows"] = data["rows"][:1]  # row A on TCS-A only
    data["cooling"]["tcs_loops"] = data["cooling"]["tcs_loops"][:1]
    fw2 = {**data["cooling"]["facility_water"][0], "id": "FW-2"}
    data["cooling"]["facility_water"].append(fw2)
    data["cooling"]["cdus"] = [
        {"id": "CDU-A1", "facility_water": "FW-1", "capacity": capacities[0], "rated_flow": "1200 L/min"},
        {"id": "CDU-A2", "facility_water": "FW-2", "capacity": capacities[1], "rated_flow": "1200 L/min"},
    ]  # fmt: skip
    result = run(data)
    landed = result.account.loop_heat.parts["facility_water"]
    assert landed["FW-1"] == pytest.approx(shares[0])
    assert landed["FW-2"] == pytest.approx(shares[1])
    assert sum(landed.values()) == pytest.approx(972_000)  # the loop's heat, once


# --- 4. a UPS over its kW rating ---------------------------------------------------------


def test_a_ups_over_its_kw_but_within_its_kva_fails(tmp_path: Path) -> None:
    # 4 single-sided racks of 155 kW at PF 0.95: 620 kW = 652.6 kVA on a 700 kVA UPS at output
    # power factor 0.8: 560 kW < 620 kW although 652.6 kVA < 700 kVA
    data = {
        "site": {"name": "ups"},
        "rack_types": [{"id": "gpu", "peak_power": "155 kW", "power_factor": 0.95}],
        "power": {
            "sources": [{"id": "UPS-1", "kind": "ups", "capacity": "700 kVA", "power_factor": 0.8}],
            "pdu_types": [{"id": "p", "voltage": "415 V", "phases": 3, "breaker_rating": "400 A"}],
        },
        "rows": [{"id": "r", "racks": {"prefix": "r", "count": 4}, "type": "gpu",
                  "pdus": {"A": {"type": "p", "fed_by": "UPS-1"}}}],
    }  # fmt: skip
    result = run(data)
    assert finding(result, "PWR-010", "UPS-1").status == "pass"  # kVA
    kw = finding(result, "PWR-011", "UPS-1")
    assert kw.status == "fail"
    assert kw.observed.value == pytest.approx(620_000)
    assert kw.limit.value == pytest.approx(560_000)
    assert check_file(tmp_path, data).exit_code == 1


# --- 5. a vendor flow table on a glycol loop -------------------------------------------------


def test_a_water_flow_table_is_converted_to_the_glycol_of_the_loop() -> None:
    # Catalog GB300: the Lenovo table is for water; at 35 °C supply it reads 89 L/min. With a
    # 20 K rise the mean loop temperature is 35 + 20 / 2 = 45 °C, where water has ρ 990.5
    # kg/m³, cp 4179 J/(kg·K) and PG 25 % by mass ρ 1007.2, cp 3981 (Melinder 2010):
    # 89 · (990.5 · 4179) / (1007.2 · 3981) = 89 · 4,139,299.5 / 4,009,663.2 = 89 · 1.03233
    # = 91.88 L/min per rack; 8 racks: 735.0 L/min (unconverted: 712 L/min)
    data = copy.deepcopy(B3)
    data["rows"] = data["rows"][:1]
    data["cooling"]["tcs_loops"] = data["cooling"]["tcs_loops"][:1]
    a = data["rack_types"][0]
    for key in ("flow_table", "design_flow"):
        a.pop(key)
    a["design_coolant_rise"] = "20 K"
    a["allowed_supply_temperature"] = {"min": "20 degC", "max": "45 degC"}
    loop = data["cooling"]["tcs_loops"][0]
    loop["coolant"] = {"fluid": "propylene_glycol", "mass_fraction": "25 %"}
    loop["supply_setpoint"] = "35 degC"
    data["cooling"]["facility_water"][0]["supply_temperature"] = "31 degC"
    result = run(data)
    flow = finding(result, "LIQ-003", "TCS-A").observed
    # within 0.5 %: the project's water fit reads ρ 0.2 % above IAPWS-95 at 45 °C
    assert flow.value / L_PER_MIN == pytest.approx(8 * 91.88, rel=0.005)
    assert flow.value / L_PER_MIN > 8 * 89 * 1.02  # never the table's water flow
    assert "V_table" in flow.formula and "table in water" in str(flow.formula)
    ratio = dict((s, v) for s, v, _ in flow.inputs)["(ρ·cp)_table/(ρ·cp)_loop"]
    assert ratio == pytest.approx(1.0323, rel=0.005)


def test_a_flow_table_that_does_not_name_its_coolant_is_not_evaluated() -> None:
    data = copy.deepcopy(B3)
    data["rows"] = data["rows"][:1]
    data["cooling"]["tcs_loops"] = data["cooling"]["tcs_loops"][:1]
    a = data["rack_types"][0]
    a.pop("design_flow")
    a["flow_table"] = [
        {"supply_temperature": "25 degC", "flow": "59 L/min"},
        {"supply_temperature": "45 degC", "flow": "177 L/min"},
    ]
    a["flow_table_coolant"] = None  # the catalog's water, removed
    result = run(data)
    f = finding(result, "LIQ-003", "TCS-A")
    assert f.status == "not_evaluated"
    assert "flow_table_coolant" in f.missing[0]


# --- 6. CDU capacity at the site approach, in the working ---------------------------------


@pytest.mark.parametrize(
    ("approach", "capacity"),
    [
        ("3 K", 1_200_000),  # 2,000 kW · min(1, 3 / 5) = 1,200 kW
        ("6 K", 2_000_000),  # 2,000 kW · min(1, 6 / 5) = 2,000 kW: never above the rating
    ],
)
def test_cdu_capacity_at_the_site_approach_shows_its_scaling(approach, capacity) -> None:
    data = copy.deepcopy(B3)
    data["cooling"]["cdus"][2] = {
        "id": "CDU-B1", "facility_water": "FW-1", "capacity": "2000 kW", "rated_approach": "5 K",
        "approach": approach, "rated_flow": "900 L/min", "available_head": "2.0 bar",
    }  # fmt: skip
    limit = finding(run(data), "LIQ-001", "TCS-B").limit
    assert limit.value == pytest.approx(capacity)
    assert "Q_rated · min(1, ATD / ATD_rated)" in limit.formula
    inputs = {symbol: value for symbol, value, _ in limit.inputs}
    assert inputs["Q_rated"] == pytest.approx(2_000_000)
    assert inputs["ATD_rated"] == pytest.approx(5.0)
    assert inputs["ATD"] == pytest.approx(float(approach.split()[0]))


# --- 10. fields that nothing read ----------------------------------------------------------


def test_power_inputs_per_side_decide_the_pdu_loads() -> None:
    # 4 power inputs on 5 PDUs a side: A1..A4 carry one input each, A5 none. The rack: 155 kW /
    # 0.95 = 163.16 kVA. After the other side is lost: 163.16 / 4 = 40.79 kVA on A1..A4, 0 on
    # A5; the side carries 36.23 kVA · 4 / 1 = 144.9 kVA (not 5 · 36.23 = 181.1 kVA) < 163.16.
    data = copy.deepcopy(B3)
    data["rows"] = data["rows"][:1]
    data["rows"][0]["pdus"] = {
        "A": {"type": "pdu-415v-63a", "count": 5},
        "B": {"type": "pdu-415v-63a", "count": 5},
    }
    result = run(data)
    loads = {f.entity_id: f.observed.value for f in result.findings if f.rule == "PWR-003"}
    assert loads["A01-A1"] == pytest.approx(155_000 / 0.95 / 4)
    assert loads["A01-A5"] == 0.0
    side = finding(result, "PWR-001", "A01")
    assert side.limit.value == pytest.approx(4 * math.sqrt(3) * 415 * 63 * 0.8)
    assert side.status == "fail"


# Every field the site file accepts is read by a check or is no physical input: one walk of
# the schema, tests/model/test_schema_walk.py.


def test_the_starter_site_pairs_each_pdu_with_a_power_input(tmp_path: Path) -> None:
    target = tmp_path / "site.yaml"
    assert CliRunner().invoke(app, ["init", str(target)]).exit_code == 0
    data = yaml.safe_load(target.read_text(encoding="utf-8"))
    inputs = {t["id"]: t.get("power_inputs_per_side") for t in data["rack_types"]}
    for row in data["rows"]:
        for group in row["pdus"].values():
            assert group.get("count", 1) == inputs[row["type"]]
    result = CliRunner().invoke(app, ["check", str(target)])
    assert "ERROR PWR-001" not in result.stdout and "WARNING PWR-001" not in result.stdout


# --- 11. the verdict says what was not evaluated; incomplete fails the run --------------------


def incomplete_site() -> dict[str, Any]:
    """Small pod R1 with its PDU type's breaker rating unknown: every PDU's capacity is
    unknown, so PWR-002 (error) cannot be evaluated on 40 PDUs."""
    data = yaml.safe_load((EXAMPLES / "small-ready.yaml").read_text(encoding="utf-8"))
    data["power"]["pdu_types"] = [{"id": "pdu-415v-63a", "voltage": "415 V", "phases": 3}]
    return data


def test_an_unevaluated_error_check_makes_the_verdict_incomplete(tmp_path: Path) -> None:
    result = run(incomplete_site())
    assert result.verdict == "incomplete"
    assert {f.status for f in result.findings if f.rule == "PWR-002"} == {"not_evaluated"}
    cli = check_file(tmp_path, incomplete_site())
    assert cli.exit_code == 1
    assert "verdict: INCOMPLETE" in cli.stdout
    assert check_file(tmp_path, incomplete_site(), "--no-fail-on-incomplete").exit_code == 0
    assert check_file(tmp_path, incomplete_site(), "--fail-on", "never").exit_code == 0


def test_the_verdict_sentence_names_what_was_not_evaluated_in_every_format(
    tmp_path: Path,
) -> None:
    outputs = {fmt: tmp_path / f"r.{fmt}" for fmt in ("json", "html", "md", "sarif", "xml")}
    args = [arg for path in outputs.values() for arg in ("-o", str(path))]
    cli = check_file(tmp_path, incomplete_site(), *args)
    # 40 PDUs · 1 check: "PWR-002 on 40 rack PDUs (PDU type 'pdu-415v-63a' lacks …)"
    said = re.compile(
        r"PWR-002 on 40 rack PDUs \(PDU type .pdu-415v-63a. lacks voltage, phases or breaker_rating"
    )
    assert "could not be evaluated" in cli.stdout
    assert said.search(" ".join(cli.stdout.split()))
    data = json.loads(outputs["json"].read_text(encoding="utf-8"))
    assert data["verdict"] == "incomplete" and said.search(data["summary"])
    sarif = json.loads(outputs["sarif"].read_text(encoding="utf-8"))
    assert said.search(sarif["runs"][0]["properties"]["summary"])
    for fmt in ("html", "md", "xml"):
        text = outputs[fmt].read_text(encoding="utf-8").replace("&#39;", "'").replace("\\", "")
        assert said.search(" ".join(text.split())), fmt


def test_a_ready_verdict_never_sits_beside_unevaluated_checks() -> None:
    data = yaml.safe_load((EXAMPLES / "small-ready.yaml").read_text(encoding="utf-8"))
    data["rack_types"][0].pop("max_payload")  # FLR-004 (warning) cannot be evaluated
    result = run(data)
    assert result.verdict == "ready-with-warnings"
    from facility.report.coverage_view import verdict_sentence

    sentence = verdict_sentence(result)
    # FLR-004 on 4 racks, and LIQ-035 on TCS-1 (no report date: the fluid analysis has no age)
    assert "5 warning-severity checks could not be evaluated: FLR-004 on 4 racks" in sentence
    assert "Every check passes" not in sentence


# --- 12. not evaluated stays not evaluated inside a failure scenario --------------------------


def test_not_evaluated_stays_not_evaluated_after_a_loss() -> None:
    data = copy.deepcopy(B3)
    site = resolve(SiteDocument.model_validate(data), SourceMap("b3.yaml"), "0" * 64)
    ruleset = load_rules(profile="tier-iii")
    baseline = audit(site, ruleset)
    # CDU-B1 states no max_racks: LIQ-014 is not evaluated before the loss …
    assert finding(baseline, "LIQ-014", "TCS-B").status == "not_evaluated"
    report = analyse_failures(site, ruleset, baseline)
    (lost,) = [r for r in report.results if r.scenario.id == "cdu:CDU-B1"]
    after = [f for f in lost.findings if f.rule == "LIQ-014" and f.entity_id == "TCS-B"]
    # … and after it: "12 ≤ 0" would judge a figure the site never gave
    assert [f.status for f in after] == ["not_evaluated"]
    assert all(f.rule != "LIQ-014" for f in lost.new_failures)
