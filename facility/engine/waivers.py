"""Waivers: accepting a failing finding, on the record.

A waiver names a rule and an entity, with the reason, the owner who accepts the risk and the
date it expires. A waived finding keeps its observed value, limit and margin, is shown as
waived everywhere and does not fail the run. An expired waiver no longer applies (the finding
fails again) and is itself reported; a waiver that matches no failing finding is stale.

Waivers live in the site file (``waivers:``) or in a separate file given with ``--waivers``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from facility.engine.findings import AuditResult, Finding
from facility.inputs import InputFile
from facility.model.errors import unknown_field, validation_message
from facility.model.source import (
    InputError,
    Location,
    Problem,
    SourceMap,
    field_name,
    read_document,
)
from facility.model.waivers import Waiver, WaiverFile


@dataclass(frozen=True, slots=True)
class WaiverRecord:
    """A waiver as applied in one audit."""

    waiver: Waiver
    location: Location
    state: Literal["applied", "expired", "stale"]
    findings: tuple[str, ...] = ()  # ids of the findings it matched


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


def apply_waivers(
    result: AuditResult,
    waivers: list[tuple[Waiver, Location]],
    today: dt.date,
    rule_codes: dict[str, str],
) -> WaiverReport:
    """Mark failing findings matched by an unexpired waiver as ``waived`` (in place).

    ``rule_codes`` maps rule names and retired aliases to codes, so a waiver may name a rule
    either way. ``today`` is the report's generation date (an input, for reproducible reports).
    """
    report = WaiverReport()
    findings = result.findings
    for waiver, location in waivers:
        code = rule_codes.get(waiver.rule, waiver.rule)
        matched = [
            i
            for i, f in enumerate(findings)
            if f.rule == code and f.entity_id == waiver.entity and f.status in ("fail", "waived")
        ]
        if waiver.expires < today:
            report.records.append(
                WaiverRecord(waiver, location, "expired", tuple(findings[i].id for i in matched))
            )
            continue
        if not matched:
            report.records.append(WaiverRecord(waiver, location, "stale"))
            continue
        for i in matched:
            findings[i] = _waived(findings[i])
            report.by_finding[findings[i].id] = waiver
        report.records.append(
            WaiverRecord(waiver, location, "applied", tuple(findings[i].id for i in matched))
        )
    return report


def _waived(finding: Finding) -> Finding:
    return replace(finding, status="waived")
