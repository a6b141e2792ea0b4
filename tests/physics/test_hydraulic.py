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
    branch_required_head,
    flow_per_heat,
    head_at_furthest_branch,
    pressure_drop_at_flow,
    pressure_drop_from_curve,
    quick_disconnect_pressure_drop,
    required_loop_head,
    unbalanced_flow_deviation,
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


# --- the rack branches (LIQ-028/029/030) --------------------------------------------------

PSI = 6_894.757293168  # Pa
L_PER_MIN = 1 / 60_000  # m³/s
# Lenovo Press LP2357, Table 27 (GB300 NVL72, 135 kW): flow [L/min] and rack ΔP [psi] at
# 25, 30, 35, 40 and 45 °C supply — a published rack pressure-drop curve.
LENOVO_TABLE_27 = ((59, 2.3), (71, 3.2), (89, 4.9), (119, 8.5), (177, 18.4))
LENOVO_CURVE = [(q * L_PER_MIN, dp * PSI) for q, dp in LENOVO_TABLE_27]


def test_square_law_against_lenovos_published_curve():
    # A published Q² example: from 4.9 psi at 89 L/min the square law predicts at 177 L/min
    #   4.9 · (177 / 89)² = 4.9 · 3.95531 = 19.381 psi; Lenovo measured 18.4 psi (the law is
    #   5.3 % high: the rack's exponent is a little under 2 — log(18.4/4.9)/log(177/89) = 1.92)
    predicted = pressure_drop_at_flow(4.9 * PSI, 89 * L_PER_MIN, 177 * L_PER_MIN) / PSI
    assert predicted == pytest.approx(19.381, rel=1e-4)
    assert predicted / 18.4 - 1 == pytest.approx(0.0533, abs=5e-4)


@pytest.mark.parametrize(
    ("flow", "expected_psi"),
    [
        # on a point: 119 L/min → 8.5 psi
        (119, 8.5),
        # 130 L/min between 119 (8.5) and 177 (18.4): 8.5 + 9.9 · 11 / 58 = 8.5 + 1.87759
        #   = 10.37759 psi
        (130, 10.37759),
        # 80 L/min between 71 (3.2) and 89 (4.9): 3.2 + 1.7 · 9 / 18 = 4.05 psi
        (80, 4.05),
        # the ends: 59 → 2.3, 177 → 18.4
        (59, 2.3),
        (177, 18.4),
    ],
)
def test_pressure_drop_from_lenovos_curve(flow, expected_psi):
    result = pressure_drop_from_curve(LENOVO_CURVE, flow * L_PER_MIN) / PSI
    assert result == pytest.approx(expected_psi, rel=1e-5)


def test_the_curve_lies_above_the_square_law_between_its_points():
    # the chord of a convex curve errs high: at 130 L/min the square law from 119 L/min gives
    #   8.5 · (130 / 119)² = 8.5 · 1.193419 = 10.144 psi < 10.378 psi interpolated
    square = pressure_drop_at_flow(8.5 * PSI, 119 * L_PER_MIN, 130 * L_PER_MIN) / PSI
    assert square == pytest.approx(10.144, rel=1e-4)
    assert pressure_drop_from_curve(LENOVO_CURVE, 130 * L_PER_MIN) / PSI > square


@pytest.mark.parametrize("flow", [58, 182.1, 0.0])
def test_the_curve_is_not_extrapolated(flow):
    # Hall B3's racks need 182.1 L/min, beyond the curve's 177 L/min: refused, not guessed
    with pytest.raises(ValueError, match="outside the curve"):
        pressure_drop_from_curve(LENOVO_CURVE, flow * L_PER_MIN)


@pytest.mark.parametrize(
    "curve",
    [[(1.0, 1e5)], [(0.002, 1e5), (0.002, 2e5)], [(0.002, 1e5), (0.001, 2e5)]],
)
def test_a_curve_needs_two_points_in_increasing_flow(curve):
    with pytest.raises(ValueError, match="curve"):
        pressure_drop_from_curve(curve, 0.0015)


