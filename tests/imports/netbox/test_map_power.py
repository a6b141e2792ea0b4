"""Rack power from NetBox's ports and outlets, as NetBox's own model has it; device status;
passive racks; and every object read accounted for in the mapping report.

Small snapshots built here in NetBox 4.7's JSON shapes (the fields the mapping reads), one per
shape; the recorded responses of a real server are replayed in test_map_recorded.py."""

from __future__ import annotations

from typing import Any

import pytest

from facility.imports.netbox import check_document, render
from facility.imports.netbox_map import Snapshot, map_site

SOURCE = "NetBox 4.7.3 at http://127.0.0.1:58001, site s1"


class _Site:
    """A NetBox site under construction: ids given in order, nested refs as NetBox nests them."""

    def __init__(self) -> None:
        self.next_id = 100
        self.snap = Snapshot(
            status={"netbox-version": "4.7.3"}, site={"id": 1, "name": "S1", "slug": "s1"}
        )
        self.panel = self.add("power_panels", name="PP-1")

    def add(self, key: str, **fields: Any) -> dict:
        self.next_id += 1
        obj = {"id": self.next_id, **fields}
        getattr(self.snap, key).append(obj)
        return obj

    def rack(self, name: str, weight: float = 100.0) -> dict:
        return self.add(
            "racks", name=name, weight=weight, weight_unit={"value": "kg"},
            outer_width=600, outer_depth=1200, outer_unit={"value": "mm"},
            status={"value": "active"},
        )  # fmt: skip

    def device_type(self, slug: str, weight: float = 10.0) -> dict:
        return self.add(
            "device_types", slug=slug, model=slug.upper(), weight=weight,
            weight_unit={"value": "kg"},
        )  # fmt: skip

    def device(self, name: str, rack: dict, dtype: dict, status: str = "active") -> dict:
        return self.add(
            "devices", name=name, rack={"id": rack["id"], "name": rack["name"]},
            device_type={"id": dtype["id"]}, status={"value": status},
        )  # fmt: skip

    def feed(self, name: str, rack: dict, side: str = "primary") -> dict:
        return self.add(
            "power_feeds", name=name, rack={"id": rack["id"], "name": rack["name"]},
            power_panel={"id": self.panel["id"], "name": "PP-1"}, type={"value": side},
            status={"value": "active"}, supply={"value": "ac"}, phase={"value": "single-phase"},
            voltage=230, amperage=32, max_utilization=80,
        )  # fmt: skip

    def port(
        self, device: dict, name: str, maximum=None, allocated=None, to: dict | None = None
    ) -> dict:
        port = self.add(
            "power_ports", name=name, device={"id": device["id"], "name": device["name"]},
            maximum_draw=maximum, allocated_draw=allocated, connected_endpoints=None,
            connected_endpoints_type=None,
        )  # fmt: skip
        if to is not None:
            port["connected_endpoints"] = [{"id": to["id"], "name": to["name"]}]
            kind = "dcim.poweroutlet" if "power_port" in to else "dcim.powerfeed"
            port["connected_endpoints_type"] = kind
            if kind == "dcim.poweroutlet":
                port["connected_endpoints"][0]["device"] = to["device"]
        return port

    def outlet(self, device: dict, name: str, inlet: dict | None, leg: str = "A") -> dict:
        return self.add(
            "power_outlets", name=name, device={"id": device["id"], "name": device["name"]},
            power_port={"id": inlet["id"]} if inlet else None, feed_leg={"value": leg},
        )  # fmt: skip


def _rename_device(site: _Site, name: str) -> None:
    """Rename the first device, where NetBox nests its name too (its ports)."""
    device = site.snap.devices[0]
    device["name"] = name
    for port in site.snap.power_ports:
        if port["device"]["id"] == device["id"]:
            port["device"]["name"] = name


def _map(site: _Site, **options):
    doc, report = map_site(site.snap, SOURCE, **options)
    check_document(render(doc, report))  # every shape loads as a site file
    _assert_accounted(report)
    return doc, report


def _assert_accounted(report) -> None:
    """Every object read is mapped or not, once; the counts add up; nothing fell through."""
    assert report.twice == []
    for kind, (read, mapped, not_mapped) in report.tally().items():
        assert read == mapped + not_mapped, kind
        assert report.unsettled(kind) == [], kind
    assert not [e for e in report.entries if e.reason == "not used by the mapping"]


def _type_of(doc: dict, rack: str) -> dict:
    type_id = next(r["type"] for r in doc["racks"] if r["id"] == rack)
    return next(t for t in doc["rack_types"] if t["id"] == type_id)


