"""Comparing two states: which findings are new, resolved or changed, with margins before and after.

Either side may be a site file (audited here with the same profile) or a JSON result written
by ``facility check -f json`` — so a planned change can be reviewed against the result that
was signed off.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from facility.messages import Message
from facility.model.source import InputError, Location, Problem

FAILING = ("fail",)


@dataclass(slots=True)
class FindingChange:
    id: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    @property
    def rule(self) -> str:
        return (self.after or self.before or {}).get("rule", "")


@dataclass(slots=True)
class DiffReport:
    old: dict[str, Any]
    new: dict[str, Any]
    new_failures: list[FindingChange] = field(default_factory=list)
    resolved: list[FindingChange] = field(default_factory=list)
    changed: list[FindingChange] = field(default_factory=list)  # same status, another margin
    status_changes: list[FindingChange] = field(default_factory=list)  # other status moves
    added: list[FindingChange] = field(default_factory=list)  # checks only in the new state
    removed: list[FindingChange] = field(default_factory=list)  # checks only in the old state


def _not_a_number(token: str) -> Any:
    """A JSON result never holds NaN or Infinity (facility writes null); refuse one that does."""
    raise ValueError(f"{token} is not a JSON number")


def read_result(path: Path, profile: str | None) -> dict[str, Any]:
    """A JSON result (facility-result/1) from a result file, or by auditing a site file."""
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8"), parse_constant=_not_a_number)
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise InputError(
                [
                    Problem(
                        Location(str(path), 1, 1),
                        "",
                        Message("cannot read: %(detail)s", detail=str(exc)),
                    )
                ]
            ) from None
        if isinstance(data, dict) and str(data.get("schema", "")).startswith("facility-result/"):
            return data
    from facility.engine.evaluate import audit, default_profile
    from facility.engine.rules import load_rules
    from facility.model.load import load_site
    from facility.report.json_report import result_json

    site = load_site(path)
    return result_json(audit(site, load_rules(profile=profile or default_profile(site))))


def _margin(finding: dict[str, Any] | None) -> float | None:
    margin = (finding or {}).get("margin")
    return None if margin is None else margin["value"]


def diff_results(old: dict[str, Any], new: dict[str, Any]) -> DiffReport:
    before = {f["id"]: f for f in old["findings"]}
    after = {f["id"]: f for f in new["findings"]}
    report = DiffReport(old, new)
    for fid in sorted(before.keys() | after.keys()):
        b, a = before.get(fid), after.get(fid)
        change = FindingChange(fid, b, a)
        b_fail = b is not None and b["status"] in FAILING
        a_fail = a is not None and a["status"] in FAILING
        if a_fail and not b_fail:
            report.new_failures.append(change)
        elif b_fail and not a_fail:
            report.resolved.append(change)
        elif a is None:
            report.removed.append(change)
        elif b is None:
            report.added.append(change)
        elif a["status"] != b["status"]:
            report.status_changes.append(change)
        elif _margin(a) != _margin(b):
            report.changed.append(change)
    return report
