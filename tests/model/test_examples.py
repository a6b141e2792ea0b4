"""The bundled examples load; the US-units twin of Hall B3 loads to the same magnitudes; and
the small ready site passes, by hand, every check of the Hall B3 table.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from facility.model.load import load_site
from facility.model.source import Location

EXAMPLES = Path(__file__).parents[2] / "examples"
G = 9.80665  # m/s², standard gravity (3rd CGPM, 1901)


@pytest.fixture(scope="module")
def b3():
    return load_site(EXAMPLES / "hall-b3.yaml")


@pytest.fixture(scope="module")
def b3_us():
    return load_site(EXAMPLES / "hall-b3-us.yaml")


@pytest.fixture(scope="module")
def small():
    return load_site(EXAMPLES / "small-ready.yaml")


@pytest.mark.parametrize(
    "name",
    [
        "hall-b3.yaml",
        "hall-b3-us.yaml",
        "small-ready.yaml",
        "hall-b3-cluster.yaml",
        "hall-b3-power.yaml",
        "pod-ride-through.yaml",
    ],
)
def test_example_loads(name):
    site = load_site(EXAMPLES / name)
    assert site.racks
    assert site.file == str(EXAMPLES / name)


def test_every_yaml_in_examples_is_tested():
    assert {p.name for p in EXAMPLES.glob("*.yaml")} == {
        "hall-b3.yaml",
        "hall-b3-us.yaml",
        "small-ready.yaml",
        "hall-b3-cluster.yaml",  # tests/engine/test_cluster_example.py
        "hall-b3-power.yaml",  # tests/engine/test_power_account.py
        "pod-ride-through.yaml",  # tests/engine/test_ride_through.py
    }


# --- Hall B3 as the scenario states it ----------------------------------------------------


def test_hall_b3_equipment(b3):
    assert b3.summary() == {
        "rooms": 1,
        "floor_zones": 2,
        "rack_types": 2,
        "racks": 20,
        "pdus": 88,
        "power_sources": 0,
        "distribution": 0,
        "facility_water": 1,
        "cdus": 3,
        "tcs_loops": 2,
        "air_units": 3,
        "heat_rejection": 1,  # CT-1, three towers
    }
    a = b3.rack_types["gb300-b3"].figures
    assert (a.nominal_power, a.peak_power, a.power_factor) == (135e3, 155e3, 0.95)
    assert (a.liquid_heat_fraction, a.design_coolant_rise, a.pressure_drop) == (0.9, 10.0, 127e3)
    assert (a.filled_mass, a.footprint.width, a.footprint.depth, a.casters) == (1500, 0.6, 1.2, 4)
    assert (a.flow_table, a.design_flow) == (None, None)
    b = b3.rack_types["atlas-b3"].figures
    assert (b.nominal_power, b.peak_power, b.liquid_heat_fraction) == (32e3, 38e3, 0.85)
    assert (b.allowed_supply_temperature.min, b.allowed_supply_temperature.max) == (18.0, 40.0)
    cdu = b3.cdus["CDU-A1"]
    assert (cdu.figures.capacity, cdu.approach, cdu.figures.available_head) == (1.35e6, 4.0, 2.5e5)
    assert cdu.figures.rated_flow == pytest.approx(0.02, rel=1e-12)  # 1,200 L/min
    assert (cdu.figures.pumps.installed, cdu.figures.pumps.required) == (3, 2)
    assert b3.loops["TCS-A"].cdus == ["CDU-A1", "CDU-A2"]
    assert b3.loops["TCS-A"].coolant.volume_fraction == 0.25
    assert b3.facility_water["FW-1"].available_flow == pytest.approx(3500 / 60_000, rel=1e-12)
    assert b3.zones["Z-B"].concentrated_load_rating == 4450.0
    assert b3.rooms["B3"].redundant_air_units == 1


# --- the US-units twin ----------------------------------------------------------------------


def plain(value: Any) -> Any:
    """An entity as nested plain data; positions are dropped (the twins differ in layout)."""
    if isinstance(value, Location):
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name != "location"
        }
    if isinstance(value, BaseModel):
        return plain(value.model_dump())
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def assert_same(si: Any, us: Any, where: str = "") -> None:
    """Equal structure and text; floats equal to a relative 1e-6."""
    if isinstance(si, float) or isinstance(us, float):
        assert isinstance(si, int | float) and isinstance(us, int | float), where
        assert math.isclose(si, us, rel_tol=1e-6, abs_tol=1e-12), f"{where}: {si} vs {us}"
    elif isinstance(si, dict):
        assert isinstance(us, dict), where
        assert si.keys() == us.keys(), where
        for key in si:
            assert_same(si[key], us[key], f"{where}.{key}")
    elif isinstance(si, list):
        assert isinstance(us, list) and len(si) == len(us), where
        for i, (a, b) in enumerate(zip(si, us, strict=True)):
            assert_same(a, b, f"{where}[{i}]")
    else:
        assert si == us, f"{where}: {si!r} vs {us!r}"


COLLECTIONS = [
    "rooms",
    "zones",
    "rack_types",
    "racks",
    "pdus",
    "sources",
    "distribution",
    "facility_water",
    "cdus",
    "loops",
    "air_units",
]


@pytest.mark.parametrize("collection", COLLECTIONS)
def test_us_units_twin_loads_to_the_same_magnitudes(b3, b3_us, collection):
    si, us = getattr(b3, collection), getattr(b3_us, collection)
    if collection not in ("sources", "distribution"):  # Hall B3 stops at the rack PDUs
        assert si, f"Hall B3 has no {collection}"
    assert_same(plain(si), plain(us), collection)


def test_us_units_twin_has_the_same_conventions_and_info(b3, b3_us):
    assert_same(plain(b3.conventions), plain(b3_us.conventions))
    assert_same(plain(b3.info), plain(b3_us.info))


def test_us_units_twin_really_is_written_in_us_units():
    text = (EXAMPLES / "hall-b3-us.yaml").read_text(encoding="utf-8")
    body = "\n".join(line.split("#")[0] for line in text.splitlines())
    for unit in ("BTU/h", " lb", " psi", " gpm", " degF", " delta_degF", " psf", " lbf", " in"):
        assert unit in body, unit
    for si_unit in (" kW", " kg", " bar", " L/min", " degC", " kPa", " kN", " mm", " m**2", " K\n"):
        assert si_unit not in body, si_unit


def test_twins_differ_only_in_layout_not_in_provenance(b3, b3_us):
    for type_id, rack_type in b3.rack_types.items():
        twin = b3_us.rack_types[type_id]
        assert {n: p.origin for n, p in rack_type.provenance.items()} == {
            n: p.origin for n, p in twin.provenance.items()
        }


# --- the small ready site, checked by hand -----------------------------------------------


def test_small_ready_site_passes_every_check_of_the_hall_b3_table(small):
    """Each check of the scenario table, in plain arithmetic on the loaded figures."""
    [rack_type] = small.rack_types.values()
    f = rack_type.figures
    racks = small.racks
    assert len(racks) == 4

    # 2N at peak: one side of 5 PDUs carries the rack.
    # PDU: √3 · 415 · 63 · 0.8 = 36,227.6 VA; side 5 · 36,227.6 = 181,137.9 VA
    # rack: 155,000 / 0.95 = 163,157.9 VA
    rack_va = f.peak_power / f.power_factor
    assert rack_va == pytest.approx(163_157.9, rel=1e-6)
    for rack in racks:
        assert set(rack.pdus) == {"A", "B"}
        for side in rack.pdus.values():
            capacities = [
                math.sqrt(3) * p.figures.voltage * p.figures.breaker_rating * p.derating
                for p in side
            ]
            assert capacities[0] == pytest.approx(36_227.57, rel=1e-6)
            assert sum(capacities) == pytest.approx(181_137.87, rel=1e-6)
            assert sum(capacities) >= rack_va * 1.10  # ≥ 10 % margin
            # each PDU after the other side is lost: 163.2 / 5 = 32.6 kVA ≤ 36.2 kVA
            assert rack_va / len(side) <= min(capacities)
            # each PDU in normal operation: 163.2 / 10 = 16.3 kVA ≤ 36.2 kVA
            assert rack_va / 10 <= min(capacities)

    # CDU heat with the largest CDU out (N+1): 4 · 135 · 0.9 = 486 kW ≤ 1,350 kW
    [loop] = small.loops.values()
    heat = sum(r.type.figures.nominal_power * r.type.figures.liquid_heat_fraction for r in racks)
    assert heat == pytest.approx(486_000.0, rel=1e-12)
    cdus = [small.cdus[c] for c in loop.cdus]
    assert len(cdus) == 2
    largest_out = sorted(c.figures.capacity for c in cdus)[:-1]
    assert sum(largest_out) >= heat
    # CDU flow with the largest CDU out: PG25 at 41 °C mean, interpolated between the 35 °C
    # and 45 °C rows of Melinder (2010), docs/references.md#melinder-2010: ρ = 1012.5 − 0.6 · 5.3 = 1009.32 kg/m³,
    # cp = 3957 + 0.6 · 24 = 3971.4 J/(kg·K); 486,000 / (1009.32 · 3971.4 · 10) = 0.012125 m³/s
    # = 727.5 L/min; allow 3 % for the volume → mass fraction (25 vol % ≈ 25.9 mass %).
    assert loop.coolant.fluid == "propylene_glycol"
    flow = heat / (1009.32 * 3971.4 * f.design_coolant_rise)
    assert flow * 60_000 == pytest.approx(727.5, rel=1e-3)
    surviving_flow = sorted(c.figures.rated_flow for c in cdus)[:-1]
    assert sum(surviving_flow) >= flow * 1.03
    # TCS supply: 32 °C + 4 K = 36 °C within 20–45 °C. Two like facility water loops, one per
    # CDU (FW-1 for CDU-1, FW-2 for CDU-2): either can be lost.
    water_loops = small.facility_water
    assert sorted(water_loops) == ["FW-1", "FW-2"]
    water = water_loops["FW-1"]
    for other in water_loops.values():
        assert (other.supply_temperature, other.primary_rise, other.available_flow) == (
            water.supply_temperature, water.primary_rise, water.available_flow
        )  # fmt: skip
    for cdu in cdus:
        supply = water.supply_temperature + cdu.approach
        assert f.allowed_supply_temperature.min <= supply <= f.allowed_supply_temperature.max
    # Pump head: 1.27 + 0.40 = 1.67 bar ≤ 2.5 bar
    for cdu in cdus:
        assert f.pressure_drop + loop.piping_pressure_drop <= cdu.figures.available_head
        # Pump redundancy: installed ≥ required + 1
        assert cdu.figures.pumps.installed >= cdu.figures.pumps.required + 1
        # Facility water differential pressure: 1.0 bar ≥ 0.7 bar
        assert water.differential_pressure >= cdu.figures.primary_pressure_drop
    assert [c.spec.facility_water for c in cdus] == ["FW-1", "FW-2"]
    # Facility water flow, with the other water loop lost (the whole 486 kW on one): water at
    # ≈36 °C, ρ 994.0, cp 4179: 486,000 / (994.0 · 4179 · 8) = 0.014625 m³/s = 877.5 L/min
    # ≤ 1,500 L/min (in normal operation each carries half: 438.8 L/min)
    primary = heat / (994.0 * 4179.0 * water.primary_rise)
    assert primary * 60_000 == pytest.approx(877.5, rel=1e-3)
    assert water.available_flow >= primary * 1.5

    # Residual air heat with one air unit out: 4 · 135 · 0.1 = 54 kW ≤ (2 − 1) · 70 kW
    air_heat = sum(
        r.type.figures.nominal_power * (1 - r.type.figures.liquid_heat_fraction) for r in racks
    )
    assert air_heat == pytest.approx(54_000.0, rel=1e-9)
    [room] = small.rooms.values()
    units = sorted(u.sensible_capacity for u in small.air_units.values() if u.room == room.id)
    assert room.redundant_air_units == 1
    assert sum(units[: len(units) - room.redundant_air_units]) >= air_heat

    # Floor: uniform 1,500 · 9.80665 / 0.72 = 20,430.5 Pa ≤ 25 kPa; caster 3,677.5 N ≤ 11.1 kN;
    # moving (½ rack on one caster) 7,355.0 N ≤ 8.9 kN; zone 4 · 1,500 · 9.80665 / 40 = 1,471.0 Pa
    [zone] = small.zones.values()
    area = f.footprint.width * f.footprint.depth
    assert f.filled_mass * G / area == pytest.approx(20_430.52, rel=1e-6)
    assert f.filled_mass * G / area <= zone.uniform_load_rating
    assert f.filled_mass * G / f.casters <= zone.concentrated_load_rating
    assert f.filled_mass * G / 2 <= zone.rolling_load_rating
    assert len(racks) * f.filled_mass * G / zone.area <= zone.uniform_load_rating
    assert all(r.zone == zone.id for r in racks)
