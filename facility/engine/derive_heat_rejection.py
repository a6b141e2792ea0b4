"""Derived quantities of heat rejection at design ambient, and of each CDU's primary side.

Conventions stated in the workings and in docs/heat-rejection.md:
- each entry of ``cooling.heat_rejection`` is ``count`` identical units on one facility water
  loop; ``redundant`` of them are out when the plant is judged (N+1: one out);
- a unit's capacity is its rating at or below the rating ambient (no credit for a cooler day)
  and falls by ``capacity_derating`` per K above it; without a derating the capacity above
  the rating ambient is unknown (not evaluated), never assumed;
- dry coolers and (air-cooled) chillers see the design dry bulb, cooling towers the wet bulb;
- the entries of one loop are in parallel: capacities add, and the warmest supply any entry
  makes is the loop's achievable supply (each must carry its share at the declared supply);
- a CDU's primary flow is its share of its loop's heat at the facility water's primary rise,
  the water's properties at its mean temperature; the flow available is the rated primary flow
  scaled by √(ΔP_available / ΔP_rated), the primary side a fixed resistance (Δp ∝ V̇²), capped
  at the rating.
"""

from __future__ import annotations

from typing import Any

from facility.engine.derive_liquid import (
    cdu_heat,
    cdu_heat_shares,
    coolant_name,
    coolant_properties,
)
from facility.engine.quantities import Context, Value, known, quantity
from facility.messages import Message
from facility.model.heat_rejection import AMBIENT_OF_KIND, HeatRejection
from facility.model.site import ResolvedCdu
from facility.physics import coolant as fluid
from facility.physics.exchanger import capacity_at_flows
from facility.physics.heat_rejection import (
    achievable_supply_temperature as supply_at_ambient,
)
from facility.physics.heat_rejection import (
    capacity_at_ambient,
    flow_at_differential_pressure,
    plant_capacity,
)

_AMBIENT_SYMBOL = {"dry_bulb": "T_db", "wet_bulb": "T_wb"}


def entries_on(ctx: Context, water: Any) -> list[HeatRejection]:
    """The heat rejection entries on ``water``, in the order written."""
    return [e for e in ctx.site.heat_rejection.values() if e.facility_water == water.id]


def _no_plant(water: Any) -> Value:
    return Value.unknown(
        Message(
            "facility water '%(water)s' has no %(field)s (chillers, dry coolers or cooling "
            "towers on it)",
            water=water.id,
            field="heat_rejection",
        )
    )


def _no_entry_figure(entry: HeatRejection, field: str) -> Value:
    return Value.unknown(
        Message("heat rejection '%(entry)s' has no %(field)s", entry=entry.id, field=field)
    )


def _design_ambient(ctx: Context, entry: HeatRejection) -> tuple[str, float] | Value:
    """(which ambient, its value [degC]) the entry's kind is judged at, or why unknown."""
    which = AMBIENT_OF_KIND[entry.kind]
    ambient = ctx.site.info.design_ambient
    value = None if ambient is None else getattr(ambient, which)
    if value is None:
        return Value.unknown(
            Message(
                "the site has no %(field)s (needed for %(entry)s, a %(kind)s)",
                field=f"design_ambient.{which}",
                entry=entry.id,
                kind=entry.kind,
            )
        )
    return which, value


def _with_basis(ctx: Context, formula: str) -> str:
    ambient = ctx.site.info.design_ambient
    if ambient is None or not ambient.basis:
        return formula
    return Message("%(formula)s; design ambient: %(basis)s", formula=formula, basis=ambient.basis)


