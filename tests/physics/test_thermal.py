"""Tests for facility.physics.thermal.

Expected values are worked by hand in the comments. Tolerance: rel 1e-9 (``EXACT``), since every
hand value here is exact up to float round-off.
"""

import doctest
import math

import pytest

from facility.physics import thermal
from facility.physics.thermal import (
    W_CLASS_MAX_SUPPLY_TEMPERATURE,
    cdu_capacity_at_approach,
    return_temperature,
    tcs_supply_temperature,
    w_class_max_supply_temperature,
)

EXACT = 1e-9  # relative tolerance: float round-off only


# --- W classes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # ASHRAE TC 9.9 5th ed. liquid classes (docs/references.md#ashrae-liquid-classes) (upper bound of the range)
        ("W17", 17.0),
        ("W27", 27.0),
        ("W32", 32.0),
        ("W40", 40.0),
        ("W45", 45.0),
        ("W+", math.inf),  # "> 45 °C", no upper limit
    ],
)
def test_w_class_max_supply_temperature_table(name, expected):
    assert w_class_max_supply_temperature(name) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("S45", 45.0),  # "ASHRAE S45, formerly W45" (docs/references.md#ashrae-liquid-classes)
        ("S32", 32.0),
        ("S+", math.inf),
        ("w32", 32.0),  # case-insensitive
        (" W40 ", 40.0),  # surrounding spaces ignored
    ],
)
def test_w_class_accepts_s_spelling_and_loose_case(name, expected):
    assert w_class_max_supply_temperature(name) == expected


@pytest.mark.parametrize("name", ["W50", "A1", "", "W 32", None, 32])
def test_w_class_unknown_name_lists_valid_names(name):
    with pytest.raises(ValueError, match=r"valid names: W17, W27, W32, W40, W45, W\+, S17"):
        w_class_max_supply_temperature(name)


def test_w_class_table_is_read_only():
    with pytest.raises(TypeError):
        W_CLASS_MAX_SUPPLY_TEMPERATURE["W32"] = 35.0  # type: ignore[index]


# --- tcs_supply_temperature ---------------------------------------------------------------


def test_tcs_supply_temperature_hall_b3():
    # Hall B3: FW-1 32 °C + 4 K CDU approach = 36 °C
    assert tcs_supply_temperature(32.0, 4.0) == pytest.approx(36.0, rel=EXACT)


def test_tcs_supply_temperature_w45_plant():
    # W45 plant at its limit with a 5 K approach (CoolIT CHx2000): 45 + 5 = 50 °C
    assert tcs_supply_temperature(45.0, 5.0) == pytest.approx(50.0, rel=EXACT)


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((32.0, 0.0), "approach"),
        ((32.0, -4.0), "approach"),
        ((-300.0, 4.0), "facility_supply_temperature"),
        ((math.inf, 4.0), "facility_supply_temperature"),
    ],
)
def test_tcs_supply_temperature_rejects_bad_inputs(args, name):
    with pytest.raises(ValueError, match=name):
        tcs_supply_temperature(*args)


# --- return_temperature -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("supply", "rise", "expected"),
    [
        # Hall B3 TCS-A: 36 °C + 10 K = 46 °C (mean (36 + 46) / 2 = 41 °C, the scenario's
        # "PG25 at ~41 °C mean")
        (36.0, 10.0, 46.0),
        # Hall B3 TCS-B: 36 °C + 8 K = 44 °C
        (36.0, 8.0, 44.0),
        # Hall B3 FW-1 primary: 32 °C + 8 K = 40 °C
        (32.0, 8.0, 40.0),
        # no load: 20 °C + 0 K = 20 °C
        (20.0, 0.0, 20.0),
    ],
)
def test_return_temperature_hall_b3(supply, rise, expected):
    assert return_temperature(supply, rise) == pytest.approx(expected, rel=EXACT)


@pytest.mark.parametrize(
    ("args", "name"),
    [((36.0, -10.0), "temperature_rise"), ((math.nan, 10.0), "supply_temperature")],
)
def test_return_temperature_rejects_bad_inputs(args, name):
    with pytest.raises(ValueError, match=name):
        return_temperature(*args)


# --- cdu_capacity_at_approach -------------------------------------------------------------


def test_cdu_capacity_at_rated_approach_is_rated_capacity():
    # Hall B3 CDU-A1: 1,350 kW at 4 K, run at 4 K: 1,350 · 4/4 = 1,350 kW
    assert cdu_capacity_at_approach(1_350e3, 4.0, 4.0) == pytest.approx(1_350e3, rel=EXACT)


def test_cdu_capacity_scales_linearly_below_rating():
    # CDU-A1 with 3 K available: 1,350 kW · 3/4 = 1,012.5 kW
    assert cdu_capacity_at_approach(1_350e3, 4.0, 3.0) == pytest.approx(1_012.5e3, rel=EXACT)
    # CoolIT CHx2000, 2,000 kW at 5 K (docs/references.md#coolit-chx2000), at 4 K: 2,000 · 4/5 = 1,600 kW
    assert cdu_capacity_at_approach(2_000e3, 5.0, 4.0) == pytest.approx(1_600e3, rel=EXACT)


def test_cdu_capacity_is_not_credited_above_rating():
    # larger approach than rated: min(1, 6/4) = 1 -> 600 kW · 1 = 600 kW (no extrapolation)
    assert cdu_capacity_at_approach(600e3, 4.0, 6.0) == pytest.approx(600e3, rel=EXACT)


@pytest.mark.parametrize("approach", [0.0, -2.0])
def test_cdu_capacity_without_positive_approach_is_zero(approach):
    # facility water as warm as or warmer than the TCS target: max(0, ATD/4) = 0 -> 0 W
    assert cdu_capacity_at_approach(600e3, 4.0, approach) == 0.0


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((0.0, 4.0, 4.0), "rated_capacity"),
        ((600e3, 0.0, 4.0), "rated_approach"),
        ((600e3, -4.0, 4.0), "rated_approach"),
        ((600e3, 4.0, math.nan), "approach"),
    ],
)
def test_cdu_capacity_rejects_bad_inputs(args, name):
    with pytest.raises(ValueError, match=name):
        cdu_capacity_at_approach(*args)


def test_docstring_examples_hold():
    # the Examples sections of the docstrings are worked figures too; keep them true
    result = doctest.testmod(thermal, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
