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


if TYPE_CHECKING:  # pragma: no cover
    Seconds: TypeAlias = float
    SpecificHeat: TypeAlias = float
    Mass: TypeAlias = float
    AirVolume: TypeAlias = float
else:
    Seconds = Quantity("time", gt=0)
    SpecificHeat = Quantity("specific_heat", gt=0)
    Mass = Quantity("mass", gt=0)
    AirVolume = Quantity("volume", gt=0)

# ASHRAE TC 9.9, Thermal Guidelines for Data Processing Environments, 5th ed. (2021): the
# allowable inlet air of class A1 equipment reaches 32 °C (docs/references.md#ashrae-thermal-guidelines).
A1_ALLOWABLE_INLET = 32.0


class CoolingLoss(Strict):
    """How the room's air takes a loss of its cooling: a utility loss, until the air units
    and their cooling source run again (AIR-005; docs/ride-through.md)."""

    air_volume: AirVolume = Field(
        description="Air the IT equipment recirculates while the cooling is lost: the white "
        "space with its plenums and containment"
    )
    inlet_limit: AirTemperature = Field(
        A1_ALLOWABLE_INLET,
        description="Warmest inlet air the IT equipment allows during the gap (default 32 "
        "degC, ASHRAE class A1 allowable)",
    )
    solid_mass: Mass | None = Field(
        None,
        description="Mass of the solids the room air washes and warms (racks, servers, raised "
        "floor): with solid_specific_heat and time_constant",
    )
    solid_specific_heat: SpecificHeat | None = Field(
        None, description="Mean specific heat of those solids, e.g. 500 J/(kg*K) for steel"
    )
    time_constant: Seconds | None = Field(
        None,
        description="Time constant of air and solids, τ = 1 / (hA · (1/C_a + 1/C_s)), from a "
        "study or a measured test",
    )
    basis: str | None = Field(
        None, description="Where the solids' figures come from (a CFD study, a measured test)"
    )

    @model_validator(mode="after")
    def _solids_whole(self) -> CoolingLoss:
        given = [self.solid_mass, self.solid_specific_heat, self.time_constant]
        if any(v is not None for v in given) and any(v is None for v in given):
            raise ValueError(
                Message(
                    "give %(fields)s together, or none (the air alone)",
                    fields="solid_mass, solid_specific_heat and time_constant",
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
    cooling_loss: CoolingLoss | None = Field(
        None,
        description="The room's air during a loss of its cooling (air volume, inlet limit, "
        "the solids it warms): AIR-005 judges the time it takes to reach the inlet limit",
    )
    move_in_route: MoveInRoute | None = Field(
        None,
        description="How racks reach this hall from the loading dock: its segments (doors, "
        "corridors, lifts, ramps, raised floor) in order, each judged against the racks of "
        "the hall as moved (FLR-008 to FLR-013; docs/move-in-route.md)",
    )


# Service clearances a zone gives each rack when neither the zone nor the rack's maker says
# more (docs/space-and-cabling.md):
# ANSI/TIA-942-A recommends a cold aisle of 1.2 m, two 600 mm floor tiles
# (docs/references.md#tia-942-b).
TIA_942_FRONT_CLEARANCE = 1.2
# A typical rack maker's service clearance behind the rack, 1,000 mm (HP StorageWorks XP10000
# site guide; docs/references.md#oem-service-clearance).
OEM_REAR_CLEARANCE = 1.0
# NFPA 70 110.26(A)(1): working space at least 36 in (914.4 mm) deep in front of live parts
# examined, adjusted or serviced while energized (docs/references.md#nfpa-70-110-26).
NEC_WORKING_SPACE = 0.9144

if TYPE_CHECKING:  # pragma: no cover
    Clearance: TypeAlias = float
    Coordinate: TypeAlias = float
else:
    Clearance = Quantity("length", ge=0)
    Coordinate = Quantity("length", ge=0)


class ZoneClearances(Strict):
    """The clear aisles each rack of the zone needs, in front, behind and before live parts
    (FLR-014; a rack type's own front_clearance and rear_clearance apply when larger)."""

    front: Clearance = Field(
        TIA_942_FRONT_CLEARANCE,
        description="Clear aisle in front of each rack (default 1.2 m, the cold aisle "
        "ANSI/TIA-942-A recommends)",
    )
    rear: Clearance = Field(
        OEM_REAR_CLEARANCE,
        description="Clear aisle behind each rack (default 1.0 m, a rack maker's typical "
        "service clearance)",
    )
    electrical_working_space: Clearance = Field(
        NEC_WORKING_SPACE,
        description="Depth of working space before live parts serviced while energized, on "
        "the electrical_service_side of a rack type (default 36 in = 914.4 mm, NFPA 70 "
        "110.26(A)(1))",
    )


class RowLayout(Strict):
    """Where a row of racks stands in its room, and how long it may be."""

    row: Id = Field(description="The row: the id of a rows[] block, or the row: of racks")
    x: Coordinate = Field(
        description="Where the row starts (the outer side of its first rack), along the "
        "room's x axis"
    )
    y: Coordinate = Field(description="Where the row's rack centres stand along the y axis")
    direction: Literal["x", "y"] = Field(
        "x", description="The axis the row runs along (x, the default, or y: then x and y swap)"
    )
    length: Length | None = Field(
        None,
        description="Length the row may take from its start: to the wall, a column or the "
        "end-of-row aisle it must leave clear (FLR-015)",
    )
    pitch: Length | None = Field(
        None,
        description="Centre-to-centre spacing of the row's racks (default: each rack's own "
        "footprint width)",
    )


class CableBundle(Strict):
    """Cables of one outside diameter in a tray."""

    count: int = Field(ge=0, le=1_000_000, description="Number of cables")
    diameter: Length = Field(description="Outside diameter of one cable")
    description: str | None = Field(
        None, max_length=200, description="What they are, e.g. '800G MPO-16 trunks, OM4'"
    )


class CableTray(Strict):
    """A cable tray (ladder, wire basket, ventilated trough) over or under the zone."""

    id: Id = Field(description="Name of the tray (unique in its zone)")
    width: Length = Field(description="Inside width of the tray")
    depth: Length = Field(
        description="Usable inside (loading) depth; over 150 mm counts as 150 mm (NFPA 70 "
        "392.22(A)(2))"
    )
    cables: list[CableBundle] = Field(
        [], description="The cables it carries at its fullest section (FLR-016)"
    )


class ZoneLayout(Strict):
    """Where the zone's rows stand (in the room's coordinates) and its cable trays."""

    rows: list[RowLayout] = Field(
        [], description="The rows standing in this zone: start, axis, length, pitch"
    )
    cable_drop: Clearance | None = Field(
        None,
        description="Vertical run of a cable at each end, from the rack's ports to the tray "
        "and its slack (the supernodes' optical reach, FLR-017)",
    )
    cable_trays: list[CableTray] = Field(
        [], description="The zone's cable trays with the cables each carries (FLR-016)"
    )

    @model_validator(mode="after")
    def _named_once(self) -> ZoneLayout:
        for field, names in (
            ("rows", [r.row for r in self.rows]),
            ("cable_trays", [t.id for t in self.cable_trays]),
        ):
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise ValueError(
                    Message("%(field)s names '%(name)s' more than once", field=field, name=twice[0])
                )
        return self


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
    clearances: ZoneClearances = Field(
        ZoneClearances(),
        description="Clear aisles each rack needs: front, rear, electrical working space "
        "(FLR-014: the racks with them fit the zone's area)",
    )
    layout: ZoneLayout | None = Field(
        None,
        description="Where the zone's rows stand and how long they may be (FLR-015), its "
        "cable trays (FLR-016) and the cables' drop (FLR-017); docs/space-and-cabling.md",
    )
