"""Each kind of entity loads from a small fragment into canonical magnitudes (SI, °C, K, 0..1)."""

from __future__ import annotations

import pytest

from facility.model.load import IMPLICIT_ROOM
from facility.model.source import Location

from ._site import load

EXACT = 1e-12


def test_minimal_site(tmp_path):
    site = load(tmp_path, "site: {name: Minimal}\n")
    assert site.info.name == "Minimal"
    assert site.conventions.continuous_load_derating == 0.8  # NEC default
    assert list(site.rooms) == [IMPLICIT_ROOM]  # one implicit room named after the site
    assert site.rooms[IMPLICIT_ROOM].name == "Minimal"
    assert site.summary() == {
        "rooms": 1,
        "floor_zones": 0,
        "rack_types": 0,
        "racks": 0,
        "pdus": 0,
        "power_sources": 0,
        "distribution": 0,
        "facility_water": 0,
        "cdus": 0,
        "tcs_loops": 0,
        "air_units": 0,
    }
    assert len(site.sha256) == 64


def test_site_info_and_conventions(tmp_path):
    site = load(
        tmp_path,
        """\
        schema_version: 1
        site: {name: S, location: Somewhere, design_intent: Tier IV, notes: free text}
        conventions: {continuous_load_derating: 100 %}
        """,
    )
    assert (site.info.location, site.info.design_intent, site.info.notes) == (
        "Somewhere",
        "Tier IV",
        "free text",
    )
    assert site.conventions.continuous_load_derating == 1.0


