"""Tests for facility.physics.tables (piecewise-linear interpolation without extrapolation)."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from facility.physics.tables import OutsideTableError, interpolate_linear

# Lenovo GB300 NVL72 rack flow against TCS supply temperature, L/min (Lenovo LP2357 Table 27, docs/references.md#lenovo-lp2357:
# 25 °C → 59; 30 → 71; 35 → 89; 40 → 119; 45 → 177 L/min).
LENOVO_SUPPLY_TEMPERATURES = [25.0, 30.0, 35.0, 40.0, 45.0]
LENOVO_FLOWS = [59.0, 71.0, 89.0, 119.0, 177.0]


@pytest.mark.parametrize(
    ("supply_temperature", "expected_flow"),
    [
        # Midpoint of 35 and 40 °C: (89 + 119) / 2 = 208 / 2 = 104 L/min.
        (37.5, 104.0),
        # 26 °C is 1/5 of the way from 25 to 30 °C: 59 + (71 - 59) · (1 / 5) = 59 + 2.4 = 61.4.
        (26.0, 61.4),
        # Midpoint of 40 and 45 °C: (119 + 177) / 2 = 296 / 2 = 148 L/min.
        (42.5, 148.0),
        # 32 °C is 2/5 of the way from 30 to 35 °C: 71 + (89 - 71) · (2 / 5) = 71 + 7.2 = 78.2.
        (32.0, 78.2),
    ],
)
def test_interpolates_lenovo_gb300_table_between_rows(
    supply_temperature: float, expected_flow: float
) -> None:
    flow = interpolate_linear(supply_temperature, LENOVO_SUPPLY_TEMPERATURES, LENOVO_FLOWS)
    assert flow == pytest.approx(expected_flow, rel=1e-12)


@pytest.mark.parametrize(
    ("supply_temperature", "expected_flow"),
    list(zip(LENOVO_SUPPLY_TEMPERATURES, LENOVO_FLOWS, strict=True)),
)
def test_returns_tabulated_value_exactly_at_each_row(
    supply_temperature: float, expected_flow: float
) -> None:
    # At a table row, including both ends, the tabulated flow comes back unchanged.
    flow = interpolate_linear(supply_temperature, LENOVO_SUPPLY_TEMPERATURES, LENOVO_FLOWS)
    assert flow == expected_flow


def test_accepts_tuples_and_integer_abscissa() -> None:
    # Two-point table (0, 0)–(10, 5): at x = 4, 0 + (5 - 0) · 4 / 10 = 2.0.
    assert interpolate_linear(4, (0, 10), (0.0, 5.0)) == pytest.approx(2.0)


def test_decreasing_ordinates_are_interpolated() -> None:
    # (0, 10)–(2, 4): at x = 0.5, 10 + (4 - 10) · 0.5 / 2 = 10 - 1.5 = 8.5.
    assert interpolate_linear(0.5, [0.0, 2.0], [10.0, 4.0]) == pytest.approx(8.5)


@pytest.mark.parametrize("supply_temperature", [24.9, 45.1, -273.15, 1e9, math.nan, math.inf])
def test_refuses_to_extrapolate(supply_temperature: float) -> None:
    with pytest.raises(OutsideTableError, match="not extrapolated"):
        interpolate_linear(supply_temperature, LENOVO_SUPPLY_TEMPERATURES, LENOVO_FLOWS)


def test_outside_table_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"outside the table range \[25.0, 45.0\]"):
        interpolate_linear(50.0, LENOVO_SUPPLY_TEMPERATURES, LENOVO_FLOWS)


@pytest.mark.parametrize(
    ("xs", "ys", "message"),
    [
        ([25.0, 35.0, 30.0], [59.0, 89.0, 71.0], "strictly increasing"),
        ([45.0, 40.0], [177.0, 119.0], "strictly increasing"),
        ([25.0, 25.0, 30.0], [59.0, 60.0, 71.0], "strictly increasing"),
        ([25.0, 30.0, 35.0], [59.0, 71.0], "differ in length"),
        ([25.0], [59.0], "at least two points"),
        ([], [], "at least two points"),
        ([25.0, math.nan], [59.0, 71.0], "non-finite"),
        ([25.0, 30.0], [59.0, math.inf], "non-finite"),
    ],
)
def test_rejects_malformed_tables(xs: list[float], ys: list[float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        interpolate_linear(25.0, xs, ys)


finite_values = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(
    x_low=finite_values,
    width=st.floats(1e-3, 1e6),
    y_low=finite_values,
    y_high=finite_values,
    position=st.floats(0.0, 1.0),
)
def test_result_lies_between_the_bracketing_values(
    x_low: float, width: float, y_low: float, y_high: float, position: float
) -> None:
    x_high = x_low + width
    assume(x_high > x_low)
    x = min(x_low + position * width, x_high)
    result = interpolate_linear(x, [x_low, x_high], [y_low, y_high])
    tolerance = 1e-9 * max(1.0, abs(y_low), abs(y_high))
    assert min(y_low, y_high) - tolerance <= result <= max(y_low, y_high) + tolerance


@given(x=st.floats(25.0, 45.0), step=st.floats(0.0, 20.0))
def test_increasing_table_gives_non_decreasing_result(x: float, step: float) -> None:
    # The Lenovo flows rise with supply temperature, so the interpolant must too.
    x_later = min(x + step, 45.0)
    earlier = interpolate_linear(x, LENOVO_SUPPLY_TEMPERATURES, LENOVO_FLOWS)
    later = interpolate_linear(x_later, LENOVO_SUPPLY_TEMPERATURES, LENOVO_FLOWS)
    assert later >= earlier - 1e-12
