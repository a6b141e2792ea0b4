"""Findings and the verdict: the results of an audit, before any formatting."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from facility.engine.quantities import Value
from facility.model.source import Location

if TYPE_CHECKING:
    from facility.engine.account import Account
    from facility.engine.coverage import Coverage
    from facility.engine.power_account import PowerAccount
    from facility.engine.selection import Selection

Status = Literal["fail", "pass", "not_evaluated", "waived"]
Verdict = Literal["ready", "ready-with-warnings", "incomplete", "not-ready"]
# Worst last: a run's verdict is the worst one any finding calls for.
VERDICT_ORDER: tuple[Verdict, ...] = ("ready", "ready-with-warnings", "incomplete", "not-ready")


@dataclass(slots=True)  # not frozen: a campus has 10⁵–10⁶ findings, and frozen __init__ is slow
class Finding:
    """One rule applied to one entity."""

    rule: str
    name: str
    title: str
    area: str
    severity: str
    status: Status
    entity_kind: str
    entity_id: str
    location: Location | None
    kind: str  # quantity kind of observed/limit
    observed: Value | None = None
    limit: Value | None = None
    margin: float | None = None  # limit − observed for "≤", observed − limit for "≥"
    relation: str = ""  # "≤", "≥", … when the condition is a plain comparison
    missing: tuple[str, ...] = ()  # why it was not evaluated

    @property
    def id(self) -> str:
        return f"{self.rule}:{self.entity_kind}:{self.entity_id}"

    def for_entity(self, entity_id: str, location: Location | None) -> Finding:
        """This finding as another entity's of the same kind, judged alike (a rack of the
        same class): its id and place, the same status and values (shared objects)."""
        return Finding(
            self.rule,
            self.name,
            self.title,
            self.area,
            self.severity,
            self.status,
            self.entity_kind,
            entity_id,
            location,
            self.kind,
            self.observed,
            self.limit,
            self.margin,
            self.relation,
            self.missing,
        )


@dataclass(frozen=True, slots=True)
class Baseline:
    """This run against a previous JSON result (``--baseline``, facility.analysis.diff):
    the failing findings that are new or worse there fail the run; the others are known."""

    file: str
    new: tuple[str, ...]  # ids of failing findings that did not fail in the baseline
    worse: tuple[str, ...]  # ids failing in both, with a more negative margin now
    known: int  # failing findings now that are neither
    new_gaps: tuple[str, ...] = ()  # error-severity checks not evaluated now, evaluated then

    @property
    def failing(self) -> set[str]:
        """The ids that fail the run."""
        return {*self.new, *self.worse}


@dataclass(slots=True)
class AuditResult:
    site_name: str
    site_file: str
    site_sha256: str
    profile: str
    rules_version: str
    assumptions: dict[str, str]
    findings: list[Finding] = field(default_factory=list)
    account: Account | None = None  # where the racks' load, heat and mass land
    power_account: PowerAccount | None = None  # IT, cooling, losses, per source; pPUE
    coverage: Coverage | None = None  # what was judged, not evaluated, not modelled
    selection: Selection | None = None  # the profile's rules --select / --ignore left out
    baseline: Baseline | None = None  # against a previous result (--baseline)
    # The report date the ages of evidence were judged on (None: not judged); what is derived
    # from this audit (single failures, headroom, fixes) judges them on the same date.
    as_of: dt.date | None = None

    @property
    def verdict(self) -> Verdict:
        return verdict(self.findings)

    def counts(self) -> dict[str, int]:
        out = {"fail": 0, "pass": 0, "not_evaluated": 0, "waived": 0}
        for f in self.findings:
            out[f.status] += 1
        return out


def verdict(findings: list[Finding]) -> Verdict:
    """not-ready: an error-severity check fails. incomplete: none fails, but an error-severity
    check could not be evaluated (readiness is not shown). ready-with-warnings: a warning
    fails or could not be evaluated. ready: every error and warning check passes or is waived.
    Info-severity findings never change the verdict."""
    state: Verdict = "ready"
    for f in findings:
        if f.status == "fail" and f.severity == "error":
            return "not-ready"
        if f.status == "not_evaluated" and f.severity == "error":
            state = "incomplete"
        elif f.status in ("fail", "not_evaluated") and f.severity == "warning" and state == "ready":
            state = "ready-with-warnings"
    return state
