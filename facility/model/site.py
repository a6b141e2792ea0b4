"""The resolved site: what physics and rules work on.

Resolution turns the document as written into entities with every reference followed:
rows are expanded into racks, catalog figures are merged under the site's own figures and
per-rack overrides, PDUs get their ids, and each entity remembers where it was written.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from facility.model.cluster import ResolvedCluster
from facility.model.coolant_quality import LeakZone
from facility.model.cooling import AirUnit, Cdu, CduFigures, Coolant, FacilityWater, TcsLoop
from facility.model.document import Conventions, SiteInfo
from facility.model.equipment import RackFigures
from facility.model.floor import FloorZone, Room
from facility.model.heat_rejection import HeatRejection
from facility.model.power import Distribution, NonItLoad, PduType, PowerSource
from facility.model.source import Location
from facility.model.waivers import Waiver

if TYPE_CHECKING:
    from facility.model.topology import Topology


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where one figure came from: the site file, or a catalog entry with its source."""

    origin: str  # "site" or "catalog"
    catalog_id: str | None = None
    source: str | None = None
    confidence: str | None = None
    assumption: bool = False
    location: Location | None = None


@dataclass(frozen=True, slots=True)
class Layer:
    """One file of a site: the file given, or a base it ``extends:`` (see
    :mod:`facility.model.layers`), with the SHA-256 of its bytes."""

    file: str
    sha256: str


@dataclass(slots=True)
class ResolvedRackType:
    id: str
    figures: RackFigures
    provenance: dict[str, Provenance]
    location: Location

    @property
    def is_passive(self) -> bool:
        """No powered equipment: a known zero load (``passive: true``)."""
        return bool(self.figures.passive)

    @property
    def is_liquid(self) -> bool:
        f = self.figures
        if f.cooling is not None:
            return f.cooling == "liquid"
        return bool(f.liquid_heat_fraction)


@dataclass(slots=True)
class ResolvedCdu:
    id: str
    spec: Cdu
    figures: CduFigures
    provenance: dict[str, Provenance]
    location: Location
    loop: str | None = None

    @property
    def approach(self) -> float | None:
        return self.spec.approach if self.spec.approach is not None else self.figures.rated_approach


@dataclass(slots=True)
class Pdu:
    id: str
    rack: str
    side: str
    type_id: str
    figures: PduType
    derating: float
    fed_by: str | None
    location: Location
    # Where it stands among its side's PDUs as declared (0-based) and how many were declared:
    # the rack's power inputs of that side are spread over them in turn (round robin).
    position_on_side: int = 0
    pdus_on_side: int = 1


@dataclass(slots=True)
class Rack:
    id: str
    type: ResolvedRackType
    zone: str | None
    room: str | None
    row: str | None
    position: int | None
    loop: str | None
    pdus: dict[str, list[Pdu]]
    location: Location
    sides_lost: int = 0  # power sides removed by a failure scenario (facility.analysis)


@dataclass(slots=True)
class Site:
    """A loaded, checked site. Every mapping is keyed by entity id.

    A resolved site is not changed in place: a changed site is a new one (a failure overlay,
    ``dataclasses.replace``), whose relations (:attr:`topology`) are its own."""

    file: str
    sha256: str
    info: SiteInfo
    conventions: Conventions
    rooms: dict[str, Room]
    zones: dict[str, FloorZone]
    rack_types: dict[str, ResolvedRackType]
    racks: list[Rack]
    pdus: dict[str, Pdu]
    sources: dict[str, PowerSource]
    distribution: dict[str, Distribution]
    facility_water: dict[str, FacilityWater]
    cdus: dict[str, ResolvedCdu]
    loops: dict[str, TcsLoop]
    air_units: dict[str, AirUnit]
    loads: dict[str, NonItLoad] = field(default_factory=dict)  # non-IT loads on the chain
    # chillers, dry coolers, cooling towers (facility.model.heat_rejection)
    heat_rejection: dict[str, HeatRejection] = field(default_factory=dict)
    # leak-detection zones (facility.model.coolant_quality)
    leak_detection: dict[str, LeakZone] = field(default_factory=dict)
    locations: dict[tuple[str, str], Location] = field(default_factory=dict)
    waivers: list[tuple[Waiver, Location]] = field(default_factory=list)
    cluster: ResolvedCluster | None = None  # facility.model.cluster; None without 'cluster:'
    # Every file of the site in the order applied: bases first, the file given last.
    layers: list[Layer] = field(default_factory=list)
    _topology: Topology | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def topology(self) -> Topology:
        """Who feeds whom and what belongs where (:mod:`facility.model.topology`): built by
        the resolver, or on first use for a site made otherwise."""
        if self._topology is None:
            from facility.model.topology import build_topology

            self._topology = build_topology(self)
        return self._topology

    def with_topology(self, topology: Topology, **changes: Any) -> Site:
        """A copy of the site with ``changes`` (fields) and the relations ``topology``: a
        failure overlay, whose relations share what the loss does not change."""
        site = dataclasses.replace(self, **changes)
        site._topology = topology
        return site

    def where(self, kind: str, entity_id: str) -> Location | None:
        """Where the entity of ``kind`` with ``entity_id`` was written."""
        return self.locations.get((kind, entity_id))

    def coolant_of(self, loop_id: str) -> Coolant:
        return self.loops[loop_id].coolant

    def summary(self) -> dict[str, Any]:
        """Counts of what was loaded, for the terminal and for tests."""
        counts = {
            "rooms": len(self.rooms),
            "floor_zones": len(self.zones),
            "rack_types": len(self.rack_types),
            "racks": len(self.racks),
            "pdus": len(self.pdus),
            "power_sources": len(self.sources),
            "distribution": len(self.distribution),
            "facility_water": len(self.facility_water),
            "cdus": len(self.cdus),
            "tcs_loops": len(self.loops),
            "air_units": len(self.air_units),
        }
        if self.loads:
            counts["loads"] = len(self.loads)
        if self.heat_rejection:
            counts["heat_rejection"] = len(self.heat_rejection)
        return counts
