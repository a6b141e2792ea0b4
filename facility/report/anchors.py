"""Stable element ids and natural ordering for reports.

Ids derive from the rule code, the entity kind and the entity id only, so the same finding
has the same anchor in every run (no counters, no random ids) and links stay valid.
"""

from __future__ import annotations

import re

_SAFE = re.compile(r"[A-Za-z0-9-]")
_DIGITS = re.compile(r"(\d+)")


def slug(text: str) -> str:
    """``text`` as a fragment of an HTML id: safe characters kept, others as ``_hex_``.

    Injective (``_`` itself is escaped), so two different entity ids never share an anchor.
    """
    return "".join(c if _SAFE.fullmatch(c) else f"_{ord(c):x}_" for c in text)


def finding_anchor(rule: str, entity_kind: str, entity_id: str) -> str:
    """The id of a finding's element: ``f-PWR-003--pdu--A01-A1``."""
    return f"f-{slug(rule)}--{slug(entity_kind)}--{slug(entity_id)}"


def rule_anchor(prefix: str, rule: str) -> str:
    """The id of a rule's row in a section (``passed-PWR-002``)."""
    return f"{prefix}-{slug(rule)}"


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key putting 'B2' before 'B10' (numbers compare as numbers)."""
    return tuple(
        (1, int(part)) if part.isdigit() else (0, part) for part in _DIGITS.split(text) if part
    )
