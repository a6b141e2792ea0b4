"""The report's view model: what the HTML and Markdown templates show, already formatted.

Two stages (as Great Expectations' Data Docs): :func:`build_view` turns a
:class:`~facility.report.context.ReportInput` into plain dataclasses of strings (numbers only
where a chart draws them), and the Jinja2 templates only lay them out. The view is
JSON-serialisable (``dataclasses.asdict``) and deterministic: everything is sorted, element
ids derive from rule code and entity id, and the generation time is an input.

Every English word goes through :func:`facility.report.i18n._`, so a message catalog can
translate the report (issue 9).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from facility import __version__
from facility.engine.findings import AuditResult, Finding
from facility.engine.quantities import Value
from facility.engine.rules import SEVERITY_ORDER, Rule, RuleText
from facility.messages import Message, localized_all
from facility.model.document_control import DocumentControl
from facility.model.site import Site
from facility.model.source import Location
from facility.model.waivers import Waiver
from facility.report.anchors import FindingLinks, finding_anchor, natural_key, rule_anchor, slug
from facility.report.causes import CausesView, causes_view
from facility.report.context import ReportInput
from facility.report.coverage_view import (
    AccountLine,
    AreaCoverageLine,
    Scope,
    account_lines,
    coverage_lines,
    scope_view,
    verdict_sentence,
)
from facility.report.equipment import Equipment, assumption_count, equipment_figures
from facility.report.equipment import coolant_text as _coolant
from facility.report.failures_view import FailureSection, failure_section
from facility.report.findings_view import margin_text, rule_title
from facility.report.findings_view import text_cached as text_of
from facility.report.findings_view import working as _working
from facility.report.fixes_view import FixesView, finding_fixes
from facility.report.floor_plan import FloorPlan, floor_plan
from facility.report.i18n import _, ngettext, translations
from facility.report.power_account_view import power_account_lines
from facility.report.quantities import DISPLAY, current_units, format_quantity
from facility.report.utilisation import UtilisationChart, utilisation_charts
from facility.report.words import (
    AREAS,
    area_word,
    counted_kind_word,
    list_separator,
    severity_word,
    status_word,
    verdict_word,
)
from facility.report.worst_failure import WorstFailure, worst_single_failure

_AREA_ORDER = {area: i for i, area in enumerate(AREAS)}
# A campus repeats the same few figures and workings tens of thousands of times: format each once
# (workings in each language and display units: the key holds both).


@cache
def _working_in(value: Value | None, kind: str, _language: object, _units: str) -> str:
    return _working(value, kind)


def working(value: Value | None, kind: str) -> str:
    return _working_in(value, kind, translations(), current_units())


MAX_LISTED = 50  # entity ids listed per passed or not-evaluated rule; the rest are counted
# Entities an HTML card of failing or waived findings lists; the rest are counted (the Markdown
# lists every one): a campus's card of one rule and figures can hold 40,000 PDUs.
MAX_CARD_ENTITIES = 100
MAX_LOOPS = 40  # loops in the key figures' heat table


@dataclass(frozen=True, slots=True)
class Item:
    """A labelled value: 'Input file' — 'examples/hall-b3.yaml'."""

    label: str
    value: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Header:
    site_name: str
    site_location: str
    site_notes: str
    input_file: str
    input_sha256: str
    tool: str
    profile: str
    profile_description: str
    rules_version: str
    generated_at: str
    conventions: list[Item]
    document: DocumentView | None = None  # site.document: document control


@dataclass(frozen=True, slots=True)
class RevisionRow:
    revision: str
    date: str
    description: str
    by: str


@dataclass(frozen=True, slots=True)
class DocumentView:
    """Document control, as the cover, the sign-off and each printed page show it."""

    number: str
    revision: str
    status: str  # the status word in the report's language
    facts: list[Item]  # number, revision, status, organisation, prepared/checked/approved by
    revisions: list[RevisionRow]
    running: str  # the running header of each printed page: number, revision, status


@dataclass(frozen=True, slots=True)
class InputRow:
    """A file that decided the verdict: its role, name and SHA-256."""

    role: str
    file: str
    sha256: str


@dataclass(frozen=True, slots=True)
class Count:
    key: str
    label: str
    value: int


@dataclass(frozen=True, slots=True)
class AreaCount:
    key: str
    label: str
    errors: int
    warnings: int
    info: int
    not_evaluated: int
    waived: int
    passed: int
    total: int


@dataclass(frozen=True, slots=True)
class RuleSummary:
    """A failing rule in the verdict: 'PWR-003 … — 64 rack PDUs'."""

    rule: str
    title: str
    severity: str
    severity_label: str
    entities: str
    anchor: str


@dataclass(frozen=True, slots=True)
class Verdict:
    key: str  # ready | ready-with-warnings | not-ready
    word: str
    explanation: str
    statuses: list[Count]
    severities: list[Count]  # failing checks by severity
    areas: list[AreaCount]
    failing_rules: list[RuleSummary]
    total: int


@dataclass(frozen=True, slots=True)
class LoopHeat:
    loop: str
    coolant: str
    cdus: str
    racks: int
    liquid_heat: str
    note: str


@dataclass(frozen=True, slots=True)
class KeyFigures:
    headline: list[Item]
    notes: list[str]
    account: list[AccountLine]  # where the racks' load, heat and mass land
    loops: list[LoopHeat]  # at most MAX_LOOPS: those with the most liquid heat, by name
    loops_note: str
    charts: list[UtilisationChart]
    worst_failure: WorstFailure | None = None  # the analysis's most harmful single failure
    # The hall's power account: IT, cooling, losses; critical / facility; sources; pPUE.
    power_account: list[AccountLine] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class EntityRef:
    id: str
    anchor: str


@dataclass(frozen=True, slots=True)
class Place:
    """Entities of a card written at the same place of the input."""

    where: str
    entities: list[EntityRef]


@dataclass(frozen=True, slots=True)
class WaiverView:
    rule: str
    entity: str
    reason: str
    owner: str
    expires: str
    ticket: str
    where: str
    state: str  # applied | expired | stale
    state_label: str
    findings: list[str]


@dataclass(frozen=True, slots=True)
class FindingCard:
    """One rule's identical findings (same status, numbers and working) on one or more entities."""

    anchor: str
    rule: str
    name: str
    title: str
    area: str
    area_label: str
    severity: str
    severity_label: str
    status: str
    status_label: str
    entity_kind: str
    entity_kind_label: str
    count: int
    places: list[Place]
    requirement: str
    relation: str
    observed: str
    limit: str
    margin: str
    how_observed: str
    how_limit: str
    why: str
    known_problems: str
    references: list[str]
    parameters: list[Item]
    single_failure: bool
    waiver: WaiverView | None
    expired_waivers: list[WaiverView]
    fix: FixesView | None = None  # a failing card's fixes (facility.report.fixes_view)
    more: str = ""  # "and 41,084 more racks…": the entities past the card's list, counted