def _dual_inlet_pdu_rack(site: _Site) -> None:
    rack = site.rack("R-PDU")
    pdu = site.device("PDU-1", rack, site.device_type("dual-inlet-pdu", 8.0))
    inlets = [site.port(pdu, f"Inlet {n}", to=site.feed(f"F{n}", rack)) for n in (1, 2)]
    outlets = [site.outlet(pdu, f"O{n}", inlets[n // 4], leg="ABC"[n % 3]) for n in range(8)]
    server = site.device_type("server-1psu", 20.0)
    for n, outlet in enumerate(outlets[::2]):  # outlets O0, O2 (inlet 1) and O4, O6 (inlet 2)
        srv = site.device(f"srv{n}", rack, server)
        site.port(srv, "PSU1", maximum=400, allocated=350, to=outlet)


def test_a_dual_inlet_pdu_carries_each_outlet_through_its_own_inlet() -> None:
    site = _Site()
    _dual_inlet_pdu_rack(site)
    doc, report = _map(site)
    figures = _type_of(doc, "R-PDU")
    # 4 servers × 400 W = 1.6 kW peak, × 350 W = 1.4 kW nominal: each counted under the one
    # inlet its outlet belongs to (not under both inlets: 3.2 kW / 2.8 kW)
    assert (figures["peak_power"], figures["nominal_power"]) == ("1.6 kW", "1.4 kW")
    # mass: rack 100 kg + PDU 8 kg + 4 × 20 kg = 188 kg
    assert figures["empty_mass"] == "188 kg"
    tally = report.tally()
    assert tally["power port"] == (6, 6, 0)  # 2 inlets + 4 supplies, all counted
    assert tally["power outlet"] == (8, 4, 4)  # 4 feed a server; 4 idle, reported
    assert ("note", "PDU-1: 4 outlets") in {(e.action, e.name) for e in report.entries}


def test_an_inlet_on_a_three_phase_feed_shows_its_legs() -> None:
    site = _Site()
    _dual_inlet_pdu_rack(site)
    for feed in site.snap.power_feeds:
        feed["phase"], feed["voltage"] = {"value": "three-phase"}, 415
    _, report = _map(site)
    legs = {e.name: e.reason for e in report.entries if "feed leg" in e.reason}
    # inlet 1 feeds O0 (leg A) and O2 (leg C), 400 W each; inlet 2 feeds O4 (B) and O6 (A)
    assert "A 400 W, C 400 W" in legs["R-PDU: PDU-1 Inlet 1"]
    assert "A 400 W, B 400 W" in legs["R-PDU: PDU-1 Inlet 2"]


def test_an_inlet_with_a_draw_of_its_own_is_taken_as_it_is() -> None:
    site = _Site()
    _dual_inlet_pdu_rack(site)
    inlet1 = next(p for p in site.snap.power_ports if p["name"] == "Inlet 1")
    inlet1["maximum_draw"], inlet1["allocated_draw"] = 1000, 900  # NetBox: stated figures win
    doc, _ = _map(site)
    figures = _type_of(doc, "R-PDU")
    # inlet 1 as stated, 1 000 W / 900 W (its two servers inside it) + inlet 2's two servers
    # 2 × 400 = 800 W / 2 × 350 = 700 W → 1.8 kW / 1.6 kW
    assert (figures["peak_power"], figures["nominal_power"]) == ("1.8 kW", "1.6 kW")


def _one_plus_one_switch(site: _Site) -> tuple[dict, dict]:
    rack = site.rack("R-SW")
    switch = site.device("sw1", rack, site.device_type("switch-1u", 9.0))
    site.port(switch, "PSU1", maximum=650, allocated=650, to=site.feed("SW-A", rack))
    site.port(switch, "PSU2", maximum=650, allocated=650, to=site.feed("SW-B", rack, "redundant"))
    return rack, switch


def test_redundant_supplies_of_one_device_count_once_by_default() -> None:
    site = _Site()
    _one_plus_one_switch(site)
    doc, report = _map(site)
    figures = _type_of(doc, "R-SW")
    # PSU1 on side A, PSU2 on side B: one 650 W load that either side carries alone →
    # max(650, 650) = 650 W peak and nominal (not 650 + 650 = 1.3 kW)
    assert (figures["peak_power"], figures["nominal_power"]) == ("0.65 kW", "0.65 kW")
    (entry,) = [e for e in report.entries if "redundant inlets" in e.reason]
    assert entry.name == "R-SW" and entry.reason.endswith("for 1 device: sw1")
    summed, _ = map_site(site.snap, SOURCE, redundant_supplies="sum")
    # every supply's figures as its share: 650 + 650 = 1 300 W
    assert _type_of(summed, "R-SW")["peak_power"] == "1.3 kW"


def test_planned_and_offline_devices_are_not_load_unless_planned_is_asked_for() -> None:
    site = _Site()
    rack, _ = _one_plus_one_switch(site)
    feed = next(f for f in site.snap.power_feeds if f["name"] == "SW-A")
    server = site.device_type("server-1psu", 20.0)
    for name, status in (("planned1", "planned"), ("off1", "offline"), ("inv1", "inventory")):
        device = site.device(name, rack, server, status=status)
        site.port(device, "PSU1", maximum=500, allocated=450, to=feed)
    doc, report = _map(site)
    figures = _type_of(doc, "R-SW")
    assert figures["peak_power"] == "0.65 kW"  # the switch alone
    # mass: rack 100 + switch 9 + the offline server 20 (installed, it weighs) = 129 kg;
    # the planned server is not there yet, the inventory one is in stock
    assert figures["empty_mass"] == "129 kg"
    notes = {e.name: e.reason for e in report.entries if e.kind == "device"}
    assert notes["R-SW: off1"].startswith("status offline: its mass is counted")
    assert notes["R-SW: planned1"].startswith("status planned: neither")
    with_planned, _ = _map(site, include_planned=True)
    planned = _type_of(with_planned, "R-SW")
    # 650 W + the planned server's 500 W = 1 150 W peak; 650 + 450 = 1 100 W nominal
    assert (planned["peak_power"], planned["nominal_power"]) == ("1.15 kW", "1.1 kW")
    assert planned["empty_mass"] == "149 kg"  # 129 + 20 kg


def test_a_rack_of_patch_panels_is_a_passive_rack() -> None:
    site = _Site()
    rack = site.rack("PATCH", weight=80.0)
    panels = site.device_type("patch-panel-48", 2.5)
    for n in (1, 2):
        site.device(f"pp{n}", rack, panels)
    doc, report = _map(site)
    figures = _type_of(doc, "PATCH")
    assert figures["passive"] is True
    assert "peak_power" not in figures and "cooling" not in figures
    assert figures["empty_mass"] == "85 kg"  # 80 kg + 2 × 2.5 kg
    assert "pdus" not in next(r for r in doc["racks"] if r["id"] == "PATCH")
    assert not [e for e in report.entries if e.reason == "no power feed: no PDUs"]


def test_a_port_cabled_to_an_outlet_of_an_uncounted_pdu_is_counted_in_its_own_rack() -> None:
    site = _Site()
    rack = site.rack("R1")
    pdu = site.device("PDU-off", rack, site.device_type("pdu", 8.0), status="offline")
    inlet = site.port(pdu, "Inlet", to=site.feed("F1", rack))
    outlet = site.outlet(pdu, "O1", inlet)
    srv = site.device("srv", rack, site.device_type("server", 20.0))
    site.port(srv, "PSU1", maximum=400, allocated=350, to=outlet)
    doc, report = _map(site)
    # the offline PDU is not load, but the active server behind it is: 400 W / 350 W
    assert _type_of(doc, "R1")["peak_power"] == "0.4 kW"
    assert any("counted in this rack directly" in e.reason for e in report.entries)


@pytest.mark.parametrize("name", ["CTRL\x07RACK", "srv\x1b[31m", "tab\there", "bidi\u202eevil"])
def test_control_characters_in_names_are_escaped_and_the_file_loads(name: str) -> None:
    site = _Site()
    _one_plus_one_switch(site)
    site.snap.racks[0]["name"] = name
    _rename_device(site, name)
    doc, report = _map(site)
    (rack,) = doc["racks"]
    assert rack["id"] == name.encode("unicode_escape").decode("ascii").replace("\\\\", "\\")
    text = render(doc, report) + report.text()
    assert not any(ch in text for ch in "\x07\x1b\u202e") and "\there" not in text


def test_locations_of_the_same_name_under_other_parents_stay_apart() -> None:
    site = _Site()
    halls = [site.add("locations", name=f"Hall {n}", parent=None) for n in (1, 2)]
    rows = [site.add("locations", name="Row A", parent={"id": h["id"]}) for h in halls]
    for row in rows:
        rack = site.rack("R1")
        rack["location"] = {"id": row["id"], "name": "Row A"}
        device = site.device("d", rack, site.device_type("server", 20.0))
        site.port(device, "PSU1", maximum=400, allocated=350, to=site.feed(f"F{row['id']}", rack))
    doc, report = _map(site)
    assert sorted(r["id"] for r in doc["racks"]) == ["Hall 1/Row A/R1", "Hall 2/Row A/R1"]
    rooms = {r["id"]: r["name"] for r in doc["rooms"]}
    assert rooms == {"Hall 1/Row A": "Row A", "Hall 2/Row A": "Row A"}  # names kept
    tally = report.tally()
    assert tally["location"] == (4, 2, 2)  # the halls hold no rack of their own: reported


def test_the_report_escapes_netbox_text() -> None:
    site = _Site()
    _one_plus_one_switch(site)
    _rename_device(site, "<img src=x onerror=alert(1)> [click](http://evil.example)")
    _, report = _map(site)
    text = report.text()
    import re

    assert not re.search(r"(?<!\\)<img", text) and "http://evil" not in text  # no tag, no link
    assert "\\<img src=x onerror=alert(1)\\> \\[click\\](http\\[:\\]//evil.example)" in text


def test_hall_b3_objects_add_up() -> None:
    from ._snapshot import hall_b3

    doc, report = map_site(hall_b3(), SOURCE)
    _assert_accounted(report)
    tally = report.tally()
    pdus = sum(side["count"] for rack in doc["racks"] for side in rack["pdus"].values())
    assert tally["power feed"] == (88, 88, 0) and pdus == 88  # each feed is one PDU in the file
    assert tally["rack"] == (20, 20, 0) and len(doc["racks"]) == 20
    assert tally["cooling feed"] == (20, 0, 20)  # no place in our format: listed per source
    assert "read 245 NetBox objects, 223 mapped and 22 not" in report.summary()
