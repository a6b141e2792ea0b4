"""Load site ``shapes`` into a NetBox 4.7 server through its REST API: the shapes of NetBox data
that an importer gets wrong when it only adds up power ports.

    NETBOX_URL=http://127.0.0.1:58001 NETBOX_TOKEN=nbt_… uv run python scripts/netbox/seed_shapes.py

Each shape has its own rack (the loads are stated as the importer should find them):

- ``PDU-RACK``: one dual-inlet rack PDU (power ports "Inlet 1" and "Inlet 2" with no draw
  figures; outlets 1–4 behind Inlet 1, 5–8 behind Inlet 2), each inlet cabled to its own
  primary single-phase feed of panel PP-LAB; four servers of one supply each (400 W maximum,
  350 W allocated), two on outlets of Inlet 1 and two on outlets of Inlet 2. Load: 4 × 400 W
  = 1.6 kW peak, 4 × 350 W = 1.4 kW nominal (each server counted once, not once per inlet).
- ``SW-RACK``: a 1+1 switch (2 supplies of 650 W / 650 W; PSU1 on the primary feed, PSU2 on
  the redundant feed: 650 W peak and nominal, not 1.3 kW), and on the same primary feed a
  *planned* and an *offline* server of one 500 W / 450 W supply each (left out by default;
  the planned one counts when planned equipment is included: 1.15 kW peak, 1.1 kW nominal).
- ``R1`` twice: locations "Hall 1" and "Hall 2" each hold a child location "Row A" (the
  same name and the same slug ``row-a``: NetBox 4.7 wants a location's name and slug unique
  among the children of one parent, not across the site), and each "Row A" a rack ``R1`` with
  one server on its own primary feed. Two racks, two rooms.
- A rack named ``CTRL\\x07RACK`` (BEL) holding a server named ``srv\\x1b[31m`` (an ANSI colour
  escape), fed like any other. NetBox 4.7.3 stores both as given. Tried on the same server
  through the API, it refused only a NUL ("Null characters are not allowed.") and a lone
  surrogate ("Surrogate characters are not allowed: U+D800."), and silently strips leading
  and trailing spaces; it accepted TAB, LF, CR, DEL, C1 (U+0085), U+200B and U+202E.
- ``PATCH-RACK``: a passive rack: the frame's own weight, two patch panels (a device type
  without power ports, with a weight), no feeds.

Figures: the racks are APC NetShelter SX AR3100 frames as the NetBox community's
devicetype-library records them (rack-types/APC/AR3100.yaml: 600 × 1070 × 1991 mm, 125 kg,
1701 kg max weight). The rack PDU is a Thinklogical PDU 4/4 (product manual, rev. B,
December 2020, "The Rear Panel": two banks, each with its own NEMA 5-15P input cord and
15 A breaker feeding four outlets: bank 1 outlets 1–4, bank 2 outlets 5–8, 115 V AC); its
feeds are 120 V 15 A single-phase circuits. The switch is a Cisco Nexus 93180YC-FX3 with two
NXA-PAC-650W-PE supplies (Cisco's hardware installation guide: 650 W AC each); its ports
carry the supply rating on both figures, as a sizing by nameplate does. The servers' and the
patch panels' figures are this test's own round numbers, not a data sheet's (no published
single-supply server draws exactly 400 W / 350 W or 500 W / 450 W). The PDU's outlets carry
``feed_leg`` A, B, C in turn although the unit is single-phase: NetBox allows it, and the
importer must not read legs as phases. Only for an empty NetBox (a test server).
"""

from __future__ import annotations

import os
import sys
from typing import Any

SITE = "shapes"
PDU_SERVER_PSU = {"maximum_draw": 400, "allocated_draw": 350}  # [W] per supply, 1 a server
SWITCH_PSU = {"maximum_draw": 650, "allocated_draw": 650}  # [W] NXA-PAC-650W-PE rating, 2 a switch
SERVER_PSU = {"maximum_draw": 500, "allocated_draw": 450}  # [W] per supply, 1 a server
# APC NetShelter SX AR3100 (devicetype-library rack-types/APC/AR3100.yaml)
AR3100 = {"u_height": 42, "width": 19, "form_factor": "4-post-cabinet", "outer_width": 600,
          "outer_depth": 1070, "outer_height": 1991, "outer_unit": "mm", "weight": 125,
          "max_weight": 1701, "weight_unit": "kg"}  # fmt: skip
PATCH_PANEL_WEIGHT = 1.5  # [kg] illustrative, not from a data sheet
# Names NetBox 4.7.3 accepts through the API (see the docstring for what it refuses).
CTRL_RACK = "CTRL\x07RACK"
ESC_DEVICE = "srv\x1b[31m"


def _cable(a: list[tuple[str, int]], b: list[tuple[str, int]]) -> dict[str, Any]:
    return {
        "a_terminations": [{"object_type": t, "object_id": i} for t, i in a],
        "b_terminations": [{"object_type": t, "object_id": i} for t, i in b],
    }


