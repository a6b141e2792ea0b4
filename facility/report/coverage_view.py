"""The verdict sentence, the account and the coverage in words: shared by every format.

The engine computes the account (:mod:`facility.engine.account`) and the coverage
(:mod:`facility.engine.coverage`); this module is the one place that says them, in the current
language (:mod:`facility.report.i18n`), for the terminal, the HTML and Markdown view model and
the message fields of SARIF and JUnit. The JSON result writes the same data as numbers.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from facility.engine.account import Account, Ledger
from facility.engine.coverage import Coverage, Gap
from facility.engine.findings import AuditResult
from facility.messages import localized
from facility.report.anchors import natural_key
from facility.report.i18n import _, ngettext, pgettext
from facility.report.quantities import format_quantity
from facility.report.words import area_word, counted_kind_word, list_separator

MAX_PARTS = 8  # destinations listed per account line; the rest are counted
MAX_GAP_RULES = 4  # rules named in the verdict sentence's list of what was not evaluated
MAX_REASONS = 2  # distinct reasons shown per rule there


# --- the verdict sentence ---------------------------------------------------------------------


def verdict_sentence(result: AuditResult) -> str:
    """What the verdict means for this site, naming what could not be evaluated; first,
    the profile's rules that --select / --ignore left out, when any were."""
    text = _verdict_sentence(result)
    left_out = selection_sentence(result)
    text = _then(left_out, text) if left_out else text
    against = baseline_sentence(result)
    return _then(text, against) if against else text


MAX_BASELINE_NAMED = 10  # new or worse findings the sentence names; the JSON lists them all


def baseline_sentence(result: AuditResult) -> str:
    """What --baseline made of the failing findings: new or worse ones named (they fail the
    run), known ones counted (they do not) — or '' without a baseline."""
    baseline = result.baseline
    if baseline is None:
        return ""
    known = ngettext(
        "%(n)s failing finding is known from it (baselined) and does not fail the run.",
        "%(n)s failing findings are known from it (baselined) and do not fail the run.",
        baseline.known,
    ) % {"n": f"{baseline.known:,}"}
    regressions = sorted(baseline.failing)
    if not regressions:
        head = _("Against the baseline %(file)s: no failing finding is new or worse.") % {
            "file": baseline.file
        }
    else:
        named = list_separator().join(regressions[:MAX_BASELINE_NAMED])
        if len(regressions) > MAX_BASELINE_NAMED:
            named = _("%(list)s and %(n)s more") % {
                "list": named,
                "n": f"{len(regressions) - MAX_BASELINE_NAMED:,}",
            }
        head = ngettext(
            "Against the baseline %(file)s: %(n)s failing finding is new or worse "
            "(%(new)s new, %(worse)s worse): %(list)s.",
            "Against the baseline %(file)s: %(n)s failing findings are new or worse "
            "(%(new)s new, %(worse)s worse): %(list)s.",
            len(regressions),
        ) % {
            "file": baseline.file,
            "n": f"{len(regressions):,}",
            "new": f"{len(baseline.new):,}",
            "worse": f"{len(baseline.worse):,}",
            "list": named,
        }
    return _then(head, known)


MAX_DESELECTED = 10  # rule codes the verdict sentence names; the JSON result lists them all


def selection_sentence(result: AuditResult) -> str:
    """'Verdict with 3 rules of profile supernode left out by --select/--ignore, not run:
    …' — or '' when the run kept every rule of its profile."""
    selection = result.selection
    if selection is None or not selection.deselected:
        return ""
    codes = list(selection.deselected)
    shown = list_separator().join(codes[:MAX_DESELECTED])
    if len(codes) > MAX_DESELECTED:
        shown = _("%(list)s and %(n)s more") % {
            "list": shown,
            "n": f"{len(codes) - MAX_DESELECTED:,}",
        }
    return ngettext(
        "Verdict with %(n)s rule of profile %(profile)s left out by --select/--ignore, "
        "not run: %(list)s.",
        "Verdict with %(n)s rules of profile %(profile)s left out by --select/--ignore, "
        "not run: %(list)s.",
        len(codes),
    ) % {"n": f"{len(codes):,}", "profile": result.profile, "list": shown}


