"""Ride-through of a coolant inventory: t = V · ρ · cp · ΔT / Q, worked by hand."""

from __future__ import annotations

import math

import pytest

from facility.physics.transient import ride_through_time


def test_a_water_store_sized_for_five_minutes() -> None:
    # Thermal storage sized the Handbook way (sensible storage m · cp · ΔT): 1 MW for 300 s
    # over a 5 K rise in water (ρ 994.03 kg/m³, cp 4,178.3 J/(kg·K) at 35 °C, IAPWS-95) needs
    # V = Q · t / (ρ · cp · ΔT) = 1e6 · 300 / (994.03 · 4,178.3 · 5) = 3e8 / 20,766,700 = 14.446 m³;
    # that volume then rides through 14.446 · 994.03 · 4,178.3 · 5 / 1e6 = 300.0 s
    assert ride_through_time(14.446, 994.03, 4_178.3, 5.0, 1e6) == pytest.approx(300.0, rel=1e-4)


def test_a_pg25_loop_with_a_buffer_tank() -> None:
    # 4.5 m³ of PG25, ρ · cp = 1,010.1 · 3,962 = 4,001,996 J/(m³·K), 9 K to the racks' maximum,
    # 486 kW: 4.5 · 4,001,996 · 9 / 486,000 = 162,080,838 / 486,000 = 333.5 s
    assert ride_through_time(4.5, 1_010.1, 3_962.0, 9.0, 486_000) == pytest.approx(333.5, abs=0.05)


def test_no_margin_no_heat_and_bad_input() -> None:
    assert ride_through_time(5.0, 1000.0, 4180.0, 0.0, 1e5) == 0.0  # already at the limit
    assert ride_through_time(5.0, 1000.0, 4180.0, -2.0, 1e5) == 0.0  # past it
    assert ride_through_time(5.0, 1000.0, 4180.0, 5.0, 0.0) == math.inf  # nothing warms it
    assert ride_through_time(0.0, 1000.0, 4180.0, 5.0, 1e5) == 0.0  # no coolant at all
    for bad in (
        (-1.0, 1000.0, 4180.0, 5.0, 1e5),
        (1.0, 0.0, 4180.0, 5.0, 1e5),
        (1.0, 1000.0, math.nan, 5.0, 1e5),
        (1.0, 1000.0, 4180.0, 5.0, -1.0),
    ):
        with pytest.raises(ValueError):
            ride_through_time(*bad)
