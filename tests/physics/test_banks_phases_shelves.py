"""Tests for the phase, outlet-bank and power-shelf functions of facility.physics.electrical.

Expected values are worked by hand in the comments (formula, numbers, result); none comes from
another function of the project.
"""

import doctest
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from facility.physics import electrical
from facility.physics.electrical import (
    line_currents,
    neutral_current,
    phase_imbalance,
    phase_spread,
    shelf_capacity_after_redundancy,
)

EXACT = 1e-9

# --- line_currents ----------------------------------------------------------------------------


def test_line_to_neutral_loads_are_their_own_line_currents():
    # A load from L1 to N draws its current in L1 only: (12, 7, 3) A → (12, 7, 3) A
    assert line_currents((12.0, 7.0, 3.0)) == pytest.approx((12.0, 7.0, 3.0), rel=EXACT)


def test_one_line_to_line_load_draws_from_both_its_lines():
    # 16 A across L1-L2 flows out in L1 and back in L2: (16, 16, 0) A
    assert line_currents((0, 0, 0), (16.0, 0, 0)) == pytest.approx((16.0, 16.0, 0.0), abs=1e-9)


def test_balanced_delta_gives_root_three_times_the_bank_current():
    # Textbook delta: I_line = √3 · I_phase = 1.7320508 · 20 A = 34.641 A in each line
    assert line_currents((0, 0, 0), (20.0, 20.0, 20.0)) == pytest.approx(
        (34.641016, 34.641016, 34.641016), rel=1e-6
    )


def test_mixed_line_to_neutral_and_line_to_line_loads():
    # 10 A L1-N and 10 A L1-L2 (∠0° and ∠30°) in L1: |10 + 10∠30°| = 10 · √(2 + 2 cos 30°)
    #   = 10 · √(2 + 1.7320508) = 10 · 1.9318517 = 19.3185 A
    # L2 carries −10∠30° only: 10 A; L3 nothing: 0 A
    assert line_currents((10.0, 0, 0), (10.0, 0, 0)) == pytest.approx(
        (19.318517, 10.0, 0.0), abs=1e-6
    )


def test_line_currents_reject_bad_inputs():
    with pytest.raises(ValueError):
        line_currents((1.0, 2.0))
    with pytest.raises(ValueError):
        line_currents((1.0, -2.0, 3.0))
    with pytest.raises(ValueError):
        line_currents((1.0, 2.0, 3.0), (0.0, math.nan, 0.0))


# --- neutral_current --------------------------------------------------------------------------


def test_neutral_current_of_a_textbook_unbalanced_load():
    # I_N = √(100² + 80² + 60² − 100·80 − 80·60 − 60·100)
    #     = √(10000 + 6400 + 3600 − 8000 − 4800 − 6000) = √1200 = 34.641 A
    assert neutral_current(100.0, 80.0, 60.0) == pytest.approx(34.641016, rel=1e-6)


def test_balanced_load_puts_nothing_on_the_neutral():
    # 32 + 32∠−120° + 32∠120° = 0
    assert neutral_current(32.0, 32.0, 32.0) == pytest.approx(0.0, abs=1e-9)


def test_one_loaded_phase_returns_all_its_current_on_the_neutral():
    # √(25² + 0 + 0 − 0 − 0 − 0) = 25 A
    assert neutral_current(25.0, 0.0, 0.0) == pytest.approx(25.0, rel=EXACT)


def test_two_equal_phases_return_one_phase_current():
    # √(10² + 10² + 0 − 10·10 − 0 − 0) = √100 = 10 A
    assert neutral_current(10.0, 10.0, 0.0) == pytest.approx(10.0, rel=EXACT)


@given(st.tuples(*[st.floats(0, 1e4, allow_nan=False)] * 3))
def test_neutral_current_matches_the_closed_form(currents):
    # |I_a + I_b a² + I_c a|² = I_a² + I_b² + I_c² − I_a I_b − I_b I_c − I_c I_a (a = 1∠120°)
    a, b, c = currents
    closed_square = a * a + b * b + c * c - a * b - b * c - c * a
    scale = a * a + b * b + c * c  # the round-off of the closed form grows with it
    assert neutral_current(a, b, c) ** 2 == pytest.approx(closed_square, abs=1e-9 * scale + 1e-12)


