"""Derived quantities of space and cabling: the floor a zone's racks claim with their
clearances (FLR-014), where a rack stands in its row (FLR-015), the fill of each cable tray
(FLR-016) and the longest cable route inside a supernode (FLR-017).

The clearances, the row layout and the trays are fixed data of the floor zone (its
``clearances`` and ``layout``); only the zone's racks change with added racks (``facility
headroom``), which is what ``space_required`` declares it reads. A missing figure makes the
quantity unknown, naming it — never a pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from facility.engine.quantities import Context, Unknown, Value, quantity, scope
from facility.engine.reasons import no_rack_figure
from facility.messages import Message
from facility.model.cluster import ResolvedSupernode
from facility.model.floor import CableTray, FloorZone, RowLayout
from facility.model.site import Rack, Site
from facility.physics import space


@dataclass(frozen=True, slots=True)
class TrayEntity:
    """A cable tray of a floor zone's layout; its id is ``<zone>/<tray>``."""

    id: str
    zone: FloorZone
    tray: CableTray


@scope("cable_tray", "Cable tray")
def _trays(site: Site) -> Iterable[tuple[str, Any]]:
    out = []
    for zone in site.zones.values():
        if zone.layout is not None:
            for tray in zone.layout.cable_trays:
                entity = TrayEntity(f"{zone.id}/{tray.id}", zone, tray)
                out.append((entity.id, entity))
    return out


# --- the zone's racks with their clearances (FLR-014) ------------------------------------


def _clearances(zone: FloorZone, rack: Rack) -> tuple[float, float]:
    """(front, rear) clear aisle of ``rack`` in ``zone`` [m]: the zone's, the rack maker's
    when larger, and the electrical working space on the side its live parts are serviced."""
    f = rack.type.figures
    c = zone.clearances
    front = max(c.front, f.front_clearance or 0.0)
    rear = max(c.rear, f.rear_clearance or 0.0)
    side = f.electrical_service_side
    if side in ("front", "both"):
        front = max(front, c.electrical_working_space)
    if side in ("rear", "both"):
        rear = max(rear, c.electrical_working_space)
    return front, rear


@quantity(
    "floor_zone",
    "space_required",
    "area",
    "Floor the zone's racks claim with their clearances, each aisle shared with the row across",
    reads=("racks",),
)
def space_required(ctx: Context, zone: FloorZone) -> Value:
    racks = ctx.topology.racks_by_zone.get(zone.id, [])
    total = 0.0
    shapes: set[tuple[float, float, float, float]] = set()
    for rack in racks:
        fp = rack.type.figures.footprint
        if fp is None:
            return Value.unknown(no_rack_figure(rack, "footprint"))
        front, rear = _clearances(zone, rack)
        shapes.add((fp.width, fp.depth, front, rear))
        total += space.rack_space(fp.width, fp.depth, front, rear)
    n = float(len(racks))
    if len(shapes) == 1:
        w, d, front, rear = shapes.pop()
        return Value(
            total,
            "n · W · (D + ½ · c_front + ½ · c_rear)",
            (
                ("n", n, "count"),
                ("W", w, "length"),
                ("D", d, "length"),
                ("c_front", front, "length"),
                ("c_rear", rear, "length"),
            ),
        )
    return Value(total, "Σ W · (D + ½ · c_front + ½ · c_rear) over n racks", (("n", n, "count"),))


@quantity("floor_zone", "zone_area", "area", "Floor area of the zone", reads=())
def zone_area(ctx: Context, zone: FloorZone) -> Value:
    if zone.area is None:
        return Value.unknown(
            Message("floor zone '%(zone)s' has no %(field)s", zone=zone.id, field="area")
        )
    return Value(zone.area)


# --- where a rack stands in its row (FLR-015, FLR-017) -----------------------------------


def _row_layout(ctx: Context, rack: Rack) -> tuple[FloorZone, RowLayout] | None:
    zone = ctx.site.zones.get(rack.zone) if rack.zone else None
    if zone is None or zone.layout is None or rack.row is None:
        return None
    for row in zone.layout.rows:
        if row.row == rack.row:
            return zone, row
    return None


def _laid_out(ctx: Context, rack: Rack) -> tuple[FloorZone, RowLayout]:
    found = _row_layout(ctx, rack)
    if found is None:
        raise Unknown(
            Value.unknown(
                Message(
                    "rack '%(rack)s' stands in no row of its floor zone's %(field)s",
                    rack=rack.id,
                    field="layout",
                )
            )
        )
    return found


def _position(rack: Rack) -> int:
    if rack.position is None or rack.position < 1:
        raise Unknown(
            Value.unknown(
                Message(
                    "rack '%(rack)s' has no %(field)s in its row", rack=rack.id, field="position"
                )
            )
        )
    return rack.position


def _pitch(rack: Rack, row: RowLayout) -> float:
    if row.pitch is not None:
        return row.pitch
    fp = rack.type.figures.footprint
    if fp is None:
        raise Unknown(Value.unknown(no_rack_figure(rack, "footprint")))
    return fp.width