def _unit_capacity(ctx: Context, entry: HeatRejection) -> Value:
    """One unit's capacity at the design ambient, with its working."""
    if entry.capacity is None:
        return _no_entry_figure(entry, "capacity")
    if entry.rated_ambient is None:
        return _no_entry_figure(entry, "rated_ambient")
    found = _design_ambient(ctx, entry)
    if isinstance(found, Value):
        return found
    which, ambient = found
    symbol = _AMBIENT_SYMBOL[which]
    rating = (("Q_rated", entry.capacity, "power"), ("T_rated", entry.rated_ambient, "temperature"))
    if ambient <= entry.rated_ambient:
        return Value(
            entry.capacity,
            Message("Q_rated (%(symbol)s ≤ T_rated)", symbol=symbol),
            (*rating, (symbol, ambient, "temperature")),
        )
    if entry.capacity_derating is None:
        return Value.unknown(
            Message(
                "heat rejection '%(entry)s' has no %(field)s: its capacity at %(ambient)s °C, "
                "above its rated_ambient of %(rated)s °C, is unknown",
                entry=entry.id,
                field="capacity_derating",
                ambient=format(ambient, "g"),
                rated=format(entry.rated_ambient, "g"),
            )
        )
    capacity = capacity_at_ambient(
        entry.capacity, entry.rated_ambient, ambient, entry.capacity_derating
    )
    return Value(
        capacity,
        Message("Q_rated · (1 − d · (%(symbol)s − T_rated)), d per K", symbol=symbol),
        (*rating, (symbol, ambient, "temperature"), ("d", entry.capacity_derating, "fraction")),
    )


@quantity(
    "facility_water",
    "heat_rejection_capacity",
    "power",
    "Heat the plant on this water rejects at the design ambient, its redundant units out",
    reads=("heat_rejection",),
)
def heat_rejection_capacity(ctx: Context, water: Any) -> Value:
    entries = entries_on(ctx, water)
    if not entries:
        return _no_plant(water)
    total = 0.0
    only: Value | None = None
    for entry in entries:
        unit = _unit_capacity(ctx, entry)
        total += plant_capacity(known(unit), entry.count, entry.redundant)
        only = unit
    if len(entries) == 1:
        assert only is not None
        entry = entries[0]
        # one input for the units in service, so an N+1 entry with a unit lost (one fewer
        # installed, one fewer that may be out) reads as in normal operation
        counts = (("n − r", entry.count - entry.redundant, "count"),)
        formula = Message("(n − r) · %(unit)s", unit=only.formula)
        return Value(total, _with_basis(ctx, formula), (*counts, *only.inputs))
    formula = Message("Σ (n − r) · Q(ambient) over the entries")
    return Value(total, _with_basis(ctx, formula), (("n_entries", len(entries), "count"),))


def _pump_heat(ctx: Context, water: Any) -> float:
    """Σ pump power of the CDUs in service on ``water`` [W]: the pump work ends as heat in
    the TCS loop, and the CDU passes it on."""
    in_service = [
        cdu_id
        for cdu_id in ctx.topology.cdus_by_water.get(water.id, ())
        if (loop := ctx.site.loops.get(ctx.site.cdus[cdu_id].loop or "")) and cdu_id in loop.cdus
    ]
    served = set(in_service)
    return sum(
        load.power * load.count
        for load in ctx.site.loads.values()
        if load.kind == "cdu" and load.serves in served
    )


def _air_unit_heat(ctx: Context, water: Any) -> tuple[float, float, int]:
    """(the room air heat the air units on ``water`` take [W], their fans' power [W], the
    units): each unit takes its room's air heat in proportion to its sensible capacity, and
    its coil passes that and its fans' heat into the water."""
    mine = ctx.topology.air_units_on_water(ctx.site, water.id)
    heat = 0.0
    for room_id in sorted({u.room for u in mine if u.room is not None}):
        room_heat = known(ctx.get("room", "air_heat", ctx.site.rooms[room_id]))
        in_room = ctx.topology.air_units_of_room(ctx.site, room_id)
        total = sum(u.sensible_capacity for u in in_room)
        on_water = sum(u.sensible_capacity for u in in_room if u.facility_water == water.id)
        heat += room_heat * on_water / total if total else 0.0
    # a fan load serves an air unit entry (its units <id>-1 … <id>-n): counted whole while
    # any unit of the entry is in service on this water
    ids = {u.id for u in mine}
    fans = sum(
        load.power * load.count
        for load in ctx.site.loads.values()
        if load.kind == "air_unit"
        and load.serves is not None
        and any(unit == load.serves or _of_entry(unit, load.serves) for unit in ids)
    )
    return heat, fans, len(mine)


