"""What a change affects, derived from what each quantity declares it reads.

Every registered quantity (:func:`facility.engine.quantities.quantity`) states what it reads
besides its entity's own fixed figures, as entries of four forms:

- ``"pdus"``: an *aspect* of its entity's state — what a failure or an added rack changes;
- ``"self.liquid_heat"``: another quantity of the same entity;
- ``"pdus_below.pdu_load"``: a quantity of the entities a *relation* leads to;
- ``"rack:pdus"``: an aspect of the state of those entities.

A change is a set of *seeds*, (scope, entity id, aspect): a rack side lost changes the rack's
``pdus``, and the ``below`` of every busway, panel and source above the lost PDUs; a CDU lost
changes its loop's ``cdus`` and its facility water's; a pump lost, the CDU's ``figures``; an air
unit lost, its room's ``air_units``; added racks, the ``racks`` of their loop, room and zone
(and are new entities, all of whose quantities are new). :func:`affected` follows the
declarations backwards — through the inverse of each relation, on the changed site's
:mod:`facility.model.topology` — to every (entity, quantity) whose value can change, and
returns the entities holding one: what the failure and headroom analyses judge again.

Aspects by scope, and the relations (from a scope, the entities it reads) are listed below;
:func:`check_declarations` refuses a declaration that names anything else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from facility.engine.quantities import catalogue
from facility.model.site import Site

Seed = tuple[str, str, str]  # (scope, entity id, aspect); aspect "*" for a new entity
Affected = dict[str, list[tuple[str, Any]]]  # scope -> [(entity id, entity)]

ASPECTS: dict[str, frozenset[str]] = {
    "rack": frozenset({"pdus"}),  # its PDUs in service (sides lost)
    "pdu": frozenset(),
    "distribution": frozenset({"below"}),  # the PDUs in service below it
    "power_source": frozenset({"below"}),
    "tcs_loop": frozenset({"racks", "cdus"}),  # its racks; its CDUs in service
    "cdu": frozenset({"figures"}),  # its figures (pumps running, rated flow)
    # the CDUs in service on it; its heat rejection units in service; its air units in service
    "facility_water": frozenset({"cdus", "heat_rejection", "air_units"}),
    "room": frozenset({"racks", "air_units"}),  # the racks it cools; its air units in service
    "floor_zone": frozenset({"racks"}),
}

# (scope, relation) -> (the scope it leads to, the inverse: an entity id of that scope -> the
# ids of the entities of ``scope`` that read it), on the changed site.
Inverse = Callable[[Site, str], Iterable[str]]


def _pdus_of_rack(site: Site, rack_id: str) -> Iterable[str]:
    rack = site.topology.rack_by_id.get(rack_id)
    return () if rack is None else [p.id for side in rack.pdus.values() for p in side]


def _rack_of_pdu(site: Site, pdu_id: str) -> Iterable[str]:
    pdu = site.pdus.get(pdu_id)
    return () if pdu is None else (pdu.rack,)


def _above(kinds: str) -> Inverse:
    def inverse(site: Site, pdu_id: str) -> Iterable[str]:
        pdu = site.pdus.get(pdu_id)
        if pdu is None or pdu.fed_by is None:
            return ()
        return site.topology.above_by_kind[kinds].get(pdu.fed_by, ())

    return inverse


def _loop_of_cdu(site: Site, cdu_id: str) -> Iterable[str]:
    cdu = site.cdus.get(cdu_id)
    return () if cdu is None or cdu.loop is None else (cdu.loop,)


def _cdus_of_loop(site: Site, loop_id: str) -> Iterable[str]:
    loop = site.loops.get(loop_id)
    return () if loop is None else list(loop.cdus)


def _water_of_cdu(site: Site, cdu_id: str) -> Iterable[str]:
    cdu = site.cdus.get(cdu_id)
    water = None if cdu is None else cdu.spec.facility_water
    return () if water is None else (water,)


def _waters_of_loop(site: Site, loop_id: str) -> Iterable[str]:
    found: list[str] = []
    for cdu_id in _cdus_of_loop(site, loop_id):
        found.extend(_water_of_cdu(site, cdu_id))
    return found


def _waters_of_room(site: Site, room_id: str) -> Iterable[str]:
    units = site.topology.air_units_of_room(site, room_id)
    return sorted({u.facility_water for u in units if u.facility_water is not None})


RELATIONS: dict[tuple[str, str], tuple[str, Inverse]] = {
    ("rack", "pdus"): ("pdu", _rack_of_pdu),
    ("pdu", "rack"): ("rack", _pdus_of_rack),
    ("distribution", "pdus_below"): ("pdu", _above("distribution")),
    ("power_source", "pdus_below"): ("pdu", _above("sources")),
    ("tcs_loop", "cdus"): ("cdu", _loop_of_cdu),
    ("cdu", "loop"): ("tcs_loop", _cdus_of_loop),
    ("facility_water", "cdus"): ("cdu", _water_of_cdu),
    ("facility_water", "loops"): ("tcs_loop", _waters_of_loop),
    # the rooms whose air units (some of them) reject into the water
    ("facility_water", "air_rooms"): ("room", _waters_of_room),
}


class _Readers:
    """The declarations turned around: who reads each aspect and each quantity."""

    def __init__(self) -> None:
        # (scope, aspect) -> quantities of that scope reading it of their own entity
        self.own: dict[tuple[str, str], list[str]] = {}
        # (scope read, aspect) -> [(reader scope, reader quantity, relation)]
        self.related_aspect: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
        # (scope read, quantity read) -> [(reader scope, reader quantity, relation or "self")]
        self.quantity: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
        for scope, quantities in catalogue().items():
            for name, spec in quantities.items():
                for entry in spec.reads:
                    self._add(scope, name, entry)

    def _add(self, scope: str, name: str, entry: str) -> None:
        if "." in entry:
            relation, _, read = entry.partition(".")
            if ":" in read:  # "loop.cdus:figures": an aspect two relations away
                second, _, aspect = read.partition(":")
                middle = RELATIONS[(scope, relation)][0]
                target = RELATIONS[(middle, second)][0]
                self.related_aspect.setdefault((target, aspect), []).append(
                    (scope, name, f"{relation}.{second}")
                )
                return
            target = scope if relation == "self" else RELATIONS[(scope, relation)][0]
            self.quantity.setdefault((target, read), []).append((scope, name, relation))
        elif ":" in entry:
            relation, _, aspect = entry.partition(":")
            target = RELATIONS[(scope, relation)][0]
            self.related_aspect.setdefault((target, aspect), []).append((scope, name, relation))
        else:
            self.own.setdefault((scope, entry), []).append(name)


_READERS: _Readers | None = None


def _readers() -> _Readers:
    global _READERS
    if _READERS is None:
        check_declarations()
        _READERS = _Readers()
    return _READERS


def _inverse(site: Site, scope: str, relation: str, read_id: str) -> Iterable[str]:
    """The entities of ``scope`` that reach ``read_id`` through ``relation`` (which may be two
    relations, "loop.cdus")."""
    if relation == "self":
        return (read_id,)
    if "." in relation:
        first, _, second = relation.partition(".")
        middle = RELATIONS[(scope, first)][0]
        return [
            reader
            for between in RELATIONS[(middle, second)][1](site, read_id)
            for reader in RELATIONS[(scope, first)][1](site, between)
        ]
    return RELATIONS[(scope, relation)][1](site, read_id)


Path = tuple[tuple[str, str], ...]  # (reader scope, relation) steps, outward from a seed


def _paths(scope: str, aspect: str) -> frozenset[tuple[str, Path]]:
    """Where a change of ``aspect`` of an entity of ``scope`` reaches: each (scope, path) of
    the entities holding a quantity it can change — the declarations followed once, so a
    scenario only walks the relations (``"*"``: a new entity, every quantity of it)."""
    found = _PATHS.get((scope, aspect))
    if found is not None:
        return found
    readers = _readers()
    start: list[tuple[str, str, Path]] = []  # (scope, quantity, path)
    if aspect == "*":
        start += [(scope, name, ()) for name in catalogue().get(scope, {})]
    else:
        start += [(scope, name, ()) for name in readers.own.get((scope, aspect), ())]
        start += [
            (reader_scope, name, ((reader_scope, relation),))
            for reader_scope, name, relation in readers.related_aspect.get((scope, aspect), ())
        ]
    seen: set[tuple[str, str, Path]] = set()
    work = list(start)
    while work:
        item = work.pop()
        if item in seen:
            continue
        seen.add(item)
        read_scope, name, path = item
        for reader_scope, reader, relation in readers.quantity.get((read_scope, name), ()):
            step = path if relation == "self" else (*path, (reader_scope, relation))
            if len(step) <= _MAX_STEPS:
                work.append((reader_scope, reader, step))
    found = _PATHS[(scope, aspect)] = frozenset((s, path) for s, _, path in seen)
    _REACHED[(scope, aspect)] = frozenset((s, name) for s, name, _ in seen)
    return found


_PATHS: dict[tuple[str, str], frozenset[tuple[str, Path]]] = {}
_REACHED: dict[tuple[str, str], frozenset[tuple[str, str]]] = {}
_MAX_STEPS = 6  # a chain of reads longer than any the catalogue has (a cycle stops here)


def affected(
    site: Site, seeds: Iterable[Seed], *, exclude: Iterable[tuple[str, str]] = ()
) -> Affected:
    """Every entity of ``site`` (the changed site) with a quantity the seeds can change, by
    scope, in a stable order; ``exclude`` (scope, id): entities out of service, not judged."""
    ids: dict[str, set[str]] = {}
    walked: dict[tuple[str, str, str], tuple[str, ...]] = {}  # each relation walked once

    def inverse(scope: str, relation: str, read_id: str) -> tuple[str, ...]:
        key = (scope, relation, read_id)
        found = walked.get(key)
        if found is None:
            found = walked[key] = tuple(_inverse(site, scope, relation, read_id))
        return found

    # The seeds of one scope and aspect walk each path together: a step takes a set of ids
    # to the union of what each reaches, so the union of their walks is one walk of them all.
    by_aspect: dict[tuple[str, str], set[str]] = {}
    for seed_scope, entity_id, aspect in seeds:
        by_aspect.setdefault((seed_scope, aspect), set()).add(entity_id)
    for (seed_scope, aspect), seeded in by_aspect.items():
        for scope, path in _paths(seed_scope, aspect):
            here = seeded
            for reader_scope, relation in path:
                here = {r for i in here for r in inverse(reader_scope, relation, i)}
            ids.setdefault(scope, set()).update(here)
    out_of_service = set(exclude)
    return {
        scope: [
            (i, entity_of(site, scope, i))
            for i in sorted(found)
            if (scope, i) not in out_of_service
        ]
        for scope, found in ids.items()
        if any((scope, i) not in out_of_service for i in found)
    }


def changed_quantities(seeds: Iterable[Seed]) -> frozenset[tuple[str, str]]:
    """The (scope, quantity) pairs whose value the seeds can change on some entity: every
    other quantity reads, on the changed site, what it reads on the site as it was (what a
    failure scenario takes from its normal audit instead of deriving it again)."""
    found: set[tuple[str, str]] = set()
    for scope, _, aspect in seeds:
        _paths(scope, aspect)
        found |= _REACHED[(scope, aspect)]
    return frozenset(found)


def entity_of(site: Site, scope: str, entity_id: str) -> Any:
    """The entity of ``scope`` with ``entity_id`` in ``site`` (a changed rack in an overlay)."""
    if scope == "rack":
        return site.topology.rack_by_id[entity_id]
    return getattr(site, _TABLES[scope])[entity_id]


# scope -> the site's table of its entities by id (a rack: the topology's, which an overlay
# changes)
_TABLES = {
    "pdu": "pdus",
    "distribution": "distribution",
    "power_source": "sources",
    "tcs_loop": "loops",
    "cdu": "cdus",
    "facility_water": "facility_water",
    "room": "rooms",
    "floor_zone": "zones",
}


def check_declarations() -> None:
    """Every quantity's reads name an aspect, relation and quantity that exist (an internal
    error otherwise: a declaration that names nothing would let a change escape)."""
    quantities = catalogue()
    for scope, specs in quantities.items():
        for name, spec in specs.items():
            for entry in spec.reads:
                _check(quantities, scope, name, entry)


def _check(quantities: dict[str, Any], scope: str, name: str, entry: str) -> None:
    where = f"{scope}.{name} reads {entry!r}"
    if "." in entry:
        relation, _, read = entry.partition(".")
        if relation != "self" and (scope, relation) not in RELATIONS:
            raise ValueError(f"{where}: no relation {relation!r} from {scope}")
        target = scope if relation == "self" else RELATIONS[(scope, relation)][0]
        if ":" in read:
            second, _, aspect = read.partition(":")
            if (target, second) not in RELATIONS:
                raise ValueError(f"{where}: no relation {second!r} from {target}")
            last = RELATIONS[(target, second)][0]
            if aspect not in ASPECTS.get(last, ()):
                raise ValueError(f"{where}: {last} has no aspect {aspect!r}")
        elif read not in quantities.get(target, {}):
            raise ValueError(f"{where}: {target} has no quantity {read!r}")
    elif ":" in entry:
        relation, _, aspect = entry.partition(":")
        if (scope, relation) not in RELATIONS:
            raise ValueError(f"{where}: no relation {relation!r} from {scope}")
        target = RELATIONS[(scope, relation)][0]
        if aspect not in ASPECTS.get(target, ()):
            raise ValueError(f"{where}: {target} has no aspect {aspect!r}")
    elif entry not in ASPECTS.get(scope, ()):
        raise ValueError(f"{where}: {scope} has no aspect {entry!r}")
