"""Derived quantities of room air: residual heat of liquid racks, air-only racks, air units.

The room must carry its air heat with its redundant air units out (N+1: the largest unit).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from facility.engine.derive_liquid import rack_heat_split
from facility.engine.quantities import Context, Value, known, quantity, scope
from facility.engine.reasons import no_rack_figure
from facility.messages import Message
from facility.model.site import Rack, Site
from facility.physics.air import AIR_DENSITY, AIR_SPECIFIC_HEAT, residual_air_heat
from facility.physics.electrical import surviving_capacity
from facility.physics.room_heating import air_ride_through_time as air_ride_through


@scope("room", "Room")
def _rooms(site: Site) -> Iterable[tuple[str, Any]]:
    return site.rooms.items()


def _rack_air_heat(ctx: Context, rack: Rack) -> Value:
    split = rack_heat_split(ctx, rack)
    if isinstance(split, Value):
        return split
    power, liquid = split
    return Value(residual_air_heat(power, liquid))  # all of it for an air-only rack


def _room_racks(ctx: Context, room_id: str) -> list[Rack]:
    return ctx.topology.racks_by_room.get(room_id, [])


def _roomless(ctx: Context) -> list[Rack]:
    return ctx.topology.racks_by_room.get(None, [])


@quantity(
    "room",
    "air_heat",
    "power",
    "Residual heat of liquid racks plus all heat of air-only racks",
    reads=("racks",),
)
def air_heat(ctx: Context, room: Any) -> Value:
    racks = _room_racks(ctx, room.id)
    roomless = _roomless(ctx)
    if roomless:
        # Their heat lands in some room; which one is unknown, so no room's total is known.
        return Value.unknown(
            Message(
                "rack '%(rack)s' is in no room (give it a floor zone or a loop with a room)",
                rack=roomless[0].id,
            )
        )
    if not racks:
        return Value(0.0, Message("no racks in the room"), ())
    total = 0.0
    for rack in racks:
        v = known(_rack_air_heat(ctx, rack))
        total += v
    return Value(total, "Σ P · (1 − f_liq) + Σ P_air-only", (("n_racks", len(racks), "count"),))


_SUM_UNITS = Message("Σ units")
_SUM_UNITS_BUT_LARGEST = Message("Σ units − largest k")


def _no_air_units(room: Any) -> Message:
    return Message("room '%(room)s' has no air units", room=room.id)


def _units(ctx: Context, room_id: str) -> list[float]:
    return [u.sensible_capacity for u in ctx.topology.air_units_of_room(ctx.site, room_id)]


@quantity(
    "room",
    "air_capacity",
    "power",
    "Sensible capacity of all the room's air units",
    reads=("air_units",),
)
def air_capacity(ctx: Context, room: Any) -> Value:
    units = _units(ctx, room.id)
    if not units:
        return Value.unknown(_no_air_units(room))
    return Value(sum(units), _SUM_UNITS, (("n_units", len(units), "count"),))


@quantity(
    "room",
    "air_capacity_after_unit_loss",
    "power",
    "Sensible capacity with the redundant units out",
    reads=("air_units",),
)
def air_capacity_after_unit_loss(ctx: Context, room: Any) -> Value:
    units = _units(ctx, room.id)
    if not units:
        return Value.unknown(_no_air_units(room))
    lost = max(room.redundant_air_units, 1)
    return Value(
        surviving_capacity(units, lost),
        _SUM_UNITS_BUT_LARGEST,
        (("n_units", len(units), "count"), ("k", lost, "count")),
    )


@quantity(
    "rack", "air_only_power", "power", "Power of an air-only rack (0 for liquid racks)", reads=()
)
def air_only_power(ctx: Context, rack: Rack) -> Value:
    if rack.type.is_liquid or rack.type.is_passive:
        return Value(0.0)
    basis = ctx.assumptions.thermal_power_basis
    power = rack.type.figures.nominal_power if basis == "nominal" else rack.type.figures.peak_power
    if power is None:
        return Value.unknown(no_rack_figure(rack, f"{basis}_power"))
    symbol = "P_nom" if basis == "nominal" else "P_peak"
    return Value(power, symbol, ((symbol, power, "power"),))


@quantity("rack", "is_air_cooled", "boolean", "True for a rack cooled by air only", reads=())
def is_air_cooled(ctx: Context, rack: Rack) -> Value:
    return Value(float(not rack.type.is_liquid))


@lru_cache(maxsize=4096)
def _in_room(room: str) -> Value:
    """0, in room ``room``: one Value shared by the room's racks."""
    return Value(0.0, Message("in room %(room)s", room=room), ())


