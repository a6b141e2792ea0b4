"""Tests for facility.physics.electrical.

Expected values are worked by hand in the comments. Tolerances:
- ``EXACT`` (rel 1e-9) where the hand value is exact and only float round-off can differ;
- half a unit of the last published digit where the expected value is a rounded published
  figure (Hall B3 scenario; NEC 210.20(A), docs/references.md#nec-210-20a).
"""

import doctest
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from facility.physics import electrical
from facility.physics.electrical import (
    NEC_CONTINUOUS_LOAD_DERATING,
    apparent_power,
    circuit_apparent_power,
    continuous_capacity,
    line_current,
    load_per_feed,
    real_power,
    single_phase_apparent_power,
    surviving_capacity,
    three_phase_apparent_power,
)

EXACT = 1e-9  # relative tolerance: float round-off only


# --- single_phase_apparent_power ----------------------------------------------------------


@pytest.mark.parametrize(
    ("voltage", "current", "expected_kva"),
    [
        # PDU nameplates: 1φ 230 V 16 A -> 230 · 16 = 3,680 VA = 3.68 kVA
        (230.0, 16.0, 3.68),
        # PDU nameplates: 1φ 230 V 32 A -> 230 · 32 = 7,360 VA = 7.36 kVA
        (230.0, 32.0, 7.36),
    ],
)
def test_single_phase_apparent_power_matches_domain_table(voltage, current, expected_kva):
    assert single_phase_apparent_power(voltage, current) == pytest.approx(
        expected_kva * 1e3, rel=EXACT
    )


def test_single_phase_apparent_power_zero_current_is_zero():
    # 230 · 0 = 0 VA
    assert single_phase_apparent_power(230.0, 0.0) == 0.0


@pytest.mark.parametrize(
    ("voltage", "current"),
    [(0.0, 16.0), (-230.0, 16.0), (230.0, -1.0), (math.nan, 16.0), (230.0, math.inf)],
)
def test_single_phase_apparent_power_rejects_bad_inputs(voltage, current):
    with pytest.raises(ValueError, match=r"voltage|current"):
        single_phase_apparent_power(voltage, current)


# --- three_phase_apparent_power -----------------------------------------------------------


def test_three_phase_apparent_power_hall_b3_pdu_nameplate():
    # Hall B3 row A PDU, 3φ 415 V 63 A: √3 · 415 · 63 = 1.7320508 · 26,145 = 45,284.47 VA
    assert three_phase_apparent_power(415.0, 63.0) == pytest.approx(45_284.47, abs=0.005)


@pytest.mark.parametrize(
    ("line_to_line_voltage", "current", "expected_kva"),
    [
        # PDU nameplates, √3 · V_LL · I, published to 0.1 kVA (tolerance ±0.05 kVA):
        (208.0, 30.0, 10.8),  # 1.7320508 · 6,240 = 10,808 VA
        (208.0, 60.0, 21.6),  # 1.7320508 · 12,480 = 21,616 VA
        (400.0, 32.0, 22.2),  # 1.7320508 · 12,800 = 22,170 VA
        (415.0, 32.0, 23.0),  # 1.7320508 · 13,280 = 23,002 VA
        (400.0, 63.0, 43.6),  # 1.7320508 · 25,200 = 43,648 VA
        (415.0, 60.0, 43.1),  # 1.7320508 · 24,900 = 43,128 VA
        (415.0, 63.0, 45.3),  # 1.7320508 · 26,145 = 45,284 VA
        (480.0, 30.0, 24.9),  # 1.7320508 · 14,400 = 24,942 VA
        (480.0, 60.0, 49.9),  # 1.7320508 · 28,800 = 49,883 VA
        (415.0, 100.0, 71.9),  # 1.7320508 · 41,500 = 71,880 VA
        (415.0, 125.0, 89.9),  # 1.7320508 · 51,875 = 89,850 VA
    ],
)
def test_three_phase_apparent_power_matches_domain_table(
    line_to_line_voltage, current, expected_kva
):
    result_kva = three_phase_apparent_power(line_to_line_voltage, current) / 1e3
    assert result_kva == pytest.approx(expected_kva, abs=0.05)


def test_three_phase_apparent_power_busway_example():
    # An 800 A busway at 415 V: √3 · 415 · 800 = 575,041 VA ≈ 575 kVA (±0.5 kVA)
    assert three_phase_apparent_power(415.0, 800.0) / 1e3 == pytest.approx(575.0, abs=0.5)


