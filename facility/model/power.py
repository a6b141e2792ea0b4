"""The power chain: sources, distribution, rack PDU types.

Conventions, stated once and printed in reports:
- voltages of three-phase equipment are line-to-line; S = √3·V_LL·I;
- a breaker's continuous capacity is its rating × ``derating`` (NEC 210.20(A): 80 % unless
  the assembly is listed for 100 % operation);
- capacities are apparent power (VA); rack loads are real power (W) turned into VA through
  the rack's power factor.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

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

    installed: int = Field(description="Modules installed", ge=1, le=1000)
    required: int = Field(description="Modules the load needs", ge=1, le=1000)
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

    kind: Literal["utility", "ups", "generator", "transformer"] = Field(
        description="utility, ups, generator or transformer"
    )
    capacity: ApparentPower | None = Field(None, description="Rated output in kVA")
    real_power_capacity: RealPower | None = Field(
        None, description="Rated output in kW (else capacity × power_factor)"
    )
    power_factor: PositiveFraction | None = Field(
        None, description="Output power factor: kW rating = kVA rating × power factor"
    )
    modules: Modules | None = Field(
        None, description="Modular capacity (UPS modules): installed, required, capacity of one"
    )
    side: Id | None = Field(None, description="Power side (A, B) this source belongs to")
    efficiency: PositiveFraction | None = Field(
        None,
        description="Efficiency at the load it carries (UPS double conversion, transformer): "
        "its losses are load × (1/η − 1), a line of the hall's power account",
    )

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
    kind: Literal["switchboard", "busway", "panel", "rpp", "floor_pdu"] = Field(
        description="switchboard, busway, panel, rpp or floor_pdu"
    )
    fed_by: Id | None = Field(None, description="The distribution or source id upstream")
    voltage: Voltage = Field(description="Nominal voltage (line-to-line for three-phase)")
    phases: Annotated[Literal[1, 3], NotATruthValue] = Field(description="1 or 3")
    rating: Current = Field(description="Rated current (breaker or busway rating)")
    derating: PositiveFraction | None = Field(
        None, description="Continuous-load factor; the site convention when absent"
    )
    side: Id | None = Field(None, description="Power side (A, B) this element belongs to")


# The phase (line-to-neutral) or phase pair (line-to-line) a single-phase load is wired to.
PhaseConnection = Literal["L1", "L2", "L3", "L1-L2", "L2-L3", "L3-L1"]


class OutletBank(Strict):
    """One outlet bank of a rack PDU: a group of outlets behind its own breaker."""

    id: Id = Field(description="Name of the bank on the PDU (e.g. L1, B1)")
    phase: PhaseConnection = Field(
        description="Phase (L1: line-to-neutral) or phase pair (L1-L2: line-to-line) of a "
        "three-phase PDU the bank is wired to; for a single-phase PDU its one circuit"
    )
    breaker_rating: Current = Field(description="Rating of the bank's breaker")
    supplies: int | None = Field(
        None,
        ge=0,
        le=256,
        description="Rack power supplies plugged into the bank: the PDU's load is split over "
        "its banks in proportion (evenly over the banks when no bank states it)",
    )


class PduType(Entity):
    """A rack PDU or whip: its inlet circuit."""

    catalog: Id | None = Field(None, description="Catalog entry this PDU type starts from")
    name: str | None = Field(None, description="Product name")
    voltage: Voltage | None = Field(None, description="Line-to-line for three-phase")
    phases: Annotated[Literal[1, 3], NotATruthValue] | None = Field(None, description="1 or 3")
    breaker_rating: Current | None = Field(None, description="Rating of the PDU's input breaker")
    derating: PositiveFraction | None = Field(
        None, description="Continuous-load factor of this PDU's breaker (else the site convention)"
    )
    banks: list[OutletBank] | None = Field(
        None,
        max_length=48,
        description="Outlet banks, each with its breaker and phase; the PDU's load is split "
        "over them (evenly unless each bank states its supplies). [] for a whip or PDU "
        "without branch breakers: its inlet breaker is its only one",
    )
    inlet_phase: PhaseConnection | None = Field(
        None,
        description="For a single-phase PDU fed from a three-phase element: the phase (L1) or "
        "phase pair (L1-L2) its inlet is wired to",
    )

    @model_validator(mode="after")
    def _banks_consistent(self) -> PduType:
        banks = self.banks or []
        ids = [bank.id for bank in banks]
        for bank_id in ids:
            if ids.count(bank_id) > 1:
                raise ValueError(
                    Message("%(field)s names bank '%(id)s' twice", field="banks", id=bank_id)
                )
        stated = [bank.supplies is not None for bank in banks]
        if any(stated) and not all(stated):
            raise ValueError(
                Message(
                    "%(field)s: give %(other)s for every bank or for none",
                    field="banks",
                    other="supplies",
                )
            )
        if all(stated) and banks and sum(bank.supplies or 0 for bank in banks) == 0:
            raise ValueError(
                Message("%(field)s: no bank has %(other)s", field="banks", other="supplies")
            )
        return self


# What a non-IT load is, and the part of the hall's power account it is counted in.
LOAD_CATEGORY = {
    "cdu": "cooling",  # CDU pumps and controls
    "air_unit": "cooling",  # CRAH / fan wall fans
    "heat_rejection": "cooling",  # chiller, dry cooler, cooling tower at design ambient
    "lighting": "other",
    "other": "other",
}


def _without_null_feeds(value: Any) -> Any:
    """A side given null has no feed (a layer takes a base file's feed out that way)."""
    if isinstance(value, dict):
        return {side: element for side, element in value.items() if element is not None}
    return value


class NonItLoad(Entity):
    """A load on the power chain that is not a rack: pumps, fans, heat rejection, lighting.

    It is fed like a rack, one feed per power side (``fed_by: {A: MCC-A, B: MCC-B}``): in
    normal operation its power is shared evenly over its feeds; with one side lost the
    others carry it whole. Its real power is counted by every element above each feed, and
    its apparent power is that ÷ ``power_factor``."""

    kind: Literal["cdu", "air_unit", "heat_rejection", "lighting", "other"] = Field(
        description="cdu (pumps and controls), air_unit (fans), heat_rejection (chiller, dry "
        "cooler or cooling tower at design ambient), lighting or other"
    )
    serves: Id | None = Field(
        None, description="The CDU (kind cdu) or air unit (kind air_unit) this load powers"
    )
    power: RealPower = Field(description="Real power drawn at design conditions, each")
    count: int = Field(1, ge=1, le=10_000, description="Identical loads of this entry")
    power_factor: PositiveFraction | None = Field(
        None, description="Power factor: apparent power = real power ÷ power factor"
    )
    fed_by: Annotated[dict[Id, Id], BeforeValidator(_without_null_feeds)] = Field(
        min_length=1,
        max_length=8,
        description="Power side → the distribution element or source feeding that side "
        "(null: no feed on that side, as a layer over a base file writes it)",
    )


class Power(Strict):
    sources: list[PowerSource] = Field([], description="Utility feeds, UPSs and generators")
    distribution: list[Distribution] = Field(
        [], description="Switchboards, busways, panels, RPPs and floor PDUs"
    )
    pdu_types: list[PduType] = Field([], description="Kinds of rack PDU (or a catalog entry)")
    loads: list[NonItLoad] = Field(
        [],
        description="Non-IT loads on the power chain: CDU pumps, air unit fans, heat "
        "rejection, lighting",
    )
