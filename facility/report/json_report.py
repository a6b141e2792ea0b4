"""The JSON result: a documented, versioned schema (docs/json-result.md)."""

from __future__ import annotations

import json
from typing import Any

from facility import __version__
from facility.engine.findings import AuditResult, Finding
from facility.model.waivers import Waiver
from facility.report.context import ReportInput
from facility.report.findings_view import message, quantity_json, working
from facility.report.i18n import DEFAULT_LANGUAGE, using_language
from facility.report.quantities import format_quantity

SCHEMA = "facility-result/1"


def finding_json(f: Finding) -> dict[str, Any]:
    margin_kind = "temperature_difference" if f.kind == "temperature" else f.kind
    return {
        "id": f.id,
        "rule": f.rule,
        "name": f.name,
        "title": f.title,
        "area": f.area,
        "severity": f.severity,
        "status": f.status,
        "entity": {"kind": f.entity_kind, "id": f.entity_id},
        "observed": quantity_json(f.observed.value if f.observed else None, f.kind),
        "limit": quantity_json(f.limit.value if f.limit else None, f.kind),
        "relation": f.relation or None,
        "margin": quantity_json(f.margin, margin_kind),
        "message": message(f),
        # The working is spelled out where someone must act on it; passes carry the numbers.
        "how": (
            {"observed": working(f.observed, f.kind), "limit": working(f.limit, f.kind)}
            if f.status in ("fail", "waived")
            else None
        ),
        "missing": list(f.missing),
        "source": (
            {"file": f.location.file, "line": f.location.line, "column": f.location.column}
            if f.location
            else None
        ),
    }


def result_json(result: AuditResult) -> dict[str, Any]:
    """The JSON result's data: English whatever the language of the run (a machine format;
    its messages, missing inputs and workings are the engine's English)."""
    with using_language(DEFAULT_LANGUAGE):
        return _result_json(result)


def _result_json(result: AuditResult) -> dict[str, Any]:
    counts = result.counts()
    failing: dict[str, int] = {"error": 0, "warning": 0, "info": 0}
    for f in result.findings:
        if f.status == "fail":
            failing[f.severity] += 1
    findings = sorted(result.findings, key=lambda f: (f.rule, f.entity_kind, f.entity_id))
    return {
        "schema": SCHEMA,
        "tool": {"name": "facility", "version": __version__},
        "site": {"name": result.site_name, "file": result.site_file, "sha256": result.site_sha256},
        "profile": result.profile,
        "rules_version": result.rules_version,
        "assumptions": {
            "electrical_power_basis": result.assumptions["electrical_power_basis"],
            "thermal_power_basis": result.assumptions["thermal_power_basis"],
            "continuous_load_derating": format_quantity(
                float(result.assumptions["continuous_load_derating"]), "fraction"
            ),
        },
        "verdict": result.verdict,
        "counts": {**counts, "failing_by_severity": failing},
        "findings": [finding_json(f) for f in findings],
    }


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _dumps(data: dict[str, Any]) -> str:
    """Indented JSON with one finding per line: readable, diffable, and fast on 100,000s of
    findings (the C encoder runs only without ``indent``). The single-failure section, when
    there is one, comes before the findings, one scenario per line."""
    findings = data.pop("findings")
    failures = data.pop("failures", None)
    head = json.dumps(data, indent=2, ensure_ascii=False)
    body = ",\n".join("    " + _line(f) for f in findings)
    data["findings"] = findings
    middle = ""
    if failures is not None:
        data["failures"] = failures
        scenarios = ",\n".join("      " + _line(s) for s in failures["scenarios"])
        fields = "".join(
            f"\n    {json.dumps(k)}: {_line(v)}," for k, v in failures.items() if k != "scenarios"
        )
        middle = (
            ',\n  "failures": {'
            + fields
            + '\n    "scenarios": ['
            + (f"\n{scenarios}\n    ]" if scenarios else "]")
            + "\n  }"
        )
    return (
        head[:-2]
        + middle
        + ',\n  "findings": [\n'
        + body
        + ("\n  ]\n}\n" if findings else "  ]\n}\n")
    )


def render_json(result: AuditResult) -> str:
    return _dumps(result_json(result))


def render_report_json(report: ReportInput) -> str:
    """The JSON result, with the waivers that applied, expired or matched nothing."""
    data = result_json(report.result)
    data["generated_at"] = report.generated_at.isoformat()
    for finding in data["findings"]:
        waiver = report.waivers.by_finding.get(finding["id"])
        finding["waiver"] = None if waiver is None else waiver_json(waiver)
    data["waivers"] = [
        {
            **waiver_json(r.waiver),
            "state": r.state,
            "findings": list(r.findings),
            "source": {
                "file": r.location.file,
                "line": r.location.line,
                "column": r.location.column,
            },
        }
        for r in report.waivers.records
    ]
    if report.failures is not None:
        from facility.report.failures_report import failures_data  # it imports this module

        data["failures"] = failures_data(report.failures)
    return _dumps(data)


def waiver_json(waiver: Waiver) -> dict[str, Any]:
    return {
        "rule": waiver.rule,
        "entity": waiver.entity,
        "reason": waiver.reason,
        "owner": waiver.owner,
        "expires": waiver.expires.isoformat(),
        "ticket": waiver.ticket,
    }
