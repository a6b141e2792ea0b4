"""Where a figure of a rack type comes from, as a working names it: the site file, or the
catalog entry with its source and confidence (facility.model.site.Provenance)."""

from __future__ import annotations

from facility.messages import Message
from facility.model.site import Rack


def source_of(rack: Rack, field: str) -> Message:
    """Where a figure of the rack's type comes from, for the working: the site file, or the
    catalog entry with its source (and 'assumption' when no public source gives it)."""
    origin = rack.type.provenance.get(field)
    if origin is None or origin.origin == "site":
        return Message("rack type '%(type)s', site file", type=rack.type.id)
    if origin.assumption:
        return Message(
            "catalog '%(entry)s', an assumption: %(source)s",
            entry=origin.catalog_id,
            source=origin.source,
        )
    return Message(
        "catalog '%(entry)s': %(source)s (confidence %(confidence)s)",
        entry=origin.catalog_id,
        source=origin.source,
        confidence=origin.confidence,
    )
