"""Single-failure analysis as text and JSON."""

from __future__ import annotations

import json
from typing import Any

from facility.analysis.failures import FailureReport, ScenarioResult
from facility.report.findings_view import message
from facility.report.i18n import DEFAULT_LANGUAGE, using_language
from facility.report.json_report import finding_json

SCHEMA = "facility-failures/1"


def _percent(u: float | None) -> str:
    if u is None:
        return "—"
    return "∞ (no capacity left)" if u == float("inf") else f"{u * 100:.1f} %"


def failures_text(report: FailureReport, site_name: str) -> str:
    lines = [f"{site_name}: single-failure analysis, {len(report.results)} scenarios", ""]
    spofs = report.single_points_of_failure
    if spofs:
        lines.append(
            f"SINGLE POINTS OF FAILURE ({len(spofs)}): the loss makes an error-severity check fail"
        )
        # Identical consequences (e.g. either side of eight identical racks) are listed once.
        groups: dict[tuple[str, tuple[str, ...], str], list[ScenarioResult]] = {}
        for r in spofs:
            broken = tuple(sorted({f.rule for f in r.new_failures if f.severity == "error"}))
            first = next(f for f in r.new_failures if f.severity == "error")
            groups.setdefault((r.scenario.kind, broken, message(first)), []).append(r)
        for (_, broken, _), members in groups.items():
            head = members[0]
            if len(members) == 1:
                lines.append(f"  {head.scenario.description}: {', '.join(broken)}")
            else:
                names = ", ".join(m.scenario.element for m in members)
                lines.append(
                    f"  {len(members)} × {head.scenario.kind.replace('_', ' ')} ({names}): {', '.join(broken)}; e.g. {head.scenario.description}:"
                )
            for f in head.new_failures[:6]:
                lines.append(f"      {f.rule} {f.entity_id}: {message(f)}")
            if len(head.new_failures) > 6:
                lines.append(f"      … and {len(head.new_failures) - 6} more")
    else:
        lines.append(
            "No single point of failure: every loss leaves every error-severity check passing."
        )
    survivable = [r for r in report.results if not r.single_point_of_failure]
    if survivable:
        lines += ["", "SURVIVED (worst utilisation after the loss)"]
        same: dict[tuple[str, str, str], list[ScenarioResult]] = {}
        for r in survivable:
            what = (
                f"{_percent(r.worst_utilisation)} — {r.worst.rule} {r.worst.title.lower()}"
                if r.worst
                else "no check changes"
            )
            same.setdefault((r.scenario.kind, what, ""), []).append(r)
        for (kind, what, _), members in same.items():
            if len(members) == 1:
                lines.append(f"  {members[0].scenario.description}: {what}")
            else:
                names = ", ".join(m.scenario.element for m in members)
                lines.append(f"  {len(members)} × {kind.replace('_', ' ')} ({names}): {what}")
    return "\n".join(lines) + "\n"


def _scenario_json(r: ScenarioResult) -> dict[str, Any]:
    return {
        "id": r.scenario.id,
        "kind": r.scenario.kind,
        "element": r.scenario.element,
        "description": r.scenario.description,
        "single_point_of_failure": r.single_point_of_failure,
        "new_failures": [f.id for f in r.new_failures],
        "worst": None
        if r.worst is None
        else {
            "finding": r.worst.id,
            "utilisation": None
            if r.worst_utilisation in (None, float("inf"))
            else round(r.worst_utilisation, 6),
            "no_capacity_left": r.worst_utilisation == float("inf"),
        },
        # The checks the loss moved (status or figures); the others read as in the normal audit.
        "findings": [finding_json(f) for f in sorted(r.changed, key=lambda f: f.id)],
        "unchanged": len(r.findings) - len(r.changed),
    }


def failures_data(report: FailureReport) -> dict[str, Any]:
    """The analysis as JSON data: also the ``failures`` section of ``check --failures -f json``
    (English, as the JSON result)."""
    with using_language(DEFAULT_LANGUAGE):
        return {
            "schema": SCHEMA,
            "single_points_of_failure": [r.scenario.id for r in report.single_points_of_failure],
            "scenarios": [_scenario_json(r) for r in report.results],
        }


def failures_json(report: FailureReport, site: dict[str, str]) -> str:
    data = failures_data(report)
    data = {"schema": data.pop("schema"), "site": site, **data}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
