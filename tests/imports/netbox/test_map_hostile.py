"""The mapping of objects NetBox should never return: an object without an id, a list item
that is not an object, a field of the wrong JSON type. Each is skipped and reported, with the
reason, never a traceback; every object read is mapped or in the mapping report."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from facility.cli import app
from facility.imports import netbox_fetch
from facility.imports.netbox import check_document, render
from facility.imports.netbox_map import MappingError, Snapshot, map_site

from ._snapshot import hall_b3, named

SOURCE = "NetBox 4.7.3 at http://127.0.0.1:58001, site hall-b3"


def _map(snap: Snapshot):
    doc, report = map_site(snap, SOURCE)
    check_document(render(doc, report))  # and what is mapped still loads
    return doc, report


def _skipped(report) -> set[tuple[str, str, str]]:
    return {(e.kind, e.name, e.reason) for e in report.of("skipped")}


def _racks(doc: dict) -> set[str]:
    return {r["id"] for r in doc["racks"]}


def test_a_rack_without_an_id_is_skipped_with_its_devices_and_feeds() -> None:
    snap = hall_b3()
    del named(snap.racks, "B12")["id"]
    doc, report = _map(snap)
    assert _racks(doc) == _racks(_map(hall_b3())[0]) - {"B12"}
    skipped = _skipped(report)
    assert ("rack", "B12", "cannot be read: no id") in skipped
    assert ("device", "B12-compute", "its rack #20 is not mapped") in skipped
    assert ("power feed", "B12-A1", "not on a rack of this site") in skipped


def test_list_items_that_are_not_objects_are_skipped() -> None:
    snap = hall_b3()
    snap.racks.append(7)
    snap.devices.insert(0, None)
    snap.power_feeds.append("A01-A5")
    snap.device_types.append([1, 2])
    snap.cooling_sources.append(True)
    doc, report = _map(snap)
    assert len(doc["racks"]) == 20
    skipped = _skipped(report)
    assert ("rack", "item 21", "cannot be read: not an object but a number") in skipped
    assert ("device", "item 1", "cannot be read: not an object but null") in skipped
    assert ("power feed", "item 89", "cannot be read: not an object but a string") in skipped
    assert ("device type", "item 3", "cannot be read: not an object but a list") in skipped
    assert ("cooling source", "item 5", "cannot be read: not an object but a boolean") in skipped


def test_a_second_object_with_the_same_id_is_skipped() -> None:
    snap = hall_b3()
    twin = copy.deepcopy(named(snap.racks, "A01")) | {"name": "A01-twin"}
    snap.racks.append(twin)
    doc, report = _map(snap)
    assert "A01-twin" not in _racks(doc) and "A01" in _racks(doc)
    assert ("rack", "A01-twin", "cannot be read: a second rack with id 1") in _skipped(report)


@pytest.mark.parametrize(
    ("kind", "name", "field", "value", "reason", "rack_gone"),
    [
        ("racks", "A01", "location", "B3", "field 'location' is a string, not a related object", "A01"),
        ("racks", "A02", "status", {"value": 3}, "field 'status' is a number, not a choice", "A02"),
        ("racks", "A03", "weight", {"value": 140}, "field 'weight' is an object, not a number", "A03"),
        ("racks", "A04", "name", 42, "field 'name' is a number, not a string", None),
        ("power_feeds", "A01-A1", "power_panel", ["PP-A"], "field 'power_panel' is a list, not a related object", None),
        ("power_feeds", "A01-A2", "connected_endpoints", {"id": 1}, "field 'connected_endpoints' is not a list of objects", None),
        ("power_feeds", "A01-A3", "voltage", True, "field 'voltage' is a boolean, not a number", None),
        ("devices", "A05-compute", "device_type", "gb300-b3", "field 'device_type' is a string, not a related object", "A05"),
        ("cooling_sources", "CRAH-1", "type", ["crah"], "field 'type' is a list, not a choice", None),
        ("locations", "B3", "id", "1", "its id is a string", None),
    ],
)  # fmt: skip
def test_a_field_of_the_wrong_type_skips_its_object(
    kind: str, name: str, field: str, value: object, reason: str, rack_gone: str | None
) -> None:
    snap = hall_b3()
    named(getattr(snap, kind), name)[field] = value
    doc, report = _map(snap)
    label = "42" if value == 42 else name
    singular = {"racks": "rack", "power_feeds": "power feed", "devices": "device"}
    singular |= {"cooling_sources": "cooling source", "locations": "location"}
    assert (singular[kind], label, f"cannot be read: {reason}") in _skipped(report)
    if kind == "racks":
        assert name not in _racks(doc)
    if rack_gone and kind != "racks":  # a rack with an unreadable device is not mapped short
        assert rack_gone not in _racks(doc)
        assert ("rack", rack_gone, f"its device {name} cannot be read") in _skipped(report)


def test_an_unreadable_power_port_skips_its_rack_rather_than_count_it_short() -> None:
    snap = hall_b3()
    port = next(p for p in snap.power_ports if p["device"]["name"] == "A06-compute")
    port["maximum_draw"] = [19375]
    doc, report = _map(snap)
    assert "A06" not in _racks(doc)
    assert any(
        e.kind == "rack" and e.name == "A06" and "power port PS" in e.reason
        for e in report.of("skipped")
    )


def test_an_unreadable_device_type_leaves_a_gap_not_a_lighter_rack() -> None:
    snap = hall_b3()
    next(d for d in snap.device_types if d["slug"] == "atlas-b3")["weight_unit"] = 5
    doc, report = _map(snap)
    reason = "cannot be read: field 'weight_unit' is a number, not a choice"
    assert [e.reason for e in report.of("skipped") if e.kind == "device type"] == [reason]
    b01 = next(r for r in doc["racks"] if r["id"] == "B01")
    assert "empty_mass" not in next(t for t in doc["rack_types"] if t["id"] == b01["type"])
    assert any(e.name == "B01" and "B01-compute's type" in e.reason for e in report.of("gap"))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda s: setattr(s, "site", [1]), "the site is a list, not an object"),
        (lambda s: setattr(s, "racks", {"A01": {}}), "the racks are an object, not a list"),
    ],
)
def test_a_snapshot_of_the_wrong_shape_is_a_mapping_error(mutate, message: str) -> None:
    snap = hall_b3()
    mutate(snap)
    with pytest.raises(MappingError, match=message):
        map_site(snap, SOURCE)


@pytest.mark.parametrize("amperage", [2.5e305, 2**31, 1e300])
def test_a_figure_beyond_what_netbox_stores_is_a_mapping_error(amperage: float) -> None:
    # Volts · amperes of 2.5e305 A overflow a float (found by the fuzz test below): no NetBox
    # numeric field holds more than 2**31 - 1, so such a figure is not NetBox's.
    snap = hall_b3()
    named(snap.power_feeds, "B12-A1")["amperage"] = amperage
    with pytest.raises(MappingError, match=r"amperage is .*, more than NetBox stores in any"):
        map_site(snap, SOURCE)


def test_an_unloadable_import_names_the_file_about_to_be_written_not_a_temporary_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import tempfile

    snap = hall_b3()
    for port in snap.power_ports:  # allocated above maximum (NetBox's own form refuses it)
        if port["device"]["name"] == "A01-compute":
            port["allocated_draw"] = 50_000  # 4 × 50 kW nominal > 4 × 38.75 kW peak
    monkeypatch.setattr(netbox_fetch, "fetch", lambda *a, **k: snap)
    out = tmp_path / "hall-b3-netbox.yaml"
    result = CliRunner().invoke(
        app,
        ["import", "netbox", "--url", "http://127.0.0.1:9", "--site", "hall-b3", "-o", str(out)],
        env={"NETBOX_TOKEN": "nbt_x.y"},
    )
    assert result.exit_code == 2, result.output
    assert "error: hall-b3-netbox.yaml:" in result.output
    assert tempfile.gettempdir() not in result.output and "facility-netbox-" not in result.output
    assert "Traceback" not in result.output and not out.exists()


# --- never a traceback, whatever the values --------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=5,
)
_FIELDS = (
    "id", "name", "rack", "location", "device", "device_type", "power_panel", "status", "type",
    "phase", "supply", "voltage", "amperage", "max_utilization", "weight", "weight_unit",
    "maximum_draw", "allocated_draw", "connected_endpoints", "connected_endpoints_type",
    "cooling_source", "max_flow", "max_flow_unit", "outer_unit", "outer_width", "slug",
    "power_port", "feed_leg",
)  # fmt: skip


_edits = st.lists(
    st.tuples(
        st.sampled_from(Snapshot.KEYS),
        st.integers(0, 200),
        st.sampled_from(_FIELDS) | st.none(),  # None: the whole object
        _json,
    ),
    min_size=1,
    max_size=4,
)


def _mapped_reported_or_refused(edits: list) -> None:
    snap = hall_b3()
    for key, index, field, value in edits:
        objects = getattr(snap, key)
        if not objects:  # a kind Hall B3 has none of (power outlets): give it one to spoil
            objects.append({"id": 900_000 + index, "name": f"added {index}"})
        at = index % len(objects)
        if field is None:
            objects[at] = value
        elif isinstance(objects[at], dict):
            objects[at][field] = value
    try:
        doc, report = map_site(snap, SOURCE)
    except MappingError as exc:  # a value NetBox should never return, named: exit 2
        assert str(exc)
    else:
        assert render(doc, report).startswith("# Imported by")
        assert report.twice == []  # every object read settled once, and the counts add up
        for kind, (read, mapped, not_mapped) in report.tally().items():
            assert read == mapped + not_mapped and not report.unsettled(kind), kind


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=_edits)
def test_any_value_in_any_field_is_mapped_reported_or_a_mapping_error(edits: list) -> None:
    _mapped_reported_or_refused(edits)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=_edits)
def test_any_value_in_any_field_longer(edits: list) -> None:
    _mapped_reported_or_refused(edits)
