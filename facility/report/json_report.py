"""The JSON result: a documented, versioned schema (docs/json-result.md)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from facility import __version__
from facility.engine.account import Account
from facility.engine.coverage import Coverage
from facility.engine.findings import AuditResult, Finding
from facility.engine.power_account import PowerAccount
from facility.messages import localized
from facility.model.waivers import Waiver
from facility.printable import json_inert
from facility.report.context import ReportInput
from facility.report.coverage_view import verdict_sentence
from facility.report.findings_view import message, quantity_json, working
from facility.report.fixes_view import finding_fixes
from facility.report.presenting import for_machines
from facility.report.quantities import format_quantity

SCHEMA = "facility-result/3"
DETAILS = ("compact", "full")  # the findings' detail: docs/json-result.md, *Compact and full*


def finding_json(f: Finding) -> dict[str, Any]:
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
        "margin": margin_json(f),
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


def margin_json(f: Finding) -> dict[str, Any] | None:
    """The finding's margin as the result writes it (a temperature's as a difference)."""
    return quantity_json(f.margin, "temperature_difference" if f.kind == "temperature" else f.kind)


def result_json(result: AuditResult) -> dict[str, Any]:
    """The JSON result's data: English whatever the language of the run (a machine format;
    its messages, missing inputs and workings are the engine's English)."""
    with for_machines():
        return _result_json(result)


def _result_json(result: AuditResult) -> dict[str, Any]:
    data = _result_head(result)
    data["findings"] = [finding_json(f) for f in in_result_order(result)]
    return data


def in_result_order(result: AuditResult) -> list[Finding]:
    """The findings in the order the result writes them: by rule, entity kind and id."""
    return sorted(result.findings, key=lambda f: (f.rule, f.entity_kind, f.entity_id))


def _result_head(result: AuditResult) -> dict[str, Any]:
    """Everything of the result but its findings."""
    counts = result.counts()
    failing: dict[str, int] = {"error": 0, "warning": 0, "info": 0}
    for f in result.findings:
        if f.status == "fail":
            failing[f.severity] += 1
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
        "summary": verdict_sentence(result),
        "counts": {**counts, "failing_by_severity": failing},
        "account": account_json(result.account),
        "power_account": power_account_json(result.power_account),
        "coverage": coverage_json(result.coverage),
        **_selection_json(result),
        **_baseline_json(result),
    }


def _baseline_json(result: AuditResult) -> dict[str, Any]:
    """``baseline``, only with --baseline (docs/json-result.md)."""
    baseline = result.baseline
    if baseline is None:
        return {}
    return {
        "baseline": {
            "file": baseline.file,
            "known": baseline.known,
            "new": list(baseline.new),
            "worse": list(baseline.worse),
            "new_not_evaluated": list(baseline.new_gaps),
        }
    }


def _selection_json(result: AuditResult) -> dict[str, Any]:
    """``selection``, only when --select / --ignore were given (docs/json-result.md)."""
    selection = result.selection
    if selection is None:
        return {}
    return {
        "selection": {
            "select": list(selection.select),
            "ignore": list(selection.ignore),
            "deselected": list(selection.deselected),
        }
    }


def account_json(account: Account | None) -> dict[str, Any] | None:
    """Where the racks' load, heat and mass land (docs/json-result.md)."""
    if account is None:
        return None
    out: dict[str, Any] = {}
    for ledger in account.ledgers:
        kind = ledger.kind
        out[ledger.name] = {
            "basis": ledger.basis or None,
            "total": quantity_json(ledger.total, kind),
            "parts": {
                destination: {
                    entity: quantity_json(value, kind) for entity, value in sorted(group.items())
                }
                for destination, group in ledger.parts.items()
            },
            "on_nothing": [
                {"kind": destination, "id": entity, "amount": quantity_json(value, kind)}
                for (destination, entity), value in sorted(ledger.nowhere.items())
            ],
            "not_counted": ledger.unknown,
        }
    return out


