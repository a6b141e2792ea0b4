"""NetBox objects (REST JSON, as NetBox 4.7 returns them) → a site document of our format.

Pure: a :class:`Snapshot` of plain dicts in, a site document (plain dicts and lists, the shape
of a YAML site file) and a :class:`~facility.imports.netbox_report.MappingReport` out. No
network; the unit tests feed it responses recorded from a real NetBox.

The mapping, and its conventions (each also stated in docs/import-netbox.md):

- **Power feed → PDU.** A feed is one inlet circuit of a rack: our PDU (or whip). Its type is
  made from (voltage, phase, amperage, max utilisation): voltage line-to-line for three-phase,
  ``breaker_rating`` = amperage, ``derating`` = max utilisation, so the audit's PDU capacity is
  NetBox's available power, recomputed (:func:`~facility.imports.netbox_units.feed_available_power`).
  ``type: primary`` feeds are side A, ``redundant`` side B: sides, never one summed capacity.
- **Rack load.** NetBox's own model (:mod:`.netbox_power`): a port's own figures, or what
  the ports on *its* outlets draw; redundant supplies of a device on sides A and B count once
  (the larger side) unless ``redundant_supplies="sum"``. Σ ``maximum_draw`` is the peak power,
  Σ ``allocated_draw`` the nominal power (W); a port without a figure makes the sum a gap.
  Devices count by their status; a rack with no device that draws power is ``passive``.
- **Rack mass.** Rack ``weight`` + the ``weight`` of each device's type (kg, g, lb or oz) is the
  empty mass; NetBox does not know the coolant, so it is ``empty_mass``, never ``filled_mass``.
  ``max_weight`` is the frame's ``max_payload``. A missing weight makes the sum a gap.
- **Rack types** are the distinct combinations of figures; the id is the slug of the device
  type(s) in the racks (``+``-joined), suffixed ``-2``, ``-3`` when racks with the same devices
  differ in other figures.
- **Cooling.** CRAC and CRAH sources become room air units (their ``cooling_capacity`` taken as
  sensible capacity); water-cooled chillers, towers and dry coolers become facility water loops
  (no figure of ours is in NetBox but the name). Rack ``cooling_capability`` gives the rack
  type's ``cooling`` (hybrid counts as liquid). Cooling feeds have no place in our format (NetBox
  has no CDU or TCS loop); the report lists them per source, as the engineer's starting point.
- **Locations** of racks and cooling sources become rooms.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from facility.imports.netbox_power import (
    MASS_ONLY,
    NOT_LOAD,
    REDUNDANT_SUPPLIES,
    PowerGraph,
    RackLoad,
)
from facility.imports.netbox_report import MappingReport, Outcome
from facility.imports.netbox_snapshot import (
    KINDS,
    MappingError,
    Obj,
    Snapshot,
    name_of,
    readable,
    ref,
)
from facility.imports.netbox_units import (
    UnitChoiceError,
    feed_available_power,
    flow_l_per_min,
    length_text,
    mass_kg,
    mass_text,
)
from facility.printable import printable

__all__ = ["RACK_TYPE_GAPS", "SITE_GAPS", "MappingError", "Snapshot", "map_site"]

# What NetBox cannot know; listed in the file's header and the report as gaps.
RACK_TYPE_GAPS = (
    "power_factor",
    "liquid_heat_fraction",
    "allowed_supply_temperature",
    "design_coolant_rise / flow_table / design_flow",
    "pressure_drop",
    "filled_mass or coolant_volume",
    "casters",
)
SITE_GAPS = (
    "floor_zones (construction, load ratings) and each rack's zone",
    "cooling.cdus and cooling.tcs_loops (coolant, CDUs) and each rack's loop",
    "facility water supply temperature, rise, flow and differential pressure",
    "rooms' redundant_air_units",
    "power.distribution (panel, busway and UPS ratings) and PDUs' fed_by",
    "site.design_intent (selects the rule profile)",
)


# --- reading NetBox values ---------------------------------------------------------------


def _choice(obj: Obj, key: str) -> str | None:
    """The value of a choice field ({value, label}) or None."""
    value = obj.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, dict):
        value = value.get("value")
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise MappingError(f"{name_of(obj)}: field {key!r} has an unexpected value {value!r}")
    return value


# The largest figure a NetBox numeric field holds: its integer fields are PostgreSQL integers
# (at most 2**31 - 1), its decimals fewer digits. A larger one is not NetBox's; products of
# such figures (volts · amperes) could overflow a float.
MAX_NETBOX_NUMBER = 2**31 - 1


def _number(obj: Obj, key: str, kind: str, *, positive: bool = False) -> float | None:
    """A numeric field (NetBox returns decimals as JSON numbers); None when empty."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, str):  # GraphQL-style decimal strings, or a proxy that quotes them
        try:
            value = float(value)
        except ValueError:
            value = None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise MappingError(f"{kind} {name_of(obj)}: {key} is not a number: {obj.get(key)!r}")
    if value < 0 or (positive and value == 0):
        raise MappingError(
            f"{kind} {name_of(obj)}: {key} must be {'positive' if positive else 'at least 0'}, "
            f"got {value!r}"
        )
    if value > MAX_NETBOX_NUMBER:
        raise MappingError(
            f"{kind} {name_of(obj)}: {key} is {value!r}, more than NetBox stores in any "
            f"numeric field ({MAX_NETBOX_NUMBER:,})"
        )
    return float(value)


