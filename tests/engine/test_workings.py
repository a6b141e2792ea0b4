"""A working names what it puts in: every input symbol a finding lists appears in its formula.

A reader checks a working by substituting the listed inputs into the formula; an input the
formula does not name ("√3 · V_LL · I · DF" with "V = 415 V") cannot be substituted. Checked
over every finding of every example, normal operation and each single-failure scenario.
Allowed: the count of a sum's terms ("n_racks" beside "Σ P · f_liq"), and a symbol qualified by
the entity it belongs to ("T_max,gb300-b3" for "min T_max over the rack types").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from facility.check import run_check
from facility.engine.rules import load_rules
from facility.model.load import load_site

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))


def unnamed_inputs(formula: str, inputs) -> list[str]:
    missing = []
    for symbol, _, kind in inputs:
        name = symbol.split(",", 1)[0]  # "T_max,gb300-b3" → "T_max"
        if re.search(r"(?<![\w])" + re.escape(name) + r"(?![\w])", formula):
            continue
        if kind == "count" and name.startswith("n_") and "Σ" in formula:
            continue  # the number of a sum's terms
        missing.append(symbol)
    return missing


def test_the_check_of_unnamed_inputs_can_fail() -> None:
    assert unnamed_inputs("√3 · V_LL · I · DF", [("V", 415.0, "voltage")]) == ["V"]
    assert unnamed_inputs("S / B_write", [("t_write", 1.0, "time")]) == ["t_write"]
    assert unnamed_inputs("max over rack types", [("n_racks", 4.0, "count")]) == ["n_racks"]
    assert unnamed_inputs("√3 · V_LL · I · DF", [("V_LL", 415.0, "voltage")]) == []


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_every_input_of_a_working_is_in_its_formula(example) -> None:
    checked = run_check(load_site(example), load_rules(profile="tier-iii"), generated_at=None)
    findings = list(checked.result.findings)
    assert checked.failures is not None
    for outcome in checked.failures.results:
        findings += outcome.changed
    bad = {}
    for finding in findings:
        for value in (finding.observed, finding.limit):
            if value is None or not value.inputs:
                continue
            missing = unnamed_inputs(str(value.formula), value.inputs)
            if missing:
                bad[(finding.rule, str(value.formula))] = missing
    assert bad == {}
    assert len(findings) > 100
