"""Racks, and rows of identical racks declared in one block."""

from __future__ import annotations

from pydantic import Field

from facility.model.base import Entity, Strict
from facility.model.equipment import RackFigures
from facility.model.fields import Id


class PduGroup(Strict):
    """The PDUs (or whips) of one power side of a rack.

    Ids are ``<rack>-<side><n>`` (A01-A1 … A01-A4) unless ``names`` gives them.
    """

    type: Id = Field(description="A pdu_types id or a catalog PDU")
    count: int = Field(1, description="PDUs (or whips) on this side", ge=1, le=64)
    fed_by: Id | None = Field(None, description="Upstream distribution or source id")
    names: list[Id] | None = Field(None, description="Ids of the PDUs, instead of <rack>-<side><n>")


class RackPlacement(Strict):
    """What racks and rows have in common."""

    type: Id = Field(description="A rack_types id or a catalog rack type")
    zone: Id | None = Field(None, description="The floor zone the rack stands on")
    loop: Id | None = Field(None, description="The TCS loop cooling this rack")
    pdus: dict[Id, PduGroup] = Field({}, description="Power sides (usually A and B) and their PDUs")
    overrides: RackFigures | None = Field(None, description="Figures that differ for this rack")


class Rack(RackPlacement, Entity):
    row: Id | None = Field(None, description="The row the rack belongs to")
    position: int | None = Field(None, description="Position in its row", ge=0, le=100_000)


class Numbering(Strict):
    """Rack ids of a row: prefix + zero-padded number, e.g. A01 … A08."""

    prefix: str = Field("", description="Text before the number, e.g. 'A'")
    first: int = Field(1, description="First number", ge=0, le=999_999_999)
    count: int = Field(description="Racks in the row", ge=1, le=100_000)
    digits: int = Field(2, description="Digits of the zero-padded number (2: A01)", ge=1, le=9)


class Row(RackPlacement, Entity):
    """A row of identical racks; each gets its position in the row (1, 2, …)."""

    racks: Numbering = Field(
        description="How the row's racks are numbered: {prefix, first, count, digits}"
    )
