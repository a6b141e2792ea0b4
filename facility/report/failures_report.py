"""Single-failure analysis as text and JSON."""

from __future__ import annotations

from typing import Any

from facility.analysis.failures import FailureReport, ScenarioResult
from facility.engine.findings import Finding
from facility.i18n import _, pgettext
from facility.messages import localized
from facility.report.findings_view import message
from facility.report.json_report import finding_json
from facility.report.presenting import for_machines

SCHEMA = "facility-failures/1"


def kind_word(kind: str) -> str:
    """A failure kind as people read it (the JSON keeps the key)."""
    words = {
        "power_source": pgettext("failure kind", "power source"),
        "distribution": pgettext("failure kind", "distribution element"),
        "rack_side": pgettext("failure kind", "rack side"),
        "cdu": pgettext("failure kind", "CDU"),
        "cdu_pump": pgettext("failure kind", "CDU pump"),
        "facility_water": pgettext("failure kind", "facility water loop"),
        "air_unit": pgettext("failure kind", "air unit"),
        "heat_rejection": pgettext("failure kind", "heat rejection unit"),
    }
    return words.get(kind, kind)


def _percent(u: float | None) -> str:
    if u is None:
        return "—"
    return _("∞ (no capacity left)") if u == float("inf") else f"{u * 100:.1f} %"


def _title(f: Any, titles: dict[str, str] | None) -> str:
    return (titles or {}).get(f.rule, f.title)


def failures_text(
    report: FailureReport, site_name: str, titles: dict[str, str] | None = None
) -> str:
    """The analysis for a terminal, in the current language; ``titles``: rule code -> title."""
    sep = pgettext("list separator", ", ")
    lines = [
        _("%(site)s: single-failure analysis, %(count)s scenarios")
        % {"site": site_name, "count": len(report.results)},
        "",
    ]
    spofs = report.single_points_of_failure
    if spofs:
        lines.append(
            _("SINGLE POINTS OF FAILURE (%(count)s): the loss makes an error-severity check fail")
            % {"count": len(spofs)}
        )
        # Identical consequences (e.g. either side of eight identical racks) are listed once.
        groups: dict[tuple[str, tuple[str, ...], str], list[ScenarioResult]] = {}
        for r in spofs:
            broken = tuple(sorted({f.rule for f in r.new_failures if f.severity == "error"}))
            first = next(f for f in r.new_failures if f.severity == "error")
            groups.setdefault((r.scenario.kind, broken, message(first)), []).append(r)
        for (_kind, broken, _first), members in groups.items():
            head = members[0]
            description = localized(head.scenario.description)
            if len(members) == 1:
                lines.append(
                    f"  {description}" + pgettext("label separator", ": ") + sep.join(broken)
                )
            else:
                lines.append(
                    "  "
                    + _("%(count)s × %(kind)s (%(names)s): %(rules)s; e.g. %(example)s:")
                    % {
                        "count": len(members),
                        "kind": kind_word(head.scenario.kind),
                        "names": sep.join(m.scenario.element for m in members),
                        "rules": sep.join(broken),
                        "example": description,
                    }
                )
            for f in head.new_failures[:6]:
                lines.append(
                    f"      {f.rule} {f.entity_id}" + pgettext("label separator", ": ") + message(f)
                )
            if len(head.new_failures) > 6:
                lines.append(
                    "      " + _("… and %(count)s more") % {"count": len(head.new_failures) - 6}
                )
    else:
        lines.append(
            _("No single point of failure: every loss leaves every error-severity check passing.")
        )
    survivable = [r for r in report.results if not r.single_point_of_failure]
    if survivable:
        lines += ["", _("SURVIVED (worst utilisation after the loss)")]
        same: dict[tuple[str, str], list[ScenarioResult]] = {}
        for r in survivable:
            what = (
                f"{_percent(r.worst_utilisation)} — {r.worst.rule} {_title(r.worst, titles)}"
                if r.worst
                else _("no check changes")
            )
            same.setdefault((r.scenario.kind, what), []).append(r)
        for (kind, what), members in same.items():
            if len(members) == 1:
                lines.append(
                    f"  {localized(members[0].scenario.description)}"
                    + pgettext("label separator", ": ")
                    + what
                )
            else:
                names = sep.join(m.scenario.element for m in members)
                lines.append(
                    "  "
                    + _("%(count)s × %(kind)s (%(names)s): %(what)s")
                    % {"count": len(members), "kind": kind_word(kind), "names": names, "what": what}
                )
    return "\n".join(lines) + "\n"


def scenario_head(r: ScenarioResult) -> dict[str, Any]:
    """A scenario's JSON but its findings (which ``findings`` and ``unchanged`` follow)."""
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
    }


def changed_findings(r: ScenarioResult) -> list[Finding]:
    """The checks the loss moved (status or figures), by id; the others read as in the
    normal audit (``unchanged`` counts them)."""
    return sorted(r.changed, key=lambda f: f.id)


def failures_head(report: FailureReport) -> dict[str, Any]:
    """The analysis's JSON fields before its scenarios."""
    return {
        "schema": SCHEMA,
        "single_points_of_failure": [r.scenario.id for r in report.single_points_of_failure],
    }


def failures_data(report: FailureReport) -> dict[str, Any]:
    """The analysis as JSON data (English, as the JSON result); ``facility check -f json``
    streams the same as its ``failures`` section."""
    with for_machines():
        return {
            **failures_head(report),
            "scenarios": [
                {
                    **scenario_head(r),
                    "findings": [finding_json(f) for f in changed_findings(r)],
                    "unchanged": len(r.unchanged),
                }
                for r in report.results
            ],
        }


def failures_json(report: FailureReport, site: dict[str, str], *, full: bool = False) -> str:
    """``facility failures -f json`` (the command streams :func:`iter_failures_json`)."""
    from facility.report.json_report import iter_failures_json

    return "".join(iter_failures_json(report, site, full=full))
