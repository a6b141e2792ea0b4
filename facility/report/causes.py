"""Root causes: the failing findings grouped so that one cause is shown once.

A *group* is one rule failing with the same figures (observed, limit, margin) on a set of
entities: eight identical racks over their side capacity are one line, not eight. A *cause*
is a group together with every failing finding that follows from it.

What follows from what is declared by the rules, never guessed from their words:

- ``follows: [PWR-001]`` in a rule file: a failing finding of this rule follows from a
  failing finding of PWR-001 on the same entity, or on the entity it belongs to (a rack PDU
  belongs to its rack, :func:`_related`). PWR-003 (a PDU overloaded after its rack's other
  side is lost) on the PDUs of a rack that fails PWR-001 (one side cannot carry the rack) is
  the same shortfall seen per PDU: one cause.
- ``foresees: {cdu: [LIQ-003]}`` in a single-failure rule file: after the loss of an element
  of that kind (a scenario of :mod:`facility.analysis.failures`), a failure of LIQ-003 on the
  rule's own entity is what this rule already judges. A single failure (RED-001) whose loss
  makes LIQ-003 fail on loop TCS-A follows from LIQ-004 failing on TCS-A (the loop cannot
  deliver its flow with its largest CDU out): the loss is the case that rule reports.

A finding follows from at most one other (the first, in the order of the rule file's list
and of the loss's failures); the chain is followed to its root, so a RED-001 rack-side loss
that overloads PDUs (PWR-002, foreseen by PWR-003) ends at the rack's PWR-001. A finding whose
declared origin passes, is waived or was not evaluated is a cause of its own.

Causes are ordered by severity (the worst of their findings), then by how many findings they
hold (most first), then by rule code and entity. Computed once per report: the terminal, the
HTML cover and the Markdown cover show the same list (:func:`cause_label` words it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from facility.engine.findings import Finding
from facility.engine.rules import SEVERITY_ORDER, RuleSet
from facility.report.anchors import FindingLinks, finding_anchor, natural_key
from facility.report.entity_runs import compressed, judged_orders
from facility.report.fixes_view import finding_fixes, not_searched
from facility.report.i18n import _, ngettext
from facility.report.words import counted_kind_word, list_separator, severity_word

if TYPE_CHECKING:
    from facility.analysis.failures import FailureReport
    from facility.engine.findings import AuditResult
    from facility.model.site import Site
    from facility.report.context import ReportInput

Key = tuple[str, str, str]  # (rule, entity kind, entity id): a finding's id, as a tuple


def figures_key(f: Finding) -> tuple[Any, ...]:
    """What findings of one group share: rule, severity, kind of entity, status and figures.
    The terminal's lines and the causes group findings by this one key."""
    return (f.rule, f.severity, f.entity_kind, f.status, f.observed, f.limit, f.margin,
            f.relation, f.missing)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Group:
    """One rule failing with the same figures on ``findings`` (in natural entity order)."""

    findings: tuple[Finding, ...]

    @property
    def first(self) -> Finding:
        return self.findings[0]

    @property
    def rule(self) -> str:
        return self.first.rule

    @property
    def entity_ids(self) -> list[str]:
        return [f.entity_id for f in self.findings]


@dataclass(frozen=True, slots=True)
class Cause:
    """A root group and the groups of findings that follow from it (root first)."""

    groups: tuple[Group, ...]

    @property
    def root(self) -> Group:
        return self.groups[0]

    @property
    def findings(self) -> list[Finding]:
        return [f for g in self.groups for f in g.findings]

    @property
    def count(self) -> int:
        return sum(len(g.findings) for g in self.groups)

    @property
    def severity(self) -> str:
        return min((f.severity for f in self.findings), key=lambda s: SEVERITY_ORDER.get(s, 9))

    @property
    def rules(self) -> dict[str, int]:
        """Rule code → how many of the cause's findings are of it, root rule first."""
        counts = Counter(f.rule for f in self.findings)
        order = dict.fromkeys(g.rule for g in self.groups)
        return {rule: counts[rule] for rule in order}


