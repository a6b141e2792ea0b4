"""NetBox responses for a synthetic site of N racks, made from recorded NetBox 4.7.3 answers.

    uv run python benchmarks/netbox_generate.py N     # what N racks come to (objects, JSON MB)

    sys.path.insert(0, "benchmarks"); from netbox_generate import generate, snapshot
    responses = generate(1_000)  # status, site, and per snapshot key the objects NetBox lists
    snap = snapshot(1_000)       # the same as a Snapshot, after a JSON round trip

Every object is a copy of one a real NetBox 4.7.3 returned (tests/imports/netbox/data/), with a
fresh id and name and every nested reference rewritten to match: device.rack and location,
port.device, the cables, port.connected_endpoints and link_peers → feed or outlet, the feed's
and the outlet's own → port (and its device), outlet.power_port → inlet, feed.rack,
feed.power_panel, cooling feed → rack and source, urls, and the counts (rack_count,
device_count, powerfeed_count, coolingfeed_count).

- **Locations.** One per 100 racks (``H001``, ``H002`` …), each with its own power panels
  (``H001-PP-A``, ``H001-PP-B``) and cooling sources (``H001-FW-1``, ``H001-CRAH-1..3``), as
  recorded for Hall B3 (``data/hall-b3``).
- **Racks.** Rack k of a location is a copy of Hall B3's rack ``k % 20`` (8 GB300 racks on
  4 + 4 feeds, 12 Atlas cabinets on 1 + 1), with its device, power ports, feeds and cooling
  feed; the copies' rows run A, B (first copy), C, D (second) …: ``H001-A01`` … ``H001-J12``.
- **In-rack PDUs.** Every 10th rack of a location (``PDU_EVERY``) holds instead a rack PDU
  and 8 servers, copied from the dual-inlet PDU and its servers of the ``data/shapes``
  recording: the PDU's two inlets (no draw of their own) are cabled to one feed on each panel
  (primary: side A, redundant: side B); it has 2 × 12 outlets, each with ``power_port`` set to
  its inlet; each server's PSU1 and PSU2 are cabled to an outlet of inlet A and of inlet B
  (``connected_endpoints_type: "dcim.poweroutlet"``), so the mapping walks feed → inlet →
  outlet → server port. The PDU and server types get weights (the recorded ones have none)
  so that the rack's mass is mapped too; the rack has no cooling capability, the servers are
  air-cooled and it has no cooling feed.

Deterministic: the same N gives the same objects.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT / "tests" / "imports" / "netbox" / "data"
HALL_B3 = DATA / "hall-b3"
SHAPES = DATA / "shapes"

RACKS_PER_LOCATION = 100
PDU_EVERY = 10  # every 10th rack of a location: an in-rack PDU with servers behind it
SERVERS_PER_PDU_RACK = 8
OUTLETS_PER_INLET = 12
SERVER_MAXIMUM_DRAW = 1100  # W per supply
SERVER_ALLOCATED_DRAW = 750  # W per supply
PDU_FEED_AMPERAGE = 32  # A, the PDU's feeds (copies of the Atlas feeds, which are 80 A)
PDU_WEIGHT, SERVER_WEIGHT = 18.0, 32.0  # kg
AIR = {"label": "Air", "value": "air"}

KINDS = (
    "locations",
    "racks",
    "devices",
    "device_types",
    "power_ports",
    "power_outlets",
    "power_panels",
    "power_feeds",
    "cooling_sources",
    "cooling_feeds",
)

Obj = dict[str, Any]


@cache
def _texts(directory: Path) -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(directory.glob("*.json"))}


def recorded(directory: Path = HALL_B3) -> dict[str, Any]:
    """A recording's responses, by file stem (fresh objects on every call)."""
    return {k: json.loads(v) for k, v in _texts(directory).items()}


def _url(url: str, new_id: int) -> str:
    """``…/api/dcim/racks/1/`` → ``…/api/dcim/racks/<new_id>/``."""
    return f"{url.rstrip('/').rsplit('/', 1)[0]}/{new_id}/"