def test_rooms_and_floor_zones(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        rooms:
          - {id: R1, name: Room one, redundant_air_units: 1}
        floor_zones:
          - id: Z1
            room: R1
            construction: raised_floor
            uniform_load_rating: 12 kPa
            concentrated_load_rating: 4.45 kN
            rolling_load_rating: 1000 lbf
            area: 80 m**2
        """,
    )
    assert site.rooms["R1"].redundant_air_units == 1
    zone = site.zones["Z1"]
    assert zone.construction == "raised_floor"
    assert zone.uniform_load_rating == 12_000.0
    assert zone.concentrated_load_rating == 4450.0
    # 1000 lbf = 1000 · 0.45359237 · 9.80665 = 4,448.2216152605 N
    assert zone.rolling_load_rating == pytest.approx(4448.2216152605, rel=EXACT)
    assert zone.area == 80.0
    assert site.where("floor_zone", "Z1") == Location(str(tmp_path / "site.yaml"), 5, 5)


RACK_TYPE = """\
site: {name: S}
rack_types:
  - id: T1
    name: Test rack
    description: a rack for tests
    cooling: liquid
    nominal_power: 100 kW
    peak_power: 110 kW
    power_factor: 0.95
    filled_mass: 1400 kg
    empty_mass: 1300 kg
    coolant_volume: 40 L
    max_payload: 1400 kg
    footprint: {width: 600 mm, depth: 1200 mm}
    height: 2286 mm
    casters: 4
    liquid_heat_fraction: 85 %
    allowed_supply_temperature: {min: 20 degC, max: 45 degC}
    design_coolant_rise: 10 K
    flow_table:
      - {supply_temperature: 30 degC, flow: 100 L/min, pressure_drop: 0.5 bar}
      - {supply_temperature: 40 degC, flow: 150 L/min}
    design_flow: 150 L/min
    pressure_drop: 1 bar
    power_inputs_per_side: 2
"""


def test_rack_type_with_every_figure(tmp_path):
    site = load(tmp_path, RACK_TYPE)
    rack_type = site.rack_types["T1"]
    f = rack_type.figures
    assert rack_type.is_liquid
    assert (f.name, f.cooling) == ("Test rack", "liquid")
    assert (f.nominal_power, f.peak_power, f.power_factor) == (100_000.0, 110_000.0, 0.95)
    assert (f.filled_mass, f.empty_mass, f.max_payload) == (1400.0, 1300.0, 1400.0)
    assert f.coolant_volume == pytest.approx(0.04, rel=EXACT)  # 40 L = 0.04 m³
    assert (f.footprint.width, f.footprint.depth, f.height) == (0.6, 1.2, 2.286)
    assert f.casters == 4
    assert f.liquid_heat_fraction == 0.85
    assert (f.allowed_supply_temperature.min, f.allowed_supply_temperature.max) == (20.0, 45.0)
    assert f.design_coolant_rise == 10.0
    # 100 L/min = 0.1 m³ / 60 s = 0.0016667 m³/s; 150 L/min = 0.0025 m³/s
    assert [p.flow for p in f.flow_table] == pytest.approx([0.1 / 60, 0.0025], rel=EXACT)
    assert [p.pressure_drop for p in f.flow_table] == [50_000.0, None]
    assert f.design_flow == pytest.approx(0.0025, rel=EXACT)
    assert f.pressure_drop == 100_000.0
    assert f.power_inputs_per_side == 2
    # every figure set in the file is the site's, with where it was written
    assert all(p.origin == "site" for p in rack_type.provenance.values())
    assert rack_type.provenance["nominal_power"].location.line == 7
    assert rack_type.location.line == 3


def test_air_cooled_rack_type_is_not_liquid(tmp_path):
    site = load(
        tmp_path, "site: {name: S}\nrack_types: [{id: T, cooling: air, nominal_power: 20 kW}]\n"
    )
    assert not site.rack_types["T"].is_liquid


def test_single_rack(tmp_path):
    site = load(
        tmp_path,
        RACK_TYPE
        + """\
floor_zones: [{id: Z1, construction: slab}]
cooling:
  cdus: [{id: C1}]
  tcs_loops: [{id: L1, coolant: {fluid: water}, cdus: [C1]}]
power:
  pdu_types: [{id: P1, voltage: 415 V, phases: 3, breaker_rating: 63 A}]
racks:
  - {id: X01, type: T1, zone: Z1, loop: L1, row: A, position: 7,
     pdus: {A: {type: P1, count: 2}, B: {type: P1, count: 2}}}
""",
    )
    [rack] = site.racks
    assert (rack.id, rack.zone, rack.loop, rack.row, rack.position) == (
        "X01",
        "Z1",
        "L1",
        "A",
        7,
    )
    assert rack.room == IMPLICIT_ROOM
    assert rack.type is site.rack_types["T1"]
    assert [p.id for p in rack.pdus["A"]] == ["X01-A1", "X01-A2"]
    assert [p.id for p in rack.pdus["B"]] == ["X01-B1", "X01-B2"]
    assert site.topology.racks_by_loop["L1"] == [rack]
    assert site.where("rack", "X01").line == 33


def test_power_chain(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        conventions: {continuous_load_derating: 80 %}
        rack_types: [{id: T}]
        power:
          sources:
            - {id: UTIL, kind: utility, capacity: 2 MVA}
            - id: UPS-A
              kind: ups
              capacity: 1000 kVA
              power_factor: 1.0
              side: A
              modules: {installed: 5, required: 4, capacity: 250 kVA}
          distribution:
            - {id: BW-A, kind: busway, fed_by: UPS-A, voltage: 415 V, phases: 3,
               rating: 800 A, derating: 100 %, side: A}
            - {id: RPP-A, kind: rpp, fed_by: BW-A, voltage: 415 V, phases: 3, rating: 250 A}
          pdu_types:
            - {id: P1, name: PDU, voltage: 415 V, phases: 3, breaker_rating: 63 A}
            - {id: P2, voltage: 230 V, phases: 1, breaker_rating: 32 A, derating: 90 %}
        racks:
          - {id: X, type: T, pdus: {A: {type: P1, fed_by: RPP-A}, B: {type: P2, fed_by: UTIL}}}
        """,
    )
    assert site.sources["UTIL"].capacity == 2_000_000.0
    ups = site.sources["UPS-A"]
    assert (ups.kind, ups.capacity, ups.power_factor, ups.side) == ("ups", 1e6, 1.0, "A")
    assert (ups.modules.installed, ups.modules.required, ups.modules.capacity) == (5, 4, 250e3)
    busway = site.distribution["BW-A"]
    assert (busway.voltage, busway.phases, busway.rating, busway.derating) == (415.0, 3, 800.0, 1.0)
    assert site.distribution["RPP-A"].fed_by == "BW-A"
    a1, b1 = site.pdus["X-A1"], site.pdus["X-B1"]
    assert (a1.rack, a1.side, a1.type_id, a1.fed_by) == ("X", "A", "P1", "RPP-A")
    assert (a1.figures.voltage, a1.figures.phases, a1.figures.breaker_rating) == (415.0, 3, 63.0)
    assert a1.derating == 0.8  # the site convention
    assert b1.derating == 0.9  # the PDU type's own
    assert b1.fed_by == "UTIL"


