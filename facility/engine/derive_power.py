"""Derived quantities of the power chain: racks, PDUs, distribution, sources.

Loads are apparent power: a rack's real power (at the electrical basis, peak by default)
divided by its power factor. 2N is judged after the failure: each side alone must carry the
whole rack, and each PDU of a side carries the rack divided by that side's PDUs.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from facility.engine.exact_sums import Partials, exact_sum, partials
from facility.engine.quantities import Context, Unknown, Value, known, quantity, scope
from facility.engine.reasons import no_rack_figure
from facility.messages import Message
from facility.model.site import Pdu, Rack, Site
from facility.model.topology import Moved
from facility.physics.electrical import (
    SQRT_THREE,
    apparent_power,
    circuit_apparent_power,
    continuous_capacity,
    line_current,
    line_currents,
    neutral_current,
    phase_spread,
    shelf_capacity_after_redundancy,
)


@scope("rack", "Rack")
def _racks(site: Site) -> Iterable[tuple[str, Any]]:
    return ((rack.id, rack) for rack in site.racks)


@scope("pdu", "Rack PDU")
def _pdus(site: Site) -> Iterable[tuple[str, Any]]:
    return ((pdu.id, pdu) for rack in site.racks for side in rack.pdus.values() for pdu in side)


@scope("distribution", "Distribution (busway, panel, RPP)")
def _distribution(site: Site) -> Iterable[tuple[str, Any]]:
    return site.distribution.items()


@scope("power_source", "Power source (UPS, utility, generator)")
def _sources(site: Site) -> Iterable[tuple[str, Any]]:
    return site.sources.items()


# Formulas in words (the symbols are not translated; the words around them are).
_SIDES_IN_SERVICE = Message("count of sides in service")
_SIDES_DECLARED = Message("count of sides declared")
_SUM_PDU_LOADS = Message("Σ PDU loads (normal)")
_NOTHING_BELOW = Message("no PDU in service below it")
_WORST_SIDE_LOSS = Message("max over the lost side of Σ surviving PDU loads")
_SUM_WITH_LOADS = Message("Σ PDU loads + Σ non-IT loads (normal)")
_WORST_SIDE_LOSS_WITH_LOADS = Message(
    "max over the lost side of (Σ surviving PDU loads + Σ non-IT loads on surviving feeds)"
)


_PASSIVE = Message("passive rack: no powered equipment")


def _basis_power(ctx: Context, rack: Rack) -> tuple[float | None, str]:
    basis = ctx.assumptions.electrical_power_basis
    figures = rack.type.figures
    if rack.type.is_passive:
        return 0.0, f"{basis}_power"
    value = figures.peak_power if basis == "peak" else figures.nominal_power
    return value, f"{basis}_power"


@quantity(
    "rack",
    "is_powered",
    "boolean",
    "True for a rack with powered equipment (false for a passive rack)",
    reads=(),
)
def is_powered(ctx: Context, rack: Rack) -> Value:
    return Value(float(not rack.type.is_passive))


@quantity(
    "rack",
    "rack_apparent_power",
    "apparent_power",
    "Rack load at the electrical basis, in VA (P / PF)",
    reads=(),
)
def rack_apparent_power(ctx: Context, rack: Rack) -> Value:
    if rack.type.is_passive:
        return Value(0.0, _PASSIVE, ())
    power, field = _basis_power(ctx, rack)
    pf = rack.type.figures.power_factor
    if power is None or pf is None:
        missing = field if power is None else "power_factor"
        return Value.unknown(no_rack_figure(rack, missing))
    symbol = "P_peak" if field == "peak_power" else "P_nom"
    return Value(
        apparent_power(power, pf),
        f"{symbol} / PF",
        ((symbol, power, "power"), ("PF", pf, "fraction")),
    )


@quantity("rack", "rack_real_power", "power", "Rack load at the electrical basis, in W", reads=())
def rack_real_power(ctx: Context, rack: Rack) -> Value:
    if rack.type.is_passive:
        return Value(0.0, _PASSIVE, ())
    power, field = _basis_power(ctx, rack)
    if power is None:
        return Value.unknown(no_rack_figure(rack, field))
    symbol = "P_peak" if field == "peak_power" else "P_nom"
    return Value(power, symbol, ((symbol, power, "power"),))


def _pdu_capacity(pdu: Pdu) -> Value:
    f = pdu.figures
    if f.voltage is None or f.phases is None or f.breaker_rating is None:
        return Value.unknown(
            Message(
                "PDU type '%(type)s' lacks %(first)s, %(second)s or %(third)s",
                type=pdu.type_id,
                first="voltage",
                second="phases",
                third="breaker_rating",
            )
        )
    return _capacity_of(f.voltage, f.breaker_rating, f.phases, pdu.derating)


@lru_cache(maxsize=4096, typed=True)  # typed: 230 and 230.0 print alike, but kept apart
def _capacity_of(voltage: float, breaker: float, phases: int, derating: float) -> Value:
    """A PDU circuit's continuous capacity: one Value shared by every PDU of that circuit and
    derating (a campus has 100,000s of PDUs and a few circuits)."""
    rated = circuit_apparent_power(voltage, breaker, phases)
    formula, volts = ("√3 · V_LL · I · DF", "V_LL") if phases == 3 else ("V · I · DF", "V")
    return Value(
        continuous_capacity(rated, derating),
        formula,
        ((volts, voltage, "voltage"), ("I", breaker, "current"), ("DF", derating, "fraction")),
    )


def pdu_inputs(rack: Rack, pdu: Pdu) -> int:
    """The rack's power inputs (PSU inlets) on ``pdu``: the side's inputs spread over its
    declared PDUs in turn; one per PDU when the rack type does not state its inputs."""
    per_side = rack.type.figures.power_inputs_per_side
    if per_side is None:
        return 1
    return len(range(pdu.position_on_side, per_side, pdu.pdus_on_side))


def _stated_inputs(rack: Rack) -> bool:
    return rack.type.figures.power_inputs_per_side is not None


@quantity(
    "rack",
    "weakest_side_capacity",
    "apparent_power",
    "Continuous capacity of the rack's weakest power side",
    reads=("pdus", "pdus.pdu_capacity"),
)
def weakest_side_capacity(ctx: Context, rack: Rack) -> Value:
    """A side carries the rack until its most-loaded PDU is full: with m of the side's n_in
    inputs on that PDU, the side carries C · n_in / m (n · C for one input per PDU)."""
    if not rack.pdus:
        return Value.unknown(Message("rack '%(rack)s' has no PDUs", rack=rack.id))
    best: tuple[float, str, Value, int, int, int] | None = None
    for side, pdus in sorted(rack.pdus.items()):
        inputs = [pdu_inputs(rack, pdu) for pdu in pdus]
        carrying = sum(inputs)
        total = float("inf")
        first: Value | None = None
        for pdu, m in zip(pdus, inputs, strict=True):
            capacity = ctx.get("pdu", "pdu_capacity", pdu)
            capacity_value = known(capacity)
            first = first or capacity
            if m:
                total = min(total, capacity_value * carrying / m)
        if not carrying:
            total = 0.0  # no input of the rack on this side's PDUs: the side carries nothing
        if first is not None and (best is None or total < best[0]):
            best = (total, side, first, len(pdus), carrying, max(inputs))
    assert best is not None
    total, side, first, count, carrying, most = best
    if not _stated_inputs(rack) or (most == 1 and carrying == count):
        return Value(
            total,
            Message("side %(side)s: n · %(formula)s", side=side, formula=first.formula),
            (("n", count, "count"), *first.inputs),
        )
    return Value(
        total,
        Message("side %(side)s: n_in / m · %(formula)s", side=side, formula=first.formula),
        (("n_in", carrying, "count"), ("m", most, "count"), *first.inputs),
    )


@quantity(
    "rack", "power_sides", "count", "Number of power sides (A, B, …) in service", reads=("pdus",)
)
def power_sides(ctx: Context, rack: Rack) -> Value:
    return Value(float(len(rack.pdus)), _SIDES_IN_SERVICE, ())


@quantity(
    "rack",
    "power_sides_declared",
    "count",
    "Power sides declared, in service or lost",
    reads=("pdus",),
)
def power_sides_declared(ctx: Context, rack: Rack) -> Value:
    return Value(float(len(rack.pdus) + rack.sides_lost), _SIDES_DECLARED, ())


@quantity(
    "pdu",
    "pdu_capacity",
    "apparent_power",
    "Continuous capacity of the PDU's inlet circuit",
    reads=(),
)
def pdu_capacity(ctx: Context, pdu: Pdu) -> Value:
    return _pdu_capacity(pdu)


def _rack_of(ctx: Context, pdu: Pdu) -> Rack:
    return ctx.topology.rack_by_id[pdu.rack]


def _share(rack: Rack, pdu: Pdu, after_side_loss: bool) -> tuple[float, str, tuple[Any, ...]]:
    """The share of the rack's load on ``pdu``, with its formula and inputs.

    The rack's power supplies share its load equally. Normal operation: over every input in
    service; after the other sides are lost: over this side's. Without stated inputs, each
    side takes an equal share, split equally over the side's PDUs."""
    side = rack.pdus[pdu.side]
    if not _stated_inputs(rack):
        n = len(side)
        if after_side_loss:
            return 1.0 / n, "S_rack / n_side", (("n_side", n, "count"),)
        sides = len(rack.pdus)
        return (
            1.0 / (sides * n),
            "S_rack / (n_sides · n_side)",
            (("n_sides", sides, "count"), ("n_side", n, "count")),
        )
    m = pdu_inputs(rack, pdu)
    n_in = _side_inputs(rack, side)
    if not after_side_loss:
        n_in = sum(_side_inputs(rack, group) for group in rack.pdus.values())
    share = m / n_in if n_in else 0.0
    return share, "S_rack · m / n_in", _share_inputs(m, n_in)