def _verdict_sentence(result: AuditResult) -> str:
    coverage = result.coverage
    failing = {"error": 0, "warning": 0}
    for f in result.findings:
        if f.status == "fail" and f.severity in failing:
            failing[f.severity] += 1
    errors = coverage.gaps(("error",)) if coverage else []
    warnings = coverage.gaps(("warning",)) if coverage else []
    others = coverage.gaps(("info",)) if coverage else []
    key = result.verdict
    if key == "not-ready":
        text = _(
            "At least one check at error severity fails: the hall is not ready for the racks "
            "as described."
        )
        gaps = errors + warnings + others
        if gaps:
            text = _then(text, _("Also not evaluated: %(list)s.") % {"list": gap_list(gaps)})
        return text
    if key == "incomplete":
        text = ngettext(
            "No error-severity check fails, but %(n)s error-severity check could not be "
            "evaluated, so readiness is not shown: %(list)s.",
            "No error-severity check fails, but %(n)s error-severity checks could not be "
            "evaluated, so readiness is not shown: %(list)s.",
            _count(errors),
        ) % {"n": f"{_count(errors):,}", "list": gap_list(errors)}
        if warnings or failing["warning"]:
            text = _then(text, _warnings(failing["warning"], warnings))
        return text
    if key == "ready-with-warnings":
        return _then(
            _then(_("No error-severity check fails."), _warnings(failing["warning"], warnings)),
            _("Review them before signing."),
        )
    text = _("Every check passes or is waived: the hall is ready for the racks as described.")
    if others:
        text = _then(
            text, _("Info-level checks not evaluated: %(list)s.") % {"list": gap_list(others)}
        )
    return text


def _then(first: str, second: str) -> str:
    """Two sentences, spaced as the language spaces them."""
    return _("%(first)s %(second)s") % {"first": first, "second": second}


def _warnings(failing: int, gaps: list[Gap]) -> str:
    parts = []
    if failing:
        parts.append(
            ngettext("%(n)s warning fails", "%(n)s warnings fail", failing) % {"n": f"{failing:,}"}
        )
    if gaps:
        parts.append(
            ngettext(
                "%(n)s warning-severity check could not be evaluated: %(list)s",
                "%(n)s warning-severity checks could not be evaluated: %(list)s",
                _count(gaps),
            )
            % {"n": f"{_count(gaps):,}", "list": gap_list(gaps)}
        )
    return _("%(what)s.") % {"what": pgettext("list of reasons", "; ").join(parts)}


def _count(gaps: list[Gap]) -> int:
    return sum(g.entities for g in gaps)


def gap_list(gaps: list[Gap]) -> str:
    """'FLR-004 on 20 racks (rack type 'gb300-b3' has no max_payload; …), LIQ-014 on …'."""
    by_rule: dict[str, list[Gap]] = defaultdict(list)
    for gap in gaps:
        by_rule[gap.rule].append(gap)
    items = []
    for rule in sorted(by_rule)[:MAX_GAP_RULES]:
        members = by_rule[rule]
        counts: dict[str, int] = defaultdict(int)
        for gap in members:
            counts[gap.scope] += gap.entities
        where = list_separator().join(
            f"{n:,} {counted_kind_word(kind, n)}" for kind, n in sorted(counts.items())
        )
        reasons = list(dict.fromkeys(localized(g.reason) for g in members))
        semicolon = pgettext("list of reasons", "; ")
        shown = semicolon.join(reasons[:MAX_REASONS]) + (
            semicolon + "…" if len(reasons) > MAX_REASONS else ""
        )
        items.append(
            _("%(rule)s on %(where)s (%(reasons)s)")
            % {"rule": rule, "where": where, "reasons": shown}
        )
    rest = len(by_rule) - MAX_GAP_RULES
    if rest > 0:
        items.append(ngettext("%(n)s more rule", "%(n)s more rules", rest) % {"n": f"{rest:,}"})
    return list_separator().join(items)