# --- phase_imbalance --------------------------------------------------------------------------


def test_phase_imbalance_of_the_nema_mg1_example():
    # NEMA MG 1 14.36 example: 460, 467, 450 → average 1377 / 3 = 459,
    # deviations 1, 8, 9 → 9 / 459 = 0.019608 (1.96 %)
    assert phase_imbalance((460.0, 467.0, 450.0)) == pytest.approx(9 / 459, rel=EXACT)


def test_phase_imbalance_of_bank_currents():
    # 30, 20, 10 A: average 20, largest deviation 10 → 10 / 20 = 0.5 (50 %)
    assert phase_imbalance((30.0, 20.0, 10.0)) == pytest.approx(0.5, rel=EXACT)
    # 22, 20, 18 A: average 20, largest deviation 2 → 0.1 (10 %, the warning threshold)
    assert phase_imbalance((22.0, 20.0, 18.0)) == pytest.approx(0.1, rel=EXACT)


def test_phase_imbalance_of_one_loaded_line_is_two():
    # 30, 0, 0: average 10, deviation 20 → 20 / 10 = 2.0 (200 %)
    assert phase_imbalance((30.0, 0.0, 0.0)) == pytest.approx(2.0, rel=EXACT)


def test_phase_spread_gives_the_two_terms_of_the_imbalance():
    # 25, 20, 15 A: average 60 / 3 = 20 A, deviations 5, 0, 5 → 5 A (imbalance 5 / 20 = 25 %)
    assert phase_spread((25.0, 20.0, 15.0)) == pytest.approx((20.0, 5.0), rel=EXACT)
    # 30, 30, 0 A: average 20 A, deviations 10, 10, 20 → 20 A
    assert phase_spread((30.0, 30.0, 0.0)) == pytest.approx((20.0, 20.0), rel=EXACT)
    # no current: (0, 0)
    assert phase_spread((0.0, 0.0, 0.0)) == (0.0, 0.0)


def test_phase_imbalance_without_current_is_zero():
    assert phase_imbalance((0.0, 0.0, 0.0)) == 0.0


def test_phase_imbalance_rejects_bad_inputs():
    with pytest.raises(ValueError):
        phase_imbalance((1.0, 2.0, 3.0, 4.0))
    with pytest.raises(ValueError):
        phase_imbalance((1.0, -2.0, 3.0))


# --- shelf_capacity_after_redundancy ----------------------------------------------------------


def test_gb300_shelves_in_n_plus_n_carry_less_than_the_rack_peak():
    # NVIDIA NVL72 RA: 8 shelves × 33 kW; N+N: (8 − 4) · 33 kW = 132 kW, below the 142 kW
    # NVIDIA gives for a full rack and the 155 kW peak Lenovo gives
    capacity = shelf_capacity_after_redundancy(8, 4, 33e3)
    assert capacity == pytest.approx(132e3, rel=EXACT)
    assert capacity < 142e3 < 155e3


def test_shelves_in_n_plus_one():
    # ORv3 shelf: 6 × 3 kW rectifiers in N+1: (6 − 1) · 3 kW = 15 kW (the deck's 15 kW N+1)
    assert shelf_capacity_after_redundancy(6, 1, 3e3) == pytest.approx(15e3, rel=EXACT)
    # no redundancy: 8 · 33 = 264 kW
    assert shelf_capacity_after_redundancy(8, 0, 33e3) == pytest.approx(264e3, rel=EXACT)


@pytest.mark.parametrize(
    ("shelves", "redundant", "rating"),
    [(0, 0, 33e3), (8, 8, 33e3), (8, 9, 33e3), (8, -1, 33e3), (8, 4, -1.0), (2.5, 1, 1.0)],
)
def test_shelf_capacity_rejects_bad_inputs(shelves, redundant, rating):
    with pytest.raises(ValueError):
        shelf_capacity_after_redundancy(shelves, redundant, rating)


def test_docstring_examples():
    names = (
        "line_currents",
        "neutral_current",
        "phase_imbalance",
        "phase_spread",
        "shelf_capacity_after_redundancy",
    )
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    ran = 0
    for name in names:
        for test in finder.find(getattr(electrical, name), name, globs=vars(electrical)):
            ran += len(test.examples)
            runner.run(test)
    assert ran == 5
    assert runner.failures == 0
