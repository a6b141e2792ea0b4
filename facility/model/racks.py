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
    count: int = Field(1, ge=1, le=64)
    fed_by: Id | None = Field(None, description="Upstream distribution or source id")
    names: list[Id] | None = None


class RackPlacement(Strict):
    """What racks and rows have in common."""

    type: Id = Field(description="A rack_types id or a catalog rack type")
    zone: Id | None = None
    loop: Id | None = Field(None, description="The TCS loop cooling this rack")
    pdus: dict[Id, PduGroup] = Field({}, description="Power sides (usually A and B) and their PDUs")
    overrides: RackFigures | None = Field(None, description="Figures that differ for this rack")


class Rack(RackPlacement, Entity):
    row: Id | None = None
    position: int | None = Field(None, ge=0, le=100_000)


class Numbering(Strict):
    """Rack ids of a row: prefix + zero-padded number, e.g. A01 … A08."""

    prefix: str = ""
    first: int = Field(1, ge=0, le=999_999_999)
    count: int = Field(ge=1, le=100_000)
    digits: int = Field(2, ge=1, le=9)


class Row(RackPlacement, Entity):
    """A row of identical racks; each gets its position in the row (1, 2, …)."""

    racks: Numbering
