"""Responses recorded from a real NetBox 4.7.3 (scripts/netbox/record.py): site hall-b3
(seed_hall_b3.py) and site shapes (seed_shapes.py)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from facility.imports.netbox_map import Snapshot

DATA = Path(__file__).resolve().parent / "data" / "hall-b3"


@cache
def _texts(site: str) -> dict[str, str]:
    folder = DATA.parent / site
    return {p.stem: p.read_text(encoding="utf-8") for p in folder.glob("*.json")}


@cache
def _parts(site: str = "hall-b3") -> dict:
    return {stem: json.loads(text) for stem, text in _texts(site).items()}


def hall_b3() -> Snapshot:
    """A fresh snapshot, free to mutate in a test."""
    return recorded("hall-b3")


def recorded(site: str) -> Snapshot:
    """A fresh snapshot of a recorded site (parsed anew: a tenth of a deep copy's time), free
    to mutate in a test."""
    return Snapshot(**{stem: json.loads(text) for stem, text in _texts(site).items()})


def named(objects: list[dict], name: str) -> dict:
    return next(o for o in objects if o.get("name") == name)
