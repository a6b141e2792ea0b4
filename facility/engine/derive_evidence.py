"""Derived quantities of commissioning evidence that is judged, not just dated.

Two scopes, both empty for a site without ``cluster:``:

- ``thermal_test``: the single-rack thermal test (``commissioning.single_rack_thermal_test``)
  as measured — rack power, flow at the rack, supply and return, the hottest chip, throttle
  events, duration — against the tested rack's limits: its rated power at the thermal basis,
  its allowed supply range, the flow it needs at the measured supply (its flow table or design
  rise, as the loop's checks size it), its maximum chip and return temperatures. Each limit's
  working names where it comes from (the site file, or the catalog entry and its source).
- ``monitoring_layer``: the four layers of monitoring (card, link, scheduler, training), each
  with the metrics it must cover (facility.model.cluster.MONITORING_METRICS); a layer without
  a record, or without a metric, misses all of them.

A figure the record does not state makes its check *not evaluated*, naming the field.
Rules CLU-016 to CLU-022 (docs/evidence.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from facility.engine.derive_liquid import _rack_flow
from facility.engine.provenance import source_of
from facility.engine.quantities import Context, Input, Value, known, quantity, scope
from facility.messages import Join, Message
from facility.model.cluster import MONITORING_METRICS, MonitoringLayer, ResolvedThermalTest
from facility.model.site import Rack, Site

_ITEM = "single_rack_thermal_test"


@scope("thermal_test", "Single-rack thermal test")
def _tests(site: Site) -> Iterable[tuple[str, Any]]:
    test = site.cluster.thermal_test if site.cluster is not None else None
    return [(test.id, test)] if test is not None else []


@scope("monitoring_layer", "Monitoring layer")
def _layers(site: Site) -> Iterable[tuple[str, Any]]:
    return [(layer.id, layer) for layer in site.cluster.monitoring] if site.cluster else []


# --- the thermal test ----------------------------------------------------------------------


def _no_record(field: str) -> Value:
    return Value.unknown(
        Message("the single-rack thermal test states no %(field)s", field=f"{_ITEM}.{field}")
    )


def _measured(test: ResolvedThermalTest, field: str) -> float:
    value = getattr(test.record, field)
    if value is None:
        known(_no_record(field))
    return float(value)


def _rack(test: ResolvedThermalTest) -> Rack:
    if test.rack is None:
        known(_no_record("rack"))
    assert test.rack is not None
    return test.rack


def _no_limit(rack: Rack, field: str) -> Value:
    return Value.unknown(
        Message(
            "rack type '%(type)s' of tested rack '%(rack)s' has no %(field)s",
            type=rack.type.id,
            rack=rack.id,
            field=field,
        )
    )


@quantity(
    "thermal_test",
    "test_rack_power",
    "power",
    "IT power the tested rack drew during the single-rack thermal test",
    reads=(),
)
def test_rack_power(ctx: Context, test: ResolvedThermalTest) -> Value:
    p = _measured(test, "rack_power")
    return Value(p, "P_test", (("P_test", p, "power"),))


@quantity(
    "thermal_test",
    "test_rated_power",
    "power",
    "The tested rack's rated power at the thermal basis (the heat the loop is sized for)",
    reads=(),
)
def test_rated_power(ctx: Context, test: ResolvedThermalTest) -> Value:
    rack = _rack(test)
    f = rack.type.figures
    basis = ctx.assumptions.thermal_power_basis
    name = f"{basis}_power"
    p = f.nominal_power if basis == "nominal" else f.peak_power
    if p is None:
        return _no_limit(rack, name)
    return Value(
        p,
        Message("P_rated: %(field)s (%(source)s)", field=name, source=source_of(rack, name)),
        (("P_rated", p, "power"),),
    )


@quantity(
    "thermal_test",
    "test_supply_headroom",
    "temperature_difference",
    "How far the test's supply temperature lies inside the tested rack's allowed supply range "
    "(to its nearer end; negative outside)",
    reads=(),
)
def test_supply_headroom(ctx: Context, test: ResolvedThermalTest) -> Value:
    supply = _measured(test, "supply_temperature")
    rack = _rack(test)
    band = rack.type.figures.allowed_supply_temperature
    if band is None:
        return _no_limit(rack, "allowed_supply_temperature")
    return Value(
        min(supply - band.min, band.max - supply),
        Message(
            "min(T_s − T_min, T_max − T_s), range of %(source)s",
            source=source_of(rack, "allowed_supply_temperature"),
        ),
        (
            ("T_s", supply, "temperature"),
            ("T_min", band.min, "temperature"),
            ("T_max", band.max, "temperature"),
        ),
    )


@quantity(
    "thermal_test", "test_flow", "volumetric_flow", "Coolant flow measured at the rack", reads=()
)
def test_flow(ctx: Context, test: ResolvedThermalTest) -> Value:
    flow = _measured(test, "flow")
    return Value(flow, "V̇_test", (("V̇_test", flow, "volumetric_flow"),))


@quantity(
    "thermal_test",
    "test_required_flow",
    "volumetric_flow",
    "Flow the tested rack needs at the test's supply temperature, in its loop's coolant "
    "(its flow table, else its heat over its design rise)",
    reads=(),
)
def test_required_flow(ctx: Context, test: ResolvedThermalTest) -> Value:
    supply = _measured(test, "supply_temperature")
    rack = _rack(test)
    if rack.loop is None:
        return Value.unknown(Message("tested rack '%(rack)s' is on no TCS loop", rack=rack.id))
    loop = ctx.site.loops[rack.loop]
    need = known(_rack_flow(ctx, rack, loop, supply))
    field = "flow_table" if rack.type.figures.flow_table is not None else "design_coolant_rise"
    return Value(
        need,
        Message(
            "V̇_need at T_s on loop '%(loop)s', from %(field)s (%(source)s)",
            loop=loop.id,
            field=field,
            source=source_of(rack, field),
        ),
        (("V̇_need", need, "volumetric_flow"), ("T_s", supply, "temperature")),
    )


@quantity(
    "thermal_test",
    "test_temperature_excess",
    "temperature_difference",
    "How far the hottest chip and the return coolant of the test came above the tested rack's "
    "maximums (the larger of the two; negative below)",
    reads=(),
)
def test_temperature_excess(ctx: Context, test: ResolvedThermalTest) -> Value:
    rack = _rack(test)
    f = rack.type.figures
    record = test.record
    pairs = [
        (symbol, measured, limit, field)
        for symbol, measured, limit, field in (
            ("chip", record.max_chip_temperature, f.max_chip_temperature, "max_chip_temperature"),
            ("ret", record.return_temperature, f.max_return_temperature, "max_return_temperature"),
        )
        if measured is not None and limit is not None
    ]
    if not pairs:
        return Value.unknown(
            Message(
                "no pair of a measured %(measured)s and a limit %(limits)s of rack type '%(type)s'",
                measured=Join(["max_chip_temperature", "return_temperature"]),
                limits=Join(["max_chip_temperature", "max_return_temperature"]),
                type=rack.type.id,
            )
        )
    inputs: list[Input] = []
    terms = []
    sources = []
    for symbol, measured, limit, field in pairs:
        inputs += [
            (f"T_{symbol}", measured, "temperature"),
            (f"T_{symbol},max", limit, "temperature"),
        ]
        terms.append(f"T_{symbol} − T_{symbol},max")
        sources.append(Message("%(field)s: %(source)s", field=field, source=source_of(rack, field)))
    shape = terms[0] if len(terms) == 1 else f"max({', '.join(terms)})"
    return Value(
        max(measured - limit for _, measured, limit, _ in pairs),
        Message("%(shape)s (%(sources)s)", shape=shape, sources=Join(sources)),
        tuple(inputs),
    )


@quantity(
    "thermal_test",
    "test_throttle_events",
    "count",
    "Throttling events the accelerators logged during the test",
    reads=(),
)
def test_throttle_events(ctx: Context, test: ResolvedThermalTest) -> Value:
    n = _measured(test, "throttle_events")
    return Value(n, "n_throttle", (("n_throttle", n, "count"),))


@quantity(
    "thermal_test", "test_duration", "time", "Time the rack ran at full load in the test", reads=()
)
def test_duration(ctx: Context, test: ResolvedThermalTest) -> Value:
    t = _measured(test, "duration")
    return Value(t, "t_test", (("t_test", t, "time"),))


# --- the monitoring layers -----------------------------------------------------------------


@quantity(
    "monitoring_layer",
    "metrics_missing",
    "count",
    "Metrics the monitoring layer must cover that it does not declare with a source",
    reads=(),
)
def metrics_missing(ctx: Context, layer: MonitoringLayer) -> Value:
    required = MONITORING_METRICS[layer.id]
    record = layer.evidence
    if record is None:
        return Value(
            float(len(required)),
            Message(
                "no record of the layer (%(field)s): %(metrics)s not covered",
                field=f"monitoring_{layer.id}",
                metrics=Join(list(required)),
            ),
        )
    declared = {m.metric for m in record.metrics if m.source}  # a source is required
    missing = [m for m in required if m not in declared]
    if not missing:
        return Value(0.0, Message("every metric declared with its source"))
    if not declared:
        return Value(
            float(len(missing)),
            Message("the layer declares no metric: %(metrics)s not covered", metrics=Join(missing)),
        )
    return Value(float(len(missing)), Message("not declared: %(metrics)s", metrics=Join(missing)))
