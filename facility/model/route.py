"""A hall's move-in route: the segments a rack passes from the loading dock to its place.

A route is ordered (dock, doors, corridors, lifts, ramps, the raised floor of the hall) and
each segment states what it lets through: its clear opening (width × height), a lift's rated
load and cab depth, a ramp's slope, a floor's rolling-load rating. The rack passes the
segments before ``uncrated_from`` in its crate (the rack type's crated figures) and the rest
on its own casters (its own figures). The checks are FLR-008 to FLR-013 (docs/move-in-route.md).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from facility.messages import Message
from facility.model.base import Strict
from facility.model.fields import Force, Id, Length, Mass, PositiveFraction

SegmentKind = Literal["dock", "door", "corridor", "lift", "ramp", "raised_floor"]

# Fields only some kinds of segment have: given for another kind, nothing would read them.
_ONLY_ON: dict[str, str] = {"rated_load": "lift", "cab_depth": "lift", "slope": "ramp"}


class RouteSegment(Strict):
    """One segment of a move-in route, in the order the rack passes it."""

    id: Id = Field(description="Name of the segment (unique in its route), e.g. 'dock door D1'")
    kind: SegmentKind = Field(
        description="dock, door, corridor, lift, ramp or raised_floor (a raised floor the "
        "rack is rolled over, whose rolling_load_rating must then be given)"
    )
    clear_width: Length | None = Field(
        None,
        description="Narrowest clear width the rack passes through (a lift: its door); "
        "at least the rack's width as moved (FLR-009)",
    )
    clear_height: Length | None = Field(
        None,
        description="Lowest clear height along the segment (a door's head, a lift's door or "
        "cab, pipes and ducts over a corridor); at least the rack's height as moved (FLR-008)",
    )
    rolling_load_rating: Force | None = Field(
        None,
        description="Per wheel, per the CISCA rolling-load test (10 passes: move-in); needed "
        "on a raised_floor, judged wherever given (FLR-013)",
    )
    rated_load: Mass | None = Field(
        None, description="A lift's rated load (FLR-010); only on a lift"
    )
    cab_depth: Length | None = Field(
        None,
        description="A lift's clear cab depth, door to back wall (FLR-011); only on a lift",
    )
    slope: PositiveFraction | None = Field(
        None,
        description="A ramp's steepest slope, rise over run (1:12 = 8.33 %) (FLR-012); only "
        "on a ramp",
    )

    @model_validator(mode="after")
    def _fields_of_its_kind(self) -> RouteSegment:
        for name, kind in _ONLY_ON.items():
            if getattr(self, name) is not None and self.kind != kind:
                raise ValueError(
                    Message(
                        "%(field)s is given for a %(kind)s: only a %(only)s has it",
                        field=name,
                        kind=self.kind,
                        only=kind,
                    )
                )
        return self


class MoveInRoute(Strict):
    """How racks reach the hall: its segments in order, and where they are uncrated."""

    segments: list[RouteSegment] = Field(
        min_length=1,
        max_length=1000,
        description="The segments from the loading dock to the hall floor, in order",
    )
    uncrated_from: Id | None = Field(
        None,
        description="The segment from which racks roll on their own casters, uncrated: "
        "before it they pass in their crates (the rack types' crated_* figures), from it on "
        "with their own height, footprint and installed mass; without it, the whole route is "
        "passed crated",
    )
    handling_mass: Mass | None = Field(
        None,
        description="What rides a lift with the rack (pallet jack, dolly, crew): added to the "
        "rack's mass against each lift's rated_load (FLR-010); nothing when not given",
    )

    @model_validator(mode="after")
    def _segments_named_once(self) -> MoveInRoute:
        seen: set[str] = set()
        for segment in self.segments:
            if segment.id in seen:
                raise ValueError(
                    Message("segment '%(id)s' is listed twice in the route", id=segment.id)
                )
            seen.add(segment.id)
        if self.uncrated_from is not None and self.uncrated_from not in seen:
            raise ValueError(
                Message(
                    "%(field)s names no segment of the route: '%(id)s' (segments: %(known)s)",
                    field="uncrated_from",
                    id=self.uncrated_from,
                    known=", ".join(s.id for s in self.segments),
                )
            )
        return self