# --- the account --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AccountLine:
    """One ledger in words: 'IT load at peak power' — '1,696.0 kW' = 'side A 848.0 kW + …'."""

    key: str  # power | heat | loop_heat | mass
    label: str
    total: str
    parts: str  # where it lands
    nowhere: str  # what lands on nothing (each also a failing finding), or ""
    note: str  # racks whose figure is unknown, or ""


def account_lines(account: Account | None) -> list[AccountLine]:
    if account is None:
        return []
    return [_line(ledger) for ledger in account.ledgers]


def _label(ledger: Ledger) -> str:
    basis = {"peak": _("peak"), "nominal": _("nominal")}.get(ledger.basis, ledger.basis)
    if ledger.name == "power":
        return _("IT load at %(basis)s power") % {"basis": basis}
    if ledger.name == "heat":
        return _("Heat at %(basis)s power") % {"basis": basis}
    if ledger.name == "loop_heat":
        return _("Heat in the TCS loops")
    return _("Installed mass")


_DESTINATIONS = {
    "power_side": lambda: _("on power sides"),
    "tcs_loop": lambda: _("to TCS loops"),
    "room": lambda: _("to room air"),
    "facility_water": lambda: _("to facility water"),
    "floor_zone": lambda: _("on floor zones"),
}


def _line(ledger: Ledger) -> AccountLine:
    kind = ledger.kind
    parts = []
    for destination, group in ledger.parts.items():
        listed = sorted(group.items(), key=lambda item: natural_key(item[0]))
        names = [
            (_("side %(side)s") % {"side": entity}) if destination == "power_side" else entity
            for entity, _value in listed
        ]
        shown = list_separator().join(
            f"{name} {format_quantity(value, kind)}"
            for name, (_entity, value) in zip(names[:MAX_PARTS], listed[:MAX_PARTS], strict=True)
        )
        if len(listed) > MAX_PARTS:
            shown += list_separator() + _("%(n)s more") % {"n": f"{len(listed) - MAX_PARTS:,}"}
        parts.append(
            _("%(total)s %(where)s (%(each)s)")
            % {
                "total": format_quantity(sum(group.values()), kind),
                "where": _DESTINATIONS[destination](),
                "each": shown,
            }
        )
    nowhere = ""
    if ledger.nowhere:
        lost: dict[str, list[str]] = defaultdict(list)
        for (destination, entity), _value in ledger.nowhere.items():
            lost[destination].append(entity)
        pieces = []
        for destination, ids in lost.items():
            amount = sum(v for (d, _e), v in ledger.nowhere.items() if d == destination)
            ids.sort(key=natural_key)
            named = ", ".join(ids[:MAX_PARTS]) + (", …" if len(ids) > MAX_PARTS else "")
            pieces.append(
                _NOWHERE[destination]() % {"amount": format_quantity(amount, kind), "ids": named}
            )
        nowhere = list_separator().join(pieces)
    note = ""
    if ledger.unknown:
        note = (
            ngettext(
                "%(n)s loop not counted: its heat is unknown",
                "%(n)s loops not counted: their heat is unknown",
                ledger.unknown,
            )
            if ledger.name == "loop_heat"
            else ngettext(
                "%(n)s rack not counted: its figure is unknown",
                "%(n)s racks not counted: their figure is unknown",
                ledger.unknown,
            )
        ) % {"n": f"{ledger.unknown:,}"}
    return AccountLine(
        ledger.name,
        _label(ledger),
        format_quantity(ledger.total, kind),
        " + ".join(parts) if parts else _("nothing"),
        nowhere,
        note,
    )


_NOWHERE = {
    "power_side": lambda: _("%(amount)s on no power side (%(ids)s)"),
    "tcs_loop": lambda: _("%(amount)s of liquid heat on no TCS loop (%(ids)s)"),
    "room": lambda: _("%(amount)s of air heat in no room (%(ids)s)"),
    "facility_water": lambda: _("%(amount)s reaching no facility water (CDUs %(ids)s)"),
    "floor_zone": lambda: _("%(amount)s in no floor zone (%(ids)s)"),
}


# --- coverage -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AreaCoverageLine:
    area: str
    label: str
    judged: str  # '20 racks: 20 judged; 2 TCS loops: 2 with a check not evaluated'
    not_modelled: list[str]