@dataclass(frozen=True, slots=True)
class AreaFindings:
    key: str
    label: str
    anchor: str
    summary: str
    cards: list[FindingCard]


@dataclass(frozen=True, slots=True)
class RuleEntities:
    """A rule's not-evaluated or passed entities, listed up to MAX_LISTED."""

    anchor: str
    rule: str
    title: str
    area_label: str
    severity: str
    severity_label: str
    count: int
    entity_kind_label: str
    entities: list[str]
    more: str  # "and 9,950 more", or ""
    detail: str  # the missing input, or the smallest margin of the passed checks


@dataclass(frozen=True, slots=True)
class SignOff:
    roles: list[str]
    verdict: str
    site_name: str
    input_file: str
    input_sha256: str
    rules_version: str
    tool: str
    # A layered site (extends:): every file in the order applied, each with its SHA-256.
    layers: list[Item] = field(default_factory=list)
    # Every other file that decided the verdict: waiver and configuration files, profiles
    # and rule files, each with its SHA-256.
    inputs: list[InputRow] = field(default_factory=list)
    signers: list[Item] = field(default_factory=list)  # discipline → name (role)


@dataclass(frozen=True, slots=True)
class ReportView:
    lang: str
    title: str
    header: Header
    verdict: Verdict
    key_figures: KeyFigures
    floor_plan: FloorPlan | None
    areas: list[AreaFindings]
    failures: FailureSection | None  # only when the audit ran the single-failure analysis
    not_evaluated: list[RuleEntities]
    coverage: list[AreaCoverageLine]
    scope: Scope | None  # scope and exclusions, from the coverage, beside the site's notes
    waived: list[FindingCard]
    waivers: list[WaiverView]  # expired and stale waivers
    passed: list[RuleEntities]
    assumptions: list[Item]
    equipment: list[Equipment]
    equipment_note: str
    signoff: SignOff
    paper: str = "A4"  # the printed page, as CSS @page names it: "A4" or "letter"
    causes: CausesView | None = None  # the root causes on the cover (None: nothing fails)


