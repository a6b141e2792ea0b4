"""Values that only name what their entities share (0 with "in zone Z-A", unknown with "PDU
type 'x' has no banks", a PDU circuit's capacity, the counts of a PDU's share) are one object
for all of them: a 10,000-rack campus held 50,888 copies of each of the PDU ones (the check's
peak 611 -> 480 MB). Shared or not, the figures
and every output are the same (the golden reports); here, that they are shared."""

from __future__ import annotations

import sys
from pathlib import Path

from facility.engine.quantities import Context
from facility.engine.rules import load_rules
from facility.model.load import load_site

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


def test_what_racks_and_pdus_share_is_one_value(tmp_path: Path) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(60, path)  # its PDUs declare no banks
    site = load_site(path)
    ctx = Context(site, load_rules(profile="tier-iii").assumptions)
    racks = site.racks
    for name, key in (
        ("mass_on_no_zone", "zone"),
        ("air_heat_in_no_room", "room"),
        ("liquid_heat_on_no_loop", "loop"),
    ):
        by: dict[str, set[int]] = {}
        for rack in racks:
            if getattr(rack, key) is None:
                continue  # (an air-only rack's liquid heat on no loop is its own)
            value = ctx.get("rack", name, rack)
            assert value.value == 0.0, (name, rack.id)
            by.setdefault(getattr(rack, key), set()).add(id(value))
        assert all(len(ids) == 1 for ids in by.values()), name  # one Value per zone, room…
        assert len(by) < len(racks) // 4, name
    pdus = list(site.pdus.values())
    sides: dict[str, set[int]] = {}
    reasons: dict[str, set[int]] = {}
    for pdu in pdus:
        sides.setdefault(pdu.side, set()).add(id(ctx.get("pdu", "upstream_side_conflicts", pdu)))
        unknown = ctx.get("pdu", "pdu_phase_deviation", pdu)
        assert unknown.value is None and "has no banks" in str(unknown.missing)
        reasons.setdefault(pdu.type_id, set()).add(id(unknown.missing))
    assert len(pdus) > 100
    circuits: dict[tuple[object, ...], set[int]] = {}
    inputs: dict[tuple[object, ...], set[int]] = {}
    for pdu in pdus:
        f = pdu.figures
        key = (f.voltage, f.breaker_rating, f.phases, pdu.derating)
        circuits.setdefault(key, set()).add(id(ctx.get("pdu", "pdu_capacity", pdu)))
        load = ctx.get("pdu", "pdu_load", pdu)
        inputs.setdefault(load.inputs[1:], set()).add(id(load.inputs[1]))  # ("m", m, "count")
    assert all(len(ids) == 1 for ids in circuits.values()) and len(circuits) < len(pdus) // 10
    assert all(len(ids) == 1 for ids in inputs.values())
    assert {key[0][0] for key in inputs} == {"m"}  # the rack types state their inputs
    assert all(len(ids) == 1 for ids in sides.values()) and len(sides) == 2
    assert all(len(ids) == 1 for ids in reasons.values())
