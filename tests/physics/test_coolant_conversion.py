"""Tests for facility.physics.coolant.flow_in_other_coolant: a vendor flow in another coolant.

Expected values are worked by hand from published property data (comments); never from
another function of the project.
"""

from __future__ import annotations

import pytest

from facility.physics.coolant import flow_in_other_coolant

L_PER_MIN = 1.0 / 60_000  # m³/s


def test_water_table_flow_in_dowfrost_lc25() -> None:
    # Lenovo GB300: 119 L/min at 40 °C supply, for water. Water at 40 °C: ρ = 992.2 kg/m³,
    # cp = 4179 J/(kg·K) (IAPWS-95); DOWFROST LC 25 at 40 °C (Dow data sheet): ρ = 1022.5,
    # cp = 3920. V = 119 · (992.2 · 4179) / (1022.5 · 3920) = 119 · 4,146,403.8 / 4,008,200
    #   = 119 · 1.034480 = 123.103 L/min.
    flow = flow_in_other_coolant(119 * L_PER_MIN, 992.2, 4179.0, 1022.5, 3920.0)
    assert flow / L_PER_MIN == pytest.approx(123.103, abs=0.001)


def test_same_coolant_keeps_the_flow() -> None:
    # ρ·cp equal on both sides: the ratio is 1.
    assert flow_in_other_coolant(2.0e-3, 994.4, 4179.0, 994.4, 4179.0) == pytest.approx(2.0e-3)


def test_pg25_needs_more_flow_than_water() -> None:
    # At 35 °C, water ρ·cp = 994.4 · 4179 = 4,155,597.6; PG 25 % by mass (Melinder):
    # 1012.5 · 3957 = 4,006,462.5. 100 L/min of water → 100 · 1.037224 = 103.72 L/min of PG25.
    flow = flow_in_other_coolant(100 * L_PER_MIN, 994.4, 4179.0, 1012.5, 3957.0)
    assert flow / L_PER_MIN == pytest.approx(103.722, abs=0.001)


@pytest.mark.parametrize(
    "arguments",
    [(-1.0, 1.0, 1.0, 1.0, 1.0), (1.0, 0.0, 1.0, 1.0, 1.0), (1.0, 1.0, 1.0, 1.0, float("nan"))],
)
def test_rejects_negative_flow_and_non_positive_properties(arguments) -> None:
    with pytest.raises(ValueError):
        flow_in_other_coolant(*arguments)
