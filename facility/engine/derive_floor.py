"""Derived quantities of floor loading: per rack (footprint, casters) and per zone."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from facility.engine.derive_liquid import mass_fraction
from facility.engine.quantities import Context, Value, known, quantity, scope
from facility.engine.reasons import no_rack_figure
from facility.messages import Message
from facility.model.site import Rack, Site
from facility.physics import coolant as fluid
from facility.physics.structural import (
    STANDARD_GRAVITY,
    caster_load,
    filled_mass,
    footprint_pressure,
    rolling_caster_load,
    zone_aggregate_pressure,
)

# Coolant in a rack is taken at 20 °C for its mass (density varies < 1 % over 20–45 °C).
COOLANT_MASS_TEMPERATURE = 20.0


@scope("floor_zone", "Floor zone")
def _zones(site: Site) -> Iterable[tuple[str, Any]]:
    return site.zones.items()


@quantity("rack", "installed_mass", "mass", "Installed mass with coolant", reads=())
def installed_mass(ctx: Context, rack: Rack) -> Value:
    f = rack.type.figures
    if f.filled_mass is not None:
        return Value(f.filled_mass, "m_filled", (("m_filled", f.filled_mass, "mass"),))
    if f.empty_mass is None:
        return Value.unknown(
            Message(
                "rack type '%(type)s' has no %(field)s or %(other)s",
                type=rack.type.id,
                field="filled_mass",
                other="empty_mass",
            )
        )
    if f.coolant_volume is None and rack.type.is_liquid:
        # A liquid-cooled rack holds coolant: its empty mass alone would understate the load.
        return Value.unknown(
            Message(
                "rack type '%(type)s' gives %(field)s but no %(other)s (or %(third)s)",
                type=rack.type.id,
                field="empty_mass",
                other="coolant_volume",
                third="filled_mass",
            )
        )
    if not f.coolant_volume:
        return Value(f.empty_mass, "m_empty", (("m_empty", f.empty_mass, "mass"),))
    coolant = ctx.site.loops[rack.loop].coolant if rack.loop else None
    if coolant is None:
        return Value.unknown(
            Message("rack '%(rack)s' holds coolant but is on no loop", rack=rack.id)
        )
    rho = fluid.density(coolant.fluid, mass_fraction(coolant), COOLANT_MASS_TEMPERATURE)
    return Value(
        filled_mass(f.empty_mass, f.coolant_volume, rho),
        "m_empty + V_coolant · ρ",
        (
            ("m_empty", f.empty_mass, "mass"),
            ("V_coolant", f.coolant_volume, "volume"),
            ("ρ", rho, "density"),
        ),
    )


def _no_zone(rack: Rack) -> Message:
    return Message("rack '%(rack)s' is in no floor zone", rack=rack.id)


def _no_zone_figure(zone: Any, field: str) -> Message:
    return Message("floor zone '%(zone)s' has no %(field)s", zone=zone.id, field=field)


def _zone(ctx: Context, rack: Rack) -> Any:
    return ctx.site.zones.get(rack.zone) if rack.zone else None


def _zone_figure(ctx: Context, rack: Rack, field: str) -> Value:
    """A figure of the rack's floor zone, or why it is unknown."""
    zone = _zone(ctx, rack)
    if zone is None:
        return Value.unknown(_no_zone(rack))
    value = getattr(zone, field)
    return Value.unknown(_no_zone_figure(zone, field)) if value is None else Value(value)


@quantity(
    "rack", "footprint_pressure", "floor_load", "Installed weight over the rack footprint", reads=()
)
def rack_footprint_pressure(ctx: Context, rack: Rack) -> Value:
    mass = ctx.get("rack", "installed_mass", rack)
    mass_value = known(mass)
    fp = rack.type.figures.footprint
    if fp is None:
        return Value.unknown(no_rack_figure(rack, "footprint"))
    return Value(
        footprint_pressure(mass_value, fp.width, fp.depth),
        "m · g / (W · D)",
        (
            ("m", mass_value, "mass"),
            ("g", STANDARD_GRAVITY, "acceleration"),
            ("W", fp.width, "length"),
            ("D", fp.depth, "length"),
        ),
    )


@quantity("rack", "caster_load", "force", "Installed weight per caster", reads=())
def rack_caster_load(ctx: Context, rack: Rack) -> Value:
    mass = ctx.get("rack", "installed_mass", rack)
    mass_value = known(mass)
    n = rack.type.figures.casters
    if n is None:
        return Value.unknown(no_rack_figure(rack, "casters"))
    return Value(
        caster_load(mass_value, n),
        "m · g / n",
        (("m", mass_value, "mass"), ("g", STANDARD_GRAVITY, "acceleration"), ("n", n, "count")),
    )


