"""The site's relations, built once: who feeds whom, and what belongs where.

Every quantity that sums over "the PDUs below a busway", "the racks of a loop", "of a room",
"of a zone" or "the CDUs on a facility water loop" takes the group from here, and so do the
conservation account (:mod:`facility.engine.account`) and the single-failure and headroom
analyses: what a check judges, what the account adds up and what a loss is found to affect
are the same relation, so a rack cannot be judged in two groups or in none without the
account showing it, and a loss cannot reach an element the analysis does not re-judge.

A failure is an *overlay*: :meth:`Topology.without_pdus` and :meth:`Topology.without_cdus`
share every relation the loss does not change (a campus's 10,000s of scenarios never rebuild
the power tree); :mod:`facility.model.overlay` builds the failed site around them.
"""

from __future__ import annotations

import dataclasses
from collections import ChainMap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from facility.model.site import Pdu, Rack, Site


@dataclass(frozen=True, slots=True)
class Moved:
    """What a rack-side or feed loss changed on the power tree: the changed racks' PDUs as
    they were (``before``), those now out of service (``lost``), and for each element above
    them the changed PDUs it feeds — so an upstream sum is the normal one with those moved."""

    before: tuple[Pdu, ...]
    lost: frozenset[str]
    below: Mapping[str, tuple[Pdu, ...]]


@dataclass(frozen=True, slots=True)
class Topology:
    """The relations of one site (or of a failure overlay of it), keyed by entity id."""

    rack_by_id: Mapping[str, Rack]
    racks_by_loop: Mapping[str | None, list[Rack]]  # None: on no loop
    racks_by_zone: Mapping[str | None, list[Rack]]  # None: in no zone
    # Racks by room: their zone's, else their loop's; in a site of one room, that room.
    # None: a rack whose room cannot be told (several rooms, no zone or loop with a room).
    racks_by_room: Mapping[str | None, list[Rack]]
    sole_room: str | None  # the room of a site of one room
    # Every distribution element and source → the PDUs below it, directly or through
    # distribution; and each element a PDU is fed by → the chain above, nearest first.
    pdus_below: Mapping[str, tuple[Pdu, ...]]
    chain: Mapping[str, tuple[Any, ...]]
    power_sides: frozenset[str]  # every side name a rack uses (A, B, …)
    cdus_by_water: Mapping[str, tuple[str, ...]]  # facility water → CDU ids on it
    pdus_out_of_service: frozenset[str] = frozenset()
    moved: Moved | None = None  # set by a failure overlay of the power tree

    # --- reading ------------------------------------------------------------------------

    def room_of(self, rack: Rack) -> str | None:
        """The room a rack's air heat lands in (None when it cannot be told)."""
        return rack.room if rack.room is not None else self.sole_room

    def upstream(self, pdu: Pdu) -> tuple[Any, ...]:
        """The distribution elements and source above ``pdu``, nearest first."""
        return self.chain.get(pdu.fed_by, ()) if pdu.fed_by is not None else ()

    def pdus_in_service_below(self, element_id: str) -> list[Pdu]:
        """The PDUs fed by ``element_id`` directly or through distribution, in service."""
        below = self.pdus_below.get(element_id, ())
        if not self.pdus_out_of_service:
            return list(below)
        lost = self.pdus_out_of_service
        return [p for p in below if p.id not in lost]

    def elements_above(self, pdus: Iterable[Pdu]) -> set[str]:
        """Every distribution element and source above ``pdus``."""
        found: set[str] = set()
        for fed_by in {p.fed_by for p in pdus if p.fed_by is not None}:
            found.update(e.id for e in self.chain.get(fed_by, ()))
        return found

    # --- overlays -----------------------------------------------------------------------

    def without_pdus(self, changed: Mapping[str, Rack], lost: frozenset[str]) -> Topology:
        """The relations once the racks in ``changed`` (their new state, by id) have lost
        the PDUs ``lost``: the racks' load moves to their PDUs still in service."""
        before = tuple(
            p
            for rack_id in changed
            for side in self.rack_by_id[rack_id].pdus.values()
            for p in side
        )
        below: dict[str, list[Pdu]] = {}
        for pdu in before:
            for element in self.upstream(pdu):
                below.setdefault(element.id, []).append(pdu)
        return dataclasses.replace(
            self,
            rack_by_id=ChainMap(dict(changed), self.rack_by_id),  # type: ignore[arg-type]
            pdus_out_of_service=self.pdus_out_of_service | lost,
            moved=Moved(before, lost, {k: tuple(v) for k, v in below.items()}),
        )

    def without_cdus(self, lost: frozenset[str]) -> Topology:
        """The relations once the CDUs ``lost`` are out of service (the loops that name them
        are changed with the site: :func:`facility.model.overlay.without_cdus`)."""
        return dataclasses.replace(
            self,
            cdus_by_water={
                water: tuple(c for c in cdus if c not in lost)
                for water, cdus in self.cdus_by_water.items()
            },
        )


def build_topology(site: Site) -> Topology:
    """The relations of ``site``, from its racks, PDUs, distribution, sources and CDUs."""
    sole_room = next(iter(site.rooms)) if len(site.rooms) == 1 else None
    by_loop: dict[str | None, list[Rack]] = {}
    by_zone: dict[str | None, list[Rack]] = {}
    by_room: dict[str | None, list[Rack]] = {}
    sides: set[str] = set()
    for rack in site.racks:
        by_loop.setdefault(rack.loop, []).append(rack)
        by_zone.setdefault(rack.zone, []).append(rack)
        by_room.setdefault(rack.room if rack.room is not None else sole_room, []).append(rack)
        sides.update(rack.pdus)

    chain = {element: _chain(site, element) for element in (*site.distribution, *site.sources)}
    below: dict[str, list[Pdu]] = {}
    for pdu in site.pdus.values():
        for element in chain.get(pdu.fed_by, ()) if pdu.fed_by is not None else ():
            below.setdefault(element.id, []).append(pdu)

    on_water: dict[str, list[str]] = {}
    for cdu_id in sorted(site.cdus):
        water = site.cdus[cdu_id].spec.facility_water
        if water is not None:
            on_water.setdefault(water, []).append(cdu_id)

    return Topology(
        rack_by_id={rack.id: rack for rack in site.racks},
        racks_by_loop=by_loop,
        racks_by_zone=by_zone,
        racks_by_room=by_room,
        sole_room=sole_room,
        pdus_below={element: tuple(pdus) for element, pdus in below.items()},
        chain=chain,
        power_sides=frozenset(sides),
        cdus_by_water={water: tuple(cdus) for water, cdus in on_water.items()},
    )


def _chain(site: Site, start: str) -> tuple[Any, ...]:
    """``start`` and the elements above it up to its source, nearest first (the resolver
    refuses a cycle of feeds; the walk still stops at one)."""
    found: list[Any] = []
    node: str | None = start
    seen: set[str] = set()
    while node is not None and node not in seen:
        seen.add(node)
        element = site.distribution.get(node) or site.sources.get(node)
        if element is None:
            break
        found.append(element)
        node = getattr(element, "fed_by", None)
    return tuple(found)