def _natural_key(text: str) -> tuple[object, ...]:
    from facility.imports.netbox_report import _natural

    return _natural(text)


def _short(value: float) -> str:
    text = repr(round(float(value), 6))
    return text[:-2] if text.endswith(".0") else text


def _kw(watts: float) -> str:
    return f"{_short(watts / 1000.0)} kW"


def _key(obj: object, index: int) -> object:
    """How the ledger knows an object read: its id, or its place in the answer."""
    if isinstance(obj, dict) and isinstance(obj.get("id"), int) and not isinstance(obj["id"], bool):
        return obj["id"]
    return f"item {index + 1}"


def _port_name(port: Obj) -> str:
    """A power port as the report names it: its device's name and its own."""
    device = port.get("device")
    owner = name_of(device) if isinstance(device, dict) else f"device #{ref(port, 'device')}"
    return f"{owner} {name_of(port)}"


def _devices(names: list[str]) -> str:
    """``n device(s): a, b, …`` for a report entry."""
    return f"{len(names)} device{'s' if len(names) != 1 else ''}: " + ", ".join(names)


def _merge(into: RackLoad, extra: RackLoad) -> None:
    for attr in ("nominal", "peak"):
        a, b = getattr(into, attr), getattr(extra, attr)
        setattr(into, attr, None if a is None or b is None else a + b)
    into.leaves += extra.leaves
    for attr in ("ports", "outlets", "redundant", "summed_sides", "uncabled", "elsewhere", "legs"):
        getattr(into, attr).extend(getattr(extra, attr))
    into.without_figures.extend(extra.without_figures)


def _nestedname_of(obj: Obj, key: str) -> str | None:
    """The name of the nested object ``obj[key]`` ({id, name, …}), or None."""
    value = obj.get(key)
    name = value.get("name") if isinstance(value, dict) else None
    return (printable(str(name)).strip() or None) if name else None


# --- the mapping ---------------------------------------------------------------------------


@dataclass(slots=True)
class _RackFacts:
    rack: Obj
    rack_id: str
    devices: list[Obj]
    sides: dict[str, list[tuple[str, str, Obj]]]  # side → [(pdu id, pdu type id, feed)]
    figures: dict[str, Any]
    slugs: tuple[str, ...]
    names: tuple[str, ...]


