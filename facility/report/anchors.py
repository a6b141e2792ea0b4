"""Stable element ids and natural ordering for reports.

Ids derive from the rule code, the entity kind and the entity id only, so the same finding
has the same anchor in every run (no counters, no random ids) and links stay valid.
"""

from __future__ import annotations

import re
from functools import cache

_SAFE = re.compile(r"[A-Za-z0-9-]")
_ALL_SAFE = re.compile(r"[A-Za-z0-9-]*")
_DIGITS = re.compile(r"([0-9]+)")


def slug(text: str) -> str:
    """``text`` as a fragment of an HTML id: safe characters kept, others as ``_hex_``.

    Injective (``_`` itself is escaped), so two different entity ids never share an anchor.
    """
    if _ALL_SAFE.fullmatch(text):
        return text
    return "".join(c if _SAFE.fullmatch(c) else f"_{ord(c):x}_" for c in text)


def finding_anchor(rule: str, entity_kind: str, entity_id: str) -> str:
    """The id of a finding's element: ``f-PWR-003--pdu--A01-A1``."""
    return f"f-{slug(rule)}--{slug(entity_kind)}--{slug(entity_id)}"


class FindingLinks:
    """Where the HTML report links a failing or waived finding to: its own element when its
    card lists it, else the card (a card lists a bounded number of entities and counts the
    rest; facility.report.view.MAX_CARD_ENTITIES)."""

    __slots__ = ("_card",)

    def __init__(self) -> None:
        self._card: dict[str, str] = {}  # the anchor of a finding no card lists -> its card's

    def unlisted(self, anchor: str, card: str) -> None:
        self._card[anchor] = card

    def __call__(self, rule: str, entity_kind: str, entity_id: str) -> str:
        anchor = finding_anchor(rule, entity_kind, entity_id)
        return self._card.get(anchor, anchor)


def rule_anchor(prefix: str, rule: str) -> str:
    """The id of a rule's row in a section (``passed-PWR-002``)."""
    return f"{prefix}-{slug(rule)}"


@cache
def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key putting 'B2' before 'B10' (ASCII digit runs compare as numbers).

    Cached: a campus report sorts the same hundred thousand ids several times.
    """
    parts = _DIGITS.split(text)  # text, digits, text, digits, …: digit runs at odd indices
    return tuple([(0, int(p)) if i % 2 else (1, p) for i, p in enumerate(parts) if p])