@quantity(
    "rack",
    "air_heat_in_no_room",
    "power",
    "Air heat of a rack whose room cannot be told (0 when it is in a room)",
    reads=(),
)
def air_heat_in_no_room(ctx: Context, rack: Rack) -> Value:
    split = rack_heat_split(ctx, rack)
    if isinstance(split, Value):
        return split
    room = ctx.topology.room_of(rack)
    if room is not None:
        return _in_room(room)
    power, liquid = split
    return Value(
        residual_air_heat(power, liquid),
        "P · (1 − f_liq)",
        (("P", power, "power"), ("f_liq", liquid, "fraction")),
    )


# --- the room air during a loss of its cooling (AIR-005) -------------------------------------


@quantity(
    "room",
    "models_cooling_loss",
    "boolean",
    "True when the room states how its air takes a loss of its cooling (cooling_loss)",
    reads=(),
)
def models_cooling_loss(ctx: Context, room: Any) -> Value:
    return Value(float(room.cooling_loss is not None))


@quantity(
    "room",
    "air_ride_through_time",
    "time",
    "Time the room air takes from its design dry bulb to its inlet limit with its cooling lost "
    "(air and the solids it warms, two lumps)",
    reads=("self.air_heat",),
)
def air_ride_through_time(ctx: Context, room: Any) -> Value:
    loss = room.cooling_loss
    if loss is None:
        return Value.unknown(Message("room '%(room)s' has no %(field)s", room=room.id,
                                     field="cooling_loss"))  # fmt: skip
    condition = room.design_condition
    if condition is None or condition.dry_bulb is None:
        return Value.unknown(
            Message(
                "room '%(room)s' has no %(field)s", room=room.id, field="design_condition.dry_bulb"
            )
        )
    heat = known(ctx.get("room", "air_heat", room))
    c_air = AIR_DENSITY * AIR_SPECIFIC_HEAT * loss.air_volume
    c_solid = 0.0 if loss.solid_mass is None else loss.solid_mass * loss.solid_specific_heat
    tau = loss.time_constant or 0.0
    allowed = loss.inlet_limit - condition.dry_bulb
    inputs: list[tuple[str, float, str]] = [
        ("Q_air", heat, "power"),
        ("V_air", loss.air_volume, "volume"),
        ("ΔT_allow", allowed, "temperature_difference"),
    ]
    if c_solid:
        formula: str = Message(
            "t at which Q_air · t / (C_a + C_s) + C_s / (C_a + C_s) · (Q_air · τ / C_a) · (1 − "
            "e^(−t/τ)) = ΔT_allow, C_a = ρ · cp · V_air, C_s = m_s · cp_s"
        )
        inputs += [
            ("m_s", loss.solid_mass, "mass"),
            ("cp_s", loss.solid_specific_heat, "specific_heat"),
            ("τ", tau, "time"),
        ]
    else:
        formula = Message("ρ · cp · V_air · ΔT_allow / Q_air, the air alone")
    inputs += [("ρ", AIR_DENSITY, "density"), ("cp", AIR_SPECIFIC_HEAT, "specific_heat")]
    try:
        seconds = air_ride_through(heat, c_air, c_solid, tau, allowed)
    except ValueError:  # figures beyond any room: a product or the time overflows
        return Value.unknown(
            Message(
                "room '%(room)s': its %(field)s figures give no finite ride-through time",
                room=room.id,
                field="cooling_loss",
            )
        )
    return Value(seconds, formula, tuple(inputs))