@pytest.mark.parametrize(
    ("pairs", "flow", "expected"),
    [
        # one pair of 0.20 bar at 180 L/min, at Hall B3's 182.1 L/min per rack:
        #   20,000 · (182.1427 / 180)² = 20,000 · 1.023949 = 20,479.0 Pa
        (1, 182.1427, 20_479.0),
        # two pairs of 0.10 bar at 100 L/min, at 130 L/min: 2 · 10,000 · 1.69 = 33,800 Pa
        (2, 130.0, 33_800.0),
    ],
)
def test_quick_disconnect_pressure_drop(pairs, flow, expected):
    if pairs == 1:
        result = quick_disconnect_pressure_drop(1, 20_000.0, 180 * L_PER_MIN, flow * L_PER_MIN)
    else:
        result = quick_disconnect_pressure_drop(2, 10_000.0, 100 * L_PER_MIN, flow * L_PER_MIN)
    assert result == pytest.approx(expected, rel=1e-5)


@pytest.mark.parametrize("pairs", [0, -1, 1.5])
def test_quick_disconnects_need_a_whole_number_of_pairs(pairs):
    with pytest.raises(ValueError, match="pairs"):
        quick_disconnect_pressure_drop(pairs, 1e4, 0.002, 0.002)


def test_branch_required_head_and_head_at_the_furthest_branch_hall_b3():
    # TCS-A: 1.27 bar rack + 0.2048 bar couplings + 0.15 bar branch = 1.6248 bar
    need = branch_required_head(127_000.0, 20_479.1, 15_000.0)
    assert need == pytest.approx(162_479.1, rel=EXACT)
    # 2.5 bar CDU − 0.45 bar header = 2.05 bar ≥ 1.6248 bar
    assert head_at_furthest_branch(250_000.0, 45_000.0) == pytest.approx(205_000.0, rel=EXACT)
    # a header that takes more than the pump: 1.5 − 2.0 = −0.5 bar (a fail, not an error)
    assert head_at_furthest_branch(150_000.0, 200_000.0) == pytest.approx(-50_000.0, rel=EXACT)


@pytest.mark.parametrize(
    ("branch_bar", "header_bar", "expected"),
    [
        # Hall B3 TCS-A: √(1 + 0.45 / 1.6248) − 1 = √1.276958 − 1 = 0.130026
        (1.6248, 0.45, 0.130026),
        # the 10 % band's edge: ΔP_h = 0.21 · ΔP_b → √1.21 − 1 = 0.1 exactly
        (1.0, 0.21, 0.1),
        # no header drop: equal flows
        (1.0, 0.0, 0.0),
        # header drop equal to the branch drop: √2 − 1 = 0.414214
        (0.5, 0.5, 0.414214),
    ],
)
def test_unbalanced_flow_deviation(branch_bar, header_bar, expected):
    result = unbalanced_flow_deviation(branch_bar * BAR, header_bar * BAR)
    assert result == pytest.approx(expected, rel=1e-5, abs=1e-12)


def test_unbalanced_flow_deviation_needs_a_branch_drop():
    with pytest.raises(ValueError, match="branch_pressure_drop"):
        unbalanced_flow_deviation(0.0, 1e4)


@pytest.mark.parametrize(
    ("flow_l_min", "heat_kw", "expected"),
    [
        # Lenovo GB300 at 45 °C: 177 L/min / (0.90 · 135 kW) = 177 / 121.5 = 1.45679 L/min/kW
        (177, 121.5, 1.45679),
        # Hall B3 row A: 182.14 / 121.5 = 1.49911 L/min/kW
        (182.1427, 121.5, 1.49912),
    ],
)
def test_flow_per_heat(flow_l_min, heat_kw, expected):
    q = flow_per_heat(flow_l_min * L_PER_MIN, heat_kw * 1_000)
    assert q / (L_PER_MIN / 1_000) == pytest.approx(expected, rel=1e-5)


def test_docstring_examples_hold():
    # the Examples sections of the docstrings are worked figures too; keep them true
    result = doctest.testmod(hydraulic, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
