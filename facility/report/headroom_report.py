"""Headroom and stranded capacity as text and JSON."""

from __future__ import annotations

import json
from typing import Any

from facility.analysis.headroom import SEARCH_LIMIT, DomainHeadroom, HeadroomReport
from facility.report.findings_view import message, text_of
from facility.report.i18n import DEFAULT_LANGUAGE, using_language
from facility.report.json_report import finding_json

SCHEMA = "facility-headroom/1"


def _count(d: DomainHeadroom) -> str:
    return f"≥ {SEARCH_LIMIT:,} (nothing binds)" if d.unbounded else f"{d.racks:,}"


def headroom_text(report: HeadroomReport) -> str:
    o = report.overall
    lines = [
        f"Headroom for more '{report.rack_type}' racks on {report.target_kind} {report.target} "
        f"(placed and fed like rack {report.template})",
        "",
        f"more racks that fit: {_count(o)}",
    ]
    for f in o.binding:
        who = (
            "each new rack" if f.entity_id.startswith("new-") else f"{f.entity_kind} {f.entity_id}"
        )
        lines.append(f"  binds first: {f.rule} {f.title} — {who}, with one more: {message(f)}")
    if report.already_failing:
        lines += ["", "already failing today (more racks make these worse; not counted above):"]
        for f in report.already_failing:
            lines.append(f"  {f.rule} {f.entity_kind} {f.entity_id}: {message(f)}")
    lines += ["", "per domain:"]
    for d in report.domains:
        binds = ", ".join(sorted({f.rule for f in d.binding})) or "—"
        lines.append(f"  {d.domain:<12} {_count(d):>26}   binds: {binds}")
    stranded = [(d, f) for d in report.domains for f in d.stranded]
    if stranded:
        lines += [
            "",
            f"stranded at the limit of {o.racks:,} more (capacity another domain leaves unusable):",
        ]
        for d, f in stranded:
            margin_kind = "temperature_difference" if f.kind == "temperature" else f.kind
            lines.append(
                f"  {d.domain}: {f.entity_kind} {f.entity_id} {f.rule} — "
                f"{text_of(f.margin, margin_kind)} left ({text_of(f.observed.value if f.observed else None, f.kind)} "
                f"of {text_of(f.limit.value if f.limit else None, f.kind)})"
            )
    return "\n".join(lines) + "\n"


def _domain_json(d: DomainHeadroom) -> dict[str, Any]:
    return {
        "domain": d.domain,
        "racks": d.racks,
        "unbounded": d.unbounded,
        "binding": [finding_json(f) for f in d.binding],
        "stranded": [finding_json(f) for f in d.stranded],
    }


def headroom_json(report: HeadroomReport, site: dict[str, str]) -> str:
    with using_language(DEFAULT_LANGUAGE):  # a machine format: English
        return _headroom_json(report, site)


def _headroom_json(report: HeadroomReport, site: dict[str, str]) -> str:
    data = {
        "schema": SCHEMA,
        "site": site,
        "rack_type": report.rack_type,
        "target": {"kind": report.target_kind, "id": report.target},
        "template_rack": report.template,
        "search_limit": SEARCH_LIMIT,
        "overall": _domain_json(report.overall),
        "domains": [_domain_json(d) for d in report.domains],
        "already_failing": [finding_json(f) for f in report.already_failing],
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