@quantity(
    "rack",
    "in_laid_out_row",
    "boolean",
    "True when the rack's row is in its floor zone's layout",
    reads=(),
)
def in_laid_out_row(ctx: Context, rack: Rack) -> Value:
    return Value(float(_row_layout(ctx, rack) is not None))


@quantity(
    "rack",
    "row_extent",
    "length",
    "Distance from the start of the rack's row to its far side",
    reads=(),
)
def row_extent(ctx: Context, rack: Rack) -> Value:
    _, row = _laid_out(ctx, rack)
    n = _position(rack)
    p = _pitch(rack, row)
    return Value(space.row_extent(n, p), "n · p", (("n", float(n), "count"), ("p", p, "length")))


@quantity("rack", "row_length", "length", "Length the rack's row may take", reads=())
def row_length(ctx: Context, rack: Rack) -> Value:
    zone, row = _laid_out(ctx, rack)
    if row.length is None:
        return Value.unknown(
            Message(
                "row '%(row)s' in the layout of floor zone '%(zone)s' has no %(field)s",
                row=row.row,
                zone=zone.id,
                field="length",
            )
        )
    return Value(row.length)


def _centre(ctx: Context, rack: Rack) -> tuple[str | None, float, float]:
    """(room, x, y) of the rack's centre in its room's coordinates [m]."""
    zone, row = _laid_out(ctx, rack)
    along = space.rack_centre(row.x, _position(rack), _pitch(rack, row))
    x, y = (along, row.y) if row.direction == "x" else (row.y, along)
    return zone.room, x, y


def _drop(ctx: Context, rack: Rack) -> float:
    zone, _ = _laid_out(ctx, rack)
    assert zone.layout is not None
    if zone.layout.cable_drop is None:
        raise Unknown(
            Value.unknown(
                Message(
                    "the layout of floor zone '%(zone)s' has no %(field)s",
                    zone=zone.id,
                    field="cable_drop",
                )
            )
        )
    return zone.layout.cable_drop


# --- cable trays (FLR-016) ---------------------------------------------------------------


@quantity(
    "cable_tray",
    "tray_fill",
    "fraction",
    "Cross-section of the tray's cables over its interior cross-section",
    reads=(),
)
def tray_fill(ctx: Context, entity: TrayEntity) -> Value:
    tray = entity.tray
    area = sum(space.cable_area(b.count, b.diameter) for b in tray.cables)
    h = min(tray.depth, space.NEC_TRAY_DEPTH_CAP)
    return Value(
        space.tray_fill(area, tray.width, tray.depth),
        "Σ n · π · d² / 4 / (w · h)",
        (("Σ n · π · d² / 4", area, "area"), ("w", tray.width, "length"), ("h", h, "length")),
    )


# --- a supernode's cables (FLR-017) ------------------------------------------------------


@quantity(
    "supernode", "racks_in_supernode", "count", "Racks (cabinets) the supernode spans", reads=()
)
def racks_in_supernode(ctx: Context, node: ResolvedSupernode) -> Value:
    return Value(float(len(node.racks)))


@quantity(
    "supernode",
    "longest_cable_route",
    "length",
    "Longest cable route between two racks of the supernode along the rows' trays",
    reads=(),
)
def longest_cable_route(ctx: Context, node: ResolvedSupernode) -> Value:
    placed = [(rack, _centre(ctx, rack), _drop(ctx, rack)) for rack in node.racks]
    rooms = {room for _, (room, _, _), _ in placed}
    if len(rooms) > 1:
        return Value.unknown(
            Message(
                "the racks of supernode '%(node)s' stand in different rooms: the cable route "
                "between rooms is not modelled",
                node=node.id,
            )
        )
    best: tuple[float, float, float, float] | None = None
    for (_, (_, x1, y1), h1), (_, (_, x2, y2), h2) in combinations(placed, 2):
        h = max(h1, h2)
        length = space.cable_route(x1 - x2, y1 - y2, h)
        if best is None or length > best[0]:
            best = (length, abs(x1 - x2), abs(y1 - y2), h)
    if best is None:
        return Value(0.0, "one rack: no cable between racks", ())
    length, dx, dy, h = best
    return Value(
        length,
        "|Δx| + |Δy| + 2 · h",
        (("|Δx|", dx, "length"), ("|Δy|", dy, "length"), ("h", h, "length")),
    )


@quantity(
    "supernode",
    "scale_up_reach",
    "length",
    "Longest channel the cluster's scale-up links support",
    reads=(),
)
def scale_up_reach(ctx: Context, node: ResolvedSupernode) -> Value:
    cluster = ctx.site.cluster
    network = cluster.spec.network if cluster is not None else None
    reach = network.scale_up.reach if network is not None and network.scale_up else None
    if reach is None:
        return Value.unknown(
            Message(
                "the cluster's network states no %(field)s for its scale-up links",
                field="scale_up.reach",
            )
        )
    return Value(reach)