def build_view(
    report: ReportInput, card_entities: int | None = None, table_rows: int | None = None
) -> ReportView:
    """The view model of ``report``: every string formatted, every list in a stable order.
    ``card_entities``: how many entities a card lists at most (the HTML report's
    MAX_CARD_ENTITIES; None: every one), each link to an entity not listed made to its card.
    ``table_rows``: how many rows the floor plan's table lists at most (the HTML report's
    MAX_TABLE_ROWS; None: every one)."""
    result, site, ruleset = report.result, report.site, report.ruleset
    rules = {rule.code: rule for rule in ruleset.rules}
    texts = {rule.code: rule.spec.text(report.lang) for rule in ruleset.rules}
    findings = result.findings  # each section sorts what it shows
    tool = f"facility {__version__}"
    conventions = _conventions(report)
    equipment = equipment_figures(site)
    header = Header(
        site_name=site.info.name,
        site_location=site.info.location or "",
        site_notes=(site.info.notes or "").strip(),
        input_file=site.file,
        input_sha256=site.sha256,
        tool=tool,
        profile=ruleset.profile,
        profile_description=_profile_description(ruleset.profile_description),
        rules_version=ruleset.version,
        generated_at=report.generated_at.isoformat(),
        conventions=conventions,
        document=_document(site.info.document),
    )
    waivers = []
    for record in report.waivers.records:
        rule = ruleset.by_code(record.waiver.rule)  # a waiver may name a rule by its name
        code = rule.code if rule is not None else record.waiver.rule
        waivers.append(_waiver(record.waiver, code, record.location, record.state, record.findings))
    applied = {fid: w for w in waivers if w.state == "applied" for fid in w.findings}
    expired: dict[str, list[WaiverView]] = {}
    for w in waivers:
        if w.state == "expired":
            for fid in w.findings:
                expired.setdefault(fid, []).append(w)
    failing = sorted((f for f in findings if f.status == "fail"), key=_finding_order)
    links = FindingLinks()
    listing = _Listing(card_entities, links)
    cards = _cards(
        failing, rules, texts, applied, expired, listing, lambda f: finding_fixes(report, f)
    )
    waived = _cards(
        sorted((f for f in findings if f.status == "waived"), key=_finding_order),
        rules,
        texts,
        applied,
        expired,
        listing,
    )
    areas = []
    for area in AREAS:
        area_cards = [c for c in cards if c.area == area]
        if area_cards:
            areas.append(_area(area, area_cards, failing))
    return ReportView(
        lang=report.lang,
        title=_("Readiness report: %(site)s") % {"site": site.info.name},
        header=header,
        verdict=_verdict(result, cards),
        key_figures=_key_figures(report, findings, links),
        floor_plan=floor_plan(site, findings, links, table_rows),
        areas=areas,
        failures=failure_section(report),
        not_evaluated=_not_evaluated(findings, texts, site),
        coverage=coverage_lines(result.coverage),
        scope=scope_view(result, site.info.notes, site.info.design_intent),
        waived=waived,
        waivers=sorted(
            (w for w in waivers if w.state != "applied"),
            key=lambda w: (w.state, w.rule, natural_key(w.entity), w.where),
        ),
        passed=_passed(findings, texts),
        assumptions=conventions,
        equipment=equipment,
        equipment_note=assumption_count(equipment),
        signoff=SignOff(
            roles=_roles(site.info.document),
            verdict=verdict_word(result.verdict),
            site_name=site.info.name,
            input_file=site.file,
            input_sha256=site.sha256,
            rules_version=ruleset.version,
            tool=tool,
            layers=[Item(layer.file, layer.sha256) for layer in site.layers]
            if len(site.layers) > 1
            else [],
            inputs=[
                InputRow(_input_role(i.role, i.bundled), i.file, i.sha256)
                for i in report.inputs
                if i.role != "site"
            ],
            signers=_signers(site.info.document),
        ),
        paper=PAPER_SIZES[report.presentation.paper],
        causes=causes_view(report, links),
    )


