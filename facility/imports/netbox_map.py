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
- **Rack load.** The power ports of the rack's devices that are cabled to a feed, or not cabled
  at all, are the rack's inlets (NetBox's own utilisation adds up the same ports); a port cabled
  to a power outlet is counted through the device that owns the outlet, unless that inlet has
  no draw of its own, when the ports behind it are added up. Σ ``maximum_draw`` is the peak
  power, Σ ``allocated_draw`` the nominal power (W). A port without a figure makes the sum a gap.
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

from facility.imports.netbox_report import MappingReport
from facility.imports.netbox_snapshot import MappingError, Obj, Snapshot, name_of, readable, ref
from facility.imports.netbox_units import (
    UnitChoiceError,
    feed_available_power,
    flow_l_per_min,
    length_text,
    mass_kg,
    mass_text,
)

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


def _nestedname_of(obj: Obj, key: str) -> str | None:
    """The name of the nested object ``obj[key]`` ({id, name, …}), or None."""
    value = obj.get(key)
    name = value.get("name") if isinstance(value, dict) else None
    return str(name) if name else None


# --- the mapping ---------------------------------------------------------------------------


@dataclass(slots=True)
class _RackFacts:
    rack: Obj
    rack_id: str
    devices: list[Obj]
    sides: dict[str, list[tuple[str, str]]]  # side → [(pdu id, pdu type id)]
    figures: dict[str, Any]
    slugs: tuple[str, ...]
    names: tuple[str, ...]