def _of_entry(unit: str, entry: str) -> bool:
    """True when ``unit`` is one of the units ``<entry>-1`` … made from an entry's count."""
    return unit.startswith(f"{entry}-") and unit[len(entry) + 1 :].isdigit()


@quantity(
    "facility_water",
    "plant_heat",
    "power",
    "Heat the plant must reject from this water: the CDUs' liquid heat and pump heat, and the "
    "room air heat and fan heat of the air units on it",
    reads=("self.facility_heat", "cdus", "air_units", "air_rooms.air_heat", "air_rooms:air_units"),
)
def plant_heat(ctx: Context, water: Any) -> Value:
    cdus = known(ctx.get("facility_water", "facility_heat", water))
    pumps = _pump_heat(ctx, water)  # a CDU no load serves adds none: the coverage says so
    air, fans, units = _air_unit_heat(ctx, water)
    inputs: list[tuple[str, float, str]] = [("Q_CDUs", cdus, "power"), ("P_pumps", pumps, "power")]
    formula = "Q_CDUs + P_pumps"
    if units:
        formula = "Q_CDUs + P_pumps + Q_air + P_fans"
        inputs += [
            ("Q_air", air, "power"),
            ("P_fans", fans, "power"),
            ("n_air_units", units, "count"),
        ]
    return Value(cdus + pumps + air + fans, formula, tuple(inputs))


def _entry_supply(ctx: Context, entry: HeatRejection) -> Value:
    """The coldest supply one entry makes at the design ambient, with its working."""
    if entry.kind == "chiller":
        if entry.leaving_water_temperature is None:
            return _no_entry_figure(entry, "leaving_water_temperature")
        t = entry.leaving_water_temperature
        return Value(t, "T_LWT", (("T_LWT", t, "temperature"),))
    if entry.approach is None:
        return _no_entry_figure(entry, "approach")
    found = _design_ambient(ctx, entry)
    if isinstance(found, Value):
        return found
    which, ambient = found
    symbol = _AMBIENT_SYMBOL[which]
    return Value(
        supply_at_ambient(ambient, entry.approach),
        f"{symbol} + ΔT_app",
        ((symbol, ambient, "temperature"), ("ΔT_app", entry.approach, "temperature_difference")),
    )


@quantity(
    "facility_water",
    "achievable_supply_temperature",
    "temperature",
    "Warmest supply the plant's entries make at the design ambient (ambient + approach)",
    reads=("heat_rejection",),
)
def achievable_supply_temperature(ctx: Context, water: Any) -> Value:
    entries = entries_on(ctx, water)
    if not entries:
        return _no_plant(water)
    warmest: tuple[Value, HeatRejection] | None = None
    for entry in entries:
        supply = _entry_supply(ctx, entry)
        value = known(supply)  # an entry whose supply is unknown leaves the loop's unknown
        if warmest is None or value > known(warmest[0]):
            warmest = (supply, entry)
    assert warmest is not None
    supply, entry = warmest
    formula = supply.formula
    if len(entries) > 1:
        formula = Message(
            "%(formula)s of %(entry)s, the warmest entry", formula=formula, entry=entry.id
        )
    return Value(supply.value, _with_basis(ctx, formula), supply.inputs)


# --- CDU scope: the primary side ---------------------------------------------------------


def _no_cdu_figure(cdu: ResolvedCdu, field: str) -> Value:
    return Value.unknown(Message("CDU '%(cdu)s' has no %(field)s", cdu=cdu.id, field=field))


