"""Tests for facility.physics.structural.

Expected values are worked by hand in the comments with g_n = 9.80665 m/s². Tolerances:
rel 1e-9 (``EXACT``) against exact hand values; half a unit of the last published digit
against rounded published figures (the Hall B3 floor scenario,
docs/references.md#ibm-floor-loading).
"""

import doctest
import math

import pytest

from facility.physics import structural
from facility.physics.structural import (
    STANDARD_GRAVITY,
    caster_load,
    filled_mass,
    footprint_pressure,
    rolling_caster_load,
    weight,
    zone_aggregate_pressure,
)

EXACT = 1e-9  # relative tolerance: float round-off only


def test_standard_gravity_is_the_cgpm_value():
    # 3rd CGPM (1901): g_n = 9.80665 m/s² exactly
    assert STANDARD_GRAVITY == 9.80665


# --- filled_mass --------------------------------------------------------------------------


def test_filled_mass_adds_coolant():
    # 1,300 kg + 0.040 m³ · 1,019.3 kg/m³ (PG25 at 20 °C, Melinder 2010)
    #   = 1,300 + 40.772 = 1,340.772 kg
    assert filled_mass(1300.0, 0.040, 1019.3) == pytest.approx(1340.772, rel=EXACT)


def test_filled_mass_without_coolant_is_empty_mass():
    # 1,100 + 0 · 998.5 = 1,100 kg
    assert filled_mass(1100.0, 0.0, 998.5) == pytest.approx(1100.0, rel=EXACT)


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((0.0, 0.04, 1000.0), "empty_mass"),
        ((1300.0, -0.04, 1000.0), "coolant_volume"),
        ((1300.0, 0.04, 0.0), "coolant_density"),
    ],
)
def test_filled_mass_rejects_bad_inputs(args, name):
    with pytest.raises(ValueError, match=name):
        filled_mass(*args)


# --- weight -------------------------------------------------------------------------------


def test_weight_hall_b3_row_b_rack():
    # 1,100 kg · 9.80665 m/s² = 10,787.315 N
    assert weight(1100.0) == pytest.approx(10_787.315, rel=EXACT)


def test_weight_rejects_negative_mass():
    with pytest.raises(ValueError, match="mass"):
        weight(-1.0)


# --- footprint_pressure -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mass", "exact_pa", "published_kpa"),
    [
        # Hall B3 row B: 1,100 · 9.80665 / (0.6 · 1.2) = 10,787.315 / 0.72 = 14,982.38 Pa
        #   scenario: "1,100·9.807/0.72 = 15.0 kPa"
        (1100.0, 14_982.38, 15.0),
        # Hall B3 row A: 1,500 · 9.80665 / 0.72 = 14,709.975 / 0.72 = 20,430.52 Pa
        #   scenario: "1,500·9.807/0.72 = 20.4 kPa"
        (1500.0, 20_430.52, 20.4),
    ],
)
def test_footprint_pressure_hall_b3(mass, exact_pa, published_kpa):
    pressure = footprint_pressure(mass, 0.6, 1.2)
    assert pressure == pytest.approx(exact_pa, abs=0.005)  # hand value to 0.01 Pa
    assert pressure / 1e3 == pytest.approx(published_kpa, abs=0.05)  # published to 0.1 kPa


@pytest.mark.parametrize(
    ("mass", "width", "depth", "expected_kpa"),
    [
        # The Hall B3 floor scenario's worked loads, published to 0.1 kPa (tolerance ±0.05 kPa):
        # 1,360 · 9.80665 / (0.600 · 1.068) = 13,337.04 / 0.6408 = 20,813 Pa
        (1360.0, 0.600, 1.068, 20.8),
        # 1,500 · 9.80665 / 0.6408 = 14,709.98 / 0.6408 = 22,956 Pa
        (1500.0, 0.600, 1.068, 23.0),
        # 1,800 · 9.80665 / 0.6408 = 17,651.97 / 0.6408 = 27,547 Pa
        (1800.0, 0.600, 1.068, 27.5),
        # ORv3: 1,360 · 9.80665 / (0.600 · 1.098) = 13,337.04 / 0.6588 = 20,244 Pa
        (1360.0, 0.600, 1.098, 20.2),
        # 1,500 · 9.80665 / 0.6588 = 22,328 Pa
        (1500.0, 0.600, 1.098, 22.3),
        # 1,800 · 9.80665 / 0.6588 = 26,794 Pa
        (1800.0, 0.600, 1.098, 26.8),
    ],
)
def test_footprint_pressure_matches_domain_worked_loads(mass, width, depth, expected_kpa):
    # Note: the table's "0.600 × 1.219 m (HPR)" column (18.5 / 20.4 / 24.5 kPa) matches
    # 0.600 × 1.200 = 0.72 m², not 0.600 × 1.219 = 0.7314 m² (which gives 18.2 / 20.1 / 24.1);
    # it is left out here and reported as a discrepancy.
    assert footprint_pressure(mass, width, depth) / 1e3 == pytest.approx(expected_kpa, abs=0.05)


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((0.0, 0.6, 1.2), "mass"),
        ((1100.0, 0.0, 1.2), "width"),
        ((1100.0, 0.6, -1.2), "depth"),
        ((math.nan, 0.6, 1.2), "mass"),
    ],
)
def test_footprint_pressure_rejects_bad_inputs(args, name):
    with pytest.raises(ValueError, match=name):
        footprint_pressure(*args)


