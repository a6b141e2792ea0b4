"""The mapping of NetBox objects to our site format, on responses recorded from NetBox 4.7.3."""

from __future__ import annotations

import pytest

from facility.imports.netbox import check_document, render
from facility.imports.netbox_map import MappingError, map_site

from ._snapshot import hall_b3, named

SOURCE = "NetBox 4.7.3 at http://127.0.0.1:58001, site hall-b3"


def _map(snap=None):
    return map_site(snap or hall_b3(), SOURCE)


def _rack_type(doc: dict, type_id: str) -> dict:
    return next(t for t in doc["rack_types"] if t["id"] == type_id)


def _rack(doc: dict, rack_id: str) -> dict:
    return next(r for r in doc["racks"] if r["id"] == rack_id)


def test_hall_b3_rack_types() -> None:
    doc, _ = _map()
    assert [t["id"] for t in doc["rack_types"]] == ["gb300-b3", "atlas-b3"]
    gb300 = _rack_type(doc, "gb300-b3")
    # 8 PSUs, 4 on side A and 4 on side B: redundant inlets of one load, the larger side
    # counts: 4 × 38 750 W maximum = 155 000 W; 4 × 33 750 W allocated = 135 000 W
    assert gb300["peak_power"] == "155 kW" and gb300["nominal_power"] == "135 kW"
    # rack 140 kg + device type 1 300 kg = 1 440 kg, without coolant: an empty mass
    assert gb300["empty_mass"] == "1440 kg" and "filled_mass" not in gb300
    assert gb300["max_payload"] == "1600 kg"
    assert gb300["footprint"] == {"width": "600 mm", "depth": "1200 mm"}
    assert gb300["cooling"] == "liquid"  # rack cooling capability liquid-only
    atlas = _rack_type(doc, "atlas-b3")
    # 2 PSUs, one per side: the larger side, 38 000 W peak; 32 000 W nominal
    assert (atlas["peak_power"], atlas["nominal_power"]) == ("38 kW", "32 kW")
    # rack 220.46 lb × 0.45359237 = 99.99897 kg + device type 950 kg = 1 049.999 kg (to the gram)
    assert atlas["empty_mass"] == "1049.999 kg"
    assert atlas["max_payload"] == "3000 lb"  # kept in NetBox's unit; the loader converts it


def test_feeds_become_pdus_on_two_sides() -> None:
    doc, _ = _map()
    a01 = _rack(doc, "A01")
    assert a01["type"] == "gb300-b3"
    assert a01["pdus"]["A"] == {
        "type": "feed-415V-3ph-63A-80pct",
        "count": 4,
        "names": ["A01-A1", "A01-A2", "A01-A3", "A01-A4"],
    }
    assert a01["pdus"]["B"]["names"] == ["A01-B1", "A01-B2", "A01-B3", "A01-B4"]
    pdu = next(t for t in doc["power"]["pdu_types"] if t["id"] == "feed-415V-3ph-63A-80pct")
    assert (pdu["voltage"], pdu["phases"], pdu["breaker_rating"], pdu["derating"]) == (
        "415 V", 3, "63 A", "80 %",
    )  # fmt: skip
    # available power in the name: 415 × 63 × √3 × 0.80 = 36 227.6 → 36 228 VA
    assert "36228 VA" in pdu["name"]
    assert _rack(doc, "B07")["pdus"]["B"]["type"] == "feed-415V-3ph-80A-80pct"


def test_imported_site_loads_and_audits_with_gaps() -> None:
    from facility.engine.evaluate import audit
    from facility.model.load import load_site

    doc, report = _map()
    text = render(doc, report)
    check_document(text)
    import pathlib
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = pathlib.Path(d) / "hall-b3-netbox.yaml"
        path.write_text(text)
        site = load_site(path)
        result = audit(site)
    assert len(site.racks) == 20 and len(site.pdus) == 88
    # The rack loads arrive: 8 × 135 + 12 × 32 = 1 464 kW nominal, as in Hall B3.
    assert sum(r.type.figures.nominal_power for r in site.racks) == pytest.approx(1_464_000)
    missing = {f.rule for f in result.findings if f.status == "not_evaluated"}
    assert {"FLR-001", "PWR-001"} <= missing  # no floor zone; no power factor
    # A gap is never a pass: no floor check passed without a zone.
    assert not [f for f in result.findings if f.rule == "FLR-001" and f.status == "pass"]