def _brief(obj: Obj, template: Obj) -> Obj:
    """``obj`` as NetBox nests it in another object: the fields of the recorded ``template``
    (a nested object of the same kind), read from ``obj``."""
    return {key: obj[key] for key in template}


def _cable(template: Obj, cable_id: int) -> Obj:
    return dict(template, id=cable_id, display=f"#{cable_id}", url=_url(template["url"], cable_id))


def _endpoint(obj: Obj, cable: Obj) -> Obj:
    """A power port, outlet or feed as the other end of ``cable`` sees it (NetBox's brief
    fields: a port's and an outlet's name their device, a feed's do not)."""
    seen = {"_occupied": True, "cable": cable, "description": "", "device": obj.get("device")}
    if seen["device"] is None:
        del seen["device"]
    return seen | {"display": obj["name"], "id": obj["id"], "name": obj["name"], "url": obj["url"]}


def _connect(obj: Obj, cable: Obj, peer: Obj, peer_type: str, end: str) -> None:
    obj.update(
        _occupied=True,
        cable=cable,
        cable_end=end,
        connected_endpoints=[peer],
        connected_endpoints_reachable=True,
        connected_endpoints_type=peer_type,
        link_peers=[peer],
        link_peers_type=peer_type,
        mark_connected=False,
    )


class _Templates:
    """The recorded objects the site is copied from."""

    def __init__(self) -> None:
        b3 = recorded(HALL_B3)
        self.status: Obj = b3["status"]
        self.site: Obj = b3["site"]
        self.location: Obj = b3["locations"][0]
        self.racks: list[Obj] = b3["racks"]
        self.panels: list[Obj] = b3["power_panels"]
        self.sources: list[Obj] = b3["cooling_sources"]
        self.device_types: dict[int, Obj] = {d["id"]: d for d in b3["device_types"]}
        self.devices_of: dict[int, list[Obj]] = defaultdict(list)
        for device in b3["devices"]:
            self.devices_of[device["rack"]["id"]].append(device)
        self.ports_of: dict[int, list[Obj]] = defaultdict(list)
        for port in b3["power_ports"]:
            self.ports_of[port["device"]["id"]].append(port)
        self.feed: dict[int, Obj] = {f["id"]: f for f in b3["power_feeds"]}
        self.cooling_feed_of: dict[int, Obj] = {c["rack"]["id"]: c for c in b3["cooling_feeds"]}
        # One Atlas cabinet's two feeds (primary, redundant): the PDU racks' feeds.
        atlas = next(
            r for r in self.racks if len(self.ports_of[self.devices_of[r["id"]][0]["id"]]) == 2
        )
        self.side_feeds = sorted(
            (
                self.feed[p["connected_endpoints"][0]["id"]]
                for p in self.ports_of[self.devices_of[atlas["id"]][0]["id"]]
            ),
            key=lambda f: f["type"]["value"] != "primary",
        )
        # Nested forms, as NetBox writes them inside other objects.
        device = b3["devices"][0]
        self.nested_location, self.nested_site = device["location"], device["site"]
        self.nested_rack, self.nested_device = device["rack"], b3["power_ports"][0]["device"]
        self.nested_type = device["device_type"]
        self.nested_panel = b3["power_feeds"][0]["power_panel"]
        self.nested_source = b3["cooling_feeds"][0]["cooling_source"]
        self.cable = b3["power_ports"][0]["cable"]

        # The dual-inlet PDU of the 'shapes' recording, an outlet of it, a server behind it.
        shapes = recorded(SHAPES)
        outlets = shapes["power_outlets"]
        devices = {d["id"]: d for d in shapes["devices"]}
        types = {t["id"]: t for t in shapes["device_types"]}
        ports = {p["id"]: p for p in shapes["power_ports"]}
        self.outlet = next(o for o in outlets if o["cable"] is None)  # not cabled
        self.inlet = ports[self.outlet["power_port"]["id"]]
        self.pdu = devices[self.outlet["device"]["id"]]
        self.server_port = next(
            p for p in ports.values() if p["connected_endpoints_type"] == "dcim.poweroutlet"
        )
        self.server = devices[self.server_port["device"]["id"]]
        first_id = max(self.device_types) + 1
        self.pdu_type = self._type(
            types[self.pdu["device_type"]["id"]],
            first_id,
            slug="rack-pdu-2x12",
            model=f"Rack PDU, 2 inlets, 2 × {OUTLETS_PER_INLET} outlets",
            power_port_template_count=2,
            power_outlet_template_count=2 * OUTLETS_PER_INLET,
            weight=PDU_WEIGHT,
        )
        self.server_type = self._type(
            types[self.server["device_type"]["id"]],
            first_id + 1,
            slug="server-2x1100w",
            model="2U server, two 1100 W supplies",
            u_height=2.0,
            power_port_template_count=2,
            cooling_method=AIR,
            weight=SERVER_WEIGHT,
        )

        # json.loads of a template's text: a fast deep copy.
        self._text = {
            id(o): json.dumps(o)
            for o in (
                self.location,
                *self.racks,
                *self.panels,
                *self.sources,
                *self.feed.values(),
                *self.cooling_feed_of.values(),
                *(d for ds in self.devices_of.values() for d in ds),
                *(p for ps in self.ports_of.values() for p in ps),
                self.outlet,
                self.inlet,
                self.pdu,
                self.server_port,
                self.server,
            )
        }

    def copy(self, obj: Obj) -> Obj:
        return json.loads(self._text[id(obj)])

    @staticmethod
    def _type(template: Obj, type_id: int, **fields: Any) -> Obj:
        new = json.loads(json.dumps(template))
        new.update(
            id=type_id,
            url=_url(template["url"], type_id),
            display_url=_url(template["display_url"], type_id),
            display=fields.get("model", template["model"]),
            weight_unit={"label": "Kilograms", "value": "kg"},
            **fields,
        )
        return new