@lru_cache(maxsize=4096)
def _share_inputs(m: int, n_in: int) -> tuple[Any, ...]:
    """The inputs of a share, shared by every PDU with that share (whole counts)."""
    return (("m", m, "count"), ("n_in", n_in, "count"))


def _side_inputs(rack: Rack, side: list[Pdu]) -> int:
    """The rack's inputs on a side's PDUs in service: all of them while every PDU declared on
    the side is in service (the common case, counted without a walk over the side)."""
    per_side = rack.type.figures.power_inputs_per_side
    assert per_side is not None
    if len(side) == side[0].pdus_on_side:
        return per_side
    return sum(pdu_inputs(rack, p) for p in side)


def _pdu_load(ctx: Context, pdu: Pdu, after_side_loss: bool) -> Value:
    rack = _rack_of(ctx, pdu)
    load = known(ctx.get("rack", "rack_apparent_power", rack))
    share, formula, inputs = _share(rack, pdu, after_side_loss)
    return Value(load * share, formula, (("S_rack", load, "apparent_power"), *inputs))


@quantity(
    "pdu",
    "pdu_load",
    "apparent_power",
    "PDU load in normal operation (rack shared by all its power inputs)",
    reads=("rack.rack_apparent_power", "rack:pdus"),
)
def pdu_load(ctx: Context, pdu: Pdu) -> Value:
    return _pdu_load(ctx, pdu, after_side_loss=False)


@quantity(
    "pdu",
    "pdu_load_after_side_loss",
    "apparent_power",
    "PDU load after the rack's other side(s) are lost",
    reads=("rack.rack_apparent_power", "rack:pdus"),
)
def pdu_load_after_side_loss(ctx: Context, pdu: Pdu) -> Value:
    return _pdu_load(ctx, pdu, after_side_loss=True)


def _load_of(ctx: Context, pdu: Pdu, after_side_loss: bool) -> Value:
    """:func:`_pdu_load`, kept in the context's table of ``pdu_load`` (or
    ``pdu_load_after_side_loss``): computed once per context, however many of its banks,
    lines and the sums above it read it (Unknown raised, as :func:`_pdu_load` raises it)."""
    table, _ = ctx.table("pdu", _LOAD_AFTER_SIDE_LOSS if after_side_loss else _LOAD)
    found = table.get(pdu.id)
    if found is None:
        found = table[pdu.id] = _pdu_load(ctx, pdu, after_side_loss)
    return found


