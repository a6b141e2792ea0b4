"""Derived quantities of a rack's move-in route: will it get from the dock to its place?

Each rack is judged against the move-in route of its hall (its room's ``move_in_route``):
the rules stay at rack scope, as the floor's per-rack checks do, so the route needs no scope
or relation of its own and an added rack (``facility headroom``) is judged on the way in like
any other. The route is fixed data of the room: no failure or added rack changes it, so these
quantities read nothing beyond their rack (``reads=()``).

For each check the rack is taken *as moved* on each segment: in its crate before the route's
``uncrated_from`` (the rack type's ``crated_*`` figures), on its own casters from it on (its
``height``, ``footprint`` and installed mass). The observed value and the limit are those of
the *binding* segment, the one with the least margin (limit − observed), named in the working.
A segment or rack figure that is missing makes the check not evaluated, naming it — unless a
segment whose figures are known already fails, which no missing figure can undo.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from facility.engine.quantities import Context, Unknown, Value, guarded, known, quantity
from facility.engine.reasons import no_rack_figure
from facility.messages import Message
from facility.model.floor import Room
from facility.model.route import MoveInRoute, RouteSegment
from facility.model.site import Rack
from facility.physics.structural import STANDARD_GRAVITY, rolling_caster_load


def _room(ctx: Context, rack: Rack) -> Room | None:
    return ctx.site.rooms.get(rack.room) if rack.room else None


def _route(ctx: Context, rack: Rack) -> tuple[Room, MoveInRoute]:
    room = _room(ctx, rack)
    if room is None or room.move_in_route is None:
        raise Unknown(
            Value.unknown(
                Message("rack '%(rack)s' is in no room with a move_in_route", rack=rack.id)
            )
        )
    return room, room.move_in_route


def _passed_crated(route: MoveInRoute) -> list[tuple[RouteSegment, bool]]:
    """Each segment in order, with True while the rack is still in its crate."""
    crated = True
    out = []
    for segment in route.segments:
        if segment.id == route.uncrated_from:
            crated = False
        out.append((segment, crated))
    return out


# --- the rack as moved, and what each check compares ------------------------------------


@dataclass(frozen=True, slots=True)
class _Check:
    """One comparison along the route: a figure of the rack as moved against a segment's."""

    applies: Callable[[RouteSegment], bool]  # the segments it judges
    limit: Callable[[RouteSegment], float | None]  # the segment's figure
    limit_field: str
    limit_symbol: str
    limit_kind: str
    crated_field: str  # the rack type's figure before uncrated_from
    crated_symbol: str
    crated_kind: str
    own: Callable[[Context, Rack], Value]  # the rack's own figure from uncrated_from on
    # observed from the figure as moved (and the route): a wheel load from a mass, say
    observed: Callable[[Value, MoveInRoute], Value] = lambda moved, route: moved


def _own_height(ctx: Context, rack: Rack) -> Value:
    height = rack.type.figures.height
    if height is None:
        return Value.unknown(no_rack_figure(rack, "height"))
    return Value(height, "H", (("H", height, "length"),))


def _own_width(ctx: Context, rack: Rack) -> Value:
    fp = rack.type.figures.footprint
    if fp is None:
        return Value.unknown(no_rack_figure(rack, "footprint"))
    return Value(fp.width, "W", (("W", fp.width, "length"),))


def _own_depth(ctx: Context, rack: Rack) -> Value:
    fp = rack.type.figures.footprint
    if fp is None:
        return Value.unknown(no_rack_figure(rack, "footprint"))
    return Value(fp.depth, "D", (("D", fp.depth, "length"),))


def _own_mass(ctx: Context, rack: Rack) -> Value:
    mass = known(ctx.get("rack", "installed_mass", rack))
    return Value(mass, "m", (("m", mass, "mass"),))


@guarded  # an unknown installed mass is this segment's missing input, not the check's end
def _as_moved(ctx: Context, rack: Rack, check: _Check, crated: bool) -> Value:
    """The rack's figure as it passes a segment: crated, or on its own casters."""
    if not crated:
        return check.own(ctx, rack)
    value = getattr(rack.type.figures, check.crated_field)
    if value is None:
        return Value.unknown(no_rack_figure(rack, check.crated_field))
    return Value(value, check.crated_symbol, ((check.crated_symbol, value, check.crated_kind),))


def _every(segment: RouteSegment) -> bool:
    return True


def _lift(segment: RouteSegment) -> bool:
    return segment.kind == "lift"


def _rolled_over(segment: RouteSegment) -> bool:
    return segment.kind == "raised_floor" or segment.rolling_load_rating is not None


def _lift_load(moved: Value, route: MoveInRoute) -> Value:
    if route.handling_mass is None:
        return moved
    assert moved.value is not None
    return Value(
        moved.value + route.handling_mass,
        f"{moved.formula} + m_handling",
        (*moved.inputs, ("m_handling", route.handling_mass, "mass")),
    )