class _Site:
    """The objects of the site being generated, with an id counter per kind."""

    def __init__(self, t: _Templates, n_racks: int) -> None:
        self.t = t
        self.out: dict[str, Any] = {k: [] for k in KINDS}
        self.last: dict[str, int] = defaultdict(int)
        name = f"Synthetic campus ({n_racks} racks)"
        self.site = dict(t.site, name=name, display=name, slug=f"synthetic-{n_racks}")
        self.site_brief = _brief(self.site, t.nested_site)
        self.type_count: dict[int, int] = defaultdict(int)
        self.feed_count: dict[int, int] = defaultdict(int)  # panel id → feeds
        self.cooling_count: dict[int, int] = defaultdict(int)  # source id → cooling feeds

    def new(self, kind: str, template: Obj, name: str, **fields: Any) -> Obj:
        """A copy of ``template`` with the next id of ``kind`` and ``name``, listed."""
        obj = self.t.copy(template)
        self.last[kind] += 1
        new_id = self.last[kind]
        obj.update(
            id=new_id,
            name=name,
            display=name,
            url=_url(obj["url"], new_id),
            display_url=_url(obj["display_url"], new_id),
            **fields,
        )
        self.out[kind].append(obj)
        return obj

    def device(self, template: Obj, name: str, rack: Obj, loc: Obj, dtype: Obj, **fields) -> Obj:
        """A device in ``rack``; returns it as nested in its ports."""
        nested_type = dict(_brief(dtype, self.t.nested_type), device_count=0)
        device = self.new(
            "devices",
            template,
            name,
            rack=rack,
            location=loc,
            site=self.site_brief,
            device_type=nested_type,
            **fields,
        )
        self.type_count[dtype["id"]] += 1
        return _brief(device, self.t.nested_device)

    def cable(self, a: Obj, a_type: str, b: Obj, b_type: str) -> None:
        """Cable the port ``a`` (end A) to ``b`` (end B): a feed, an outlet or a port."""
        self.last["cables"] += 1
        cable = _cable(self.t.cable, self.last["cables"])
        _connect(a, cable, _endpoint(b, cable), b_type, "A")
        _connect(b, cable, _endpoint(a, cable), a_type, "B")

    def feed(self, template: Obj, name: str, panel: Obj, rack: Obj, **fields: Any) -> Obj:
        self.feed_count[panel["id"]] += 1
        return self.new("power_feeds", template, name, power_panel=panel, rack=rack, **fields)


