"""Derived quantities of liquid cooling: TCS loops, CDUs, facility water.

Heat uses the thermal basis (nominal by default). Flows use the loop's real coolant at the
mean loop temperature (supply + rise / 2); a glycol loop's flow is never computed with water
properties, and a vendor flow table measured with another coolant is converted to the loop's.
N+1 is judged after the failure: the loop's CDUs minus the largest one.

Conventions stated in the workings:
- a loop with no racks carries no heat (0 W), so what depends on its heat is still judged;
- a loop's heat is shared by its CDUs in proportion to their heat capacity at the site's
  approach (parallel CDUs on one header load-share); each CDU's share lands on its own
  facility water loop, so a loop fed from two facility water loops is split between them,
  never counted whole on each (and where a capacity is unknown, so is that split);
- a CDU's capacity at an approach other than its rated one scales linearly with the approach,
  down only: never above the rating (:func:`facility.physics.thermal.cdu_capacity_at_approach`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from facility.engine.quantities import Context, Value, guarded, known, quantity, scope
from facility.engine.reasons import no_cooling, no_rack_figure
from facility.messages import Message, message_of
from facility.model.cooling import FLUID_NAMES, Coolant
from facility.model.site import Rack, ResolvedCdu, Site
from facility.physics import coolant as fluid
from facility.physics.electrical import surviving_capacity
from facility.physics.hydraulic import pressure_drop_at_flow
from facility.physics.thermal import (
    cdu_capacity_at_approach,
    tcs_supply_temperature,
    w_class_max_supply_temperature,
)


@scope("tcs_loop", "TCS loop")
def _loops(site: Site) -> Iterable[tuple[str, Any]]:
    return site.loops.items()


@scope("cdu", "CDU")
def _cdus(site: Site) -> Iterable[tuple[str, Any]]:
    return site.cdus.items()


@scope("facility_water", "Facility water loop")
def _water(site: Site) -> Iterable[tuple[str, Any]]:
    return site.facility_water.items()


def mass_fraction(coolant: Coolant) -> float:
    """Glycol mass fraction of a coolant (volume fractions converted at 20 °C)."""
    if coolant.fluid == "water":
        return 0.0
    if coolant.mass_fraction is not None:
        return coolant.mass_fraction
    assert coolant.volume_fraction is not None
    return fluid.mass_fraction_from_volume_fraction(coolant.fluid, coolant.volume_fraction)


def coolant_name(coolant: Coolant) -> str:
    """'propylene glycol 25.7 % by mass', 'water': how a coolant is named in a working."""
    if coolant.fluid == "water":
        return FLUID_NAMES["water"]
    name = FLUID_NAMES[coolant.fluid]
    percent = format(mass_fraction(coolant) * 100, ".1f")
    return Message("%(fluid)s %(percent)s %% by mass", fluid=name, percent=percent)


def _no_cdu_figure(cdu: ResolvedCdu, field: str) -> Message:
    return Message("CDU '%(cdu)s' has no %(field)s", cdu=cdu.id, field=field)


def _no_water_figure(water: Any, field: str) -> Message:
    return Message("facility water '%(water)s' has no %(field)s", water=water.id, field=field)


def _no_racks_on(loop: Any) -> Message:
    return Message("no racks are on loop '%(loop)s'", loop=loop.id)


# Formulas in words (the symbols are not translated; the words around them are).
NO_CDU_IN_SERVICE = Message("no CDU in service")
_NO_RACKS = Message("no racks on the loop")
_SUM_CDUS = Message("Σ CDUs")
_SUM_CDUS_BUT_LARGEST = Message("Σ CDUs − largest")
_SETPOINT = Message("setpoint")
_LOWEST_RACK_MAX = Message("min T_max over the rack types")
_HIGHEST_RACK_MIN = Message("max T_min over the rack types")
_VENDOR_TABLE = Message("vendor table")
_MIN_CDU_HEAD = Message("min H_CDU over the CDUs")
_SUM_LOOP_HEAT = Message("Σ loop heat")
_NO_CDU_ON_WATER = Message("no CDU on a loop uses this water")
# A CDU's capacity at the site approach: rated capacity scaled down linearly (never up).
_SCALED = "Q_rated · min(1, ATD / ATD_rated)"


def cdus_of_loop(ctx: Context, loop: Any) -> list[ResolvedCdu]:
    """The CDUs a loop names that are in service (a failure overlay's loop names fewer)."""
    return [ctx.site.cdus[c] for c in loop.cdus]


def _loop_racks(ctx: Context, loop_id: str) -> list[Rack]:
    return ctx.topology.racks_by_loop.get(loop_id, [])


def _liquid_racks(ctx: Context, loop_id: str) -> list[Rack]:
    """The loop's racks that take coolant (an air-only rack on a loop puts nothing in it)."""
    return [rack for rack in _loop_racks(ctx, loop_id) if rack.type.is_liquid]


def rack_heat_split(ctx: Context, rack: Rack) -> tuple[float, float] | Value:
    """(heat at the thermal basis [W], share to liquid) of a rack, or why it is unknown.

    An air-only rack sends 0 to liquid. A rack type that states neither its cooling nor its
    liquid share is unknown: guessing "air" would drop its heat from the loop.
    """
    f = rack.type.figures
    if rack.type.is_passive:
        return 0.0, 0.0  # no powered equipment: no heat
    basis = ctx.assumptions.thermal_power_basis
    power = f.nominal_power if basis == "nominal" else f.peak_power
    if power is None:
        return Value.unknown(no_rack_figure(rack, f"{basis}_power"))
    if f.cooling is None and f.liquid_heat_fraction is None:
        return Value.unknown(no_cooling(rack))
    if not rack.type.is_liquid:
        return power, 0.0
    if f.liquid_heat_fraction is None:
        return Value.unknown(no_rack_figure(rack, "liquid_heat_fraction"))
    return power, f.liquid_heat_fraction


def rack_liquid_heat(ctx: Context, rack: Rack) -> Value:
    """Heat the rack puts into liquid [W] (0 for an air-only rack), or why it is unknown."""
    split = rack_heat_split(ctx, rack)
    if isinstance(split, Value):
        return split
    power, liquid = split
    return Value(power * liquid)


@quantity(
    "tcs_loop",
    "liquid_heat",
    "power",
    "Heat the racks on the loop put into the liquid",
    reads=("racks",),
)
def liquid_heat(ctx: Context, loop: Any) -> Value:
    racks = _loop_racks(ctx, loop.id)
    if not racks:
        return Value(0.0, _NO_RACKS, ())
    total = 0.0
    for rack in racks:
        heat = known(rack_liquid_heat(ctx, rack))
        total += heat
    return Value(total, "Σ P · f_liq", (("n_racks", len(racks), "count"),))


def _capacity(cdu: ResolvedCdu) -> Value:
    """The CDU's heat capacity at the site's approach, with the scaling in its working."""
    f = cdu.figures
    if f.capacity is None:
        return Value.unknown(_no_cdu_figure(cdu, "capacity"))
    if (
        cdu.spec.approach is not None
        and f.rated_approach is not None
        and cdu.spec.approach != f.rated_approach
    ):
        return Value(
            cdu_capacity_at_approach(f.capacity, f.rated_approach, cdu.spec.approach),
            _SCALED,
            (
                ("Q_rated", f.capacity, "power"),
                ("ATD", cdu.spec.approach, "temperature_difference"),
                ("ATD_rated", f.rated_approach, "temperature_difference"),
            ),
        )
    return Value(f.capacity, "Q_rated", (("Q_rated", f.capacity, "power"),))


def _sum_cdus(ctx: Context, loop: Any, figure: str, survivors: bool) -> Value:
    values: list[float] = []
    scaled: set[tuple[Any, ...]] = set()  # the distinct scalings, shown when there is one
    for cdu in cdus_of_loop(ctx, loop):
        v = _capacity(cdu) if figure == "capacity" else Value(getattr(cdu.figures, figure))
        if v.value is None:
            return v if v.missing else Value.unknown(_no_cdu_figure(cdu, figure))
        values.append(v.value)
        if v.formula == _SCALED:
            scaled.add(v.inputs)
    kind = "power" if figure == "capacity" else "volumetric_flow"
    if not values:  # every CDU of the loop has failed (a failure scenario)
        return Value(0.0, NO_CDU_IN_SERVICE, ())
    count: tuple[tuple[str, float, str], ...] = (("n_CDU", len(values), "count"),)
    each: tuple[tuple[str, float, str], ...] = ()
    if scaled:  # at the site's approach: say so, with the rating and the scaling
        each = next(iter(scaled)) if len(scaled) == 1 else ()
        sums = (
            Message("Σ CDUs − largest, each %(scaled)s", scaled=_SCALED)
            if survivors
            else Message("Σ CDUs, each %(scaled)s", scaled=_SCALED)
        )
    else:
        sums = _SUM_CDUS_BUT_LARGEST if survivors else _SUM_CDUS
    if survivors:
        return Value(
            surviving_capacity(values, 1),
            sums,
            (*count, ("largest", max(values), kind), *each),
        )
    return Value(sum(values), sums, (*count, *each))


@quantity(
    "tcs_loop",
    "cdu_capacity",
    "power",
    "Heat capacity of all the loop's CDUs",
    reads=("cdus", "cdus:figures"),
)
def cdu_capacity(ctx: Context, loop: Any) -> Value:
    return _sum_cdus(ctx, loop, "capacity", survivors=False)


@quantity(
    "tcs_loop",
    "cdu_capacity_after_cdu_loss",
    "power",
    "Heat capacity with the largest CDU out (N+1)",
    reads=("cdus", "cdus:figures"),
)
def cdu_capacity_after_cdu_loss(ctx: Context, loop: Any) -> Value:
    return _sum_cdus(ctx, loop, "capacity", survivors=True)


@quantity(
    "tcs_loop",
    "cdu_flow",
    "volumetric_flow",
    "Rated secondary flow of all the loop's CDUs",
    reads=("cdus", "cdus:figures"),
)
def cdu_flow(ctx: Context, loop: Any) -> Value:
    return _sum_cdus(ctx, loop, "rated_flow", survivors=False)


@quantity(
    "tcs_loop",
    "cdu_flow_after_cdu_loss",
    "volumetric_flow",
    "Rated flow with the largest CDU out (N+1)",
    reads=("cdus", "cdus:figures"),
)
def cdu_flow_after_cdu_loss(ctx: Context, loop: Any) -> Value:
    return _sum_cdus(ctx, loop, "rated_flow", survivors=True)


@quantity(
    "tcs_loop",
    "supply_temperature",
    "temperature",
    "TCS supply temperature the racks see",
    reads=("self.lowest_achievable_supply",),
)
def supply_temperature(ctx: Context, loop: Any) -> Value:
    achievable = ctx.get("tcs_loop", "lowest_achievable_supply", loop)
    if loop.supply_setpoint is None:
        return achievable
    if achievable.value is not None and achievable.value > loop.supply_setpoint:
        # A setpoint the CDUs cannot reach (LIQ-007): the racks see what they can deliver.
        return achievable
    return Value(loop.supply_setpoint, _SETPOINT, (("T_set", loop.supply_setpoint, "temperature"),))


@quantity(
    "tcs_loop", "supply_setpoint", "temperature", "The loop's declared supply setpoint", reads=()
)
def supply_setpoint(ctx: Context, loop: Any) -> Value:
    if loop.supply_setpoint is None:
        return Value.unknown(
            Message("loop '%(loop)s' declares no %(field)s", loop=loop.id, field="supply_setpoint")
        )
    return Value(loop.supply_setpoint, _SETPOINT, (("T_set", loop.supply_setpoint, "temperature"),))


@quantity(
    "tcs_loop", "has_setpoint", "boolean", "True when the loop declares a supply setpoint", reads=()
)
def has_setpoint(ctx: Context, loop: Any) -> Value:
    return Value(float(loop.supply_setpoint is not None))


@quantity(
    "tcs_loop",
    "lowest_achievable_supply",
    "temperature",
    "Facility supply + the largest CDU approach",
    reads=("cdus", "cdus:figures"),
)
def lowest_achievable_supply(ctx: Context, loop: Any) -> Value:
    worst: tuple[float, float, float] | None = None
    for cdu in cdus_of_loop(ctx, loop):
        if cdu.spec.facility_water is None:
            return Value.unknown(_no_cdu_figure(cdu, "facility_water"))
        water = ctx.site.facility_water[cdu.spec.facility_water]
        if water.supply_temperature is None:
            return Value.unknown(_no_water_figure(water, "supply_temperature"))
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
        if worst is None or t > worst[0]:
            worst = (t, water.supply_temperature, cdu.approach)
    if worst is None:
        return Value.unknown(Message("no CDU in service on loop '%(loop)s'", loop=loop.id))
    return Value(
        worst[0],
        "T_FWS + ATD",
        (("T_FWS", worst[1], "temperature"), ("ATD", worst[2], "temperature_difference")),
    )


def _rack_limits(ctx: Context, loop: Any, bound: str) -> Value:
    racks = _liquid_racks(ctx, loop.id)
    if not racks:
        return Value.unknown(Message("no liquid-cooled racks are on loop '%(loop)s'", loop=loop.id))
    pick = min if bound == "max" else max
    chosen: tuple[float, str] | None = None
    for rack in racks:
        allowed = rack.type.figures.allowed_supply_temperature
        if allowed is None:
            return Value.unknown(no_rack_figure(rack, "allowed_supply_temperature"))
        limit = getattr(allowed, bound)
        if chosen is None or pick(limit, chosen[0]) != chosen[0]:
            chosen = (limit, rack.type.id)
    assert chosen is not None
    symbol = f"T_{bound},{chosen[1]}"
    return Value(
        chosen[0],
        _LOWEST_RACK_MAX if bound == "max" else _HIGHEST_RACK_MIN,
        ((symbol, chosen[0], "temperature"),),
    )


@quantity(
    "tcs_loop",
    "max_allowed_supply",
    "temperature",
    "Lowest maximum supply temperature of the loop's racks",
    reads=("racks",),
)
def max_allowed_supply(ctx: Context, loop: Any) -> Value:
    return _rack_limits(ctx, loop, "max")


@quantity(
    "tcs_loop",
    "min_allowed_supply",
    "temperature",
    "Highest minimum supply temperature of the loop's racks",
    reads=("racks",),
)
def min_allowed_supply(ctx: Context, loop: Any) -> Value:
    return _rack_limits(ctx, loop, "min")


def coolant_properties(coolant: Coolant, temperature: float) -> tuple[float, float] | Value:
    """(ρ [kg/m³], cp [J/(kg·K)]) of ``coolant`` at ``temperature``, or why they are unknown:
    outside the property correlation's range (above 100 °C, or frozen)."""
    w = mass_fraction(coolant)
    try:
        return fluid.density(coolant.fluid, w, temperature), fluid.specific_heat(
            coolant.fluid, w, temperature
        )
    except ValueError as error:
        return Value.unknown(
            Message(
                "no properties of %(coolant)s at %(temperature)s °C: %(reason)s",
                coolant=coolant_name(coolant),
                temperature=format(temperature, ".1f"),
                reason=message_of(error),
            )
        )


def _same_coolant(a: Coolant, b: Coolant) -> bool:
    return a.fluid == b.fluid and abs(mass_fraction(a) - mass_fraction(b)) < 1e-9


def _table_flow(ctx: Context, rack: Rack, loop: Any, supply: float, heat: float) -> Value:
    """The rack's flow from its vendor table at ``supply``, in the loop's coolant.

    The table holds the flow that carries the rack's heat in the coolant the vendor measured
    with; the same heat at the same temperatures needs V_loop = V_table · (ρ·cp)_table /
    (ρ·cp)_loop, both at the mean loop temperature (supply + rise / 2, the rise being the
    design rise, else the one the table implies).
    """
    f = rack.type.figures
    assert f.flow_table is not None
    table = [(p.supply_temperature, p.flow) for p in f.flow_table]
    try:
        flow = fluid.flow_from_supply_table(supply, table)
    except ValueError:
        return Value.unknown(
            Message(
                "supply %(supply)s °C is outside rack type '%(type)s' %(field)s",
                supply=format(supply, ".1f"),
                type=rack.type.id,
                field="flow_table",
            )
        )
    measured = f.flow_table_coolant
    if measured is None:
        return Value.unknown(
            Message(
                "rack type '%(type)s' does not say which coolant its %(field)s was measured "
                "with (%(other)s)",
                type=rack.type.id,
                field="flow_table",
                other="flow_table_coolant",
            )
        )
    if _same_coolant(measured, loop.coolant):
        return Value(flow, _VENDOR_TABLE, (("V_table", flow, "volumetric_flow"),))
    rise = f.design_coolant_rise
    if rise is None:  # the rise the table implies for this heat, in the table's coolant
        props = coolant_properties(measured, supply)
        if isinstance(props, Value):
            return props
        rise = fluid.coolant_temperature_rise(heat, flow, *props)
    mean = supply + rise / 2
    table_props = coolant_properties(measured, mean)
    if isinstance(table_props, Value):
        return table_props
    loop_props = coolant_properties(loop.coolant, mean)
    if isinstance(loop_props, Value):
        return loop_props
    converted = fluid.flow_in_other_coolant(flow, *table_props, *loop_props)
    return Value(
        converted,
        Message(
            "V_table · (ρ·cp)_table / (ρ·cp)_loop, table in %(table)s, loop in %(loop)s",
            table=coolant_name(measured),
            loop=coolant_name(loop.coolant),
        ),
        (
            ("V_table", flow, "volumetric_flow"),
            ("(ρ·cp)_table/(ρ·cp)_loop", converted / flow, "ratio"),
        ),
    )


def _rack_flow(ctx: Context, rack: Rack, loop: Any, supply: float) -> Value:
    """The coolant flow one rack needs on ``loop`` at ``supply``: the same for every rack of a
    type on a loop, so worked out once per (type, loop, supply)."""
    key = ("rack_flow", id(rack.type), loop.id, supply)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = _one_rack_flow(ctx, rack, loop, supply)
    return found  # type: ignore[no-any-return]


def _one_rack_flow(ctx: Context, rack: Rack, loop: Any, supply: float) -> Value:
    f = rack.type.figures
    heat = known(rack_liquid_heat(ctx, rack))
    if heat == 0.0:
        return Value(0.0)
    if f.flow_table is not None:
        return _table_flow(ctx, rack, loop, supply, heat)
    if f.design_coolant_rise is None:
        return Value.unknown(
            Message(
                "rack type '%(type)s' has no %(field)s or %(other)s",
                type=rack.type.id,
                field="design_coolant_rise",
                other="flow_table",
            )
        )
    props = coolant_properties(loop.coolant, supply + f.design_coolant_rise / 2)
    if isinstance(props, Value):
        return props
    return Value(fluid.required_coolant_flow(heat, f.design_coolant_rise, *props))


@quantity(
    "tcs_loop",
    "required_flow",
    "volumetric_flow",
    "Coolant flow the loop's racks need",
    reads=("racks", "self.liquid_heat", "self.supply_temperature"),
)
def required_flow(ctx: Context, loop: Any) -> Value:
    racks = _loop_racks(ctx, loop.id)
    if not racks:
        return Value(0.0, _NO_RACKS, ())
    supply = known(ctx.get("tcs_loop", "supply_temperature", loop))
    total = 0.0
    rises = set()
    tables: set[Any] = set()  # the formulas of the racks sized by a vendor table
    for rack in racks:
        v = _rack_flow(ctx, rack, loop, supply)
        v_value = known(v)
        total += v_value
        if rack.type.figures.flow_table is not None:
            tables.add((v.formula, v.inputs[1:]))
        elif rack.type.figures.design_coolant_rise and rack.type.is_liquid:
            rises.add(rack.type.figures.design_coolant_rise)
    heat = ctx.get("tcs_loop", "liquid_heat", loop)
    inputs: list[tuple[str, float, str]] = [("Q_liq", heat.value or 0.0, "power")]
    name = coolant_name(loop.coolant)
    if tables and not rises:
        inputs = [("T_supply", supply, "temperature")]
        formula: str = Message("Σ vendor-table flows at T_supply (%(fluid)s)", fluid=name)
        if len(tables) == 1:
            table_formula, ratio = next(iter(tables))
            if table_formula != _VENDOR_TABLE:
                formula = Message("Σ %(each)s, at T_supply", each=table_formula)
                inputs += list(ratio)
        return Value(total, formula, tuple(inputs))
    if tables:
        formula = Message(
            "Σ rack flows: vendor tables where given, else Q / (ρ · cp · ΔT), %(fluid)s at "
            "mean loop temperature",
            fluid=name,
        )
        return Value(total, formula, tuple(inputs))
    formula = Message("Σ Q_liq / (ρ · cp · ΔT), %(fluid)s at mean loop temperature", fluid=name)
    if len(rises) == 1:
        rise = rises.pop()
        props = coolant_properties(loop.coolant, supply + rise / 2)
        if not isinstance(props, Value):
            inputs += [
                ("ρ", props[0], "density"),
                ("cp", props[1], "specific_heat"),
                ("ΔT", rise, "temperature_difference"),
            ]
    return Value(total, formula, tuple(inputs))


@quantity(
    "tcs_loop",
    "return_temperature",
    "temperature",
    "Supply + the largest design rise of the loop's racks",
    reads=("racks", "self.supply_temperature"),
)
def return_temperature(ctx: Context, loop: Any) -> Value:
    supply = known(ctx.get("tcs_loop", "supply_temperature", loop))
    rises = [r.type.figures.design_coolant_rise for r in _liquid_racks(ctx, loop.id)]
    if not rises or any(r is None for r in rises):
        return Value.unknown(
            Message(
                "a rack type on loop '%(loop)s' has no %(field)s",
                loop=loop.id,
                field="design_coolant_rise",
            )
        )
    rise = max(r for r in rises if r is not None)
    return Value(
        supply + rise,
        "T_supply + ΔT",
        (("T_supply", supply, "temperature"), ("ΔT", rise, "temperature_difference")),
    )


@quantity(
    "tcs_loop",
    "required_head",
    "pressure",
    "Worst rack pressure drop + piping pressure drop",
    reads=("racks", "self.supply_temperature"),
)
def required_head(ctx: Context, loop: Any) -> Value:
    if loop.piping_pressure_drop is None:
        return Value.unknown(
            Message("loop '%(loop)s' has no %(field)s", loop=loop.id, field="piping_pressure_drop")
        )
    racks = _liquid_racks(ctx, loop.id)
    if not racks:
        return Value.unknown(Message("no liquid-cooled racks are on loop '%(loop)s'", loop=loop.id))
    supply = ctx.get("tcs_loop", "supply_temperature", loop)
    worst = 0.0
    for rack in racks:
        f = rack.type.figures
        if f.pressure_drop is None:
            return Value.unknown(no_rack_figure(rack, "pressure_drop"))
        drop = f.pressure_drop
        if f.design_flow is not None and supply.value is not None:
            flow = _rack_flow(ctx, rack, loop, supply.value)
            if flow.value:
                drop = pressure_drop_at_flow(f.pressure_drop, f.design_flow, flow.value)
        worst = max(worst, drop)
    return Value(
        worst + loop.piping_pressure_drop,
        "ΔP_rack + ΔP_piping",
        (("ΔP_rack", worst, "pressure"), ("ΔP_piping", loop.piping_pressure_drop, "pressure")),
    )


@quantity(
    "tcs_loop",
    "available_head",
    "pressure",
    "Lowest available head of the loop's CDUs",
    reads=("cdus", "cdus:figures"),
)
def available_head(ctx: Context, loop: Any) -> Value:
    heads = []
    for cdu in cdus_of_loop(ctx, loop):
        if cdu.figures.available_head is None:
            return Value.unknown(_no_cdu_figure(cdu, "available_head"))
        heads.append(cdu.figures.available_head)
    if not heads:
        return Value(0.0, NO_CDU_IN_SERVICE, ())
    return Value(min(heads), _MIN_CDU_HEAD, (("H_CDU", min(heads), "pressure"),))


@quantity("tcs_loop", "racks_on_loop", "count", "Racks cooled by the loop", reads=("racks",))
def racks_on_loop(ctx: Context, loop: Any) -> Value:
    return Value(float(len(_loop_racks(ctx, loop.id))))


@quantity(
    "tcs_loop",
    "liquid_racks_on_loop",
    "count",
    "Racks on the loop that take its coolant",
    reads=("racks",),
)
def liquid_racks_on_loop(ctx: Context, loop: Any) -> Value:
    return Value(float(len(_liquid_racks(ctx, loop.id))))


@quantity(
    "tcs_loop",
    "racks_supported",
    "count",
    "Racks the loop's CDUs support (Σ max_racks)",
    reads=("cdus", "cdus:figures"),
)
def racks_supported(ctx: Context, loop: Any) -> Value:
    total = 0
    for cdu in cdus_of_loop(ctx, loop):
        if cdu.figures.max_racks is None:
            return Value.unknown(_no_cdu_figure(cdu, "max_racks"))
        total += cdu.figures.max_racks
    return Value(float(total))


# --- where a rack's liquid heat lands -----------------------------------------------------


@quantity(
    "rack", "is_liquid_cooled", "boolean", "True for a rack that puts heat into coolant", reads=()
)
def is_liquid_cooled(ctx: Context, rack: Rack) -> Value:
    return Value(float(rack.type.is_liquid))


@lru_cache(maxsize=4096)
def _on_loop(loop: str) -> Value:
    """0, on loop ``loop``: one Value shared by the loop's racks."""
    return Value(0.0, Message("on loop %(loop)s", loop=loop), ())


@quantity(
    "rack",
    "liquid_heat_on_no_loop",
    "power",
    "Liquid heat of a rack that names no TCS loop (0 when it is on one)",
    reads=(),
)
def liquid_heat_on_no_loop(ctx: Context, rack: Rack) -> Value:
    split = rack_heat_split(ctx, rack)
    if isinstance(split, Value):
        return split
    if rack.loop is not None:
        return _on_loop(rack.loop)
    power, liquid = split
    return Value(
        power * liquid, "P · f_liq", (("P", power, "power"), ("f_liq", liquid, "fraction"))
    )


# --- CDU scope -----------------------------------------------------------------------


def cdu_heat_shares(ctx: Context, loop: Any) -> dict[str, float] | Value:
    """Each in-service CDU's share of ``loop``'s heat, in proportion to the CDUs' capacities at
    the site's approach; or why the shares are unknown (a CDU of several states no capacity)."""
    key = ("cdu_shares", loop.id, tuple(loop.cdus))
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = _shares(cdus_of_loop(ctx, loop))
    return found  # type: ignore[no-any-return]


def _shares(cdus: list[ResolvedCdu]) -> dict[str, float] | Value:
    if len(cdus) == 1:
        return {cdus[0].id: 1.0}
    capacities = []
    for cdu in cdus:
        capacity = _capacity(cdu)
        if capacity.value is None:
            return capacity  # kept as the loop's shares (memo): each reader learns why
        capacities.append(capacity.value)
    total = sum(capacities)
    if not total:
        return {cdu.id: 1.0 / len(cdus) for cdu in cdus}  # none can carry any: alike
    return {cdu.id: c / total for cdu, c in zip(cdus, capacities, strict=True)}


@quantity("cdu", "pumps_installed", "count", "Pumps installed in the CDU", reads=("figures",))
def pumps_installed(ctx: Context, cdu: ResolvedCdu) -> Value:
    pumps = cdu.figures.pumps
    return (
        Value.unknown(_no_cdu_figure(cdu, "pumps"))
        if pumps is None
        else Value(float(pumps.installed))
    )


@quantity(
    "cdu", "pumps_required", "count", "Pumps needed for the CDU's rated flow", reads=("figures",)
)
def pumps_required(ctx: Context, cdu: ResolvedCdu) -> Value:
    pumps = cdu.figures.pumps
    return (
        Value.unknown(_no_cdu_figure(cdu, "pumps"))
        if pumps is None
        else Value(float(pumps.required))
    )


@quantity(
    "cdu",
    "facility_differential_pressure",
    "pressure",
    "Facility water differential pressure at the CDU",
    reads=("figures",),
)
def facility_differential_pressure(ctx: Context, cdu: ResolvedCdu) -> Value:
    if cdu.spec.facility_water is None:
        return Value.unknown(_no_cdu_figure(cdu, "facility_water"))
    water = ctx.site.facility_water[cdu.spec.facility_water]
    if water.differential_pressure is None:
        return Value.unknown(_no_water_figure(water, "differential_pressure"))
    return Value(water.differential_pressure)


@quantity(
    "cdu",
    "primary_pressure_drop",
    "pressure",
    "CDU primary (facility side) pressure drop",
    reads=("figures",),
)
def primary_pressure_drop(ctx: Context, cdu: ResolvedCdu) -> Value:
    drop = cdu.figures.primary_pressure_drop
    return (
        Value.unknown(_no_cdu_figure(cdu, "primary_pressure_drop")) if drop is None else Value(drop)
    )


@guarded  # the conservation account reads it too
def cdu_heat(ctx: Context, cdu: ResolvedCdu) -> Value:
    """The CDU's share of its loop's heat [W] (0 for a CDU on no loop or out of service)."""
    loop = ctx.site.loops.get(cdu.loop) if cdu.loop else None
    if loop is None or cdu.id not in loop.cdus:
        return Value(0.0)
    heat = known(ctx.get("tcs_loop", "liquid_heat", loop))
    shares = cdu_heat_shares(ctx, loop)
    if isinstance(shares, Value):
        return shares
    return Value(
        heat * shares[cdu.id],
        "Q_loop · share",
        (("Q_loop", heat, "power"), ("share", shares[cdu.id], "fraction")),
    )


@quantity(
    "cdu",
    "heat_on_no_facility_water",
    "power",
    "The CDU's share of its loop's heat when it names no facility water (0 when it does)",
    reads=("loop.liquid_heat", "loop:cdus", "loop.cdus:figures"),
)
def heat_on_no_facility_water(ctx: Context, cdu: ResolvedCdu) -> Value:
    if cdu.spec.facility_water is not None:
        return Value(0.0, Message("on facility water %(water)s", water=cdu.spec.facility_water), ())
    return cdu_heat(ctx, cdu)


# --- facility water scope --------------------------------------------------------------


@quantity(
    "facility_water",
    "facility_heat",
    "power",
    "Liquid heat the CDUs on this water reject into it (each CDU's share of its loop)",
    reads=("cdus", "loops.liquid_heat", "loops:cdus"),
)
def facility_heat(ctx: Context, water: Any) -> Value:
    total = 0.0
    cdus = ctx.site.cdus
    on_water = ctx.topology.cdus_by_water.get(water.id, ())
    loops: set[str] = {cdus[c].loop for c in on_water if cdus[c].loop is not None}  # type: ignore[misc]
    split = False
    counted = 0
    for loop_id in sorted(loops):
        loop = ctx.site.loops[loop_id]
        mine = [c for c in loop.cdus if cdus[c].spec.facility_water == water.id]
        if not mine:
            continue  # its CDUs on this water are out of service (a failure scenario)
        heat = ctx.get("tcs_loop", "liquid_heat", loop)
        heat_value = known(heat)
        share = 1.0
        if len(mine) < len(loop.cdus):  # the loop rejects into several facility water loops
            split = True
            shares = cdu_heat_shares(ctx, loop)
            if isinstance(shares, Value):
                return shares
            share = sum(shares[c] for c in mine)
        total += heat_value * share
        counted += 1
    if not counted:
        return Value(0.0, _NO_CDU_ON_WATER, ())
    inputs = (("n_loops", counted, "count"),)
    if not split:
        return Value(total, _SUM_LOOP_HEAT, inputs)
    return Value(
        total, Message("Σ loop heat × share of its CDUs on this water (by CDU capacity)"), inputs
    )


@quantity(
    "facility_water",
    "facility_required_flow",
    "volumetric_flow",
    "Facility water flow for the heat on it (the plant heat) at the primary rise",
    reads=("self.plant_heat",),
)
def facility_required_flow(ctx: Context, water: Any) -> Value:
    heat = known(ctx.get("facility_water", "plant_heat", water))
    if water.supply_temperature is None or water.primary_rise is None:
        return Value.unknown(
            Message(
                "facility water '%(water)s' lacks %(field)s or %(other)s",
                water=water.id,
                field="supply_temperature",
                other="primary_rise",
            )
        )
    props = coolant_properties(water.coolant, water.supply_temperature + water.primary_rise / 2)
    if isinstance(props, Value):
        return props
    rho, cp = props
    return Value(
        fluid.required_coolant_flow(heat, water.primary_rise, rho, cp),
        Message(
            "Q / (ρ · cp · ΔT), %(fluid)s at mean temperature",
            fluid=coolant_name(water.coolant),
        ),
        (
            ("Q", heat, "power"),
            ("ρ", rho, "density"),
            ("cp", cp, "specific_heat"),
            ("ΔT", water.primary_rise, "temperature_difference"),
        ),
    )


@quantity(
    "facility_water",
    "facility_available_flow",
    "volumetric_flow",
    "Facility water flow available",
    reads=(),
)
def facility_available_flow(ctx: Context, water: Any) -> Value:
    if water.available_flow is None:
        return Value.unknown(_no_water_figure(water, "available_flow"))
    return Value(water.available_flow)


@quantity(
    "facility_water",
    "facility_supply_temperature",
    "temperature",
    "Facility water supply temperature",
    reads=(),
)
def facility_supply_temperature(ctx: Context, water: Any) -> Value:
    if water.supply_temperature is None:
        return Value.unknown(_no_water_figure(water, "supply_temperature"))
    return Value(water.supply_temperature)


@quantity(
    "facility_water",
    "class_max_supply",
    "temperature",
    "Maximum supply of the declared ASHRAE W class",
    reads=(),
)
def class_max_supply(ctx: Context, water: Any) -> Value:
    if water.ashrae_class is None:
        return Value.unknown(_no_water_figure(water, "ashrae_class"))
    try:
        limit = w_class_max_supply_temperature(water.ashrae_class)
    except ValueError as exc:
        return Value.unknown(message_of(exc))
    return Value(limit, f"ASHRAE {water.ashrae_class}", ())
