"""Headroom: how many more racks of a type fit, which constraint binds first, what is stranded.

New racks are copies of a *template* rack already in the target (the first rack of the row,
loop or zone): same zone, row, loop and PDU arrangement (same PDU types, same upstream feeds),
with the requested rack type. For n more racks the site is copied with them added and every
rule — normal operation and single-failure alike — is evaluated on the entities they touch.
The answer is the largest n with no check failing that did not already fail; more load never
turns a failure into a pass, so the search is a doubling search followed by bisection. A
domain with a check already failing on the target (its loop, zone, room or the feeds above
the template rack) has no headroom: 0, with that check named. A power path with nothing
modelled above the rack PDUs is bounded by nothing the site states ("upstream not modelled").

Per domain (power path, liquid loop, room air, floor zone) the same search runs with only that
area's rules, so the report shows each domain's own headroom. Under a profile that judges
single failures (RED-001) a fifth domain, *single failures*, runs the failure analysis on the
site with the copies for every loss that reaches what they change (a loss reaching none of it
reads as without them): a loss that newly fails a check binds. At the overall limit, capacity
left in the domains that do not bind is *stranded*: it cannot be used because another domain
is exhausted. The entities n copies touch are derived from what the quantities read
(:mod:`facility.engine.reads`), as a failure's are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from facility.analysis.failures import (
    FAILURE_SCOPE,
    FailureReport,
    analyse_failures,
    single_failure_findings,
    utilisation,
)
from facility.engine.evaluate import evaluate_entities
from facility.engine.findings import AuditResult, Finding
from facility.engine.reads import Affected, Seed, affected
from facility.engine.rules import RuleSet
from facility.gcpause import paused_gc
from facility.messages import Message
from facility.model import overlay
from facility.model.site import Rack, ResolvedRackType, Site

# Domain names (the report shows them in its language: facility.report.headroom_report).
DOMAINS = {"power": "power path", "liquid": "liquid loop", "air": "room air", "floor": "floor zone"}
# Under a profile that judges single failures (RED-001), also: no loss the design must survive
# may newly fail a check with the racks added.
SINGLE_FAILURES = ("redundancy", "single failures")
# No loop, zone or row takes more racks than this; a domain that still fits is "unbounded".
SEARCH_LIMIT = 1_000


class HeadroomError(ValueError):
    """The target or rack type cannot be used (unknown id, no template rack)."""


@dataclass(slots=True)
class DomainHeadroom:
    domain: str
    racks: int  # more racks that fit; SEARCH_LIMIT means "at least that many"
    binding: list[Finding]  # the checks that fail first with one more rack (or fail already)
    stranded: list[Finding] = field(default_factory=list)  # margins left at the overall limit
    failing_already: bool = False  # 0: a check of the domain on the target fails today
    upstream_modelled: bool = True  # power: a busway, panel or source above the template

    @property
    def unbounded(self) -> bool:
        return self.racks >= SEARCH_LIMIT


@dataclass(slots=True)
class HeadroomReport:
    rack_type: str
    target_kind: str
    target: str
    template: str
    overall: DomainHeadroom
    domains: list[DomainHeadroom]
    already_failing: list[Finding] = field(default_factory=list)  # shared checks failing today


def find_template(site: Site, *, loop: str | None, zone: str | None, row: str | None) -> Rack:
    targets = [(k, v) for k, v in (("loop", loop), ("zone", zone), ("row", row)) if v]
    if len(targets) != 1:
        raise HeadroomError(Message("give exactly one target: --loop, --zone or --row"))
    kind, target = targets[0]
    known: set[str] = {
        "loop": set(site.loops),
        "zone": set(site.zones),
        "row": {r.row for r in site.racks if r.row},
    }[kind]
    if target not in known:
        listed = ", ".join(sorted(known)[:10])
        raise HeadroomError(_UNKNOWN_TARGET[kind](target, listed))
    for rack in site.racks:
        if getattr(rack, kind) == target:
            return rack
    raise HeadroomError(_EMPTY_TARGET[kind](target))


# The target of --loop, --zone or --row, when it names nothing or holds no rack.
_UNKNOWN_TARGET = {
    "loop": lambda target, known: Message(
        "unknown loop '%(target)s' (known: %(known)s)", target=target, known=known
    ),
    "zone": lambda target, known: Message(
        "unknown zone '%(target)s' (known: %(known)s)", target=target, known=known
    ),
    "row": lambda target, known: Message(
        "unknown row '%(target)s' (known: %(known)s)", target=target, known=known
    ),
}
_EMPTY_TARGET = {
    "loop": lambda target: Message(
        "loop '%(target)s' has no rack to copy the placement and PDUs from", target=target
    ),
    "zone": lambda target: Message(
        "zone '%(target)s' has no rack to copy the placement and PDUs from", target=target
    ),
    "row": lambda target: Message(
        "row '%(target)s' has no rack to copy the placement and PDUs from", target=target
    ),
}


def resolve_rack_type(site: Site, rack_type: str) -> ResolvedRackType:
    """A rack type of the site, or of the catalog (as a rack's ``type: <catalog id>``)."""
    if rack_type in site.rack_types:
        return site.rack_types[rack_type]
    for rack in site.racks:  # a catalog type used directly by a rack
        if rack.type.id == rack_type:
            return rack.type
    from facility.model.load import catalog_rack_type

    found = catalog_rack_type(rack_type)
    if found is not None:
        return found
    known = sorted({*site.rack_types, *(r.type.id for r in site.racks)})
    raise HeadroomError(
        Message(
            "unknown rack type '%(type)s' (known in this site: %(known)s; or a catalog id, "
            "see facility catalog)",
            type=rack_type,
            known=", ".join(known),
        )
    )


class _Grower:
    """Builds the site with n more racks copied from a template, and evaluates it against
    ``normal``, the site's normal audit (its report date the one every age is judged on)."""

    def __init__(
        self,
        site: Site,
        ruleset: RuleSet,
        template: Rack,
        rack_type: ResolvedRackType,
        normal: AuditResult,
    ):
        self.site, self.ruleset, self.template, self.rack_type = site, ruleset, template, rack_type
        self.normal = normal
        self.cache: dict[tuple[int, str], list[Finding]] = {}
        self.failures: dict[int, FailureReport] = {}  # the single-failure analysis by n added

    def new_racks(self, n: int) -> list[Rack]:
        racks = []
        for k in range(1, n + 1):
            rack_id = f"new-{k}"
            pdus = {
                side: [
                    dataclasses.replace(pdu, id=f"{rack_id}-{side}{i}", rack=rack_id)
                    for i, pdu in enumerate(group, 1)
                ]
                for side, group in self.template.pdus.items()
            }
            racks.append(
                dataclasses.replace(
                    self.template,
                    id=rack_id,
                    type=self.rack_type,
                    pdus=pdus,
                    position=None,
                    sides_lost=0,
                )
            )
        return racks

    def findings(self, n: int, area: str | None) -> list[Finding]:
        key = (n, area or "")
        if key in self.cache:
            return self.cache[key]
        added = self.new_racks(n)
        site = overlay.with_racks(self.site, added)
        if area == SINGLE_FAILURES[0]:
            found = self.single_failures(site, added)
        else:
            rules = [r for r in self.ruleset.rules if area is None or r.spec.area == area]
            affected = self.affected(site, added)
            found = evaluate_entities(site, self.ruleset, rules, affected, as_of=self.normal.as_of)
        self.cache[key] = found
        return found

    def single_failures(self, site: Site, added: list[Rack]) -> list[Finding]:
        """The single-failure rules on each loss that reaches what the copies change (a loss
        that reaches none of it reads as without them), on the site with the copies."""
        rules = [r for r in self.ruleset.rules if r.spec.scope == FAILURE_SCOPE]
        changed = self.affected(site, added)
        touching = {(scope, i) for scope, items in changed.items() for i, _ in items}
        normal = self.audit_with(site, changed, touching) if added else self.normal
        failures = analyse_failures(site, self.ruleset, normal, touching)
        self.failures[len(added)] = failures
        return single_failure_findings(site, self.ruleset, rules, failures)

    def audit_with(
        self, site: Site, changed: Affected, touching: set[tuple[str, str]]
    ) -> AuditResult:
        """The normal audit's findings on ``site`` (the site with copies): the site's own,
        with those on what the copies change (``changed``, ``touching``) judged again on
        ``site`` instead of every rule on every entity of the campus again. Only the findings
        and the report date are the new site's: its account and coverage are the site's
        without copies (the single-failure analysis reads neither)."""
        own = self.normal
        again = evaluate_entities(site, self.ruleset, self.ruleset.rules, changed, as_of=own.as_of)
        kept = [f for f in own.findings if (f.entity_kind, f.entity_id) not in touching]
        return dataclasses.replace(own, findings=kept + again)

    def losses_made_worse(self, n: int) -> set[str]:
        """The scenarios after which, with n racks added, an error check fails that did not
        fail after the same loss without them."""
        self.findings(n, SINGLE_FAILURES[0])
        self.findings(0, SINGLE_FAILURES[0])

        def failing(report: FailureReport) -> dict[str, set[str]]:
            return {
                r.id: {f.id for f in r.new_failures if f.severity == "error"}
                for r in report.results
            }

        today, now = failing(self.failures[0]), failing(self.failures[n])
        return {loss for loss, checks in now.items() if checks - today.get(loss, set())}

    def spofs_on_the_target(self) -> set[str]:
        """The scenarios that are single points of failure today because a check the copies
        would share fails (not one elsewhere that the loss also reaches)."""
        self.findings(0, SINGLE_FAILURES[0])
        shared = {(s, i) for s, items in self.affected(self.site, []).items() for i, _ in items}
        return {
            r.id
            for r in self.failures[0].results
            if any(
                (f.entity_kind, f.entity_id) in shared
                for f in r.new_failures
                if f.severity == "error"
            )
        }

    def affected(self, site: Site, added: list[Rack]) -> Affected:
        """What the copies change, from what the quantities read: the copies and their PDUs
        are new; the template's loop, room and zone hold more racks; every element above
        the template's PDUs feeds more."""
        t = self.template
        seeds: list[Seed] = [("rack", r.id, "*") for r in added]
        seeds += [("pdu", p.id, "*") for r in added for g in r.pdus.values() for p in g]
        if t.loop:
            seeds.append(("tcs_loop", t.loop, "racks"))
        if t.zone:
            seeds.append(("floor_zone", t.zone, "racks"))
        room = site.topology.room_of(t)  # where the copies' air heat lands
        if room is not None and room in site.rooms:
            seeds.append(("room", room, "racks"))
        for element in sorted(site.topology.elements_above(p for g in t.pdus.values() for p in g)):
            kind = "distribution" if element in site.distribution else "power_source"
            seeds.append((kind, element, "below"))
        return affected(site, seeds)


def _search(fits: Callable[[int], bool]) -> int:
    """The largest n in [0, SEARCH_LIMIT] with fits(n), for a monotone fits (fits(0) assumed)."""
    low, high = 0, 1
    while high <= SEARCH_LIMIT and fits(high):
        low, high = high, high * 2
    if high > SEARCH_LIMIT:
        return SEARCH_LIMIT if fits(SEARCH_LIMIT) else _bisect(fits, low, SEARCH_LIMIT)
    return _bisect(fits, low, high)


def _bisect(fits: Callable[[int], bool], low: int, high: int) -> int:
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low


def headroom(
    site: Site,
    ruleset: RuleSet,
    baseline: AuditResult,
    rack_type: str,
    *,
    loop: str | None = None,
    zone: str | None = None,
    row: str | None = None,
) -> HeadroomReport:
    """How many more racks of ``rack_type`` fit in the target, overall and per domain.

    ``baseline``: the site's normal audit under ``ruleset`` (``audit(site, ruleset, as_of=…)``),
    what the racks' new failures and every loss are judged against."""
    template = find_template(site, loop=loop, zone=zone, row=row)
    grower = _Grower(site, ruleset, template, resolve_rack_type(site, rack_type), baseline)
    failing_before = {f.id for f in baseline.findings if f.status in ("fail", "waived")}

    def new_failures(n: int, area: str | None) -> list[Finding]:
        found = grower.findings(n, area)
        if area == SINGLE_FAILURES[0]:
            # A loss binds when, with the racks, a check fails after it that did not before
            # they were added (a loss that is a single point of failure today for another
            # check can still be made worse).
            worse = grower.losses_made_worse(n)
            return [f for f in found if f.status == "fail" and f.entity_id in worse]
        return [f for f in found if f.status == "fail" and f.id not in failing_before]

    feeds = _upstream(site, template)
    shared = {
        (scope, entity_id)
        for scope, entities in grower.affected(site, []).items()
        for entity_id, _ in entities
        if scope not in ("distribution", "power_source")
    } | feeds
    already = [
        f
        for f in baseline.findings
        if f.status == "fail" and (f.entity_kind, f.entity_id) in shared
    ]
    names = dict(DOMAINS)
    if any(r.spec.scope == FAILURE_SCOPE for r in ruleset.rules):
        names[SINGLE_FAILURES[0]] = SINGLE_FAILURES[1]
        today = [f for f in grower.findings(0, SINGLE_FAILURES[0]) if f.status == "fail"]
        # A loss that already fails a check the copies would share: no rack more makes it
        # survivable (a loss failing only elsewhere stays what it is: not new, not binding).
        on_target = grower.spofs_on_the_target()
        already += [f for f in today if f.entity_id in on_target]

    def domain(area: str | None) -> DomainHeadroom:
        name = names.get(area or "", "overall")
        failing = [f for f in already if f.area == area]
        if failing:  # no rack more fits a loop, zone, room or feed that already fails
            return DomainHeadroom(name, 0, _distinct(failing), failing_already=True)
        scopes = {r.spec.scope for r in ruleset.rules if r.spec.area == area}
        if area != SINGLE_FAILURES[0] and not any(scope in scopes for scope, _ in shared):
            # Nothing of this domain is shared (no busway or source above the racks): each
            # copy is judged alone, as the first one is, so n fit exactly when one does.
            n = SEARCH_LIMIT if not new_failures(1, area) else 0
        else:
            n = _search(lambda k: not new_failures(k, area))
        binding = new_failures(n + 1, area) if n < SEARCH_LIMIT else []
        modelled = area != "power" or bool(feeds)
        return DomainHeadroom(name, n, _distinct(binding), upstream_modelled=modelled)

    with paused_gc():
        domains = [domain(area) for area in names]
        # The domains partition the rules, so n racks fit overall exactly when they fit in
        # every domain: the overall headroom is the smallest, bound by those domains' checks.
        fewest = min(d.racks for d in domains)
        binding = [f for d in domains if d.racks == fewest for f in d.binding]
        failing = any(d.failing_already for d in domains if d.racks == fewest)
        overall = DomainHeadroom("overall", fewest, binding, failing_already=failing)
        at_limit = grower.findings(overall.racks, None)
        binding_areas = {f.area for f in overall.binding}
        for d, area in zip(domains, names, strict=True):
            if area not in binding_areas:
                d.stranded = _stranded(at_limit, area)
    target_kind, target = next(
        (k, v) for k, v in (("loop", loop), ("zone", zone), ("row", row)) if v
    )
    return HeadroomReport(rack_type, target_kind, target, template.id, overall, domains, already)


def _upstream(site: Site, template: Rack) -> set[tuple[str, str]]:
    """(kind, id) of every busway, panel and source above the template rack's PDUs: what a
    copy of it is fed by."""
    above = site.topology.elements_above(p for g in template.pdus.values() for p in g)
    return {("distribution" if e in site.distribution else "power_source", e) for e in above}


def _distinct(findings: list[Finding]) -> list[Finding]:
    """One finding per rule and entity kind (the new racks fail alike: show one of them)."""
    seen: dict[tuple[str, str], Finding] = {}
    for f in findings:
        key = (f.rule, f.entity_kind if f.entity_id.startswith("new-") else f.entity_id)
        seen.setdefault(key, f)
    return sorted(seen.values(), key=lambda f: (f.rule, f.entity_id))


def _stranded(findings: list[Finding], area: str) -> list[Finding]:
    """The tightest passing capacity check of each entity of ``area`` that shares the target."""
    best: dict[tuple[str, str], Finding] = {}
    for f in findings:
        if (
            f.area != area
            or f.status != "pass"
            or f.margin is None
            or f.kind in ("count", "temperature")
        ):
            continue
        if f.entity_id.startswith("new-"):
            continue  # a per-rack check says nothing about shared capacity
        key = (f.entity_kind, f.entity_id)
        u = utilisation(f)
        if u is not None and (key not in best or u > (utilisation(best[key]) or 0.0)):
            best[key] = f
    return sorted(best.values(), key=lambda f: (f.entity_kind, f.entity_id))
