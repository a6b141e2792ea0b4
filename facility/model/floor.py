"""Rooms and floor zones."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from pydantic import Field, ValidationInfo, field_validator, model_validator

from facility.messages import Message
from facility.model.base import Entity, Strict
from facility.model.fields import (
    Area,
    FloorLoad,
    Force,
    Id,
    Length,
    PositiveFraction,
    Quantity,
)
from facility.model.route import MoveInRoute
from facility.physics.psychrometrics import (
    PSYCHROMETRIC_MAXIMUM_TEMPERATURE,
    PSYCHROMETRIC_MINIMUM_TEMPERATURE,
    dew_point,
)

# Room air temperatures: within the psychrometric equations (ASHRAE Handbook — Fundamentals
# ch. 1: from −100 °C), below the 150 °C every temperature of a hall is below.
if TYPE_CHECKING:  # pragma: no cover - a float, as far as the type checker is concerned
    AirTemperature: TypeAlias = float
else:
    AirTemperature = Quantity(
        "temperature",
        ge=PSYCHROMETRIC_MINIMUM_TEMPERATURE,
        lt=min(150.0, PSYCHROMETRIC_MAXIMUM_TEMPERATURE),
        upper_text="150 degC",
    )


class RoomCondition(Strict):
    """The room's design air condition: dry bulb and relative humidity, or a dew point."""

    dry_bulb: AirTemperature | None = Field(
        None, description="Design dry bulb temperature of the room air (with relative_humidity)"
    )
    # Field validators see the fields declared above them (info.data): dry_bulb comes first.
    relative_humidity: PositiveFraction | None = Field(
        None, description="Design relative humidity of the room air, at its dry_bulb"
    )
    dew_point: AirTemperature | None = Field(
        None,
        description="Design dew point of the room air (instead of relative_humidity; a "
        "dry_bulb beside it must not be below it)",
    )

    @field_validator("relative_humidity")
    @classmethod
    def _humidity_at_a_dry_bulb(cls, value: float | None, info: ValidationInfo) -> float | None:
        if value is None or "dry_bulb" not in info.data:
            return value  # not given, or the dry bulb's own problem is reported
        dry_bulb = info.data["dry_bulb"]
        if dry_bulb is None:
            raise ValueError(
                Message(
                    "a relative humidity needs the %(field)s it was measured at",
                    field="dry_bulb",
                )
            )
        try:
            dew_point(dry_bulb, value)
        except ValueError:
            raise ValueError(
                Message(
                    "its dew point is below %(limit)s °C, outside the psychrometric equations",
                    limit=format(PSYCHROMETRIC_MINIMUM_TEMPERATURE, "g"),
                )
            ) from None
        return value

    @field_validator("dew_point")
    @classmethod
    def _one_humidity(cls, value: float | None, info: ValidationInfo) -> float | None:
        if value is None:
            return value
        if info.data.get("relative_humidity") is not None:
            raise ValueError(
                Message(
                    "give %(field)s or %(other)s, not both: the two could contradict",
                    field="dew_point",
                    other="relative_humidity",
                )
            )
        dry_bulb = info.data.get("dry_bulb")
        if dry_bulb is not None and value > dry_bulb:
            raise ValueError(
                Message(
                    "the dew point is above the dry bulb (%(dry_bulb)s °C): air holds no more "
                    "water than saturates it",
                    dry_bulb=format(dry_bulb, "g"),
                )
            )
        return value

    @model_validator(mode="after")
    def _states_a_humidity(self) -> Any:
        if self.dew_point is None and self.relative_humidity is None:
            raise ValueError(
                Message(
                    "a design condition gives %(field)s, or %(dry_bulb)s with %(other)s",
                    field="dew_point",
                    dry_bulb="dry_bulb",
                    other="relative_humidity",
                )
            )
        return self


class Room(Entity):
    name: str | None = Field(None, description="Name shown in reports")
    redundant_air_units: int = Field(
        0, ge=0, le=1000, description="Air units the room must be able to lose (1 for N+1)"
    )
    design_condition: RoomCondition | None = Field(
        None,
        description="Design room air condition, e.g. {dry_bulb: 24 degC, relative_humidity: "
        "50 %}, or {dew_point: 13 degC}: the room's dew point, which liquid colder than it "
        "condenses on",
    )
    move_in_route: MoveInRoute | None = Field(
        None,
        description="How racks reach this hall from the loading dock: its segments (doors, "
        "corridors, lifts, ramps, raised floor) in order, each judged against the racks of "
        "the hall as moved (FLR-008 to FLR-013; docs/move-in-route.md)",
    )


class FloorZone(Entity):
    room: Id | None = Field(None, description="The room this zone is in")
    construction: Literal["slab", "raised_floor"] = Field(
        description="slab, or raised_floor (then give concentrated_load_rating)"
    )
    uniform_load_rating: FloorLoad | None = Field(
        None, description="Rated uniformly distributed load of the floor"
    )
    concentrated_load_rating: Force | None = Field(
        None, description="Per panel (raised floor), per the CISCA concentrated-load test"
    )
    rolling_load_rating: Force | None = Field(
        None, description="Per wheel, per the CISCA rolling-load test (10 passes: move-in)"
    )
    area: Area | None = Field(None, description="Floor area of the zone")
    clear_height: Length | None = Field(
        None,
        description="Clear height above this floor to the lowest obstruction (ceiling, "
        "cable tray, busway, containment roof)",
    )
