"""Derived quantities of condensation: room dew points and the coldest liquid in the room.

A room's dew point comes from its design condition (:mod:`facility.physics.psychrometrics`:
dry bulb and relative humidity, or a stated dew point). Liquid below it, in a pipe, a
manifold or a cold plate, collects condensate. Rules LIQ-022 (each TCS loop's coldest supply),
LIQ-023 (facility water whose pipes run through a room) and AIR-006 (the room's dew point
against ASHRAE's recommended envelope) compare them.

Conventions stated in the workings:
- a loop's coldest supply is its setpoint when it declares one (what the CDU controls drive
  towards, also on a day the facility water is cold enough to reach it); without one, the
  coldest CDU outlet: facility supply + the smallest approach of the CDUs in service;
- a loop is in its own room, else in the site's only room, else in the rooms of its racks;
  of several rooms, the most humid (highest dew point) decides.
"""

from __future__ import annotations

from typing import Any

from facility.engine.derive_liquid import cdus_of_loop
from facility.engine.quantities import Context, Value, known, quantity
from facility.messages import Message
from facility.physics.psychrometrics import dew_point as dew_point_of
from facility.physics.thermal import tcs_supply_temperature

# Formulas in words (the symbols are not translated; the words around them are).
_DEW_POINT_FORMULA = Message("t_d(t_db, φ), ASHRAE Fundamentals ch. 1 (PsychroLib)")
_STATED_DEW_POINT = Message("t_d as stated")
_SETPOINT = Message("setpoint")
_COLDEST_CDU = Message("min over the CDUs of T_FWS + ATD")
_MOST_HUMID_ROOM = Message("max t_d over the rooms")


def _no_condition(room: Any) -> Message:
    return Message(
        "room '%(room)s' states no %(field)s (dew_point, or dry_bulb and relative_humidity)",
        room=room.id,
        field="design_condition",
    )


def room_dew_point(room: Any) -> Value:
    """The dew point [°C] of a room's design condition, with its working."""
    condition = room.design_condition
    if condition is None:
        return Value.unknown(_no_condition(room))
    if condition.dew_point is not None:
        return Value(
            condition.dew_point, _STATED_DEW_POINT, (("t_d", condition.dew_point, "temperature"),)
        )
    # The loader has refused a relative humidity without a dry bulb or out of range.
    assert condition.dry_bulb is not None and condition.relative_humidity is not None
    return Value(
        dew_point_of(condition.dry_bulb, condition.relative_humidity),
        _DEW_POINT_FORMULA,
        (
            ("t_db", condition.dry_bulb, "temperature"),
            ("φ", condition.relative_humidity, "fraction"),
        ),
    )


@quantity("room", "dew_point", "temperature", "Dew point of the room's design air", reads=())
def dew_point(ctx: Context, room: Any) -> Value:
    return room_dew_point(room)


def _most_humid(ctx: Context, room_ids: list[str]) -> Value:
    """The highest dew point of the rooms (the first room without a condition: unknown)."""
    values = [(room_id, known(room_dew_point(ctx.site.rooms[room_id]))) for room_id in room_ids]
    room_id, worst = max(values, key=lambda item: item[1])
    if len(values) == 1:
        return room_dew_point(ctx.site.rooms[room_id])
    inputs = tuple((f"t_d,{r}", t, "temperature") for r, t in values)
    return Value(worst, _MOST_HUMID_ROOM, inputs)


def _loop_rooms(ctx: Context, loop: Any) -> list[str]:
    if loop.room is not None:
        return [loop.room]
    if ctx.topology.sole_room is not None:
        return [ctx.topology.sole_room]
    rooms = {ctx.topology.room_of(r) for r in ctx.topology.racks_by_loop.get(loop.id, [])}
    return sorted(r for r in rooms if r is not None)


@quantity(
    "tcs_loop",
    "room_dew_point",
    "temperature",
    "Dew point of the room the loop runs in (the most humid of several)",
    reads=("racks",),
)
def loop_room_dew_point(ctx: Context, loop: Any) -> Value:
    rooms = _loop_rooms(ctx, loop)
    if not rooms:
        return Value.unknown(
            Message(
                "loop '%(loop)s' is in no room (give it a %(field)s)", loop=loop.id, field="room"
            )
        )
    return _most_humid(ctx, rooms)


@quantity(
    "tcs_loop",
    "lowest_supply_temperature",
    "temperature",
    "Coldest TCS supply: the setpoint, else facility supply + the smallest CDU approach",
    reads=("cdus", "cdus:figures"),
)
def lowest_supply_temperature(ctx: Context, loop: Any) -> Value:
    if loop.supply_setpoint is not None:
        return Value(
            loop.supply_setpoint, _SETPOINT, (("T_set", loop.supply_setpoint, "temperature"),)
        )
    coldest: tuple[float, float, float] | None = None
    for cdu in cdus_of_loop(ctx, loop):
        if cdu.spec.facility_water is None:
            return Value.unknown(
                Message("CDU '%(cdu)s' has no %(field)s", cdu=cdu.id, field="facility_water")
            )
        water = ctx.site.facility_water[cdu.spec.facility_water]
        if water.supply_temperature is None:
            return Value.unknown(
                Message(
                    "facility water '%(water)s' has no %(field)s",
                    water=water.id,
                    field="supply_temperature",
                )
            )
        if cdu.approach is None:
            return Value.unknown(
                Message(
                    "CDU '%(cdu)s' has no %(field)s or %(other)s",
                    cdu=cdu.id,
                    field="approach",
                    other="rated_approach",
                )
            )
        t = tcs_supply_temperature(water.supply_temperature, cdu.approach)
        if coldest is None or t < coldest[0]:
            coldest = (t, water.supply_temperature, cdu.approach)
    if coldest is None:
        return Value.unknown(Message("no CDU in service on loop '%(loop)s'", loop=loop.id))
    return Value(
        coldest[0],
        _COLDEST_CDU,
        (("T_FWS", coldest[1], "temperature"), ("ATD", coldest[2], "temperature_difference")),
    )


@quantity(
    "facility_water",
    "runs_in_white_space",
    "boolean",
    "True when the facility water names rooms its pipes run through",
    reads=(),
)
def runs_in_white_space(ctx: Context, water: Any) -> Value:
    return Value(float(bool(water.rooms)))


@quantity(
    "facility_water",
    "white_space_dew_point",
    "temperature",
    "Highest dew point of the rooms the facility water runs through",
    reads=(),
)
def white_space_dew_point(ctx: Context, water: Any) -> Value:
    if not water.rooms:
        return Value.unknown(
            Message("facility water '%(water)s' names no %(field)s", water=water.id, field="rooms")
        )
    return _most_humid(ctx, list(dict.fromkeys(water.rooms)))
