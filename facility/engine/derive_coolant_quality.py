"""Derived quantities of coolant quality and leak detection: evidence against limits.

A loop's limits come from three places (:class:`facility.model.coolant_quality.CoolantLimits`):
the rack types of its liquid racks, its CDUs (the vendors' warranty figures, in the catalog or
the site file) and its own ``quality`` block (the fluid maker's figures and the loop's own
rating). The strictest applies: the finest filter rating, the lowest pressure rating, the
narrowest pH and glycol band (their intersection), the lowest chloride, every excluded
material. A check whose evidence or limit is missing is not evaluated, naming it. Rules
LIQ-031 to LIQ-036 (docs/coolant-quality.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from facility.engine.derive_condensation import _loop_rooms
from facility.engine.derive_liquid import _liquid_racks
from facility.engine.quantities import Context, Input, Value, quantity
from facility.messages import Join, Message
from facility.model.coolant_quality import GALVANIC_PAIRS, CoolantLimits

SECONDS_PER_DAY = 86_400.0


def _no_quality(loop: Any, field: str) -> Value:
    return Value.unknown(
        Message("loop '%(loop)s' has no %(field)s", loop=loop.id, field=f"quality.{field}")
    )


def _no_limit(loop: Any, field: str) -> Value:
    return Value.unknown(
        Message(
            "no rack type, CDU or quality block on loop '%(loop)s' states %(field)s",
            loop=loop.id,
            field=field,
        )
    )


def _limits(ctx: Context, loop: Any) -> Iterator[tuple[str, CoolantLimits]]:
    """(who states them, limits) for the loop's own quality block, the rack types of its
    liquid racks (each once) and its CDUs."""
    if loop.quality is not None:
        yield loop.id, loop.quality
    seen: set[str] = set()
    for rack in _liquid_racks(ctx, loop.id):
        if rack.type.id not in seen:
            seen.add(rack.type.id)
            yield rack.type.id, rack.type.figures
    for cdu_id in loop.cdus:
        cdu = ctx.site.cdus.get(cdu_id)
        if cdu is not None:
            yield cdu_id, cdu.figures


def _lowest(ctx: Context, loop: Any, field: str) -> tuple[float, str] | None:
    found = [
        (getattr(f, field), who) for who, f in _limits(ctx, loop) if getattr(f, field) is not None
    ]
    return min(found) if found else None


def _band(ctx: Context, loop: Any, field: str) -> tuple[float, str, float, str] | None:
    """(highest min, who, lowest max, who) of a band over the loop's limits."""
    bands = [
        (getattr(f, field), who) for who, f in _limits(ctx, loop) if getattr(f, field) is not None
    ]
    if not bands:
        return None
    low = max((b.min, who) for b, who in bands)
    high = min((b.max, who) for b, who in bands)
    return low[0], low[1], high[0], high[1]


def _excess(value: float, low: float, high: float) -> float:
    """How far ``value`` lies outside [low, high], relative to the bound it passes (0 within)."""
    if value < low:
        return (low - value) / low if low > 0 else low - value
    if value > high:
        return (value - high) / high if high > 0 else value - high
    return 0.0


# --- filtration ------------------------------------------------------------------------


@quantity(
    "tcs_loop",
    "filtration_rating",
    "particle_size",
    "Rating of the loop's finest full-flow filter",
    reads=(),
)
def filtration_rating(ctx: Context, loop: Any) -> Value:
    q = loop.quality
    if q is None or q.filtration_rating is None:
        return _no_quality(loop, "filtration_rating")
    return Value(
        q.filtration_rating, "d_filter", (("d_filter", q.filtration_rating, "particle_size"),)
    )


@quantity(
    "tcs_loop",
    "required_filtration_rating",
    "particle_size",
    "Finest of the filter ratings the loop's rack types, CDUs and fluid require",
    reads=("racks", "cdus"),
)
def required_filtration_rating(ctx: Context, loop: Any) -> Value:
    found = _lowest(ctx, loop, "max_filtration_rating")
    if found is None:
        return _no_limit(loop, "max_filtration_rating")
    symbol = f"d_max,{found[1]}"
    return Value(
        found[0],
        Message("min d_max over the loop's limits"),
        ((symbol, found[0], "particle_size"),),
    )


# --- fluid analysis: glycol, pH, chloride ------------------------------------------------


@quantity(
    "tcs_loop",
    "coolant_chemistry_outside_limits",
    "fraction",
    "How far the analysed glycol, pH and chloride lie outside the loop's strictest limits "
    "(relative to the bound passed; 0 within)",
    reads=("racks", "cdus"),
)
def coolant_chemistry_outside_limits(ctx: Context, loop: Any) -> Value:
    q = loop.quality
    if q is None or q.ph is None:
        return _no_quality(loop, "ph")
    if q.chloride is None:
        return _no_quality(loop, "chloride")
    ph_band = _band(ctx, loop, "allowed_ph")
    if ph_band is None:
        return _no_limit(loop, "allowed_ph")
    chloride = _lowest(ctx, loop, "max_chloride")
    if chloride is None:
        return _no_limit(loop, "max_chloride")
    parts = [
        _excess(q.ph, ph_band[0], ph_band[2]),
        _excess(q.chloride, 0.0, chloride[0]),
    ]
    inputs: list[Input] = [
        ("pH", q.ph, "count"),
        (f"pH_min,{ph_band[1]}", ph_band[0], "count"),
        (f"pH_max,{ph_band[3]}", ph_band[2], "count"),
        ("Cl", q.chloride, "concentration"),
        (f"Cl_max,{chloride[1]}", chloride[0], "concentration"),
    ]
    if loop.coolant.fluid != "water":  # a glycol band applies to a glycol loop
        if q.glycol_concentration is None:
            return _no_quality(loop, "glycol_concentration")
        glycol = _band(ctx, loop, "allowed_glycol_concentration")
        if glycol is None:
            return _no_limit(loop, "allowed_glycol_concentration")
        parts.append(_excess(q.glycol_concentration, glycol[0], glycol[2]))
        inputs += [
            ("φ", q.glycol_concentration, "fraction"),
            (f"φ_min,{glycol[1]}", glycol[0], "fraction"),
            (f"φ_max,{glycol[3]}", glycol[2], "fraction"),
        ]
    terms = [f"e(pH; {inputs[1][0]}, {inputs[2][0]})", f"e(Cl; {inputs[4][0]})"]
    if len(inputs) > 5:
        terms.append(f"e(φ; {inputs[6][0]}, {inputs[7][0]})")
    return Value(
        max(parts),
        Message("max(%(terms)s), e the relative excess beyond a limit", terms=", ".join(terms)),
        tuple(inputs),
    )


