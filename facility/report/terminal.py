"""The terminal summary of `facility check`: verdict, counts, failing findings.

Written in the report's language (:mod:`facility.report.i18n`); rule titles come from the
rule files' own text in that language. Every text from the input (names, ids, messages that
quote them, waiver reasons) is shown through :func:`~facility.printable.printable`: control and
bidi characters escaped, so a name cannot move the cursor, clear the screen or fake a line.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Mapping
from typing import Any

from facility.engine.findings import AuditResult, Finding
from facility.engine.quantities import Value
from facility.engine.rules import SEVERITY_ORDER
from facility.printable import printable
from facility.report.anchors import natural_key
from facility.report.context import ReportInput
from facility.report.coverage_view import coverage_lines, verdict_sentence
from facility.report.entity_runs import compressed, in_order
from facility.report.findings_view import message, missing_text, working
from facility.report.i18n import _, pgettext, using_language
from facility.report.words import counted_kind_word, list_separator


def _verdict_text(key: str) -> str:
    return {
        "ready": pgettext("terminal verdict", "READY"),
        "ready-with-warnings": pgettext("terminal verdict", "READY WITH WARNINGS"),
        "incomplete": pgettext("terminal verdict", "INCOMPLETE"),
        "not-ready": pgettext("terminal verdict", "NOT READY"),
    }[key]


def _severity_heading(severity: str) -> str:
    """'ERROR' before a failing rule's code."""
    words = {
        "error": pgettext("terminal severity", "ERROR"),
        "warning": pgettext("terminal severity", "WARNING"),
        "info": pgettext("terminal severity", "INFO"),
    }
    return words.get(severity, severity.upper())


def _severity_count(severity: str) -> str:
    """'errors: %(n)s (%(areas)s)' for the counts line of a severity."""
    words = {
        "error": pgettext("terminal counts", "errors: %(n)s (%(areas)s)"),
        "warning": pgettext("terminal counts", "warnings: %(n)s (%(areas)s)"),
        "info": pgettext("terminal counts", "infos: %(n)s (%(areas)s)"),
    }
    return words[severity]


def _area_key(area: str) -> str:
    words = {
        "power": pgettext("terminal area", "power"),
        "liquid": pgettext("terminal area", "liquid"),
        "air": pgettext("terminal area", "air"),
        "floor": pgettext("terminal area", "floor"),
        "cluster": pgettext("terminal area", "cluster"),
        "redundancy": pgettext("terminal area", "single failures"),
    }
    return words.get(area, area)


def _basis(basis: str) -> str:
    return {"peak": _("peak"), "nominal": _("nominal")}.get(basis, basis)


