"""The heat rejection plant and the site's design ambient.

Each facility water loop rejects its heat through a plant: chillers, dry coolers or cooling
towers (``cooling.heat_rejection``, one entry per group of identical units on one loop). Each
entry states its capacity per unit at a rating ambient, the supply it achieves (an approach
above the ambient for a dry cooler or tower; a leaving water temperature for a chiller) and how
many of its units may be out. The site's design ambient (``site.design_ambient``) is user-given:
the dry and wet bulb the plant must work at (e.g. ASHRAE 0.4 % cooling, or an n-year extreme).

The physics is in :mod:`facility.physics.heat_rejection`; the checks in
:mod:`facility.engine.derive_heat_rejection` (rules LIQ-024 to LIQ-026).
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema, model_validator

from facility.messages import Message, message_of
from facility.model.base import Entity, Strict
from facility.model.fields import Id, Power, Temperature, TemperatureRise
from facility.units import QuantityError, parse_quantity

# The ambient each kind is rated and judged at: air for a dry cooler and an (air-cooled)
# chiller, the wet bulb for an evaporative cooling tower.
AMBIENT_OF_KIND = {"chiller": "dry_bulb", "dry_cooler": "dry_bulb", "cooling_tower": "wet_bulb"}

_PER_K = re.compile(r"^\s*(?P<fraction>[^/]+?)\s*/\s*(?P<per>[^/]+?)\s*$")


def _per_kelvin(value: Any) -> float:
    """'2.5 %/K' → 0.025 [1/K]; '1.39 %/delta_degF' → 0.025. The unit of the difference is
    required: a bare '2.5 %' does not say per what."""
    if not isinstance(value, str) or (found := _PER_K.match(value)) is None:
        raise ValueError(
            Message(
                "expected a fraction per temperature difference like '2.5 %%/K', got %(value)s",
                value=repr(value),
            )
        )
    try:
        fraction = parse_quantity(found["fraction"], "fraction")
        per = parse_quantity(f"1 {found['per']}", "temperature_difference")
    except QuantityError as exc:
        raise ValueError(message_of(exc)) from None
    rate = fraction / per
    if not (math.isfinite(rate) and 0 <= rate <= 1):
        raise ValueError(Message("must be from 0 to 100 %%/K, got %(value)s", value=repr(value)))
    return rate


# A capacity lost per kelvin of ambient above the rating, as a fraction of the rated capacity.
DeratingPerKelvin = Annotated[
    float,
    BeforeValidator(_per_kelvin),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": r"^\s*[0-9.eE+-]+\s*%?\s*/\s*\S+\s*$",
            "description": "A fraction of the rated capacity per temperature difference, "
            "e.g. '2.5 %/K'",
            "examples": ["2.5 %/K"],
        }
    ),
]


class DesignAmbient(Strict):
    """The outdoor conditions the heat rejection plant must work at, given by the user."""

    dry_bulb: Temperature | None = Field(
        None, description="Design dry bulb (dry coolers, air-cooled chillers)"
    )
    wet_bulb: Temperature | None = Field(None, description="Design wet bulb (cooling towers)")
    basis: str | None = Field(
        None,
        description="Where the figures come from, printed in the working, e.g. "
        "'ASHRAE 0.4 % cooling' or 'n-year extreme'",
        max_length=500,
    )

    @model_validator(mode="after")
    def _wet_below_dry(self) -> DesignAmbient:
        if (
            self.dry_bulb is not None
            and self.wet_bulb is not None
            and not self.wet_bulb <= self.dry_bulb
        ):
            raise ValueError(Message("the wet bulb is above the dry bulb"))
        return self


class HeatRejection(Entity):
    """Identical chillers, dry coolers or cooling towers on one facility water loop."""

    kind: Literal["chiller", "dry_cooler", "cooling_tower"] = Field(
        description="chiller (air-cooled), dry_cooler or cooling_tower"
    )
    facility_water: Id = Field(description="The facility_water id these units cool")
    count: int = Field(1, ge=1, le=1000, description="Identical units of this entry")
    redundant: int = Field(
        0, ge=0, le=999, description="Units that may be out with the loop still cooled (N+1: 1)"
    )
    capacity: Power | None = Field(None, description="Heat rejected by one unit at rated_ambient")
    rated_ambient: Temperature | None = Field(
        None,
        description="Ambient of the capacity rating: dry bulb (dry cooler, chiller) or wet "
        "bulb (cooling tower)",
    )
    capacity_derating: DeratingPerKelvin | None = Field(
        None,
        description="Capacity lost per K of ambient above rated_ambient, as a fraction of the "
        "rated capacity, e.g. '2.5 %/K'; without it the capacity above rated_ambient is not "
        "evaluated",
    )
    approach: TemperatureRise | None = Field(
        None,
        description="Supply above the ambient: dry bulb (dry cooler) or wet bulb (cooling "
        "tower); a chiller states leaving_water_temperature instead",
    )
    leaving_water_temperature: Temperature | None = Field(
        None, description="The supply a chiller delivers at design ambient"
    )

    @model_validator(mode="after")
    def _consistent(self) -> HeatRejection:
        if self.redundant >= self.count:
            raise ValueError(
                Message(
                    "%(field)s must be less than %(other)s (some unit must run)",
                    field="redundant",
                    other="count",
                )
            )
        if self.kind == "chiller" and self.approach is not None:
            raise ValueError(
                Message(
                    "a chiller states its %(field)s, not an %(other)s",
                    field="leaving_water_temperature",
                    other="approach",
                )
            )
        if self.kind != "chiller" and self.leaving_water_temperature is not None:
            raise ValueError(
                Message(
                    "only a chiller states a %(field)s; a %(kind)s states its %(other)s",
                    field="leaving_water_temperature",
                    kind=self.kind,
                    other="approach",
                )
            )
        return self
