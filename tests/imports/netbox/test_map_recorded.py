"""The shapes of real NetBox data, replayed from a real NetBox 4.7.3 (site ``shapes`` of
scripts/netbox/seed_shapes.py, recorded by scripts/netbox/record.py) and from an older server
without cooling objects; on each, every object read is accounted for and the counts add up."""

from __future__ import annotations

import pytest

from facility.imports.netbox import check_document, render
from facility.imports.netbox_map import map_site

from ._snapshot import hall_b3, recorded

SOURCE = "NetBox 4.7.3 at http://127.0.0.1:58001, site shapes"


def _accounted(report) -> dict[str, tuple[int, int, int]]:
    assert report.twice == []
    tally = report.tally()
    for kind, (read, mapped, not_mapped) in tally.items():
        assert read == mapped + not_mapped and not report.unsettled(kind), kind
    assert not [e for e in report.entries if e.reason == "not used by the mapping"]
    read = sum(t[0] for t in tally.values())
    used = sum(t[1] for t in tally.values())
    assert f"read {read} NetBox objects, {used} mapped and {read - used} not" in report.summary()
    return tally


def _shapes(**options):
    doc, report = map_site(recorded("shapes"), SOURCE, **options)
    check_document(render(doc, report))
    return doc, report, _accounted(report)


def _figures(doc: dict, rack: str) -> dict:
    type_id = next(r["type"] for r in doc["racks"] if r["id"] == rack)
    return next(t for t in doc["rack_types"] if t["id"] == type_id)


def test_the_recorded_shapes_map_to_the_right_watts() -> None:
    doc, report, tally = _shapes()
    # Dual-inlet PDU: 4 servers × 400 W = 1.6 kW peak, × 350 W = 1.4 kW nominal, each server
    # through the inlet its outlet belongs to (summing every outlet per inlet gave 3.2 / 2.8)
    pdu = _figures(doc, "PDU-RACK")
    assert (pdu["peak_power"], pdu["nominal_power"]) == ("1.6 kW", "1.4 kW")
    # 1+1 switch, 650 W / 650 W on a primary and a redundant feed: max(650, 650) = 650 W;
    # the planned and the offline server on the same feed are not load by default
    switch = _figures(doc, "SW-RACK")
    assert (switch["peak_power"], switch["nominal_power"]) == ("0.65 kW", "0.65 kW")
    # Patch panels only: passive, no PDUs due (PWR-004 does not apply)
    patch = _figures(doc, "PATCH-RACK")
    assert patch["passive"] is True and "peak_power" not in patch
    # 125 kg frame + 2 × 1.5 kg panels = 128 kg
    assert patch["empty_mass"] == "128 kg"
    assert tally["rack"] == (6, 6, 0)
    assert tally["power feed"][1] == sum(
        side["count"] for rack in doc["racks"] for side in rack.get("pdus", {}).values()
    )
    # the planned server's port and the offline server's port are named with their device
    skipped = {e.reason for e in report.entries if e.kind == "power port"}
    assert "its device's status is planned: not load: srv-planned PSU1" in skipped
    assert "its device's status is offline: not load: srv-offline PSU1" in skipped


def test_planned_devices_count_when_asked_for() -> None:
    doc, _, tally = _shapes(include_planned=True)
    switch = _figures(doc, "SW-RACK")
    # 650 W + the planned server's 500 W = 1 150 W peak; 650 + 450 = 1 100 W nominal
    assert (switch["peak_power"], switch["nominal_power"]) == ("1.15 kW", "1.1 kW")
    assert tally["power port"][2] == 1  # only the offline server's port is not load


def test_duplicate_location_names_and_control_characters_import_apart_and_escaped() -> None:
    doc, report, _ = _shapes()
    ids = {r["id"] for r in doc["racks"]}
    assert {"Hall 1/Row A/R1", "Hall 2/Row A/R1"} <= ids
    assert {r["id"] for r in doc["rooms"]} >= {"Hall 1/Row A", "Hall 2/Row A"}
    assert "CTRL\\x07RACK" in ids  # BEL written as the four characters \x07
    text = render(doc, report) + report.text()
    assert "\x07" not in text and "\x1b" not in text


def test_an_older_netbox_without_cooling_objects_is_reported_not_failed() -> None:
    snap = hall_b3()
    snap.status["netbox-version"] = "4.2.9"
    snap.cooling_sources, snap.cooling_feeds = [], []
    why = "NetBox 4.2.9 has no cooling objects (new in 4.7)"
    snap.unavailable = {"cooling_sources": why, "cooling_feeds": why}
    doc, report = map_site(snap, "NetBox 4.2.9 at http://127.0.0.1:58001, site hall-b3")
    check_document(render(doc, report))
    _accounted(report)
    gaps = {(e.kind, e.reason) for e in report.entries if e.action == "gap"}
    assert ("cooling sources", f"not read: {why}") in gaps
    assert "cooling" not in doc  # no air units or water loops invented


@pytest.mark.parametrize("supplies", ["larger-side", "sum"])
def test_hall_b3_adds_up_under_either_supply_convention(supplies: str) -> None:
    doc, report = map_site(hall_b3(), SOURCE, redundant_supplies=supplies)
    _accounted(report)
    gb300 = next(t for t in doc["rack_types"] if t["id"] == "gb300-b3")
    # larger side: 4 × 38 750 W = 155 kW; sum of all 8 supplies: 8 × 38 750 W = 310 kW
    assert gb300["peak_power"] == ("155 kW" if supplies == "larger-side" else "310 kW")