@pytest.mark.parametrize(("voltage", "current"), [(0.0, 63.0), (415.0, -63.0), (-415.0, 63.0)])
def test_three_phase_apparent_power_rejects_bad_inputs(voltage, current):
    with pytest.raises(ValueError, match=r"line_to_line_voltage|current"):
        three_phase_apparent_power(voltage, current)


# --- circuit_apparent_power ---------------------------------------------------------------


def test_circuit_apparent_power_single_phase():
    # 1 phase: 230 · 16 = 3,680 VA
    assert circuit_apparent_power(230.0, 16.0, 1) == pytest.approx(3_680.0, rel=EXACT)


def test_circuit_apparent_power_three_phase_hall_b3_row_b_pdu():
    # Hall B3 row B PDU, 3φ 415 V 80 A: √3 · 415 · 80 = 1.7320508 · 33,200 = 57,504.09 VA
    assert circuit_apparent_power(415.0, 80.0, 3) == pytest.approx(57_504.09, abs=0.005)


@pytest.mark.parametrize("phases", [0, 2, 4, -3, True, 1.5])
def test_circuit_apparent_power_rejects_other_phase_counts(phases):
    with pytest.raises(ValueError, match="phases must be 1 or 3"):
        circuit_apparent_power(415.0, 63.0, phases)


# --- apparent_power / real_power ----------------------------------------------------------


def test_apparent_power_hall_b3_row_a_peak():
    # Hall B3: 155 kW peak / 0.95 = 163,157.9 VA ≈ 163.2 kVA (scenario table, ±0.05 kVA)
    assert apparent_power(155e3, 0.95) / 1e3 == pytest.approx(163.2, abs=0.05)


def test_apparent_power_hall_b3_row_b_peak():
    # Hall B3: 38 kW peak / 0.95 = 40,000 VA exactly
    assert apparent_power(38e3, 0.95) == pytest.approx(40_000.0, rel=EXACT)


def test_apparent_power_domain_nvl72_example():
    # 120 kW at PF 0.98 -> 120,000 / 0.98 = 122,449 VA ≈ 122 kVA (±0.5 kVA)
    assert apparent_power(120e3, 0.98) / 1e3 == pytest.approx(122.0, abs=0.5)


def test_real_power_hall_b3():
    # 163,157.894... VA · 0.95 = 155,000 W (the peak back again, computed by hand: 155e3/0.95·0.95)
    assert real_power(155e3 / 0.95, 0.95) == pytest.approx(155_000.0, rel=EXACT)


def test_real_power_row_b_pdu():
    # 46,003.27 VA continuous · 0.95 = 43,703.1 W (±0.05 W)
    assert real_power(46_003.27, 0.95) == pytest.approx(43_703.11, abs=0.05)


def test_real_power_accepts_zero_power_factor():
    # purely reactive: 10,000 VA · 0 = 0 W
    assert real_power(10_000.0, 0.0) == 0.0


@pytest.mark.parametrize("power_factor", [0.0, -0.5, 1.01, math.nan])
def test_apparent_power_rejects_bad_power_factor(power_factor):
    with pytest.raises(ValueError, match="power_factor"):
        apparent_power(155e3, power_factor)


@pytest.mark.parametrize("power_factor", [-0.01, 1.5])
def test_real_power_rejects_bad_power_factor(power_factor):
    with pytest.raises(ValueError, match="power_factor"):
        real_power(10_000.0, power_factor)


def test_apparent_and_real_power_reject_negative_power():
    with pytest.raises(ValueError, match="real_power"):
        apparent_power(-1.0, 0.95)
    with pytest.raises(ValueError, match="apparent_power"):
        real_power(-1.0, 0.95)


@settings(max_examples=50, deadline=None)
@given(
    power=st.floats(min_value=0.0, max_value=1e7),
    power_factor=st.floats(min_value=0.01, max_value=1.0),
)
def test_real_power_inverts_apparent_power(power, power_factor):
    # round trip P -> S -> P
    assert real_power(apparent_power(power, power_factor), power_factor) == pytest.approx(
        power, rel=1e-12, abs=1e-9
    )


# --- continuous_capacity ------------------------------------------------------------------


def test_nec_continuous_load_derating_is_one_over_125_percent():
    # NEC 210.20(A): 1 / 1.25 = 0.8
    assert pytest.approx(0.8, rel=EXACT) == NEC_CONTINUOUS_LOAD_DERATING


def test_continuous_capacity_hall_b3_row_a_pdu():
    # 3φ 415 V 63 A at 80 %: 0.8 · 45,284.47 = 36,227.57 VA ≈ 36.2 kVA (scenario, ±0.05 kVA)
    assert continuous_capacity(45_284.47, 0.8) / 1e3 == pytest.approx(36.2, abs=0.05)


