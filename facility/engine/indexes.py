"""Where each rack, PDU and CDU belongs: the site-wide partitions the quantities share.

Every quantity that sums over "the racks of a loop", "of a room", "of a zone" or "the CDUs on
a facility water loop" takes the group from here, and so does the conservation account
(:mod:`facility.engine.account`): what a check judges and what the account adds up are the
same partition, so a rack cannot be judged in two groups or in none without the account
showing it. Each index is built once per audit and kept in the context's memo (a failure
scenario shares them; see :mod:`facility.analysis.failures`).
"""

from __future__ import annotations

from typing import Any

from facility.engine.quantities import Context
from facility.model.site import Rack, ResolvedCdu


def racks_by_loop(ctx: Context) -> dict[str | None, list[Rack]]:
    """Racks by the TCS loop they name (None: on no loop)."""
    return _index(ctx, "racks_by_loop", lambda rack: rack.loop)


def racks_by_zone(ctx: Context) -> dict[str | None, list[Rack]]:
    """Racks by floor zone (None: in no zone)."""
    return _index(ctx, "racks_by_zone", lambda rack: rack.zone)


def racks_by_room(ctx: Context) -> dict[str | None, list[Rack]]:
    """Racks by room: their zone's, else their loop's; in a site of one room, that room.
    None: a rack whose room cannot be told (several rooms, no zone or loop with a room)."""
    index = ctx.memo.get("racks_by_room")
    if index is None:
        only = next(iter(ctx.site.rooms)) if len(ctx.site.rooms) == 1 else None
        index = {}
        for rack in ctx.site.racks:
            index.setdefault(rack.room or only, []).append(rack)
        ctx.memo["racks_by_room"] = index
    return index  # type: ignore[no-any-return]


def room_of(ctx: Context, rack: Rack) -> str | None:
    """The room a rack's air heat lands in (None when it cannot be told)."""
    if rack.room is not None:
        return rack.room
    return next(iter(ctx.site.rooms)) if len(ctx.site.rooms) == 1 else None


def cdus_of_loop(ctx: Context, loop: Any) -> list[ResolvedCdu]:
    """The CDUs a loop names that are in service (a failure scenario removes some)."""
    return [ctx.site.cdus[c] for c in loop.cdus]


def _index(ctx: Context, key: str, group: Any) -> dict[str | None, list[Rack]]:
    index = ctx.memo.get(key)
    if index is None:
        index = {}
        for rack in ctx.site.racks:
            index.setdefault(group(rack), []).append(rack)
        ctx.memo[key] = index
    return index  # type: ignore[no-any-return]
