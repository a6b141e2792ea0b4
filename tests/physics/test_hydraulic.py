"""Tests for facility.physics.hydraulic.

Expected values are worked by hand in the comments (1 bar = 100,000 Pa). Tolerance: rel 1e-9
(``EXACT``) where the hand value is exact; otherwise stated next to the assertion.
"""

import doctest
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from facility.physics import hydraulic
from facility.physics.hydraulic import (
    QUADRATIC_LAW_EXPONENT,
    pressure_drop_at_flow,
    required_loop_head,
)

EXACT = 1e-9  # relative tolerance: float round-off only
BAR = 1e5  # Pa


def test_quadratic_law_exponent_is_two():
    assert QUADRATIC_LAW_EXPONENT == 2.0


# --- pressure_drop_at_flow ----------------------------------------------------------------


def test_pressure_drop_at_design_flow_is_design_drop():
    # Hall B3 row A rack: 1.27 bar · (1)² = 1.27 bar = 127,000 Pa
    assert pressure_drop_at_flow(1.27 * BAR, 0.004, 0.004) == pytest.approx(127_000.0, rel=EXACT)


def test_pressure_drop_square_law_above_design_flow():
    # 1.27 bar at 1,200 L/min, run at 1,440 L/min (×1.2): 127,000 · 1.2² = 127,000 · 1.44
    #   = 182,880 Pa
    design_flow = 1_200 / 60_000  # 0.020 m³/s
    flow = 1_440 / 60_000  # 0.024 m³/s
    assert pressure_drop_at_flow(127e3, design_flow, flow) == pytest.approx(182_880.0, rel=EXACT)


def test_pressure_drop_square_law_below_design_flow():
    # 0.60 bar at design flow, at 80 %: 60,000 · 0.8² = 60,000 · 0.64 = 38,400 Pa
    assert pressure_drop_at_flow(60e3, 0.010, 0.008) == pytest.approx(38_400.0, rel=EXACT)


@pytest.mark.parametrize(
    ("exponent", "expected"),
    [
        # laminar, n = 1: 127,000 · 0.5 = 63,500 Pa
        (1.0, 63_500.0),
        # Blasius, n = 1.75: 0.5^1.75 = 2^-1.75 = 1 / 3.363586 = 0.297302;
        #   127,000 · 0.297302 = 37,757.3 Pa (hand value to 0.1 Pa: rel 1e-5)
        (1.75, 37_757.3),
    ],
)
def test_pressure_drop_with_other_exponents(exponent, expected):
    result = pressure_drop_at_flow(127e3, 0.010, 0.005, exponent=exponent)
    assert result == pytest.approx(expected, rel=1e-5)


def test_pressure_drop_at_zero_flow_is_zero():
    # 127,000 · (0 / 0.01)² = 0
    assert pressure_drop_at_flow(127e3, 0.010, 0.0) == 0.0


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((-1.0, 0.01, 0.01), "design_pressure_drop"),
        ((127e3, 0.0, 0.01), "design_flow"),
        ((127e3, 0.01, -0.01), "flow"),
        ((127e3, 0.01, math.nan), "flow"),
        ((127e3, 0.01, 0.01, 0.0), "exponent"),
        ((127e3, 0.01, 0.01, -2.0), "exponent"),
    ],
)
def test_pressure_drop_at_flow_rejects_bad_inputs(args, name):
    with pytest.raises(ValueError, match=name):
        pressure_drop_at_flow(*args)


@settings(max_examples=50, deadline=None)
@given(
    low=st.floats(min_value=0.0, max_value=1.0),
    high=st.floats(min_value=0.0, max_value=1.0),
    exponent=st.floats(min_value=1.0, max_value=2.0),
)
def test_pressure_drop_is_monotonic_in_flow(low, high, exponent):
    low, high = sorted((low, high))
    assert pressure_drop_at_flow(1e5, 0.5, low, exponent) <= pressure_drop_at_flow(
        1e5, 0.5, high, exponent
    )


# --- required_loop_head -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rack_bar", "piping_bar", "expected_pa"),
    [
        # Hall B3 TCS-A: 1.27 + 0.40 = 1.67 bar = 167,000 Pa
        (1.27, 0.40, 167_000.0),
        # Hall B3 TCS-B: 0.60 + 0.30 = 0.90 bar = 90,000 Pa
        (0.60, 0.30, 90_000.0),
    ],
)
def test_required_loop_head_hall_b3(rack_bar, piping_bar, expected_pa):
    assert required_loop_head(rack_bar * BAR, piping_bar * BAR) == pytest.approx(
        expected_pa, rel=EXACT
    )


@pytest.mark.parametrize(
    ("args", "name"),
    [((-1.0, 40e3), "rack_pressure_drop"), ((127e3, -40e3), "piping_pressure_drop")],
)
def test_required_loop_head_rejects_negative_drops(args, name):
    with pytest.raises(ValueError, match=name):
        required_loop_head(*args)


def test_docstring_examples_hold():
    # the Examples sections of the docstrings are worked figures too; keep them true
    result = doctest.testmod(hydraulic, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