def _wheel_load(moved: Value, route: MoveInRoute) -> Value:
    assert moved.value is not None
    return Value(
        rolling_caster_load(moved.value),
        f"½ · {moved.formula} · g",
        (*moved.inputs, ("g", STANDARD_GRAVITY, "acceleration")),
    )


# Each check names the fields it reads in its own function (scripts/site_reference.py reads
# them there to list the rules that read each field).


def _height() -> _Check:
    return _Check(
        _every, lambda s: s.clear_height, "clear_height", "H_clear", "length",
        "crated_height", "H_crated", "length", _own_height,
    )  # fmt: skip


def _width() -> _Check:
    return _Check(
        _every, lambda s: s.clear_width, "clear_width", "W_clear", "length",
        "crated_width", "W_crated", "length", _own_width,
    )  # fmt: skip


def _lift_mass() -> _Check:
    return _Check(
        _lift, lambda s: s.rated_load, "rated_load", "m_rated", "mass",
        "crated_mass", "m_crated", "mass", _own_mass, _lift_load,
    )  # fmt: skip


def _cab_depth() -> _Check:
    return _Check(
        _lift, lambda s: s.cab_depth, "cab_depth", "D_cab", "length",
        "crated_depth", "D_crated", "length", _own_depth,
    )  # fmt: skip


def _rolling() -> _Check:
    return _Check(
        _rolled_over, lambda s: s.rolling_load_rating, "rolling_load_rating", "F_rolling",
        "force", "crated_mass", "m_crated", "mass", _own_mass, _wheel_load,
    )  # fmt: skip


# --- the binding segment ----------------------------------------------------------------


def _binding(ctx: Context, rack: Rack, check: _Check) -> tuple[RouteSegment, Value, Value]:
    """The segment with the least margin for ``check``: (segment, observed, limit)."""
    room, route = _route(ctx, rack)
    best: tuple[float, RouteSegment, Value, float] | None = None
    missing: str | None = None
    for segment, crated in _passed_crated(route):
        if not check.applies(segment):
            continue
        limit = check.limit(segment)
        if limit is None:
            missing = missing or Message(
                "segment '%(segment)s' of the move_in_route of room '%(room)s' has no %(field)s",
                segment=segment.id,
                room=room.id,
                field=check.limit_field,
            )
            continue
        moved = _as_moved(ctx, rack, check, crated)
        if moved.value is None:
            missing = missing or moved.missing
            continue
        observed = check.observed(moved, route)
        assert observed.value is not None
        margin = limit - observed.value
        if best is None or margin < best[0]:
            best = (margin, segment, observed, limit)
    if best is not None and (missing is None or best[0] < 0):
        _, segment, observed, limit = best
        symbol = f"{check.limit_symbol},{segment.id}"
        return (
            segment,
            observed,
            Value(
                limit,
                Message(
                    "%(symbol)s of the binding segment, %(segment)s (%(kind)s)",
                    symbol=check.limit_symbol,
                    segment=segment.id,
                    kind=segment.kind,
                ),
                ((symbol, limit, check.limit_kind),),
            ),
        )
    if missing is not None:
        raise Unknown(Value.unknown(missing))
    raise Unknown(  # the rules' ``when`` keeps a route without such a segment out
        Value.unknown(
            Message(
                "the move_in_route of room '%(room)s' has no segment with %(field)s",
                room=room.id,
                field=check.limit_field,
            )
        )
    )


def _observed(ctx: Context, rack: Rack, check: _Check) -> Value:
    segment, observed, _ = _binding(ctx, rack, check)
    return Value(
        observed.value,
        Message("%(formula)s, at %(segment)s", formula=observed.formula, segment=segment.id),
        observed.inputs,
    )


def _limit(ctx: Context, rack: Rack, check: _Check) -> Value:
    return _binding(ctx, rack, check)[2]


# --- when the checks apply --------------------------------------------------------------


def _has(ctx: Context, rack: Rack, test: Callable[[RouteSegment], bool]) -> Value:
    room = _room(ctx, rack)
    route = None if room is None else room.move_in_route
    return Value(float(route is not None and any(test(s) for s in route.segments)))


@quantity(
    "rack",
    "room_has_move_in_route",
    "boolean",
    "True when the rack's room declares its move-in route",
    reads=(),
)
def room_has_move_in_route(ctx: Context, rack: Rack) -> Value:
    return _has(ctx, rack, _every)


@quantity(
    "rack",
    "move_in_route_has_lift",
    "boolean",
    "True when the move-in route of the rack's room has a lift",
    reads=(),
)
def move_in_route_has_lift(ctx: Context, rack: Rack) -> Value:
    return _has(ctx, rack, _lift)


