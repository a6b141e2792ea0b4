"""Waivers: accepting a failing finding, on the record.

A waiver names a rule and one or more entities, with the reason, the owner who accepts the
risk and the date it expires. ``entity:`` is an id, a glob (``A0*-A?``: :func:`fnmatch.fnmatchcase`,
case-sensitive as ids are), ``row:A`` (the racks whose row is A, and the PDUs of those racks)
or a list of these. A waived finding keeps its observed value, limit and margin, is shown as
waived everywhere and does not fail the run. An expired waiver no longer applies (the finding
fails again) and is itself reported; a waiver that matches no failing finding is stale, and so
are the patterns of a waiver that match none while its other patterns do (reported as a stale
record of the same waiver naming just those patterns).

Waivers live in the site file (``waivers:``) or in a separate file given with ``--waivers``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from facility.engine.findings import AuditResult, Finding
from facility.inputs import InputFile
from facility.model.errors import unknown_field, validation_message
from facility.model.site import Site
from facility.model.source import (
    InputError,
    Location,
    Problem,
    SourceMap,
    field_name,
    read_document,
)
from facility.model.waivers import GLOB_CHARACTERS, ROW_PREFIX, EntityPatterns, Waiver, WaiverFile


@dataclass(frozen=True, slots=True)
class WaiverMatch:
    """One finding a waiver matched, and the pattern of ``entity:`` that matched it."""

    pattern: str
    finding: str  # the finding's id
    entity_kind: str
    entity_id: str


@dataclass(frozen=True, slots=True)
class WaiverRecord:
    """A waiver as applied in one audit."""

    waiver: Waiver
    location: Location
    state: Literal["applied", "expired", "stale"]
    findings: tuple[str, ...] = ()  # ids of the findings it matched
    matches: tuple[WaiverMatch, ...] = ()  # each finding matched, with its pattern


@dataclass(slots=True)
class WaiverReport:
    records: list[WaiverRecord] = field(default_factory=list)
    by_finding: dict[str, Waiver] = field(default_factory=dict)

    def of_state(self, state: str) -> list[WaiverRecord]:
        return [r for r in self.records if r.state == state]


def read_waivers(path: Path) -> list[tuple[Waiver, Location]]:
    """Waivers from a waiver file (``waivers: [...]``). Raises InputError."""
    return read_waiver_file(path)[0]


def read_waiver_file(path: Path) -> tuple[list[tuple[Waiver, Location]], InputFile]:
    """The waivers of a waiver file, and the file with the SHA-256 of the bytes read."""
    data, source, raw = read_document(path)
    digest = InputFile("waivers", str(path), hashlib.sha256(raw).hexdigest())
    try:
        parsed = WaiverFile.model_validate(data)
    except ValidationError as exc:
        raise InputError(_problems(exc, source)) from None
    return [(w, source.locate(("waivers", i))) for i, w in enumerate(parsed.waivers)], digest


def _problems(exc: ValidationError, source: SourceMap) -> list[Problem]:
    problems = []
    for error in exc.errors(include_url=False):
        path = tuple(p for p in error["loc"] if isinstance(p, str | int))
        message = validation_message(error)
        if error["type"] == "extra_forbidden":
            message = unknown_field(path[-1])
        problems.append(Problem(source.locate(path), field_name(path), message))
    return problems


def entity_rows(site: Site) -> dict[tuple[str, str], str]:
    """(entity kind, id) → row id, for what ``row:`` names: each rack with a row, and each PDU
    of such a rack (a PDU belongs to one rack). Nothing else is in a row."""
    rows = {("rack", rack.id): rack.row for rack in site.racks if rack.row is not None}
    for pdu in site.pdus.values():
        row = rows.get(("rack", pdu.rack))
        if row is not None:
            rows[("pdu", pdu.id)] = row
    return rows


def matches(pattern: str, kind: str, entity_id: str, rows: Mapping[tuple[str, str], str]) -> bool:
    """Whether one pattern of a waiver's ``entity:`` names the entity: ``row:A`` the entities
    of row A; an id itself; a pattern with ``*``, ``?`` or ``[`` as a glob too."""
    if pattern.startswith(ROW_PREFIX):
        return rows.get((kind, entity_id)) == pattern[len(ROW_PREFIX) :]
    if pattern == entity_id:
        return True
    return not GLOB_CHARACTERS.isdisjoint(pattern) and fnmatchcase(entity_id, pattern)


class EntityMatcher:
    """The patterns of one waiver's ``entity:``, sorted for matching: ids in a set, rows in a
    set, globs tried in turn (a list of 10,000 ids against 10,000 failing findings is 10,000
    look-ups, not 10⁸ comparisons). Agrees with :func:`matches`, pattern by pattern."""

    def __init__(self, patterns: tuple[str, ...], rows: Mapping[tuple[str, str], str]) -> None:
        self.order = {p: n for n, p in enumerate(patterns)}
        self.rows = rows
        self.rows_named = {p[len(ROW_PREFIX) :]: p for p in patterns if p.startswith(ROW_PREFIX)}
        plain = [p for p in patterns if not p.startswith(ROW_PREFIX)]
        self.ids = set(plain)
        self.globs = [p for p in plain if not GLOB_CHARACTERS.isdisjoint(p)]

    def naming(self, kind: str, entity_id: str) -> list[str]:
        """Every pattern that names the entity, in the order written."""
        named = [entity_id] if entity_id in self.ids else []
        row = self.rows.get((kind, entity_id))
        if row is not None and row in self.rows_named:
            named.append(self.rows_named[row])
        named += [g for g in self.globs if g != entity_id and fnmatchcase(entity_id, g)]
        return sorted(named, key=self.order.__getitem__)


def apply_waivers(
    result: AuditResult,
    waivers: list[tuple[Waiver, Location]],
    today: dt.date,
    rule_codes: dict[str, str],
    site: Site | None = None,
) -> WaiverReport:
    """Mark failing findings matched by an unexpired waiver as ``waived`` (in place).

    ``rule_codes`` maps rule names and retired aliases to codes, so a waiver may name a rule
    either way. ``today`` is the report's generation date (an input, for reproducible reports).
    ``site`` gives the rows ``row:`` names (without it, ``row:`` matches nothing: the findings
    stay failing and the waiver is reported stale).
    """
    report = WaiverReport()
    findings = result.findings
    rows = entity_rows(site) if site is not None else {}
    failing: dict[str, list[int]] = {}  # rule code → the findings a waiver may accept
    for i, f in enumerate(findings):
        if f.status in ("fail", "waived"):
            failing.setdefault(f.rule, []).append(i)
    for waiver, location in waivers:
        code = rule_codes.get(waiver.rule, waiver.rule)
        patterns = EntityMatcher(waiver.entity.patterns, rows)
        found: list[tuple[int, WaiverMatch]] = []
        used: set[str] = set()  # the patterns that name a failing finding
        for i in failing.get(code, ()):
            f = findings[i]
            named = patterns.naming(f.entity_kind, f.entity_id)
            if named:  # the first pattern (as written) that names it is the one shown
                found.append((i, WaiverMatch(named[0], f.id, f.entity_kind, f.entity_id)))
                used.update(named)
        ids = tuple(m.finding for _, m in found)
        shown = tuple(m for _, m in found)
        if waiver.expires < today:
            report.records.append(WaiverRecord(waiver, location, "expired", ids, shown))
            continue
        if not found:
            report.records.append(WaiverRecord(waiver, location, "stale"))
            continue
        for i, _match in found:
            findings[i] = _waived(findings[i])
            report.by_finding[findings[i].id] = waiver
        report.records.append(WaiverRecord(waiver, location, "applied", ids, shown))
        unused = [p for p in waiver.entity.patterns if p not in used]
        if unused:  # those patterns name no failing finding: stale, as a waiver of their own
            part = waiver.model_copy(update={"entity": EntityPatterns(unused)})
            report.records.append(WaiverRecord(part, location, "stale"))
    return report


def _waived(finding: Finding) -> Finding:
    return replace(finding, status="waived")
