"""Derived quantities of a TCS loop's rack branches: the furthest branch and the flow per kW.

Conventions stated in the workings (docs/branches.md):
- the hydraulically furthest rack is taken to be the loop's liquid rack whose branch needs the
  most head at its required flow (the site file does not say which rack hangs last on the
  header, so the worst branch is placed there: conservative);
- a rack's drop at its required flow comes from its vendor curve (interpolated; outside the
  curve, not evaluated), else from ``pressure_drop`` scaled with the square of the flow when
  the type states the ``design_flow`` it was measured at, else as stated (as LIQ-009);
- quick disconnects scale with the square of the flow from the flow their drop is stated at;
  the header and branch drops are stated at design flow and taken as stated;
- flow per kW is per kW of liquid heat (the heat the coolant carries), at the rack's
  required flow (its vendor table, or its design rise).
"""

from __future__ import annotations

from typing import Any

from facility.engine.derive_liquid import _liquid_racks, _rack_flow, rack_liquid_heat
from facility.engine.quantities import Context, Value, known, quantity
from facility.engine.reasons import no_rack_figure
from facility.messages import Message
from facility.model.site import Rack
from facility.physics.hydraulic import (
    branch_required_head,
    flow_per_heat,
    head_at_furthest_branch,
    pressure_drop_at_flow,
    pressure_drop_from_curve,
    quick_disconnect_pressure_drop,
    unbalanced_flow_deviation,
)

L_PER_MIN = 1 / 60_000  # m³/s
L_PER_MIN_PER_KW = L_PER_MIN / 1_000  # m³/(s·W)

_CURVE = Message("ΔP_rack from the vendor curve at V̇")
_SCALED = "ΔP_d · (V̇ / V̇_d)²"
_STATED = "ΔP_rack"
_QD = "n · ΔP_pair · (V̇ / V̇_pair)²"


def _no_topology(loop: Any) -> Value:
    return Value.unknown(
        Message("loop '%(loop)s' has no %(field)s", loop=loop.id, field="topology")
    )


def _litres(flow: float) -> str:
    return format(flow / L_PER_MIN, ".0f")


def _rack_drop(rack: Rack, flow: float) -> Value:
    """The rack's own pressure drop at ``flow``, with how it was obtained."""
    f = rack.type.figures
    if flow == 0.0:
        return Value(0.0, _STATED, ())
    if f.pressure_drop_curve is not None:
        curve = [(p.flow, p.pressure_drop) for p in f.pressure_drop_curve]
        try:
            drop = pressure_drop_from_curve(curve, flow)
        except ValueError:
            return Value.unknown(
                Message(
                    "the flow of %(flow)s L/min is outside rack type '%(type)s' %(field)s "
                    "(%(low)s–%(high)s L/min)",
                    flow=_litres(flow),
                    type=rack.type.id,
                    field="pressure_drop_curve",
                    low=_litres(curve[0][0]),
                    high=_litres(curve[-1][0]),
                )
            )
        return Value(drop, _CURVE, ())
    if f.pressure_drop is None:
        return Value.unknown(
            Message(
                "rack type '%(type)s' has no %(field)s or %(other)s",
                type=rack.type.id,
                field="pressure_drop",
                other="pressure_drop_curve",
            )
        )
    if f.design_flow is not None:
        return Value(
            pressure_drop_at_flow(f.pressure_drop, f.design_flow, flow),
            _SCALED,
            (("ΔP_d", f.pressure_drop, "pressure"), ("V̇_d", f.design_flow, "volumetric_flow")),
        )
    return Value(f.pressure_drop, _STATED, ())


def _branch(ctx: Context, loop: Any, rack: Rack, supply: float) -> Value:
    """The head one rack's branch needs at the rack's required flow, with its working."""
    topology = loop.topology
    flow = known(_rack_flow(ctx, rack, loop, supply))
    rack_drop = _rack_drop(rack, flow)
    rack_value = known(rack_drop)
    qd = topology.quick_disconnects
    qd_drop = 0.0
    qd_inputs: tuple[tuple[str, float, str], ...] = ()
    if qd is not None:
        qd_drop = quick_disconnect_pressure_drop(qd.pairs, qd.pressure_drop, qd.flow, flow)
        qd_inputs = (
            ("n", qd.pairs, "count"),
            ("ΔP_pair", qd.pressure_drop, "pressure"),
            ("V̇_pair", qd.flow, "volumetric_flow"),
        )
    total = branch_required_head(rack_value, qd_drop, topology.branch_pressure_drop)
    formula = (
        Message(
            "%(rack)s + %(qd)s + ΔP_branch, rack type '%(type)s'",
            rack=rack_drop.formula,
            qd=_QD,
            type=rack.type.id,
        )
        if qd is not None
        else Message(
            "%(rack)s + ΔP_branch, rack type '%(type)s'", rack=rack_drop.formula, type=rack.type.id
        )
    )
    inputs = (
        ("V̇", flow, "volumetric_flow"),
        *rack_drop.inputs,
        ("ΔP_rack", rack_value, "pressure"),
        *qd_inputs,
        ("ΔP_branch", topology.branch_pressure_drop, "pressure"),
    )
    return Value(total, formula, inputs)


@quantity(
    "tcs_loop",
    "furthest_branch_drop",
    "pressure",
    "Head the hydraulically furthest rack branch needs: rack + quick disconnects + branch, "
    "at the rack's required flow",
    reads=("racks", "self.supply_temperature"),
)
def furthest_branch_drop(ctx: Context, loop: Any) -> Value:
    if loop.topology is None:
        return _no_topology(loop)
    racks = _liquid_racks(ctx, loop.id)
    if not racks:
        return Value.unknown(Message("no liquid-cooled racks are on loop '%(loop)s'", loop=loop.id))
    supply = known(ctx.get("tcs_loop", "supply_temperature", loop))
    worst: Value | None = None
    seen: set[int] = set()
    for rack in racks:
        if id(rack.type) in seen:
            continue  # every rack of a type on a loop has the same branch
        seen.add(id(rack.type))
        branch = _branch(ctx, loop, rack, supply)
        if worst is None or known(branch) > known(worst):
            worst = branch
    assert worst is not None
    return worst