# --- wetted materials --------------------------------------------------------------------


@quantity(
    "tcs_loop",
    "incompatible_wetted_materials",
    "count",
    "Wetted materials a limit on the loop excludes, and galvanic pairs wetted together",
    reads=("racks", "cdus"),
)
def incompatible_wetted_materials(ctx: Context, loop: Any) -> Value:
    q = loop.quality
    if q is None or q.wetted_materials is None:
        return _no_quality(loop, "wetted_materials")
    wetted = set(q.wetted_materials)
    problems: list[str] = []
    for who, limits in _limits(ctx, loop):
        for material in sorted(wetted & set(limits.excluded_wetted_materials or ())):
            problems.append(
                Message("%(material)s excluded by '%(who)s'", material=material, who=who)
            )
    for a, b in GALVANIC_PAIRS:
        if a in wetted and b in wetted:
            problems.append(Message("%(a)s with %(b)s (galvanic pair)", a=a, b=b))
    if not problems:
        return Value(0.0, Message("no excluded material and no galvanic pair is wetted"))
    return Value(float(len(problems)), Join(problems))


# --- working pressure --------------------------------------------------------------------


@quantity(
    "tcs_loop",
    "working_pressure",
    "pressure",
    "Highest working pressure of the loop in operation",
    reads=(),
)
def working_pressure(ctx: Context, loop: Any) -> Value:
    q = loop.quality
    if q is None or q.working_pressure is None:
        return _no_quality(loop, "working_pressure")
    return Value(q.working_pressure, "p_work", (("p_work", q.working_pressure, "pressure"),))


@quantity(
    "tcs_loop",
    "rated_working_pressure",
    "pressure",
    "Lowest of the working pressures the loop, its rack types and its CDUs are rated for",
    reads=("racks", "cdus"),
)
def rated_working_pressure(ctx: Context, loop: Any) -> Value:
    found = _lowest(ctx, loop, "max_working_pressure")
    if found is None:
        return _no_limit(loop, "max_working_pressure")
    symbol = f"p_max,{found[1]}"
    return Value(
        found[0], Message("min p_max over the loop's ratings"), ((symbol, found[0], "pressure"),)
    )


# --- fluid analysis age ------------------------------------------------------------------


@quantity(
    "tcs_loop",
    "fluid_analysis_age",
    "time",
    "Age of the loop's last fluid analysis on the report date",
    reads=(),
)
def fluid_analysis_age(ctx: Context, loop: Any) -> Value:
    q = loop.quality
    analysis = q.fluid_analysis if q is not None else None
    if analysis is None or analysis.date is None:
        return _no_quality(loop, "fluid_analysis.date")
    if analysis.reference is None:
        return _no_quality(loop, "fluid_analysis.reference")
    if ctx.as_of is None:
        return Value.unknown(Message("the report date is unknown (give --generated-at)"))
    days = (ctx.as_of - analysis.date).days
    return Value(
        days * SECONDS_PER_DAY,
        Message(
            "%(today)s − %(date)s (%(reference)s)",
            today=ctx.as_of.isoformat(),
            date=analysis.date.isoformat(),
            reference=analysis.reference,
        ),
    )


# --- leak detection ----------------------------------------------------------------------


@quantity(
    "tcs_loop",
    "leak_detection_gaps",
    "count",
    "Leak-detection gaps of the loop: no zone over its wet connections, or a zone over them "
    "not wired to monitoring or without an isolation action",
    reads=("racks",),
)
def leak_detection_gaps(ctx: Context, loop: Any) -> Value:
    if not ctx.site.leak_detection:
        return Value.unknown(
            Message("the site file has no %(field)s zones", field="cooling.leak_detection")
        )
    rooms = set(_loop_rooms(ctx, loop))
    zones = [
        z
        for z in ctx.site.leak_detection.values()
        if z.wet_connections and (z.tcs_loop == loop.id or (z.room is not None and z.room in rooms))
    ]
    if not zones:
        return Value(1.0, Message("no leak-detection zone covers the wet connections of the loop"))
    gaps: list[str] = []
    for zone in sorted(zones, key=lambda z: z.id):
        for field in ("monitored", "isolation"):
            if getattr(zone, field) is None:
                return Value.unknown(
                    Message(
                        "leak-detection zone '%(zone)s' has no %(field)s", zone=zone.id, field=field
                    )
                )
        if not zone.monitored:
            gaps.append(Message("zone '%(zone)s' is not wired to monitoring", zone=zone.id))
        if zone.isolation == "none":
            gaps.append(Message("zone '%(zone)s' has no isolation action", zone=zone.id))
    if not gaps:
        return Value(
            0.0,
            Message(
                "%(count)s zones, each monitored with an isolation action",
                count=str(len(zones)),
            ),
        )
    return Value(float(len(gaps)), Join(gaps))
