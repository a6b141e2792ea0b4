"""A check the normal audit could not evaluate is not judged again in a failure scenario (of an
element: a loop, a CDU, a facility water, a room): the loss cannot supply its input, and the
tally keeps the normal finding either way — the same results as judging it in every scenario."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from facility.analysis import failures
from facility.engine import evaluate
from facility.engine.evaluate import audit, evaluate_entities
from facility.engine.rules import load_rules
from facility.model.load import load_site
from tests.analysis.test_failure_side_alike import _results

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


@pytest.mark.parametrize(
    "name",
    ["campus", "examples/hall-b3.yaml", "examples/hall-b3-power.yaml", "examples/small-ready.yaml"],
)
def test_settled_checks_equal_judging_them_in_every_scenario(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if name == "campus":
        path = tmp_path / "campus.yaml"
        write_campus(160, path, loads=True)
    else:
        path = ROOT / name
    site = load_site(path)
    ruleset = load_rules(profile="tier-iii")
    baseline = audit(site, ruleset)
    applied = [0]
    apply = evaluate._apply

    def counted(*args: Any) -> Any:
        applied[0] += 1
        return apply(*args)

    monkeypatch.setattr(evaluate, "_apply", counted)
    given = _results(failures.analyse_failures(site, ruleset, baseline))
    with_settled, applied[0] = applied[0], 0
    judge = failures.evaluate_entities

    def unsettled(*args: Any, settled: Any = None, **kw: Any) -> Any:
        return judge(*args, **kw)  # every check judged in every scenario

    monkeypatch.setattr(failures, "evaluate_entities", unsettled)
    assert given == _results(failures.analyse_failures(site, ruleset, baseline))
    unknown = [f for f in baseline.findings if f.status == "not_evaluated"]
    if any(f.entity_kind not in ("rack", "pdu") for f in unknown):
        assert with_settled < applied[0]


def test_a_settled_finding_is_given_as_it_is() -> None:
    site = load_site(ROOT / "examples/hall-b3.yaml")
    ruleset = load_rules(profile="tier-iii")
    baseline = audit(site, ruleset)
    finding = next(f for f in baseline.findings if f.entity_kind == "tcs_loop")
    rule = next(r for r in ruleset.rules if r.code == finding.rule)
    loops = [(i, site.loops[i]) for i in sorted(site.loops)]
    judged = evaluate_entities(site, ruleset, [rule], {"tcs_loop": loops})
    given = evaluate_entities(
        site,
        ruleset,
        [rule],
        {"tcs_loop": loops},
        settled={rule.code: {finding.entity_id: finding}},
    )
    assert [f.id for f in given] == [f.id for f in judged]
    assert [f is finding for f in given] == [f.entity_id == finding.entity_id for f in judged]
