"""The supply the racks see with an unreachable setpoint, and racks whose room is unknown."""

from __future__ import annotations

from pathlib import Path

import yaml

from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model.load import load_site

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hall-b3.yaml"


def run(tmp_path: Path, edit) -> dict[str, object]:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return {f.id: f for f in audit(load_site(path), load_rules(profile="tier-iii")).findings}


def test_an_unreachable_setpoint_is_flagged_and_the_racks_see_the_achievable_supply(tmp_path):
    def edit(data):
        data["cooling"]["tcs_loops"][1]["supply_setpoint"] = (
            "30 degC"  # TCS-B; 32 + 4 = 36 °C reachable
        )

    found = run(tmp_path, edit)
    # LIQ-007: setpoint 30 °C < 32 °C + 4 K = 36 °C → fail
    assert found["LIQ-007:tcs_loop:TCS-B"].status == "fail"
    assert found["LIQ-007:tcs_loop:TCS-B"].observed.value == 30.0
    # LIQ-005/006 judge the 36 °C the CDU can deliver, not the 30 °C asked for
    assert found["LIQ-005:tcs_loop:TCS-B"].observed.value == 36.0
    assert "LIQ-007:tcs_loop:TCS-A" not in found  # no setpoint: the rule does not apply


def test_a_reachable_setpoint_is_what_the_racks_see(tmp_path):
    def edit(data):
        data["cooling"]["tcs_loops"][1]["supply_setpoint"] = "38 degC"

    found = run(tmp_path, edit)
    assert found["LIQ-007:tcs_loop:TCS-B"].status == "pass"  # 38 ≥ 36 °C
    assert found["LIQ-005:tcs_loop:TCS-B"].observed.value == 38.0


def test_rack_in_no_room_makes_room_air_heat_not_evaluated(tmp_path):
    def edit(data):
        data["rooms"].append({"id": "B4"})
        data["cooling"]["tcs_loops"][1].pop("room")  # TCS-B: no room
        data["rows"][1].pop("zone")  # row B: no zone either → room unknown

    found = run(tmp_path, edit)
    air = found["AIR-002:room:B3"]
    assert air.status == "not_evaluated"
    assert "rack 'B01' is in no room" in air.missing[0]


def test_rack_without_zone_takes_its_loops_room(tmp_path):
    def edit(data):
        data["rows"][1].pop("zone")  # row B keeps loop TCS-B in room B3

    found = run(tmp_path, edit)
    # 8·135·0.10 + 12·32·0.15 = 165.6 kW still counted in room B3
    assert found["AIR-002:room:B3"].observed.value == 165_600