_LOAD, _LOAD_AFTER_SIDE_LOSS = "pdu_load", "pdu_load_after_side_loss"  # the quantities' names


def pdu_real_load(ctx: Context, pdu: Pdu, after_side_loss: bool = False) -> float | None:
    """The real power [W] on ``pdu`` (its share of the rack at the electrical basis), or None
    when the rack's power is unknown: what the sources' kW checks and the account add up.

    In normal operation made once per PDU (the sources' sums, the account and the power
    account each read every PDU's): kept as the normal share a failure scenario reads."""
    if ctx.baseline is None and not after_side_loss:
        key = ("normal share", "pdu_real_load", pdu.id)
        memo = ctx.memo
        if key in memo:
            return memo[key]  # type: ignore[no-any-return]
        found = memo[key] = _real_load(ctx, pdu, False)
        return found
    return _real_load(ctx, pdu, after_side_loss)


def _real_load(ctx: Context, pdu: Pdu, after_side_loss: bool) -> float | None:
    rack = _rack_of(ctx, pdu)
    power = ctx.get("rack", "rack_real_power", rack).value
    if power is None:
        return None
    return power * _share(rack, pdu, after_side_loss)[0]


def _aggregate(ctx: Context, element_id: str, per_pdu: str) -> Value:
    """Σ of a per-PDU load over the PDUs below the element: ``pdu_load`` or
    ``pdu_load_after_side_loss`` (kVA), ``pdu_real_load`` or ``pdu_real_load_after_side_loss``
    (kW, without a Value per PDU: a campus has 100,000s), plus the non-IT loads fed from
    below it (:func:`_feed_shares`)."""
    after = per_pdu.endswith("_after_side_loss")
    real = per_pdu.startswith("pdu_real_load")
    feeds = _feed_shares(ctx, element_id, real, after)
    if isinstance(feeds, Value):
        return feeds
    by_feed, n_loads = feeds
    moved_only = ctx.topology.moved is not None and not ctx.topology.load_feeds_out
    if moved_only and ctx.baseline is not None and not after:
        found = _aggregate_moved(ctx, element_id, per_pdu, ctx.baseline)
        if found is not None:
            return found
    pdus = ctx.topology.pdus_in_service_below(element_id)
    if not pdus and not n_loads:  # it carries nothing: judged at 0, never skipped
        return Value(0.0, _NOTHING_BELOW, ())
    # Exactly rounded sums (:mod:`facility.engine.exact_sums`): the same loads give the same
    # figure whatever order the PDUs are listed in.
    terms: list[float] = []
    by_side: dict[str, list[float]] = {}
    for pdu in pdus:
        if real:
            value = pdu_real_load(ctx, pdu, after)
            if value is None:
                return ctx.get("rack", "rack_real_power", _rack_of(ctx, pdu))
        else:
            value = known(ctx.get("pdu", per_pdu, pdu))
        terms.append(value)
        if after:
            by_side.setdefault(pdu.side, []).append(value)
    for side, value in by_feed.items():
        terms.append(value)
        if after:
            by_side.setdefault(side, []).append(value)
    counts: tuple[Any, ...] = (("n_PDU", len(pdus), "count"),)
    if n_loads:
        counts = (*counts, ("n_load", n_loads, "count"))
    total = exact_sum(terms)
    if not after:
        return Value(total, _SUM_WITH_LOADS if n_loads else _SUM_PDU_LOADS, counts)
    # One side is lost: its PDUs below this element drop out, the others carry whole racks
    # (and a non-IT load falls wholly on its feeds of the other sides).
    # The worst single loss is the side that leaves the most load here.
    worst = max(total - exact_sum(by_side.get(lost, ())) for lost in ctx.topology.power_sides)
    return Value(worst, _WORST_SIDE_LOSS_WITH_LOADS if n_loads else _WORST_SIDE_LOSS, counts)


def _feed_shares(
    ctx: Context, element_id: str, real: bool, after: bool
) -> tuple[dict[str, float], int] | Value:
    """The non-IT loads fed from below ``element_id``, by side, and how many feeds: in normal
    operation a load's real power P = count · power is shared evenly over its feeds in
    service; after a side loss each feed is taken to carry it whole (a load of two feeds: the
    survivor carries it; of three or more: the conservative reading). Apparent power is
    P / PF; a load without a power factor makes the apparent sum unknown."""
    feeds = ctx.topology.feeds_below(element_id)
    by_side: dict[str, float] = {}
    for load, side in feeds:
        power = load.power * load.count
        share = power if after else power / len(ctx.topology.feeds_in_service(load))
        if not real:
            if load.power_factor is None:
                return Value.unknown(
                    Message("load '%(load)s' has no %(field)s", load=load.id, field="power_factor")
                )
            share /= load.power_factor
        by_side[side] = by_side.get(side, 0.0) + share
    return by_side, len(feeds)