def test_header_lists_the_gaps_and_never_a_token() -> None:
    doc, report = _map()
    text = render(doc, report)
    assert text.startswith("# Imported by 'facility import netbox' from NetBox 4.7.3")
    for gap in ("floor_zones", "tcs_loops", "power_factor", "liquid_heat_fraction", "casters"):
        assert gap in text
    assert "nbt_" not in text and "facilityItOnly" not in text


def test_report_lists_guesses_and_gaps() -> None:
    _, report = _map()
    text = report.text()
    assert "- rack B01: cooling capability hybrid: taken as liquid" in text
    assert "- cooling source CRAH-2: CRAH cooling_capacity 100 kW taken as its sensible" in text
    assert "- power panel PP-A: no electrical ratings in NetBox" in text
    # 47 gpm × 3.785411784 L/gal = 177.9 L/min (US gallons)
    assert "A01 (140 kW, 177.9 L/min (47 gpm))" in text
    assert "B12 (35 kW, 60 L/min)" in text


def test_cooling_sources() -> None:
    doc, _ = _map()
    assert doc["cooling"]["facility_water"] == [{"id": "FW-1"}]
    assert doc["cooling"]["air_units"][0] == {
        "id": "CRAH-1", "sensible_capacity": "100 kW", "room": "B3",
    }  # fmt: skip
    assert doc["rooms"] == [{"id": "B3", "name": "B3"}]


def test_glycol_chiller_is_skipped_not_taken_as_water() -> None:
    snap = hall_b3()
    named(snap.cooling_sources, "FW-1")["fluid_type"] = {"value": "water-glycol", "label": "W"}
    doc, report = _map(snap)
    assert "facility_water" not in doc["cooling"]
    assert any(e.action == "skipped" and e.name == "FW-1" for e in report.entries)


def test_failed_and_dc_feeds_are_skipped() -> None:
    snap = hall_b3()
    named(snap.power_feeds, "A01-A4")["status"] = {"value": "failed", "label": "Failed"}
    named(snap.power_feeds, "A02-B1")["supply"] = {"value": "dc", "label": "DC"}
    doc, report = _map(snap)
    assert _rack(doc, "A01")["pdus"]["A"]["count"] == 3
    assert _rack(doc, "A02")["pdus"]["B"]["names"] == ["A02-B2", "A02-B3", "A02-B4"]
    skipped = {(e.name, e.reason) for e in report.of("skipped")}
    assert ("A01-A4", "status failed") in skipped
    assert ("A02-B1", "DC supply: our PDUs are AC circuits") in skipped


def test_single_phase_feed() -> None:
    snap = hall_b3()
    for name in ("B03-A1", "B03-B1"):
        feed = named(snap.power_feeds, name)
        feed["phase"] = {"value": "single-phase", "label": "Single phase"}
        feed["voltage"], feed["amperage"] = 230, 32
    doc, _ = _map(snap)
    pdu = next(t for t in doc["power"]["pdu_types"] if t["id"] == "feed-230V-1ph-32A-80pct")
    assert pdu["phases"] == 1
    assert "5888 VA" in pdu["name"]  # 230 V × 32 A × 0.80 = 5 888 VA, no √3


def test_mixed_ratings_on_one_side_take_the_smallest() -> None:
    snap = hall_b3()
    named(snap.power_feeds, "A03-A2")["amperage"] = 32
    doc, report = _map(snap)
    assert _rack(doc, "A03")["pdus"]["A"]["type"] == "feed-415V-3ph-32A-80pct"
    assert any(e.action == "guessed" and "smallest" in e.reason for e in report.entries)


def test_feed_without_rack_follows_its_cable() -> None:
    snap = hall_b3()
    named(snap.power_feeds, "A05-B3")["rack"] = None
    doc, report = _map(snap)
    assert "A05-B3" in _rack(doc, "A05")["pdus"]["B"]["names"]
    assert any(e.name == "A05-B3" and e.action == "guessed" for e in report.entries)


@pytest.mark.parametrize(
    ("unit", "weight", "empty_mass"),
    [
        ("g", 1_300_000, "1440 kg"),  # 140 kg + 1 300 000 g / 1000 = 1 440 kg
        ("lb", 2866, "1440.0 kg"),  # 140 + 2 866 lb × 0.45359237 = 140 + 1 299.996 kg
        ("oz", 45856, "1440 kg"),  # 140 + 45 856 oz × 0.028349523125 = 140 + 1 299.996 kg
    ],
)
def test_device_type_weight_units(unit: str, weight: float, empty_mass: str) -> None:
    snap = hall_b3()
    dt = next(d for d in snap.device_types if d["slug"] == "gb300-b3")
    dt["weight"], dt["weight_unit"] = weight, {"value": unit, "label": unit}
    doc, _ = _map(snap)
    got = float(_rack_type(doc, "gb300-b3")["empty_mass"].split()[0])
    assert got == pytest.approx(float(empty_mass.split()[0]), abs=0.01)


