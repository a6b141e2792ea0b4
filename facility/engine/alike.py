"""Racks and PDUs that every rule judges alike: the audit judges one of each class.

A campus is rows of identical racks. A rack's checks read its type, its zone, room, row and
loop, its PDUs (their types, deratings, sides, places on their side and what feeds them) and
what those lead to; a PDU's read the same of its rack and itself. Two entities equal in all of
that get the same values, so the audit (:mod:`facility.engine.evaluate`) judges the first of a
class and gives the others its finding under their own id and place in the site file, with the
same values (shared objects), unless the finding cannot be theirs: a value, working or reason
that names the first entity's id or its PDUs' ("rack 'A01' is in no floor zone").

What the key holds is what a rack or PDU quantity may read besides the site's shared parts
(the zones, rooms, loops and elements named in the key): a quantity never reads a rack's or
PDU's id but to name it in a message. A rack's place in its row (``position``) is read only by
the row-layout quantities of :mod:`facility.engine.derive_space` (a test holds every reader of
it to that module); a rule reading one of them has the position in its key.
"""

from __future__ import annotations

from typing import Any

from facility.engine.quantities import Value, catalogue
from facility.model.site import Pdu, Rack

# The module whose rack quantities read where a rack stands in its row.
_ROW_PLACES = "facility.engine.derive_space"


def reads_row_place(scope: str, derived: tuple[str, ...]) -> bool:
    """A rule of ``scope`` computing ``derived`` reads a rack's place in its row."""
    quantities = catalogue()[scope]
    return any(quantities[name].compute.__module__ == _ROW_PLACES for name in derived)


def rack_key(rack: Rack, with_position: bool) -> tuple[Any, ...]:
    """What a rack's checks read of it (its position only when ``with_position``)."""
    layout = tuple(
        (side, tuple(_pdu_own(p) for p in pdus)) for side, pdus in sorted(rack.pdus.items())
    )
    return (
        id(rack.type),
        rack.zone,
        rack.room,
        rack.row,
        rack.loop,
        rack.sides_lost,
        rack.position if with_position else None,
        layout,
    )


def pdu_key(pdu: Pdu, rack_of_pdu: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a PDU's checks read: itself and its rack (``rack_of_pdu``, its :func:`rack_key`)."""
    return (_pdu_own(pdu), rack_of_pdu)


def _pdu_own(pdu: Pdu) -> tuple[Any, ...]:
    return (
        pdu.side,
        pdu.type_id,
        id(pdu.figures),
        pdu.derating,
        pdu.fed_by,
        pdu.position_on_side,
        pdu.pdus_on_side,
    )


def own_ids(scope: str, entity: Any, racks: dict[str, Rack]) -> frozenset[str]:
    """The ids a working of ``entity``'s might name: its own, its rack's and its PDUs'."""
    rack = entity if scope == "rack" else racks[entity.rack]
    return frozenset({entity.id, rack.id, *(p.id for pdus in rack.pdus.values() for p in pdus)})


def texts(shown: Value | str) -> str:
    """Every text of a value's working and reason, or of a reason (a message's parameters
    among them), one per line: what a finding shared by a class would show of it."""
    if isinstance(shown, str):
        said: list[Any] = [shown]
        parts = [shown]
    else:
        said = [shown.formula, shown.missing]
        parts = [str(shown.formula), str(shown.missing or "")]
        parts += [str(part) for entry in shown.inputs for part in entry]
    for text in said:
        parts += [str(p) for p in getattr(text, "params", {}).values()]
    return "\n".join(parts)