def _aggregate_moved(ctx: Context, element_id: str, per_pdu: str, normal: Context) -> Value | None:
    """``_aggregate`` on a failure overlay that changes a few PDUs' loads (a rack loses a
    side; no non-IT load loses a feed): the partials of the normal audit's sum (its PDUs' and
    non-IT loads' shares) with each changed PDU's old share taken out and its new one put in,
    exactly rounded — the sum a walk over everything below would give, without the walk (a
    UPS of a campus feeds 10,000s). None when a share is unknown: then the whole sum is made
    again."""
    moved = ctx.topology.moved
    assert moved is not None
    changed = moved.below.get(element_id, ())
    if 2 * len(changed) >= len(ctx.topology.pdus_below.get(element_id, ())):
        return None  # most of what it feeds changed (its own loss, its source's): sum anew
    scope = "distribution" if element_id in normal.site.distribution else "power_source"
    element = normal.site.distribution.get(element_id) or normal.site.sources[element_id]
    base = normal.get(scope, _SUM_OF[scope, per_pdu], element)  # once per element
    if base.value is None or base.formula not in (_SUM_PDU_LOADS, _SUM_WITH_LOADS):
        return None
    kept = _normal_partials(normal, element_id, per_pdu)
    if kept is None:
        return None
    terms, count = list(kept), int(base.inputs[0][1])
    for pdu in changed:
        before = _normal_share(normal, pdu, per_pdu)
        gone = pdu.id in moved.lost
        after = None if gone else _pdu_share(ctx, pdu, per_pdu)
        if before is None or (after is None and not gone):
            return None
        terms.append(-before)
        if after is not None:
            terms.append(after)
        count -= gone
    if count == 0 and base.formula is _SUM_PDU_LOADS:
        return Value(0.0, _NOTHING_BELOW, ())
    counts = (("n_PDU", count, "count"), *base.inputs[1:])  # (and n_load, as it was)
    return Value(exact_sum(terms), base.formula, counts)


def _normal_partials(normal: Context, element_id: str, per_pdu: str) -> Partials | None:
    """The partials of the normal sum of ``per_pdu`` over the PDUs below the element, once per
    audit (None when a share is unknown or the sum is beyond any float)."""
    key = ("load partials", per_pdu, element_id)
    if key in normal.memo:
        return normal.memo[key]  # type: ignore[no-any-return]
    shares = [
        _normal_share(normal, pdu, per_pdu)
        for pdu in normal.topology.pdus_in_service_below(element_id)
    ]
    feeds = _feed_shares(normal, element_id, per_pdu.startswith("pdu_real_load"), False)
    if isinstance(feeds, Value) or None in shares:
        found = normal.memo[key] = None
        return found
    found = normal.memo[key] = partials([*shares, *feeds[0].values()])  # type: ignore[list-item]
    return found


# The quantity that is a sum of a per-PDU load, by the scope of the element.
_SUM_OF = {
    ("distribution", "pdu_load"): "distribution_load",
    ("power_source", "pdu_load"): "source_load",
    ("power_source", "pdu_real_load"): "source_real_load",
}


def _pdu_share(ctx: Context, pdu: Pdu, per_pdu: str) -> float | None:
    if per_pdu.startswith("pdu_real_load"):
        return pdu_real_load(ctx, pdu)
    return ctx.get("pdu", per_pdu, pdu).value


def _normal_share(normal: Context, pdu: Pdu, per_pdu: str) -> float | None:
    """:func:`_pdu_share` in the normal audit, once per PDU (a rack-side loss takes each of its
    PDUs' normal share out of the sum of every element above it)."""
    key = ("normal share", per_pdu, pdu.id)
    if key in normal.memo:
        return normal.memo[key]  # type: ignore[no-any-return]
    found = normal.memo[key] = _pdu_share(normal, pdu, per_pdu)
    return found


@quantity(
    "distribution",
    "distribution_load",
    "apparent_power",
    "Load in normal operation",
    reads=("below", "pdus_below.pdu_load"),
)
def distribution_load(ctx: Context, element: Any) -> Value:
    return _aggregate(ctx, element.id, "pdu_load")


@quantity(
    "distribution",
    "distribution_load_after_side_loss",
    "apparent_power",
    "Load after the other side is lost",
    reads=("below", "pdus_below.pdu_load_after_side_loss"),
)
def distribution_load_after_side_loss(ctx: Context, element: Any) -> Value:
    return _aggregate(ctx, element.id, "pdu_load_after_side_loss")


@quantity(
    "distribution",
    "distribution_capacity",
    "apparent_power",
    "Continuous capacity (rating × derating)",
    reads=(),
)
def distribution_capacity(ctx: Context, element: Any) -> Value:
    derating = (
        element.derating
        if element.derating is not None
        else ctx.site.conventions.continuous_load_derating
    )
    rated = circuit_apparent_power(element.voltage, element.rating, element.phases)
    three_phase = element.phases == 3
    formula, volts = ("√3 · V_LL · I · DF", "V_LL") if three_phase else ("V · I · DF", "V")
    return Value(
        continuous_capacity(rated, derating),
        formula,
        (
            (volts, element.voltage, "voltage"),
            ("I", element.rating, "current"),
            ("DF", derating, "fraction"),
        ),
    )


@quantity(
    "power_source",
    "source_load",
    "apparent_power",
    "Load in normal operation",
    reads=("below", "pdus_below.pdu_load"),
)
def source_load(ctx: Context, source: Any) -> Value:
    return _aggregate(ctx, source.id, "pdu_load")


@quantity(
    "power_source",
    "source_load_after_side_loss",
    "apparent_power",
    "Load after the other side is lost",
    reads=("below", "pdus_below.pdu_load_after_side_loss"),
)
def source_load_after_side_loss(ctx: Context, source: Any) -> Value:
    return _aggregate(ctx, source.id, "pdu_load_after_side_loss")


@quantity(
    "power_source",
    "source_real_load",
    "power",
    "Real power in normal operation (kW)",
    reads=("below", "pdus_below.pdu_load"),
)
def source_real_load(ctx: Context, source: Any) -> Value:
    return _aggregate(ctx, source.id, "pdu_real_load")


@quantity(
    "power_source",
    "source_real_load_after_side_loss",
    "power",
    "Real power after the other side is lost (kW)",
    reads=("below", "pdus_below.pdu_load_after_side_loss"),
)
def source_real_load_after_side_loss(ctx: Context, source: Any) -> Value:
    return _aggregate(ctx, source.id, "pdu_real_load_after_side_loss")


# Sources rated in kVA only: without a kW rating or power factor, kW ≤ the kVA rating.
KVA_ONLY_KINDS = ("transformer", "utility")
_KVA_ONLY = Message("S_rated (rated in kVA only: kW ≤ kVA)")


def _no_rating(source: Any, missing: str) -> Value:
    return Value.unknown(
        Message(
            "source '%(source)s' has no %(field)s or %(other)s",
            source=source.id,
            field=missing,
            other="power_factor",
        )
    )