def test_cooling(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        rooms: [{id: R1, redundant_air_units: 1}]
        cooling:
          facility_water:
            - {id: FW, ashrae_class: W32, supply_temperature: 32 degC, primary_rise: 8 K,
               available_flow: 3500 L/min, differential_pressure: 1 bar}
          cdus:
            - {id: C1, name: CDU one, facility_water: FW, capacity: 600 kW, rated_approach: 4 K,
               approach: 5 K, rated_flow: 900 L/min, available_head: 2 bar,
               pumps: {installed: 2, required: 1}, primary_pressure_drop: 0.6 bar, max_racks: 6}
            - {id: C2, facility_water: FW, capacity: 600 kW, rated_approach: 4 K}
          tcs_loops:
            - {id: L1, room: R1, coolant: {fluid: propylene_glycol, volume_fraction: 25 %},
               cdus: [C1, C2], supply_setpoint: 36 degC, piping_pressure_drop: 0.3 bar}
          air_units:
            - {id: CRAH-X, room: R1, sensible_capacity: 100 kW}
        """,
    )
    water = site.facility_water["FW"]
    assert (water.ashrae_class, water.supply_temperature, water.primary_rise) == ("W32", 32.0, 8.0)
    # 3500 L/min = 3.5 m³ / 60 s = 0.058333 m³/s
    assert water.available_flow == pytest.approx(3.5 / 60, rel=EXACT)
    assert water.differential_pressure == 100_000.0
    assert water.coolant.fluid == "water"
    c1 = site.cdus["C1"]
    assert c1.loop == "L1"
    assert c1.figures.capacity == 600_000.0
    assert c1.figures.rated_flow == pytest.approx(0.015, rel=EXACT)  # 900 L/min = 0.015 m³/s
    assert (c1.figures.available_head, c1.figures.primary_pressure_drop) == (200_000.0, 60_000.0)
    assert (c1.figures.pumps.installed, c1.figures.pumps.required) == (2, 1)
    assert c1.figures.max_racks == 6
    assert c1.approach == 5.0  # the site's approach wins over the rated one
    assert site.cdus["C2"].approach == 4.0  # rated approach when the site gives none
    loop = site.loops["L1"]
    assert loop.coolant.fluid == "propylene_glycol"
    assert loop.coolant.volume_fraction == 0.25
    assert (loop.supply_setpoint, loop.piping_pressure_drop) == (36.0, 30_000.0)
    assert site.coolant_of("L1") is loop.coolant
    crah = site.air_units["CRAH-X"]
    assert (crah.room, crah.sensible_capacity) == ("R1", 100_000.0)


def test_glycol_by_mass(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        cooling:
          cdus: [{id: C1}]
          tcs_loops:
            - {id: L1, coolant: {fluid: ethylene_glycol, mass_fraction: 30 %}, cdus: [C1]}
        """,
    )
    assert site.loops["L1"].coolant.mass_fraction == pytest.approx(0.3, rel=EXACT)


def test_implicit_room_is_given_to_loops_zones_and_air_units(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        floor_zones: [{id: Z, construction: slab}]
        rack_types: [{id: T}]
        cooling:
          cdus: [{id: C1}]
          tcs_loops: [{id: L1, coolant: {fluid: water}, cdus: [C1]}]
          air_units: [{id: A, sensible_capacity: 50 kW}]
        racks: [{id: X, type: T, zone: Z, loop: L1}]
        """,
    )
    assert site.air_units["A"].room == IMPLICIT_ROOM
    assert site.racks[0].room == IMPLICIT_ROOM
