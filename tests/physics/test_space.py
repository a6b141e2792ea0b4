"""Space and cabling arithmetic, worked by hand (facility.physics.space)."""

from __future__ import annotations

import math

import pytest

from facility.physics import space


def test_a_rack_claims_half_of_each_aisle() -> None:
    # 600 × 1,200 mm rack, 1.2 m cold aisle in front, 1.0 m hot aisle behind:
    #   0.6 · (1.2 + ½ · 1.2 + ½ · 1.0) = 0.6 · 2.3 = 1.38 m²
    assert space.rack_space(0.6, 1.2, 1.2, 1.0) == pytest.approx(1.38)
    # 40 m² holds ⌊40 / 1.38⌋ = ⌊28.99⌋ = 28 such racks, not the 67 its 25 kPa rating allows
    assert math.floor(40 / space.rack_space(0.6, 1.2, 1.2, 1.0)) == 28


def test_no_clearance_is_the_footprint() -> None:
    # 0.6 · (1.2 + 0 + 0) = 0.72 m², the footprint
    assert space.rack_space(0.6, 1.2, 0.0, 0.0) == pytest.approx(0.72)


def test_rack_space_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        space.rack_space(0.0, 1.2, 1.2, 1.0)
    with pytest.raises(ValueError):
        space.rack_space(0.6, 1.2, -1.0, 1.0)


def test_row_extent_and_centre() -> None:
    # the 8th rack of a row at a 600 mm pitch ends 8 · 0.6 = 4.8 m from the origin; its
    # centre is 2.0 + (8 − ½) · 0.6 = 2.0 + 4.5 = 6.5 m along a row starting at 2.0 m
    assert space.row_extent(8, 0.6) == pytest.approx(4.8)
    assert space.rack_centre(2.0, 8, 0.6) == pytest.approx(6.5)
    with pytest.raises(ValueError):
        space.row_extent(0, 0.6)


def test_cable_route_is_manhattan_plus_two_drops() -> None:
    # racks 4.5 m apart along the row, rows 3.6 m apart, 2.5 m up and down at each end:
    #   4.5 + 3.6 + 2 · 2.5 = 13.1 m
    assert space.cable_route(4.5, -3.6, 2.5) == pytest.approx(13.1)


def test_cable_area() -> None:
    # 200 cables of 8 mm: 200 · π · 0.008² / 4 = 200 · 5.0265e-5 = 1.0053e-2 m²
    assert space.cable_area(200, 0.008) == pytest.approx(1.00531e-2, rel=1e-4)
    assert space.cable_area(0, 0.008) == 0.0


def test_tray_fill_counts_at_most_150_mm_of_depth() -> None:
    # 1.0053e-2 m² in a 300 × 100 mm tray: 1.0053e-2 / 0.03 = 33.5 %
    assert space.tray_fill(1.00531e-2, 0.3, 0.1) == pytest.approx(0.3351, abs=1e-4)
    # in a 300 × 200 mm tray the depth counts as 150 mm (NFPA 70 392.22(A)(2)):
    #   1.0053e-2 / (0.3 · 0.15 = 0.045) = 22.3 %, not 1.0053e-2 / 0.06 = 16.8 %
    assert space.tray_fill(1.00531e-2, 0.3, 0.2) == pytest.approx(0.2234, abs=1e-4)
