"""Derived quantities of a utility loss: are the CDU pumps on a UPS, and how long does a TCS
loop ride through while its heat rejection is lost.

On a utility loss the racks stay up on their UPS; what else keeps running is what the UPS
feeds. A CDU whose pumps are fed only from a utility, transformer or generator path stops
until the generator picks up: no flow reaches the cold plates (a single point of failure for
every liquid rack on its loop). With the pumps on a UPS, the loop keeps circulating but no
heat leaves it until the heat rejection restarts: its coolant inventory (loop piping and
CDUs, the racks' own coolant, buffer tanks) absorbs the racks' liquid heat until the supply
reaches the racks' maximum allowed supply (:func:`facility.physics.transient.ride_through_time`).
"""

from __future__ import annotations

from typing import Any

from facility.engine.derive_liquid import coolant_properties
from facility.engine.quantities import Context, Value, known, quantity
from facility.messages import Message
from facility.model.site import ResolvedCdu
from facility.physics.transient import ride_through_time

_UPS_FEEDS = Message("n_UPS of the n_feeds feeds of the pump loads serving the CDU end at a UPS")


def _pump_loads(ctx: Context, cdu: ResolvedCdu) -> list[Any]:
    return [
        load for load in ctx.site.loads.values() if load.kind == "cdu" and load.serves == cdu.id
    ]


def on_ups(ctx: Context, element_id: str) -> bool:
    """True when the chain above ``element_id`` ends at a UPS."""
    chain = ctx.topology.chain.get(element_id, ())
    top = chain[-1].id if chain else None
    return top is not None and top in ctx.site.sources and ctx.site.sources[top].kind == "ups"


@quantity(
    "cdu",
    "serves_liquid_racks",
    "boolean",
    "True when the CDU serves a loop with liquid-cooled racks",
    reads=("loop:racks",),
)
def serves_liquid_racks(ctx: Context, cdu: Any) -> Value:
    if cdu.loop is None:
        return Value(0.0)
    racks = ctx.topology.racks_by_loop.get(cdu.loop, [])
    return Value(float(any(rack.type.is_liquid for rack in racks)))


@quantity(
    "cdu",
    "pump_ups_feeds",
    "count",
    "Feeds of the CDU's pump loads whose path ends at a UPS",
    reads=(),
)
def pump_ups_feeds(ctx: Context, cdu: Any) -> Value:
    loads = _pump_loads(ctx, cdu)
    if not loads:
        return Value.unknown(
            Message(
                "no load of kind cdu serves CDU '%(cdu)s' (power.loads with %(field)s): its "
                "pumps' power path is unknown",
                cdu=cdu.id,
                field="serves",
            )
        )
    feeds = [element for load in loads for element in load.fed_by.values()]
    backed = sum(1 for element in feeds if on_ups(ctx, element))
    return Value(
        float(backed),
        _UPS_FEEDS,
        (("n_feeds", len(feeds), "count"), ("n_UPS", backed, "count")),
    )


@quantity(
    "tcs_loop",
    "coolant_inventory",
    "volume",
    "Coolant of the loop: piping and CDUs, buffer tanks, and the racks' own",
    reads=("racks",),
)
def coolant_inventory(ctx: Context, loop: Any) -> Value:
    if loop.volume is None:
        return Value.unknown(
            Message("loop '%(loop)s' has no %(field)s", loop=loop.id, field="volume")
        )
    buffer = loop.buffer_volume or 0.0
    racks = [r for r in ctx.topology.racks_by_loop.get(loop.id, []) if r.type.is_liquid]
    # A rack that states no coolant_volume adds none: the conservative reading (less coolant
    # rides through less time).
    in_racks = sum(r.type.figures.coolant_volume or 0.0 for r in racks)
    return Value(
        loop.volume + buffer + in_racks,
        "V_loop + V_buffer + Σ V_rack",
        (
            ("V_loop", loop.volume, "volume"),
            ("V_buffer", buffer, "volume"),
            ("Σ V_rack", in_racks, "volume"),
        ),
    )


@quantity(
    "tcs_loop",
    "ride_through_time",
    "time",
    "Time the loop's coolant absorbs its liquid heat with heat rejection lost, until the "
    "supply reaches the racks' maximum",
    reads=("racks", "self.liquid_heat", "self.supply_temperature", "self.max_allowed_supply"),
)
def ride_through(ctx: Context, loop: Any) -> Value:
    volume = known(ctx.get("tcs_loop", "coolant_inventory", loop))
    heat = known(ctx.get("tcs_loop", "liquid_heat", loop))
    supply = known(ctx.get("tcs_loop", "supply_temperature", loop))
    limit = known(ctx.get("tcs_loop", "max_allowed_supply", loop))
    allowed = limit - supply
    # Properties at the mean of the warming: from the supply to the racks' maximum.
    props = coolant_properties(loop.coolant, supply + max(allowed, 0.0) / 2)
    if isinstance(props, Value):
        return props
    rho, cp = props
    return Value(
        ride_through_time(volume, rho, cp, allowed, heat),
        "V · ρ · cp · (T_max − T_supply) / Q_liq",
        (
            ("V", volume, "volume"),
            ("ρ", rho, "density"),
            ("cp", cp, "specific_heat"),
            ("T_max", limit, "temperature"),
            ("T_supply", supply, "temperature"),
            ("Q_liq", heat, "power"),
        ),
    )
