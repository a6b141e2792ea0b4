"""Entity lists written as runs: ``A01 … A08, B03`` names every entity of a group in few words.

A run is a stretch of entities that are consecutive in the order of *every* entity the rule
judged (ids in natural order: A2 before A10), all of them in the group: ``A01-A1 … A08-B4``
means each rack PDU the rule judged from A01-A1 to A08-B4, and no other. Runs of one or two
are written out; so nothing is left for the reader to guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from facility.engine.findings import Finding
from facility.report.anchors import natural_key
from facility.report.i18n import _

ELLIPSIS = " … "
# Parts a list of runs writes (a run of three or more is one part, of two two, one one); the
# entities of the others are counted: a campus's cause of 41,184 PDUs was 5,000 runs, 117 kB.
MAX_RUN_PARTS = 12


def in_order(ids: Iterable[str]) -> list[str]:
    """``ids`` once each, in natural order: the order runs are counted in."""
    return sorted(set(ids), key=natural_key)


def runs(group: Iterable[str], order: Sequence[str]) -> list[tuple[str, str, int]]:
    """(first, last, length) of each maximal run of ``group`` within ``order`` (which holds
    every member of ``group``), in that order."""
    members = set(group)
    found: list[tuple[str, str, int]] = []
    start: str | None = None
    previous = ""
    length = 0
    for entity in order:
        if entity in members:
            if start is None:
                start, length = entity, 0
            previous = entity
            length += 1
        elif start is not None:
            found.append((start, previous, length))
            start = None
    if start is not None:
        found.append((start, previous, length))
    return found


def compressed(
    group: Iterable[str],
    order: Sequence[str],
    separator: str = ", ",
    limit: int | None = MAX_RUN_PARTS,
) -> str:
    """``A01 … A08, B03``: runs of three or more as first … last, shorter ones written out;
    past ``limit`` parts (None: no limit) the entities of the other runs are counted:
    ``A01 … A08, B03 and 1,234 more``."""
    parts: list[str] = []
    named = total = 0
    for first, last, length in runs(group, order):
        total += length
        if limit is not None and len(parts) >= limit:
            continue
        named += length
        if length >= 3:
            parts.append(f"{first}{ELLIPSIS}{last}")
        elif length == 2:
            parts += [first, last]
        else:
            parts.append(first)
    text = separator.join(parts)
    if named < total:
        text = _("%(list)s and %(n)s more") % {"list": text, "n": f"{total - named:,}"}
    return text


class _Orders(dict[tuple[str, str], list[str]]):
    """(rule, kind of entity) → its judged entities in natural order, sorted when first asked
    for: a campus's report needs the orders of the few rules that fail, not of all of them."""

    def __init__(self, judged: dict[tuple[str, str], list[str]]) -> None:
        super().__init__()
        self._judged = judged

    def __missing__(self, key: tuple[str, str]) -> list[str]:
        order = self[key] = in_order(self._judged[key])
        return order


def judged_orders(findings: Iterable[Finding]) -> Mapping[tuple[str, str], list[str]]:
    """(rule, kind of entity) → every entity the rule judged, in natural order: the order
    each of its groups' runs are counted in (a passing entity between two failing ones breaks
    their run)."""
    judged: dict[tuple[str, str], list[str]] = {}
    for f in findings:
        judged.setdefault((f.rule, f.entity_kind), []).append(f.entity_id)
    return _Orders(judged)


def expanded(text: str, order: Sequence[str], separator: str = ", ") -> list[str]:
    """The entities ``text`` (written by :func:`compressed` over ``order``) names: each
    'first … last' is every entity of ``order`` from first to last. For tests and readers
    that check a list names what it says."""
    out: list[str] = []
    position = {entity: i for i, entity in enumerate(order)}
    for part in text.split(separator):
        if ELLIPSIS in part:
            first, last = part.split(ELLIPSIS)
            out += order[position[first] : position[last] + 1]
        else:
            out.append(part)
    return out