@quantity(
    "power_source", "source_capacity", "apparent_power", "Rated capacity of the source", reads=()
)
def source_capacity(ctx: Context, source: Any) -> Value:
    if source.capacity is not None:
        return Value(source.capacity, "S_rated", (("S_rated", source.capacity, "apparent_power"),))
    if source.modules is not None:
        m = source.modules
        return Value(
            m.installed * m.capacity,
            "n_installed · S_module",
            (("n_installed", m.installed, "count"), ("S_module", m.capacity, "apparent_power")),
        )
    if source.real_power_capacity is not None and source.power_factor is not None:
        return Value(
            source.real_power_capacity / source.power_factor,
            "P_rated / PF",
            (
                ("P_rated", source.real_power_capacity, "power"),
                ("PF", source.power_factor, "fraction"),
            ),
        )
    return Value.unknown(
        Message(
            "source '%(source)s' has no %(field)s or %(other)s",
            source=source.id,
            field="capacity",
            other="modules",
        )
    )


@quantity(
    "power_source",
    "source_real_capacity",
    "power",
    "Rated real power of the source (kW rating, else kVA rating × power factor)",
    reads=("self.source_capacity",),
)
def source_real_capacity(ctx: Context, source: Any) -> Value:
    if source.real_power_capacity is not None:
        return Value(
            source.real_power_capacity,
            "P_rated",
            (("P_rated", source.real_power_capacity, "power"),),
        )
    rated = ctx.get("power_source", "source_capacity", source)
    rated_value = known(rated)
    if source.power_factor is None:
        if source.kind in KVA_ONLY_KINDS:
            # A transformer or utility feed is rated in kVA only: its real power is bounded by
            # that rating (kW ≤ kVA at any load power factor).
            return Value(rated_value, _KVA_ONLY, rated.inputs)
        return _no_rating(source, "real_power_capacity")
    return Value(
        rated_value * source.power_factor,
        Message("(%(formula)s) · PF", formula=rated.formula),
        (*rated.inputs, ("PF", source.power_factor, "fraction")),
    )


@quantity(
    "power_source",
    "source_capacity_after_module_loss",
    "apparent_power",
    "Module capacity with one module failed",
    reads=(),
)
def source_capacity_after_module_loss(ctx: Context, source: Any) -> Value:
    m = source.modules
    if m is None:
        return Value.unknown(
            Message("source '%(source)s' declares no %(field)s", source=source.id, field="modules")
        )
    return Value(
        (m.installed - 1) * m.capacity,
        "(n_installed − 1) · S_module",
        (("n_installed", m.installed, "count"), ("S_module", m.capacity, "apparent_power")),
    )


@quantity(
    "power_source",
    "source_capacity_of_required_modules",
    "apparent_power",
    "Capacity of the modules the source declares its load needs (N = required)",
    reads=(),
)
def source_capacity_of_required_modules(ctx: Context, source: Any) -> Value:
    m = source.modules
    if m is None:
        return Value.unknown(
            Message("source '%(source)s' declares no %(field)s", source=source.id, field="modules")
        )
    return Value(
        m.required * m.capacity,
        "n_required · S_module",
        (("n_required", m.required, "count"), ("S_module", m.capacity, "apparent_power")),
    )


@quantity(
    "power_source",
    "source_real_capacity_after_module_loss",
    "power",
    "Real power of the modules with one module failed ((n − 1) · S_module · PF)",
    reads=(),
)
def source_real_capacity_after_module_loss(ctx: Context, source: Any) -> Value:
    m = source.modules
    if m is None:
        return Value.unknown(
            Message("source '%(source)s' declares no %(field)s", source=source.id, field="modules")
        )
    if source.power_factor is None:
        return Value.unknown(
            Message("source '%(source)s' has no %(field)s", source=source.id, field="power_factor")
        )
    return Value(
        (m.installed - 1) * m.capacity * source.power_factor,
        "(n_installed − 1) · S_module · PF",
        (
            ("n_installed", m.installed, "count"),
            ("S_module", m.capacity, "apparent_power"),
            ("PF", source.power_factor, "fraction"),
        ),
    )


@quantity(
    "power_source", "has_modules", "boolean", "True when the source declares modules", reads=()
)
def has_modules(ctx: Context, source: Any) -> Value:
    return Value(float(source.modules is not None))


# --- which side an element belongs to -------------------------------------------------------


def upstream(ctx: Context, pdu: Pdu) -> tuple[Any, ...]:
    """The distribution elements and source above ``pdu``, nearest first."""
    return ctx.topology.upstream(pdu)


@quantity(
    "pdu",
    "upstream_declares_side",
    "boolean",
    "True when an element above the PDU declares its power side",
    reads=(),
)
def upstream_declares_side(ctx: Context, pdu: Pdu) -> Value:
    return Value(float(any(e.side is not None for e in upstream(ctx, pdu))))


@lru_cache(maxsize=4096)
def _all_on_side(side: str) -> Value:
    """0 conflicts, every element above on ``side``: one Value shared by the side's PDUs."""
    return Value(0.0, Message("every element above is on side %(side)s", side=side), ())


@quantity(
    "pdu",
    "upstream_side_conflicts",
    "count",
    "Elements above the PDU declared for another power side than the PDU's",
    reads=(),
)
def upstream_side_conflicts(ctx: Context, pdu: Pdu) -> Value:
    other = [e for e in upstream(ctx, pdu) if e.side is not None and e.side != pdu.side]
    if not other:
        return _all_on_side(pdu.side)
    return Value(
        float(len(other)),
        Message(
            "%(element)s is declared for side %(other)s, the PDU is on side %(side)s",
            element=other[0].id,
            other=other[0].side,
            side=pdu.side,
        ),
        (),
    )


