"""The terminal summary of `facility check`: verdict, causes, failing findings, coverage.

Three lengths, from ``report.presentation.verbosity``:

- ``-q`` (-1): the verdict with the counts, the failing checks by severity and the number of
  causes: for a script's log.
- default (0): one screen. Header, key figures, verdict and counts; the causes
  (:mod:`facility.report.causes`), each with the findings that make it up, one line per
  rule and identical figures, every failing entity named (as runs: ``A01 … A08``); what was
  not evaluated, under the area it leaves unjudged; the coverage in a line per area that is
  not fully judged (what the model leaves out counted, ``-v`` names it); the verdict again.
- ``-v`` (1 and up): the causes, then every failing rule with its title, the places in the
  site file and the working of observed and limit; the whole coverage.

``--statistics`` adds a table of failing and not-evaluated checks per rule. With colour (a
terminal, :func:`facility.commands.check._colour`), the verdict and the severity words are
coloured (ANSI SGR); nothing else changes, and without colour no escape byte is written.

Written in the report's language (:mod:`facility.report.i18n`); rule titles come from the
rule files' own text in that language. Every text from the input (names, ids, messages that
quote them, waiver reasons) is shown through :func:`~facility.printable.printable`: control and
bidi characters escaped, so a name cannot move the cursor, clear the screen or fake a line.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from typing import Any

from facility.engine.findings import AuditResult, Finding
from facility.engine.quantities import Value
from facility.engine.rules import SEVERITY_ORDER
from facility.messages import localized
from facility.printable import printable
from facility.report.anchors import natural_key
from facility.report.causes import (
    Cause,
    cause_count,
    cause_label,
    causes_heading,
    figures_key,
    report_causes,
)
from facility.report.context import ReportInput
from facility.report.coverage_view import coverage_lines, verdict_sentence
from facility.report.entity_runs import compressed, judged_orders
from facility.report.findings_view import message, missing_text, rule_title, text_of, working
from facility.report.fixes_view import finding_fixes, not_searched
from facility.report.i18n import _, ngettext, npgettext, pgettext
from facility.report.presenting import for_people
from facility.report.words import counted_kind_word, list_separator

# ANSI SGR colours (ECMA-48): red for errors and NOT READY, yellow for warnings and a verdict
# short of ready, green for READY.
_SGR = {"red": "31", "yellow": "33", "green": "32"}
_VERDICT_COLOUR = {
    "ready": "green",
    "ready-with-warnings": "yellow",
    "incomplete": "yellow",
    "not-ready": "red",
}
_SEVERITY_COLOUR = {"error": "red", "warning": "yellow"}


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


def _counts_text(result: AuditResult) -> str:
    return _(
        "checks: %(fail)s failed, %(pass)s passed, %(not_evaluated)s not evaluated, "
        "%(waived)s waived"
    ) % {status: f"{n:,}" for status, n in result.counts().items()}


class _Text:
    """The summary of one report, section by section, as ``report.presentation`` asks."""

    def __init__(self, report: ReportInput) -> None:
        self.report = report
        self.result = report.result
        shown = report.presentation
        self.verbosity = shown.verbosity
        self.colour = shown.colour
        self.show_passed = shown.show_passed
        self.texts = {rule.code: rule.spec.text(report.lang) for rule in report.ruleset.rules}
        self.titles = {code: text.title for code, text in self.texts.items()}
        # Every entity each rule judged, in natural order: the order entity runs are counted in.
        self.orders = judged_orders(self.result.findings)
        self.causes = report_causes(self.result, report.ruleset, report.site, report.failures)
        # A campus repeats the same figures over thousands of identical racks: each message and
        # working is made once per distinct set of values.
        self._messages: dict[tuple[Any, ...], str] = {}
        self._workings: dict[tuple[Any, str], str] = {}

    # -- pieces ---------------------------------------------------------------------------

    def paint(self, text: str, colour: str | None) -> str:
        if not self.colour or colour is None:
            return text
        return f"\x1b[{_SGR[colour]}m{text}\x1b[0m"

    def verdict_word(self) -> str:
        key = self.result.verdict
        return self.paint(_verdict_text(key), _VERDICT_COLOUR[key])

    def severity_word(self, severity: str) -> str:
        return self.paint(_severity_heading(severity), _SEVERITY_COLOUR.get(severity))

    def title(self, f: Finding) -> str:
        return printable(self.titles.get(f.rule, f.title))

    def said(self, f: Finding) -> str:
        key = (f.status, f.kind, f.observed, f.limit, f.margin, f.relation, f.missing)
        found = self._messages.get(key)
        if found is None:
            found = self._messages[key] = printable(message(f))
        return found

    def worked(self, value: Value | None, kind: str) -> str:
        found = self._workings.get((value, kind))
        if found is None:
            # a working can name entities (a failure scenario's element): shown inert too
            found = self._workings[(value, kind)] = printable(working(value, kind))
        return found

    def short(self, f: Finding) -> str:
        """The figures of a default line: the message, or for a count that says what it counts
        (a single failure: 'PWR-002 ×4 fail after the loss, passing before') that, the count
        and the limit — the count alone ('4 violates the limit') says nothing."""
        observed = f.observed
        if f.status != "fail" or f.kind != "count" or not observed or not observed.formula:
            return self.said(f)
        key = ("count", observed, f.limit, f.relation)
        found = self._messages.get(key)
        if found is None:
            found = self._messages[key] = _(
                "%(what)s: %(observed)s, must be %(relation)s %(limit)s"
            ) % {
                "what": printable(localized(observed.formula)),
                "observed": text_of(observed.value, f.kind),
                "relation": f.relation,
                "limit": text_of(f.limit.value if f.limit else None, f.kind),
            }
        return found

    def entities(self, members: list[Finding], places: bool) -> str:
        """'A01 … A08 (8 racks; file:109)': the members as runs, their count and places."""
        first = members[0]
        where = _places(members) if places else ""
        if len(members) == 1:
            entity = printable(first.entity_id)
            return entity + (_(" (%(places)s)") % {"places": where} if where else "")
        values = {
            "entities": printable(
                compressed(
                    [m.entity_id for m in members], self.orders[(first.rule, first.entity_kind)]
                )
            ),
            "n": f"{len(members):,}",
            "kind": counted_kind_word(first.entity_kind, len(members)),
            "places": where,
        }
        if where:
            return _("%(entities)s (%(n)s %(kind)s; %(places)s)") % values
        return _("%(entities)s (%(n)s %(kind)s)") % values

    def group_line(self, members: list[Finding]) -> str:
        """'ERROR PWR-003 A01-A1 … A08-B4 (64 rack PDUs): 40.8 kVA violates …'."""
        f = members[0]
        word = (
            self.severity_word(f.severity)
            if f.status == "fail"
            else pgettext("terminal status", "PASS")
        )
        return _("%(severity)s %(rule)s %(entities)s: %(message)s") % {
            "severity": word,
            "rule": f.rule,
            "entities": self.entities(members, places=False),
            "message": self.short(f),
        }

    # -- sections -------------------------------------------------------------------------

    def header(self, gap: bool = True) -> list[str]:
        """Site, file and hash; profile, rules and power bases; the key figures (after a blank
        line unless ``gap`` is False: the one-screen summary)."""
        result = self.result
        from facility.report.inventory import key_figures

        figures = [
            printable(line)
            for line in key_figures(self.report.site, result.account, result.power_account)
        ]
        return [
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
            *([""] if figures and gap else []),
            *figures,
        ]

    def verdict_line(self) -> str:
        """'verdict: NOT READY — checks: 107 failed, …': the top line of the default and
        quiet summaries, and the last line of every one."""
        return (
            _("verdict: %(verdict)s") % {"verdict": self.verdict_word()}
            + " — "
            + _counts_text(self.result)
        )

    def sentence(self, width: int = 100) -> list[str]:
        """What the verdict means, what was not evaluated, what --select/--ignore left out and
        what --baseline made of it (:func:`verdict_sentence`), wrapped and indented."""
        return textwrap.wrap(
            printable(verdict_sentence(self.result)), width=width, initial_indent="  ",
            subsequent_indent="  ", break_long_words=False, break_on_hyphens=False,
        )  # fmt: skip

    def severity_lines(self) -> list[str]:
        failing = Counter((f.severity, f.area) for f in self.result.findings if f.status == "fail")
        lines = []
        for severity in ("error", "warning", "info"):
            areas = {a: n for (s, a), n in failing.items() if s == severity}
            if areas:
                by_area = list_separator().join(
                    _("%(area)s %(n)s") % {"area": _area_key(a), "n": n}
                    for a, n in sorted(areas.items())
                )
                words = _severity_count(severity) % {"n": sum(areas.values()), "areas": by_area}
                lines.append("  " + words)
        return lines

    def spof_line(self) -> list[str]:
        if self.report.failures is None:
            return []
        # the analysis ran: the count; `facility failures` tells which
        spofs = f"{len(self.report.failures.single_points_of_failure):,}"
        return [_("single points of failure: %(n)s (see facility failures)") % {"n": spofs}]

    def cause_lines(self, with_findings: bool) -> list[str]:
        """The numbered causes; with their findings beneath (the default summary)."""
        if not self.causes:
            return []
        n = len(self.causes)
        heading = npgettext("terminal heading", "%(n)s CAUSE", "%(n)s CAUSES", n) % {"n": f"{n:,}"}
        lines = ["", heading]
        width = len(str(len(self.causes)))
        for n, cause in enumerate(self.causes, 1):
            lines.append(f"  {n:>{width}}. " + self.cause_text(cause))
            if with_findings:
                for group in cause.groups:
                    lines.append(" " * (width + 6) + self.group_line(list(group.findings)))
            elif self.verbosity > 0 and self.report.fixes is not None:  # -v: the root's fix
                shown = finding_fixes(self.report, cause.root.first)
                if shown is not None:
                    fix = _("fix: %(fix)s") % {"fix": printable(shown.first)}
                    lines.append(" " * (width + 4) + fix)
        return lines

    def cause_text(self, cause: Cause) -> str:
        label = cause_label(cause, self.title(cause.root.first), self.orders)
        return printable(label) + " — " + cause_count(cause)

    def passed_lines(self) -> list[str]:
        passed = [f for f in self.result.findings if f.status == "pass"]
        if not self.show_passed or not passed:
            return []
        groups: dict[tuple[Any, ...], list[Finding]] = {}
        passed.sort(key=lambda f: (f.area, f.rule, natural_key(f.entity_id)))
        for f in passed:
            groups.setdefault(figures_key(f), []).append(f)
        # each rule once, by the requirement that holds ('Each power side carries the whole
        # rack'), then its entities a line per set of figures
        lines, rule, word = ["", _("PASSED")], None, pgettext("terminal status", "PASS")
        for members in groups.values():
            f = members[0]
            if f.rule != rule:
                rule = f.rule
                title = printable(rule_title(f, self.texts.get(f.rule)))
                lines.append(f"  {word} {f.rule} {title}")
            lines.append(
                "    "
                + _("%(entities)s: %(message)s")
                % {"entities": self.entities(members, places=False), "message": self.short(f)}
            )
        return lines

    def not_evaluated(self, by_rule: bool = False) -> dict[str, list[str]]:
        """Area → a line per rule and reason not evaluated, the entities as runs; ``by_rule``:
        a line per rule, its reasons joined (each names what lacks the input)."""
        missing = [f for f in self.result.findings if f.status == "not_evaluated"]
        unknown: dict[tuple[str, str, str], dict[str, list[Finding]]] = {}
        for f in sorted(missing, key=lambda f: (f.rule, natural_key(f.entity_id))):
            reason = "" if by_rule else missing_text(f)
            unknown.setdefault((f.area, f.rule, reason), {}).setdefault(missing_text(f), []).append(
                f
            )
        out: dict[str, list[str]] = {}
        for (area, rule, _reason), reasons in unknown.items():
            members = sorted(
                (m for ms in reasons.values() for m in ms), key=lambda m: natural_key(m.entity_id)
            )
            out.setdefault(area, []).append(
                _("%(rule)s %(entity)s: %(missing)s")
                % {
                    "rule": rule,
                    "entity": self.entities(members, places=False),
                    "missing": printable("; ".join(reasons)),
                }
            )
        return out

    def compact_coverage(self) -> list[str]:
        """One line: the areas judged in full and in part (the verdict sentence names what was
        not evaluated; ``-v`` the entities), what the model leaves out, counted; then each area
        with nothing to judge, with the reason."""
        rows = coverage_lines(self.result.coverage)
        if not rows:  # no coverage (a report built by hand): what was not evaluated, listed
            unknown = self.not_evaluated(by_rule=True)
            lines = [line for area in sorted(unknown) for line in unknown[area]]
            return (
                ["", _("NOT EVALUATED (missing input)"), *("  " + x for x in lines)]
                if lines
                else []
            )
        areas = {a.area: a for a in self.result.coverage.areas} if self.result.coverage else {}
        full: list[str] = []
        part: list[str] = []
        empty: list[str] = []
        left_out = 0
        for row in rows:
            scopes = [s for s in areas[row.area].scopes if s.entities] if row.area in areas else []
            if not scopes:  # nothing to judge: why, in the model's words
                reasons = "; ".join(printable(text) for text in row.not_modelled)
                line = _("%(area)s: %(judged)s") % {"area": row.label, "judged": row.judged}
                empty.append("  " + (f"{line} — {reasons}" if reasons else line))
                continue
            left_out += len(row.not_modelled)
            (part if any(s.gaps or s.unchecked for s in scopes) else full).append(row.label)
        pieces = []
        if full:
            pieces.append(_("judged in full: %(areas)s") % {"areas": list_separator().join(full)})
        if part:
            pieces.append(_("in part: %(areas)s") % {"areas": list_separator().join(part)})
        if left_out:
            pieces.append(
                ngettext(
                    "%(n)s limit of the model (-v names it)",
                    "%(n)s limits of the model (-v names them)",
                    left_out,
                )
                % {"n": f"{left_out:,}"}
            )
        heading = (
            _("COVERAGE — %(pieces)s") % {"pieces": "; ".join(pieces)} if pieces else _("COVERAGE")
        )
        return ["", heading, *empty]

    # -- the three lengths --------------------------------------------------------------

    def quiet(self) -> list[str]:
        lines = [self.verdict_line(), *self.severity_lines()]
        if self.causes:
            lines.append("  " + causes_heading(self.causes))
        return lines

    def default(self) -> list[str]:
        return [
            *self.header(gap=False),
            "",
            self.verdict_line(),
            *self.sentence(width=120),  # as wide as the causes' lines
            *self.cause_lines(with_findings=True),
            *self.passed_lines(),
            *self.compact_coverage(),
        ]

    def verbose(self) -> list[str]:
        lines = [*self.header(), ""]
        lines.append(_("verdict: %(verdict)s") % {"verdict": self.verdict_word()})
        lines += self.sentence()
        lines.append(_counts_text(self.result))
        lines += self.severity_lines()
        lines += self.cause_lines(with_findings=False)
        lines += self.detailed_findings()
        lines += self.detailed_not_evaluated()
        lines += _coverage(self.result)
        if self.report.fixes is None and self.causes:  # nothing failing: nothing to fix
            lines.append("  " + not_searched())
        return lines

    def detailed_findings(self) -> list[str]:
        """Every failing (and, with --show-passed, passing) rule with its title, one line per
        identical figures with the places, and the working of observed and limit."""
        shown = [
            f
            for f in self.result.findings
            if f.status == "fail" or (self.show_passed and f.status == "pass")
        ]
        shown.sort(key=lambda f: (SEVERITY_ORDER[f.severity], f.area, f.rule, f.entity_id))
        groups: dict[tuple[Any, ...], list[Finding]] = {}
        for f in shown:
            groups.setdefault(figures_key(f), []).append(f)
        lines: list[str] = []
        current = None
        last_working: tuple[str, str] | None = None
        for members in groups.values():
            f = members[0]
            if (f.rule, f.severity) != current:
                current = (f.rule, f.severity)
                last_working = None
                lines += ["", f"{self.severity_word(f.severity)} {f.rule} {self.title(f)}"]
            entities = self.entities(sorted(members, key=lambda m: natural_key(m.entity_id)), True)
            lines.append(
                "  " + _("%(entity)s: %(message)s") % {"entity": entities, "message": self.said(f)}
            )
            how = (
                (self.worked(f.observed, f.kind), self.worked(f.limit, f.kind))
                if f.observed and f.status == "fail"
                else None
            )
            if how is not None and how != last_working:  # identical racks: the working once
                lines.append("      " + _("observed: %(working)s") % {"working": how[0]})
                lines.append("      " + _("limit:    %(working)s") % {"working": how[1]})
                last_working = how
            lines += self.fix_lines(f)
        return lines

    def fix_lines(self, f: Finding) -> list[str]:
        """-v, under a failing group: each verified fix with its working once changed, or why
        there is none and the rule's remediation list."""
        shown = finding_fixes(self.report, f) if self.report.fixes is not None else None
        if shown is None:  # not searched: said once, under the coverage
            return []
        lines = []
        for fix in shown.fixes:
            lines.append("      " + _("fix: %(fix)s") % {"fix": printable(fix.text)})
            observed, limit = printable(fix.observed), printable(fix.limit)
            lines.append("        " + _("then observed: %(working)s") % {"working": observed})
            lines.append("        " + _("then limit:    %(working)s") % {"working": limit})
        if shown.note:
            lines.append("      " + _("fix: %(fix)s") % {"fix": printable(shown.note)})
            lines += ["        - " + printable(r) for r in shown.remediation]
        return lines

    def detailed_not_evaluated(self) -> list[str]:
        unknown = self.not_evaluated()
        if not unknown:
            return []
        lines = ["", _("NOT EVALUATED (missing input)")]
        for area in sorted(unknown):
            lines += ["  " + line for line in unknown[area]]
        return lines

    def statistics(self) -> list[str]:
        """Per rule: failing and not-evaluated checks, code, severity and title (ruff's
        --statistics), most failing first."""
        rows: dict[str, list[Any]] = {}
        for f in self.result.findings:
            if f.status in ("fail", "not_evaluated"):
                row = rows.setdefault(f.rule, [0, 0, f.severity, self.title(f)])
                row[0 if f.status == "fail" else 1] += 1
        if not rows:
            return []
        head = [_("failing"), _("not evaluated"), _("rule"), _("severity"), _("title")]
        ordered = sorted(rows.items(), key=lambda item: (-item[1][0], -item[1][1], item[0]))
        sorted_rows = [row for _rule, row in ordered]
        table = [
            [f"{fail:,}", f"{unknown:,}", rule, _severity_heading(severity), title]
            for rule, (fail, unknown, severity, title) in ordered
        ]
        keys = [None, *(severity for _fail, _unknown, severity, _title in sorted_rows)]
        widths = [max(len(r[i]) for r in [head, *table]) for i in range(4)]
        lines = ["", _("STATISTICS")]
        for r, key in zip([head, *table], keys, strict=True):
            cells = [r[0].rjust(widths[0]), r[1].rjust(widths[1]), r[2].ljust(widths[2])]
            # the body's severities coloured like the findings' (the header row not)
            pad = " " * (widths[3] - len(r[3]))
            severity = self.paint(r[3], _SEVERITY_COLOUR.get(key or "")) + pad
            lines.append("  " + "  ".join([*cells, severity, r[4]]).rstrip())
        return lines

    def waivers(self) -> list[str]:
        report = self.report
        lines: list[str] = []
        waived = [f for f in self.result.findings if f.status == "waived"]
        if waived:
            lines += ["", _("WAIVED (accepted, not failing the run)")]
            # one line per waiver and set of figures, its entities as runs ('row:A' waives
            # 64 identical PDU findings: one line), each match still named
            groups: dict[tuple[Any, ...], list[Finding]] = {}
            waived.sort(key=lambda f: (f.rule, natural_key(f.entity_id)))
            for f in waived:
                w = report.waivers.by_finding.get(f.id)
                groups.setdefault((id(w), figures_key(f)), []).append(f)
            for members in groups.values():
                f = members[0]
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
                        "entity": self.entities(members, places=False),
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
        return lines

    def render(self) -> str:
        if self.verbosity < 0:
            lines = self.quiet()
            if self.report.presentation.statistics:
                lines += self.statistics()
            return "\n".join(lines)
        lines = self.default() if self.verbosity == 0 else self.verbose()
        lines += self.waivers()
        if self.report.presentation.statistics:
            lines += self.statistics()
        # The verdict again at the bottom, where a long run's output ends (ruff: "Found N").
        spof = self.spof_line()
        lines += ["", *spof, self.verdict_line()]
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


def _coverage(result: AuditResult) -> list[str]:
    """Per area, what was judged and what the site does not model (-v)."""
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
    """The terminal summary, in the report's language, as ``report.presentation`` asks
    (verbosity, statistics, colour, passed checks)."""
    with for_people(report):
        return _Text(report).render() + "\n"