def seed(url: str, token: str) -> dict[str, Any]:
    """Create the objects; returns a few ids for the caller."""
    import pynetbox

    nb = pynetbox.api(url, token=token)
    dcim = nb.dcim
    site = dcim.sites.create(name="Shapes", slug=SITE, status="active")
    lab = dcim.locations.create(name="Lab", slug="lab", site=site.id, status="active")
    hall = {
        n: dcim.locations.create(name=f"Hall {n}", slug=f"hall-{n}", site=site.id,
                                 status="active")
        for n in (1, 2)
    }  # fmt: skip
    row_a = {
        n: dcim.locations.create(name="Row A", slug="row-a", site=site.id, parent=hall[n].id,
                                 status="active")
        for n in (1, 2)
    }  # fmt: skip

    makers = {
        name: dcim.manufacturers.create(name=name, slug=slug)
        for name, slug in (("Thinklogical", "thinklogical"), ("Cisco", "cisco"),
                           ("Panduit", "panduit"), ("Generic", "generic"))
    }  # fmt: skip
    role = {
        name: dcim.device_roles.create(name=name, slug=name.lower(), color=color)
        for name, color in (("PDU", "ff9800"), ("Network", "4caf50"), ("Server", "2196f3"),
                            ("Cabling", "9e9e9e"))
    }  # fmt: skip

    pdu_type = dcim.device_types.create(
        manufacturer=makers["Thinklogical"].id, model="PDU 4/4", slug="thinklogical-pdu-4-4",
        u_height=1, is_full_depth=False,
    )  # fmt: skip
    inlets = dcim.power_port_templates.create(
        [{"device_type": pdu_type.id, "name": f"Inlet {n}", "type": "nema-5-15p"} for n in (1, 2)]
    )  # no maximum_draw, no allocated_draw: the draw is what the outlets feed
    inlet_id = {t.name: t.id for t in inlets}
    dcim.power_outlet_templates.create(
        [{"device_type": pdu_type.id, "name": f"Outlet {n}", "type": "nema-5-15r",
          "power_port": inlet_id["Inlet 1" if n <= 4 else "Inlet 2"], "feed_leg": "ABC"[(n - 1) % 3]}
         for n in range(1, 9)]
    )  # fmt: skip
    small = dcim.device_types.create(
        manufacturer=makers["Generic"].id, model="1U server, one 400 W supply",
        slug="server-400w", u_height=1, is_full_depth=True,
    )  # fmt: skip
    dcim.power_port_templates.create(
        device_type=small.id, name="PSU1", type="iec-60320-c14", **PDU_SERVER_PSU
    )
    server = dcim.device_types.create(
        manufacturer=makers["Generic"].id, model="1U server, one 500 W supply",
        slug="server-500w", u_height=1, is_full_depth=True,
    )  # fmt: skip
    dcim.power_port_templates.create(
        device_type=server.id, name="PSU1", type="iec-60320-c14", **SERVER_PSU
    )
    switch = dcim.device_types.create(
        manufacturer=makers["Cisco"].id, model="Nexus 93180YC-FX3", slug="n9k-c93180yc-fx3",
        part_number="N9K-C93180YC-FX3", u_height=1, is_full_depth=True,
    )  # fmt: skip
    dcim.power_port_templates.create(
        [{"device_type": switch.id, "name": f"PSU{n}", "type": "iec-60320-c14", **SWITCH_PSU}
         for n in (1, 2)]
    )  # fmt: skip
    patch = dcim.device_types.create(
        manufacturer=makers["Panduit"].id, model="Mini-Com Shielded Patch Panel (24 Port, 1RU)",
        slug="cp24bly", part_number="CP24BLY", u_height=1, is_full_depth=False,
        weight=PATCH_PANEL_WEIGHT, weight_unit="kg",
    )  # fmt: skip

    placed = [
        ("PDU-RACK", lab.id), ("SW-RACK", lab.id), (CTRL_RACK, lab.id), ("PATCH-RACK", lab.id),
        ("R1", row_a[1].id), ("R1", row_a[2].id),
    ]  # fmt: skip
    racks = dcim.racks.create(
        [{"site": site.id, "location": loc, "name": name, "status": "active", **AR3100}
         for name, loc in placed]
    )  # fmt: skip
    rack_id = {(r.name, r.location.id): r.id for r in racks}
    in_lab = {name: rack_id[(name, lab.id)] for name, loc in placed if loc == lab.id}
    r1 = {n: rack_id[("R1", row_a[n].id)] for n in (1, 2)}

    def device(name: str, dtype: Any, role_name: str, rack: int, location: int, **extra: Any):
        return {"name": name, "device_type": dtype.id, "role": role[role_name].id,
                "site": site.id, "location": location, "rack": rack, "status": "active",
                **extra}  # fmt: skip

    devices = dcim.devices.create(
        [device("pdu-1", pdu_type, "PDU", in_lab["PDU-RACK"], lab.id)]
        + [device(f"srv-pdu-{n}", small, "Server", in_lab["PDU-RACK"], lab.id) for n in range(1, 5)]
        + [device("leaf-1", switch, "Network", in_lab["SW-RACK"], lab.id),
           device("srv-planned", server, "Server", in_lab["SW-RACK"], lab.id, status="planned"),
           device("srv-offline", server, "Server", in_lab["SW-RACK"], lab.id, status="offline"),
           device(ESC_DEVICE, server, "Server", in_lab[CTRL_RACK], lab.id),
           device("patch-1", patch, "Cabling", in_lab["PATCH-RACK"], lab.id),
           device("patch-2", patch, "Cabling", in_lab["PATCH-RACK"], lab.id),
           device("h1-srv-1", server, "Server", r1[1], row_a[1].id),
           device("h2-srv-1", server, "Server", r1[2], row_a[2].id)]
    )  # fmt: skip
    device_id = {d.name: d.id for d in devices}

    panels = dcim.power_panels.create(
        [{"site": site.id, "location": lab.id, "name": "PP-LAB"},
         {"site": site.id, "location": hall[1].id, "name": "PP-H1"},
         {"site": site.id, "location": hall[2].id, "name": "PP-H2"}]
    )  # fmt: skip
    panel = {p.name: p.id for p in panels}
    circuit_120 = {"status": "active", "supply": "ac", "phase": "single-phase", "voltage": 120,
                   "amperage": 15, "max_utilization": 80}  # fmt: skip
    circuit_230 = {**circuit_120, "voltage": 230, "amperage": 16}
    feeds = dcim.power_feeds.create(
        [{"power_panel": panel["PP-LAB"], "rack": in_lab["PDU-RACK"], "name": f"PDU-RACK-{n}",
          "type": "primary", **circuit_120} for n in (1, 2)]
        + [{"power_panel": panel["PP-LAB"], "rack": in_lab["SW-RACK"], "name": "SW-RACK-A",
            "type": "primary", **circuit_230},
           {"power_panel": panel["PP-LAB"], "rack": in_lab["SW-RACK"], "name": "SW-RACK-B",
            "type": "redundant", **circuit_230},
           {"power_panel": panel["PP-LAB"], "rack": in_lab[CTRL_RACK], "name": "CTRL-A",
            "type": "primary", **circuit_230}]
        + [{"power_panel": panel[f"PP-H{n}"], "rack": r1[n], "name": f"H{n}-R1-A",
            "type": "primary", **circuit_230} for n in (1, 2)]
    )  # fmt: skip
    feed_id = {f.name: f.id for f in feeds}

    site_ports = list(dcim.power_ports.filter(site_id=site.id))
    port = {(p.device.id, p.name): p.id for p in site_ports}
    site_outlets = list(dcim.power_outlets.filter(site_id=site.id))
    outlet = {o.name: o.id for o in site_outlets if o.device.id == device_id["pdu-1"]}

    def psu(name: str, n: int = 1) -> tuple[str, int]:
        return ("dcim.powerport", port[(device_id[name], f"PSU{n}")])

    def feed(name: str) -> tuple[str, int]:
        return ("dcim.powerfeed", feed_id[name])

    pdu = device_id["pdu-1"]
    cables = [
        _cable([("dcim.powerport", port[(pdu, "Inlet 1")])], [feed("PDU-RACK-1")]),
        _cable([("dcim.powerport", port[(pdu, "Inlet 2")])], [feed("PDU-RACK-2")]),
    ]
    # Servers 1 and 2 behind Inlet 1 (outlets 1–4), 3 and 4 behind Inlet 2 (outlets 5–8).
    for n, socket in enumerate(("Outlet 1", "Outlet 2", "Outlet 5", "Outlet 6"), start=1):
        cables.append(_cable([psu(f"srv-pdu-{n}")], [("dcim.poweroutlet", outlet[socket])]))
    # A feed ends one cable; NetBox lets one cable end on several ports, which is how three
    # devices share the primary feed SW-RACK-A (every port lists SW-RACK-A as its endpoint).
    cables.append(
        _cable([psu("leaf-1", 1), psu("srv-planned"), psu("srv-offline")], [feed("SW-RACK-A")])
    )
    cables.append(_cable([psu("leaf-1", 2)], [feed("SW-RACK-B")]))
    cables.append(_cable([psu(ESC_DEVICE)], [feed("CTRL-A")]))
    cables += [_cable([psu(f"h{n}-srv-1")], [feed(f"H{n}-R1-A")]) for n in (1, 2)]
    dcim.cables.create(cables)
    return {"site": site.id, "racks": rack_id, "devices": device_id}


def main() -> int:
    url, token = os.environ.get("NETBOX_URL"), os.environ.get("NETBOX_TOKEN")
    if not url or not token:
        print("set NETBOX_URL and NETBOX_TOKEN", file=sys.stderr)
        return 2
    ids = seed(url, token)
    print(f"seeded site {SITE}: {len(ids['racks'])} racks, {len(ids['devices'])} devices")
    return 0


if __name__ == "__main__":
    sys.exit(main())