@quantity(
    "rack",
    "move_in_route_has_ramp",
    "boolean",
    "True when the move-in route of the rack's room has a ramp",
    reads=(),
)
def move_in_route_has_ramp(ctx: Context, rack: Rack) -> Value:
    return _has(ctx, rack, lambda s: s.kind == "ramp")


@quantity(
    "rack",
    "move_in_route_rolled_over",
    "boolean",
    "True when the move-in route of the rack's room has a raised floor or a segment with a "
    "rolling load rating",
    reads=(),
)
def move_in_route_rolled_over(ctx: Context, rack: Rack) -> Value:
    return _has(ctx, rack, _rolled_over)


# --- openings ---------------------------------------------------------------------------


@quantity(
    "rack",
    "move_in_height",
    "length",
    "Height of the rack as moved (crated, or on its casters) at the binding opening",
    reads=(),
)
def move_in_height(ctx: Context, rack: Rack) -> Value:
    return _observed(ctx, rack, _height())


@quantity(
    "rack",
    "move_in_clear_height",
    "length",
    "Clear height of the binding opening of the move-in route",
    reads=(),
)
def move_in_clear_height(ctx: Context, rack: Rack) -> Value:
    return _limit(ctx, rack, _height())


@quantity(
    "rack",
    "move_in_width",
    "length",
    "Width of the rack as moved (crated, or on its casters) at the binding opening",
    reads=(),
)
def move_in_width(ctx: Context, rack: Rack) -> Value:
    return _observed(ctx, rack, _width())


@quantity(
    "rack",
    "move_in_clear_width",
    "length",
    "Clear width of the binding opening of the move-in route",
    reads=(),
)
def move_in_clear_width(ctx: Context, rack: Rack) -> Value:
    return _limit(ctx, rack, _width())


# --- lifts ------------------------------------------------------------------------------


@quantity(
    "rack",
    "move_in_lift_load",
    "mass",
    "Mass a lift carries with the rack as moved (with the handling mass) at the binding lift",
    reads=(),
)
def move_in_lift_load(ctx: Context, rack: Rack) -> Value:
    return _observed(ctx, rack, _lift_mass())


@quantity(
    "rack",
    "move_in_lift_rated_load",
    "mass",
    "Rated load of the binding lift of the move-in route",
    reads=(),
)
def move_in_lift_rated_load(ctx: Context, rack: Rack) -> Value:
    return _limit(ctx, rack, _lift_mass())


@quantity(
    "rack",
    "move_in_depth",
    "length",
    "Depth of the rack as moved (crated, or on its casters) at the binding lift",
    reads=(),
)
def move_in_depth(ctx: Context, rack: Rack) -> Value:
    return _observed(ctx, rack, _cab_depth())


@quantity(
    "rack",
    "move_in_lift_cab_depth",
    "length",
    "Cab depth of the binding lift of the move-in route",
    reads=(),
)
def move_in_lift_cab_depth(ctx: Context, rack: Rack) -> Value:
    return _limit(ctx, rack, _cab_depth())


# --- rolling load -----------------------------------------------------------------------


@quantity(
    "rack",
    "move_in_wheel_load",
    "force",
    "Load on one wheel as the rack is moved (½ of its weight as moved, IBM) at the binding segment",
    reads=(),
)
def move_in_wheel_load(ctx: Context, rack: Rack) -> Value:
    return _observed(ctx, rack, _rolling())


@quantity(
    "rack",
    "move_in_rolling_load_rating",
    "force",
    "Rolling load rating of the binding segment of the move-in route",
    reads=(),
)
def move_in_rolling_load_rating(ctx: Context, rack: Rack) -> Value:
    return _limit(ctx, rack, _rolling())


# --- ramps ------------------------------------------------------------------------------


@quantity(
    "rack",
    "move_in_ramp_slope",
    "fraction",
    "Steepest ramp of the move-in route of the rack's room",
    reads=(),
)
def move_in_ramp_slope(ctx: Context, rack: Rack) -> Value:
    room, route = _route(ctx, rack)
    found: tuple[float, RouteSegment] | None = None
    for segment in route.segments:
        if segment.kind != "ramp":
            continue
        if segment.slope is None:
            return Value.unknown(
                Message(
                    "segment '%(segment)s' of the move_in_route of room '%(room)s' has no %(field)s",
                    segment=segment.id,
                    room=room.id,
                    field="slope",
                )
            )
        if found is None or segment.slope > found[0]:
            found = (segment.slope, segment)
    if found is None:
        return Value.unknown(
            Message(
                "the move_in_route of room '%(room)s' has no segment with %(field)s",
                room=room.id,
                field="slope",
            )
        )
    symbol = f"s,{found[1].id}"
    return Value(
        found[0],
        Message("max s over the route's ramps"),
        ((symbol, found[0], "fraction"),),
    )
