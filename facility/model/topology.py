"""The site's relations, built once: who feeds whom, and what belongs where.

Every quantity that sums over "the PDUs below a busway", "the racks of a loop", "of a room",
"of a zone" or "the CDUs on a facility water loop" takes the group from here, and so do the
conservation account (:mod:`facility.engine.account`) and the single-failure and headroom
analyses: what a check judges, what the account adds up and what a loss is found to affect
are the same relation, so a rack cannot be judged in two groups or in none without the
account showing it, and a loss cannot reach an element the analysis does not re-judge.

The relations are built once, as arrays of indices (:class:`Relations`: each kind of entity
numbered once; for each PDU its rack, side and feed, for each element what feeds it, for each
rack its loop, zone, room and row, for each CDU its loop and facility water), from which the
mappings the engine reads today (the PDUs below an element, the chain above a PDU, the racks of
a loop, …) are derived — so evaluation by columns can run on the same relations.

A failure is an *overlay*: :meth:`Topology.without_pdus` and :meth:`Topology.without_cdus`
share every relation the loss does not change (a campus's 10,000s of scenarios never rebuild
the power tree); :mod:`facility.model.overlay` builds the failed site around them. The arrays
are the site's as resolved; what a loss takes out of service is in the overlay's own fields.
"""

from __future__ import annotations

import dataclasses
from array import array
from collections import ChainMap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from facility.model.power import NonItLoad
    from facility.model.site import Pdu, Rack, Site

# A non-IT load's feed: the load and the power side the feed is on.
Feed = tuple["NonItLoad", str]


@dataclass(frozen=True, slots=True)
class Moved:
    """What a rack-side or feed loss changed on the power tree: the changed racks' PDUs as
    they were (``before``), those now out of service (``lost``), and for each element above
    them the changed PDUs it feeds — so an upstream sum is the normal one with those moved."""

    before: tuple[Pdu, ...]
    lost: frozenset[str]
    below: Mapping[str, tuple[Pdu, ...]]


@dataclass(frozen=True, slots=True)
class Numbering:
    """The entities of one kind, numbered once: ``ids[i]`` is entity i, ``index[id]`` is i."""

    ids: tuple[str, ...]
    index: Mapping[str, int]

    @staticmethod
    def of(ids: Iterable[str]) -> Numbering:
        ordered = tuple(dict.fromkeys(ids))
        return Numbering(ordered, {entity: i for i, entity in enumerate(ordered)})

    def at(self, entity: str | None) -> int:
        """The index of ``entity``; -1 for none."""
        return -1 if entity is None else self.index.get(entity, -1)