def summary_text(
    result: AuditResult,
    *,
    key_figures: list[str] | None = None,
    show_passed: bool = False,
    titles: Mapping[str, str] | None = None,
) -> str:
    """The summary in the current language; ``titles`` are the rules' titles in it (rule
    code → title), else each finding's own (English) title."""
    titles = titles or {}
    lines = [
        _("%(site)s — %(file)s (sha256 %(sha)s…)")
        % {
            "site": printable(result.site_name),
            "file": printable(result.site_file),
            "sha": result.site_sha256[:12],
        },
        _(
            "profile %(profile)s, rules %(rules)s; electrical checks at %(electrical)s power, "
            "thermal at %(thermal)s"
        )
        % {
            "profile": printable(result.profile),
            "rules": result.rules_version,
            "electrical": _basis(result.assumptions["electrical_power_basis"]),
            "thermal": _basis(result.assumptions["thermal_power_basis"]),
        },
        "",
        *(printable(line) for line in key_figures or []),
        *([""] if key_figures else []),
        _("verdict: %(verdict)s") % {"verdict": _verdict_text(result.verdict)},
        *textwrap.wrap(
            printable(verdict_sentence(result)), width=100, initial_indent="  ",
            subsequent_indent="  ", break_long_words=False, break_on_hyphens=False,
        ),
    ]  # fmt: skip
    counts = result.counts()
    failing = Counter((f.severity, f.area) for f in result.findings if f.status == "fail")
    lines.append(
        _(
            "checks: %(fail)s failed, %(pass)s passed, %(not_evaluated)s not evaluated, "
            "%(waived)s waived"
        )
        % counts
    )
    for severity in ("error", "warning", "info"):
        areas = {a: n for (s, a), n in failing.items() if s == severity}
        if areas:
            by_area = list_separator().join(
                _("%(area)s %(n)s") % {"area": _area_key(a), "n": n}
                for a, n in sorted(areas.items())
            )
            lines.append(
                "  " + _severity_count(severity) % {"n": sum(areas.values()), "areas": by_area}
            )
    shown = [
        f for f in result.findings if f.status == "fail" or (show_passed and f.status == "pass")
    ]
    shown.sort(key=lambda f: (SEVERITY_ORDER[f.severity], f.area, f.rule, f.entity_id))
    current = None
    last_working: tuple[str, str] | None = None
    # A campus repeats the same figures over thousands of identical racks: each message and
    # working is made once per distinct set of values.
    messages: dict[tuple[Any, ...], str] = {}
    workings: dict[tuple[Any, str], str] = {}

    def said(f: Finding) -> str:
        key = (f.status, f.kind, f.observed, f.limit, f.margin, f.relation, f.missing)
        found = messages.get(key)
        if found is None:
            found = messages[key] = printable(message(f))
        return found

    def worked(value: Value | None, kind: str) -> str:
        found = workings.get((value, kind))
        if found is None:
            # a working can name entities (a failure scenario's element): shown inert too
            found = workings[(value, kind)] = printable(working(value, kind))
        return found

    # Every entity each rule judged, in natural order: the order entity runs are counted in.
    judged: dict[tuple[str, str], list[str]] = {}
    for f in result.findings:
        judged.setdefault((f.rule, f.entity_kind), []).append(f.entity_id)
    orders = {key: in_order(ids) for key, ids in judged.items()}

    # One line per rule and identical figures: the entities as runs, the working once.
    groups: dict[tuple[Any, ...], list[Finding]] = {}
    for f in shown:
        how = (
            (worked(f.observed, f.kind), worked(f.limit, f.kind))
            if f.observed and f.status == "fail"
            else None
        )
        key = (f.rule, f.severity, f.entity_kind, f.status, said(f), how)
        groups.setdefault(key, []).append(f)
    for (rule, severity, kind, _status, text, how), members in groups.items():
        if (rule, severity) != current:
            current = (rule, severity)
            last_working = None
            title = printable(titles.get(rule, members[0].title))
            lines += ["", f"{_severity_heading(severity)} {rule} {title}"]
        lines.append("  " + _entities_line(members, orders[(rule, kind)], kind, text))
        if how is not None and how != last_working:  # identical racks: the working once a rule
            lines.append("      " + _("observed: %(working)s") % {"working": how[0]})
            lines.append("      " + _("limit:    %(working)s") % {"working": how[1]})
            last_working = how
    missing = [f for f in result.findings if f.status == "not_evaluated"]
    if missing:
        lines += ["", _("NOT EVALUATED (missing input)")]
        unknown: dict[tuple[str, str, str], list[Finding]] = {}
        for f in sorted(missing, key=lambda f: (f.rule, natural_key(f.entity_id))):
            unknown.setdefault((f.rule, f.entity_kind, missing_text(f)), []).append(f)
        for (rule, kind, reason), members in unknown.items():
            ids = [m.entity_id for m in members]
            entities = printable(compressed(ids, orders[(rule, kind)]))
            if len(members) > 1:
                entities += " " + _("(%(n)s %(kind)s)") % {
                    "n": f"{len(members):,}",
                    "kind": counted_kind_word(kind, len(members)),
                }
            lines.append(
                "  "
                + _("%(rule)s %(entity)s: %(missing)s")
                % {"rule": rule, "entity": entities, "missing": printable(reason)}
            )
    lines += _coverage(result)
    return "\n".join(lines)


def _places(members: list[Finding]) -> str:
    """Where the members were written: 'file:114', 'file:114, 115', or the first place and
    how many more."""
    seen: dict[tuple[str, int], None] = {}
    for m in members:
        if m.location:
            seen.setdefault((m.location.file, m.location.line), None)
    places = list(seen)
    if not places:
        return ""
    first_file = places[0][0]
    if len(places) <= 3 and all(file == first_file for file, _ in places):
        lines = ", ".join(str(line) for _, line in places)
        return f"{printable(first_file)}:{lines}"
    first = f"{printable(first_file)}:{places[0][1]}"
    return _("%(first)s and %(n)s more places") % {"first": first, "n": f"{len(places) - 1:,}"}