# --- outlet banks and phases ------------------------------------------------------------------
#
# A PDU's load (its share of the rack, pdu_load / pdu_load_after_side_loss) is split over its
# outlet banks: in proportion to the rack supplies each bank states, evenly otherwise. A bank
# wired line-to-neutral on a three-phase PDU sees V_LL / √3; line-to-line (or on a
# single-phase PDU), the PDU's voltage. The line currents are the phasor sums of the bank
# currents (facility.physics.electrical.line_currents), all loads at the rack's one power
# factor. Upstream, a three-phase PDU without banks is taken as balanced at its inlet (its
# own bank check is not evaluated); a single-phase PDU needs its inlet_phase.

_PHASE_SLOT = {
    "L1": (0, 0), "L2": (0, 1), "L3": (0, 2), "L1-L2": (1, 0), "L2-L3": (1, 1), "L3-L1": (1, 2),
}  # fmt: skip  # connection -> (0: line-to-neutral, 1: line-to-line; index of the phase)
_MAX_LINE = Message("max over L1, L2, L3 of the phasor sum of the bank currents")
_DEVIATION = Message("max(|I_1 − Ī|, |I_2 − Ī|, |I_3 − Ī|)")
_AVERAGE = "(I_1 + I_2 + I_3) / 3"
_NEUTRAL = "|I_1N + I_2N · a² + I_3N · a|"


def _no_banks(pdu: Pdu) -> Value:
    return _no_banks_of(pdu.type_id)


@lru_cache(maxsize=4096)
def _no_banks_of(type_id: str) -> Value:
    """Unknown, the PDU type states no banks: one Value shared by the type's PDUs."""
    return Value.unknown(
        Message("PDU type '%(type)s' has no %(field)s", type=type_id, field="banks")
    )


def _lacks_circuit(pdu: Pdu) -> Value | None:
    f = pdu.figures
    if f.voltage is None or f.phases is None:
        return Value.unknown(
            Message(
                "PDU type '%(type)s' lacks %(first)s or %(second)s",
                type=pdu.type_id,
                first="voltage",
                second="phases",
            )
        )
    return None


def _bank_voltage(pdu: Pdu, phase: str) -> float:
    f = pdu.figures
    assert f.voltage is not None
    if f.phases == 3 and "-" not in phase:
        return f.voltage / SQRT_THREE
    return f.voltage


def _bank_weights(pdu: Pdu) -> list[float]:
    banks = pdu.figures.banks or []
    if all(bank.supplies is not None for bank in banks):
        total = sum(bank.supplies or 0 for bank in banks)
        return [(bank.supplies or 0) / total for bank in banks]
    return [1.0 / len(banks)] * len(banks)


def _bank_currents(ctx: Context, pdu: Pdu, after_side_loss: bool) -> tuple[float, list[float]]:
    """The PDU's load [VA] and each bank's current [A]; Unknown when an input is missing."""
    missing = _lacks_circuit(pdu)
    if missing is not None:
        raise Unknown(missing)
    if not pdu.figures.banks:
        raise Unknown(_no_banks(pdu))
    load = known(_load_of(ctx, pdu, after_side_loss))
    currents = [
        line_current(load * w, _bank_voltage(pdu, bank.phase), 1)
        for bank, w in zip(pdu.figures.banks, _bank_weights(pdu), strict=True)
    ]
    return load, currents


def _worst_bank(ctx: Context, pdu: Pdu) -> tuple[int, float, float]:
    """(index, current, load [VA]) of the bank nearest its derated breaker rating after the
    rack's other side is lost."""
    load, currents = _bank_currents(ctx, pdu, after_side_loss=True)
    banks = pdu.figures.banks or []
    index = max(
        range(len(banks)), key=lambda i: currents[i] / (pdu.derating * banks[i].breaker_rating)
    )
    return index, currents[index], load


@quantity(
    "pdu",
    "has_outlet_banks",
    "boolean",
    "True when the PDU type declares its outlet banks",
    reads=(),
)
def has_outlet_banks(ctx: Context, pdu: Pdu) -> Value:
    return Value(float(bool(pdu.figures.banks)))


@quantity(
    "pdu",
    "bank_check_applies",
    "boolean",
    "False only for a PDU type that declares it has no outlet banks (banks: [])",
    reads=(),
)
def bank_check_applies(ctx: Context, pdu: Pdu) -> Value:
    return Value(float(pdu.figures.banks != []))


@quantity(
    "pdu",
    "has_three_phase_banks",
    "boolean",
    "True for a three-phase PDU that declares its outlet banks",
    reads=(),
)
def has_three_phase_banks(ctx: Context, pdu: Pdu) -> Value:
    return Value(float(bool(pdu.figures.banks) and pdu.figures.phases == 3))


@quantity(
    "pdu",
    "worst_bank_current_after_side_loss",
    "current",
    "Current of the outlet bank nearest its derated breaker after the rack's other side is lost",
    reads=("rack.rack_apparent_power", "rack:pdus"),
)
def worst_bank_current_after_side_loss(ctx: Context, pdu: Pdu) -> Value:
    index, current, load = _worst_bank(ctx, pdu)
    bank = (pdu.figures.banks or [])[index]
    w = _bank_weights(pdu)[index]
    return Value(
        current,
        Message("bank %(bank)s: S_PDU · w / V_bank", bank=bank.id),
        (
            ("S_PDU", load, "apparent_power"),
            ("w", w, "fraction"),
            ("V_bank", _bank_voltage(pdu, bank.phase), "voltage"),
        ),
    )


@quantity(
    "pdu",
    "worst_bank_rating",
    "current",
    "Derated breaker rating of the outlet bank nearest its limit after a side is lost",
    reads=("rack.rack_apparent_power", "rack:pdus"),
)
def worst_bank_rating(ctx: Context, pdu: Pdu) -> Value:
    index, _, _ = _worst_bank(ctx, pdu)
    bank = (pdu.figures.banks or [])[index]
    return Value(
        pdu.derating * bank.breaker_rating,
        Message("bank %(bank)s: DF · I_bank", bank=bank.id),
        (("DF", pdu.derating, "fraction"), ("I_bank", bank.breaker_rating, "current")),
    )


