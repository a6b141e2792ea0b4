"""Room air during a cooling loss: two lumps, air and solids (Khankari, ASHRAE Transactions
117(1), 2011), worked by hand."""

import math

import pytest

from facility.physics.room_heating import air_ride_through_time, air_temperature_rise

# Q = 50 kW into C_a = 100 kJ/K of air, coupled to C_s = 900 kJ/K of solids with τ = 100 s:
# the air runs Q · τ / C_a = 50 K above the solids in the long run, and
#   ΔT(t) = 50,000 · t / 1,000,000 + 0.9 · 50 · (1 − e^(−t/100)) = 0.05 t + 45 (1 − e^(−t/100))
ROOM = dict(heat=50e3, air_capacity=100e3, solid_capacity=900e3, time_constant=100.0)


def test_the_rise_starts_as_the_air_alone_and_ends_as_all_the_mass() -> None:
    # t = 10 s: 0.5 + 45 · (1 − 0.9048374) = 0.5 + 4.282316 = 4.782316 K (air alone: 5 K)
    assert air_temperature_rise(**ROOM, time=10) == pytest.approx(4.782316, abs=1e-6)
    # t = 100 s: 5 + 45 · (1 − 0.367879) = 5 + 28.4454 = 33.4454 K
    assert air_temperature_rise(**ROOM, time=100) == pytest.approx(33.4454, abs=1e-4)
    # the air alone: Q · t / C_a = 50,000 · 100 / 100,000 = 50 K
    air_only = {**ROOM, "solid_capacity": 0.0}
    assert air_temperature_rise(**air_only, time=100) == pytest.approx(50.0)


def test_ride_through_to_an_allowed_rise() -> None:
    # 0.05 t + 45 (1 − e^(−t/100)) = 20 K: t = 49 s gives 19.8818, t = 50 s 20.2061;
    # between them t = 49 + 0.1182 / 0.3243 = 49.364 s (check: 2.4682 + 45 · 0.389600 = 20.000)
    assert air_ride_through_time(**ROOM, allowed_rise=20) == pytest.approx(49.364, abs=0.01)
    # the air alone: 20 K · 100 kJ/K / 50 kW = 40 s, the shortest any room can have
    air_only = {**ROOM, "solid_capacity": 0.0}
    assert air_ride_through_time(**air_only, allowed_rise=20) == pytest.approx(40.0, abs=1e-3)


def test_edges() -> None:
    assert air_ride_through_time(**ROOM, allowed_rise=0) == 0.0  # already at the limit
    assert math.isinf(air_ride_through_time(**{**ROOM, "heat": 0.0}, allowed_rise=5))
    with pytest.raises(ValueError):
        air_temperature_rise(**{**ROOM, "time_constant": 0.0}, time=10)


def test_a_ride_through_too_long_for_a_millisecond_still_ends() -> None:
    # 10^30 kg of solids at 500 J/(kg·K), C_s = 5e32 J/K, and 60 K allowed: the air runs at
    # most Q · τ / C_a = 50 K above the solids, and C_s / (C_a + C_s) = 1 to 1e-27, so
    #   60 K = Q · t / (C_a + C_s) + 50 K  →  t = 10 · 5e32 / 50,000 = 1.0e29 s
    # where floats are ~1.7e13 s apart: a search to 1 ms would never end; it stops at 1e-12 of
    # the time (or after 200 halvings).
    heavy = {**ROOM, "solid_capacity": 5e32}
    assert air_ride_through_time(**heavy, allowed_rise=60) == pytest.approx(1.0e29, rel=1e-9)
    with pytest.raises(ValueError):  # a bracket that overflows is refused, not searched
        air_ride_through_time(**{**ROOM, "solid_capacity": 1.7e308}, allowed_rise=20)
