"""NetBox's numbers in our units: every conversion worked by hand."""

from __future__ import annotations

import math

import pytest

from facility.imports.netbox_units import (
    UnitChoiceError,
    feed_available_power,
    flow_l_per_min,
    length_text,
    mass_kg,
    mass_text,
)


def test_three_phase_feed_available_power() -> None:
    # S = V · I · √3 · u = 415 V × 63 A × 1.7320508 × 0.80
    #   = 26 145 VA × 1.7320508 × 0.80 = 45 284.47 VA × 0.80 = 36 227.6 VA
    # (NetBox's own figure, with 1.732 and rounded: 36 227 VA.)
    assert feed_available_power(415, 63, True, 80) == pytest.approx(36_227.6, abs=0.1)


def test_single_phase_feed_available_power() -> None:
    # S = V · I · u = 230 V × 32 A × 0.80 = 7 360 × 0.80 = 5 888 VA (no √3)
    assert feed_available_power(230, 32, False, 80) == pytest.approx(5_888.0)


def test_feed_available_power_at_full_utilisation() -> None:
    # 400 V × 32 A × √3 × 1.00 = 12 800 × 1.7320508 = 22 170.25 VA
    assert feed_available_power(400, 32, True, 100) == pytest.approx(22_170.25, abs=0.01)


@pytest.mark.parametrize(
    ("value", "unit", "kg"),
    [
        (140, "kg", 140.0),  # kg as they are
        (1_500_000, "g", 1500.0),  # 1 500 000 g / 1000 = 1 500 kg
        (3100, "lb", 1406.136347),  # 3 100 lb × 0.45359237 kg/lb = 1 406.136 347 kg
        (16, "oz", 0.45359237),  # 16 oz = 1 lb = 0.45359237 kg (1 oz = 28.349 523 125 g)
        (220.46, "lb", 99.998975),  # 220.46 × 0.45359237 = 99.998 974 kg
    ],
)
def test_weights_in_four_units(value: float, unit: str, kg: float) -> None:
    assert mass_kg(value, unit) == pytest.approx(kg, rel=1e-7)


def test_weight_text_keeps_the_netbox_unit() -> None:
    assert mass_text(3000, "lb") == "3000 lb"
    assert mass_text(28.5, "kg") == "28.5 kg"


def test_gpm_is_the_us_gallon() -> None:
    # 1 US gallon = 231 in³ = 3.785 411 784 L; 47 gpm = 47 × 3.785411784 = 177.914 L/min
    # (an imperial gallon, 4.546 09 L, would give 213.7 L/min)
    assert flow_l_per_min(47, "gpm") == pytest.approx(177.914354, rel=1e-8)
    assert flow_l_per_min(1, "gpm") == pytest.approx(3.785411784, rel=1e-9)


def test_other_flow_units() -> None:
    assert flow_l_per_min(60, "lpm") == pytest.approx(60.0)
    # 12 m³/h = 12 000 L / 60 min = 200 L/min
    assert flow_l_per_min(12, "m3ph") == pytest.approx(200.0)


def test_lengths() -> None:
    assert length_text(600, "mm") == "600 mm"
    assert length_text(48, "in") == "48 inch"


def test_unknown_unit_choice_is_refused() -> None:
    with pytest.raises(UnitChoiceError, match="stone"):
        mass_kg(10, "stone")
    with pytest.raises(UnitChoiceError):
        flow_l_per_min(10, None)


def test_sqrt3_is_exact() -> None:
    assert feed_available_power(1, 1, True, 100) == pytest.approx(math.sqrt(3))