PAPER_SIZES = {"a4": "A4", "letter": "letter"}  # --paper -> CSS @page size


_STATUS = {
    "draft": lambda: _("Draft"),
    "for-review": lambda: _("For review"),
    "issued": lambda: _("Issued"),
}
_DISCIPLINE = {
    "electrical": lambda: _("Electrical"),
    "mechanical": lambda: _("Mechanical"),
    "structural": lambda: _("Structural"),
    "civil": lambda: _("Civil"),
    "controls": lambda: _("Controls"),
    "general": lambda: _("General"),
}


def _document(doc: DocumentControl | None) -> DocumentView | None:
    if doc is None:
        return None
    status = _STATUS[doc.status]()
    facts = [
        Item(_("Document number"), doc.number),
        Item(_("Revision"), doc.revision),
        Item(_("Status"), status),
    ]
    for label, value in (
        (_("Organisation"), doc.organisation),
        (_("Prepared by"), doc.prepared_by),
        (_("Checked by"), doc.checked_by),
        (_("Approved by"), doc.approved_by),
    ):
        if value:
            facts.append(Item(label, value))
    rows = [
        RevisionRow(r.revision, r.date.isoformat(), r.description, r.by or "")
        for r in doc.revisions
    ]
    running = _("%(number)s, revision %(revision)s, %(status)s") % {
        "number": doc.number,
        "revision": doc.revision,
        "status": status,
    }
    return DocumentView(doc.number, doc.revision, status, facts, rows, running)


def _roles(doc: DocumentControl | None) -> list[str]:
    """The sign-off's roles, each with its name when the document control gives one."""
    roles = [
        (_("Prepared by"), doc.prepared_by if doc else None),
        (_("Reviewed by"), doc.checked_by if doc else None),
        (_("Approved by"), doc.approved_by if doc else None),
    ]
    return [f"{label}: {name}" if name else label for label, name in roles]


def _signers(doc: DocumentControl | None) -> list[Item]:
    if doc is None:
        return []
    out = []
    for signer in doc.signers:
        name = signer.name + (f" ({signer.role})" if signer.role else "")
        if signer.organisation:
            name += f", {signer.organisation}"
        out.append(Item(_DISCIPLINE[signer.discipline](), name))
    return out


def _input_role(role: str, bundled: bool) -> str:
    words = {
        "waivers": _("Waiver file"),
        "config": _("Configuration file"),
        "profile": _("Rule profile"),
        "rule": _("Rule file"),
        "baseline": _("Baseline"),
    }
    word = words.get(role, role)
    return _("%(role)s (bundled)") % {"role": word} if bundled else word


def _profile_description(description: str) -> str:
    """A profile's description; the bundled profiles' in the report's language (the message
    catalog holds them: see ``extract_profiles`` in :mod:`facility.report.i18n`)."""
    text = " ".join(description.split())
    return _(text) if text else ""


def _finding_order(f: Finding) -> tuple[object, ...]:
    return (
        SEVERITY_ORDER.get(f.severity, 9),
        f.rule,
        f.entity_kind,
        natural_key(f.entity_id),
        f.entity_id,
    )


def _conventions(report: ReportInput) -> list[Item]:
    basis = {"peak": _("peak"), "nominal": _("nominal")}
    assumptions = report.ruleset.assumptions
    electrical = assumptions.electrical_power_basis
    thermal = assumptions.thermal_power_basis
    derating = format_quantity(report.site.conventions.continuous_load_derating, "fraction")
    return [
        Item(_("Electrical checks"),
             _("at each rack's %(basis)s power") % {"basis": basis.get(electrical, electrical)}),
        Item(_("Heat and flow checks"),
             _("at each rack's %(basis)s power") % {"basis": basis.get(thermal, thermal)}),
        Item(_("Continuous-load derating"),
             _("breakers carry %(derating)s of their rating continuously, unless an element "
               "sets its own (NEC 210.20(A))") % {"derating": derating}),
        Item(_("Three-phase power"),
             _("voltages are line-to-line; S = √3 · V_LL · I; rack loads in kVA are kW divided "
               "by the power factor")),
        Item(_("Coolant properties"),
             _("of the real fluid (water or glycol mixture) at the mean loop temperature")),
        Item(_("Redundancy"),
             _("judged after the failure: one power side carries the whole rack; a loop carries "
               "its heat and flow with its largest CDU out")),
    ]  # fmt: skip


