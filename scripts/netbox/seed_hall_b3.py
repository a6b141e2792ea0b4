"""Load a Hall B3 equivalent (examples/hall-b3.yaml) into a NetBox 4.7 server through its REST API.

    NETBOX_URL=http://127.0.0.1:58001 NETBOX_TOKEN=nbt_… uv run python scripts/netbox/seed_hall_b3.py

What NetBox can hold of Hall B3, written the way a NetBox user would: site ``hall-b3`` with
location ``B3``; racks A01–A08 (one GB300-class device of 8 power supplies each, 4 on primary
feeds, 4 on redundant feeds, 415 V 63 A three-phase, max 80 %) and B01–B12 (one Atlas-class
cabinet device with 2 supplies, 415 V 80 A); power panels PP-A and PP-B; cooling sources FW-1
(chiller) and CRAH-1 … CRAH-3 (100 kW each); a cooling feed to every rack. Weights are written
in kg for row A and in lb for row B's racks, flows in gpm for row A and L/min for row B, so the
import's unit conversions run against the real server. Only for an empty NetBox (a test server).

Power is written per side: each device's supplies on side A (primary feeds) carry the whole
device alone, and so do those on side B (redundant feeds), so each supply's figures are its
side's share of the device's draw, and the device draws the larger side's sum, not both sides'.
"""

from __future__ import annotations

import os
import sys
from typing import Any

SITE = "hall-b3"
# Per supply [W]. GB300: 4 supplies a side, 4 × 38 750 = 155 kW peak and 4 × 33 750 = 135 kW
# nominal on either side. Atlas: 1 supply a side, 38 kW peak and 32 kW nominal on either side.
GB300_PSU = {"maximum_draw": 38_750, "allocated_draw": 33_750}
ATLAS_PSU = {"maximum_draw": 38_000, "allocated_draw": 32_000}


def seed(url: str, token: str) -> dict[str, Any]:
    """Create the objects; returns a few ids for the caller."""
    import pynetbox

    nb = pynetbox.api(url, token=token)
    dcim = nb.dcim
    site = dcim.sites.create(
        name="Hall B3",
        slug=SITE,
        status="active",
        physical_address="Campus North, building B, level 3",
    )
    room = dcim.locations.create(name="B3", slug="b3", site=site.id, status="active")
    nvidia = dcim.manufacturers.create(name="NVIDIA", slug="nvidia")
    huawei = dcim.manufacturers.create(name="Huawei", slug="huawei")
    role = dcim.device_roles.create(name="Compute", slug="compute", color="2196f3")

    gb300 = dcim.device_types.create(
        manufacturer=nvidia.id, model="GB300 NVL72 (Hall B3)", slug="gb300-b3", u_height=1,
        is_full_depth=True, weight=1300, weight_unit="kg", cooling_method="liquid",
    )  # fmt: skip
    atlas = dcim.device_types.create(
        manufacturer=huawei.id, model="Atlas 900 A3 cabinet (Hall B3)", slug="atlas-b3",
        u_height=1, is_full_depth=True, weight=950, weight_unit="kg", cooling_method="hybrid",
    )  # fmt: skip
    dcim.power_port_templates.create(
        [{"device_type": gb300.id, "name": f"PS{i}", "type": "iec-60320-c20", **GB300_PSU}
         for i in range(1, 9)]
    )  # fmt: skip
    dcim.power_port_templates.create(
        [{"device_type": atlas.id, "name": f"PSU-{s}", "type": "iec-60309-p-n-e-6h", **ATLAS_PSU}
         for s in "AB"]
    )  # fmt: skip

    common = {"site": site.id, "location": room.id, "status": "active", "u_height": 48,
              "width": 19, "form_factor": "4-post-cabinet", "outer_width": 600,
              "outer_depth": 1200, "outer_height": 2286, "outer_unit": "mm"}  # fmt: skip
    racks = dcim.racks.create(
        [{**common, "name": f"A{i:02d}", "weight": 140, "max_weight": 1600, "weight_unit": "kg",
          "cooling_capability": "liquid-only", "cooling_capacity": 140} for i in range(1, 9)]
        + [{**common, "name": f"B{i:02d}", "weight": 220.46, "max_weight": 3000,
            "weight_unit": "lb", "cooling_capability": "hybrid", "cooling_capacity": 35}
           for i in range(1, 13)]
    )  # fmt: skip
    rack_id = {r.name: r.id for r in racks}
    devices = dcim.devices.create(
        [{"name": f"{name}-compute", "device_type": gb300.id if name[0] == "A" else atlas.id,
          "role": role.id, "site": site.id, "location": room.id, "rack": rid, "status": "active"}
         for name, rid in rack_id.items()]
    )  # fmt: skip

    panels = dcim.power_panels.create(
        [{"site": site.id, "location": room.id, "name": "PP-A"},
         {"site": site.id, "location": room.id, "name": "PP-B"}]
    )  # fmt: skip
    panel = {p.name: p.id for p in panels}
    feeds: list[dict[str, Any]] = []
    for name, rid in rack_id.items():
        per_side, amps = (4, 63) if name[0] == "A" else (1, 80)
        for side, kind in (("A", "primary"), ("B", "redundant")):
            for n in range(1, per_side + 1):
                feeds.append(
                    {"power_panel": panel[f"PP-{side}"], "rack": rid, "name": f"{name}-{side}{n}",
                     "status": "active", "type": kind, "supply": "ac", "phase": "three-phase",
                     "voltage": 415, "amperage": amps, "max_utilization": 80}
                )  # fmt: skip
    feed_id = {f.name: f.id for f in dcim.power_feeds.create(feeds)}

    cables = []
    for device in devices:
        rack = device.rack.name
        ports = sorted(dcim.power_ports.filter(device_id=device.id), key=lambda p: p.name)
        if rack[0] == "A":
            targets = [f"{rack}-A{n}" for n in range(1, 5)] + [f"{rack}-B{n}" for n in range(1, 5)]
        else:
            targets = [f"{rack}-A1", f"{rack}-B1"]
        for port, target in zip(ports, targets, strict=True):
            cables.append(
                {"a_terminations": [{"object_type": "dcim.powerport", "object_id": port.id}],
                 "b_terminations": [{"object_type": "dcim.powerfeed",
                                     "object_id": feed_id[target]}]}
            )  # fmt: skip
    dcim.cables.create(cables)

    chiller = dcim.cooling_sources.create(
        site=site.id, name="FW-1", type="chiller", status="active", fluid_type="water",
        cooling_capacity=2000,
    )  # fmt: skip
    dcim.cooling_sources.create(
        [{"site": site.id, "location": room.id, "name": f"CRAH-{i}", "type": "crah",
          "status": "active", "cooling_capacity": 100} for i in range(1, 4)]
    )  # fmt: skip
    dcim.cooling_feeds.create(
        [{"cooling_source": chiller.id, "rack": rid, "name": name, "status": "active",
          "cooling_capacity": 140 if name[0] == "A" else 35,
          **({"max_flow": 47, "max_flow_unit": "gpm"} if name[0] == "A"
             else {"max_flow": 60, "max_flow_unit": "lpm"})}
         for name, rid in rack_id.items()]
    )  # fmt: skip
    return {"site": site.id, "racks": rack_id}


def main() -> int:
    url, token = os.environ.get("NETBOX_URL"), os.environ.get("NETBOX_TOKEN")
    if not url or not token:
        print("set NETBOX_URL and NETBOX_TOKEN", file=sys.stderr)
        return 2
    ids = seed(url, token)
    print(f"seeded site {SITE}: {len(ids['racks'])} racks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
