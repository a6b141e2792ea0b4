"""A site with something out of service or added: copy-on-write views of a resolved site.

Each function returns a new :class:`~facility.model.site.Site` that shares everything the
change does not touch — the racks list, the PDUs, and the relations of
:mod:`facility.model.topology` through an overlay — so a campus's 10,000s of failure
scenarios cost what they change, not a copy of the campus each. The resolved site itself is
never changed.
"""

from __future__ import annotations

import dataclasses
from collections import ChainMap
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from facility.model.heat_rejection import HeatRejection
from facility.model.site import Pdu, Rack, ResolvedCdu, Site


def without_pdus(
    site: Site, lost: Iterable[Pdu], feeds_lost: frozenset[tuple[str, str]] = frozenset()
) -> tuple[Site, dict[str, Rack]]:
    """``site`` with the PDUs ``lost`` and the non-IT load feeds ``feeds_lost`` ((load id,
    side)) out of service, and the racks that lost PDUs (by id, in their new state: fewer PDUs
    on a side, a side with none left removed and counted in ``sides_lost``). Their load moves
    to the PDUs they keep (the topology's ``moved``), a load's to its other feeds."""
    lost = list(lost)
    lost_ids = frozenset(p.id for p in lost)
    rack_by_id = site.topology.rack_by_id
    changed: dict[str, Rack] = {}
    for rack_id in dict.fromkeys(pdu.rack for pdu in lost):  # each rack once: one copy
        changed[rack_id] = _rack_without(rack_by_id[rack_id], lost_ids)
    topology = site.topology.without_pdus(changed, lost_ids, feeds_lost)
    return site.with_topology(topology), changed


def _rack_without(rack: Rack, lost_ids: frozenset[str]) -> Rack:
    """``rack`` without the PDUs ``lost_ids``: a side with none left removed and counted in
    ``sides_lost``."""
    sides = {side: [p for p in pdus if p.id not in lost_ids] for side, pdus in rack.pdus.items()}
    kept = {side: pdus for side, pdus in sides.items() if pdus}
    return dataclasses.replace(
        rack, pdus=kept, sides_lost=rack.sides_lost + len(rack.pdus) - len(kept)
    )


def without_cdus(site: Site, lost: set[str]) -> Site:
    """``site`` with the CDUs ``lost`` out of service: the loops that name them name the
    others (which carry the loop's heat and flow). The loops that name none are shared."""
    naming = site.topology.loops_by_cdu
    loops = {}
    for loop_id in sorted({loop for c in lost for loop in naming.get(c, ())}):
        loop = site.loops.get(loop_id)
        if loop is not None and lost.intersection(loop.cdus):
            loops[loop_id] = loop.model_copy(
                update={"cdus": [c for c in loop.cdus if c not in lost]}
            )
    return site.with_topology(
        site.topology.without_cdus(frozenset(lost)),
        loops=ChainMap(loops, site.loops),  # the site's order; the changed loops first
    )


def with_cdu(site: Site, cdu: ResolvedCdu) -> Site:
    """``site`` with ``cdu`` in place of the CDU of its id (e.g. a pump lost)."""
    return site.with_topology(site.topology, cdus=ChainMap({cdu.id: cdu}, site.cdus))


def with_heat_rejection(site: Site, entry: HeatRejection) -> Site:
    """``site`` with ``entry`` in place of the heat rejection entry of its id (a unit lost)."""
    return site.with_topology(
        site.topology, heat_rejection={**site.heat_rejection, entry.id: entry}
    )


def without_air_unit(site: Site, unit: str) -> Site:
    """``site`` with the room air unit ``unit`` out of service."""
    units: Mapping[str, Any] = site.air_units
    if isinstance(units, _Without):
        units = _Without(units.base, units.gone | {unit})
    else:
        units = _Without(units, frozenset({unit}))
    return site.with_topology(site.topology, air_units=units)


class _Without(Mapping[str, Any]):
    """``base`` without the keys ``gone``, in ``base``'s order: a view, not a copy of the
    site's every air unit for each one lost."""

    __slots__ = ("base", "gone")

    def __init__(self, base: Mapping[str, Any], gone: frozenset[str]):
        self.base, self.gone = base, gone

    def __getitem__(self, key: str) -> Any:
        if key in self.gone:
            raise KeyError(key)
        return self.base[key]

    def __contains__(self, key: object) -> bool:
        return key not in self.gone and key in self.base

    def __iter__(self) -> Iterator[str]:
        return (key for key in self.base if key not in self.gone)

    def __len__(self) -> int:
        return len(self.base) - sum(key in self.base for key in self.gone)


def with_racks(site: Site, added: list[Rack]) -> Site:
    """``site`` with the racks ``added`` (and their PDUs): its relations the site's with the
    racks appended (:meth:`Topology.with_racks`), else built anew on first use."""
    pdus = dict(site.pdus)
    for rack in added:
        for group in rack.pdus.values():
            for pdu in group:
                pdus[pdu.id] = pdu
    grown = dataclasses.replace(site, racks=[*site.racks, *added], pdus=pdus)
    topology = site.topology.with_racks(grown, added)
    return grown if topology is None else site.with_topology(topology, racks=grown.racks, pdus=pdus)