def _verdict(result: AuditResult, cards: list[FindingCard]) -> Verdict:
    key, findings = result.verdict, result.findings
    explanation = verdict_sentence(result)
    statuses = Counter(f.status for f in findings)
    failing = Counter(f.severity for f in findings if f.status == "fail")
    areas = []
    for area in AREAS:
        inside = [f for f in findings if f.area == area]
        if not inside:
            continue
        fails = Counter(f.severity for f in inside if f.status == "fail")
        counts = Counter(f.status for f in inside)
        areas.append(
            AreaCount(area, area_word(area), fails["error"], fails["warning"], fails["info"],
                      counts["not_evaluated"], counts["waived"], counts["pass"], len(inside))
        )  # fmt: skip
    summaries: dict[str, list[FindingCard]] = {}
    for card in sorted(cards, key=lambda c: (SEVERITY_ORDER.get(c.severity, 9),
                                             _AREA_ORDER.get(c.area, 9), c.rule)):  # fmt: skip
        summaries.setdefault(card.rule, []).append(card)
    failing_rules = []
    for rule_cards in summaries.values():
        first = rule_cards[0]
        n = sum(c.count for c in rule_cards)
        failing_rules.append(
            RuleSummary(first.rule, first.title, first.severity, first.severity_label,
                        f"{n:,} {counted_kind_word(first.entity_kind, n)}", first.anchor)
        )  # fmt: skip
    return Verdict(
        key=key,
        word=verdict_word(key),
        explanation=explanation,
        statuses=[
            Count("fail", _("Failing"), statuses["fail"]),
            Count("waived", _("Waived"), statuses["waived"]),
            Count("not_evaluated", _("Not evaluated"), statuses["not_evaluated"]),
            Count("pass", _("Passed"), statuses["pass"]),
        ],
        severities=[
            Count("error", _("Failing errors"), failing["error"]),
            Count("warning", _("Failing warnings"), failing["warning"]),
            Count("info", _("Failing notes"), failing["info"]),
        ],
        areas=areas,
        failing_rules=failing_rules,
        total=len(findings),
    )


def _key_figures(report: ReportInput, findings: list[Finding], links: FindingLinks) -> KeyFigures:
    site, account = report.site, report.result.account
    types = Counter(rack.type.id for rack in site.racks)
    mix = ", ".join(
        f"{n:,} × {t}" for t, n in sorted(types.items(), key=lambda i: natural_key(i[0]))
    )
    lines = account_lines(account)
    headline = [Item(_("Racks"), f"{len(site.racks):,}", mix)]
    notes = []
    if account is not None:
        heat = account.heat
        liquid = sum(heat.parts.get("tcs_loop", {}).values())
        air = sum(heat.parts.get("room", {}).values())
        basis = {"peak": _("peak"), "nominal": _("nominal")}
        headline += [
            Item(lines[0].label, lines[0].total, _("sum of the racks at the electrical basis")),
            Item(lines[1].label, lines[1].total, _("sum of the racks at the thermal basis")),
            Item(_("Heat to liquid"), format_quantity(liquid, "power"),
                 _("at %(basis)s power, all loops") % {
                     "basis": basis.get(heat.basis, heat.basis)}),
            Item(_("Residual heat to room air"), format_quantity(air, "power"),
                 _("the liquid racks' air share plus air-cooled racks")),
        ]  # fmt: skip
        notes = [line.note for line in lines if line.note]
    racks_on = Counter(rack.loop for rack in site.racks)
    loop_heat = account.heat.parts.get("tcs_loop", {}) if account is not None else {}
    partial = account.heat.partial if account is not None else set()
    shown = sorted(site.loops, key=natural_key)
    loops_note = ""
    if len(shown) > MAX_LOOPS:
        top = sorted(shown, key=lambda lp: (-loop_heat.get(lp, 0.0), natural_key(lp)))
        keep = set(top[:MAX_LOOPS])
        shown = [lp for lp in shown if lp in keep]
        loops_note = _(
            "The %(shown)s loops with the most liquid heat are listed, of %(total)s; together "
            "the loops take %(heat)s."
        ) % {
            "shown": f"{MAX_LOOPS:,}",
            "total": f"{len(site.loops):,}",
            "heat": format_quantity(sum(loop_heat.values()), "power"),
        }
    loops = []
    for loop_id in shown:
        spec = site.loops[loop_id]
        loops.append(
            LoopHeat(
                loop=loop_id,
                coolant=_coolant(spec.coolant),
                cdus=", ".join(spec.cdus),
                racks=racks_on.get(loop_id, 0),
                liquid_heat=format_quantity(loop_heat.get(loop_id, 0.0), "power"),
                note=_("incomplete: some racks lack power or liquid fraction")
                if loop_id in partial
                else "",
            )
        )
    return KeyFigures(
        headline,
        notes,
        lines,
        loops,
        loops_note,
        utilisation_charts(findings, site, links),
        worst_single_failure(report.failures),
        power_account_lines(report.result.power_account),
    )