def _no_water_figure(water: Any, field: str) -> Value:
    return Value.unknown(
        Message("facility water '%(water)s' has no %(field)s", water=water.id, field=field)
    )


@quantity(
    "cdu",
    "primary_flow",
    "volumetric_flow",
    "Facility water flow the CDU needs for its share of its loop's heat at the primary rise",
    reads=("loop.liquid_heat", "loop:cdus", "loop.cdus:figures"),
)
def primary_flow(ctx: Context, cdu: ResolvedCdu) -> Value:
    if cdu.spec.facility_water is None:
        return _no_cdu_figure(cdu, "facility_water")
    water = ctx.site.facility_water[cdu.spec.facility_water]
    if water.supply_temperature is None:
        return _no_water_figure(water, "supply_temperature")
    if water.primary_rise is None:
        return _no_water_figure(water, "primary_rise")
    heat = known(cdu_heat(ctx, cdu))
    props = coolant_properties(water.coolant, water.supply_temperature + water.primary_rise / 2)
    if isinstance(props, Value):
        return props
    rho, cp = props
    return Value(
        fluid.required_coolant_flow(heat, water.primary_rise, rho, cp),
        Message(
            "Q_CDU / (ρ · cp · ΔT_primary), %(fluid)s at mean temperature",
            fluid=coolant_name(water.coolant),
        ),
        (
            ("Q_CDU", heat, "power"),
            ("ρ", rho, "density"),
            ("cp", cp, "specific_heat"),
            ("ΔT_primary", water.primary_rise, "temperature_difference"),
        ),
    )


@quantity(
    "cdu",
    "primary_flow_available",
    "volumetric_flow",
    "Primary flow through the CDU at the differential pressure available to it",
    reads=("figures",),
)
def primary_flow_available(ctx: Context, cdu: ResolvedCdu) -> Value:
    f = cdu.figures
    if f.rated_primary_flow is None:
        return _no_cdu_figure(cdu, "rated_primary_flow")
    if not f.primary_pressure_drop:
        return _no_cdu_figure(cdu, "primary_pressure_drop")
    if cdu.spec.facility_water is None:
        return _no_cdu_figure(cdu, "facility_water")
    water = ctx.site.facility_water[cdu.spec.facility_water]
    if water.differential_pressure is None:
        return _no_water_figure(water, "differential_pressure")
    return Value(
        flow_at_differential_pressure(
            f.rated_primary_flow, f.primary_pressure_drop, water.differential_pressure
        ),
        "V_rated · min(1, √(ΔP_available / ΔP_rated))",
        (
            ("V_rated", f.rated_primary_flow, "volumetric_flow"),
            ("ΔP_available", water.differential_pressure, "pressure"),
            ("ΔP_rated", f.primary_pressure_drop, "pressure"),
        ),
    )


@quantity(
    "cdu",
    "heat_share",
    "power",
    "The CDU's share of its loop's heat (by capacity at the site's approach)",
    reads=("loop.liquid_heat", "loop:cdus", "loop.cdus:figures"),
)
def heat_share(ctx: Context, cdu: ResolvedCdu) -> Value:
    return cdu_heat(ctx, cdu)


def _rate(coolant: Any, temperature: float, flow: float) -> float | Value:
    """ρ · cp · V̇ [W/K] of ``coolant`` at ``temperature``, or why unknown."""
    props = coolant_properties(coolant, temperature)
    if isinstance(props, Value):
        return props
    return props[0] * props[1] * flow


def _exchanger_rated_flow(f: Any) -> float:
    """The secondary flow of the exchanger's rating: ``rated_flow``, unless a pump is lost
    (the single-failure analysis then scales ``rated_flow`` to the pumps still running,
    fewer than required; the exchanger itself is unchanged). 0 when no pump runs."""
    pumps = f.pumps
    if pumps is not None and pumps.installed < pumps.required:
        return 0.0 if pumps.installed == 0 else f.rated_flow * pumps.required / pumps.installed
    return float(f.rated_flow)


