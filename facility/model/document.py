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
from facility.model.heat_rejection import DesignAmbient
from facility.model.power import Power
from facility.model.racks import Rack, Row
from facility.model.waivers import Waiver

SCHEMA_VERSION = 1
# The schema's identifier. facility has no web site to serve it from, so the id is a URN that
# names the format and its version (RFC 8141), not an address: editors get the schema from a
# file, ``facility schema > site.schema.json``, that the starter's first line points at.
SCHEMA_ID = f"urn:facility:site-schema:{SCHEMA_VERSION}"
SCHEMA_FILE = "site.schema.json"


class SiteInfo(Strict):
    name: str = Field(
        description="Name of the hall or campus, shown in every report",
        min_length=1,
        max_length=500,
    )
    location: str | None = Field(None, description="Where the site is (address, campus, building)")
    design_intent: str | None = Field(
        None,
        description="e.g. 'Tier III'; Tier III (or Rated 3) selects the tier-iii rule profile, "
        "anything else supernode, unless --profile says",
    )
    notes: str | None = Field(None, description="Free text printed in the report header")
    document: DocumentControl | None = Field(
        None, description="Document control: number, revision, status, history, signers"
    )
    design_ambient: DesignAmbient | None = Field(
        None,
        description="Outdoor design dry and wet bulb the heat rejection plant must work at "
        "(user-given, e.g. ASHRAE 0.4 % cooling)",
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

    schema_version: Annotated[Literal[1], NotATruthValue] = Field(
        1, description="Version of the site-file format; 1"
    )
    extends: str | list[str] | None = Field(
        None,
        description="Base site file(s) this file is merged over, relative to this file "
        "(applied in order; see docs/layering.md)",
    )
    site: SiteInfo = Field(
        description="The site's name, location, design intent and document control"
    )
    conventions: Conventions = Field(
        Conventions(), description="Site-wide conventions (continuous-load derating)"
    )
    rooms: list[Room] = Field(
        [], description="Rooms (halls): air units and the redundancy their air cooling needs"
    )
    floor_zones: list[FloorZone] = Field(
        [], description="Floor areas with one structural rating each"
    )
    rack_types: list[RackType] = Field(
        [], description="Kinds of rack: power, mass, cooling figures (or a catalog entry)"
    )
    power: Power = Field(Power(), description="Power sources, distribution and PDU types")
    cooling: Cooling = Field(
        Cooling(), description="Facility water, CDUs, TCS loops and room air units"
    )
    rows: list[Row] = Field([], description="Rows of identical racks, declared in one block")
    racks: list[Rack] = Field([], description="Racks declared one by one")
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
    schema["$id"] = SCHEMA_ID
    schema["title"] = "facility site file"
    return schema
