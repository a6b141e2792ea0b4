"""Tests for facility.physics.heat_rejection.

Expected values are worked by hand in the comments. The dry cooler's derating follows the
ε-NTU law q = ε · C_min · (T_fluid,in − T_air,in) (Incropera et al., 7th ed., §11.4,
eq. 11.22): at fixed flows the capacity is proportional to the initial temperature difference
(ITD), so a unit rated at ITD_rated loses 1 / ITD_rated of its capacity per K.
"""

import doctest
import math

import pytest

from facility.physics import heat_rejection
from facility.physics.heat_rejection import (
    achievable_supply_temperature,
    capacity_at_ambient,
    flow_at_differential_pressure,
    plant_capacity,
)

EXACT = 1e-9
L_PER_MIN = 1 / 60_000  # m³/s


def test_doctests() -> None:
    assert doctest.testmod(heat_rejection).failed == 0


@pytest.mark.parametrize(
    ("ambient", "expected"),
    [
        # Rated 1,000 kW at 35 °C air, fluid entering at 45 °C: ITD 10 K, d = 1/10 K = 10 %/K.
        (30.0, 1_000e3),  # below the rating: the rating, no credit
        (35.0, 1_000e3),  # at the rating
        # 38 °C: 1,000 · (1 − 0.10 · 3) = 700 kW; = 1,000 · (45 − 38)/(45 − 35), the ITD ratio
        (38.0, 700e3),
        # 45 °C: 1,000 · (1 − 0.10 · 10) = 0: air as warm as the fluid rejects nothing
        (45.0, 0.0),
        (50.0, 0.0),  # never negative
    ],
)
def test_dry_cooler_capacity_falls_with_the_itd(ambient, expected) -> None:
    assert capacity_at_ambient(1_000e3, 35.0, ambient, 0.10) == pytest.approx(
        expected, rel=EXACT, abs=1e-6
    )


def test_capacity_at_ambient_matches_the_itd_ratio() -> None:
    # The same unit by the ε-NTU ratio, 1,000 kW · (45 − 40) / (45 − 35) = 500 kW, and by the
    # derating, 1,000 · (1 − 0.10 · 5) = 500 kW
    assert capacity_at_ambient(1_000e3, 35.0, 40.0, 0.10) == pytest.approx(500e3, rel=EXACT)


def test_chiller_derating_per_k() -> None:
    # An air-cooled chiller rated 1,200 kW at 35 °C (AHRI 550/590's 95 °F), losing 2 %/K, at
    # 40 °C: 1,200 · (1 − 0.02 · 5) = 1,080 kW
    assert capacity_at_ambient(1_200e3, 35.0, 40.0, 0.02) == pytest.approx(1_080e3, rel=EXACT)


def test_above_the_rating_without_a_derating_is_unknown() -> None:
    assert capacity_at_ambient(1_000e3, 35.0, 35.0, None) == 1_000e3  # at the rating: known
    with pytest.raises(ValueError, match="unknown"):
        capacity_at_ambient(1_000e3, 35.0, 35.1, None)


def test_plant_capacity_with_the_redundant_units_out() -> None:
    # 3 × 700 kW, N+1: (3 − 1) · 700 = 1,400 kW; N: 2,100 kW; all out: 0
    assert plant_capacity(700e3, 3, 1) == pytest.approx(1_400e3, rel=EXACT)
    assert plant_capacity(700e3, 3, 0) == pytest.approx(2_100e3, rel=EXACT)
    assert plant_capacity(700e3, 1, 1) == 0.0
    assert plant_capacity(700e3, 0, 0) == 0.0  # a failure took the only unit


def test_achievable_supply() -> None:
    # tower: 26 °C wet bulb + 4 K = 30 °C; dry cooler: 38 °C dry bulb + 6 K = 44 °C
    assert achievable_supply_temperature(26.0, 4.0) == pytest.approx(30.0, rel=EXACT)
    assert achievable_supply_temperature(38.0, 6.0) == pytest.approx(44.0, rel=EXACT)
    with pytest.raises(ValueError):
        achievable_supply_temperature(26.0, 0.0)


@pytest.mark.parametrize(
    ("available", "expected"),
    [
        # 1,500 L/min at 0.7 bar; 0.5 bar available: 1,500 · √(0.5/0.7) = 1,500 · 0.845154
        # = 1,267.73 L/min
        (0.5e5, 1_267.7313820927748),
        # 0.175 bar = a quarter of the rated drop: √0.25 = 0.5 → 750 L/min
        (0.175e5, 750.0),
        (0.7e5, 1_500.0),  # at the rated drop: the rated flow
        (1.0e5, 1_500.0),  # more pressure: no credit above the rated flow
        (0.0, 0.0),
    ],
)
def test_primary_flow_scales_with_the_root_of_the_differential_pressure(
    available, expected
) -> None:
    flow = flow_at_differential_pressure(1_500 * L_PER_MIN, 0.7e5, available)
    assert flow / L_PER_MIN == pytest.approx(expected, rel=EXACT, abs=1e-9)


def test_bad_inputs_are_refused() -> None:
    for args in ((0.0, 35.0, 38.0, 0.1), (1e6, math.nan, 38.0, 0.1), (1e6, 35.0, 38.0, -0.1)):
        with pytest.raises(ValueError):
            capacity_at_ambient(*args)
    with pytest.raises(ValueError):
        flow_at_differential_pressure(1.0, 0.0, 1.0)
    with pytest.raises(ValueError):
        plant_capacity(1.0, -1, 0)