@dataclass(frozen=True, slots=True)
class Relations:
    """The site's relations as arrays of indices into the numberings (-1: none), one entry per
    entity of the kind named first: ``pdu_rack[i]`` is the rack of PDU i."""

    racks: Numbering
    pdus: Numbering
    elements: Numbering  # busways, panels, RPPs, then power sources
    sides: Numbering
    loops: Numbering
    cdus: Numbering
    waters: Numbering
    rooms: Numbering
    zones: Numbering
    rows: Numbering
    pdu_rack: array[int]
    pdu_side: array[int]
    pdu_feed: array[int]  # the element a PDU is fed by
    element_feed: array[int]  # the element feeding an element (a source: none)
    rack_loop: array[int]
    rack_zone: array[int]
    rack_room: array[int]  # where its air heat lands (a site of one room: that room)
    rack_row: array[int]
    cdu_loop: array[int]
    cdu_water: array[int]


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
    racks_by_row: Mapping[str | None, list[Rack]]  # None: in no row
    relations: Relations  # the arrays all of the above are made from
    # Every distribution element and source → the non-IT load feeds below it (directly or
    # through distribution), and each load's feeds by side.
    loads_below: Mapping[str, tuple[Feed, ...]] = dataclasses.field(default_factory=dict)
    # Each CDU → the loops that name it (a CDU lost changes those, not every loop).
    loops_by_cdu: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    # Each room and each facility water → its air units' ids, in the site's order. An overlay
    # may take units out of service (:func:`facility.model.overlay.without_air_unit`), never
    # add one: :meth:`air_units_of_room` and :meth:`air_units_on_water` keep those it still has.
    air_units_by_room: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    air_units_by_water: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    # "distribution" and "sources" → each element → the ids of that kind in its chain: the
    # elements above a PDU it feeds, by kind (what a PDU's change reaches, found once).
    above_by_kind: Mapping[str, Mapping[str, tuple[str, ...]]] = dataclasses.field(
        default_factory=dict
    )
    pdus_out_of_service: frozenset[str] = frozenset()
    load_feeds_out: frozenset[tuple[str, str]] = frozenset()  # (load id, side) out of service
    moved: Moved | None = None  # set by a failure overlay of the power tree

    # --- reading ------------------------------------------------------------------------

    def room_of(self, rack: Rack) -> str | None:
        """The room a rack's air heat lands in (None when it cannot be told)."""
        return rack.room if rack.room is not None else self.sole_room

    def air_units_of_room(self, site: Site, room_id: str) -> list[Any]:
        """The air units of ``site`` (this topology's site or an overlay of it) in the room."""
        units = site.air_units
        return [units[u] for u in self.air_units_by_room.get(room_id, ()) if u in units]

    def air_units_on_water(self, site: Site, water_id: str) -> list[Any]:
        """The air units of ``site`` whose coils reject into the facility water."""
        units = site.air_units
        return [units[u] for u in self.air_units_by_water.get(water_id, ()) if u in units]

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

    def feeds_in_service(self, load: NonItLoad) -> list[str]:
        """The sides of ``load`` whose feed is in service."""
        out = self.load_feeds_out
        return [side for side in load.fed_by if (load.id, side) not in out]

    def feeds_below(self, element_id: str) -> list[Feed]:
        """The non-IT load feeds fed by ``element_id`` directly or through distribution, in
        service."""
        below = self.loads_below.get(element_id, ())
        if not self.load_feeds_out:
            return list(below)
        out = self.load_feeds_out
        return [(load, side) for load, side in below if (load.id, side) not in out]

    def elements_above_feeds(self, loads: Iterable[NonItLoad]) -> set[str]:
        """Every distribution element and source above any feed of ``loads``."""
        found: set[str] = set()
        for load in loads:
            for element in load.fed_by.values():
                found.update(e.id for e in self.chain.get(element, ()))
        return found

    def elements_above(self, pdus: Iterable[Pdu]) -> set[str]:
        """Every distribution element and source above ``pdus``."""
        found: set[str] = set()
        for fed_by in {p.fed_by for p in pdus if p.fed_by is not None}:
            found.update(e.id for e in self.chain.get(fed_by, ()))
        return found

    # --- overlays -----------------------------------------------------------------------

    def without_pdus(
        self,
        changed: Mapping[str, Rack],
        lost: frozenset[str],
        feeds_lost: frozenset[tuple[str, str]] = frozenset(),
    ) -> Topology:
        """The relations once the racks in ``changed`` (their new state, by id) have lost
        the PDUs ``lost`` and the non-IT loads the feeds ``feeds_lost``: the racks' load
        moves to their PDUs still in service, a load's to its other feeds."""
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
            load_feeds_out=self.load_feeds_out | feeds_lost,
            moved=Moved(before, lost, {k: tuple(v) for k, v in below.items()}),
        )

    def with_racks(self, site: Site, added: list[Rack]) -> Topology | None:
        """The relations of ``site``, this topology's site with the racks ``added`` after its
        own (their PDUs after its PDUs, as :func:`facility.model.overlay.with_racks` adds
        them): what :func:`build_topology` would build, from these relations with the racks
        appended, without a walk over the campus (headroom tries a few dozen counts). None
        when appending is not enough: an overlay, a rack or PDU id already taken, or a side or
        row the site has no rack or PDU on yet (its numbering would change)."""
        r = self.relations
        new_pdus = [p for rack in added for group in rack.pdus.values() for p in group]
        if (
            self.moved is not None
            or self.pdus_out_of_service
            or self.load_feeds_out
            or len(site.racks) != len(r.racks.ids) + len(added)
            or len(site.pdus) != len(r.pdus.ids) + len(new_pdus)
            or len({rack.id for rack in added} | r.racks.index.keys())
            != len(r.racks.ids) + len(added)
            or any(p.id in r.pdus.index or p.side not in r.sides.index for p in new_pdus)
            or any(rack.row is not None and rack.row not in r.rows.index for rack in added)
        ):
            return None
        sole_room = next(iter(site.rooms)) if len(site.rooms) == 1 else None
        racks = Numbering.of((*r.racks.ids, *(rack.id for rack in added)))
        pdus = Numbering.of(site.pdus)
        if len(pdus.ids) != len(r.pdus.ids) + len(new_pdus):
            return None  # (two added PDUs of one id)

        def more(column: array[int], values: Iterable[int]) -> array[int]:
            grown = array("l", column)
            grown.extend(values)
            return grown

        relations = dataclasses.replace(
            r,
            racks=racks,
            pdus=pdus,
            pdu_rack=more(r.pdu_rack, (racks.at(p.rack) for p in new_pdus)),
            pdu_side=more(r.pdu_side, (r.sides.at(p.side) for p in new_pdus)),
            pdu_feed=more(r.pdu_feed, (r.elements.at(p.fed_by) for p in new_pdus)),
            rack_loop=more(r.rack_loop, (r.loops.at(rack.loop) for rack in added)),
            rack_zone=more(r.rack_zone, (r.zones.at(rack.zone) for rack in added)),
            rack_room=more(r.rack_room, (r.rooms.at(rack.room or sole_room) for rack in added)),
            rack_row=more(r.rack_row, (r.rows.at(rack.row) for rack in added)),
        )

        def grouped(
            groups: Mapping[str | None, list[Rack]], of_rack: array[int], names: Numbering
        ) -> dict[str | None, list[Rack]]:
            out = dict(groups)
            for i, rack in enumerate(added, start=len(r.racks.ids)):
                at = of_rack[i]
                name = names.ids[at] if at >= 0 else None
                out[name] = [*out.get(name, ()), rack]
            return out

        below: dict[str, list[Pdu]] = {}
        for i, pdu in enumerate(new_pdus, start=len(r.pdus.ids)):
            feed = relations.pdu_feed[i]
            for element in self.chain.get(r.elements.ids[feed], ()) if feed >= 0 else ():
                below.setdefault(element.id, []).append(pdu)
        pdus_below = dict(self.pdus_below)
        for element_id, found in below.items():
            pdus_below[element_id] = (*pdus_below.get(element_id, ()), *found)
        return dataclasses.replace(
            self,
            rack_by_id={**self.rack_by_id, **{rack.id: rack for rack in added}},
            racks_by_loop=grouped(self.racks_by_loop, relations.rack_loop, r.loops),
            racks_by_zone=grouped(self.racks_by_zone, relations.rack_zone, r.zones),
            racks_by_room=grouped(self.racks_by_room, relations.rack_room, r.rooms),
            racks_by_row=grouped(self.racks_by_row, relations.rack_row, r.rows),
            pdus_below=pdus_below,
            relations=relations,
        )

    def without_cdus(self, lost: frozenset[str]) -> Topology:
        """The relations once the CDUs ``lost`` are out of service (the loops that name them
        are changed with the site: :func:`facility.model.overlay.without_cdus`). Only the
        facility water of each lost CDU changes; the others are shared."""
        r = self.relations
        waters = {r.cdu_water[r.cdus.index[c]] for c in lost if c in r.cdus.index}
        changed = {}
        for water in sorted(w for w in waters if w >= 0):
            water_id = r.waters.ids[water]
            cdus = self.cdus_by_water.get(water_id)
            if cdus is not None:
                changed[water_id] = tuple(c for c in cdus if c not in lost)
        on_water = ChainMap(changed, self.cdus_by_water)  # type: ignore[arg-type]
        return dataclasses.replace(self, cdus_by_water=on_water)