def _pdu_phase_currents(
    ctx: Context, pdu: Pdu, after_side_loss: bool, *, balanced_without_banks: bool = False
) -> tuple[list[float], list[float]]:
    """The PDU's line-to-neutral and line-to-line currents on L1, L2, L3 [A]."""
    missing = _lacks_circuit(pdu)
    if missing is not None:
        raise Unknown(missing)
    f = pdu.figures
    assert f.voltage is not None
    slots: tuple[list[float], list[float]] = ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    if f.phases == 1:
        if f.inlet_phase is None:
            raise Unknown(
                Value.unknown(
                    Message(
                        "single-phase PDU type '%(type)s' has no %(field)s",
                        type=pdu.type_id,
                        field="inlet_phase",
                    )
                )
            )
        load = known(_load_of(ctx, pdu, after_side_loss))
        kind, index = _PHASE_SLOT[f.inlet_phase]
        slots[kind][index] += line_current(load, f.voltage, 1)
        return slots
    if not f.banks and balanced_without_banks:
        load = known(_load_of(ctx, pdu, after_side_loss))
        current = line_current(load, f.voltage, 3)
        return [current] * 3, [0.0] * 3
    _, currents = _bank_currents(ctx, pdu, after_side_loss)
    for bank, current in zip(f.banks or [], currents, strict=True):
        kind, index = _PHASE_SLOT[bank.phase]
        slots[kind][index] += current
    return slots


def _line_inputs(lines: tuple[float, float, float]) -> tuple[Any, ...]:
    return tuple((f"I_{i}", value, "current") for i, value in enumerate(lines, start=1))


@quantity(
    "pdu",
    "worst_phase_current_after_side_loss",
    "current",
    "Current of the PDU's most loaded line after the rack's other side is lost",
    reads=("rack.rack_apparent_power", "rack:pdus"),
)
def worst_phase_current_after_side_loss(ctx: Context, pdu: Pdu) -> Value:
    ln, ll = _pdu_phase_currents(ctx, pdu, after_side_loss=True)
    lines = line_currents(ln, ll)
    return Value(max(lines), _MAX_LINE, _line_inputs(lines))


@quantity(
    "pdu",
    "phase_current_rating",
    "current",
    "Derated rating of the PDU's inlet breaker, per line",
    reads=(),
)
def phase_current_rating(ctx: Context, pdu: Pdu) -> Value:
    rating = pdu.figures.breaker_rating
    if rating is None:
        return Value.unknown(
            Message(
                "PDU type '%(type)s' has no %(field)s", type=pdu.type_id, field="breaker_rating"
            )
        )
    return Value(
        pdu.derating * rating,
        "DF · I",
        (("DF", pdu.derating, "fraction"), ("I", rating, "current")),
    )


def _deviation(ln: list[float], ll: list[float]) -> Value:
    lines = line_currents(ln, ll)
    return Value(phase_spread(lines)[1], _DEVIATION, _line_inputs(lines))


def _deviation_of(ctx: Context, ln: list[float], ll: list[float]) -> Value:
    """:func:`_deviation`, once per set of currents (``ctx.memo``): identical racks' PDUs, and a
    busway's rack-side losses that leave it the same sums, share one. The Value holds only
    the line currents' magnitudes, so currents equal as numbers give the same one."""
    key = ("phase deviation", *ln, *ll)
    found: Value | None = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = _deviation(ln, ll)
    return found


def _average(deviation: Value) -> Value:
    """The average of the line currents the deviation's working holds (I_1, I_2, I_3)."""
    known(deviation)
    lines = tuple(value for _, value, _ in deviation.inputs)
    return Value(phase_spread(lines)[0], _AVERAGE, deviation.inputs)


def _neutral(ln: list[float]) -> Value:
    return Value(
        neutral_current(*ln),
        _NEUTRAL,
        tuple((f"I_{i}N", value, "current") for i, value in enumerate(ln, start=1)),
    )


@quantity(
    "pdu",
    "pdu_phase_deviation",
    "current",
    "Largest deviation of a line current from the average of the three, normal operation",
    reads=("rack.rack_apparent_power", "rack:pdus"),
)
def pdu_phase_deviation(ctx: Context, pdu: Pdu) -> Value:
    return _deviation_of(ctx, *_pdu_phase_currents(ctx, pdu, after_side_loss=False))


@quantity(
    "pdu",
    "pdu_phase_average",
    "current",
    "Average of the PDU's three line currents in normal operation",
    reads=("self.pdu_phase_deviation",),
)
def pdu_phase_average(ctx: Context, pdu: Pdu) -> Value:
    return _average(ctx.get("pdu", "pdu_phase_deviation", pdu))


@quantity(
    "pdu",
    "pdu_neutral_current",
    "current",
    "Neutral current of the PDU's line-to-neutral banks in normal operation (fundamental)",
    reads=("rack.rack_apparent_power", "rack:pdus"),
)
def pdu_neutral_current(ctx: Context, pdu: Pdu) -> Value:
    ln, _ = _pdu_phase_currents(ctx, pdu, after_side_loss=False)
    return _neutral(ln)


def _element_phase_currents(ctx: Context, element: Any) -> tuple[list[float], list[float]]:
    """The line-to-neutral and line-to-line currents [A] of the PDUs in service below: each
    the exactly rounded sum of their currents (:mod:`facility.engine.exact_sums`), so the
    same currents give the same figures whatever order the PDUs are listed in.

    A failure scenario (``ctx.baseline``) that moved a few PDUs' loads on the normal power tree
    (``topology.moved``) starts from the normal sums' partials (:func:`_moved_phase_currents`);
    otherwise each PDU's contribution is summed: a changed PDU's recomputed, every other PDU's
    the normal audit's. Either way the same figures as a full re-audit."""
    base = ctx.baseline
    moved = ctx.topology.moved
    changed: frozenset[str] = frozenset()
    if base is not None and moved is not None:
        found = _moved_phase_currents(ctx, element.id, base, moved)
        if found is not None:
            return found
        changed = frozenset(p.id for p in moved.below.get(element.id, ()))
    contributions = []
    for pdu in ctx.topology.pdus_in_service_below(element.id):
        if base is None:
            contribution = _normal_contribution(ctx, pdu)
        elif pdu.id in changed or pdu.id not in base.site.pdus:
            contribution = _pdu_phase_currents(ctx, pdu, False, balanced_without_banks=True)
        else:
            contribution = _normal_contribution(base, pdu)
        contributions.append(_flat(contribution))
    sums = [exact_sum(column) for column in zip(*contributions, strict=True)] or [0.0] * 6
    return sums[:3], sums[3:]


