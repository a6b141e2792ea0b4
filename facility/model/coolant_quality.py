"""Coolant quality and leak detection, as evidence: what the loop's fluid and hardware are
measured or stated to be, the limits its rack and CDU vendors (and its fluid maker) set, and
the leak-detection zones over its wet connections.

These are records, not physics: a filter rating, a fluid analysis (glycol, pH, chloride) and
its date, the wetted materials, the working pressure. The rules LIQ-031 to LIQ-036 compare
them with the strictest limit on the loop (docs/coolant-quality.md).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from pydantic import BeforeValidator, Field, model_validator

from facility.messages import Message
from facility.model.base import Entity, Strict
from facility.model.fields import Fraction, Id, Pressure, Quantity

# In a dilute water solution 1 ppm by mass is 1 mg/L (a litre of it weighs about 1 kg): the
# unit water analyses are written in either way.
_PPM = re.compile(r"^\s*([-+0-9.eE_]+)\s*ppm\s*$")


def _ppm_as_mg_per_litre(value: Any) -> Any:
    if isinstance(value, str):
        found = _PPM.match(value)
        if found:
            return f"{found.group(1)} mg/L"
    return value


# A filter's rating: the particle size it stops (µm); a solute's mass per volume (mg/L).
if TYPE_CHECKING:  # pragma: no cover - floats, as far as the type checker is concerned
    ParticleSize: TypeAlias = float
    Concentration: TypeAlias = float
    ConcentrationLimit: TypeAlias = float
else:
    ParticleSize = Quantity("particle_size", gt=0)
    Concentration = Annotated[
        Quantity("concentration", ge=0), BeforeValidator(_ppm_as_mg_per_litre)
    ]
    ConcentrationLimit = Annotated[
        Quantity("concentration", gt=0), BeforeValidator(_ppm_as_mg_per_litre)
    ]
Ph = Annotated[float, Field(ge=0, le=14, allow_inf_nan=False)]

# The fixed vocabulary of wetted materials.
WettedMaterial = Literal[
    "copper",
    "brass",
    "bronze",
    "stainless_steel",
    "carbon_steel",
    "galvanized_steel",
    "aluminium",
    "zinc",
    "lead",
    "titanium",
    "nickel",
    "epdm",
    "fkm",
    "nbr",
    "ptfe",
    "polypropylene",
    "pps",
    "pvc",
    "cpvc",
]
# Metal pairs that corrode galvanically when both are wetted by one water-based coolant: the
# less noble metal (aluminium; zinc and its coating) dissolves near the copper alloy, and
# copper ions carried by the coolant plate out on aluminium anywhere in the loop.
# Source: MIL-STD-889D (2021), Dissimilar Metals, Table I (anodic index; aluminium and zinc
# against copper alloys); OCP MGX rack and trays specification §12 (no aluminium or zinc in a
# copper loop). docs/references.md#mil-std-889
GALVANIC_PAIRS: tuple[tuple[str, str], ...] = (
    ("aluminium", "copper"),
    ("aluminium", "brass"),
    ("aluminium", "bronze"),
    ("zinc", "copper"),
    ("zinc", "brass"),
    ("zinc", "bronze"),
    ("galvanized_steel", "copper"),
    ("galvanized_steel", "brass"),
    ("galvanized_steel", "bronze"),
)


class Band(Strict):
    """A range a figure must lie in (both ends included)."""

    min: float = Field(allow_inf_nan=False, description="Lowest allowed value")
    max: float = Field(allow_inf_nan=False, description="Highest allowed value")

    @model_validator(mode="after")
    def _ordered(self) -> Band:
        if self.min > self.max:
            raise ValueError(Message("%(field)s is above %(other)s", field="min", other="max"))
        return self


class FractionBand(Band):
    min: Fraction = Field(description="Lowest allowed fraction, e.g. 24 %")
    max: Fraction = Field(description="Highest allowed fraction, e.g. 27 %")


class PhBand(Band):
    min: Ph = Field(description="Lowest allowed pH")
    max: Ph = Field(description="Highest allowed pH")


class CoolantLimits(Strict):
    """Limits on a loop's coolant and wetted path, as a rack or CDU vendor (for its warranty)
    or a fluid maker states them. Every one optional: a check without any limit on the loop
    is not evaluated."""

    max_filtration_rating: ParticleSize | None = Field(
        None, description="Coarsest filter rating allowed on the loop, e.g. 50 um"
    )
    allowed_glycol_concentration: FractionBand | None = Field(
        None, description="Band of glycol concentration by volume, e.g. {min: 24 %, max: 27 %}"
    )
    allowed_ph: PhBand | None = Field(
        None, description="Band of coolant pH, e.g. {min: 8.0, max: 10.5}"
    )
    max_chloride: ConcentrationLimit | None = Field(
        None, description="Most chloride allowed in the coolant, e.g. 25 mg/L (or ppm)"
    )
    excluded_wetted_materials: list[WettedMaterial] | None = Field(
        None, description="Materials that must not be wetted by the coolant, e.g. [aluminium]"
    )
    max_working_pressure: Pressure | None = Field(
        None, description="Highest working pressure allowed (the rating of the wetted parts)"
    )


class FluidAnalysis(Strict):
    """The last laboratory analysis of a sample of the loop's coolant."""

    date: dt.date | None = Field(None, strict=False, description="When it was sampled (ISO 8601)")
    reference: str | None = Field(
        None, min_length=1, max_length=500, description="Laboratory report or ticket"
    )


