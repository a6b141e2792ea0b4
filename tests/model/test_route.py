"""A hall's move-in route as written: fields of one kind of segment only, segments named
once, uncrated_from naming one of them, units resolved once."""

from __future__ import annotations

import pytest

from ._site import load, one_problem

ROUTE = """\
    site: {name: T}
    rooms:
      - id: H1
        move_in_route:
          uncrated_from: %s
          handling_mass: 200 kg
          segments:
            - {id: dock, kind: dock, clear_width: 3 m, clear_height: 118 in}
            - {id: L-1, kind: lift, rated_load: 2500 lb, cab_depth: 2700 mm}
            - {id: RF-ramp, kind: ramp, slope: 8.33 %%, rolling_load_rating: 2000 lbf}
            - {id: %s, kind: raised_floor, rolling_load_rating: 8.9 kN}
    """


def test_a_route_loads_in_canonical_units(tmp_path):
    site = load(tmp_path, ROUTE % ("dock", "hall"))
    route = site.rooms["H1"].move_in_route
    assert route is not None
    assert [s.id for s in route.segments] == ["dock", "L-1", "RF-ramp", "hall"]
    dock, lift, ramp, _ = route.segments
    assert dock.clear_height == pytest.approx(118 * 0.0254)  # 2.9972 m
    assert lift.rated_load == pytest.approx(2500 * 0.45359237)  # 1,133.98 kg
    assert ramp.slope == pytest.approx(0.0833)
    assert ramp.rolling_load_rating == pytest.approx(2000 * 4.4482216152605)  # 8,896.4 N
    assert route.handling_mass == 200.0


def test_a_lift_figure_on_a_door_is_refused(tmp_path):
    text = """\
        site: {name: T}
        rooms:
          - id: H1
            move_in_route:
              segments:
                - {id: D1, kind: door, cab_depth: 2 m}
        """
    _, _, field, message = one_problem(tmp_path, text)
    assert field.startswith("rooms[0].move_in_route.segments[0]")
    assert message == "cab_depth is given for a door: only a lift has it"


def test_a_slope_belongs_to_a_ramp(tmp_path):
    text = """\
        site: {name: T}
        rooms:
          - id: H1
            move_in_route:
              segments:
                - {id: C1, kind: corridor, slope: 5 %}
        """
    assert one_problem(tmp_path, text)[3] == "slope is given for a corridor: only a ramp has it"


def test_segments_are_named_once(tmp_path):
    text = ROUTE % ("dock", "dock")
    assert one_problem(tmp_path, text)[3] == "segment 'dock' is listed twice in the route"


def test_uncrated_from_names_a_segment(tmp_path):
    message = one_problem(tmp_path, ROUTE % ("dok", "hall"))[3]
    assert message == (
        "uncrated_from names no segment of the route: 'dok' (segments: dock, L-1, RF-ramp, hall)"
    )


def test_a_route_has_a_segment(tmp_path):
    text = """\
        site: {name: T}
        rooms:
          - {id: H1, move_in_route: {segments: []}}
        """
    assert "segments" in one_problem(tmp_path, text)[2]