def power_account_json(account: PowerAccount | None) -> dict[str, Any] | None:
    """The hall's power account (docs/json-result.md, docs/power-account.md)."""
    if account is None:
        return None

    def power(value: float | None) -> dict[str, Any] | None:
        return quantity_json(value, "power")

    ppue = account.ppue
    return {
        "basis": account.basis,
        "total": power(account.total),
        "it": {k: power(v) for k, v in account.it.items()},
        "cooling": {k: power(v) for k, v in account.cooling.items()},
        "other": {k: power(v) for k, v in account.other.items()},
        "losses": power(account.losses),
        "losses_unknown": account.losses_unknown,
        "critical": power(account.critical),
        "facility": power(account.facility),
        "upstream_not_modelled": power(account.unmodelled),
        "racks_not_counted": account.unknown_racks,
        "sources": [
            {
                "id": s.id,
                "kind": s.kind,
                "real_power": power(s.real),
                "apparent_power": quantity_json(s.apparent, "apparent_power"),
                "efficiency": s.efficiency,
                "losses": power(s.loss),
            }
            for s in account.sources
        ],
        "ppue": None if ppue is None else round(ppue, 4),
    }


def coverage_json(coverage: Coverage | None) -> dict[str, Any] | None:
    """Per area: entities judged, checks not evaluated and why, what is not modelled."""
    if coverage is None:
        return None
    return {
        area.area: {
            "entities": {
                s.scope: {
                    "count": s.entities,
                    "judged": s.judged,
                    "not_evaluated": s.gaps,
                    "no_check_applies": s.unchecked,
                }
                for s in area.scopes
            },
            "not_evaluated": [
                {
                    "rule": g.rule,
                    "severity": g.severity,
                    "kind": g.scope,
                    "reason": localized(g.reason),
                    "entities": g.entities,
                    "example": g.example,
                }
                for g in area.gaps
            ],
            "not_modelled": [localized(text) for text in area.not_modelled],
        }
        for area in coverage.areas
    }


# allow_nan=False in every JSON writer: an infinite limit is written as null (quantity_json), so a
# non-finite number here is a bug, refused (ValueError) rather than written as Infinity or NaN.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), allow_nan=False)
# A compact result's lines (findings, figures, scenarios) leave out the blanks: a campus has
# 100,000s of them, and the result is read by programs (docs/json-result.md, *Compact*).
_TIGHT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_string = json.encoder.encode_basestring  # type: ignore[attr-defined]  # a str as JSON, as above


def _line(value: Any) -> str:
    return json_inert(_ENCODER.encode(value))


def _tight(value: Any) -> str:
    """``value`` on one line as a compact result writes it: no blanks."""
    return json_inert(_TIGHT.encode(value))


def _chunks(
    data: dict[str, Any],
    findings: Iterable[str],
    failures: Iterable[str] | None,
    fixes: Iterable[str] = (),
    tail: Iterable[str] = (),
) -> Iterator[str]:
    """Indented JSON with one finding per line: readable, diffable, and fast on 100,000s of
    findings (the C encoder runs only without ``indent``). Yields the text piece by piece, so a
    campus's findings are never all held as dicts or as one string. The single-failure section,
    when there is one, comes before the findings: its fields, then one scenario per line;
    ``tail`` (a compact result's ``figures``) after them."""
    head = json_inert(json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False))
    yield head[:-2]
    if failures is not None:
        yield from failures
    yield from fixes
    yield ',\n  "findings": ['
    first = True
    for line in findings:
        yield ("\n    " if first else ",\n    ") + line
        first = False
    yield "  ]" if first else "\n  ]"
    yield from tail
    yield "\n}\n"


def _failure_chunks(report: Any, lines: _FindingLines, full: bool) -> Iterator[str]:
    """The ``failures`` section of the JSON result (see :func:`_failures_body`)."""
    yield ',\n  "failures": {'
    yield from _failures_body(report, lines, {}, "    ", full)
    yield "\n  }"


COMPACT_FAILURES_SCHEMA = "facility-failures/2"


def iter_failures_json(report: Any, site: dict[str, str], *, full: bool = False) -> Iterator[str]:
    """``facility failures -f json``, piece by piece. ``full`` (``--json-detail full``): the
    members of a full JSON result's ``failures`` section, with the site first
    (``facility-failures/1``); compact (the default): :func:`_compact_failures`."""
    yield "{"
    if full:
        yield from _failures_body(report, _FindingLines(), {"site": site}, " ")
    else:
        yield from _compact_failures(report, site)
    yield "\n}\n"


