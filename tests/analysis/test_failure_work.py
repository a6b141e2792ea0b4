"""The single-failure analysis does work linear in the site: bounded by counts, not by time.

On two generated campuses, one three times the other (more halls of the same kind), each kind
of scenario must cost about the same per scenario on both: as many entity judgements, as many
quantity evaluations, and as many calls to build the failed site and find what it affects. A
loss that scanned every loop, element or air unit of the site, or judged again what it cannot
change, costs more per scenario on the larger campus (the whole analysis grows as the square):
before the CDU losses were indexed, a CDU's loss took 1.7 times the calls on the larger one.
"""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from facility.analysis import failures
from facility.engine import evaluate
from facility.engine.evaluate import audit
from facility.engine.quantities import catalogue
from facility.engine.rules import load_rules
from facility.model.load import load_site

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402

SMALL, LARGE = 160, 480  # racks: one hall, and three of the same size on average
SLACK = 1.2  # per scenario, the larger campus may cost this much more (its halls differ a little)


def _work(path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Counter[str]]:
    """For each kind of scenario: how many scenarios, entity judgements, quantity evaluations
    and calls (Python and built-in) while the failed site is built."""
    site = load_site(path)
    ruleset = load_rules(profile="tier-iii")
    result = audit(site, ruleset)
    counts: dict[str, Counter[str]] = {}
    current: list[Counter[str] | None] = [None]

    def count(what: str) -> None:
        if current[0] is not None:
            current[0][what] += 1

    judge = evaluate._apply

    def counted_apply(*args: Any) -> Any:
        count("judgements")
        return judge(*args)

    monkeypatch.setattr(evaluate, "_apply", counted_apply)
    for quantities in catalogue().values():
        for name, spec in list(quantities.items()):

            def compute(ctx: Any, entity: Any, _compute: Any = spec.compute) -> Any:
                count("quantity evaluations")
                return _compute(ctx, entity)

            monkeypatch.setitem(quantities, name, dataclasses.replace(spec, compute=compute))

    build = failures._Failer.apply

    def counted_build(self: Any, scenario: failures.Scenario) -> Any:
        current[0] = counts.setdefault(scenario.kind, Counter())
        current[0]["scenarios"] += 1
        calls = Counter[str]()

        def profile(_frame: Any, event: str, _arg: Any) -> None:
            if event in ("call", "c_call"):
                calls["calls"] += 1

        sys.setprofile(profile)
        try:
            return build(self, scenario)
        finally:
            sys.setprofile(None)
            current[0]["calls to build the failed site"] += calls["calls"]

    monkeypatch.setattr(failures._Failer, "apply", counted_build)
    try:
        failures.analyse_failures(site, ruleset, result)
    finally:
        monkeypatch.undo()
    return counts


def test_each_scenario_costs_the_same_on_a_campus_three_times_larger(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small, large = tmp_path / "small.yaml", tmp_path / "large.yaml"
    write_campus(SMALL, small)
    write_campus(LARGE, large)
    before, after = _work(small, monkeypatch), _work(large, monkeypatch)
    assert set(before) == set(after) >= {"rack_side", "cdu", "cdu_pump", "air_unit"}
    grown = {}
    for kind, work in after.items():
        assert work["scenarios"] >= 2 * before[kind]["scenarios"], kind  # a larger campus
        for what, n in work.items():
            if what != "scenarios":
                per_small = before[kind][what] / before[kind]["scenarios"]
                grown[kind, what] = (n / work["scenarios"]) / max(per_small, 1.0)
    assert {k: round(g, 2) for k, g in grown.items() if g > SLACK} == {}


def test_from_the_audits_context_no_normal_value_is_derived_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # check and failures hand the audit's context to the analysis: every normal-operation
    # value a scenario starts from (a busway's load, a UPS's) is the audit's. From a context
    # of its own (headroom's way) the analysis derives them again, which the count shows.
    path = tmp_path / "campus.yaml"
    write_campus(SMALL, path)
    site = load_site(path)
    ruleset = load_rules(profile="tier-iii")
    derived: Counter[tuple[str, str]] = Counter()
    for scope, quantities in catalogue().items():
        for name, spec in list(quantities.items()):

            def compute(ctx: Any, entity: Any, _spec: Any = spec, _key=(scope, name)) -> Any:
                if ctx.baseline is None:  # a normal-operation context, not a scenario's
                    derived[_key] += 1
                return _spec.compute(ctx, entity)

            monkeypatch.setitem(quantities, name, dataclasses.replace(spec, compute=compute))
    again = {}
    for start in ("the audit's", "its own"):
        result, context = evaluate.audit_in_context(site, ruleset)
        derived.clear()
        normal = context if start == "the audit's" else None
        failures.analyse_failures(site, ruleset, result, normal=normal)
        again[start] = sum(derived.values())
    assert again["the audit's"] == 0 and again["its own"] > 0, again