@quantity(
    "tcs_loop",
    "furthest_branch_head",
    "pressure",
    "Head left at the hydraulically furthest rack: CDU available head − header drop",
    reads=("self.available_head",),
)
def furthest_branch_head(ctx: Context, loop: Any) -> Value:
    topology = loop.topology
    if topology is None:
        return _no_topology(loop)
    head = known(ctx.get("tcs_loop", "available_head", loop))
    formula = (
        Message("H_CDU − ΔP_header to the last rack (direct-return)")
        if topology.arrangement == "direct_return"
        else Message("H_CDU − ΔP_header, the same path for every rack (reverse-return)")
    )
    return Value(
        head_at_furthest_branch(head, topology.header_pressure_drop),
        formula,
        (("H_CDU", head, "pressure"), ("ΔP_header", topology.header_pressure_drop, "pressure")),
    )


@quantity(
    "tcs_loop",
    "branch_flow_deviation",
    "fraction",
    "How much more flow the nearest rack takes than the furthest (0 when balanced)",
    reads=("self.furthest_branch_drop",),
)
def branch_flow_deviation(ctx: Context, loop: Any) -> Value:
    topology = loop.topology
    if topology is None:
        return _no_topology(loop)
    if topology.balancing == "automatic":
        return Value(
            0.0, Message("0 by design: pressure-independent valves hold each branch's flow"), ()
        )
    if topology.balancing == "manual":
        return Value(
            0.0,
            Message(
                "0 at the design flow: balancing valves set at commissioning (set them again "
                "when racks are added or moved)"
            ),
            (),
        )
    if topology.arrangement == "reverse_return":
        return Value(0.0, Message("0: reverse-return, every rack's path is the same length"), ())
    # The ratio of the header to the furthest branch at the drops as stated for the design
    # (rack, quick disconnects at their stated flow, branch): every one of them scales with the
    # square of the flow, so the ratio, and the deviation, do not change with the load. Only a
    # rack type given by its curve alone is read at its required flow.
    branch = _design_branch_drop(ctx, loop)
    header = topology.header_pressure_drop
    if not branch > 0.0:
        return Value.unknown(
            Message("the furthest branch on loop '%(loop)s' has no pressure drop", loop=loop.id)
        )
    return Value(
        unbalanced_flow_deviation(branch, header),
        Message("√(1 + ΔP_header / ΔP_far) − 1, no balancing (direct-return)"),
        (("ΔP_header", header, "pressure"), ("ΔP_far", branch, "pressure")),
    )


def _design_branch_drop(ctx: Context, loop: Any) -> float:
    """The largest branch drop of the loop's rack types at their stated design figures."""
    topology = loop.topology
    qd = topology.quick_disconnects
    stated_qd = qd.pairs * qd.pressure_drop if qd is not None else 0.0
    worst = 0.0
    for rack in _liquid_racks(ctx, loop.id):
        drop = rack.type.figures.pressure_drop
        if drop is None:  # a curve alone: at the rack's required flow
            return known(ctx.get("tcs_loop", "furthest_branch_drop", loop))
        worst = max(worst, drop + stated_qd + topology.branch_pressure_drop)
    return worst


@quantity(
    "tcs_loop",
    "flow_per_heat_outside_band",
    "fraction",
    "How far the racks' flow per kW of liquid heat lies outside their vendor band (0 within)",
    reads=("racks", "self.supply_temperature"),
)
def flow_per_heat_outside_band(ctx: Context, loop: Any) -> Value:
    racks = _liquid_racks(ctx, loop.id)
    if not racks:
        return Value.unknown(Message("no liquid-cooled racks are on loop '%(loop)s'", loop=loop.id))
    supply = known(ctx.get("tcs_loop", "supply_temperature", loop))
    worst: tuple[float, Value] | None = None
    seen: set[int] = set()
    for rack in racks:
        if id(rack.type) in seen:
            continue
        seen.add(id(rack.type))
        band = rack.type.figures.flow_per_power_band
        if band is None:
            return Value.unknown(no_rack_figure(rack, "flow_per_power_band"))
        heat = known(rack_liquid_heat(ctx, rack))
        if heat == 0.0:
            continue  # no heat, no flow to judge
        flow = known(_rack_flow(ctx, rack, loop, supply))
        q = flow_per_heat(flow, heat)
        if q < band.min:
            excess, shape = (band.min - q) / band.min, "(q_min − q) / q_min"
        elif q > band.max:
            excess, shape = (q - band.max) / band.max, "(q − q_max) / q_max"
        else:
            excess, shape = 0.0, Message("0: q_min ≤ q ≤ q_max")
        value = Value(
            excess,
            Message(
                "%(shape)s, q = V̇ / Q_liq, band of rack type '%(type)s' (%(source)s)",
                shape=shape,
                type=rack.type.id,
                source=band.source,
            ),
            (
                ("q", q, "flow_per_power"),
                ("q_min", band.min, "flow_per_power"),
                ("q_max", band.max, "flow_per_power"),
                ("V̇", flow, "volumetric_flow"),
                ("Q_liq", heat, "power"),
            ),
        )
        if worst is None or excess > worst[0]:
            worst = (excess, value)
    if worst is None:
        return Value(0.0, Message("no rack on the loop puts heat into it"), ())
    return worst[1]
