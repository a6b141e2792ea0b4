"""Running rules over a site: one finding per rule and entity in its scope."""

from __future__ import annotations

import ast
import datetime as dt
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from facility.engine import alike
from facility.engine.account import account
from facility.engine.coverage import coverage
from facility.engine.expression import COMPARISON_SYMBOLS, comparison, simple_comparison
from facility.engine.findings import AuditResult, Finding
from facility.engine.power_account import power_account
from facility.engine.quantities import Compute, Context, Value, catalogue, scopes
from facility.engine.rules import Rule, RuleSet
from facility.gcpause import paused_gc
from facility.messages import Message
from facility.model.site import Site


def audit(
    site: Site,
    ruleset: RuleSet | None = None,
    progress: Callable[[int, int], None] | None = None,
    as_of: dt.date | None = None,
) -> AuditResult:
    """Apply every rule of ``ruleset`` (the bundled default profile if None) to ``site``.

    ``progress(done, total)`` is called after each rule (for a progress indicator).
    ``as_of`` is the report date; a rule on the age of evidence is not evaluated without it."""
    return audit_in_context(site, ruleset, progress, as_of)[0]


def audit_in_context(
    site: Site,
    ruleset: RuleSet | None = None,
    progress: Callable[[int, int], None] | None = None,
    as_of: dt.date | None = None,
    by_class: bool = True,
    with_coverage: bool = True,
) -> tuple[AuditResult, Context]:
    """:func:`audit`, with the context it computed every quantity in: the single-failure
    analysis starts from it (its normal values and sums) instead of deriving them again.

    ``by_class``: racks and PDUs alike judged once per class (:mod:`facility.engine.alike`);
    False, each one on its own: the reference the tests hold the classes to.
    ``with_coverage``: False for a caller that makes the coverage itself, with more findings
    (:func:`facility.check.run_check`, after the single failures), or shows none (``facility
    failures``, ``facility headroom``): ``result.coverage`` None."""
    if ruleset is None:
        from facility.engine.rules import load_rules

        ruleset = load_rules(profile=default_profile(site))
    with paused_gc():
        return _audit(site, ruleset, progress, as_of, by_class, with_coverage)


def _audit(
    site: Site,
    ruleset: RuleSet,
    progress: Callable[[int, int], None] | None = None,
    as_of: dt.date | None = None,
    by_class: bool = True,
    with_coverage: bool = True,
) -> tuple[AuditResult, Context]:
    ctx = Context(site, ruleset.assumptions, as_of=as_of)
    result = AuditResult(
        site.info.name,
        site.file,
        site.sha256,
        ruleset.profile,
        ruleset.version,
        {
            "electrical_power_basis": ruleset.assumptions.electrical_power_basis,
            "thermal_power_basis": ruleset.assumptions.thermal_power_basis,
            "continuous_load_derating": f"{site.conventions.continuous_load_derating:g}",
        },
        selection=ruleset.selection,
        as_of=as_of,
    )
    all_scopes = scopes()
    classes = _Classes(site)
    for done, rule in enumerate(ruleset.rules, 1):
        scope = all_scopes[rule.spec.scope]
        tables = _tables(ctx, rule)
        entities = scope.entities(site)
        if by_class and rule.spec.scope in _ALIKE_SCOPES:
            result.findings += _judged_alike(ctx, rule, entities, tables, classes)
        else:
            for entity_id, entity in entities:
                finding = _apply(ctx, rule, entity_id, entity, tables)
                if finding is not None:
                    result.findings.append(finding)
        if progress is not None:
            progress(done, len(ruleset.rules))
    result.account = account(ctx)
    result.power_account = power_account(ctx)
    if with_coverage:
        result.coverage = coverage(site, ruleset, result.findings)
    return result, ctx


_ALIKE_SCOPES = ("rack", "pdu")  # judged once per class of alike entities (facility.engine.alike)


class _Classes:
    """The class key of each rack and PDU of a site, made once per audit."""

    def __init__(self, site: Site) -> None:
        self.racks = {rack.id: rack for rack in site.racks}
        self._keys: dict[tuple[str, bool], dict[str, int]] = {}
        self._texts: dict[int, tuple[Value | str, str]] = {}  # by id of a value: it, its texts

    def names_any(self, values: list[Value | str], ids: frozenset[str]) -> bool:
        """Some value's working or reason, or a reason, names one of ``ids``
        (:func:`alike.texts`)."""
        for value in values:
            found = self._texts.get(id(value))
            if found is None:
                found = self._texts[id(value)] = (value, alike.texts(value))
            text = found[1]
            if any(i in text for i in ids):
                return True
        return False

    def keys(self, scope: str, with_position: bool) -> dict[str, int]:
        """The number of each entity's class (a key hashed once, not for every rule)."""
        found = self._keys.get((scope, with_position))
        if found is None:
            racks = {i: alike.rack_key(r, with_position) for i, r in self.racks.items()}
            if scope == "rack":
                keys = racks
            else:
                keys = {
                    p.id: alike.pdu_key(p, racks[r.id])
                    for r in self.racks.values()
                    for pdus in r.pdus.values()
                    for p in pdus
                }
            numbers: dict[tuple[Any, ...], int] = {}
            found = {i: numbers.setdefault(k, len(numbers)) for i, k in keys.items()}
            self._keys[(scope, with_position)] = found
        return found