def _related(site: Site | None, kind: str, entity: str) -> list[tuple[str, str]]:
    """The entity itself, then the one it belongs to: a rack PDU's rack. The only relation
    ``follows`` uses; a new one is added here, with a test."""
    out = [(kind, entity)]
    if site is not None and kind == "pdu" and entity in site.pdus:
        out.append(("rack", site.pdus[entity].rack))
    return out


class _Origins:
    """The failing finding each failing finding follows from, by the rules' declarations."""

    def __init__(
        self, failing: Sequence[Finding], ruleset: RuleSet, site: Site | None,
        failures: FailureReport | None,
    ) -> None:  # fmt: skip
        self.site = site
        self.by_key: dict[Key, Finding] = {(f.rule, f.entity_kind, f.entity_id): f for f in failing}
        specs = {r.code: r.spec for r in ruleset.rules}
        self.follows = {code: list(spec.follows) for code, spec in specs.items()}
        # (kind of element lost, rule that fails after it) → the rules that foresee it
        self.foreseen: dict[tuple[str, str], list[str]] = {}
        for code, spec in specs.items():
            for lost, rules in spec.foresees.items():
                for rule in rules:
                    self.foreseen.setdefault((lost, rule), []).append(code)
        self.scenarios = (
            {r.scenario.id: r for r in failures.results} if failures is not None else {}
        )

    def origin(self, f: Finding) -> Finding | None:
        for rule in self.follows.get(f.rule, ()):
            for kind, entity in _related(self.site, f.entity_kind, f.entity_id):
                found = self.by_key.get((rule, kind, entity))
                if found is not None and found is not f:
                    return found
        outcome = self.scenarios.get(f.entity_id) if f.entity_kind == "single_failure" else None
        if outcome is None:
            return None
        for after in sorted(outcome.new_failures, key=lambda g: g.id):
            for rule in self.foreseen.get((outcome.scenario.kind, after.rule), ()):
                found = self.by_key.get((rule, after.entity_kind, after.entity_id))
                if found is not None:
                    return found
        return None

    def root(self, f: Finding) -> Finding:
        """The end of ``f``'s chain of origins. Rules that declare each other (a user's rule
        files may) make a cycle: its first finding by id is the root, whichever finding the
        chain entered it by."""
        path, index = [f], {id(f): 0}
        while (up := self.origin(path[-1])) is not None:
            if id(up) in index:
                return min(path[index[id(up)] :], key=lambda g: g.id)
            index[id(up)] = len(path)
            path.append(up)
        return path[-1]


def root_causes(
    findings: Iterable[Finding],
    ruleset: RuleSet,
    *,
    site: Site | None = None,
    failures: FailureReport | None = None,
) -> list[Cause]:
    """The failing findings of ``findings`` as causes, in their order (module docstring)."""
    failing = [f for f in findings if f.status == "fail"]
    origins = _Origins(failing, ruleset, site, failures)
    roots = {id(f): origins.root(f) for f in failing}
    # the root groups: findings that are their own root, by figures
    root_groups: dict[tuple[Any, ...], list[Finding]] = {}
    for f in failing:
        if roots[id(f)] is f:
            root_groups.setdefault(figures_key(f), []).append(f)
    cause_of = {id(f): key for key, members in root_groups.items() for f in members}
    followers: dict[tuple[Any, ...], dict[tuple[Any, ...], list[Finding]]] = {}
    for f in failing:
        root = roots[id(f)]
        if root is not f:
            followers.setdefault(cause_of[id(root)], {}).setdefault(figures_key(f), []).append(f)
    causes = []
    for key, members in root_groups.items():
        rest = [_group(m) for m in followers.get(key, {}).values()]
        rest.sort(key=lambda g: (SEVERITY_ORDER.get(g.first.severity, 9), g.rule,
                                 natural_key(g.first.entity_id)))  # fmt: skip
        causes.append(Cause((_group(members), *rest)))
    causes.sort(
        key=lambda c: (
            SEVERITY_ORDER.get(c.severity, 9),
            -c.count,
            c.root.rule,
            natural_key(c.root.first.entity_id),
        )
    )
    return causes


def report_causes(result: AuditResult, ruleset: RuleSet, site: Site | None,
                  failures: FailureReport | None) -> list[Cause]:  # fmt: skip
    """:func:`root_causes` of a whole audit."""
    return root_causes(result.findings, ruleset, site=site, failures=failures)


