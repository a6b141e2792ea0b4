"""The power chain: sources, distribution, rack PDU types.

Conventions, stated once and printed in reports:
- voltages of three-phase equipment are line-to-line; S = √3·V_LL·I;
- a breaker's continuous capacity is its rating × ``derating`` (NEC 210.20(A): 80 % unless
  the assembly is listed for 100 % operation);
- capacities are apparent power (VA); rack loads are real power (W) turned into VA through
  the rack's power factor.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from facility.messages import Message
from facility.model.base import Entity, Strict
from facility.model.fields import (
    ApparentPower,
    Current,
    Id,
    NotATruthValue,
    PositiveFraction,
    Voltage,
)
from facility.model.fields import Power as RealPower


class Modules(Strict):
    """Modular capacity (UPS modules): N+1 means installed ≥ required + 1."""

    installed: int = Field(ge=1, le=1000)
    required: int = Field(ge=1, le=1000)
    capacity: ApparentPower = Field(description="Capacity of one module")

    @model_validator(mode="after")
    def _enough(self) -> Modules:
        if self.required > self.installed:
            raise ValueError(Message("required modules exceed installed modules"))
        return self


class PowerSource(Entity):
    """A UPS, generator or utility feed, rated in kVA and in kW.

    Convention: where only one rating is given, the other is it times (or divided by) the
    output ``power_factor`` (kW = kVA × PF); without a power factor the missing rating is
    unknown, and the checks that need it are not evaluated.
    """

    kind: Literal["utility", "ups", "generator"]
    capacity: ApparentPower | None = Field(None, description="Rated output in kVA")
    real_power_capacity: RealPower | None = Field(
        None, description="Rated output in kW (else capacity × power_factor)"
    )
    power_factor: PositiveFraction | None = Field(
        None, description="Output power factor: kW rating = kVA rating × power factor"
    )
    modules: Modules | None = None
    side: Id | None = Field(None, description="Power side (A, B) this source belongs to")

    @model_validator(mode="after")
    def _real_within_apparent(self) -> PowerSource:
        # P = S · PF with PF ≤ 1: a kW rating above the kVA rating is a typo (kW for kVA).
        if (
            self.capacity is not None
            and self.real_power_capacity is not None
            and self.real_power_capacity > self.capacity * (1 + 1e-9)
        ):
            raise ValueError(
                Message(
                    "%(field)s is above %(other)s: the kW rating cannot exceed the kVA rating",
                    field="real_power_capacity",
                    other="capacity",
                )
            )
        return self


class Distribution(Entity):
    kind: Literal["switchboard", "busway", "panel", "rpp", "floor_pdu"]
    fed_by: Id | None = None
    voltage: Voltage
    phases: Annotated[Literal[1, 3], NotATruthValue]
    rating: Current
    derating: PositiveFraction | None = Field(
        None, description="Continuous-load factor; the site convention when absent"
    )
    side: Id | None = None


class PduType(Entity):
    """A rack PDU or whip: its inlet circuit."""

    catalog: Id | None = None
    name: str | None = None
    voltage: Voltage | None = Field(None, description="Line-to-line for three-phase")
    phases: Annotated[Literal[1, 3], NotATruthValue] | None = None
    breaker_rating: Current | None = None
    derating: PositiveFraction | None = None


class Power(Strict):
    sources: list[PowerSource] = []
    distribution: list[Distribution] = []
    pdu_types: list[PduType] = []
