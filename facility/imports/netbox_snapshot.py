"""What the NetBox importer reads: the snapshot of one site's objects, and which of them it
can read at all.

A NetBox answer is JSON someone else's server sent. Before mapping (:mod:`.netbox_map`), each
object is checked for the shape the mapping reads — an object, with an integer id, related
objects as ids, choices as strings, numbers as numbers — and one that has another shape is
skipped and listed in the mapping report with the reason, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from facility.imports.netbox_report import MappingReport
from facility.printable import printable

Obj = dict[str, Any]


class MappingError(ValueError):
    """NetBox returned a value this importer cannot read (names the object and field)."""


@dataclass(slots=True)
class Snapshot:
    """The objects of one NetBox site, as the REST API returned them."""

    status: Obj
    site: Obj
    locations: list[Obj] = field(default_factory=list)
    racks: list[Obj] = field(default_factory=list)
    devices: list[Obj] = field(default_factory=list)
    device_types: list[Obj] = field(default_factory=list)
    power_ports: list[Obj] = field(default_factory=list)
    power_outlets: list[Obj] = field(default_factory=list)
    power_panels: list[Obj] = field(default_factory=list)
    power_feeds: list[Obj] = field(default_factory=list)
    cooling_sources: list[Obj] = field(default_factory=list)
    cooling_feeds: list[Obj] = field(default_factory=list)
    # Snapshot key → why the server could not give it (e.g. an endpoint its version lacks);
    # the mapping report lists each. Never filled from a response's content.
    unavailable: dict[str, str] = field(default_factory=dict)

    KEYS = (
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


def name_of(obj: Obj) -> str:
    """How an object is named in the file and the report: its name, display or #id, with
    every control character escaped (``\\x07``) and outer spaces dropped, so that it is a
    valid id and inert text wherever it is shown."""
    value = printable(str(obj.get("name") or obj.get("display") or "")).strip()
    return value or f"#{obj.get('id')}"


def ref(obj: Obj, key: str) -> int | None:
    """The id of a nested related object, or None."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, dict):
        value = value.get("id")
    if isinstance(value, bool) or not isinstance(value, int):
        raise MappingError(f"{name_of(obj)}: field {key!r} is not a related object: {value!r}")
    return value


# --- what can be read ----------------------------------------------------------------------

# The fields the mapping reads, by the JSON shape NetBox 4.7 gives them. Anything else in a
# field is an object the mapping cannot read: it is skipped and reported, with the reason.
_RELATED = (
    "rack", "location", "device", "device_type", "power_panel", "cooling_source", "power_port",
)  # fmt: skip
_CHOICES = (
    "status", "supply", "phase", "type", "weight_unit", "outer_unit", "cooling_capability",
    "cooling_method", "fluid_type", "max_flow_unit", "feed_leg",
)  # fmt: skip
_NUMBERS = (
    "weight", "max_weight", "outer_width", "outer_depth", "outer_height", "cooling_capacity",
    "voltage", "amperage", "max_utilization", "maximum_draw", "allocated_draw", "max_flow",
)  # fmt: skip
_TEXTS = ("name", "display", "slug", "model", "connected_endpoints_type")
# NetBox kinds as messages, the report and its tally name them, by Snapshot field.
KINDS = {
    "locations": "location",
    "racks": "rack",
    "devices": "device",
    "device_types": "device type",
    "power_ports": "power port",
    "power_outlets": "power outlet",
    "power_panels": "power panel",
    "power_feeds": "power feed",
    "cooling_sources": "cooling source",
    "cooling_feeds": "cooling feed",
}


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_related(value: Any) -> bool:
    return value is None or _is_id(value) or (isinstance(value, dict) and _is_id(value.get("id")))


def _json_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    return "a number" if isinstance(value, int | float) else "null"


_RELATED_FIELD, _CHOICE_FIELD, _NUMBER_FIELD, _TEXT_FIELD, _ENDPOINTS_FIELD = range(5)
_CHECKS = {
    **dict.fromkeys(_RELATED, _RELATED_FIELD),
    **dict.fromkeys(_CHOICES, _CHOICE_FIELD),
    **dict.fromkeys(_NUMBERS, _NUMBER_FIELD),
    **dict.fromkeys(_TEXTS, _TEXT_FIELD),
    "connected_endpoints": _ENDPOINTS_FIELD,
}