def _judged_alike(
    ctx: Context,
    rule: Rule,
    entities: Any,
    tables: tuple[tuple[str, dict[str, Value], Compute], ...],
    classes: _Classes,
) -> list[Finding]:
    """``rule`` on racks or PDUs, judged once per class (:mod:`facility.engine.alike`): the
    first of a class is evaluated; another gets its finding under its own id and place, and
    its values in the context's tables, unless a value, working or reason of the first's
    names its id or its PDUs' (then each is evaluated)."""
    scope = rule.spec.scope
    plan: _Plan = rule.plan or _plan(rule)
    keys = classes.keys(scope, alike.reads_row_place(scope, plan.derived))
    # class key -> (the first entity's values, by table; its finding), None: each evaluated
    first: dict[int, _Shared | None] = {}
    out: list[Finding] = []
    where = ctx.site.where
    for entity_id, entity in entities:
        key = keys[entity_id]
        if key not in first:
            finding = _apply(ctx, rule, entity_id, entity, tables)
            if finding is not None:
                out.append(finding)
            first[key] = _shareable(scope, entity, finding, tables, classes)
            continue
        model = first[key]
        if model is None:
            finding = _apply(ctx, rule, entity_id, entity, tables)
            if finding is not None:
                out.append(finding)
            continue
        fill, f = model
        own = entity.id
        for table, value in fill:
            table.setdefault(own, value)
        if f is not None:
            out.append(f.for_entity(entity_id, where(scope, entity_id)))
    return out


_Shared = tuple[tuple[tuple[dict[str, Value], Value], ...], "Finding | None"]


def _shareable(
    scope: str,
    entity: Any,
    finding: Finding | None,
    tables: tuple[tuple[str, dict[str, Value], Compute], ...],
    classes: _Classes,
) -> _Shared | None:
    """What the others of ``entity``'s class may take of its judgement (its values, its
    finding), or None when some value or reason names the entity."""
    fill = []
    for _, table, _ in tables:
        value = table.get(entity.id)
        if value is not None:
            fill.append((table, value))
    shown: list[Value | str] = [v for _, v in fill]
    if finding is not None:
        shown += [v for v in (finding.observed, finding.limit) if v is not None]
        shown += finding.missing
    if classes.names_any(shown, alike.own_ids(scope, entity, classes.racks)):
        return None
    return tuple(fill), finding


def evaluate_entities(
    site: Site,
    ruleset: RuleSet,
    rules: list[Rule],
    entities: dict[str, list[tuple[str, Any]]],
    baseline: Context | None = None,
    changed: frozenset[tuple[str, str]] | None = None,
    as_of: dt.date | None = None,
    settled: Mapping[str, Mapping[str, Finding]] | None = None,
) -> list[Finding]:
    """Apply ``rules`` to just the given entities of each scope (failure scenarios, headroom).

    ``baseline`` is the normal audit's context when ``site`` is a failure overlay of its site
    (:mod:`facility.model.overlay`): the overlay's sums start from its sums, and the values
    the area modules share between entities are shared with it. ``changed``: the (scope,
    quantity) pairs the overlay can change (:func:`facility.engine.reads.changed_quantities`);
    every other quantity's values are the baseline's, shared both ways (one computed here is
    the value the baseline would compute), not derived again for each scenario. ``as_of``:
    the report date the ages of evidence are judged on (the baseline's when it has one: a
    loss does not age a record). ``settled``: by rule code, then entity id, findings given
    as they are instead of judged (a failure scenario: the checks its normal audit could not
    evaluate, whose inputs no loss supplies).
    """
    if baseline is not None and as_of is None:
        as_of = baseline.as_of
    ctx = Context(site, ruleset.assumptions, as_of=as_of, baseline=baseline)
    if baseline is not None:
        ctx.memo = baseline.memo
        if changed is not None:
            ctx.cache = dict(_unchanged_tables(baseline, changed))
    findings = []
    for rule in rules:
        scoped = entities.get(rule.spec.scope)
        if not scoped:
            continue  # (a scenario touches a few scopes: no tables for the others)
        given = settled.get(rule.code) if settled is not None else None
        tables = _tables(ctx, rule)
        for entity_id, entity in scoped:
            finding = given.get(entity_id) if given is not None else None
            if finding is None:
                finding = _apply(ctx, rule, entity_id, entity, tables)
            if finding is not None:
                findings.append(finding)
    return findings