# --- caster_load --------------------------------------------------------------------------


def test_caster_load_hall_b3_row_b():
    # 1,100 · 9.80665 / 4 = 10,787.315 / 4 = 2,696.83 N ≈ 2.70 kN (scenario)
    load = caster_load(1100.0, 4)
    assert load == pytest.approx(2_696.83, abs=0.005)  # hand value to 0.01 N
    assert load / 1e3 == pytest.approx(2.70, abs=0.005)  # published to 0.01 kN


def test_caster_load_matches_domain_per_foot_column():
    # 1,360 kg on 4 feet -> 340 kg per foot, 3.3 kN:
    #   1,360 · 9.80665 / 4 = 13,337.04 / 4 = 3,334.26 N (±0.05 kN against 3.3 kN)
    assert caster_load(1360.0, 4) / 1e3 == pytest.approx(3.3, abs=0.05)


@pytest.mark.parametrize("casters", [0, -4, 2.5, True])
def test_caster_load_rejects_bad_caster_count(casters):
    with pytest.raises(ValueError, match="casters"):
        caster_load(1100.0, casters)


def test_caster_load_rejects_non_positive_mass():
    with pytest.raises(ValueError, match="mass"):
        caster_load(0.0, 4)


# --- rolling_caster_load ------------------------------------------------------------------

LBF = 4.4482216152605  # N per pound-force (exact: 0.45359237 kg · 9.80665 m/s²)


@pytest.mark.parametrize(
    ("mass", "lbf"),
    [
        # IBM's ½ of the rack per caster while moving, as tabulated for AI racks:
        # ½ · 1,360 · 9.80665 = 6,668.52 N = 1,499.1 lbf; ½ · 1,500 · 9.80665 = 7,354.99 N
        # = 1,653.5 lbf; ½ · 1,800 · 9.80665 = 8,825.99 N = 1,984.2 lbf (published to 1 lbf).
        (1360.0, 1499),
        (1500.0, 1653),
        (1800.0, 1984),
    ],
)
def test_rolling_caster_load_is_half_the_rack(mass, lbf):
    assert rolling_caster_load(mass) / LBF == pytest.approx(lbf, abs=1.0)


def test_rolling_caster_load_with_a_vendor_share():
    # ⅓ of 1,500 kg: 1,500 · 9.80665 / 3 = 4,903.325 N
    assert rolling_caster_load(1500.0, 1 / 3) == pytest.approx(4_903.325, abs=1e-3)


@pytest.mark.parametrize("share", [0.0, -0.5, 1.5, math.nan])
def test_rolling_caster_load_rejects_a_share_outside_0_to_1(share):
    with pytest.raises(ValueError, match="share"):
        rolling_caster_load(1500.0, share)


# --- zone_aggregate_pressure --------------------------------------------------------------


@pytest.mark.parametrize(
    ("total_mass", "area", "exact_pa", "published_kpa"),
    [
        # Z-A: 8 · 1,500 = 12,000 kg; 12,000 · 9.80665 / 60 = 117,679.8 / 60 = 1,961.33 Pa
        (12_000.0, 60.0, 1_961.33, 1.96),
        # Z-B: 12 · 1,100 = 13,200 kg; 13,200 · 9.80665 / 80 = 129,447.78 / 80 = 1,618.10 Pa
        (13_200.0, 80.0, 1_618.10, 1.62),
    ],
)
def test_zone_aggregate_pressure_hall_b3(total_mass, area, exact_pa, published_kpa):
    pressure = zone_aggregate_pressure(total_mass, area)
    assert pressure == pytest.approx(exact_pa, abs=0.005)  # hand value to 0.01 Pa
    assert pressure / 1e3 == pytest.approx(published_kpa, abs=0.005)  # published to 0.01 kPa


def test_zone_aggregate_pressure_empty_zone():
    # 0 kg · 9.80665 / 60 = 0 Pa
    assert zone_aggregate_pressure(0.0, 60.0) == 0.0


@pytest.mark.parametrize(
    ("args", "name"),
    [((-1.0, 60.0), "total_mass"), ((12_000.0, 0.0), "area"), ((12_000.0, math.inf), "area")],
)
def test_zone_aggregate_pressure_rejects_bad_inputs(args, name):
    with pytest.raises(ValueError, match=name):
        zone_aggregate_pressure(*args)


def test_docstring_examples_hold():
    # the Examples sections of the docstrings are worked figures too; keep them true
    result = doctest.testmod(structural, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
