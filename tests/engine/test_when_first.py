"""A rule's ``when`` is judged before anything else it reads: on an entity it does not apply
to, only the quantities the condition names are computed (on a campus most PDUs have no
outlet banks, and the bank and line checks of each computed its currents, unknown, for
nothing). Where it applies, the finding is the one judged with everything computed first."""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from facility.engine.evaluate import evaluate_entities
from facility.engine.quantities import catalogue, scopes
from facility.engine.rules import load_rules
from facility.model.load import load_site
from tests.engine.test_phase_failures import SITE as PHASES_SITE

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


def test_a_rule_that_does_not_apply_computes_only_its_condition(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(60, path)  # its PDUs declare no banks
    campus = load_site(path)
    banked = tmp_path / "banked.yaml"  # two of its racks have three-phase PDUs with banks
    banked.write_text(yaml.safe_dump(PHASES_SITE, sort_keys=False), encoding="utf-8")
    site = load_site(banked)
    ruleset = load_rules(profile="supernode")
    computed: Counter[str] = Counter()
    for quantities in catalogue().values():
        for name, spec in list(quantities.items()):

            def compute(ctx: Any, entity: Any, _spec: Any = spec) -> Any:
                computed[_spec.name] += 1
                return _spec.compute(ctx, entity)

            monkeypatch.setitem(quantities, name, dataclasses.replace(spec, compute=compute))
    rule = next(r for r in ruleset.rules if r.code == "PWR-016")  # when: has_three_phase_banks
    for one, applies in ((campus, False), (site, True)):
        computed.clear()
        pdus = list(scopes()["pdu"].entities(one))
        findings = evaluate_entities(one, ruleset, [rule], {"pdu": pdus})
        assert (0 < len(findings) < len(pdus)) is applies
        assert computed["has_three_phase_banks"] == len(pdus)
        # the line current and the rating only where the rule applies
        assert computed["worst_phase_current_after_side_loss"] == len(findings)
        assert computed["phase_current_rating"] == len(findings)
