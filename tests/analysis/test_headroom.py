"""Headroom on the all-passing example, each binding constraint worked by hand.

small-ready: 4 racks of 135 kW nominal (155 kW peak, PF 0.95), 90 % to liquid, PG25 loop
TCS-1 with two 1,350 kW / 1,200 L/min CDUs, facility water 1,500 L/min at an 8 K rise, two
70 kW air units with one redundant, a 40 m² zone rated 25 kPa, racks of 1,500 kg on
600 × 1,200 mm with the default aisles (1.2 m in front, 1.0 m behind).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.analysis.headroom import SEARCH_LIMIT, HeadroomError, headroom
from facility.cli import app
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model.load import load_site

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RULES = load_rules(profile="tier-iii")


@pytest.fixture(scope="module")
def small():
    site = load_site(EXAMPLES / "small-ready.yaml")
    return headroom(site, RULES, audit(site, RULES), "gb300-r1", loop="TCS-1")


def domain(report, name):
    return next(d for d in report.domains if d.domain == name)


def test_room_air_binds_first(small) -> None:
    # air heat per rack 135 · 0.10 = 13.5 kW; N+1 capacity 2 · 70 − 70 = 70 kW
    # (4 + n) · 13.5 ≤ 70 → n ≤ 1.19 → 1 more; with 2 more: 6 · 13.5 = 81 kW > 70 kW
    assert small.overall.racks == 1
    assert [(f.rule, f.entity_id) for f in domain(small, "room air").binding] == [("AIR-002", "R1")]
    assert domain(small, "room air").binding[0].observed.value == pytest.approx(81_000)
    assert domain(small, "room air").racks == 1


def test_no_rack_more_than_a_single_failure_survives(small) -> None:
    # Under tier-iii each loss the design must survive is judged with the racks added (RED-001):
    # here the binding one is an air unit lost, the same cause as AIR-002's N+1 room air (one
    # CRAH left: (4 + n) · 13.5 kW ≤ 70 kW → 1 more); both bind at 1.
    # With two more racks a CDU or a facility water loop lost also fails: all 6 · 121.5 =
    # 729 kW (and 12 kW of pump heat) then land on one water loop, whose two dry coolers (N+1)
    # give 650 kW (LIQ-024).
    single = domain(small, "single failures")
    assert (single.racks, single.failing_already) == (1, False)
    assert [(f.rule, f.entity_id) for f in single.binding] == [
        ("RED-001", "air_unit:CRAH-1"), ("RED-001", "air_unit:CRAH-2"),
        ("RED-001", "cdu:CDU-1"), ("RED-001", "cdu:CDU-2"),
        ("RED-001", "facility_water:FW-1"), ("RED-001", "facility_water:FW-2"),
    ]  # fmt: skip
    assert {f.rule for f in small.overall.binding} == {"AIR-002", "RED-001"}


def test_without_single_failure_rules_there_is_no_such_domain() -> None:
    site = load_site(EXAMPLES / "small-ready.yaml")
    rules = load_rules(profile="tier-iii")
    rules = dataclasses.replace(rules, rules=[r for r in rules.rules if r.code != "RED-001"])
    report = headroom(site, rules, audit(site, rules), "gb300-r1", loop="TCS-1")
    assert [d.domain for d in report.domains] == [
        "power path", "liquid loop", "room air", "floor zone"
    ]  # fmt: skip


def test_liquid_loop_binds_on_flow_with_a_cdu_out(small) -> None:
    # per rack 121.5 kW; PG25 (25.7 % by mass) at 41 °C: ρ ≈ 1,009.9 kg/m³, cp ≈ 3,963 J/(kg·K)
    # flow per rack 121,500 / (1,009.9 · 3,963 · 10) = 3.036e-3 m³/s = 182.2 L/min
    # N+1 flow: (4 + n) · 182.2 ≤ 1,200 → n ≤ 2.59 → 2
    # facility water, 8 K at 36 °C (ρ·cp ≈ 994 · 4,178): 219.4 L/min per rack, half of it on
    # each of FW-1 and FW-2 (one CDU each): (4 + n) · 109.7 ≤ 1,500 → n ≤ 9.67: not binding
    # heat N+1 alone would allow (4 + n) · 121.5 ≤ 1,350 → 7 more
    # ride-through binds at the same count: 6.5 m³ · 4.002 MJ/(m³·K) · 9 K / (6 · 121.5 kW) =
    # 321 s ≥ 310 s with 2 more; with 3 more, 850.5 kW: 275 s < 310 s (LIQ-021)
    liquid = domain(small, "liquid loop")
    assert liquid.racks == 2
    assert {(f.rule, f.entity_id) for f in liquid.binding} == {
        ("LIQ-004", "TCS-1"),
        ("LIQ-021", "TCS-1"),
    }


def test_floor_zone_binds_on_space_not_on_its_rating(small) -> None:
    # The rating alone would take 63 more: (4 + n) · 1,500 kg · 9.80665 / 40 m² ≤ 25 kPa →
    # 4 + n ≤ 67.98. With their aisles (1.2 m in front, 1.0 m behind, each shared with the row
    # across) each 600 × 1,200 mm rack claims 0.6 · (1.2 + 0.6 + 0.5) = 1.38 m²:
    #   (4 + n) · 1.38 ≤ 40 → 4 + n ≤ 28.99 → n = 24 (29 racks: 40.02 m² > 40 m², FLR-014)
    floor = domain(small, "floor zone")
    assert floor.racks == 24
    assert [f.rule for f in floor.binding] == ["FLR-014"]
    assert floor.binding[0].observed.value == pytest.approx(29 * 1.38)


def test_power_path_binds_on_the_busways_and_the_ups(small) -> None:
    # Each new rack brings its own 5 + 5 PDUs; above them, with the other side lost:
    #   busway BW-A: √3 · 415 · 2,000 · 0.8 = 1,150.1 kVA ≥ (4 + n) · 155 / 0.95
    #     → 4 + n ≤ 7.05 → n = 3 (8 racks: 1,305.3 kVA > 1,150.1)
    #   UPS-A kW: (4 + n) · 155 + 35 ≤ 1,250 · 0.9 = 1,125 → n ≤ 3.03 → 3
    #   UPS-A kVA: (4 + n) · 163.16 + 38.9 ≤ 1,250 → n ≤ 3.42 → 3
    power = domain(small, "power path")
    assert power.racks == 3 and power.upstream_modelled
    assert {f.rule for f in power.binding} == {"PWR-006", "PWR-007", "PWR-012"}


def test_power_path_without_upstream_does_not_bind() -> None:
    # small-ready without its sources and distribution: each new rack brings its own 5 + 5
    # PDUs and no upstream element is modelled, so nothing the site states bounds it, and the
    # report says so rather than "nothing binds"
    site = load_site(EXAMPLES / "small-ready.yaml")
    pdus = {k: dataclasses.replace(p, fed_by=None) for k, p in site.pdus.items()}
    racks = [
        dataclasses.replace(r, pdus={s: [pdus[p.id] for p in ps] for s, ps in r.pdus.items()})
        for r in site.racks
    ]
    bare = dataclasses.replace(site, racks=racks, pdus=pdus, sources={}, distribution={}, loads={})
    report = headroom(bare, RULES, audit(bare, RULES), "gb300-r1", loop="TCS-1")
    power = domain(report, "power path")
    assert power.racks == SEARCH_LIMIT and power.unbounded and not power.binding
    assert not power.upstream_modelled
    assert domain(report, "liquid loop").upstream_modelled  # (only power has an upstream)


def test_a_domain_that_already_fails_has_no_headroom(tmp_path: Path) -> None:
    # Air units of 50 kW: N+1 capacity 2 · 50 − 50 = 50 kW < 4 · 13.5 = 54 kW → AIR-002 fails
    # today (normal operation, 54 ≤ 100 kW, passes). Room air: 0 more, AIR-002 named —
    # not the 0 more the N+1 search alone would give for the wrong reason, nor a count.
    text = (EXAMPLES / "small-ready.yaml").read_text(encoding="utf-8")
    assert text.count("sensible_capacity: 70 kW") == 1
    path = tmp_path / "site.yaml"
    path.write_text(text.replace("sensible_capacity: 70 kW", "sensible_capacity: 50 kW"))
    site = load_site(path)
    report = headroom(site, RULES, audit(site, RULES), "gb300-r1", loop="TCS-1")
    air = domain(report, "room air")
    assert (air.racks, air.failing_already) == (0, True)
    assert [(f.rule, f.entity_id, f.status) for f in air.binding] == [("AIR-002", "R1", "fail")]
    assert report.overall.racks == 0 and report.overall.failing_already
    assert domain(report, "floor zone").racks == 24  # the other domains still searched
    assert not domain(report, "floor zone").failing_already


def test_a_catalog_rack_type_can_be_added() -> None:
    # gb300-nvl72 is no rack type of small-ready: the catalog's (135 kW, 90 % liquid: the
    # same air heat per rack as gb300-r1), so room air binds at 1 more as above
    site = load_site(EXAMPLES / "small-ready.yaml")
    assert "gb300-nvl72" not in site.rack_types
    report = headroom(site, RULES, audit(site, RULES), "gb300-nvl72", loop="TCS-1")
    assert report.rack_type == "gb300-nvl72"
    assert domain(report, "room air").racks == 1


def test_stranded_capacity_at_the_limit(small) -> None:
    # at 1 more (5 racks, 607.5 kW to liquid) the loop's tightest check is its ride-through:
    # 6.5 m³ · 4.002 MJ/(m³·K) · 9 K / 607,500 W = 385.4 s of the 310 s needed → 75.4 s left
    # (its N+1 flow, 5 · 182.2 = 911 L/min of 1,200, is less used)
    ride = next(f for f in domain(small, "liquid loop").stranded if f.entity_id == "TCS-1")
    assert ride.rule == "LIQ-021"
    assert ride.margin == pytest.approx(75.4, abs=0.2)
    # zone: its space is tighter than its rating (5 · 1.38 = 6.9 m² of 40 m², 17 %, against
    # 5 · 1,500 · 9.80665 / 40 = 1.84 kPa of 25 kPa, 7 %): 40 − 6.9 = 33.1 m² stranded
    zone = next(f for f in domain(small, "floor zone").stranded if f.entity_id == "Z-R1")
    assert zone.rule == "FLR-014"
    assert zone.margin == pytest.approx(40 - 5 * 1.38)
    assert domain(small, "room air").stranded == []  # the binding domain strands nothing


def test_hall_b3_row_b_has_no_room_on_its_raised_floor() -> None:
    site = load_site(EXAMPLES / "hall-b3.yaml")
    report = headroom(site, RULES, audit(site, RULES), "atlas-b3", row="B")
    # each new cabinet: 1,100 · 9.80665 / 0.72 = 15.0 kPa > 12 kPa; and row B's loop TCS-B
    # fails today (one CDU: LIQ-002 and LIQ-004), so the liquid loop has no headroom either
    assert report.overall.racks == 0
    assert sorted(f.rule for f in report.overall.binding) == [
        "FLR-001", "LIQ-002", "LIQ-004", "RED-001", "RED-001"
    ]  # fmt: skip
    liquid = domain(report, "liquid loop")
    assert liquid.failing_already and {f.entity_id for f in liquid.binding} == {"TCS-B"}
    # CDU-B1 (TCS-B's only CDU) and FW-1 are single points of failure of TCS-B today; CDU-A1's
    # loss fails TCS-A's flow only, which the cabinets on TCS-B do not share: not named.
    single = domain(report, "single failures")
    assert single.failing_already
    assert {f.entity_id for f in single.binding} == {"cdu:CDU-B1", "facility_water:FW-1"}


def test_a_copy_that_fails_alone_fits_nowhere_even_with_nothing_shared() -> None:
    # Hall B3 models nothing above its rack PDUs: each copy of A01 is judged alone, and one
    # copy already fails as A01 does (163.2 kVA > 4 · 36.2 = 144.9 kVA on one side; its N+N
    # power shelves give (8 − 4) · 33 = 132 kW < 155 kW): 0 more.
    site = load_site(EXAMPLES / "hall-b3.yaml")
    report = headroom(site, RULES, audit(site, RULES), "gb300-b3", row="A")
    power = domain(report, "power path")
    assert (power.racks, power.upstream_modelled) == (0, False)
    assert {(f.rule, f.entity_id) for f in power.binding} == {
        ("PWR-001", "new-1"), ("PWR-003", "new-1-A1"), ("PWR-021", "new-1")
    }  # fmt: skip


def test_bad_targets() -> None:
    site = load_site(EXAMPLES / "small-ready.yaml")
    base = audit(site, RULES)
    with pytest.raises(HeadroomError, match="exactly one target"):
        headroom(site, RULES, base, "gb300-r1")
    with pytest.raises(HeadroomError, match="unknown loop 'TCS-9'"):
        headroom(site, RULES, base, "gb300-r1", loop="TCS-9")
    with pytest.raises(HeadroomError, match="unknown rack type 'nope'"):
        headroom(site, RULES, base, "nope", loop="TCS-1")


def test_cli_headroom() -> None:
    runner = CliRunner()
    text = runner.invoke(
        app,
        [
            "headroom",
            str(EXAMPLES / "small-ready.yaml"),
            "--rack-type",
            "gb300-r1",
            "--loop",
            "TCS-1",
        ],
    )
    assert text.exit_code == 0, text.output
    assert "more racks that fit: 1" in text.output and "AIR-002" in text.output
    data = json.loads(
        runner.invoke(
            app,
            [
                "headroom",
                str(EXAMPLES / "small-ready.yaml"),
                "--rack-type",
                "gb300-r1",
                "--zone",
                "Z-R1",
                "-f",
                "json",
            ],
        ).output
    )
    assert data["overall"]["racks"] == 1
    bad = runner.invoke(
        app, ["headroom", str(EXAMPLES / "small-ready.yaml"), "--rack-type", "gb300-r1"]
    )
    assert bad.exit_code == 2 and "exactly one target" in bad.output