def _group(members: list[Finding]) -> Group:
    return Group(tuple(sorted(members, key=lambda f: natural_key(f.entity_id))))


# Words: the one place a cause is put into words, for every format.


def where(group: Group, orders: Mapping[tuple[str, str], Sequence[str]]) -> str:
    """'A01 … A08 (8 racks)', or the one entity: the group's entities as runs of the order
    its rule judged them in (``orders``: :func:`~facility.report.entity_runs.judged_orders`)."""
    ids = group.entity_ids
    first = group.first
    if len(ids) == 1:
        return ids[0]
    runs = compressed(ids, orders[(first.rule, first.entity_kind)])
    count = _("(%(n)s %(kind)s)") % {
        "n": f"{len(ids):,}",
        "kind": counted_kind_word(first.entity_kind, len(ids)),
    }
    return f"{runs} {count}"


def cause_label(cause: Cause, title: str, orders: Mapping[tuple[str, str], Sequence[str]]) -> str:
    """'A01 … A08 (8 racks): One power side cannot carry the whole rack' (``title``: the
    root rule's title in the report's language)."""
    return _("%(where)s: %(title)s") % {"where": where(cause.root, orders), "title": title}


def cause_count(cause: Cause) -> str:
    """'88 failing checks: PWR-001 ×8, PWR-003 ×64, RED-001 ×16'."""
    n = cause.count
    rules = list_separator().join(
        _("%(rule)s ×%(n)s") % {"rule": rule, "n": f"{k:,}"} for rule, k in cause.rules.items()
    )
    return ngettext("%(n)s failing check: %(rules)s", "%(n)s failing checks: %(rules)s", n) % {
        "n": f"{n:,}",
        "rules": rules,
    }


def causes_heading(causes: Sequence[Cause]) -> str:
    """'6 causes'."""
    n = len(causes)
    return ngettext("%(n)s cause", "%(n)s causes", n) % {"n": f"{n:,}"}


# The view of the HTML and Markdown covers: the same list, already in words.


@dataclass(frozen=True, slots=True)
class CauseView:
    number: int
    severity: str  # error, warning, info: the CSS class
    severity_label: str
    label: str  # 'A01 … A08 (8 racks): One power side cannot carry the whole rack'
    count: str  # '88 failing checks: PWR-001 ×8, PWR-003 ×64, RED-001 ×16'
    anchor: str  # the root finding's place in the report
    fix: str = ""  # the first fix of the root finding, or why there is none


@dataclass(frozen=True, slots=True)
class CausesView:
    heading: str  # '6 causes'
    intro: str
    items: list[CauseView]
    fixes_note: str = ""  # 'fixes not computed: --fixes' when the search was not run


def _first_fix(report: ReportInput, root: Finding) -> str:
    if report.fixes is None:
        return ""  # said once for all the causes (CausesView.fixes_note)
    shown = finding_fixes(report, root)
    return shown.first if shown is not None else ""


def causes_view(report: ReportInput, links: FindingLinks | None = None) -> CausesView | None:
    """The causes of ``report`` for the covers (None: nothing fails), in the current language;
    ``links``: where a link to a root finding goes (its own anchor when none is given)."""
    result = report.result
    causes = report_causes(result, report.ruleset, report.site, report.failures)
    if not causes:
        return None
    titles = {rule.code: rule.spec.text(report.lang).title for rule in report.ruleset.rules}
    orders = judged_orders(result.findings)
    items = []
    for n, cause in enumerate(causes, 1):
        root = cause.root.first
        items.append(
            CauseView(
                number=n,
                severity=cause.severity,
                severity_label=severity_word(cause.severity),
                label=cause_label(cause, titles.get(root.rule, root.title), orders),
                count=cause_count(cause),
                anchor=(links or finding_anchor)(root.rule, root.entity_kind, root.entity_id),
                fix=_first_fix(report, root),
            )
        )
    intro = _(
        "A cause is one rule failing with the same figures on a set of entities; the failing "
        "checks that follow from it, as the rules declare (a rack PDU overloaded because its "
        "rack's side is short, a single failure that a redundancy check already reports), "
        "are counted with it."
    )
    note = not_searched() if report.fixes is None else ""
    return CausesView(causes_heading(causes), intro, items, note)
