"""Liquid and air cooling: facility water, CDUs, TCS loops, room air units."""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import (
    Field,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from facility.messages import Message
from facility.model.base import Entity, Strict
from facility.model.branches import LoopTopology
from facility.model.coolant_quality import CoolantLimits, CoolantQuality, LeakZone
from facility.model.fields import (
    Flow,
    Fraction,
    Id,
    Power,
    Pressure,
    PressureDrop,
    Temperature,
    TemperatureRise,
    Volume,
)
from facility.model.heat_rejection import HeatRejection
from facility.physics.coolant import (
    GLYCOL_MAXIMUM_MASS_FRACTION,
    GLYCOL_MAXIMUM_TEMPERATURE,
    WATER_MAXIMUM_TEMPERATURE,
    mass_fraction_from_volume_fraction,
    volume_fraction_from_mass_fraction,
)

# The fluids' names in messages (translated when shown).
FLUID_NAMES = {
    "water": Message("water"),
    "propylene_glycol": Message("propylene glycol"),
    "ethylene_glycol": Message("ethylene glycol"),
}
# The property correlation of each fluid (facility.physics.coolant) and the warmest
# temperature it covers [°C]. The coldest is the mix's freezing point: a loop that cold is a
# finding (rules LIQ-017, LIQ-018), not an input error.
CORRELATIONS = {
    "water": "CoolProp fit to IAPWS-95",
    "propylene_glycol": "Melinder 2010",
    "ethylene_glycol": "Melinder 2010",
}
MAXIMUM_TEMPERATURES = {
    "water": WATER_MAXIMUM_TEMPERATURE,
    "propylene_glycol": GLYCOL_MAXIMUM_TEMPERATURE,
    "ethylene_glycol": GLYCOL_MAXIMUM_TEMPERATURE,
}


class Coolant(Strict):
    """The fluid of a loop. Glycol concentration must say whether it is by mass or volume."""

    fluid: Literal["water", "propylene_glycol", "ethylene_glycol"] = Field(
        description="water, propylene_glycol or ethylene_glycol"
    )
    mass_fraction: Fraction | None = Field(
        None, description="Glycol concentration by mass (give it or volume_fraction)"
    )
    volume_fraction: Fraction | None = Field(
        None, description="As in 'PG25' = 25 % by volume (Dow LC25)"
    )

    # Field validators see the fields declared above them (info.data): ``fluid`` comes first.
    @field_validator("mass_fraction")
    @classmethod
    def _mass_fraction_within_correlation(
        cls, value: float | None, info: ValidationInfo
    ) -> float | None:
        fluid = info.data.get("fluid")
        if value is not None and fluid in _GLYCOLS and not value <= GLYCOL_MAXIMUM_MASS_FRACTION:
            raise ValueError(
                Message(
                    "%(fluid)s at %(value)s %% by mass is outside the property correlation "
                    "(%(source)s), valid up to %(limit)s %% by mass",
                    fluid=FLUID_NAMES[fluid],
                    value=_percent(value),
                    source=CORRELATIONS[fluid],
                    limit=_percent(GLYCOL_MAXIMUM_MASS_FRACTION),
                )
            )
        return value

    @field_validator("volume_fraction")
    @classmethod
    def _volume_fraction_within_correlation(
        cls, value: float | None, info: ValidationInfo
    ) -> float | None:
        fluid = info.data.get("fluid")
        if value is None or fluid not in _GLYCOLS:
            return value
        if not mass_fraction_from_volume_fraction(fluid, value) <= GLYCOL_MAXIMUM_MASS_FRACTION:
            limit = volume_fraction_from_mass_fraction(fluid, GLYCOL_MAXIMUM_MASS_FRACTION)
            raise ValueError(
                Message(
                    "%(fluid)s at %(value)s %% by volume is outside the property correlation "
                    "(%(source)s), valid up to %(limit)s %% by volume (%(mass_limit)s %% by mass)",
                    fluid=FLUID_NAMES[fluid],
                    value=_percent(value),
                    source=CORRELATIONS[fluid],
                    # Rounded down, so that the volume fraction stated is itself accepted.
                    limit=format(math.floor(limit * 1000) / 10, ".1f"),
                    mass_limit=_percent(GLYCOL_MAXIMUM_MASS_FRACTION),
                )
            )
        return value

    @model_validator(mode="after")
    def _concentration(self) -> Coolant:
        given = [f for f in (self.mass_fraction, self.volume_fraction) if f is not None]
        if self.fluid == "water":
            if any(f > 0 for f in given):
                raise ValueError(Message("water has no glycol concentration"))
        elif len(given) != 1:
            raise ValueError(
                Message(
                    "%(fluid)s needs exactly one of %(field)s or %(other)s "
                    "(e.g. volume_fraction: 25 %% for PG25)",
                    fluid=self.fluid,
                    field="mass_fraction",
                    other="volume_fraction",
                )
            )
        return self


_GLYCOLS = ("propylene_glycol", "ethylene_glycol")


def _percent(fraction: float) -> str:
    """A fraction as a percentage, without trailing zeros: 0.65 → '65', 0.655 → '65.5'."""
    return format(round(fraction * 100, 6), "g")


def _within_correlation(
    value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
) -> float | None:
    """A temperature the coolant's properties are evaluated at, checked against the warmest
    its correlation covers; ``info.data['coolant']`` is the coolant, when it is valid."""
    temperature = handler(value)
    coolant = info.data.get("coolant")
    if temperature is None or not isinstance(coolant, Coolant):
        return temperature  # no temperature, or the coolant's own problem is reported
    limit = MAXIMUM_TEMPERATURES[coolant.fluid]
    if not temperature <= limit:
        raise ValueError(
            Message(
                "%(value)s is above the range of the %(fluid)s property correlation "
                "(%(source)s), valid up to %(limit)s °C",
                value=f"'{value}'" if isinstance(value, str) else repr(value),
                fluid=FLUID_NAMES[coolant.fluid],
                source=CORRELATIONS[coolant.fluid],
                limit=format(limit, "g"),
            )
        )
    return temperature


class FacilityWater(Entity):
    ashrae_class: str | None = Field(None, description="ASHRAE liquid class, e.g. W32 (or S32)")
    # Before supply_temperature, whose validator reads it.
    coolant: Coolant = Field(
        Coolant(fluid="water"),
        description="Fluid of the facility (primary) water loop; water by default",
    )
    supply_temperature: Temperature | None = Field(
        None, description="Facility water supply temperature at the CDUs"
    )
    primary_rise: TemperatureRise | None = Field(None, description="Design rise across the CDUs")
    available_flow: Flow | None = Field(
        None, description="Facility water flow available to the CDUs"
    )
    differential_pressure: Pressure | None = Field(
        None, description="Differential pressure available at the CDUs"
    )
    rooms: list[Id] = Field(
        [],
        description="Rooms its pipes run through (in-row CDUs, water-cooled air units in the "
        "white space): its supply must stay above each room's dew point",
    )

    _supply_within_correlation = field_validator("supply_temperature", mode="wrap")(
        _within_correlation
    )


class Pumps(Strict):
    installed: int = Field(description="Pumps installed in the CDU", ge=1, le=64)
    required: int = Field(
        description="Pumps needed for the rated flow (installed − required may fail)", ge=1, le=64
    )

    @model_validator(mode="after")
    def _enough(self) -> Pumps:
        if self.required > self.installed:
            raise ValueError(Message("required pumps exceed installed pumps"))
        return self


class CduFigures(CoolantLimits):
    name: str | None = Field(None, description="Product name")
    capacity: Power | None = Field(None, description="Heat capacity at the rated approach")
    rated_approach: TemperatureRise | None = Field(
        None, description="Approach (TCS supply − facility supply) at the rated capacity"
    )
    rated_flow: Flow | None = Field(None, description="Secondary flow at the available head")
    available_head: Pressure | None = Field(None, description="External head at rated flow")
    pumps: Pumps | None = Field(None, description="Installed and required pumps")
    primary_pressure_drop: PressureDrop | None = Field(
        None, description="Pressure drop on the facility-water side of the CDU"
    )
    max_racks: int | None = Field(
        None, description="Most racks this CDU supports", ge=1, le=100_000
    )
    rated_primary_flow: Flow | None = Field(
        None,
        description="Facility water flow through the CDU at its rated capacity, with "
        "primary_pressure_drop across it",
    )


class Cdu(CduFigures, Entity):
    catalog: Id | None = Field(None, description="Catalog entry this CDU starts from")
    facility_water: Id | None = Field(
        None, description="The facility_water id this CDU is supplied from"
    )
    approach: TemperatureRise | None = Field(
        None, description="Approach in this site (TCS supply − facility supply); rated if absent"
    )


class TcsLoop(Entity):
    """A technology cooling system (secondary) loop: the liquid the racks see."""

    room: Id | None = Field(None, description="The room this loop is in")
    coolant: Coolant = Field(
        description="Fluid of the loop, e.g. {fluid: propylene_glycol, volume_fraction: 25 %}"
    )
    cdus: list[Id] = Field(description="Ids of the CDUs that cool this loop", min_length=1)
    # after coolant, which its validator reads
    supply_setpoint: Temperature | None = Field(
        None,
        description="TCS supply set point; the racks see it when the CDUs can reach it, else the lowest supply they achieve",
    )
    piping_pressure_drop: PressureDrop | None = Field(
        None, description="Piping and manifold pressure drop to the worst rack"
    )
    topology: LoopTopology | None = Field(
        None,
        description="How the loop is piped to its racks (arrangement, header, branch and "
        "quick-disconnect drops, balancing): the furthest-branch checks",
    )
    volume: Volume | None = Field(
        None,
        description="Coolant in the loop's piping, manifolds and CDUs (the racks' own "
        "coolant_volume is added): what warms while heat rejection is lost",
    )
    buffer_volume: Volume | None = Field(
        None, description="Coolant in buffer tanks on the loop (0 when it has none)"
    )
    quality: CoolantQuality | None = Field(
        None,
        description="Evidence of the coolant's quality (filtration, fluid analysis, wetted "
        "materials, working pressure) and the fluid maker's limits",
    )

    _setpoint_within_correlation = field_validator("supply_setpoint", mode="wrap")(
        _within_correlation
    )


class AirUnit(Entity):
    """A CRAH/CRAC/fan wall. With ``count``, ids ``<id>-1`` … ``<id>-<count>`` are made."""

    room: Id | None = Field(None, description="The room this unit cools")
    sensible_capacity: Power = Field(description="Sensible cooling capacity of one unit")
    count: int | None = Field(
        None, description="Number of identical units; ids <id>-1 … <id>-<count>", ge=1, le=1000
    )
    facility_water: Id | None = Field(
        None,
        description="The facility water loop its coil rejects into (a chilled water CRAH or "
        "fan wall, a water-cooled CRAC): its heat counts in that loop's plant heat; none for "
        "a unit with its own condenser",
    )


class Cooling(Strict):
    facility_water: list[FacilityWater] = Field([], description="Facility (primary) water loops")
    cdus: list[Cdu] = Field([], description="Coolant distribution units")
    tcs_loops: list[TcsLoop] = Field([], description="Technology cooling system (secondary) loops")
    air_units: list[AirUnit] = Field([], description="CRAH/CRAC units and fan walls")
    heat_rejection: list[HeatRejection] = Field(
        [], description="Chillers, dry coolers and cooling towers per facility water loop"
    )
    leak_detection: list[LeakZone] = Field(
        [], description="Leak-detection zones over the TCS loops' wet connections"
    )
