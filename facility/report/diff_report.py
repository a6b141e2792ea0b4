"""A diff of two states as text and JSON."""

from __future__ import annotations

import json
from typing import Any

from facility.analysis.diff import DiffReport, FindingChange

SCHEMA = "facility-diff/1"


def _side(f: dict[str, Any] | None) -> str:
    if f is None:
        return "absent"
    margin = f.get("margin")
    text = f["status"].replace("_", " ")
    if f.get("observed"):
        text += f" at {f['observed']['text']}"
    if margin:
        text += f" (margin {margin['text']})"
    return text


def _line(c: FindingChange) -> str:
    f = c.after or c.before or {}
    entity = f.get("entity", {})
    return (
        f"  {f.get('rule', '')} {entity.get('kind', '')} {entity.get('id', '')}: "
        f"{_side(c.before)} → {_side(c.after)}"
    )


def diff_text(report: DiffReport) -> str:
    old, new = report.old, report.new
    lines = [
        f"{old['site']['name']} ({old['site']['sha256'][:12]}…, {old['verdict']}) → "
        f"{new['site']['name']} ({new['site']['sha256'][:12]}…, {new['verdict']})",
    ]
    sections = (
        ("NEW FAILURES", report.new_failures),
        ("RESOLVED", report.resolved),
        ("MARGIN CHANGED", report.changed),
        ("OTHER STATUS CHANGES", report.status_changes),
        ("NEW CHECKS", report.added),
        ("CHECKS GONE", report.removed),
    )
    for title, changes in sections:
        if changes:
            lines += ["", f"{title} ({len(changes)})", *(_line(c) for c in changes)]
    if len(lines) == 1:
        lines += ["", "No finding changed."]
    return "\n".join(lines) + "\n"


def diff_json(report: DiffReport) -> str:
    def items(changes: list[FindingChange]) -> list[dict[str, Any]]:
        return [{"id": c.id, "before": c.before, "after": c.after} for c in changes]

    data = {
        "schema": SCHEMA,
        "old": {k: report.old[k] for k in ("site", "profile", "rules_version", "verdict")},
        "new": {k: report.new[k] for k in ("site", "profile", "rules_version", "verdict")},
        "new_failures": items(report.new_failures),
        "resolved": items(report.resolved),
        "changed": items(report.changed),
        "status_changes": items(report.status_changes),
        "added": items(report.added),
        "removed": items(report.removed),
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