def generate(n_racks: int) -> dict[str, Any]:
    """The responses of a NetBox holding a site of ``n_racks`` racks: ``status`` and ``site``
    (objects) and, per snapshot key, the list of objects NetBox would list for the site."""
    if n_racks < 1:
        raise ValueError("n_racks must be at least 1")
    t = _Templates()
    s = _Site(t, n_racks)
    n_locations = -(-n_racks // RACKS_PER_LOCATION)
    width = max(3, len(str(n_locations)))
    for li in range(n_locations):
        loc_name = f"H{li + 1:0{width}d}"
        in_loc = min(RACKS_PER_LOCATION, n_racks - li * RACKS_PER_LOCATION)
        location = s.new(
            "locations",
            t.location,
            loc_name,
            slug=loc_name.lower(),
            site=s.site_brief,
            rack_count=in_loc,
        )
        loc = _brief(location, t.nested_location)
        panels = {  # recorded panel name → the location's panel, nested
            p["name"]: _brief(
                s.new(
                    "power_panels", p, f"{loc_name}-{p['name']}", location=loc, site=s.site_brief
                ),
                t.nested_panel,
            )
            for p in t.panels
        }
        sources = {  # recorded source id → the location's source, nested
            c["id"]: _brief(
                s.new(
                    "cooling_sources",
                    c,
                    f"{loc_name}-{c['name']}",
                    site=s.site_brief,
                    location=loc if c["location"] else None,
                ),
                t.nested_source,
            )
            for c in t.sources
        }
        devices_in_location = 0
        for k in range(in_loc):
            rec_rack = t.racks[k % len(t.racks)]
            rec_name = rec_rack["name"]  # "A01", "B07"
            row = chr(ord("A") + 2 * (k // len(t.racks)) + ord(rec_name[0]) - ord("A"))
            name = f"{loc_name}-{row}{rec_name[1:]}"
            rack = s.new("racks", rec_rack, name, location=loc, site=s.site_brief)
            rack_brief = _brief(rack, t.nested_rack)
            devices, feeds = len(s.out["devices"]), len(s.out["power_feeds"])
            if k % PDU_EVERY == PDU_EVERY - 1:
                rack.update(cooling_capability=None, cooling_capacity=None)
                _pdu_rack(s, name, rack_brief, loc, panels)
            else:
                _copied_rack(s, rec_rack, name, rack_brief, loc, panels, sources)
            rack["device_count"] = len(s.out["devices"]) - devices
            rack["powerfeed_count"] = len(s.out["power_feeds"]) - feeds
            devices_in_location += rack["device_count"]
        location["device_count"] = devices_in_location

    out = s.out
    for panel in out["power_panels"]:
        panel["powerfeed_count"] = s.feed_count[panel["id"]]
    for source in out["cooling_sources"]:
        source["coolingfeed_count"] = s.cooling_count[source["id"]]
    every_type = (*t.device_types.values(), t.pdu_type, t.server_type)
    out["device_types"] = [
        dict(d, device_count=s.type_count[d["id"]]) for d in every_type if s.type_count[d["id"]]
    ]
    for device in out["devices"]:
        device["device_type"]["device_count"] = s.type_count[device["device_type"]["id"]]
    s.site.update(rack_count=n_racks, device_count=len(out["devices"]))
    return {"status": t.status, "site": s.site, **out}


def _copied_rack(s: _Site, rec_rack: Obj, name: str, rack: Obj, loc: Obj, panels, sources):
    """A copy of a recorded Hall B3 rack's device, ports, feeds and cooling feed."""
    t = s.t
    rec_name = rec_rack["name"]
    for rec_device in t.devices_of[rec_rack["id"]]:
        dtype = t.device_types[rec_device["device_type"]["id"]]
        device = s.device(
            rec_device, rec_device["name"].replace(rec_name, name, 1), rack, loc, dtype
        )
        for rec_port in t.ports_of[rec_device["id"]]:
            port = s.new("power_ports", rec_port, rec_port["name"], device=device)
            rec_feed = t.feed[rec_port["connected_endpoints"][0]["id"]]
            feed = s.feed(
                rec_feed,
                rec_feed["name"].replace(rec_name, name, 1),
                panels[rec_feed["power_panel"]["name"]],
                rack,
            )
            s.cable(port, "dcim.powerport", feed, "dcim.powerfeed")
    rec_cooling = t.cooling_feed_of.get(rec_rack["id"])
    if rec_cooling is not None:
        source = sources[rec_cooling["cooling_source"]["id"]]
        s.new("cooling_feeds", rec_cooling, name, rack=rack, cooling_source=source)
        s.cooling_count[source["id"]] += 1


def _pdu_rack(s: _Site, name: str, rack: Obj, loc: Obj, panels: dict[str, Obj]) -> None:
    """A rack PDU (two inlets, each on a feed of its own panel; 2 × 12 outlets) and servers
    whose two supplies are cabled to an outlet of each inlet."""
    t = s.t
    pdu = s.device(
        t.pdu,
        f"{name}-pdu",
        rack,
        loc,
        t.pdu_type,
        power_port_count=2,
        power_outlet_count=2 * OUTLETS_PER_INLET,
    )
    outlets: dict[str, list[Obj]] = {}
    for side, rec_feed in zip("AB", t.side_feeds, strict=True):
        inlet = s.new("power_ports", t.inlet, f"Inlet {side}", device=pdu)
        feed = s.feed(
            rec_feed,
            f"{name}-{side}1",
            panels[rec_feed["power_panel"]["name"]],
            rack,
            amperage=PDU_FEED_AMPERAGE,
        )
        s.cable(inlet, "dcim.powerport", feed, "dcim.powerfeed")
        nested_inlet = _endpoint(inlet, inlet["cable"])
        outlets[side] = []
        for n in range(OUTLETS_PER_INLET):
            leg = "ABC"[n % 3]  # a three-phase inlet's outlets, leg by leg
            outlets[side].append(
                s.new(
                    "power_outlets",
                    t.outlet,
                    f"{side}{n + 1}",
                    device=pdu,
                    power_port=nested_inlet,
                    feed_leg={"label": leg, "value": leg},
                )
            )
    for n in range(1, SERVERS_PER_PDU_RACK + 1):
        server = s.device(
            t.server,
            f"{name}-srv{n:02d}",
            rack,
            loc,
            t.server_type,
            cooling_method=AIR,
            power_port_count=2,
        )
        for psu, side in (("PSU1", "A"), ("PSU2", "B")):
            port = s.new(
                "power_ports",
                t.server_port,
                psu,
                device=server,
                maximum_draw=SERVER_MAXIMUM_DRAW,
                allocated_draw=SERVER_ALLOCATED_DRAW,
            )
            s.cable(port, "dcim.powerport", outlets[side][n - 1], "dcim.poweroutlet")


def snapshot(n_racks: int, responses: dict[str, Any] | None = None):
    """The Snapshot of ``generate(n_racks)`` (or of ``responses``) after a JSON round trip:
    plain objects, none shared, as the REST client returns them."""
    from facility.imports.netbox import Snapshot

    data = json.loads(json.dumps(responses or generate(n_racks)))
    return Snapshot(**data)


def counts(responses: dict[str, Any]) -> dict[str, int]:
    return {k: len(responses[k]) for k in KINDS}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("racks", type=int, help="number of racks (N)")
    args = parser.parse_args(argv)
    responses = generate(args.racks)
    size = sum(len(json.dumps(responses[k])) for k in KINDS)
    print(f"{args.racks:,} racks: {sum(counts(responses).values()):,} objects, {size / 1e6:.1f} MB")
    for kind, n in counts(responses).items():
        print(f"  {kind:<16} {n:>8,}")


if __name__ == "__main__":
    main()