def _entities_line(members: list[Finding], order: list[str], kind: str, message: str) -> str:
    """One line for a rule's identical findings: the entities as runs, their count and
    places, then the message they share."""
    places = _places(members)
    if len(members) == 1:
        return _("%(entity)s%(where)s: %(message)s") % {
            "entity": printable(members[0].entity_id),
            "where": _(" (%(places)s)") % {"places": places} if places else "",
            "message": message,
        }
    values = {
        "entities": printable(compressed([m.entity_id for m in members], order)),
        "n": f"{len(members):,}",
        "kind": counted_kind_word(kind, len(members)),
        "places": places,
        "message": message,
    }
    if places:
        return _("%(entities)s (%(n)s %(kind)s; %(places)s): %(message)s") % values
    return _("%(entities)s (%(n)s %(kind)s): %(message)s") % values


def _coverage(result: AuditResult) -> list[str]:
    """Per area, what was judged and what the site does not model."""
    rows = coverage_lines(result.coverage)
    if not rows:
        return []
    lines = ["", _("COVERAGE")]
    for row in rows:
        lines.append("  " + _("%(area)s: %(judged)s") % {"area": row.label, "judged": row.judged})
        for text in row.not_modelled:
            lines.append("    - " + printable(text))
    return lines


def render_text(report: ReportInput) -> str:
    """The terminal summary with the site's key figures and the waivers' states, in the
    report's language, as ``report.presentation`` asks."""
    from facility.report.inventory import key_figures

    with using_language(report.lang):
        titles = {rule.code: rule.spec.text(report.lang).title for rule in report.ruleset.rules}
        text = summary_text(
            report.result,
            key_figures=key_figures(report.site, report.result.account),
            show_passed=report.presentation.show_passed,
            titles=titles,
        )
        lines = [text]
        waived = [f for f in report.result.findings if f.status == "waived"]
        if waived:
            lines += ["", _("WAIVED (accepted, not failing the run)")]
            for f in sorted(waived, key=lambda f: (f.rule, f.entity_id)):
                w = report.waivers.by_finding.get(f.id)
                who = (
                    _(" — %(owner)s, until %(expires)s: %(reason)s")
                    % {
                        "owner": printable(w.owner),
                        "expires": w.expires.isoformat(),
                        "reason": printable(w.reason),
                    }
                    if w
                    else ""
                )
                lines.append(
                    "  "
                    + _("%(rule)s %(entity)s: %(message)s%(waiver)s")
                    % {
                        "rule": f.rule,
                        "entity": printable(f.entity_id),
                        "message": printable(message(f)),
                        "waiver": who,
                    }
                )
        for state, title in (
            ("expired", _("EXPIRED WAIVERS (no longer applied)")),
            ("stale", _("STALE WAIVERS (match no failing finding)")),
        ):
            records = report.waivers.of_state(state)
            if records:
                lines += ["", title]
                for r in records:
                    lines.append(
                        "  "
                        + _("%(where)s: %(rule)s %(entity)s (%(owner)s, expires %(expires)s)")
                        % {
                            "where": f"{printable(r.location.file)}:{r.location.line}",
                            "rule": printable(r.waiver.rule),
                            "entity": printable(r.waiver.entity),
                            "owner": printable(r.waiver.owner),
                            "expires": r.waiver.expires.isoformat(),
                        }
                    )
        if report.failures is not None:  # the analysis ran: the count; `facility failures` tells
            spofs = f"{len(report.failures.single_points_of_failure):,}"
            line = _("single points of failure: %(n)s (see facility failures)") % {"n": spofs}
            lines += ["", line]
        # The verdict again at the bottom, where a long run's output ends (ruff: "Found N").
        result = report.result
        lines += [
            "",
            _("verdict: %(verdict)s") % {"verdict": _verdict_text(result.verdict)}
            + " — "
            + _(
                "checks: %(fail)s failed, %(pass)s passed, %(not_evaluated)s not evaluated, "
                "%(waived)s waived"
            )
            % result.counts(),
        ]
    return "\n".join(lines) + "\n"