def _compact_failures(report: Any, site: dict[str, str]) -> Iterator[str]:
    """``facility-failures/2``: each scenario as in a compact result's ``failures`` section,
    with the findings its loss moved as a compact result's ``findings[]`` writes them (a
    failing one with its id, status, figures and place; passing and not-evaluated ones in
    runs), then each of their rules' texts once (``rules``) and each distinct set of figures
    once (``figures``). A finding several losses moved alike is encoded once."""
    from facility.report.failures_report import (  # it imports this module
        changed_findings,
        failures_head,
        scenario_head,
    )

    lines = _FindingLines(by_identity=True)
    site_file = site.get("file", "")
    rules: dict[str, dict[str, str]] = {}
    with for_machines():
        head = failures_head(report)
        del head["schema"]
        members = {"schema": COMPACT_FAILURES_SCHEMA, "detail": "compact", "site": site, **head}
        yield "".join(f"\n {json.dumps(k)}: {_line(v)}," for k, v in members.items())
        yield '\n "scenarios": ['
        separator = "\n  "
        for r in report.results:
            moved = changed_findings(r)
            for f in moved:
                if f.rule not in rules:
                    rules[f.rule] = _rule_texts(f)
            shown = {k: v for k, v in scenario_head(r).items() if k not in _DERIVED}
            entries = ",".join(lines.compact(moved, {}, site_file))
            yield (
                f'{separator}{_tight(shown)[:-1]},"moved":{len(moved)},'
                f'"findings":[{entries}],"unchanged":{len(r.unchanged)}}}'
            )
            separator = ",\n  "
        yield "]" if separator == "\n  " else "\n ]"
        yield f',\n "rules": {_line(rules)}'
        yield from lines.figures_chunks(" ")


def _failures_body(
    report: Any, lines: _FindingLines, extra: dict[str, Any], indent: str, full: bool = True
) -> Iterator[str]:
    """The analysis's members, then its scenarios one per line, each streamed as it is
    encoded (a campus has 10,000s); each finding line encoded once per distinct figures.
    Not ``full`` (a compact result): a scenario says how many findings the loss moved
    (``moved``) instead of listing them; its new failures and worst finding are named."""
    from facility.report.failures_report import (  # it imports this module
        changed_findings,
        failures_head,
        scenario_head,
    )

    with for_machines():
        head = failures_head(report)
        members = {"schema": head.pop("schema"), **extra, **head}
        yield "".join(f"\n{indent}{json.dumps(k)}: {_line(v)}," for k, v in members.items())
        yield f'\n{indent}"scenarios": ['
        first = True
        for r in report.results:
            if full:
                scenario = _line(scenario_head(r))[:-1]
                found = ", ".join(
                    lines.line(f, f.id, None, waiver_key=False) for f in changed_findings(r)
                )
                rest = f'"findings": [{found}], "unchanged": {len(r.unchanged)}}}'
                line = f"{scenario}, {rest}"
            else:  # kind, element and description follow from the id: left out
                shown = {k: v for k, v in scenario_head(r).items() if k not in _DERIVED}
                line = f'{_tight(shown)[:-1]},"moved":{len(r.changed)},"unchanged":{len(r.unchanged)}}}'
            yield (f"\n{indent}  " if first else f",\n{indent}  ") + line
            first = False
        yield "]" if first else f"\n{indent}]"


_DERIVED = ("kind", "element", "description")  # a compact scenario's members its id gives


def render_report_json(report: ReportInput) -> str:
    """The JSON result, with the waivers that applied, expired or matched nothing."""
    return "".join(iter_report_json(report))


def iter_report_json(report: ReportInput) -> Iterator[str]:
    """:func:`render_report_json` piece by piece (what ``facility check`` writes)."""
    result = report.result
    with for_machines():
        data = _result_head(result)
    if len(report.site.layers) > 1:  # a layered site: every file it was read from
        data["site"]["layers"] = [
            {"file": layer.file, "sha256": layer.sha256} for layer in report.site.layers
        ]
    if report.inputs:  # every file that decided the verdict, each with its SHA-256
        data["inputs"] = [
            {
                "role": i.role,
                "file": i.file,
                "sha256": i.sha256,
                **({"bundled": True} if i.bundled else {}),
            }
            for i in report.inputs
        ]
    data["generated_at"] = report.generated_at.isoformat()
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
    full = report.presentation.json_detail == "full"
    data["detail"] = "full" if full else "compact"
    ordered = in_result_order(result)
    data["rules"] = _rules_json(ordered)
    by_finding = report.waivers.by_finding
    lines = _FindingLines()
    failures = None if report.failures is None else _failure_chunks(report.failures, lines, full)

    def findings() -> Iterator[str]:
        for f in ordered:
            finding_id = f.id  # made from three fields: once per finding
            waiver = by_finding.get(finding_id)
            yield lines.line(f, finding_id, None if waiver is None else waiver_json(waiver))

    if full:
        lines_out: Iterable[str] = findings()
    else:
        lines_out = lines.compact(ordered, by_finding, result.site_file)
    tail = () if full else lines.figures_chunks()
    yield from _chunks(data, lines_out, failures, _fixes_chunks(report), tail)


