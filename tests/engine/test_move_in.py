"""The move-in route (FLR-008 to FLR-013): the rack as moved on each segment, the binding
segment named in the working, the handling mass on a lift. Expected values worked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from facility.check import run_check
from facility.engine.rules import load_rules
from facility.model.load import load_site
from tests.engine.test_workings import unnamed_inputs

G = 9.80665
LBF = 4.4482216152605

SITE = {
    "site": {"name": "move-in"},
    "rooms": [
        {
            "id": "H1",
            "move_in_route": {
                "uncrated_from": "C2",
                "handling_mass": "200 kg",
                "segments": [
                    {"id": "dock", "kind": "dock", "clear_width": "3 m", "clear_height": "3 m"},
                    {"id": "L-1", "kind": "lift", "clear_width": "1.5 m",
                     "clear_height": "2.5 m", "rated_load": "1800 kg", "cab_depth": "1.4 m",
                     "rolling_load_rating": "10 kN"},
                    {"id": "C2", "kind": "corridor", "clear_width": "1.8 m",
                     "clear_height": "2.4 m", "rolling_load_rating": "1000 lbf"},
                    {"id": "ramp", "kind": "ramp", "clear_width": "1.5 m",
                     "clear_height": "2.4 m", "slope": "8 %"},
                    {"id": "RF", "kind": "raised_floor", "clear_width": "1.2 m",
                     "clear_height": "2.3 m", "rolling_load_rating": "8.9 kN"},
                ],
            },
        }
    ],
    "floor_zones": [{"id": "Z1", "room": "H1", "construction": "slab"}],
    "rack_types": [
        {"id": "t", "filled_mass": "1500 kg", "height": "2286 mm",
         "footprint": {"width": "600 mm", "depth": "1219 mm"},
         "crated_mass": "1620 kg", "crated_width": "800 mm", "crated_depth": "1450 mm",
         "crated_height": "2450 mm"},
    ],
    "racks": [{"id": "R1", "type": "t", "zone": "Z1"}],
}  # fmt: skip


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    path: Path = tmp_path_factory.mktemp("move-in") / "site.yaml"
    path.write_text(yaml.safe_dump(SITE), encoding="utf-8")
    checked = run_check(load_site(path), load_rules(profile="supernode"), generated_at=None)
    return {f.rule: f for f in checked.result.findings if f.rule in CODES}


CODES = {f"FLR-{n:03d}" for n in range(8, 14)}


def test_height_binds_at_the_lift_crated(findings):
    # crated to L-1: dock 3,000 − 2,450 = +550, L-1 2,500 − 2,450 = +50 mm;
    # uncrated from C2: C2 2,400 − 2,286 = +114, RF 2,300 − 2,286 = +14 mm (binding)
    f = findings["FLR-008"]
    assert f.status == "pass"
    assert (f.observed.value, f.limit.value) == pytest.approx((2.286, 2.3))
    assert "RF" in str(f.observed.formula) and "RF" in str(f.limit.formula)


def test_width_fails_at_the_hall_door(findings):
    # crated: dock 3,000 − 800, L-1 1,500 − 800 = +700 mm; uncrated: RF 1,200 − 600 = +600 mm
    f = findings["FLR-009"]
    assert f.status == "pass"
    assert (f.observed.value, f.limit.value) == pytest.approx((0.6, 1.2))


def test_the_lift_carries_the_crate_and_the_handling_mass(findings):
    # 1,620 kg crated + 200 kg pallet jack and crew = 1,820 kg > 1,800 kg rated → fail, −20 kg
    f = findings["FLR-010"]
    assert f.status == "fail"
    assert (f.observed.value, f.limit.value) == pytest.approx((1820.0, 1800.0))
    assert str(f.observed.formula).startswith("m_crated + m_handling")


def test_the_cab_is_shorter_than_the_crate(findings):
    # 1,450 mm crate in a 1,400 mm cab → fail, −50 mm
    f = findings["FLR-011"]
    assert f.status == "fail"
    assert (f.observed.value, f.limit.value) == pytest.approx((1.45, 1.4))


def test_rolling_binds_on_the_corridor_uncrated(findings):
    # L-1 (crated):  10,000 − ½ · 1,620 · 9.80665 = 10,000 − 7,943.4 = +2,056.6 N
    # C2 (uncrated): 4,448.2 − ½ · 1,500 · 9.80665 = 4,448.2 − 7,355.0 = −2,906.8 N (binding)
    # RF (uncrated): 8,900 − 7,355.0 = +1,545.0 N
    f = findings["FLR-013"]
    assert f.status == "fail"
    assert f.observed.value == pytest.approx(0.5 * 1500 * G)  # 7,354.99 N
    assert f.limit.value == pytest.approx(1000 * LBF)  # 4,448.22 N
    assert "C2" in str(f.observed.formula)


def test_the_ramp_is_within_1_in_12(findings):
    # 8 % ≤ 1/12 = 8.33 % → pass
    f = findings["FLR-012"]
    assert f.status == "pass"
    assert (f.observed.value, f.limit.value) == pytest.approx((0.08, 0.0833))


def test_every_input_of_a_route_working_is_in_its_formula(findings):
    for f in findings.values():
        for value in (f.observed, f.limit):
            assert unnamed_inputs(str(value.formula), value.inputs) == [], (f.rule, value)
