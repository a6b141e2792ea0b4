"""Tests for facility.physics.psychrometrics: the dew point of a room's design condition.

Expected values are worked by hand in the comments, from the ASHRAE Handbook — Fundamentals
(2017, ch. 1) equations and Table 3, and cross-checked with the Magnus formula with the
Alduchov–Eskridge (1996) coefficients over water: A = 17.625, B = 243.04 °C,
    γ = ln φ + A · t / (B + t),   t_d = B · γ / (A − γ).
The Magnus form agrees with the Hyland–Wexler equations to about 0.01 K at room conditions.
"""

from __future__ import annotations

import math

import pytest

from facility.physics.psychrometrics import dew_point


def test_dew_point_at_25_degc_and_80_percent():
    # ASHRAE Fundamentals 2017 ch. 1 eq. 6 (over water), T = 25 + 273.15 = 298.15 K:
    #   ln p_ws = C8/T + C9 + C10·T + C11·T² + C12·T³ + C13·ln T
    #           = −5800.2206/298.15 + 1.3914993 − 0.048640239·298.15
    #             + 4.1764768e-5·88893.4 − 1.4452093e-8·2.65036e7 + 6.5459673·5.697596
    #           = −19.45404 + 1.39150 − 14.50209 + 3.71261 − 0.38303 + 37.29628 = 8.06124
    #   p_ws = e^8.06124 = 3169.2 Pa  (Table 3 of ch. 1: 3.1697 kPa, 0.02 % apart)
    #   p_w = φ · p_ws = 0.80 · 3169.2 = 2535.4 Pa  (eq. 12, 22)
    #   t_d solves p_ws(t_d) = 2535.4 Pa: eq. 6 at 21.309 °C (T = 294.459 K) gives 2535.3 Pa
    #   → t_d = 21.309 °C.
    # Magnus cross-check: γ = ln 0.80 + 17.625·25/268.04 = −0.22314 + 1.64388 = 1.42074,
    #   t_d = 243.04 · 1.42074 / (17.625 − 1.42074) = 345.297 / 16.20426 = 21.309 °C.
    assert dew_point(25.0, 0.80) == pytest.approx(21.309, abs=0.002)


def test_dew_point_of_hall_b3_at_24_degc_and_50_percent():
    # eq. 6 at T = 297.15 K: p_ws(24 °C) = 2985.1 Pa; p_w = 0.50 · 2985.1 = 1492.6 Pa;
    #   eq. 6 at 12.946 °C gives 1492.5 Pa → t_d = 12.946 °C.
    # Magnus: γ = ln 0.50 + 17.625·24/267.04 = −0.693147 + 1.584033 = 0.890885,
    #   t_d = 243.04 · 0.890885 / (17.625 − 0.890885) = 216.521 / 16.734115 = 12.939 °C
    #   (0.007 K below the Hyland–Wexler value).
    assert dew_point(24.0, 0.50) == pytest.approx(12.946, abs=0.002)
    assert dew_point(24.0, 0.50) == pytest.approx(12.939, abs=0.02)  # Magnus


def test_dew_point_of_a_warm_humid_room_is_above_ashrae_recommended_15_degc():
    # 27 °C (the top of the recommended dry bulb range) at 50 %:
    # Magnus: γ = ln 0.50 + 17.625·27/270.04 = −0.693147 + 1.762239 = 1.069092,
    #   t_d = 243.04 · 1.069092 / (17.625 − 1.069092) = 259.832 / 16.555908 = 15.694 °C > 15 °C.
    assert dew_point(27.0, 0.50) == pytest.approx(15.694, abs=0.02)


def test_saturated_air_has_its_dry_bulb_as_dew_point():
    # φ = 1: p_w = p_ws(t_db), so t_d = t_db (within the solver's 0.001 K).
    assert dew_point(20.0, 1.0) == pytest.approx(20.0, abs=0.001)
    assert dew_point(-5.0, 1.0) == pytest.approx(-5.0, abs=0.001)  # over ice


def test_dew_point_rises_with_humidity_and_dry_bulb():
    assert dew_point(24.0, 0.40) < dew_point(24.0, 0.50) < dew_point(24.0, 0.60)
    assert dew_point(22.0, 0.50) < dew_point(24.0, 0.50) < dew_point(27.0, 0.50)


def test_the_unit_system_of_the_library_cannot_change_the_result():
    import psychrolib

    psychrolib.SetUnitSystem(psychrolib.IP)
    try:
        assert dew_point(25.0, 0.80) == pytest.approx(21.309, abs=0.002)
    finally:
        psychrolib.SetUnitSystem(psychrolib.SI)


@pytest.mark.parametrize(
    ("dry_bulb", "relative_humidity"),
    [
        (25.0, 0.0),
        (25.0, 1.01),
        (25.0, math.nan),
        (-101.0, 0.5),
        (201.0, 0.5),
        (math.inf, 0.5),
        (-90.0, 1e-6),  # dew point below −100 °C
    ],
)
def test_outside_the_equations_is_an_error(dry_bulb, relative_humidity):
    with pytest.raises(ValueError):
        dew_point(dry_bulb, relative_humidity)