def _rules_json(findings: list[Finding]) -> dict[str, dict[str, str]]:
    """``rules``: each rule of the findings once, by code, with its name, title, area and
    severity (after the profile): what a compact finding leaves out."""
    out: dict[str, dict[str, str]] = {}
    for f in findings:
        if f.rule not in out:
            out[f.rule] = _rule_texts(f)
    return out


def _rule_texts(f: Finding) -> dict[str, str]:
    return {"name": f.name, "title": f.title, "area": f.area, "severity": f.severity}


def _fixes_chunks(report: ReportInput) -> Iterator[str]:
    """The ``fixes`` object: each failing finding's fixes, one finding per line, in the
    findings' order; null when the search was not run (``--no-fixes``)."""
    if report.fixes is None:
        yield ',\n  "fixes": null'
        return
    yield ',\n  "fixes": {'
    first = True
    for f in in_result_order(report.result):
        with for_machines():
            shown = fixes_json(report, f)
        if shown is None:
            continue
        yield ("\n    " if first else ",\n    ") + f"{json.dumps(f.id)}: {_line(shown)}"
        first = False
    yield "}" if first else "\n  }"


def fixes_json(report: ReportInput, f: Finding) -> dict[str, Any] | None:
    """One failing finding's entry of ``fixes`` (English and SI: inside ``for_machines``)."""
    shown = finding_fixes(report, f, lang="en")
    if shown is None:
        return None
    found = report.fixes.get().get(f.id) if report.fixes is not None else None
    verified = found.fixes if found is not None else []
    return {
        "fixes": [
            {
                "lever": fix.lever,
                "text": line.text,
                "changes": [
                    {
                        "kind": c.kind,
                        "id": c.id,
                        "field": c.field,
                        "before": _change_json(c.before, c.quantity),
                        "after": _change_json(c.after, c.quantity),
                    }
                    for c in fix.changes
                ],
                "working": {"observed": line.observed, "limit": line.limit},
            }
            for fix, line in zip(verified, shown.fixes, strict=True)
        ],
        "note": shown.note or None,
        "remediation": shown.remediation,
    }


def _change_json(value: float, kind: str) -> dict[str, Any] | None:
    """A changed input's value as ``{value, unit, text}``; a record's date as an ISO date
    (null: no record dated)."""
    if kind == "date":
        if value <= 0:
            return None
        day = dt.date.fromordinal(int(value)).isoformat()
        return {"value": day, "unit": "", "text": day}
    return quantity_json(value, kind)


