"""The terminal summary of `facility check`: verdict, counts, failing findings."""

from __future__ import annotations

from collections import Counter

from facility.engine.findings import AuditResult
from facility.engine.rules import SEVERITY_ORDER
from facility.report.context import ReportInput
from facility.report.findings_view import message, working

VERDICT_TEXT = {
    "ready": "READY",
    "ready-with-warnings": "READY WITH WARNINGS",
    "not-ready": "NOT READY",
}


def summary_text(
    result: AuditResult, *, key_figures: list[str] | None = None, show_passed: bool = False
) -> str:
    lines = [
        f"{result.site_name} — {result.site_file} (sha256 {result.site_sha256[:12]}…)",
        f"profile {result.profile}, rules {result.rules_version}; electrical checks at "
        f"{result.assumptions['electrical_power_basis']} power, thermal at "
        f"{result.assumptions['thermal_power_basis']}",
        "",
        *(key_figures or []),
        *([""] if key_figures else []),
        f"verdict: {VERDICT_TEXT[result.verdict]}",
    ]
    counts = result.counts()
    failing = Counter((f.severity, f.area) for f in result.findings if f.status == "fail")
    lines.append(
        f"checks: {counts['fail']} failed, {counts['pass']} passed, "
        f"{counts['not_evaluated']} not evaluated, {counts['waived']} waived"
    )
    for severity in ("error", "warning", "info"):
        areas = {a: n for (s, a), n in failing.items() if s == severity}
        if areas:
            by_area = ", ".join(f"{a} {n}" for a, n in sorted(areas.items()))
            lines.append(f"  {severity}s: {sum(areas.values())} ({by_area})")
    shown = [
        f for f in result.findings if f.status == "fail" or (show_passed and f.status == "pass")
    ]
    shown.sort(key=lambda f: (SEVERITY_ORDER[f.severity], f.area, f.rule, f.entity_id))
    current = None
    last_working: tuple[str, str] | None = None
    for f in shown:
        if (f.rule, f.severity) != current:
            current = (f.rule, f.severity)
            last_working = None
            lines += ["", f"{f.severity.upper()} {f.rule} {f.title}"]
        where = f" ({f.location.file}:{f.location.line})" if f.location else ""
        lines.append(f"  {f.entity_id}{where}: {message(f)}")
        if f.observed and f.status == "fail":
            how = (working(f.observed, f.kind), working(f.limit, f.kind))
            if how != last_working:  # identical racks: show the working once per rule
                lines.append(f"      observed: {how[0]}")
                lines.append(f"      limit:    {how[1]}")
                last_working = how
    missing = [f for f in result.findings if f.status == "not_evaluated"]
    if missing:
        lines += ["", "NOT EVALUATED (missing input)"]
        for f in sorted(missing, key=lambda f: (f.rule, f.entity_id)):
            lines.append(f"  {f.rule} {f.entity_id}: {'; '.join(f.missing)}")
    return "\n".join(lines)


def render_text(report: ReportInput, *, show_passed: bool = False) -> str:
    """The terminal summary with the site's key figures and the waivers' states."""
    from facility.report.inventory import key_figures

    text = summary_text(
        report.result, key_figures=key_figures(report.site), show_passed=show_passed
    )
    lines = [text]
    waived = [f for f in report.result.findings if f.status == "waived"]
    if waived:
        lines += ["", "WAIVED (accepted, not failing the run)"]
        for f in sorted(waived, key=lambda f: (f.rule, f.entity_id)):
            w = report.waivers.by_finding.get(f.id)
            who = f" — {w.owner}, until {w.expires.isoformat()}: {w.reason}" if w else ""
            lines.append(f"  {f.rule} {f.entity_id}: {message(f)}{who}")
    for state, title in (
        ("expired", "EXPIRED WAIVERS (no longer applied)"),
        ("stale", "STALE WAIVERS (match no failing finding)"),
    ):
        records = report.waivers.of_state(state)
        if records:
            lines += ["", title]
            for r in records:
                lines.append(
                    f"  {r.location.file}:{r.location.line}: {r.waiver.rule} {r.waiver.entity} ({r.waiver.owner}, expires {r.waiver.expires.isoformat()})"
                )
    return "\n".join(lines) + "\n"