Currents = tuple[float, float, float, float, float, float]  # I_1N, I_2N, I_3N, I_12, I_23, I_31


def _moved_phase_currents(
    ctx: Context, element_id: str, normal: Context, moved: Moved
) -> tuple[list[float], list[float]] | None:
    """The element's line currents in a scenario that changed the PDUs ``moved.below`` of it
    (lost, or carrying more of their rack): the normal sums' partials with each changed PDU's
    normal currents taken out and its new ones put in, exactly rounded — the same floats as a
    walk over every PDU in service below, with only the changed PDUs' currents computed.
    None when this is not such a scenario (another power tree, PDUs out of service it did not
    change) or a normal contribution is unknown: then every PDU is summed."""
    topology = ctx.topology
    if (
        topology.pdus_below is not normal.topology.pdus_below
        or normal.topology.pdus_out_of_service
        # every PDU out of service is one the scenario lost (``moved.lost`` is part of them)
        or len(topology.pdus_out_of_service) != len(moved.lost)
    ):
        return None
    columns = _normal_phase_partials(normal, element_id)
    if columns is None:
        return None
    terms = [list(column) for column in columns]
    for pdu in moved.below.get(element_id, ()):
        for column, current in zip(terms, _flat(_normal_contribution(normal, pdu)), strict=True):
            column.append(-current)
        if pdu.id not in moved.lost:
            now = _pdu_phase_currents(ctx, pdu, False, balanced_without_banks=True)
            for column, current in zip(terms, _flat(now), strict=True):
                column.append(current)
    sums = [exact_sum(column) for column in terms]
    return sums[:3], sums[3:]


def _normal_phase_partials(ctx: Context, element_id: str) -> tuple[Partials, ...] | None:
    """The partials of the element's six normal line-current sums, made once per audit (None
    when a contribution is unknown or a sum is beyond any float)."""
    key = ("phase partials", element_id)
    if key in ctx.memo:
        return ctx.memo[key]  # type: ignore[no-any-return]
    pdus = ctx.topology.pdus_in_service_below(element_id)
    try:
        contributions = [_flat(_normal_contribution(ctx, pdu)) for pdu in pdus]
    except Unknown:
        found = ctx.memo[key] = None
        return found
    columns = [partials(column) for column in zip(*contributions, strict=True)] or [()] * 6
    found = ctx.memo[key] = None if None in columns else tuple(columns)  # type: ignore[arg-type]
    return found


def _flat(contribution: tuple[list[float], list[float]]) -> Currents:
    ln, ll = contribution
    return ln[0], ln[1], ln[2], ll[0], ll[1], ll[2]


def _normal_contribution(ctx: Context, pdu: Pdu) -> tuple[list[float], list[float]]:
    """The PDU's line currents in normal operation as the elements above it see them, once per
    audit (``ctx.memo``, which a failure scenario shares with its normal audit)."""
    key = ("upstream_phase_currents", pdu.id)
    found = ctx.memo.get(key)
    if found is None:
        try:
            found = _pdu_phase_currents(ctx, pdu, False, balanced_without_banks=True)
        except Unknown as missing:
            found = missing.value
        ctx.memo[key] = found
    if isinstance(found, Value):
        raise Unknown(found)
    return found


@quantity(
    "distribution",
    "is_three_phase",
    "boolean",
    "True for a three-phase busway, panel or RPP",
    reads=(),
)
def is_three_phase(ctx: Context, element: Any) -> Value:
    return Value(float(element.phases == 3))


@quantity(
    "distribution",
    "distribution_phase_deviation",
    "current",
    "Largest deviation of a line current from the average of the three, normal operation",
    reads=("below", "pdus_below.pdu_load"),
)
def distribution_phase_deviation(ctx: Context, element: Any) -> Value:
    return _deviation_of(ctx, *_element_phase_currents(ctx, element))


@quantity(
    "distribution",
    "distribution_phase_average",
    "current",
    "Average of the three line currents in normal operation",
    reads=("self.distribution_phase_deviation",),
)
def distribution_phase_average(ctx: Context, element: Any) -> Value:
    return _average(ctx.get("distribution", "distribution_phase_deviation", element))


@quantity(
    "distribution",
    "distribution_neutral_current",
    "current",
    "Neutral current of the line-to-neutral loads below, normal operation (fundamental)",
    reads=("below", "pdus_below.pdu_load"),
)
def distribution_neutral_current(ctx: Context, element: Any) -> Value:
    ln, _ = _element_phase_currents(ctx, element)
    return _neutral(ln)


# --- power shelves ----------------------------------------------------------------------------


@quantity(
    "rack",
    "shelf_capacity_after_redundancy",
    "power",
    "Output of the rack's power shelves with the redundant ones out ((n − r) · P_shelf)",
    reads=(),
)
def shelf_capacity_after_redundancy_of(ctx: Context, rack: Rack) -> Value:
    f = rack.type.figures
    for name in ("power_shelves", "power_shelf_rating", "redundant_power_shelves"):
        if getattr(f, name) is None:
            return Value.unknown(no_rack_figure(rack, name))
    assert f.power_shelves is not None and f.redundant_power_shelves is not None
    assert f.power_shelf_rating is not None
    return Value(
        shelf_capacity_after_redundancy(
            f.power_shelves, f.redundant_power_shelves, f.power_shelf_rating
        ),
        "(n − r) · P_shelf",
        (
            ("n", f.power_shelves, "count"),
            ("r", f.redundant_power_shelves, "count"),
            ("P_shelf", f.power_shelf_rating, "power"),
        ),
    )