def test_missing_weight_is_a_gap_not_a_lower_bound() -> None:
    snap = hall_b3()
    next(d for d in snap.device_types if d["slug"] == "atlas-b3")["weight"] = None
    doc, report = _map(snap)
    assert "empty_mass" not in _rack_type(doc, "atlas-b3")
    assert any(e.action == "gap" and "device type atlas-b3" in e.reason for e in report.entries)


def test_missing_draw_is_a_gap() -> None:
    snap = hall_b3()
    port = next(p for p in snap.power_ports if p["device"]["name"] == "A01-compute")
    port["allocated_draw"] = None
    doc, report = _map(snap)
    types = {t["id"]: t for t in doc["rack_types"]}
    # A01 now differs from A02 … A08: two rack types with the same devices
    assert "nominal_power" not in types[_rack(doc, "A01")["type"]]
    assert types[_rack(doc, "A02")["type"]]["nominal_power"] == "135 kW"
    assert sorted(types) == ["atlas-b3", "gb300-b3", "gb300-b3-2"]
    assert any(e.action == "gap" and "allocated_draw" in e.reason for e in report.entries)


def test_an_empty_rack_is_a_passive_rack_with_its_own_mass() -> None:
    snap = hall_b3()
    snap.devices = [d for d in snap.devices if d["rack"]["name"] != "B12"]
    doc, report = _map(snap)
    b12 = _rack_type(doc, _rack(doc, "B12")["type"])
    assert b12["passive"] is True and "peak_power" not in b12 and "nominal_power" not in b12
    # the rack's own weight, 220.46 lb × 0.45359237 = 99.999 kg: its mass still counts
    assert b12["empty_mass"] == "99.999 kg"
    assert ("B12", "no devices: a passive rack (no power or heat load; its mass counts)") in {
        (e.name, e.reason) for e in report.entries
    }


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda s: named(s.power_feeds, "A01-A1").update(voltage="lots"),
            "voltage is not a number",
        ),
        (
            lambda s: named(s.power_feeds, "A01-A1").update(amperage=-63),
            "amperage must be positive",
        ),
        (lambda s: named(s.power_feeds, "A01-A1").update(max_utilization=180), "at most 100"),
        (lambda s: named(s.racks, "A01").update(weight_unit={"value": "stone"}), "unknown weight"),
        (lambda s: named(s.racks, "A01").update(weight=float("nan")), "weight is not a number"),
    ],
)
def test_bad_values_are_errors_naming_the_object(mutate, message: str) -> None:
    snap = hall_b3()
    mutate(snap)
    with pytest.raises(MappingError, match=message):
        _map(snap)


class _CountingPort(dict):
    """A power port that counts how often the mapping reads it."""

    reads = 0

    def get(self, *args):
        _CountingPort.reads += 1
        return super().get(*args)

    def __getitem__(self, key):
        _CountingPort.reads += 1
        return super().__getitem__(key)


def _reads_per_port(snap) -> float:
    snap.power_ports = [_CountingPort(p) for p in snap.power_ports]
    _CountingPort.reads = 0
    _map(snap)
    return _CountingPort.reads / len(snap.power_ports)


def test_the_mapping_reads_each_power_port_a_fixed_number_of_times() -> None:
    # Linear in the site: the power ports are indexed by device once, not searched for each
    # rack (which read every port twice per rack: 84 reads a port on Hall B3's 20 racks, 60 on
    # its 8 racks of row A). Hall B3 whole and row A alone read each port as often.
    whole = _reads_per_port(hall_b3())
    part = hall_b3()
    part.racks = [r for r in part.racks if r["name"].startswith("A")]
    kept = {r["id"] for r in part.racks}
    part.devices = [d for d in part.devices if d["rack"]["id"] in kept]
    devices = {d["id"] for d in part.devices}
    part.power_ports = [p for p in part.power_ports if p["device"]["id"] in devices]
    assert len(part.racks) < len(hall_b3().racks)
    assert abs(_reads_per_port(part) - whole) <= 1