def _unchanged_tables(
    baseline: Context, changed: frozenset[tuple[str, str]]
) -> dict[tuple[str, str], dict[str, Value]]:
    """The baseline's table of every quantity not in ``changed``, made once per set (a campus's
    scenarios have a few: one per kind of loss)."""
    key = ("unchanged tables", changed)
    found: dict[tuple[str, str], dict[str, Value]] | None = baseline.memo.get(key)
    if found is None:
        for scope_name, quantities in catalogue().items():
            for name in quantities:
                baseline.cache.setdefault((scope_name, name), {})
        found = {k: table for k, table in baseline.cache.items() if k not in changed}
        baseline.memo[key] = found
    return found


def default_profile(site: Site) -> str:
    """'tier-iii' when the site's design intent says Tier III (or Rated 3), else 'supernode'."""
    intent = (site.info.design_intent or "").lower().replace(" ", "")
    if any(word in intent for word in ("tieriii", "tier3", "rated3", "rated-3")):
        return "tier-iii"
    return "supernode"


@dataclass(frozen=True, slots=True)
class _Plan:
    """What evaluating one rule needs, worked out once per rule rather than per entity."""

    parameters: dict[str, float]
    derived: tuple[str, ...]  # derived quantities to compute, in a stable order
    margin: tuple[Any, str] | None  # (comparison operator, symbol) of "observed <op> limit"
    # Workings that are not a derived quantity's (a parameter, an expression) by (expression,
    # value), which decide them: the same for every entity with that value, made once.
    constants: dict[tuple[Any, ...], Value]
    gate: tuple[int, ...] = ()  # the positions in ``derived`` of what ``when`` reads
    # (code, name, title, area, severity): how each finding of the rule begins
    head: tuple[str, str, str, str, str] = ("", "", "", "", "")
    # the condition's comparison when it is just "observed <op> limit" (else None: evaluated)
    compare: Callable[[float, float], bool] | None = None


def _plan(rule: Rule) -> _Plan:
    if rule.plan is not None:
        return rule.plan  # type: ignore[no-any-return]
    needed = (
        rule.observed.names
        | rule.limit.names
        | (rule.condition.names - {"observed", "limit"})
        | (rule.when.names if rule.when else frozenset())
    )
    parameters = {name: p.value for name, p in rule.parameters.items()}
    shape = simple_comparison(rule.condition)
    margin: tuple[Any, str] | None = None
    compare = None
    if shape is not None and (shape[0], shape[2]) == ("observed", "limit"):
        margin = (shape[1], COMPARISON_SYMBOLS.get(shape[1], ""))
        compare = comparison(shape[1])
    elif shape is not None:
        margin = (None, COMPARISON_SYMBOLS.get(shape[1], ""))
    derived = tuple(sorted(needed - set(parameters)))
    when = rule.when.names if rule.when else frozenset()
    gate = tuple(at for at, name in enumerate(derived) if name in when)
    head = (rule.code, rule.spec.name, rule.spec.title, rule.spec.area, rule.severity)
    plan = _Plan(parameters, derived, margin, {}, gate, head, compare)
    rule.plan = plan
    return plan


def _tables(ctx: Context, rule: Rule) -> tuple[tuple[str, dict[str, Value], Compute], ...]:
    """The rule's derived quantities, each with its table of values and how to compute one."""
    return tuple((name, *ctx.table(rule.spec.scope, name)) for name in _plan(rule).derived)


def _not_evaluated(ctx: Context, rule: Rule, entity_id: str, reasons: tuple[str, ...]) -> Finding:
    scope = rule.spec.scope
    location = ctx.site.where(scope, entity_id)
    return Finding(
        *_plan(rule).head, "not_evaluated", scope, entity_id, location, rule.kind, missing=reasons
    )