def test_continuous_capacity_hall_b3_row_a_side():
    # Hall B3 side A of an A-row rack: 4 PDUs · √3 · 415 · 63 · 0.8
    #   = 4 · 45,284.47 · 0.8 = 4 · 36,227.57 = 144,910.3 VA ≈ 144.9 kVA (±0.05 kVA)
    side_nameplate = 4 * 45_284.47
    assert continuous_capacity(side_nameplate, 0.8) / 1e3 == pytest.approx(144.9, abs=0.05)


def test_continuous_capacity_hall_b3_row_b_side():
    # Hall B3 row B side: √3 · 415 · 80 · 0.8 = 57,504.09 · 0.8 = 46,003.3 VA ≈ 46.0 kVA
    assert continuous_capacity(57_504.09, 0.8) / 1e3 == pytest.approx(46.0, abs=0.05)


@pytest.mark.parametrize(
    ("nameplate_kva", "expected_kva"),
    [
        # The continuous-load "at 80 %" figure (NEC 210.20(A)), 0.8 · nameplate (nameplates from √3·V·I above),
        # published to 0.1 kVA; tolerance ±0.05 kVA
        (10.808, 8.6),  # 3φ 208 V 30 A: 0.8 · 10.808 = 8.646
        (22.170, 17.7),  # 3φ 400 V 32 A: 0.8 · 22.170 = 17.736
        (43.648, 34.9),  # 3φ 400 V 63 A: 0.8 · 43.648 = 34.918
        (24.942, 20.0),  # 3φ 480 V 30 A: 0.8 · 24.942 = 19.953
        (71.880, 57.5),  # 3φ 415 V 100 A: 0.8 · 71.880 = 57.504
        (3.680, 2.94),  # 1φ 230 V 16 A: 0.8 · 3.680 = 2.944 (published to 0.01: ±0.005)
    ],
)
def test_continuous_capacity_matches_domain_table(nameplate_kva, expected_kva):
    tolerance = 0.005 if expected_kva < 5 else 0.05
    result_kva = continuous_capacity(nameplate_kva * 1e3, 0.8) / 1e3
    assert result_kva == pytest.approx(expected_kva, abs=tolerance)


def test_continuous_capacity_hundred_percent_rated_assembly():
    # 100 %-rated assembly: 1.0 · 45,000 = 45,000 VA
    assert continuous_capacity(45_000.0, 1.0) == pytest.approx(45_000.0, rel=EXACT)


@pytest.mark.parametrize("derating", [0.0, -0.8, 1.25, 80.0])
def test_continuous_capacity_rejects_derating_outside_fraction(derating):
    with pytest.raises(ValueError, match="derating"):
        continuous_capacity(45_000.0, derating)


def test_continuous_capacity_rejects_negative_rating():
    with pytest.raises(ValueError, match="rated_apparent_power"):
        continuous_capacity(-1.0, 0.8)


# --- line_current -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("apparent_kva", "voltage", "expected_current"),
    [
        # Published to 1 A (tolerance ±0.5 A):
        # 155 kW / 0.98 = 158,163 VA; / (√3 · 415) = 158,163 / 718.80 = 220.0 A
        (155e3 / 0.98 / 1e3, 415.0, 220.0),
        # 158,163 / (√3 · 480) = 158,163 / 831.38 = 190.2 A
        (155e3 / 0.98 / 1e3, 480.0, 190.0),
        # 120 kW / 0.98 = 122,449 VA; / 718.80 = 170.4 A
        (120e3 / 0.98 / 1e3, 415.0, 170.0),
    ],
)
def test_line_current_three_phase_matches_domain_examples(apparent_kva, voltage, expected_current):
    assert line_current(apparent_kva * 1e3, voltage, 3) == pytest.approx(expected_current, abs=0.5)


def test_line_current_three_phase_exact():
    # √3 · 415 · 63 = 45,284.468 VA back to current: 45,284.468 / (√3 · 415) = 63 A
    # (hand: 45,284.468 / 718.7991 = 63.000)
    assert line_current(45_284.468, 415.0, 3) == pytest.approx(63.0, rel=1e-6)


def test_line_current_single_phase():
    # 3,680 VA / 230 V = 16 A
    assert line_current(3_680.0, 230.0, 1) == pytest.approx(16.0, rel=EXACT)


