"""Liquid and air cooling: facility water, CDUs, TCS loops, room air units."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from facility.messages import Message
from facility.model.base import Entity, Strict
from facility.model.fields import (
    Flow,
    Fraction,
    Id,
    Power,
    Pressure,
    PressureDrop,
    Temperature,
    TemperatureRise,
)


class Coolant(Strict):
    """The fluid of a loop. Glycol concentration must say whether it is by mass or volume."""

    fluid: Literal["water", "propylene_glycol", "ethylene_glycol"]
    mass_fraction: Fraction | None = None
    volume_fraction: Fraction | None = Field(
        None, description="As in 'PG25' = 25 % by volume (Dow LC25)"
    )

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


class FacilityWater(Entity):
    ashrae_class: str | None = Field(None, description="ASHRAE liquid class, e.g. W32 (or S32)")
    supply_temperature: Temperature | None = None
    primary_rise: TemperatureRise | None = Field(None, description="Design rise across the CDUs")
    available_flow: Flow | None = None
    differential_pressure: Pressure | None = Field(
        None, description="Differential pressure available at the CDUs"
    )
    coolant: Coolant = Coolant(fluid="water")


class Pumps(Strict):
    installed: int = Field(ge=1)
    required: int = Field(ge=1)

    @model_validator(mode="after")
    def _enough(self) -> Pumps:
        if self.required > self.installed:
            raise ValueError(Message("required pumps exceed installed pumps"))
        return self


class CduFigures(Strict):
    name: str | None = None
    capacity: Power | None = Field(None, description="Heat capacity at the rated approach")
    rated_approach: TemperatureRise | None = None
    rated_flow: Flow | None = Field(None, description="Secondary flow at the available head")
    available_head: Pressure | None = Field(None, description="External head at rated flow")
    pumps: Pumps | None = None
    primary_pressure_drop: PressureDrop | None = None
    max_racks: int | None = Field(None, ge=1)


class Cdu(CduFigures, Entity):
    catalog: Id | None = None
    facility_water: Id | None = None
    approach: TemperatureRise | None = Field(
        None, description="Approach in this site (TCS supply − facility supply); rated if absent"
    )


class TcsLoop(Entity):
    """A technology cooling system (secondary) loop: the liquid the racks see."""

    room: Id | None = None
    coolant: Coolant
    cdus: list[Id] = Field(min_length=1)
    supply_setpoint: Temperature | None = None
    piping_pressure_drop: PressureDrop | None = Field(
        None, description="Piping and manifold pressure drop to the worst rack"
    )


class AirUnit(Entity):
    """A CRAH/CRAC/fan wall. With ``count``, ids ``<id>-1`` … ``<id>-<count>`` are made."""

    room: Id | None = None
    sensible_capacity: Power
    count: int | None = Field(None, ge=1, le=1000)


class Cooling(Strict):
    facility_water: list[FacilityWater] = []
    cdus: list[Cdu] = []
    tcs_loops: list[TcsLoop] = []
    air_units: list[AirUnit] = []