def build_topology(site: Site) -> Topology:
    """The relations of ``site``, from its racks, PDUs, distribution, sources and CDUs."""
    r = relations_of(site)
    racks, pdus = site.racks, [site.pdus[p] for p in r.pdus.ids]
    elements = [site.distribution.get(e) or site.sources[e] for e in r.elements.ids]

    def grouped(of_rack: array[int], names: Numbering) -> dict[str | None, list[Rack]]:
        groups: dict[str | None, list[Rack]] = {}
        for i, rack in enumerate(racks):
            at = of_rack[i]
            groups.setdefault(names.ids[at] if at >= 0 else None, []).append(rack)
        return groups

    chains: list[tuple[Any, ...]] = []
    for e in range(len(elements)):
        chain, node, seen = [], e, set()
        while node >= 0 and node not in seen:  # the resolver refuses a cycle; stop at one
            seen.add(node)
            chain.append(elements[node])
            node = r.element_feed[node]
        chains.append(tuple(chain))
    below: dict[str, list[Pdu]] = {}
    for i, pdu in enumerate(pdus):
        feed = r.pdu_feed[i]
        for element in chains[feed] if feed >= 0 else ():
            below.setdefault(element.id, []).append(pdu)
    loads_below: dict[str, list[Feed]] = {}
    index = {e.id: i for i, e in enumerate(elements)}
    for load in site.loads.values():
        for side, element in load.fed_by.items():
            for above in chains[index[element]] if element in index else ():
                loads_below.setdefault(above.id, []).append((load, side))
    on_water: dict[str, list[str]] = {}
    loops_by_cdu: dict[str, list[str]] = {}
    units_by_room: dict[str, list[str]] = {}
    units_by_water: dict[str, list[str]] = {}
    for unit_id, unit in site.air_units.items():
        if unit.room is not None:
            units_by_room.setdefault(unit.room, []).append(unit_id)
        if unit.facility_water is not None:
            units_by_water.setdefault(unit.facility_water, []).append(unit_id)
    for loop_id, loop in site.loops.items():
        for cdu_id in dict.fromkeys(loop.cdus):
            loops_by_cdu.setdefault(cdu_id, []).append(loop_id)
    for c, cdu_id in enumerate(r.cdus.ids):
        if r.cdu_water[c] >= 0:
            on_water.setdefault(r.waters.ids[r.cdu_water[c]], []).append(cdu_id)

    return Topology(
        rack_by_id={rack.id: rack for rack in racks},
        racks_by_loop=grouped(r.rack_loop, r.loops),
        racks_by_zone=grouped(r.rack_zone, r.zones),
        racks_by_room=grouped(r.rack_room, r.rooms),
        sole_room=next(iter(site.rooms)) if len(site.rooms) == 1 else None,
        pdus_below={element: tuple(found) for element, found in below.items()},
        chain={e.id: chains[i] for i, e in enumerate(elements)},
        power_sides=frozenset(r.sides.ids).union(*(load.fed_by for load in site.loads.values())),
        cdus_by_water={water: tuple(cdus) for water, cdus in on_water.items()},
        racks_by_row=grouped(r.rack_row, r.rows),
        relations=r,
        loads_below={element: tuple(found) for element, found in loads_below.items()},
        loops_by_cdu={cdu: tuple(loops) for cdu, loops in loops_by_cdu.items()},
        air_units_by_room={room: tuple(units) for room, units in units_by_room.items()},
        air_units_by_water={water: tuple(units) for water, units in units_by_water.items()},
        above_by_kind={
            kind: {
                e.id: tuple(a.id for a in chains[i] if a.id in getattr(site, kind))
                for i, e in enumerate(elements)
            }
            for kind in ("distribution", "sources")
        },
    )