class _FindingLines:
    """Each finding's line of the JSON result, as ``_line(finding_json(f) + waiver)`` writes it,
    made from parts: a campus's 100,000s of findings repeat a few hundred distinct rule texts
    and (observed, limit, margin, message, working) sets — identical racks, identical PDUs —
    which are encoded once and reused. English only (the JSON result's language)."""

    def __init__(self, *, by_identity: bool = False) -> None:
        """``by_identity``: a finding written more than once (one several losses moved
        alike) is encoded once: its compact entry is kept by the object (with the object, so
        an id Python reuses never matches)."""
        self.by_identity: dict[int, tuple[Finding, int, str | None, str]] | None = (
            {} if by_identity else None
        )
        self.rules: dict[tuple[str, ...], str] = {}
        self.middles: dict[tuple[Any, ...], str] = {}
        self.files: dict[str, str] = {}
        self.figures: dict[tuple[Any, ...], int] = {}  # a compact result's figures, by index
        self.figure_lines: list[str] = []

    def compact(
        self, ordered: Iterable[Finding], waivers: Mapping[str, Waiver], site_file: str
    ) -> Iterator[str]:
        """A compact result's finding lines (docs/json-result.md, *Compact*), in the order
        given. A failing or waived finding is a line of its own: its id, status, the index of
        its figures in ``figures`` (observed, limit, relation, margin, message, working,
        missing: shared by identical racks), its place in the site file (``file`` only when
        it is another file than ``site_file``, a base of a layered site) and, waived, its
        waiver. Passing and not-evaluated findings come as runs: one line for the consecutive
        findings of one rule and entity kind with the same status and figures, naming their
        entities."""
        run: tuple[str, str, str, int] | None = None
        entities: list[str] = []
        known = self.by_identity
        for f in ordered:
            found = None if known is None else known.get(id(f))
            if found is None or found[0] is not f:
                found = (f, *self._entry(f, waivers, site_file))
                if known is not None:
                    known[id(f)] = found  # f held here: its id is not reused while it is
            _, index, line, entity = found
            if line is not None:  # failing or waived: a line of its own
                if run is not None:
                    yield self._run(run, entities)
                    run, entities = None, []
                yield line
                continue
            key = (f.rule, f.entity_kind, f.status, index)
            if key != run:
                if run is not None:
                    yield self._run(run, entities)
                run, entities = key, []
            entities.append(entity)
        if run is not None:
            yield self._run(run, entities)

    def _entry(
        self, f: Finding, waivers: Mapping[str, Waiver], site_file: str
    ) -> tuple[int, str | None, str]:
        """``f``'s figures index, its line when it fails or is waived (else None), and its
        entity id as JSON (what a run names)."""
        index = self._figures_index(f)
        entity = _text(f.entity_id)
        if f.status not in ("fail", "waived"):
            return index, None, entity
        line = f'{{"id":{_text(f.id)},"status":{_string(f.status)},"figures":{index}'
        line += f',"source":{self._place(f, site_file)}'
        waiver = waivers.get(f.id) if f.status == "waived" else None
        if waiver is not None:
            line += f',"waiver":{_tight(waiver_json(waiver))}'
        return index, line + "}", entity

    def _figures_index(self, f: Finding) -> int:

        key: tuple[Any, ...] = (f.rule, f.status, f.kind, f.observed, f.limit)
        key += (f.margin, f.relation, f.missing)
        index = self.figures.get(key)
        if index is None:
            index = self.figures[key] = len(self.figure_lines)
            with for_machines():
                whole = finding_json(f)
            self.figure_lines.append(_tight({k: whole[k] for k in _MIDDLE_KEYS}))
        return index

    @staticmethod
    def _run(run: tuple[str, str, str, int], entities: list[str]) -> str:
        """A run's line; ``entities``: their ids, each already as JSON."""
        rule, kind, status, index = run
        named = ",".join(entities)
        return (
            f'{{"rule":{_string(rule)},"kind":{_string(kind)},"status":{_string(status)},'
            f'"figures":{index},"entities":[{named}]}}'
        )

    def _place(self, f: Finding, site_file: str) -> str:
        where = f.location
        if where is None:
            return "null"
        place = f'"line":{where.line},"column":{where.column}}}'
        if where.file == site_file:
            return "{" + place
        file = self.files.get(where.file)
        if file is None:
            file = self.files[where.file] = _text(where.file)
        return f'{{"file":{file},' + place

    def figures_chunks(self, indent: str = "  ") -> Iterator[str]:
        """``figures``, one per line, after the findings that refer to them."""
        yield f',\n{indent}"figures": ['
        yield ",".join(f"\n{indent}  {line}" for line in self.figure_lines)
        yield f"\n{indent}]" if self.figure_lines else "]"

    def _source(self, f: Finding) -> str:
        where = f.location
        if where is None:
            return "null"
        file = self.files.get(where.file)
        if file is None:
            file = self.files[where.file] = _text(where.file)
        return f'{{"file": {file}, "line": {where.line}, "column": {where.column}}}'

    def line(
        self, f: Finding, finding_id: str, waiver: dict[str, Any] | None, waiver_key: bool = True
    ) -> str:
        """The line; without ``waiver_key``, as ``_line(finding_json(f))`` (no waiver member:
        a scenario's findings in the ``failures`` section)."""
        rule_key = (f.rule, f.name, f.title, f.area, f.severity)
        rule = self.rules.get(rule_key)
        if rule is None:
            rule = self.rules[rule_key] = _members(dict(zip(_RULE_KEYS, rule_key, strict=True)))
        middle_key: tuple[Any, ...] = (f.rule, f.status, f.kind, f.observed, f.limit)
        middle_key += (f.margin, f.relation, f.missing)
        middle = self.middles.get(middle_key)
        if middle is None:
            with for_machines():
                whole = finding_json(f)
            middle = _members({key: whole[key] for key in _MIDDLE_KEYS})
            if len(self.middles) < 200_000:  # bounded: a site of all-different racks
                self.middles[middle_key] = middle
        source = self._source(f)
        # The cached parts went through _line (inert); the rest is made inert here.
        return (
            f'{{"id": {_text(finding_id)}, {rule}, "status": {_string(f.status)}, '
            f'"entity": {{"kind": {_string(f.entity_kind)}, "id": {_text(f.entity_id)}}}, '
            f'{middle}, "source": {source}'
            + (f', "waiver": {_waiver_text(waiver)}}}' if waiver_key else "}")
        )