class _Mapper:
    def __init__(self, snap: Snapshot, source: str):
        self.report = MappingReport(source)
        self.snap, self.spoiled = readable(snap, self.report)
        snap = self.snap
        self.device_types = {dt["id"]: dt for dt in snap.device_types}
        self.locations = {loc["id"]: loc for loc in snap.locations}
        self.racks = {r["id"]: r for r in snap.racks}
        self.devices = {d["id"]: d for d in snap.devices}
        # Each device's power ports, and the ports its outlets feed (a PDU inside the rack),
        # in the snapshot's order: looked up per rack, never searched (a campus has 100,000s).
        self.ports_of: dict[int, list[tuple[int, Obj]]] = defaultdict(list)
        self.fed_by_outlets_of: dict[int, list[Obj]] = defaultdict(list)
        for index, port in enumerate(snap.power_ports):
            owner = ref(port, "device")
            if owner is not None:
                self.ports_of[owner].append((index, port))
            if port.get("connected_endpoints_type") == "dcim.poweroutlet":
                for e in port.get("connected_endpoints") or []:
                    outlet_owner = ref(e, "device") if isinstance(e, dict) else None
                    if outlet_owner is not None:
                        self.fed_by_outlets_of[outlet_owner].append(port)
        self.rooms: dict[str, str] = {}  # room id → name
        self.type_power: dict[str, float] = {}  # PDU type id → available power [VA]

    # rooms -----------------------------------------------------------------------------
    def room_of(self, obj: Obj) -> str | None:
        loc_id = ref(obj, "location")
        if loc_id is None:
            return None
        loc = self.locations.get(loc_id) or obj.get("location")
        if not isinstance(loc, dict):
            loc = {}
        room = str(loc.get("name") or loc.get("display") or f"location-{loc_id}")
        self.rooms.setdefault(room, room)
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
                else:
                    loc = _nestedname_of(rack, "location") or f"#{rack['id']}"
                    ids[rack["id"]] = f"{loc}/{name}"
                    self.report.add(
                        "guessed",
                        "rack",
                        name,
                        f"{len(racks)} racks share this name; id '{ids[rack['id']]}'",
                    )
        return ids

    # power feeds -----------------------------------------------------------------------
    def feeds(self, rack_ids: dict[int, str]) -> tuple[dict[int, dict[str, list]], list[Obj]]:
        """Per rack id: side → [(pdu id, pdu type id)]; and the PDU types made."""
        names: dict[str, int] = defaultdict(int)
        for feed in self.snap.power_feeds:
            names[name_of(feed)] += 1
        types: dict[tuple, Obj] = {}
        per_rack: dict[int, dict[str, list]] = defaultdict(lambda: defaultdict(list))
        port_rack = self._port_racks()
        for feed in sorted(self.snap.power_feeds, key=lambda f: (name_of(f), f["id"])):
            name = name_of(feed)
            panel = _nestedname_of(feed, "power_panel") or "?"
            label = name if names[name] == 1 else f"{panel}/{name}"
            status = _choice(feed, "status") or "active"
            if status in ("offline", "failed"):
                self.report.add("skipped", "power feed", label, f"status {status}")
                continue
            if (_choice(feed, "supply") or "ac") != "ac":
                self.report.add(
                    "skipped", "power feed", label, "DC supply: our PDUs are AC circuits"
                )
                continue
            phase = _choice(feed, "phase") or "single-phase"
            if phase not in ("single-phase", "three-phase"):
                raise MappingError(f"power feed {label}: unknown phase {phase!r}")
            voltage = _number(feed, "voltage", "power feed", positive=True)
            amperage = _number(feed, "amperage", "power feed", positive=True)
            utilization = _number(feed, "max_utilization", "power feed", positive=True)
            if voltage is None or amperage is None or utilization is None:
                self.report.add(
                    "skipped", "power feed", label, "no voltage, amperage or max utilisation"
                )
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
                self.report.add("skipped", "power feed", label, "not on a rack of this site")
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
            per_rack[rack_nb][side].append((label, types[key]["id"]))
            self.report.count("power feeds")
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
    def rack_power(self, rack_label: str, devices: list[Obj]) -> tuple[float | None, float | None]:
        """(nominal, peak) power of a rack [W], or None for a figure that is missing."""
        ids = {d["id"] for d in devices}
        ports = [port for _, port in sorted(p for d in ids for p in self.ports_of.get(d, ()))]
        behind = self.fed_by_outlets_of  # device id → ports fed by its outlets
        nominal: float | None = 0.0
        peak: float | None = 0.0
        counted = 0
        for port in ports:
            if port.get("connected_endpoints_type") == "dcim.poweroutlet":
                continue  # counted through the device that owns the outlet
            owner = ref(port, "device")
            maximum = _number(port, "maximum_draw", "power port")
            allocated = _number(port, "allocated_draw", "power port")
            if maximum is None and allocated is None and owner in behind:
                downstream = behind[owner]
                maxima = [_number(p, "maximum_draw", "power port") for p in downstream]
                alloc = [_number(p, "allocated_draw", "power port") for p in downstream]
                maximum = None if None in maxima else sum(m for m in maxima if m is not None)
                allocated = None if None in alloc else sum(a for a in alloc if a is not None)
                self.report.add(
                    "guessed",
                    "power port",
                    f"{rack_label}: {name_of(port)}",
                    "no draw of its own; the draws of the ports behind its device's outlets "
                    "are added up (as NetBox's UI does)",
                )
            if not port.get("connected_endpoints") and not port.get("mark_connected"):
                self.report.add(
                    "note",
                    "power port",
                    f"{rack_label}: {name_of(port)}",
                    "not cabled to a feed; its draw is counted in the rack's load",
                )
            counted += 1
            peak = None if peak is None or maximum is None else peak + maximum
            nominal = None if nominal is None or allocated is None else nominal + allocated
        if counted == 0:
            return None, None
        if peak is None:
            self.report.add(
                "gap", "rack", rack_label, "a power port has no maximum_draw: peak_power unknown"
            )
        if nominal is None:
            self.report.add(
                "gap",
                "rack",
                rack_label,
                "a power port has no allocated_draw: nominal_power unknown",
            )
        return nominal, peak

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
                dt = self.device_types.get(ref(device, "device_type") or -1)
                if dt is None:
                    missing.append(f"device {name_of(device)}'s type")
                    continue
                w = _number(dt, "weight", "device type")
                if w is None:
                    missing.append(f"device type {dt.get('slug') or name_of(dt)}")
                else:
                    total += mass_kg(w, _choice(dt, "weight_unit"))
        except UnitChoiceError as exc:
            raise MappingError(f"rack {rack_label}: {exc}") from None
        if missing:
            self.report.add(
                "gap",
                "rack",
                rack_label,
                "no weight for " + ", ".join(missing) + ": empty_mass unknown",
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
        for feed in self.snap.cooling_feeds:
            source_id = ref(feed, "cooling_source")
            if source_id is not None:
                feeds_by_source[source_id].append(feed)
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
                continue
            if kind in ("crac", "crah"):
                if not capacity:
                    self.report.add(
                        "skipped", "cooling source", name, f"{kind.upper()} without a capacity"
                    )
                    continue
                unit: Obj = {"id": name, "sensible_capacity": _kw(capacity * 1000.0)}
                if room:
                    unit["room"] = room
                air_units.append(unit)
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
                    continue
                water.append({"id": name})
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
                self.report.add("skipped", "cooling source", name, f"unknown type {kind!r}")
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
        info: Obj = {"name": str(site.get("name") or site.get("slug"))}
        if site.get("physical_address"):
            info["location"] = str(site["physical_address"])
        info["notes"] = f"Imported from {report.source}."
        doc["site"] = info

        rack_ids = self.rack_ids()
        sides, pdu_types = self.feeds(rack_ids)
        devices_by_rack: dict[int, list[Obj]] = defaultdict(list)
        for device in snap.devices:
            in_rack = ref(device, "rack")
            if in_rack is None:
                if device.get("power_port_count"):
                    report.add("skipped", "device", name_of(device), "not in a rack")
                continue
            devices_by_rack[in_rack].append(device)

        facts: list[_RackFacts] = []
        for rack in sorted(snap.racks, key=lambda r: (rack_ids[r["id"]], r["id"])):
            label = rack_ids[rack["id"]]
            status = _choice(rack, "status") or "active"
            devices = sorted(devices_by_rack.get(rack["id"], []), key=lambda d: d["id"])
            if status == "deprecated":
                report.add("skipped", "rack", label, "status deprecated")
                continue
            if rack["id"] in self.spoiled:
                report.add("skipped", "rack", label, self.spoiled[rack["id"]])
                continue
            if not devices:
                report.add("skipped", "rack", label, "no devices: nothing to audit")
                continue
            self.room_of(rack)
            facts.append(self.rack_facts(rack, label, devices, sides.get(rack["id"], {})))

        types, placements = self.rack_types(facts)
        doc["rooms"] = [{"id": r, "name": n} for r, n in sorted(self.rooms.items())]
        if not doc["rooms"]:
            del doc["rooms"]
        doc["rack_types"] = types
        if pdu_types:
            doc["power"] = {"pdu_types": sorted(pdu_types, key=lambda t: t["id"])}
        self.cooling(rack_ids, doc)
        doc["racks"] = placements
        for panel in sorted(snap.power_panels, key=name_of):
            report.add(
                "gap",
                "power panel",
                name_of(panel),
                "no electrical ratings in NetBox: add it under power.distribution and set the "
                "PDUs' fed_by in your layer",
            )
        report.count("racks", len(placements))
        report.count("rack types", len(types))
        return doc

    def rack_facts(
        self, rack: Obj, label: str, devices: list[Obj], sides: dict[str, list]
    ) -> _RackFacts:
        figures: Obj = {}
        cooling = self.rack_cooling(rack, label, devices)
        if cooling:
            figures["cooling"] = cooling
        nominal, peak = self.rack_power(label, devices)
        if nominal is not None and nominal > 0:
            figures["nominal_power"] = _kw(nominal)
        if peak is not None and peak > 0:
            figures["peak_power"] = _kw(peak)
        mass = self.rack_mass(rack, label, devices)
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
                self.report.add("gap", "rack", label, "no outer width and depth: footprint")
            if height:
                figures["height"] = length_text(height, unit)
        except UnitChoiceError as exc:
            raise MappingError(f"rack {label}: {exc}") from None
        counts = {len(v) for v in sides.values()}
        if len(counts) == 1 and len(sides) == 2:
            figures["power_inputs_per_side"] = counts.pop()
        capacity = _number(rack, "cooling_capacity", "rack")
        if capacity:
            self.report.add(
                "note",
                "rack",
                label,
                f"cooling capacity {_short(capacity)} kW recorded in NetBox; our format checks "
                "the loop's CDUs and the room's air units instead",
            )
        dts = [self.device_types.get(ref(d, "device_type") or -1) or {} for d in devices]
        slugs = tuple(sorted({str(dt.get("slug") or "device") for dt in dts}))
        names = tuple(sorted({str(dt.get("model") or dt.get("slug") or "?") for dt in dts}))
        return _RackFacts(
            rack, label, devices, {s: list(v) for s, v in sides.items()}, figures, slugs, names
        )

    def rack_types(self, facts: list[_RackFacts]) -> tuple[list[Obj], list[Obj]]:
        kinds: dict[str, Obj] = {}  # serialised figures → rack type
        by_base: dict[str, int] = defaultdict(int)
        placements: list[Obj] = []
        for f in facts:
            key = repr((f.slugs, sorted(f.figures.items())))
            if key not in kinds:
                base = "+".join(f.slugs)
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
                name = " + ".join(f.names)
                kinds[key] = {
                    "id": type_id,
                    "name": name if count == 1 else f"{name} ({count} devices)",
                    **f.figures,
                }
            placement: Obj = {"id": f.rack_id, "type": kinds[key]["id"]}
            pdus: Obj = {}
            for side in sorted(f.sides):
                entries = f.sides[side]
                type_ids = sorted({t for _, t in entries})
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
                    "names": [name for name, _ in entries],
                }
            if pdus:
                placement["pdus"] = pdus
            else:
                self.report.add("gap", "rack", f.rack_id, "no power feed: no PDUs")
            if len(pdus) == 1:
                self.report.add("note", "rack", f.rack_id, f"feeds on side {next(iter(pdus))} only")
            placements.append(placement)
        return list(kinds.values()), placements


def map_site(snapshot: Snapshot, source: str) -> tuple[Obj, MappingReport]:
    """The site document of ``snapshot`` and the report of what was skipped or guessed.

    ``source`` says where the data came from (shown in the file and the report); it must not
    hold a credential. Raises :class:`MappingError` for a value NetBox should never return.
    """
    mapper = _Mapper(snapshot, source)
    doc = mapper.run()
    for gap in RACK_TYPE_GAPS:
        mapper.report.add("gap", "rack types", "*", gap)
    for gap in SITE_GAPS:
        mapper.report.add("gap", "site", "*", gap)
    return doc, mapper.report