def _where(f: Finding) -> str:
    return f"{f.location.file}:{f.location.line}" if f.location else _("not located")


def _waiver(
    waiver: Waiver, code: str, location: Location, state: str, findings: Iterable[str]
) -> WaiverView:
    states = {"applied": _("applied"), "expired": _("expired"), "stale": _("stale")}
    return WaiverView(
        rule=code,
        entity=waiver.entity,
        reason=" ".join(waiver.reason.split()),
        owner=waiver.owner,
        expires=waiver.expires.isoformat(),
        ticket=waiver.ticket or "",
        where=f"{location.file}:{location.line}",
        state=state,
        state_label=states[state],
        findings=sorted(findings, key=natural_key),
    )


def _waiver_key(waiver: WaiverView | None) -> tuple[str, ...]:
    return () if waiver is None else (waiver.rule, waiver.entity, waiver.where)


def _margin(f: Finding) -> str:
    return margin_text(f) or "—"


def _parameters(rule: Rule | None) -> list[Item]:
    if rule is None:
        return []
    shown = []
    for p in sorted(rule.parameters.values(), key=lambda p: p.name):
        quantity = p.kind in DISPLAY and (p.kind != "fraction" or "%" in p.text)
        shown.append(Item(p.name, format_quantity(p.value, p.kind) if quantity else p.text))
    return shown


def _title(f: Finding, texts: dict[str, RuleText]) -> str:
    """The rule's title in the report's language (the finding's own for an unknown rule)."""
    text = texts.get(f.rule)
    return text.title if text is not None else f.title


@dataclass(frozen=True, slots=True)
class _Listing:
    """How many entities a card lists (None: all), and where links to the others go."""

    limit: int | None
    links: FindingLinks


def _cards(
    findings: list[Finding],
    rules: dict[str, Rule],
    texts: dict[str, RuleText],
    applied: dict[str, WaiverView],
    expired: dict[str, list[WaiverView]],
    listing: _Listing,
    fix_of: Callable[[Finding], FixesView | None] | None = None,
) -> list[FindingCard]:
    """Findings grouped into cards: same rule, status, numbers, working and waiver."""
    groups: dict[tuple[object, ...], list[Finding]] = {}
    for f in findings:
        observed = f.observed.value if f.observed else None
        limit = f.limit.value if f.limit else None
        key = (
            f.rule, f.status, f.entity_kind, text_of(observed, f.kind), text_of(limit, f.kind),
            _margin(f), working(f.observed, f.kind), working(f.limit, f.kind),
            _waiver_key(applied.get(f.id)), *(_waiver_key(w) for w in expired.get(f.id, ())),
        )  # fmt: skip
        groups.setdefault(key, []).append(f)
    cards = []
    for members in groups.values():
        code = members[0].rule
        card = _card(members, rules.get(code), texts.get(code), applied, expired, listing)
        if fix_of is not None:  # identical figures: the first member's fixes are the card's
            card = dataclasses.replace(card, fix=fix_of(members[0]))
        cards.append(card)
    cards.sort(key=lambda c: (_AREA_ORDER.get(c.area, 9), SEVERITY_ORDER.get(c.severity, 9), c.rule,
                              natural_key(c.anchor)))  # fmt: skip
    return cards