_RULE_KEYS = ("rule", "name", "title", "area", "severity")
_MIDDLE_KEYS = ("observed", "limit", "relation", "margin", "message", "how", "missing")


def _waiver_text(waiver: dict[str, Any] | None) -> str:
    return "null" if waiver is None else _line(waiver)


def _text(value: str) -> str:
    """A string as JSON, inert (a printable id, the common case, needs no search: the
    characters json_inert escapes are all non-printable)."""
    encoded = _string(value)
    return encoded if value.isprintable() else json_inert(encoded)


def _members(part: dict[str, Any]) -> str:
    """``{"a": 1, "b": 2}`` -> ``"a": 1, "b": 2`` as ``_line`` writes them."""
    return _line(part)[1:-1]


def waiver_json(waiver: Waiver) -> dict[str, Any]:
    return {
        "rule": waiver.rule,
        "entity": waiver.entity,
        "reason": waiver.reason,
        "owner": waiver.owner,
        "expires": waiver.expires.isoformat(),
        "ticket": waiver.ticket,
    }


# --- the error result: the input could not be checked ---------------------------------------------


def error_entries(problems: Iterable[Any]) -> list[dict[str, Any]]:
    """``errors[]`` of an error result: one ``{file, line, column, field, message}`` per
    problem (a :class:`~facility.model.source.Problem`; a bare message, such as a --select
    pattern that matches no rule, has ``null`` for its place and field; a problem with a file
    as a whole, such as one not found, ``null`` for its line and column). English, as every
    message of the JSON result."""
    out: list[dict[str, Any]] = []
    for problem in problems:
        where = getattr(problem, "location", None)
        placed = where if where is not None and where.line > 0 else None  # 0: the whole file
        out.append(
            {
                "file": where.file if where is not None else None,
                "line": placed.line if placed is not None else None,
                "column": placed.column if placed is not None else None,
                "field": getattr(problem, "field", "") or None,
                "message": str(getattr(problem, "message", problem)),
            }
        )
    return out


def error_result_json(site_file: str, problems: Iterable[Any], generated_at: Any) -> dict[str, Any]:
    """The JSON result of a run whose input could not be checked (docs/json-result.md, *The
    error result*): the same schema, ``verdict`` ``"error"``, ``errors[]``, and no counts nor
    findings — a program that reads only those fails loudly instead of reading 'nothing
    failed'."""
    errors = error_entries(problems)
    return {
        "schema": SCHEMA,
        "tool": {"name": "facility", "version": __version__},
        "site": {"name": None, "file": site_file, "sha256": None},
        "verdict": "error",
        "summary": _error_summary(len(errors)),
        "errors": errors,
        "generated_at": generated_at.isoformat(),
    }


def _error_summary(count: int) -> str:
    noun = "problem" if count == 1 else "problems"
    return f"The input could not be checked: {count} {noun} (see errors); no check was run."


def render_error_json(site_file: str, problems: Iterable[Any], generated_at: Any) -> str:
    """:func:`error_result_json` as the text ``facility check -f json`` writes."""
    data = error_result_json(site_file, problems, generated_at)
    return json_inert(json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)) + "\n"
