"""Rack types: what one rack or cabinet of a kind needs from the hall.

Every figure is optional here, because a figure may come from the catalog or may simply be
unknown; a check that needs a missing figure reports "not evaluated", never a pass.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Literal, TypeAlias

from pydantic import Field, model_validator

from facility.messages import Message
from facility.model.base import Entity, Strict
from facility.model.branches import FlowPerPowerBand, PressureDropPoint, curve_problem
from facility.model.coolant_quality import CoolantLimits
from facility.model.cooling import Coolant
from facility.model.fields import (
    Flow,
    Fraction,
    Id,
    Length,
    Mass,
    PositiveFraction,
    Power,
    PressureDrop,
    Quantity,
    Temperature,
    TemperatureRise,
    Volume,
)

if TYPE_CHECKING:  # pragma: no cover - a float, as far as the type checker is concerned
    ComputeRate: TypeAlias = float
    Clearance: TypeAlias = float
else:  # a computation rate (FLOP/s), as the cluster plan's accelerator_peak
    ComputeRate = Quantity("computation_rate", gt=0)
    Clearance = Quantity("length", ge=0)  # a clear distance, which may be none


class Footprint(Strict):
    width: Length = Field(description="Width of the rack's footprint")
    depth: Length = Field(description="Depth of the rack's footprint")


class TemperatureRange(Strict):
    min: Temperature = Field(description="Lowest allowed temperature")
    max: Temperature = Field(description="Highest allowed temperature")

    @model_validator(mode="after")
    def _ordered(self) -> TemperatureRange:
        if self.min > self.max:
            raise ValueError(Message("%(field)s is above %(other)s", field="min", other="max"))
        return self


class FlowPoint(Strict):
    """One row of a vendor flow-vs-supply-temperature table."""

    supply_temperature: Temperature = Field(description="Coolant supply temperature of this row")
    flow: Flow = Field(description="Flow the rack needs at that supply temperature")
    pressure_drop: PressureDrop | None = Field(None, description="Rack pressure drop at that flow")


class RackFigures(CoolantLimits):
    """The figures of a rack type; all optional (from the site, the catalog, or missing)."""

    name: str | None = Field(None, description="Product name")
    category: Literal["compute", "network", "storage"] | None = Field(
        None,
        description="compute (the default), network or storage: the line of the hall's "
        "power account the rack is counted in",
    )
    cooling: Literal["liquid", "air"] | None = Field(
        None, description="'liquid' (cold plates, with a residual air part) or 'air' only"
    )
    passive: bool | None = Field(
        None,
        description="True for a rack with no powered equipment (patch panels): no power or "
        "heat load, so the checks of its power sides do not apply; its mass still counts",
    )
    nominal_power: Power | None = Field(None, description="Sustained IT power (thermal basis)")
    peak_power: Power | None = Field(None, description="Peak electrical power (EDPp)")
    power_factor: PositiveFraction | None = Field(
        None, description="Real over apparent power of the rack's supplies (kVA = kW / PF)"
    )
    filled_mass: Mass | None = Field(None, description="Installed mass including coolant")
    empty_mass: Mass | None = Field(None, description="Mass without coolant")
    coolant_volume: Volume | None = Field(None, description="Coolant held in the rack")
    max_payload: Mass | None = Field(None, description="Rated payload of the rack frame")
    footprint: Footprint | None = Field(
        None, description="Width and depth of the rack on the floor"
    )
    height: Length | None = Field(None, description="Height of the rack")
    crated_width: Length | None = Field(
        None, description="Width of the rack in its shipping crate (move-in route, FLR-009)"
    )
    crated_depth: Length | None = Field(
        None, description="Depth of the rack in its shipping crate (a lift's cab, FLR-011)"
    )
    crated_height: Length | None = Field(
        None,
        description="Height of the rack in its shipping crate, on its pallet (move-in route, "
        "FLR-008)",
    )
    crated_mass: Mass | None = Field(
        None,
        description="Shipping mass of the rack in its crate (lifts, FLR-010; rolling loads, "
        "FLR-013)",
    )
    front_clearance: Clearance | None = Field(
        None,
        description="Clear aisle the rack's maker asks for in front of it, for service "
        "(the zone's clearances.front applies when larger; FLR-014)",
    )
    rear_clearance: Clearance | None = Field(
        None,
        description="Clear aisle the rack's maker asks for behind it, for service (the "
        "zone's clearances.rear applies when larger; FLR-014)",
    )
    electrical_service_side: Literal["front", "rear", "both"] | None = Field(
        None,
        description="Side(s) from which live parts of the rack (power shelves, breakers) are "
        "serviced while energized: the zone's electrical working space (NFPA 70 110.26) "
        "applies there (FLR-014)",
    )
    casters: int | None = Field(None, ge=1, le=16, description="Casters or feet it stands on")
    liquid_heat_fraction: Fraction | None = Field(
        None, description="Share of the heat taken by the liquid loop"
    )
    allowed_supply_temperature: TemperatureRange | None = Field(
        None, description="TCS supply temperature range the rack accepts"
    )
    max_chip_temperature: Temperature | None = Field(
        None,
        description="Highest accelerator (chip) temperature the vendor allows before it "
        "throttles; the single-rack thermal test is judged against it (CLU-019)",
    )
    max_return_temperature: Temperature | None = Field(
        None,
        description="Highest coolant temperature the vendor allows at the rack's outlet; the "
        "single-rack thermal test is judged against it (CLU-019)",
    )
    design_coolant_rise: TemperatureRise | None = Field(
        None,
        description="Coolant temperature rise across the rack; with its heat, sets the flow it needs",
    )
    flow_table: list[FlowPoint] | None = Field(
        None, description="Vendor flow vs supply temperature; preferred over the rise rule"
    )
    flow_table_coolant: Coolant | None = Field(
        None,
        description="The coolant the flow table was measured with (e.g. {fluid: water}); "
        "its flows are converted to the loop's coolant",
    )
    design_flow: Flow | None = Field(
        None,
        description="Flow at which pressure_drop is stated (scales it to the flow the rack gets)",
    )
    pressure_drop: PressureDrop | None = Field(
        None, description="Rack pressure drop at design flow"
    )
    pressure_drop_curve: list[PressureDropPoint] | None = Field(
        None,
        description="Vendor curve of rack pressure drop vs flow (points in increasing flow); "
        "interpolated, and preferred over pressure_drop scaled with the square of the flow",
    )
    flow_per_power_band: FlowPerPowerBand | None = Field(
        None,
        description="Vendor band of coolant flow per kW of liquid heat, with its source "
        "(e.g. {min: 1.25 L/min/kW, max: 2.0 L/min/kW, source: ...})",
    )
    power_inputs_per_side: int | None = Field(
        None,
        description="Power supplies per side, spread over that side's PDUs in turn",
        ge=1,
        le=64,
    )
    power_shelves: int | None = Field(
        None,
        ge=1,
        le=64,
        description="Power shelves (or power supplies) that feed the rack's equipment",
    )
    power_shelf_rating: Power | None = Field(
        None, description="Rated output of one power shelf (or power supply)"
    )
    redundant_power_shelves: int | None = Field(
        None,
        ge=0,
        le=64,
        description="Power shelves that are redundancy: the rack runs on the others "
        "(4 of 8 in N+N, 1 in N+1)",
    )
    accelerators_per_rack: int | None = Field(
        None,
        ge=0,
        le=10_000,
        description="Accelerators (GPUs, NPUs) in one rack of this type: 72 in an NVL72 rack, "
        "0 in a network cabinet; a supernode of these racks counts them (cluster plan)",
    )
    accelerator_peak: ComputeRate | None = Field(
        None,
        description="Peak dense BF16 rate of one of its accelerators, e.g. '2.5 PFLOP/s' "
        "(cluster plan)",
    )

    @model_validator(mode="after")
    def _consistent(self) -> RackFigures:
        for _, message in inconsistencies(self):
            raise ValueError(message)
        return self


# Figures only a rack that draws power has: given for a passive rack, they contradict it.
_POWERED_ONLY = (
    "nominal_power", "peak_power", "liquid_heat_fraction", "design_flow", "flow_table",
    "pressure_drop_curve", "flow_per_power_band", "max_chip_temperature",
    "power_inputs_per_side", "power_shelves", "power_shelf_rating", "redundant_power_shelves",
)  # fmt: skip


def inconsistencies(f: RackFigures) -> list[tuple[tuple[str, ...], str]]:
    """Figures that contradict each other: (the fields involved, message) for each.

    Run on a block as written (validator above) and again by the loader once catalog figures
    and per-rack overrides are merged, since each part may be fine alone.
    """
    found: list[tuple[tuple[str, ...], str]] = []
    if f.filled_mass is not None and f.empty_mass is not None and f.filled_mass < f.empty_mass:
        found.append(
            (
                ("filled_mass", "empty_mass"),
                Message("%(field)s is below %(other)s", field="filled_mass", other="empty_mass"),
            )
        )
    if f.nominal_power is not None and f.peak_power is not None and f.peak_power < f.nominal_power:
        found.append(
            (
                ("peak_power", "nominal_power"),
                Message("%(field)s is below %(other)s", field="peak_power", other="nominal_power"),
            )
        )
    if (
        f.power_shelves is not None
        and f.redundant_power_shelves is not None
        and f.redundant_power_shelves >= f.power_shelves
    ):
        found.append(
            (
                ("redundant_power_shelves", "power_shelves"),
                Message(
                    "%(field)s is not below %(other)s",
                    field="redundant_power_shelves",
                    other="power_shelves",
                ),
            )
        )
    if f.passive:
        for name in _POWERED_ONLY:
            if getattr(f, name) is not None:
                found.append(
                    (
                        (name, "passive"),
                        Message(
                            "%(field)s is given for a passive rack (%(other)s: true)",
                            field=name,
                            other="passive",
                        ),
                    )
                )
        if f.cooling == "liquid":
            found.append(
                (
                    ("cooling", "passive"),
                    Message(
                        "%(field)s is given for a passive rack (%(other)s: true)",
                        field="cooling: liquid",
                        other="passive",
                    ),
                )
            )
    if f.flow_table is not None:
        temps = [p.supply_temperature for p in f.flow_table]
        if len(temps) < 2 or any(b <= a for a, b in pairwise(temps)):
            found.append(
                (
                    ("flow_table",),
                    Message(
                        "%(field)s needs at least two rows in increasing %(column)s",
                        field="flow_table",
                        column="supply_temperature",
                    ),
                )
            )
    if f.pressure_drop_curve is not None:
        problem = curve_problem(f.pressure_drop_curve)
        if problem is not None:
            found.append((("pressure_drop_curve",), problem))
    return found


class RackType(RackFigures, Entity):
    """A rack type declared in the site file, optionally based on a catalog entry."""

    catalog: Id | None = Field(None, description="Catalog entry this type starts from")
    description: str | None = Field(None, description="Free text about this rack type")
