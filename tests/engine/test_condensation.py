"""Condensation (LIQ-022, LIQ-023, AIR-006): the workings name what they put in, and a loop
without a room of its own takes the most humid room of its racks."""

from __future__ import annotations

from pathlib import Path

import yaml

from facility.check import run_check
from facility.engine.rules import load_rules
from facility.model.load import load_site
from tests.engine.test_workings import unnamed_inputs

SITE = {
    "site": {"name": "condensation"},
    "rooms": [
        {"id": "R1", "design_condition": {"dry_bulb": "24 degC", "relative_humidity": "60 %"}},
        {"id": "R2", "design_condition": {"dew_point": "10 degC"}},
    ],
    "floor_zones": [
        {"id": "Z1", "room": "R1", "construction": "slab"},
        {"id": "Z2", "room": "R2", "construction": "slab"},
    ],
    "rack_types": [{"id": "t", "cooling": "liquid", "nominal_power": "100 kW"}],
    "racks": [
        {"id": "A", "type": "t", "zone": "Z1", "loop": "L"},
        {"id": "B", "type": "t", "zone": "Z2", "loop": "L"},
    ],
    "cooling": {
        "facility_water": [
            {"id": "FW", "supply_temperature": "15 degC", "rooms": ["R1", "R2"]},
        ],
        "cdus": [{"id": "C", "facility_water": "FW", "approach": "2 K"}],
        "tcs_loops": [{"id": "L", "coolant": {"fluid": "water"}, "cdus": ["C"]}],
    },
}


def _findings(tmp_path: Path) -> dict[str, object]:
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(SITE, sort_keys=False), encoding="utf-8")
    result = run_check(load_site(path), load_rules(), generated_at=None).result
    return {f.rule: f for f in result.findings if f.rule in ("LIQ-022", "LIQ-023")}


def test_a_loop_in_two_rooms_takes_the_most_humid_and_the_working_names_both(tmp_path):
    found = _findings(tmp_path)
    # R1 24 °C, 60 %: t_d = 15.763 °C (Magnus: 260.832 / 16.551793 = 15.759 °C); R2 10 °C.
    # L (no room of its own; racks in R1 and R2): 15 + 2 = 17 °C < 15.763 + 2 = 17.763 → fail
    # FW through R1 and R2: 15 °C < 17.763 °C → fail
    for rule in ("LIQ-022", "LIQ-023"):
        finding = found[rule]
        assert finding.status == "fail"
        limit = finding.limit
        assert abs(limit.value - 17.763) < 0.001
        dew = {name: value for name, value, _ in limit.inputs if name.startswith("t_d,")}
        assert set(dew) == {"t_d,R1", "t_d,R2"} and dew["t_d,R2"] == 10.0
        for value in (finding.observed, limit):
            assert unnamed_inputs(str(value.formula), value.inputs) == []
