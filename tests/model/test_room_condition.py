"""A room's design air condition (issue 19, condensation): dry bulb and relative humidity, or a
dew point; contradicting or incomplete conditions refused at file, line and field; facility
water names the rooms its pipes run through."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.model._site import load, problems


def _room(condition: str) -> str:
    return f"""\
site: {{name: T}}
rooms:
  - id: B3
    design_condition: {condition}
"""


def test_dry_bulb_and_relative_humidity_or_a_dew_point_load(tmp_path: Path) -> None:
    site = load(tmp_path, _room("{dry_bulb: 75.2 degF, relative_humidity: 50 %}"))
    condition = site.rooms["B3"].design_condition
    assert condition is not None
    assert condition.dry_bulb == pytest.approx(24.0)  # (75.2 − 32) / 1.8 = 24 °C
    assert condition.relative_humidity == pytest.approx(0.50)
    assert condition.dew_point is None
    stated = load(tmp_path, _room("{dew_point: 13 degC}")).rooms["B3"].design_condition
    assert stated is not None and stated.dew_point == pytest.approx(13.0)
    both = load(tmp_path, _room("{dry_bulb: 24 degC, dew_point: 13 degC}"))
    assert both.rooms["B3"].design_condition is not None


def test_a_room_without_a_condition_has_none(tmp_path: Path) -> None:
    site = load(tmp_path, "site: {name: T}\nrooms: [{id: B3}]\n")
    assert site.rooms["B3"].design_condition is None


@pytest.mark.parametrize(
    ("condition", "field", "words"),
    [
        (
            "{dry_bulb: 24 degC, relative_humidity: 50 %, dew_point: 13 degC}",
            "rooms[0].design_condition.dew_point",
            "give dew_point or relative_humidity, not both",
        ),
        (
            "{relative_humidity: 50 %}",
            "rooms[0].design_condition.relative_humidity",
            "needs the dry_bulb",
        ),
        (
            "{dry_bulb: 20 degC, dew_point: 21 degC}",
            "rooms[0].design_condition.dew_point",
            "above the dry bulb (20 °C)",
        ),
        ("{dry_bulb: 24 degC}", "rooms[0].design_condition", "gives dew_point, or dry_bulb"),
        ("{}", "rooms[0].design_condition", "gives dew_point, or dry_bulb"),
        (
            "{dry_bulb: 24 degC, relative_humidity: 0 %}",
            "rooms[0].design_condition.relative_humidity",
            "must be positive",
        ),
        (
            "{dry_bulb: 24 degC, relative_humidity: 120 %}",
            "rooms[0].design_condition.relative_humidity",
            "at most 100 %",
        ),
        (
            "{dry_bulb: -90 degC, relative_humidity: 0.0001 %}",
            "rooms[0].design_condition.relative_humidity",
            "below -100 °C",
        ),
        ("{dew_point: -120 degC}", "rooms[0].design_condition.dew_point", "below -100"),
        ("{dew_point: 24 kW}", "rooms[0].design_condition.dew_point", "temperature"),
    ],
)
def test_a_contradicting_or_incomplete_condition_is_refused_at_its_field(
    tmp_path: Path, condition: str, field: str, words: str
) -> None:
    found = problems(tmp_path, _room(condition))
    assert [(line, path) for line, _, path, _ in found] == [(4, field)]
    assert words in found[0][3]


def test_facility_water_names_the_rooms_it_runs_through(tmp_path: Path) -> None:
    text = """\
site: {name: T}
rooms: [{id: B3}, {id: B4}]
cooling:
  facility_water:
    - {id: FW-1, supply_temperature: 12 degC, rooms: [B3, B5]}
"""
    found = problems(tmp_path, text)
    assert [(line, path) for line, _, path, _ in found] == [
        (5, "cooling.facility_water[0].rooms[1]")
    ]
    assert "B5" in found[0][3]
    site = load(tmp_path, text.replace("B5", "B4"))
    assert site.facility_water["FW-1"].rooms == ["B3", "B4"]
    assert load(tmp_path, text.replace(", rooms: [B3, B5]", "")).facility_water["FW-1"].rooms == []
