"""The site file as written: the top-level document and its JSON Schema."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from facility.model.base import Strict
from facility.model.cluster import Cluster
from facility.model.cooling import Cooling
from facility.model.document_control import DocumentControl
from facility.model.equipment import RackType
from facility.model.fields import NotATruthValue, PositiveFraction
from facility.model.floor import FloorZone, Room
from facility.model.power import Power
from facility.model.racks import Rack, Row
from facility.model.waivers import Waiver

SCHEMA_VERSION = 1


class SiteInfo(Strict):
    name: str = Field(min_length=1, max_length=500)
    location: str | None = None
    design_intent: str | None = Field(None, description="e.g. 'Tier III'")
    notes: str | None = None
    document: DocumentControl | None = Field(
        None, description="Document control: number, revision, status, history, signers"
    )
    display_units: Literal["si", "us"] | None = Field(
        None,
        description="Units the reports show for this site when the command line and the "
        "configuration file do not say: si (kPa, kg, L/min, °C) or us (psf, psi, lb, gpm, °F)",
    )


class Conventions(Strict):
    """Site-wide conventions; each is printed in the report next to the results."""

    continuous_load_derating: PositiveFraction = Field(
        0.8, description="Breaker continuous-load factor (NEC 210.20(A): 80 %)"
    )


class SiteDocument(Strict):
    """A hall (or campus) as the engineer wrote it."""

    schema_version: Annotated[Literal[1], NotATruthValue] = 1
    extends: str | list[str] | None = Field(
        None,
        description="Base site file(s) this file is merged over, relative to this file "
        "(applied in order; see docs/layering.md)",
    )
    site: SiteInfo
    conventions: Conventions = Conventions()
    rooms: list[Room] = []
    floor_zones: list[FloorZone] = []
    rack_types: list[RackType] = []
    power: Power = Power()
    cooling: Cooling = Cooling()
    rows: list[Row] = []
    racks: list[Rack] = []
    waivers: list[Waiver] = Field(
        [], description="Accepted findings: rule, entity, reason, owner, expiry"
    )
    cluster: Cluster | None = Field(
        None, description="The cluster the supernodes form: network, storage, plan, evidence"
    )


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a site file, for editors' completion and validation."""
    schema = SiteDocument.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "facility site file"
    return schema
