"""Rooms and floor zones."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from facility.model.base import Entity
from facility.model.fields import Area, FloorLoad, Force, Id, Length


class Room(Entity):
    name: str | None = Field(None, description="Name shown in reports")
    redundant_air_units: int = Field(
        0, ge=0, le=1000, description="Air units the room must be able to lose (1 for N+1)"
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