def _unreadable(obj: Any) -> str | None:
    """Why the mapping cannot read ``obj`` (not an object, no id, a field of the wrong JSON
    type), or None. Values of the right type that are out of range stay MappingErrors.

    One pass over the object's own fields (a campus has 100,000s of objects)."""
    if not isinstance(obj, dict):
        return f"not an object but {_json_kind(obj)}"
    if not _is_id(obj.get("id")):
        return "no id" if obj.get("id") is None else f"its id is {_json_kind(obj['id'])}"
    for key, value in obj.items():
        check = _CHECKS.get(key)
        if check is None or value is None:
            continue
        if check == _RELATED_FIELD:
            if not _is_related(value):
                return f"field {key!r} is {_json_kind(value)}, not a related object"
        elif check == _CHOICE_FIELD:
            choice = value.get("value") if isinstance(value, dict) else value
            if choice is not None and not isinstance(choice, str):
                return f"field {key!r} is {_json_kind(choice)}, not a choice"
        elif check == _NUMBER_FIELD:
            if isinstance(value, bool | dict | list):
                return f"field {key!r} is {_json_kind(value)}, not a number"
        elif check == _TEXT_FIELD:
            if not isinstance(value, str):
                return f"field {key!r} is {_json_kind(value)}, not a string"
        elif not (
            isinstance(value, list)
            and all(
                isinstance(e, dict) and _is_related(e.get("device")) and _is_related(e.get("id"))
                for e in value
            )
        ):
            return "field 'connected_endpoints' is not a list of objects"
    return None


def readable(snap: Snapshot, report: MappingReport) -> tuple[Snapshot, dict[int, str]]:
    """``snap`` without the objects the mapping cannot read, each reported as skipped with
    the reason (a second object with the same id too); and, per rack id, why that rack cannot
    be mapped: an unreadable device or power port in it would leave its sums short."""
    if not isinstance(snap.site, dict):
        raise MappingError(f"the site is {_json_kind(snap.site)}, not an object")
    kept: dict[str, list[Obj]] = {}
    dropped: dict[str, list[Obj]] = {}  # objects with an id, skipped: what they affect
    for key, kind in KINDS.items():
        objects = getattr(snap, key)
        if not isinstance(objects, list):
            raise MappingError(f"the {kind}s are {_json_kind(objects)}, not a list")
        kept[key], dropped[key], seen = [], [], set()
        for index, obj in enumerate(objects):
            why = _unreadable(obj)
            if why is None and obj["id"] in seen:
                why = f"a second {kind} with id {obj['id']}"
            if why is None:
                seen.add(obj["id"])
                kept[key].append(obj)
                continue
            name = name_of(obj) if isinstance(obj, dict) else f"item {index + 1}"
            report.add("skipped", kind, name, f"cannot be read: {why}")
            if isinstance(obj, dict):
                dropped[key].append(obj)
    status = snap.status if isinstance(snap.status, dict) else {}
    clean = Snapshot(status, snap.site, **kept, unavailable=dict(snap.unavailable))
    racks = {r["id"] for r in clean.racks}
    device_rack = {d["id"]: ref(d, "rack") for d in clean.devices}
    spoiled: dict[int, str] = {}
    for device in dropped["devices"]:
        rack = ref(device, "rack") if _is_related(device.get("rack")) else None
        if rack is not None:
            spoiled.setdefault(rack, f"its device {name_of(device)} cannot be read")
    for port in dropped["power_ports"]:
        owner = ref(port, "device") if _is_related(port.get("device")) else None
        rack = device_rack.get(owner) if owner is not None else None
        if rack is not None:
            spoiled.setdefault(rack, f"power port {name_of(port)} of a device in it cannot be read")
    for device in clean.devices:
        rack = device_rack[device["id"]]
        if rack is not None and rack not in racks:
            report.add("skipped", "device", name_of(device), f"its rack #{rack} is not mapped")
    return clean, spoiled