class _Mapper:
    def __init__(self, snap: Snapshot, source: str, include_planned: bool, supplies: str):
        self.report = MappingReport(source)
        self.include_planned = include_planned
        self.supplies = supplies
        for key, kind in KINDS.items():
            objects = getattr(snap, key)
            if isinstance(objects, list):
                self.report.read(kind, [_key(obj, i) for i, obj in enumerate(objects)])
        self.snap, self.spoiled = readable(snap, self.report)
        for key, kind in KINDS.items():  # what readable() skipped is in the report
            kept = {o["id"] for o in getattr(self.snap, key)}
            for key_ in self.report.unsettled(kind):
                if key_ not in kept:
                    self.report.settle(kind, key_, "not mapped")
        snap = self.snap
        self.device_types = {dt["id"]: dt for dt in snap.device_types}
        self.locations = {loc["id"]: loc for loc in snap.locations}
        self.racks = {r["id"]: r for r in snap.racks}
        self.devices = {d["id"]: d for d in snap.devices}
        self.feed_by_id = {f["id"]: f for f in snap.power_feeds}
        feed_side = {
            f["id"]: ("B" if _choice(f, "type") == "redundant" else "A") for f in snap.power_feeds
        }
        self.power = PowerGraph(
            snap.power_ports,
            snap.power_outlets,
            feed_side,
            lambda port, key: _number(port, key, "power port"),
            frozenset(f["id"] for f in snap.power_feeds if _choice(f, "phase") == "three-phase"),
        )
        self.room_ids = self._room_ids()
        self.rooms: dict[str, str] = {}  # room id → name, of the rooms used
        self.type_power: dict[str, float] = {}  # PDU type id → available power [VA]
        self.type_mass: dict[int, float | None] = {}  # device type id → its mass [kg]

    # device status ---------------------------------------------------------------------
    def status(self, device: Obj) -> str:
        return _choice(device, "status") or "active"

    def is_load(self, device: Obj | None) -> bool:
        if device is None:
            return True  # a port whose device is not in the snapshot: counted, never dropped
        status = self.status(device)
        return status not in NOT_LOAD or (status == "planned" and self.include_planned)

    def weighs(self, device: Obj) -> bool:
        status = self.status(device)
        return self.is_load(device) or status in MASS_ONLY

    # rooms -----------------------------------------------------------------------------
    def _room_ids(self) -> dict[int, str]:
        """Location id → room id: its name, or its path of names from the top when two
        locations share a name (\"Hall 1/Row A\"), or that and its NetBox id if still not
        unique. Stable from one import to the next."""

        def path(start: Obj) -> str:
            names, seen = [], set()
            loc: Obj | None = start
            while loc is not None and loc["id"] not in seen:
                seen.add(loc["id"])
                names.append(name_of(loc))
                parent = loc.get("parent")
                parent = parent.get("id") if isinstance(parent, dict) else parent
                loc = self.locations.get(parent) if isinstance(parent, int) else None
            return "/".join(reversed(names))

        by_name: dict[str, list[Obj]] = defaultdict(list)
        for loc in self.snap.locations:
            by_name[name_of(loc)].append(loc)
        ids: dict[int, str] = {}
        for name, locs in by_name.items():
            for loc in locs:
                ids[loc["id"]] = name if len(locs) == 1 else path(loc)
        seen: dict[str, int] = defaultdict(int)
        for room in ids.values():
            seen[room] += 1
        for loc_id, room in list(ids.items()):
            if seen[room] > 1:
                ids[loc_id] = f"{room}#{loc_id}"
        for loc_id, room in ids.items():
            if room != name_of(self.locations[loc_id]):
                self.report.add(
                    "guessed",
                    "location",
                    name_of(self.locations[loc_id]),
                    f"{len(by_name[name_of(self.locations[loc_id])])} locations share this "
                    f"name: room id '{room}'",
                )
        return ids

    def room_of(self, obj: Obj) -> str | None:
        loc_id = ref(obj, "location")
        if loc_id is None:
            return None
        room = self.room_ids.get(loc_id)
        if room is None:  # a location of another site, or not read: named as NetBox nests it
            nested = obj.get("location")
            room = (name_of(nested) if isinstance(nested, dict) else "") or f"location-{loc_id}"
            room = room if not room.startswith("#") else f"location-{loc_id}"
            self.rooms.setdefault(room, room)
            return room
        self.rooms.setdefault(room, name_of(self.locations[loc_id]))
        return room

    # racks ids -------------------------------------------------------------------------
    def rack_ids(self) -> dict[int, str]:
        by_name: dict[str, list[Obj]] = defaultdict(list)
        for rack in self.snap.racks:
            by_name[name_of(rack)].append(rack)
        ids: dict[int, str] = {}
        for name, racks in by_name.items():
            for rack in racks:
                if len(racks) == 1:
                    ids[rack["id"]] = name
                    continue
                loc = ref(rack, "location")
                room = self.room_ids.get(loc) if loc is not None else None
                room = room or _nestedname_of(rack, "location") or f"#{rack['id']}"
                ids[rack["id"]] = f"{room}/{name}"
        count: dict[str, int] = defaultdict(int)
        for rack_id in ids.values():
            count[rack_id] += 1
        for nb_id, rack_id in list(ids.items()):
            if count[rack_id] > 1:
                ids[nb_id] = f"{rack_id}#{nb_id}"
        for rack in self.snap.racks:
            name = name_of(rack)
            if ids[rack["id"]] != name:
                self.report.add(
                    "guessed",
                    "rack",
                    name,
                    f"{len(by_name[name])} racks share this name; id '{ids[rack['id']]}'",
                )
        return ids

    # power feeds -----------------------------------------------------------------------
    def feeds(self, rack_ids: dict[int, str]) -> tuple[dict[int, dict[str, list]], list[Obj]]:
        """Per rack id: side → [(pdu id, pdu type id, feed)]; and the PDU types made. Each
        feed not placed on a rack is settled here; the others when their rack is mapped."""
        names: dict[str, int] = defaultdict(int)
        for feed in self.snap.power_feeds:
            names[name_of(feed)] += 1
        types: dict[tuple, Obj] = {}
        per_rack: dict[int, dict[str, list]] = defaultdict(lambda: defaultdict(list))
        port_rack = self._port_racks()
        for feed in sorted(self.snap.power_feeds, key=lambda f: (name_of(f), f["id"])):
            name = name_of(feed)
            panel = _nestedname_of(feed, "power_panel") or "?"
            label = name if names[name] == 1 else f"{printable(panel)}/{name}"

            def skip(reason: str, feed: Obj = feed, label: str = label) -> None:
                self.report.add("skipped", "power feed", label, reason)
                self.report.settle("power feed", feed["id"], "not mapped")

            status = _choice(feed, "status") or "active"
            if status in ("offline", "failed"):
                skip(f"status {status}")
                continue
            if (_choice(feed, "supply") or "ac") != "ac":
                skip("DC supply: our PDUs are AC circuits")
                continue
            phase = _choice(feed, "phase") or "single-phase"
            if phase not in ("single-phase", "three-phase"):
                raise MappingError(f"power feed {label}: unknown phase {phase!r}")
            voltage = _number(feed, "voltage", "power feed", positive=True)
            amperage = _number(feed, "amperage", "power feed", positive=True)
            utilization = _number(feed, "max_utilization", "power feed", positive=True)
            if voltage is None or amperage is None or utilization is None:
                skip("no voltage, amperage or max utilisation")
                continue
            if utilization > 100:
                raise MappingError(
                    f"power feed {label}: max_utilization must be at most 100, got {utilization}"
                )
            rack_nb = ref(feed, "rack")
            if rack_nb is None:
                rack_nb = next(
                    (
                        port_rack[e["id"]]
                        for e in feed.get("connected_endpoints") or []
                        if isinstance(e, dict) and e.get("id") in port_rack
                    ),
                    None,
                )
                if rack_nb is not None:
                    self.report.add(
                        "guessed",
                        "power feed",
                        label,
                        f"no rack set; taken as rack {rack_ids.get(rack_nb, rack_nb)}'s, "
                        "where the device port it is cabled to is",
                    )
            if rack_nb is None or rack_nb not in rack_ids:
                skip("not on a rack of this site")
                continue
            feed_type = _choice(feed, "type") or "primary"
            side = "B" if feed_type == "redundant" else "A"
            if status == "planned":
                self.report.add("note", "power feed", label, "planned; counted as available")
            three = phase == "three-phase"
            key = (voltage, amperage, three, utilization)
            if key not in types:
                type_id = (
                    f"feed-{_short(voltage)}V-{'3ph' if three else '1ph'}-"
                    f"{_short(amperage)}A-{_short(utilization)}pct"
                )
                types[key] = {
                    "id": type_id,
                    "name": (
                        f"NetBox feed {_short(voltage)} V {'three' if three else 'single'}-phase "
                        f"{_short(amperage)} A, max {_short(utilization)} %: "
                        f"{_short(round(feed_available_power(*key)))} VA available"
                    ),
                    "voltage": f"{_short(voltage)} V",
                    "phases": 3 if three else 1,
                    "breaker_rating": f"{_short(amperage)} A",
                    "derating": f"{_short(utilization)} %",
                }
                self.type_power[type_id] = feed_available_power(*key)
            per_rack[rack_nb][side].append((label, types[key]["id"], feed))
        return per_rack, list(types.values())

    def _port_racks(self) -> dict[int, int]:
        """Power port id → rack id (through the port's device)."""
        out = {}
        for port in self.snap.power_ports:
            device = self.devices.get(ref(port, "device") or -1)
            rack = ref(device, "rack") if device else None
            if rack is not None:
                out[port["id"]] = rack
        return out

    # rack load ---------------------------------------------------------------------------
    def rack_loads(self, racks: list[tuple[Obj, str, list[Obj]]]) -> dict[int, RackLoad]:
        """The load of each rack to be mapped: walked from its devices' inlets (ports cabled
        to a feed or not cabled), then, in their own rack, the ports no walk reached (cabled
        to an outlet whose inlet is not counted)."""
        seen: set[int] = set()
        loads: dict[int, RackLoad] = {}
        graph = self.power

        def counts(port: Obj) -> bool:
            return self.is_load(self.devices.get(ref(port, "device") or -1))

        def rack_of(port: Obj) -> int | None:
            device = self.devices.get(ref(port, "device") or -1)
            return ref(device, "rack") if device else None

        for rack, _, devices in racks:
            tops = [
                p
                for d in devices
                for p in graph.ports_of.get(d["id"], ())
                if not graph.fed_by_an_inlet(p)
            ]
            loads[rack["id"]] = graph.walk(tops, counts, rack_of, rack["id"], seen, self.supplies)
        for rack, label, devices in racks:
            left = [
                p for d in devices for p in graph.ports_of.get(d["id"], ()) if p["id"] not in seen
            ]
            if not left:
                continue
            extra = graph.walk(left, counts, rack_of, rack["id"], seen, self.supplies)
            _merge(loads[rack["id"]], extra)
            self.report.add(
                "guessed",
                "rack",
                label,
                f"{len(left)} power ports are cabled to outlets whose inlet is not counted "
                "(not in a mapped rack, or not load by its status): counted in this rack "
                "directly",
            )
        return loads

    def rack_power(self, label: str, load: RackLoad) -> tuple[float | None, float | None]:
        """(nominal, peak) [W] of a walked rack, each None when a figure is missing; the
        conventions taken are reported."""
        report = self.report
        for port in load.uncabled:
            report.add(
                "note",
                "power port",
                f"{label}: {_port_name(port)}",
                "not cabled to a feed; its draw is counted in the rack's load",
            )
        for port in load.elsewhere:
            report.add(
                "note",
                "power port",
                f"{label}: {_port_name(port)}",
                "of a device in another rack (or in none), fed from this rack's outlets: "
                "counted here, where its power comes from",
            )
        for inlet, legs in load.legs:
            if legs:
                shown = ", ".join(f"{leg} {_short(w)} W" for leg, w in sorted(legs.items()))
                report.add(
                    "note",
                    "power port",
                    f"{label}: {_port_name(inlet)}",
                    f"on a three-phase feed; Σ maximum_draw per feed leg: {shown} (the audit "
                    "judges the PDU in total, not per phase)",
                )
        if load.redundant:
            report.add(
                "guessed",
                "rack",
                label,
                "power supplies on side A and side B taken as redundant inlets of one load "
                "(each side carries the device alone: the larger side's draw is counted, not "
                f"both) for {_devices(load.redundant)}",
            )
        if load.summed_sides:
            report.add(
                "guessed",
                "rack",
                label,
                "power supplies on side A and side B, every supply's draw added "
                f"(--redundant-supplies sum) for {_devices(load.summed_sides)}",
            )
        if load.peak is None:
            report.add("gap", "rack", label, "a power port has no maximum_draw: peak_power unknown")
        if load.nominal is None:
            report.add(
                "gap", "rack", label, "a power port has no allocated_draw: nominal_power unknown"
            )
        return load.nominal, load.peak

    # rack mass ---------------------------------------------------------------------------
    def rack_mass(self, rack: Obj, rack_label: str, devices: list[Obj]) -> float | None:
        missing: list[str] = []
        total = 0.0
        try:
            weight = _number(rack, "weight", "rack")
            if weight is None:
                missing.append("the rack's own weight")
            else:
                total += mass_kg(weight, _choice(rack, "weight_unit"))
            for device in devices:
                type_id = ref(device, "device_type")
                dt = self.device_types.get(type_id if type_id is not None else -1)
                if dt is None:
                    missing.append(f"device {name_of(device)}'s type")
                    continue
                kg = self.type_mass.get(dt["id"], False)
                if kg is False:  # each device type's weight converted once
                    w = _number(dt, "weight", "device type")
                    kg = None if w is None else mass_kg(w, _choice(dt, "weight_unit"))
                    self.type_mass[dt["id"]] = kg
                if kg is None:
                    missing.append(f"device type {printable(str(dt.get('slug') or name_of(dt)))}")
                else:
                    total += kg
        except UnitChoiceError as exc:
            raise MappingError(f"rack {rack_label}: {exc}") from None
        if missing:
            self.report.add(
                "gap",
                "rack",
                rack_label,
                "no weight for " + ", ".join(dict.fromkeys(missing)) + ": empty_mass unknown",
            )
            return None
        return total

    # cooling -----------------------------------------------------------------------------
    def rack_cooling(self, rack: Obj, rack_label: str, devices: list[Obj]) -> str | None:
        capability = _choice(rack, "cooling_capability")
        if capability == "air-only":
            return "air"
        if capability in ("liquid-only", "hybrid"):
            if capability == "hybrid":
                self.report.add(
                    "guessed",
                    "rack",
                    rack_label,
                    "cooling capability hybrid: taken as liquid (cold plates with a residual "
                    "air part, set by liquid_heat_fraction)",
                )
            return "liquid"
        methods = set()
        for device in devices:
            method = _choice(device, "cooling_method")
            dt = self.device_types.get(ref(device, "device_type") or -1)
            method = method or (_choice(dt, "cooling_method") if dt else None)
            if method:
                methods.add(method)
        if "immersion" in methods:
            self.report.add(
                "gap", "rack", rack_label, "immersion-cooled devices: our format has no immersion"
            )
            return None
        if methods & {"liquid", "hybrid"}:
            return "liquid"
        if methods == {"air"}:
            return "air"
        return None

    def cooling(self, rack_ids: dict[int, str], doc: Obj) -> None:
        air_units, water = [], []
        feeds_by_source: dict[int, list[Obj]] = defaultdict(list)
        sources = {source["id"] for source in self.snap.cooling_sources}
        for feed in self.snap.cooling_feeds:
            source_id = ref(feed, "cooling_source")
            if source_id is not None and source_id in sources:
                feeds_by_source[source_id].append(feed)
            else:
                self.report.add(
                    "skipped", "cooling feed", name_of(feed), "its cooling source is not read"
                )
            # NetBox has no CDUs or loops: each feed is listed with its source, not mapped.
            self.report.settle("cooling feed", feed["id"], "not mapped")
        for source in sorted(self.snap.cooling_sources, key=name_of):
            name = name_of(source)
            kind = _choice(source, "type") or "?"
            status = _choice(source, "status") or "active"
            capacity = _number(source, "cooling_capacity", "cooling source")
            room = self.room_of(source)
            feeds = feeds_by_source.get(source["id"], [])
            if feeds:
                self.report.add("note", "cooling source", name, self._feeds_text(feeds, rack_ids))
            if status in ("offline", "failed"):
                self.report.add("skipped", "cooling source", name, f"status {status}")
                self.report.settle("cooling source", source["id"], "not mapped")
                continue
            outcome: Outcome = "not mapped"
            if kind in ("crac", "crah"):
                if not capacity:
                    self.report.add(
                        "skipped", "cooling source", name, f"{kind.upper()} without a capacity"
                    )
                    self.report.settle("cooling source", source["id"], outcome)
                    continue
                unit: Obj = {"id": name, "sensible_capacity": _kw(capacity * 1000.0)}
                if room:
                    unit["room"] = room
                air_units.append(unit)
                outcome = "mapped"
                self.report.count("air units")
                self.report.add(
                    "guessed",
                    "cooling source",
                    name,
                    f"{kind.upper()} cooling_capacity {_short(capacity)} kW taken as its "
                    "sensible capacity",
                )
            elif kind in ("chiller", "cooling-tower", "dry-cooler"):
                fluid = _choice(source, "fluid_type")
                if fluid not in (None, "water"):
                    self.report.add(
                        "skipped",
                        "cooling source",
                        name,
                        f"fluid {fluid}: NetBox has no concentration; declare this facility "
                        "water loop and its coolant in your layer",
                    )
                    self.report.settle("cooling source", source["id"], outcome)
                    continue
                water.append({"id": name})
                outcome = "mapped"
                self.report.count("facility water loops")
                if fluid is None:
                    self.report.add(
                        "guessed", "cooling source", name, "no fluid type: taken as water"
                    )
                if capacity:
                    self.report.add(
                        "note",
                        "cooling source",
                        name,
                        f"{kind} capacity {_short(capacity)} kW: our format has no field for it",
                    )
            else:
                self.report.add(
                    "gap",
                    "cooling source",
                    name,
                    f"of a type our format has no place for ({printable(kind)!r}): declare "
                    "the cooling it gives in your layer",
                )
            self.report.settle("cooling source", source["id"], outcome)
        cooling: Obj = {}
        if water:
            cooling["facility_water"] = water
        if air_units:
            cooling["air_units"] = air_units
        if cooling:
            doc["cooling"] = cooling

    def _feeds_text(self, feeds: list[Obj], rack_ids: dict[int, str]) -> str:
        parts = []
        for feed in sorted(feeds, key=lambda f: _natural_key(name_of(f))):
            rack_nb = ref(feed, "rack")
            rack = rack_ids.get(rack_nb, "?") if rack_nb is not None else "no rack"
            figures = []
            cap = _number(feed, "cooling_capacity", "cooling feed")
            if cap is not None:
                figures.append(f"{_short(cap)} kW")
            raw = _number(feed, "max_flow", "cooling feed")
            if raw is not None:
                unit = _choice(feed, "max_flow_unit")
                try:
                    flow = flow_l_per_min(raw, unit)
                except UnitChoiceError as exc:
                    raise MappingError(f"cooling feed {name_of(feed)}: {exc}") from None
                shown = f"{_short(round(flow, 1))} L/min"
                figures.append(shown if unit == "lpm" else f"{shown} ({_short(raw)} {unit})")
            parts.append(f"{rack} ({', '.join(figures) or 'no figures'})")
        return (
            f"{len(feeds)} cooling feeds: "
            + "; ".join(parts)
            + ". NetBox has no CDUs or TCS loops: put these racks on loops in your layer"
        )

    # the document ------------------------------------------------------------------------
    def run(self) -> Obj:
        snap, report = self.snap, self.report
        site = snap.site
        doc: Obj = {"schema_version": 1}
        info: Obj = {"name": name_of({"name": site.get("name") or site.get("slug"), "id": 0})}
        if site.get("physical_address"):
            info["location"] = printable(str(site["physical_address"]))
        info["notes"] = f"Imported from {report.source}."
        doc["site"] = info
        for key, unavailable in sorted(snap.unavailable.items()):
            kind = KINDS.get(key, key.replace("_", " "))
            report.add("gap", f"{kind}s", "*", f"not read: {printable(unavailable)}")

        rack_ids = self.rack_ids()
        sides, pdu_types = self.feeds(rack_ids)
        devices_by_rack: dict[int, list[Obj]] = defaultdict(list)
        for device in snap.devices:
            in_rack = ref(device, "rack")
            if in_rack is None or in_rack not in self.racks:
                if in_rack is None:
                    report.add("skipped", "device", name_of(device), "not in a rack")
                report.settle("device", device["id"], "not mapped")
                continue
            devices_by_rack[in_rack].append(device)

        mapped: list[tuple[Obj, str, list[Obj]]] = []
        for rack in sorted(snap.racks, key=lambda r: (rack_ids[r["id"]], r["id"])):
            label = rack_ids[rack["id"]]
            status = _choice(rack, "status") or "active"
            devices = sorted(devices_by_rack.get(rack["id"], []), key=lambda d: d["id"])
            why: str | None = (
                "status deprecated" if status == "deprecated" else self.spoiled.get(rack["id"])
            )
            if why:
                report.add("skipped", "rack", label, why)
                report.settle("rack", rack["id"], "not mapped")
                for device in devices:
                    report.settle("device", device["id"], "not mapped")
                if devices:
                    report.add(
                        "skipped",
                        "rack",
                        label,
                        f"its {len(devices)} devices are not mapped with it: "
                        + ", ".join(name_of(d) for d in devices),
                    )
                continue
            mapped.append((rack, label, devices))
        loads = self.rack_loads(mapped)
        facts = [
            self.rack_facts(rack, label, devices, sides.get(rack["id"], {}), loads[rack["id"]])
            for rack, label, devices in mapped
        ]

        types, placements = self.rack_types(facts)
        self.cooling(rack_ids, doc)
        doc["rooms"] = [{"id": r, "name": n} for r, n in sorted(self.rooms.items())]
        if not doc["rooms"]:
            del doc["rooms"]
        doc["rack_types"] = types
        if pdu_types:
            doc["power"] = {"pdu_types": sorted(pdu_types, key=lambda t: t["id"])}
        doc["racks"] = placements
        for panel in sorted(snap.power_panels, key=name_of):
            report.add(
                "gap",
                "power panel",
                name_of(panel),
                "no electrical ratings in NetBox: add it under power.distribution and set the "
                "PDUs' fed_by in your layer",
            )
            report.settle("power panel", panel["id"], "not mapped")
        self.settle_the_rest(loads)
        report.count("racks", len(placements))
        report.count("rack types", len(types))
        return doc

    def settle_the_rest(self, loads: dict[int, RackLoad]) -> None:
        """Ports, outlets, device types and locations: each mapped through what used it, or
        reported with the reason."""
        report = self.report
        walked = {p["id"] for load in loads.values() for p in load.ports}
        for port in self.snap.power_ports:
            if port["id"] in walked and self.is_load(self.devices.get(ref(port, "device") or -1)):
                report.settle("power port", port["id"], "mapped")
        not_load = [
            p for p in self.snap.power_ports if report.ledger["power port"].get(p["id"]) is None
        ]
        by_reason: dict[str, list[str]] = defaultdict(list)
        for port in not_load:
            device = self.devices.get(ref(port, "device") or -1)
            if device is None:
                reason = "its device is not in this import"
            elif ref(device, "rack") in self.racks and not self.is_load(device):
                reason = f"its device's status is {self.status(device)}: not load"
            else:
                reason = "its device is not mapped"
            by_reason[reason].append(_port_name(port))
            report.settle("power port", port["id"], "not mapped")
        for reason, names in sorted(by_reason.items()):
            plural = "s" if len(names) != 1 else ""
            report.add(
                "skipped",
                "power port",
                f"{len(names)} port{plural}",
                f"{reason}: " + ", ".join(names),
            )
        used_outlets = {o["id"] for load in loads.values() for o in load.outlets}
        idle: dict[str, int] = defaultdict(int)
        for outlet in self.snap.power_outlets:
            cabled = outlet["id"] in self.power.ports_on
            if outlet["id"] in used_outlets and cabled:
                report.settle("power outlet", outlet["id"], "mapped")
                continue
            device = outlet.get("device")
            owner = (
                name_of(device) if isinstance(device, dict) else f"device #{ref(outlet, 'device')}"
            )
            idle[owner] += 1
            report.settle("power outlet", outlet["id"], "not mapped")
        for owner, n in sorted(idle.items()):
            report.add(
                "note",
                "power outlet",
                f"{owner}: {n} outlets",
                "nothing counted is cabled to them (or their device is not mapped): no load",
            )
        types_used = {
            ref(d, "device_type")
            for d in self.snap.devices
            if report.ledger["device"].get(d["id"]) == "mapped"
        }
        for dt in self.snap.device_types:
            if dt["id"] in types_used:
                report.settle("device type", dt["id"], "mapped")
            else:
                report.add(
                    "skipped",
                    "device type",
                    str(dt.get("slug") or name_of(dt)),
                    "no mapped device is of this type",
                )
                report.settle("device type", dt["id"], "not mapped")
        rooms = set(self.rooms)
        for loc in self.snap.locations:
            room = self.room_ids.get(loc["id"])
            if room in rooms:
                report.settle("location", loc["id"], "mapped")
            else:
                report.add(
                    "note",
                    "location",
                    name_of(loc),
                    "holds no mapped rack or air unit of its own: not a room (racks in the "
                    "locations below it are in their own rooms)",
                )
                report.settle("location", loc["id"], "not mapped")
        for kind in KINDS.values():  # a safety net: each object read is accounted for
            for key in report.unsettled(kind):
                report.add("skipped", kind, f"#{key}", "not used by the mapping")
                report.settle(kind, key, "not mapped")

    def rack_facts(
        self, rack: Obj, label: str, devices: list[Obj], sides: dict[str, list], load: RackLoad
    ) -> _RackFacts:
        report = self.report
        figures: Obj = {}
        loading = [d for d in devices if self.is_load(d)]
        weighing = [d for d in devices if self.weighs(d)]
        for device in devices:
            status = self.status(device)
            if device in loading:
                note = (
                    "planned, counted as load (--include-planned)" if status == "planned" else None
                )
            elif device in weighing:
                note = f"status {status}: its mass is counted, its power is not (not load)"
            else:
                note = f"status {status}: neither its power nor its mass is counted"
            if note:
                report.add("note", "device", f"{label}: {name_of(device)}", note)
            report.settle("device", device["id"], "mapped" if device in weighing else "not mapped")
        passive = load.leaves == 0
        cooling = None if passive else self.rack_cooling(rack, label, loading)
        if passive:
            figures["passive"] = True
            what = "no devices" if not devices else "no device that draws power is counted"
            report.add(
                "guessed",
                "rack",
                label,
                f"{what}: a passive rack (no power or heat load; its mass counts)",
            )
        if cooling:
            figures["cooling"] = cooling
        if not passive:
            nominal, peak = self.rack_power(label, load)
            if nominal is not None and nominal > 0:
                figures["nominal_power"] = _kw(nominal)
            if peak is not None and peak > 0:
                figures["peak_power"] = _kw(peak)
        mass = self.rack_mass(rack, label, weighing)
        if mass is not None and mass > 0:
            figures["empty_mass"] = f"{_short(round(mass, 3))} kg"
        max_weight = _number(rack, "max_weight", "rack")
        if max_weight:
            try:
                figures["max_payload"] = mass_text(max_weight, _choice(rack, "weight_unit"))
            except UnitChoiceError as exc:
                raise MappingError(f"rack {label}: {exc}") from None
        unit = _choice(rack, "outer_unit")
        width = _number(rack, "outer_width", "rack")
        depth = _number(rack, "outer_depth", "rack")
        height = _number(rack, "outer_height", "rack")
        try:
            if width and depth:
                figures["footprint"] = {
                    "width": length_text(width, unit),
                    "depth": length_text(depth, unit),
                }
            else:
                report.add("gap", "rack", label, "no outer width and depth: footprint")
            if height:
                figures["height"] = length_text(height, unit)
        except UnitChoiceError as exc:
            raise MappingError(f"rack {label}: {exc}") from None
        counts = {len(v) for v in sides.values()}
        if not passive and len(counts) == 1 and len(sides) == 2:
            figures["power_inputs_per_side"] = counts.pop()
        capacity = _number(rack, "cooling_capacity", "rack")
        if capacity:
            report.add(
                "note",
                "rack",
                label,
                f"cooling capacity {_short(capacity)} kW recorded in NetBox; our format checks "
                "the loop's CDUs and the room's air units instead",
            )
        self.room_of(rack)
        dts = [self.device_types.get(ref(d, "device_type") or -1) or {} for d in weighing]
        slugs = tuple(sorted({printable(str(dt.get("slug") or "device")) for dt in dts}))
        names = tuple(
            sorted({printable(str(dt.get("model") or dt.get("slug") or "?")) for dt in dts})
        )
        return _RackFacts(
            rack, label, weighing, {s: list(v) for s, v in sides.items()}, figures, slugs, names
        )

    def rack_types(self, facts: list[_RackFacts]) -> tuple[list[Obj], list[Obj]]:
        kinds: dict[str, Obj] = {}  # serialised figures → rack type
        by_base: dict[str, int] = defaultdict(int)
        placements: list[Obj] = []
        for f in facts:
            key = repr((f.slugs, sorted(f.figures.items())))
            if key not in kinds:
                base = "+".join(f.slugs) or "empty-rack"
                by_base[base] += 1
                type_id = base if by_base[base] == 1 else f"{base}-{by_base[base]}"
                if by_base[base] > 1:
                    self.report.add(
                        "guessed",
                        "rack",
                        f.rack_id,
                        f"same devices as rack type '{base}' but other figures: rack type "
                        f"'{type_id}'",
                    )
                count = len(f.devices)
                name = " + ".join(f.names) or "empty rack"
                kinds[key] = {
                    "id": type_id,
                    "name": name if count <= 1 else f"{name} ({count} devices)",
                    **f.figures,
                }
            placement: Obj = {"id": f.rack_id, "type": kinds[key]["id"]}
            pdus: Obj = {}
            for side in sorted(f.sides):
                entries = f.sides[side]
                type_ids = sorted({t for _, t, _ in entries})
                chosen = min(type_ids, key=lambda t: self.type_power[t])
                if len(type_ids) > 1:
                    self.report.add(
                        "guessed",
                        "rack",
                        f.rack_id,
                        f"side {side} has feeds of different ratings ({', '.join(type_ids)}); "
                        f"our format has one PDU type per side: all taken as the smallest, "
                        f"{chosen}",
                    )
                pdus[side] = {
                    "type": chosen,
                    "count": len(entries),
                    "names": [name for name, _, _ in entries],
                }
                for _, _, feed in entries:
                    self.report.settle("power feed", feed["id"], "mapped")
                self.report.count("power feeds (as PDUs)", len(entries))
            if pdus:
                placement["pdus"] = pdus
            elif not f.figures.get("passive"):
                self.report.add("gap", "rack", f.rack_id, "no power feed: no PDUs")
            if len(pdus) == 1:
                self.report.add("note", "rack", f.rack_id, f"feeds on side {next(iter(pdus))} only")
            placements.append(placement)
            self.report.settle("rack", f.rack["id"], "mapped")
        return list(kinds.values()), placements


def map_site(
    snapshot: Snapshot,
    source: str,
    *,
    include_planned: bool = False,
    redundant_supplies: str = "larger-side",
) -> tuple[Obj, MappingReport]:
    """The site document of ``snapshot`` and the report of what was skipped or guessed.

    ``source`` says where the data came from (shown in the file and the report); it must not
    hold a credential. ``include_planned`` counts planned devices as load;
    ``redundant_supplies`` is how the supplies of a device fed from both sides add up
    ("larger-side" or "sum", :mod:`.netbox_power`). Raises :class:`MappingError` for a value
    NetBox should never return.
    """
    if redundant_supplies not in REDUNDANT_SUPPLIES:
        raise ValueError(f"redundant_supplies must be one of {REDUNDANT_SUPPLIES}")
    mapper = _Mapper(snapshot, source, include_planned, redundant_supplies)
    doc = mapper.run()
    for gap in RACK_TYPE_GAPS:
        mapper.report.add("gap", "rack types", "*", gap)
    for gap in SITE_GAPS:
        mapper.report.add("gap", "site", "*", gap)
    return doc, mapper.report