def relations_of(site: Site) -> Relations:
    """Number the site's entities once and record each relation as an array of indices."""
    sole_room = next(iter(site.rooms)) if len(site.rooms) == 1 else None
    racks = Numbering.of(rack.id for rack in site.racks)
    pdus = Numbering.of(site.pdus)
    elements = Numbering.of((*site.distribution, *site.sources))
    sides = Numbering.of(sorted({p.side for p in site.pdus.values()}))
    loops, cdus = Numbering.of(site.loops), Numbering.of(sorted(site.cdus))
    waters, rooms = Numbering.of(site.facility_water), Numbering.of(site.rooms)
    zones = Numbering.of(site.zones)
    rows = Numbering.of(sorted({rack.row for rack in site.racks if rack.row is not None}))

    def ints(values: Iterable[int]) -> array[int]:
        return array("l", values)

    def feed_of(element: str) -> str | None:
        found = site.distribution.get(element)
        return None if found is None else found.fed_by

    on_pdu = [site.pdus[p] for p in pdus.ids]
    return Relations(
        racks, pdus, elements, sides, loops, cdus, waters, rooms, zones, rows,
        pdu_rack=ints(racks.at(p.rack) for p in on_pdu),
        pdu_side=ints(sides.at(p.side) for p in on_pdu),
        pdu_feed=ints(elements.at(p.fed_by) for p in on_pdu),
        element_feed=ints(elements.at(feed_of(e)) for e in elements.ids),
        rack_loop=ints(loops.at(rack.loop) for rack in site.racks),
        rack_zone=ints(zones.at(rack.zone) for rack in site.racks),
        rack_room=ints(rooms.at(rack.room or sole_room) for rack in site.racks),
        rack_row=ints(rows.at(rack.row) for rack in site.racks),
        cdu_loop=ints(loops.at(site.cdus[c].loop) for c in cdus.ids),
        cdu_water=ints(waters.at(site.cdus[c].spec.facility_water) for c in cdus.ids),
    )  # fmt: skip
