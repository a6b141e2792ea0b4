"""The hydraulics of a TCS loop's rack branches: how the loop is piped to its racks, and the
rack-type figures that say how a rack's pressure drop and flow behave.

A loop's ``topology`` states the arrangement (direct-return or reverse-return headers), the
supply + return header pressure drop to the hydraulically furthest rack at design flow, the
branch drop (branch piping and valves) at the rack's design flow, the quick disconnects on
each branch and the balancing. A rack type may state its pressure-drop curve (flow vs drop)
and the vendor's band of flow per kW of liquid heat. docs/branches.md has the formulas.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Literal

from pydantic import Field, model_validator

from facility.messages import Message
from facility.model.base import Strict
from facility.model.fields import Flow, FlowPerPower, PressureDrop


class QuickDisconnects(Strict):
    """The quick-disconnect couplings on one rack branch (supply and return: a pair)."""

    pairs: int = Field(1, description="Coupling pairs on the branch (supply + return)", ge=1, le=64)
    pressure_drop: PressureDrop = Field(
        description="Pressure drop of one pair at the stated flow (the coupling maker's figure)"
    )
    flow: Flow = Field(description="Flow at which pressure_drop is stated")


class LoopTopology(Strict):
    """How a TCS loop is piped to its racks, for the furthest-branch checks (LIQ-028/029)."""

    arrangement: Literal["direct_return", "reverse_return"] = Field(
        description="direct_return (the furthest rack has the longest path) or reverse_return "
        "(every rack's path through the headers is the same length)"
    )
    header_pressure_drop: PressureDrop = Field(
        description="Supply + return header pressure drop from the CDUs to the hydraulically "
        "furthest rack, at the loop's design flow"
    )
    branch_pressure_drop: PressureDrop = Field(
        description="Pressure drop of one rack branch (branch piping, valves, hoses) at the "
        "rack's design flow, without the rack and its quick disconnects"
    )
    quick_disconnects: QuickDisconnects | None = Field(
        None, description="Quick disconnects on each rack branch; none when absent"
    )
    balancing: Literal["none", "manual", "automatic"] = Field(
        description="none, manual (balancing valves set at commissioning) or automatic "
        "(pressure-independent valves that hold each branch's flow)"
    )


class PressureDropPoint(Strict):
    """One point of a rack's pressure-drop curve."""

    flow: Flow = Field(description="Coolant flow through the rack")
    pressure_drop: PressureDrop = Field(description="Rack pressure drop at that flow")


class FlowPerPowerBand(Strict):
    """The vendor's band of coolant flow per kW of liquid heat, with where it comes from."""

    min: FlowPerPower = Field(description="Lowest flow per kW of liquid heat, e.g. 1.25 L/min/kW")
    max: FlowPerPower = Field(description="Highest flow per kW of liquid heat, e.g. 2.0 L/min/kW")
    source: str = Field(
        description="Where the band comes from (vendor document and page)",
        min_length=1,
        max_length=500,
    )

    @model_validator(mode="after")
    def _ordered(self) -> FlowPerPowerBand:
        if self.min > self.max:
            raise ValueError(Message("%(field)s is above %(other)s", field="min", other="max"))
        return self


def curve_problem(curve: list[PressureDropPoint]) -> str | None:
    """Why a pressure-drop curve cannot be interpolated, or None: it needs at least two
    points in increasing flow, with a drop that does not fall as the flow rises."""
    flows = [p.flow for p in curve]
    drops = [p.pressure_drop for p in curve]
    if (
        len(curve) < 2
        or any(b <= a for a, b in pairwise(flows))
        or any(b < a for a, b in pairwise(drops))
    ):
        return Message(
            "%(field)s needs at least two points in increasing %(column)s, with a "
            "%(other)s that does not fall",
            field="pressure_drop_curve",
            column="flow",
            other="pressure_drop",
        )
    return None