def test_line_current_rejects_bad_inputs():
    with pytest.raises(ValueError, match="phases must be 1 or 3"):
        line_current(3_680.0, 230.0, 2)
    with pytest.raises(ValueError, match="voltage"):
        line_current(3_680.0, 0.0, 1)
    with pytest.raises(ValueError, match="apparent_power"):
        line_current(-3_680.0, 230.0, 1)


# --- load_per_feed ------------------------------------------------------------------------


def test_load_per_feed_hall_b3_row_a_after_side_loss():
    # Hall B3: one side lost, 163.2 kVA on 4 PDUs: 163,157.9 / 4 = 40,789.5 VA ≈ 40.8 kVA
    assert load_per_feed(163_157.9, 4) / 1e3 == pytest.approx(40.8, abs=0.05)


def test_load_per_feed_hall_b3_normal_operation():
    # Row A, all 8 PDUs: 163,157.9 / 8 = 20,394.7 VA ≈ 20.4 kVA (±0.05 kVA)
    assert load_per_feed(163_157.9, 8) / 1e3 == pytest.approx(20.4, abs=0.05)
    # Row B, 2 PDUs: 40,000 / 2 = 20,000 VA
    assert load_per_feed(40_000.0, 2) == pytest.approx(20_000.0, rel=EXACT)


@pytest.mark.parametrize("feeds", [0, -1, 2.5, True])
def test_load_per_feed_rejects_no_feed_or_fractional_feeds(feeds):
    with pytest.raises(ValueError, match="feeds_in_service"):
        load_per_feed(40_000.0, feeds)


# --- surviving_capacity -------------------------------------------------------------------


def test_surviving_capacity_three_crahs_one_out():
    # Hall B3: 100 + 100 + 100 kW, largest (100 kW) out -> 200 kW
    assert surviving_capacity([100e3, 100e3, 100e3]) == pytest.approx(200e3, rel=EXACT)


def test_surviving_capacity_single_cdu_one_out():
    # Hall B3 TCS-B: one 600 kW CDU, it fails -> 600 − 600 = 0 kW
    assert surviving_capacity([600e3], failed_units=1) == 0.0


def test_surviving_capacity_two_cdus_one_out():
    # Hall B3 TCS-A: 1,350 + 1,350 kW, one out -> 1,350 kW
    assert surviving_capacity((1_350e3, 1_350e3)) == pytest.approx(1_350e3, rel=EXACT)


def test_surviving_capacity_removes_the_largest_units():
    # unequal units 50, 120, 80 kW: one out -> 50 + 80 = 130 kW; two out -> 50 kW
    assert surviving_capacity([50.0, 120.0, 80.0]) == pytest.approx(130.0, rel=EXACT)
    assert surviving_capacity([50.0, 120.0, 80.0], failed_units=2) == pytest.approx(50.0, rel=EXACT)


def test_surviving_capacity_no_failure_and_too_many_failures():
    # none failed: 50 + 120 + 80 = 250; more failures than units: nothing left = 0
    assert surviving_capacity([50.0, 120.0, 80.0], failed_units=0) == pytest.approx(250.0)
    assert surviving_capacity([50.0, 120.0, 80.0], failed_units=5) == 0.0
    assert surviving_capacity([]) == 0.0


def test_surviving_capacity_accepts_a_generator():
    # 3 × 100 = 300, one out -> 200
    assert surviving_capacity(c for c in (100.0, 100.0, 100.0)) == pytest.approx(200.0)


def test_surviving_capacity_rejects_bad_inputs():
    with pytest.raises(ValueError, match=r"unit_capacities\[1\]"):
        surviving_capacity([100.0, -5.0])
    with pytest.raises(ValueError, match="failed_units"):
        surviving_capacity([100.0, 100.0], failed_units=-1)
    with pytest.raises(ValueError, match="failed_units"):
        surviving_capacity([100.0, 100.0], failed_units=1.5)


@settings(max_examples=50, deadline=None)
@given(
    capacities=st.lists(st.floats(min_value=0.0, max_value=1e7), max_size=8),
    extra=st.floats(min_value=0.0, max_value=1e7),
)
def test_surviving_capacity_never_decreases_when_a_unit_is_added(capacities, extra):
    # monotonicity: adding a unit can only help, and the result never exceeds the total
    before = surviving_capacity(capacities)
    after = surviving_capacity([*capacities, extra])
    assert after >= before
    assert after <= math.fsum([*capacities, extra])


def test_docstring_examples_hold():
    # the Examples sections of the docstrings are worked figures too; keep them true
    result = doctest.testmod(electrical, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