@quantity("rack", "max_payload", "mass", "Rated payload of the rack frame", reads=())
def rack_max_payload(ctx: Context, rack: Rack) -> Value:
    limit = rack.type.figures.max_payload
    return Value.unknown(no_rack_figure(rack, "max_payload")) if limit is None else Value(limit)


@quantity(
    "rack",
    "zone_uniform_load_rating",
    "floor_load",
    "Uniform load rating of the rack's floor zone",
    reads=(),
)
def zone_uniform_rating(ctx: Context, rack: Rack) -> Value:
    return _zone_figure(ctx, rack, "uniform_load_rating")


@quantity(
    "rack", "on_raised_floor", "boolean", "True when the rack stands on a raised floor", reads=()
)
def on_raised_floor(ctx: Context, rack: Rack) -> Value:
    zone = _zone(ctx, rack)
    if zone is None:
        return Value.unknown(_no_zone(rack))
    return Value(float(zone.construction == "raised_floor"))


@quantity(
    "rack",
    "zone_concentrated_load_rating",
    "force",
    "Concentrated load rating of the raised-floor panels",
    reads=(),
)
def zone_concentrated_rating(ctx: Context, rack: Rack) -> Value:
    return _zone_figure(ctx, rack, "concentrated_load_rating")


@quantity(
    "floor_zone",
    "zone_load",
    "floor_load",
    "Installed mass of the zone's racks over the zone area",
    reads=("racks",),
)
def zone_load(ctx: Context, zone: Any) -> Value:
    racks = ctx.topology.racks_by_zone.get(zone.id, [])
    if zone.area is None:
        return Value.unknown(_no_zone_figure(zone, "area"))
    total = 0.0
    for rack in racks:
        m = ctx.get("rack", "installed_mass", rack)
        m_value = known(m)
        total += m_value
    return Value(
        zone_aggregate_pressure(total, zone.area),
        "Σ m · g / A",
        (("Σ m", total, "mass"), ("g", STANDARD_GRAVITY, "acceleration"), ("A", zone.area, "area")),
    )


@quantity(
    "floor_zone", "uniform_load_rating", "floor_load", "Uniform load rating of the zone", reads=()
)
def uniform_load_rating(ctx: Context, zone: Any) -> Value:
    if zone.uniform_load_rating is None:
        return Value.unknown(_no_zone_figure(zone, "uniform_load_rating"))
    return Value(zone.uniform_load_rating)


# --- where a rack's mass lands, moving it in, and its height ------------------------------


@lru_cache(maxsize=4096)
def _in_zone(zone: str) -> Value:
    """0, in zone ``zone``: one Value shared by the zone's racks (a campus has 100,000)."""
    return Value(0.0, Message("in zone %(zone)s", zone=zone), ())


@quantity(
    "rack",
    "mass_on_no_zone",
    "mass",
    "Installed mass of a rack that stands in no floor zone (0 when it is in one)",
    reads=(),
)
def mass_on_no_zone(ctx: Context, rack: Rack) -> Value:
    if rack.zone is not None:
        return _in_zone(rack.zone)
    mass = ctx.get("rack", "installed_mass", rack)
    mass_value = known(mass)
    return Value(mass_value, mass.formula, mass.inputs)


@quantity(
    "rack",
    "rolling_caster_load",
    "force",
    "Load on one caster while the rack is rolled in (½ of its weight, IBM)",
    reads=(),
)
def rack_rolling_caster_load(ctx: Context, rack: Rack) -> Value:
    mass = ctx.get("rack", "installed_mass", rack)
    mass_value = known(mass)
    return Value(
        rolling_caster_load(mass_value),
        "½ · m · g",
        (("m", mass_value, "mass"), ("g", STANDARD_GRAVITY, "acceleration")),
    )


@quantity(
    "rack",
    "zone_rolling_load_rating",
    "force",
    "Rolling load rating of the rack's raised-floor panels",
    reads=(),
)
def zone_rolling_rating(ctx: Context, rack: Rack) -> Value:
    return _zone_figure(ctx, rack, "rolling_load_rating")


@quantity("rack", "rack_height", "length", "Height of the rack", reads=())
def rack_height(ctx: Context, rack: Rack) -> Value:
    height = rack.type.figures.height
    return Value.unknown(no_rack_figure(rack, "height")) if height is None else Value(height)


@quantity(
    "rack",
    "zone_clear_height",
    "length",
    "Clear height above the rack's floor zone (to the lowest obstruction)",
    reads=(),
)
def zone_clear_height(ctx: Context, rack: Rack) -> Value:
    return _zone_figure(ctx, rack, "clear_height")


@quantity(
    "rack",
    "zone_states_clear_height",
    "boolean",
    "True when the rack's floor zone states its clear height",
    reads=(),
)
def zone_states_clear_height(ctx: Context, rack: Rack) -> Value:
    zone = _zone(ctx, rack)
    return Value(float(zone is not None and zone.clear_height is not None))