def _card(
    members: list[Finding],
    rule: Rule | None,
    text: RuleText | None,
    applied: dict[str, WaiverView],
    expired: dict[str, list[WaiverView]],
    listing: _Listing,
) -> FindingCard:
    f = members[0]
    anchor = f"card-{slug(f.rule)}--{slug(f.entity_kind)}--{slug(f.entity_id)}"
    n = len(members)
    shown = n if listing.limit is None else min(n, listing.limit)
    places: dict[str, list[EntityRef]] = {}
    for m in members[:shown]:
        ref = EntityRef(m.entity_id, finding_anchor(m.rule, m.entity_kind, m.entity_id))
        places.setdefault(_where(m), []).append(ref)
    for m in members[shown:]:  # counted, not listed: links to them land on the card
        listing.links.unlisted(finding_anchor(m.rule, m.entity_kind, m.entity_id), anchor)
    more = ""
    if shown < n:
        more = _("and %(n)s more %(kind)s; the Markdown and JSON results list every one") % {
            "n": f"{n - shown:,}",
            "kind": counted_kind_word(f.entity_kind, n - shown),
        }
    spec = rule.spec if rule is not None else None
    return FindingCard(
        anchor=anchor,
        rule=f.rule,
        name=f.name,
        title=text.title if text is not None else f.title,
        area=f.area,
        area_label=area_word(f.area),
        severity=f.severity,
        severity_label=severity_word(f.severity),
        status=f.status,
        status_label=status_word(f.status),
        entity_kind=f.entity_kind,
        entity_kind_label=counted_kind_word(f.entity_kind, n),
        count=n,
        places=[Place(where, refs) for where, refs in places.items()],
        requirement=" ".join(text.requirement.split()) if text else "",
        relation=f.relation,
        observed=text_of(f.observed.value if f.observed else None, f.kind),
        limit=text_of(f.limit.value if f.limit else None, f.kind),
        margin=_margin(f),
        how_observed=working(f.observed, f.kind),
        how_limit=working(f.limit, f.kind),
        why=" ".join(text.why.split()) if text else "",
        known_problems=" ".join(text.known_problems.split()) if text else "",
        references=list(spec.references) if spec else [],
        parameters=_parameters(rule),
        single_failure=bool(spec and "single-failure" in spec.tags),
        waiver=applied.get(f.id),
        expired_waivers=list(expired.get(f.id, ())),
        more=more,
    )


def _area(area: str, cards: list[FindingCard], failing: list[Finding]) -> AreaFindings:
    counts = Counter(f.severity for f in failing if f.area == area)
    parts = []
    if counts["error"]:
        parts.append(ngettext("%(n)s failing error", "%(n)s failing errors", counts["error"])
                     % {"n": f"{counts['error']:,}"})  # fmt: skip
    if counts["warning"]:
        parts.append(ngettext("%(n)s failing warning", "%(n)s failing warnings",
                              counts["warning"]) % {"n": f"{counts['warning']:,}"})  # fmt: skip
    if counts["info"]:
        parts.append(ngettext("%(n)s failing note", "%(n)s failing notes", counts["info"])
                     % {"n": f"{counts['info']:,}"})  # fmt: skip
    summary = list_separator().join(parts)
    return AreaFindings(area, area_word(area), f"findings-{area}", summary, cards)


def _listed(ids: list[str]) -> tuple[list[str], str]:
    ordered = sorted(ids, key=natural_key)
    extra = len(ordered) - MAX_LISTED
    more = _("and %(n)s more") % {"n": f"{extra:,}"} if extra > 0 else ""
    return ordered[:MAX_LISTED], more