class CoolantQuality(CoolantLimits):
    """Evidence of a TCS loop's coolant quality; the limit fields are the fluid maker's (and
    the loop's own rating), judged with the rack types' and CDUs' limits, the strictest
    applying."""

    filtration_rating: ParticleSize | None = Field(
        None, description="Rating of the loop's finest full-flow filter, e.g. 25 um"
    )
    glycol_concentration: Fraction | None = Field(
        None, description="Glycol concentration by volume as measured (fluid analysis)"
    )
    ph: Ph | None = Field(None, description="pH as measured (fluid analysis)")
    chloride: Concentration | None = Field(
        None, description="Chloride as measured, e.g. 12 mg/L (or ppm) (fluid analysis)"
    )
    wetted_materials: list[WettedMaterial] | None = Field(
        None, description="Every material the coolant touches, e.g. [copper, stainless_steel, epdm]"
    )
    working_pressure: Pressure | None = Field(
        None, description="Highest working pressure of the loop in operation"
    )
    fluid_analysis: FluidAnalysis | None = Field(
        None, description="Date and reference of the last fluid analysis"
    )


IsolationAction = Literal["none", "alarm", "valve_close", "pump_stop"]


class LeakZone(Entity):
    """A leak-detection zone: the sensors (rope, spot, tray) over some wet connections of one
    TCS loop or of every loop in one room."""

    tcs_loop: Id | None = Field(None, description="The TCS loop whose wet connections it covers")
    room: Id | None = Field(None, description="The room whose loops' wet connections it covers")
    wet_connections: list[str] = Field(
        [],
        description="The wet connections it covers (CDU, manifold, quick disconnects, "
        "e.g. 'R01–R08 manifold QDs')",
    )
    monitored: bool | None = Field(
        None, description="True when its sensors are wired to the BMS/DCIM (monitoring)"
    )
    isolation: IsolationAction | None = Field(
        None,
        description="What a detected leak does: none, alarm, valve_close or pump_stop",
    )

    @model_validator(mode="after")
    def _one_place(self) -> LeakZone:
        if (self.tcs_loop is None) == (self.room is None):
            raise ValueError(
                Message(
                    "a leak-detection zone needs exactly one of %(field)s or %(other)s",
                    field="tcs_loop",
                    other="room",
                )
            )
        return self
