"""A passive rack (``passive: true``: patch panels, no powered equipment) is a known zero load:
its power-side checks do not apply, it adds no heat, and its mass is still judged."""

from __future__ import annotations

from facility.check import run_check
from facility.engine.rules import load_rules

from ._site import load, one_problem

SITE = """\
site: {name: T}
rooms: [{id: hall, name: Hall}]
floor_zones:
  - {id: z1, room: hall, construction: slab, uniform_load_rating: 12 kPa}
rack_types:
  - id: patch-panels
    passive: true
    empty_mass: 250 kg
    footprint: {width: 600 mm, depth: 1200 mm}
racks:
  - {id: P01, type: patch-panels, zone: z1}
"""


def test_a_passive_rack_gets_no_power_check_and_no_heat_but_its_mass_is_judged(tmp_path):
    site = load(tmp_path, SITE)
    result = run_check(site, load_rules(profile="tier-iii"), generated_at=None).result
    rules = {f.rule for f in result.findings if f.entity_id == "P01"}
    assert not rules & {"PWR-001", "PWR-004", "PWR-009"}  # not a power load: no power side due
    assert "FLR-001" in rules  # 250 kg on 0.72 m² = 3.4 kPa: judged, not left out
    floor = next(f for f in result.findings if f.rule == "FLR-001" and f.entity_id == "P01")
    # 250 kg · 9.80665 m/s² / (0.6 m · 1.2 m) = 3,405 Pa
    assert floor.status == "pass" and abs(floor.observed.value - 3405.0) < 1.0
    heat = [f for f in result.findings if f.rule == "AIR-004" and f.entity_id == "P01"]
    assert [f.status for f in heat] == ["pass"] and heat[0].observed.value == 0.0  # no heat at all


def test_power_figures_on_a_passive_rack_are_a_contradiction_at_their_line(tmp_path):
    text = SITE.replace("    passive: true\n", "    passive: true\n    peak_power: 2 kW\n")
    line, _, field, message = one_problem(tmp_path, text)
    assert (line, field) == (6, "rack_types[0]")  # the block whose figures contradict
    assert message == "peak_power is given for a passive rack (passive: true)"


def test_a_passive_rack_is_no_load_left_without_a_power_side(tmp_path):
    checked = run_check(load(tmp_path, SITE), load_rules(profile="tier-iii"), generated_at=None)
    assert checked.result.account is not None
    power = checked.result.account.power
    # 0 W known, so nothing is "on no power side" (a rack with a load and no PDU would be)
    assert power.total == 0.0 and power.unknown == 0 and power.nowhere == {}