def _apply(
    ctx: Context,
    rule: Rule,
    entity_id: str,
    entity: Any,
    tables: tuple[tuple[str, dict[str, Value], Compute], ...],
) -> Finding | None:
    plan: _Plan = rule.plan or _plan(rule)
    env: dict[str, float] = dict(plan.parameters)
    values: dict[str, Value] = {}
    key = entity.id  # what Context.get keys the entity's values by
    if rule.when is not None:
        # What the condition reads first: a rule that does not apply computes nothing else.
        when_missing = []
        for at in plan.gate:
            name, table, compute = tables[at]
            value = table.get(key)
            if value is None:
                value = table[key] = compute(ctx, entity)
            values[name] = value
            if value.value is not None:
                env[name] = value.value
            else:
                when_missing.append(value.missing or "")
        if when_missing:
            return _not_evaluated(ctx, rule, entity_id, tuple(when_missing))
        if not rule.when.evaluate(env):
            return None  # the rule does not apply to this entity
    missing: list[str] = []
    for name, table, compute in tables:
        found = values.get(name)
        if found is None:
            found = table.get(key)
            if found is None:
                found = table[key] = compute(ctx, entity)
            values[name] = found
        if found.value is None:
            missing.append(found.missing or Message("%(name)s is unknown", name=name))
        else:
            env[name] = found.value
    if missing:
        return _not_evaluated(ctx, rule, entity_id, tuple(dict.fromkeys(missing)))
    try:
        observed = rule.observed.evaluate(env)
        limit = rule.limit.evaluate(env)
        if plan.compare is not None:
            holds = plan.compare(observed, limit)
        else:
            holds = bool(rule.condition.evaluate({**env, "observed": observed, "limit": limit}))
    except ZeroDivisionError:
        return _not_evaluated(
            ctx,
            rule,
            entity_id,
            (Message("%(rule)s's expressions divide by zero for this entity", rule=rule.code),),
        )
    except OverflowError:
        return _not_evaluated(ctx, rule, entity_id, (_overflows(rule),))
    if not (math.isfinite(observed) and math.isfinite(limit)) and all(
        math.isfinite(env[name]) for name in rule.observed.names | rule.limit.names if name in env
    ):  # finite figures in, no finite figure out: never a pass by an infinite limit
        return _not_evaluated(ctx, rule, entity_id, (_overflows(rule),))
    margin, relation = _margin(plan, observed, limit)
    scope = rule.spec.scope
    return Finding(
        *plan.head,
        "pass" if holds else "fail",
        scope,
        entity_id,
        ctx.site.where(scope, entity_id),
        rule.kind,
        _explained(plan, rule.observed, observed, values, rule),
        _explained(plan, rule.limit, limit, values, rule),
        margin,
        relation,
    )


def _overflows(rule: Rule) -> Message:
    return Message(
        "%(rule)s's expressions give a figure beyond any float for this entity", rule=rule.code
    )


def _explained(
    plan: _Plan, expression: Any, value: float, values: dict[str, Value], rule: Rule
) -> Value:
    """The value with its working: a derived quantity's own; else the expression with the
    value of each name in it (``coolant_freezing_point + freezing_margin, with …``)."""
    text = expression.text
    name = text.strip()
    if name in values:
        v = values[name]
        if v.value == value:
            return v  # the derived value itself (shared: a campus has 100,000s of these)
        return Value(value, v.formula, v.inputs)
    inputs = _inputs(expression, values, rule)
    key = (text, value, inputs)
    found = plan.constants.get(key)
    if found is not None:
        return found
    quantities = [n for n in sorted(expression.names) if n in values and values[n].inputs]
    if name in rule.parameters:
        p = rule.parameters[name]
        found = Value(value, Message("parameter %(name)s", name=name), ((name, p.value, p.kind),))
    elif len(quantities) == 1:
        # One derived quantity and parameters (a rating less a design reserve): the
        # quantity's own working stays in view.
        q = values[quantities[0]]
        found = Value(
            value,
            Message(
                "%(expression)s, where %(name)s = %(formula)s",
                expression=text,
                name=quantities[0],
                formula=q.formula,
            ),
            (*q.inputs, *inputs),
        )
    else:
        found = Value(value, text, inputs)
    if len(plan.constants) < 1_000:  # (text, value, inputs) decide it; bounded for varying ones
        plan.constants[key] = found
    return found


def _inputs(expression: Any, values: dict[str, Value], rule: Rule) -> tuple[Any, ...]:
    """(name, value, kind) of each derived quantity and parameter an expression names."""
    kinds = catalogue()[rule.spec.scope]
    found = []
    for name in sorted(expression.names):
        if name in values and values[name].value is not None:
            found.append((name, values[name].value, kinds[name].kind))
        elif name in rule.parameters:
            p = rule.parameters[name]
            found.append((name, p.value, p.kind))
    return tuple(found)


def _margin(plan: _Plan, observed: float, limit: float) -> tuple[float | None, str]:
    if plan.margin is None:
        return None, ""
    op, symbol = plan.margin
    if op in (ast.Lt, ast.LtE):
        return limit - observed, symbol
    if op in (ast.Gt, ast.GtE):
        return observed - limit, symbol
    return None, symbol
