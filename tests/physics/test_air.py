"""Tests for facility.physics.air.

Expected values are worked by hand in the comments. Tolerances: rel 1e-9 (``EXACT``) against
exact hand values; half a unit of the last published digit against rounded published figures
(Hall B3 scenario; air properties from ASHRAE Fundamentals ch. 1,
docs/references.md#ashrae-fundamentals-ch1).
"""

import doctest
import math

import pytest

from facility.physics import air
from facility.physics.air import (
    AIR_DENSITY,
    AIR_SPECIFIC_HEAT,
    required_airflow,
    residual_air_heat,
)

EXACT = 1e-9  # relative tolerance: float round-off only


def test_air_constants_match_domain_reference():
    # ASHRAE Fundamentals ch. 1: ρ_air ≈ 1.2 kg/m³, cp_air ≈ 1.006 kJ/(kg·K)
    assert pytest.approx(1.2, rel=EXACT) == AIR_DENSITY
    assert pytest.approx(1006.0, rel=EXACT) == AIR_SPECIFIC_HEAT


# --- residual_air_heat --------------------------------------------------------------------


def test_residual_air_heat_hall_b3_row_a_rack():
    # 135,000 W · (1 − 0.90) = 135,000 · 0.10 = 13,500 W
    assert residual_air_heat(135e3, 0.90) == pytest.approx(13_500.0, rel=EXACT)


def test_residual_air_heat_hall_b3_room_total():
    # Hall B3: 8 · 135 kW · 0.10 + 12 · 32 kW · 0.15 = 108 + 57.6 = 165.6 kW
    row_a = 8 * residual_air_heat(135e3, 0.90)
    row_b = 12 * residual_air_heat(32e3, 0.85)
    assert row_a == pytest.approx(108e3, rel=EXACT)
    assert row_b == pytest.approx(57.6e3, rel=EXACT)
    assert row_a + row_b == pytest.approx(165.6e3, rel=EXACT)


@pytest.mark.parametrize(
    ("liquid_fraction", "expected"),
    [
        (0.0, 32_000.0),  # air-cooled: 32,000 · (1 − 0) = 32,000 W
        (1.0, 0.0),  # fully liquid: 32,000 · (1 − 1) = 0 W
    ],
)
def test_residual_air_heat_at_fraction_bounds(liquid_fraction, expected):
    assert residual_air_heat(32e3, liquid_fraction) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("liquid_fraction", [-0.1, 1.1, 90.0, math.nan])
def test_residual_air_heat_rejects_fraction_outside_0_1(liquid_fraction):
    with pytest.raises(ValueError, match="liquid_fraction"):
        residual_air_heat(135e3, liquid_fraction)


def test_residual_air_heat_rejects_negative_heat():
    with pytest.raises(ValueError, match="heat"):
        residual_air_heat(-1.0, 0.9)


# --- required_airflow ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("air_temperature_rise", "exact", "published"),
    [
        # 1,000 W / (1.2 · 1006 · ΔT):
        (10.0, 0.082836, 0.083),  # 1,000 / 12,072.0 = 0.082836 m³/s (published: 0.083)
        (12.0, 0.069030, 0.069),  # 1,000 / 14,486.4 = 0.069030 m³/s (published: 0.069)
        (15.0, 0.055224, 0.055),  # 1,000 / 18,108.0 = 0.055224 m³/s (published: 0.055)
    ],
)
def test_required_airflow_per_kilowatt_matches_domain_table(air_temperature_rise, exact, published):
    airflow = required_airflow(1e3, air_temperature_rise)
    # hand value to 5 significant figures (rel 1e-4); published to 0.001 m³/s (±0.0005)
    assert airflow == pytest.approx(exact, rel=1e-4)
    assert airflow == pytest.approx(published, abs=0.0005)


def test_required_airflow_per_kilowatt_in_cfm():
    # The published rule of thumb: 176 CFM per kW at 10 K. 0.082836 m³/s / 0.00047194745 m³/s per CFM
    # (1 ft³/min = 0.3048³ m³ / 60 s) = 175.5 CFM ≈ 176 (±0.5 CFM)
    cubic_foot_per_minute = 0.3048**3 / 60.0
    assert required_airflow(1e3, 10.0) / cubic_foot_per_minute == pytest.approx(176.0, abs=0.5)


def test_required_airflow_hall_b3_residual_heat():
    # Hall B3 residual 165.6 kW at a 10 K rise: 165,600 / (1.2 · 1006 · 10) = 165,600 / 12,072
    #   = 13.7177 m³/s (rel 1e-5)
    assert required_airflow(165.6e3, 10.0) == pytest.approx(13.7177, rel=1e-5)


def test_required_airflow_with_explicit_properties():
    # thinner air: 10,000 W / (1.0 · 1000 · 10) = 1.0 m³/s
    assert required_airflow(10e3, 10.0, density=1.0, specific_heat=1000.0) == pytest.approx(
        1.0, rel=EXACT
    )


def test_required_airflow_zero_heat_needs_no_air():
    # 0 / (1.2 · 1006 · 10) = 0
    assert required_airflow(0.0, 10.0) == 0.0


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"heat": 1e3, "air_temperature_rise": 0.0}, "air_temperature_rise"),
        ({"heat": 1e3, "air_temperature_rise": -10.0}, "air_temperature_rise"),
        ({"heat": -1e3, "air_temperature_rise": 10.0}, "heat"),
        ({"heat": 1e3, "air_temperature_rise": 10.0, "density": 0.0}, "density"),
        ({"heat": 1e3, "air_temperature_rise": 10.0, "specific_heat": -1.0}, "specific_heat"),
    ],
)
def test_required_airflow_rejects_bad_inputs(kwargs, name):
    with pytest.raises(ValueError, match=name):
        required_airflow(**kwargs)


def test_docstring_examples_hold():
    # the Examples sections of the docstrings are worked figures too; keep them true
    result = doctest.testmod(air, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