def coverage_lines(coverage: Coverage | None) -> list[AreaCoverageLine]:
    if coverage is None:
        return []
    out = []
    for area in coverage.areas:
        pieces = []
        for scope in area.scopes:
            if not scope.entities:
                continue
            states = []
            if scope.judged:
                states.append(_("%(n)s judged") % {"n": f"{scope.judged:,}"})
            if scope.gaps:
                states.append(_("%(n)s with a check not evaluated") % {"n": f"{scope.gaps:,}"})
            if scope.unchecked:
                states.append(_("%(n)s with no check that applies") % {"n": f"{scope.unchecked:,}"})
            pieces.append(
                _("%(n)s %(kind)s: %(states)s")
                % {
                    "n": f"{scope.entities:,}",
                    "kind": counted_kind_word(scope.scope, scope.entities),
                    "states": list_separator().join(states),
                }
            )
        out.append(
            AreaCoverageLine(
                area.area,
                area_word(area.area),
                "; ".join(pieces) if pieces else _("nothing to judge"),
                [localized(text) for text in area.not_modelled],
            )
        )
    return out


# --- scope and exclusions -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScopeArea:
    """An area the audit judged: 'Power' — '12 checks: 8 pass, 4 fail' — '20 racks: 20 judged'."""

    area: str
    label: str
    checks: str
    judged: str


@dataclass(frozen=True, slots=True)
class Exclusion:
    """What the audit does not judge, from the engine's coverage: its area and the statement."""

    area: str
    label: str
    text: str


@dataclass(frozen=True, slots=True)
class Scope:
    """The report's scope and exclusions: what was judged, what the model leaves out (both
    generated from the coverage), and the site file's own notes, marked as the user's."""

    in_scope: list[ScopeArea]
    excluded: list[Exclusion]
    user_notes: str  # site.notes as written, "" when the site has none
    design_intent: str  # site.design_intent as written, ""


def scope_view(result: AuditResult, notes: str | None, design_intent: str | None) -> Scope | None:
    """The scope section's content (None without a coverage, e.g. a result built by hand).

    An area is in scope when at least one of its checks ran; every statement of what is not
    modelled is an exclusion, and so is an area with nothing to judge and a rule of the
    profile that --select / --ignore left out."""
    lines = coverage_lines(result.coverage)
    if not lines:
        return None
    statuses: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for f in result.findings:
        statuses[f.area][f.status] += 1
    in_scope, excluded = [], []
    for line in lines:
        counts = statuses.get(line.area, {})
        total = sum(counts.values())
        if total:
            in_scope.append(ScopeArea(line.area, line.label, _checks(counts, total), line.judged))
        elif not line.not_modelled:  # else the statements say why
            excluded.append(
                Exclusion(line.area, line.label, _("no check of this area ran for this site"))
            )
        excluded += [Exclusion(line.area, line.label, text) for text in line.not_modelled]
    left_out = selection_sentence(result)
    if left_out:  # --select / --ignore: the profile's rules not run are out of scope too
        excluded.insert(0, Exclusion("selection", _("Rule selection"), left_out))
    return Scope(in_scope, excluded, (notes or "").strip(), (design_intent or "").strip())


_STATE_WORDS = {
    "pass": lambda n: ngettext("%(n)s passes", "%(n)s pass", n),
    "fail": lambda n: ngettext("%(n)s fails", "%(n)s fail", n),
    "waived": lambda n: ngettext("%(n)s waived", "%(n)s waived", n),
    "not_evaluated": lambda n: ngettext("%(n)s not evaluated", "%(n)s not evaluated", n),
}


def _checks(counts: dict[str, int], total: int) -> str:
    """'412 checks: 305 pass, 107 fail, 34 not evaluated'."""
    states = [
        _STATE_WORDS[state](counts[state]) % {"n": f"{counts[state]:,}"}
        for state in ("pass", "fail", "waived", "not_evaluated")
        if counts.get(state)
    ]
    return _("%(checks)s: %(states)s") % {
        "checks": ngettext("%(n)s check", "%(n)s checks", total) % {"n": f"{total:,}"},
        "states": list_separator().join(states),
    }
