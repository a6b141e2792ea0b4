"""A diff of two states as text and JSON."""

from __future__ import annotations

import json
from typing import Any

from facility.analysis.diff import DiffReport, FindingChange
from facility.i18n import N_, _, current_language
from facility.report.words import entity_kind_word, status_word, verdict_word

SCHEMA = "facility-diff/1"


def _side(f: dict[str, Any] | None) -> str:
    if f is None:
        return _("absent")
    margin = f.get("margin")
    text = (
        status_word(f["status"]).lower() if current_language() == "en" else status_word(f["status"])
    )
    if f.get("observed"):
        text += _(" at %(value)s") % {"value": f["observed"]["text"]}
    if margin:
        text += _(" (margin %(margin)s)") % {"margin": margin["text"]}
    return text


def _line(c: FindingChange) -> str:
    f = c.after or c.before or {}
    entity = f.get("entity", {})
    kind = entity.get("kind", "")
    shown = entity_kind_word(kind) if current_language() != "en" and kind else kind
    return f"  {f.get('rule', '')} {shown} {entity.get('id', '')}: {_side(c.before)} → {_side(c.after)}"


def diff_text(report: DiffReport) -> str:
    """The diff for a terminal, in the current language."""
    old, new = report.old, report.new
    lines = [
        f"{old['site']['name']} ({old['site']['sha256'][:12]}…, {verdict_word(old['verdict'])}) → "
        f"{new['site']['name']} ({new['site']['sha256'][:12]}…, {verdict_word(new['verdict'])})",
    ]
    sections = (
        (N_("NEW FAILURES"), report.new_failures),
        (N_("RESOLVED"), report.resolved),
        (N_("MARGIN CHANGED"), report.changed),
        (N_("OTHER STATUS CHANGES"), report.status_changes),
        (N_("NEW CHECKS"), report.added),
        (N_("CHECKS GONE"), report.removed),
    )
    for title, changes in sections:
        if changes:
            heading = _(title) + f" ({len(changes)})"
            lines += ["", heading, *(_line(c) for c in changes)]
    if len(lines) == 1:
        lines += ["", _("No finding changed.")]
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
    return json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
