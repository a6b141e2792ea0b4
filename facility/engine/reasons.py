"""Reasons a derived quantity is unknown, shared by the area modules (``derive_*``).

Each is a :class:`~facility.messages.Message`: English as written, translated when a report
shows it; the ids and field names are parameters and are never translated.
"""

from __future__ import annotations

from typing import Any

from facility.messages import Message


def no_rack_figure(rack: Any, field: str) -> Message:
    """A rack's quantity is unknown: its type lacks ``field``."""
    return Message("rack type '%(type)s' has no %(field)s", type=rack.type.id, field=field)


def no_cooling(rack: Any) -> Message:
    """A rack's heat is unknown: its type says neither how it is cooled nor its liquid share."""
    return Message(
        "rack type '%(type)s' has neither %(field)s nor %(other)s",
        type=rack.type.id,
        field="cooling",
        other="liquid_heat_fraction",
    )