@quantity(
    "cdu",
    "capacity_at_site_flows",
    "power",
    "Heat the CDU carries at the site's approach with the primary flow available and its "
    "share of the loop's flow (ε-NTU from its rating)",
    reads=(
        "figures",
        "loop.required_flow",
        "loop.supply_temperature",
        "loop:cdus",
        "loop.cdus:figures",
    ),
)
def capacity_at_site_flows(ctx: Context, cdu: ResolvedCdu) -> Value:
    f = cdu.figures
    for field in ("capacity", "rated_approach", "rated_flow", "rated_primary_flow"):
        if getattr(f, field) is None:
            return _no_cdu_figure(cdu, field)
    assert f.capacity and f.rated_approach and f.rated_flow is not None and f.rated_primary_flow
    rated_flow = _exchanger_rated_flow(f)
    if not rated_flow:
        return Value(0.0, Message("no pump running: it moves no coolant"), ())
    primary = known(ctx.get("cdu", "primary_flow_available", cdu))
    water = ctx.site.facility_water[cdu.spec.facility_water or ""]  # the flow above needs it
    if water.supply_temperature is None:
        return _no_water_figure(water, "supply_temperature")
    loop = ctx.site.loops.get(cdu.loop) if cdu.loop is not None else None
    if loop is None or cdu.id not in loop.cdus:
        return Value(0.0, Message("on no loop, or out of service: it carries no heat"), ())
    shares = cdu_heat_shares(ctx, loop)
    if isinstance(shares, Value):
        return shares
    secondary = known(ctx.get("tcs_loop", "required_flow", loop)) * shares[cdu.id]
    t_tcs = known(ctx.get("tcs_loop", "supply_temperature", loop))
    t_fw = water.supply_temperature + (water.primary_rise or 0.0) / 2
    rates = [
        _rate(water.coolant, t_fw, primary),
        _rate(loop.coolant, t_tcs, secondary),
        _rate(water.coolant, t_fw, f.rated_primary_flow),
        _rate(loop.coolant, t_tcs, rated_flow),
    ]
    for rate in rates:
        if isinstance(rate, Value):
            return rate
    c_p, c_s, c_p_rated, c_s_rated = (float(r) for r in rates)  # type: ignore[arg-type]
    approach = cdu.approach
    assert approach is not None  # the rated approach at least
    try:
        capacity = capacity_at_flows(
            f.capacity, f.rated_approach, c_p_rated, c_s_rated, approach, c_p, c_s
        )
    except ValueError:  # ε ≥ 1 at the rating, or figures whose ε underflows: no real exchanger
        return Value.unknown(
            Message(
                "CDU '%(cdu)s': its rating (%(fields)s) is not a possible heat exchanger "
                "(effectiveness ≥ 1): check the figures with its vendor",
                cdu=cdu.id,
                fields="capacity, rated_approach, rated_flow, rated_primary_flow",
            )
        )
    return Value(
        capacity,
        Message(
            "min(Q_rated, ATD / (1 / (ε · C_min) − 1 / C_s)); ε by ε-NTU (counterflow) from UA "
            "= UA_rated · min(1, V_primary / V_primary_rated, V_secondary / "
            "V_secondary_rated)^0.8, UA_rated from Q_rated at ATD_rated"
        ),
        (
            ("Q_rated", f.capacity, "power"),
            ("ATD_rated", f.rated_approach, "temperature_difference"),
            ("ATD", approach, "temperature_difference"),
            ("V_primary", primary, "volumetric_flow"),
            ("V_primary_rated", f.rated_primary_flow, "volumetric_flow"),
            ("V_secondary", secondary, "volumetric_flow"),
            ("V_secondary_rated", rated_flow, "volumetric_flow"),
        ),
    )
