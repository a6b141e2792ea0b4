"""The CDU's heat exchanger by the ε-NTU method (Incropera et al., 7th ed., §11.4), worked by
hand below."""

import pytest

from facility.physics.exchanger import (
    capacity_at_flows,
    counterflow_effectiveness,
    counterflow_ntu,
)


def test_counterflow_effectiveness() -> None:
    # Cr 0.5, NTU 0.8: e^(−0.8 · 0.5) = e^(−0.4) = 0.670320;
    # ε = (1 − 0.670320) / (1 − 0.5 · 0.670320) = 0.329680 / 0.664840 = 0.495879
    assert counterflow_effectiveness(0.8, 0.5) == pytest.approx(0.495879, abs=1e-6)
    # Cr 1 (balanced): ε = NTU / (1 + NTU) = 2 / 3
    assert counterflow_effectiveness(2.0, 1.0) == pytest.approx(2 / 3)


def test_counterflow_ntu_is_the_inverse() -> None:
    # ε 0.757576, Cr 0.8: NTU = ln((0.757576 − 1) / (0.757576 · 0.8 − 1)) / (0.8 − 1)
    #   = ln(−0.242424 / −0.393939) / −0.2 = ln(0.615385) / −0.2 = −0.485508 / −0.2 = 2.42754
    assert counterflow_ntu(0.757576, 0.8) == pytest.approx(2.42754, rel=1e-5)
    # Cr 1: NTU = ε / (1 − ε) = 0.75 / 0.25 = 3
    assert counterflow_ntu(0.75, 1.0) == pytest.approx(3.0)
    with pytest.raises(ValueError):
        counterflow_ntu(1.0, 0.5)  # a rating at ε = 1 is no real exchanger


# A CDU rated 1,000 kW at a 4 K approach with C_p = 100 kW/K (facility water) and C_s = 80
# kW/K (TCS coolant): the TCS return is 4 + 1,000 / 80 = 16.5 K above the facility supply;
# ε_r = 1,000 / (80 · 16.5) = 0.757576, Cr = 0.8, NTU_r = 2.42754 (above), UA = 194.203 kW/K.
RATED = dict(rated_capacity=1_000e3, rated_approach=4.0, rated_primary_rate=100e3,
             rated_secondary_rate=80e3)  # fmt: skip


def test_at_the_rated_flows_the_capacity_scales_with_the_approach() -> None:
    # per watt: 1 / (ε_r · C_min) − 1 / C_s = 16.5 / 1,000 kW − 1 / 80 kW = 4 K / 1,000 kW:
    # at 4 K the rating, at 3 K 3 / 4 of it (the project's approach scaling)
    assert capacity_at_flows(**RATED, approach=4.0, primary_rate=100e3, secondary_rate=80e3) == (
        pytest.approx(1_000e3)
    )
    assert capacity_at_flows(**RATED, approach=3.0, primary_rate=100e3, secondary_rate=80e3) == (
        pytest.approx(750e3)
    )
    # never above the rating: 6 K would read 1,500 kW
    assert capacity_at_flows(**RATED, approach=6.0, primary_rate=100e3, secondary_rate=80e3) == (
        pytest.approx(1_000e3)
    )


def test_half_the_primary_flow_carries_less_than_a_third() -> None:
    # C_p 50 kW/K: UA = 194.203 · 0.5^0.8 = 194.203 · 0.574349 = 111.539 kW/K; C_min 50,
    # Cr 0.625, NTU = 2.23078; e^(−2.23078 · 0.375) = e^(−0.836543) = 0.433200;
    # ε = (1 − 0.433200) / (1 − 0.625 · 0.433200) = 0.566800 / 0.729250 = 0.777237;
    # per watt 1 / (0.777237 · 50 kW) − 1 / 80 kW = 0.0257321 − 0.0125 = 0.0132321 K/kW;
    # Q = 4 K / 0.0132321 K/kW = 302.29 kW. (The second law alone, UA → ∞, allows
    # 4 / (1/50 − 1/80) = 533.3 kW: the facility water cannot leave warmer than the return.)
    q = capacity_at_flows(**RATED, approach=4.0, primary_rate=50e3, secondary_rate=80e3)
    assert q == pytest.approx(302.29e3, rel=1e-4)
    assert q < 4 / (1 / 50e3 - 1 / 80e3)


def test_no_approach_carries_nothing_and_an_impossible_rating_is_refused() -> None:
    assert capacity_at_flows(**RATED, approach=0.0, primary_rate=100e3, secondary_rate=80e3) == 0
    # C_p 20 kW/K at the rating: ε = 1,000 / (20 · (4 + 12.5)) = 3.03 ≥ 1
    impossible = {**RATED, "rated_primary_rate": 20e3}
    with pytest.raises(ValueError):
        capacity_at_flows(**impossible, approach=4.0, primary_rate=20e3, secondary_rate=80e3)


def test_more_primary_flow_than_rated_helps_only_through_the_balance() -> None:
    # C_p 150 kW/K, UA kept at 194.203 kW/K (no credit above the rated flow): C_min 80,
    # Cr 0.533333, NTU 2.42754; e^(−2.42754 · 0.466667) = e^(−1.132852) = 0.322113;
    # ε = 0.677887 / (1 − 0.533333 · 0.322113) = 0.677887 / 0.828206 = 0.818502;
    # per watt 1 / (0.818502 · 80 kW) − 1 / 80 kW = 0.0152718 − 0.0125 = 0.0027718 K/kW:
    # at 2 K, 2 / 0.0027718 = 721.6 kW (500 kW at the rated flows); at 4 K the rating caps it
    q = capacity_at_flows(**RATED, approach=2.0, primary_rate=150e3, secondary_rate=80e3)
    assert q == pytest.approx(721.6e3, rel=1e-3)
    assert capacity_at_flows(**RATED, approach=4.0, primary_rate=150e3, secondary_rate=80e3) == (
        pytest.approx(1_000e3)
    )
