"""A rack's power load from NetBox's power ports and outlets, following NetBox's own model.

NetBox (``PowerPort.get_power_draw``): a power port with a draw of its own (``maximum_draw``
or ``allocated_draw``) draws that; a port without one draws what the ports cabled to *its*
outlets draw — the outlets whose ``power_port`` is this inlet, not every outlet of its device
(a dual-inlet PDU's two inlets each carry their own outlets). So each port is counted once:
a rack's load is walked from its devices' ports that are cabled to a power feed or not cabled
at all, down through the outlets of each inlet without figures, to the ports that state a
draw ("leaves").

Redundant supplies: the leaves of one device that have no outlets of their own (its power
supplies) and are reached from both sides (A: primary feeds, B: redundant feeds) are, by
default (``larger-side``), redundant inlets of one load: each side carries the device alone,
so the device draws the larger side's sum, never both sides' at once (NetBox's rack
utilisation adds both, which counts such a device twice). ``sum`` adds every supply (each
supply's figures are its share). Supplies whose side cannot be told (not cabled) are added on
top. Each device so taken is named in the mapping report.

Device status: ``offline``, ``decommissioning`` and ``inventory`` devices are not load, nor
are ``planned`` ones unless asked for; offline and decommissioning devices still weigh
(:data:`MASS_ONLY`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from facility.imports.netbox_snapshot import Obj, name_of, ref

# Device status → how the device counts (NetBox DeviceStatusChoices).
NOT_LOAD = frozenset({"offline", "decommissioning", "inventory", "planned"})
MASS_ONLY = frozenset({"offline", "decommissioning"})  # installed, powered off: they weigh
REDUNDANT_SUPPLIES = ("larger-side", "sum")

Number = Callable[[Obj, str], float | None]  # reads a port's draw field (validated)


@dataclass(slots=True)
class Leaf:
    """A port whose draw is counted: its own figures (None: missing), the side it hangs on."""

    port: Obj
    side: str | None
    maximum: float | None
    allocated: float | None
    supply: bool  # no outlets of its own: a power supply of its device


@dataclass(slots=True)
class RackLoad:
    """What the walk found for one rack."""

    nominal: float | None = 0.0
    peak: float | None = 0.0
    leaves: int = 0
    ports: list[Obj] = field(default_factory=list)  # every port walked, in order
    outlets: list[Obj] = field(default_factory=list)  # every outlet walked
    redundant: list[str] = field(default_factory=list)  # devices taken as one load on A and B
    summed_sides: list[str] = field(default_factory=list)  # on A and B, but summed (option)
    uncabled: list[Obj] = field(default_factory=list)  # counted, not cabled to anything
    elsewhere: list[Obj] = field(default_factory=list)  # leaves of devices in another rack
    without_figures: list[Obj] = field(default_factory=list)
    # Inlets on a three-phase feed without figures of their own: per feed leg (A, B, C) the
    # Σ maximum_draw of the ports on its outlets, as NetBox's utilisation shows them.
    legs: list[tuple[Obj, dict[str, float]]] = field(default_factory=list)


class PowerGraph:
    """The site's ports and outlets, indexed once (a campus has 100,000s of ports)."""

    def __init__(
        self,
        ports: list[Obj],
        outlets: list[Obj],
        feed_side: dict[int, str],
        number: Number,
        three_phase: frozenset[int] = frozenset(),
    ) -> None:
        self.number = number
        self.feed_side = feed_side
        self.three_phase = three_phase  # ids of three-phase feeds
        self.port_by_id = {p["id"]: p for p in ports}
        self.outlet_by_id = {o["id"]: o for o in outlets}
        self.ports_of: dict[int, list[Obj]] = defaultdict(list)  # device id → its ports
        for port in ports:
            owner = ref(port, "device")
            if owner is not None:
                self.ports_of[owner].append(port)
        self.outlets_of: dict[int, list[Obj]] = defaultdict(list)  # inlet port id → outlets
        for outlet in outlets:
            inlet = ref(outlet, "power_port")
            if inlet is not None and inlet in self.port_by_id:
                self.outlets_of[inlet].append(outlet)
        self.ports_on: dict[int, list[Obj]] = defaultdict(list)  # outlet id → ports cabled to it
        for port in ports:
            for outlet_id in self._outlets_cabled(port):
                self.ports_on[outlet_id].append(port)

    def _outlets_cabled(self, port: Obj) -> list[int]:
        if port.get("connected_endpoints_type") != "dcim.poweroutlet":
            return []
        return [
            e["id"]
            for e in port.get("connected_endpoints") or []
            if isinstance(e, dict) and isinstance(e.get("id"), int)
        ]

    def fed_by_an_inlet(self, port: Obj) -> bool:
        """True when ``port`` is cabled to an outlet whose inlet is a known port: it is
        counted through that inlet, not on its own."""
        return any(
            (o := self.outlet_by_id.get(i)) is not None and ref(o, "power_port") in self.port_by_id
            for i in self._outlets_cabled(port)
        )

    def side_of(self, port: Obj) -> str | None:
        """'A' or 'B' for a port cabled to a primary or redundant feed, else None."""
        if port.get("connected_endpoints_type") != "dcim.powerfeed":
            return None
        sides = {
            self.feed_side.get(e["id"])
            for e in port.get("connected_endpoints") or []
            if isinstance(e, dict) and isinstance(e.get("id"), int)
        }
        sides.discard(None)
        return sides.pop() if len(sides) == 1 else None

    def has_figures(self, port: Obj) -> bool:
        return port.get("maximum_draw") is not None or port.get("allocated_draw") is not None

    def walk(
        self,
        tops: Iterable[Obj],
        counts: Callable[[Obj], bool],
        rack_of: Callable[[Obj], int | None],
        rack: int,
        seen: set[int],
        mode: str,
    ) -> RackLoad:
        """The load of the ports ``tops`` (a rack's inlets) and of everything below them.

        ``counts(port)`` says whether the port's device is load (its status); ``seen`` holds
        the ports walked so far in the whole import, so no port is counted twice.
        """
        load = RackLoad()
        leaves: dict[int, list[Leaf]] = defaultdict(list)  # device id → its leaves
        stack = [(port, self.side_of(port)) for port in reversed(list(tops))]
        while stack:
            port, side = stack.pop()
            if port["id"] in seen:
                continue
            seen.add(port["id"])
            load.ports.append(port)
            if not counts(port):
                continue
            outlets = self.outlets_of.get(port["id"], [])
            below = [p for o in outlets for p in self.ports_on.get(o["id"], [])]
            load.outlets.extend(outlets)
            if outlets and not self.has_figures(port):
                # No figures of its own: it draws what its outlets feed (0 when none is cabled).
                stack.extend((p, side) for p in reversed(below))
                if self._on_three_phase(port):
                    load.legs.append((port, self._legs(outlets)))
                continue
            maximum = self.number(port, "maximum_draw")
            allocated = self.number(port, "allocated_draw")
            if maximum is None and allocated is None:
                load.without_figures.append(port)
            owner = ref(port, "device")
            leaves[owner if owner is not None else -port["id"]].append(
                Leaf(port, side, maximum, allocated, not outlets)
            )
            if not port.get("connected_endpoints") and not port.get("mark_connected"):
                load.uncabled.append(port)
            if rack_of(port) != rack:
                load.elsewhere.append(port)
            if below:  # an inlet with figures of its own: the ports below are in them (NetBox)
                self._covered(below, seen, load)
        for device, device_leaves in leaves.items():
            self._add(load, device, device_leaves, mode)
        return load

    def _on_three_phase(self, port: Obj) -> bool:
        return port.get("connected_endpoints_type") == "dcim.powerfeed" and any(
            isinstance(e, dict) and e.get("id") in self.three_phase
            for e in port.get("connected_endpoints") or []
        )

    def _legs(self, outlets: list[Obj]) -> dict[str, float]:
        legs: dict[str, float] = {}
        for outlet in outlets:
            leg = outlet.get("feed_leg")
            leg = leg.get("value") if isinstance(leg, dict) else leg
            if not isinstance(leg, str):
                continue
            for port in self.ports_on.get(outlet["id"], []):
                legs[leg] = legs.get(leg, 0.0) + (self.number(port, "maximum_draw") or 0.0)
        return legs

    def _covered(self, below: list[Obj], seen: set[int], load: RackLoad) -> None:
        """Mark everything below an inlet with its own figures as walked, not counted."""
        stack = list(below)
        while stack:
            port = stack.pop()
            if port["id"] in seen:
                continue
            seen.add(port["id"])
            load.ports.append(port)
            for outlet in self.outlets_of.get(port["id"], []):
                load.outlets.append(outlet)
                stack.extend(self.ports_on.get(outlet["id"], []))

    def _add(self, load: RackLoad, device: int, leaves: list[Leaf], mode: str) -> None:
        load.leaves += len(leaves)
        supplies = [leaf for leaf in leaves if leaf.supply]
        others = [leaf for leaf in leaves if not leaf.supply]
        sides = {leaf.side for leaf in supplies}
        both = {"A", "B"} <= sides
        if both:
            name = _device_name(supplies[0].port)
            (load.redundant if mode == "larger-side" else load.summed_sides).append(name)
        for figure in ("maximum", "allocated"):
            values = [getattr(leaf, figure) for leaf in leaves]
            if None in values:
                total = None
            elif both and mode == "larger-side":
                per_side: dict[str | None, float] = defaultdict(float)
                for leaf in supplies:
                    per_side[leaf.side] += getattr(leaf, figure)
                unknown = per_side.pop(None, 0.0)
                total = max(per_side.values()) + unknown
                total += sum(getattr(leaf, figure) for leaf in others)
            else:
                total = sum(v for v in values if v is not None)
            attr = "peak" if figure == "maximum" else "nominal"
            current = getattr(load, attr)
            setattr(load, attr, None if current is None or total is None else current + total)


def _device_name(port: Obj) -> str:
    device = port.get("device")
    return name_of(device) if isinstance(device, dict) else f"device #{ref(port, 'device')}"
