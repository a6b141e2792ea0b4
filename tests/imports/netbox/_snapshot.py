"""Responses recorded from a real NetBox 4.7.3 (scripts/netbox/record.py): site hall-b3
(seed_hall_b3.py) and site shapes (seed_shapes.py)."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path

from facility.imports.netbox_map import Snapshot

DATA = Path(__file__).resolve().parent / "data" / "hall-b3"


@cache
def _parts(site: str = "hall-b3") -> dict:
    folder = DATA.parent / site
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*.json")}


def hall_b3() -> Snapshot:
    """A fresh (deep-copied) snapshot, free to mutate in a test."""
    return recorded("hall-b3")


def recorded(site: str) -> Snapshot:
    """A fresh (deep-copied) snapshot of a recorded site, free to mutate in a test."""
    parts = copy.deepcopy(_parts(site))
    return Snapshot(**{k: v for k, v in parts.items()})


def named(objects: list[dict], name: str) -> dict:
    return next(o for o in objects if o.get("name") == name)