def _not_evaluated(
    findings: list[Finding], texts: dict[str, RuleText], site: Site
) -> list[RuleEntities]:
    """A row per rule, entity kind and reason. A reason that names an entity of the site
    (``CDU 'CDU-H001-R01-1' has no available_head``) makes a row per entity it names; past
    MAX_LISTED such rows of one rule and reason they are one, the entity written '…' (``CDU
    '…' has no available_head``: a campus lacking a figure on 1,734 CDUs has one row, not
    1,734). Types (rack, PDU) stay named: they are the input to supply."""
    named = {entity for kind, entity in site.locations if not kind.endswith("_type")}
    shapes: dict[tuple[Any, ...], dict[tuple[str, ...], list[Finding]]] = {}
    for f in findings:
        if f.status == "not_evaluated":
            shape = tuple(_reason_shape(m, named) for m in f.missing)
            by_text = shapes.setdefault((f.rule, f.entity_kind, shape), {})
            by_text.setdefault(f.missing, []).append(f)
    rows = []
    for by_text in shapes.values():
        if len(by_text) > MAX_LISTED:
            members = [m for group in by_text.values() for m in group]
            rows.append(_not_evaluated_row(members, texts, _unnamed(members[0].missing, named)))
            continue
        for group in by_text.values():
            rows.append(_not_evaluated_row(group, texts, group[0].missing))
    rows.sort(key=lambda r: (SEVERITY_ORDER.get(r.severity, 9), r.rule, r.detail, r.anchor))
    return rows


def _not_evaluated_row(
    members: list[Finding], texts: dict[str, RuleText], reasons: Iterable[str]
) -> RuleEntities:
    f = members[0]
    code, kind = f.rule, f.entity_kind
    ids, more = _listed([m.entity_id for m in members])
    return RuleEntities(
        anchor=rule_anchor("not-evaluated", f"{code}-{kind}-{ids[0]}"),
        rule=code, title=_title(f, texts), area_label=area_word(f.area), severity=f.severity,
        severity_label=severity_word(f.severity), count=len(members),
        entity_kind_label=counted_kind_word(kind, len(members)), entities=ids, more=more,
        detail=localized_all(reasons),
    )  # fmt: skip


def _reason_shape(reason: Any, named: set[str]) -> Any:
    """What a not-evaluated reason says, the entities it names left out (also in a reason it
    quotes: a single failure's 'not evaluated after the loss (CDU 'CDU-1' has no …)')."""
    if isinstance(reason, Message):
        params = tuple((k, _reason_shape(v, named)) for k, v in sorted(reason.params.items()))
        return (reason.template, params)
    if isinstance(reason, str):
        return "" if reason in named else str(reason)
    return repr(reason)


def _unnamed(reasons: tuple[str, ...], named: set[str]) -> list[str]:
    """The reasons with each entity they name written '…' (the row lists the entities)."""
    return [_unnamed_one(reason, named) for reason in reasons]


def _unnamed_one(reason: str, named: set[str]) -> str:
    if not isinstance(reason, Message):
        return reason
    changes: dict[str, Any] = {}
    for k, v in reason.params.items():
        if isinstance(v, Message):
            inner = _unnamed_one(v, named)
            if inner is not v:
                changes[k] = inner
        elif isinstance(v, str) and v in named:
            changes[k] = "…"
    return reason.with_params(**changes) if changes else reason


def _passed(findings: list[Finding], texts: dict[str, RuleText]) -> list[RuleEntities]:
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        if f.status == "pass":
            groups.setdefault(f.rule, []).append(f)
    rows = []
    for code in sorted(groups):
        members = groups[code]
        f = members[0]
        ids, more = _listed([m.entity_id for m in members])
        margins = [m for m in members if m.margin is not None]
        detail = ""
        tight = min(margins, key=lambda m: (m.margin, natural_key(m.entity_id)), default=None)
        if tight is not None and margin_text(tight) is not None:  # no 'margin 0' of a count
            detail = _("%(margin)s (%(entity)s)") % {
                "margin": _margin(tight), "entity": tight.entity_id}  # fmt: skip
        kinds = sorted({m.entity_kind for m in members})
        rows.append(
            RuleEntities(
                anchor=rule_anchor("passed", code), rule=code, title=rule_title(f, texts.get(code)),
                area_label=area_word(f.area), severity=f.severity,
                severity_label=severity_word(f.severity), count=len(members),
                entity_kind_label=", ".join(counted_kind_word(k, len(members)) for k in kinds),
                entities=ids, more=more, detail=detail,
            )
        )  # fmt: skip
    return rows
