"""Every rule against its cases: small site files with the exact entity ids of each status.

One file per rule, ``tests/engine/cases/<CODE>.yaml``::

    rule: PWR-001
    cases:
      - name: one-side-too-weak          # test id: PWR-001-one-side-too-weak
        profile: tier-iii                # optional, supernode by default
        # the hand calculation that decides each entity, next to the case
        site_file: {site: {name: ...}, ...}   # a complete site document
        expect:
          fail: [bad-1]                  # exactly these ids fail THIS rule,
          pass: [ok-1]                   # exactly these pass,
          not_evaluated: [no-pf]         # exactly these are not evaluated
          missing: {no-pf: power_factor} # optional: words the not-evaluated reason must name
          severity: error                # optional: the severity of every finding of the rule
        failure: power_source:UPS-A      # optional: judge the case inside this single-failure
                                         # scenario (facility.analysis.failures), for rules that
                                         # only a failure can trip
        as_of: 2026-11-29                # optional: the report date (ages of evidence)

Ids absent from all three lists get no finding for the rule (its ``when`` does not hold, or
the entity is not in the rule's scope). Select one rule's cases with ``pytest -k PWR-001``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from facility.check import run_check
from facility.engine.rules import RuleSet, bundled_rules_dir, load_rules
from facility.model.load import load_site
from facility.model.source import read_document

CASES = Path(__file__).parent / "cases"
STATUSES = ("fail", "pass", "not_evaluated")
CASE_KEYS = {"name", "profile", "site_file", "expect", "failure", "as_of"}
EXPECT_KEYS = {*STATUSES, "missing", "severity", "observed"}

# Rules whose inputs are always known, so no site can leave them not evaluated.
ALWAYS_EVALUATED = {
    "PWR-004": "power_sides counts the declared sides; a rack without PDUs has 0",
    "PWR-008": "applies only to sources that declare modules (when: has_modules)",
    "PWR-009": "counts sides in service; a rack that declares no PDUs has 0",
    "PWR-014": "compares the declared side names above each PDU",
    "FLR-016": "a cable tray's width, depth and cables' count and diameter are all required",
    "CLU-013": "every commissioning item is judged: a missing record counts as missing",
    "CLU-022": "every monitoring layer is judged: a layer without a record misses every metric",
}


@dataclass(frozen=True)
class Case:
    rule: str
    name: str
    profile: str
    site: dict[str, Any]
    expect: dict[str, Any]
    failure: str | None = None
    as_of: dt.date | None = None

    @property
    def id(self) -> str:
        return f"{self.rule}-{self.name}"


def _read(path: Path) -> list[Case]:
    """The cases of one file, checked for shape so a typo in a key never passes silently."""
    data, _, _ = read_document(path)  # the site loader's own reader: no merge keys, no dupes
    assert set(data) == {"rule", "cases"}, f"{path.name}: top-level keys are rule and cases"
    assert data["rule"] == path.stem, f"{path.name} holds cases of {data['rule']}"
    cases = []
    for raw in data["cases"]:
        assert set(raw) <= CASE_KEYS, f"{path.name}: unknown keys {set(raw) - CASE_KEYS}"
        assert set(raw["expect"]) <= EXPECT_KEYS, (
            f"{path.name} {raw['name']}: unknown expect keys {set(raw['expect']) - EXPECT_KEYS}"
        )
        cases.append(
            Case(
                data["rule"],
                raw["name"],
                raw.get("profile", "supernode"),
                raw["site_file"],
                raw["expect"],
                raw.get("failure"),
                dt.date.fromisoformat(str(raw["as_of"])) if "as_of" in raw else None,
            )
        )
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), f"{path.name}: case names repeat"
    return cases


ALL_CASES = [case for path in sorted(CASES.glob("*.yaml")) for case in _read(path)]
# Every rule file in rules/ (not only those a profile selects).
RULE_CODES = {
    path.stem for path in bundled_rules_dir().rglob("*.yaml") if path.parent.name != "profiles"
}


@cache
def _rules(profile: str) -> RuleSet:
    return load_rules(profile=profile)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in ALL_CASES])
def test_rule_case(case: Case, tmp_path: Path) -> None:
    path = tmp_path / f"{case.id}.yaml"
    path.write_text(yaml.safe_dump(case.site, sort_keys=False), encoding="utf-8")
    site = load_site(path)
    ruleset = _rules(case.profile)
    assert ruleset.by_code(case.rule) is not None, f"{case.rule} is not in {case.profile}"

    moment = None if case.as_of is None else dt.datetime.combine(case.as_of, dt.time(), dt.UTC)
    checked = run_check(site, ruleset, generated_at=moment)  # as `facility check` does
    result = checked.result
    if case.failure is None:
        findings = [f for f in result.findings if f.rule == case.rule]
    else:
        assert checked.failures is not None, f"{case.profile} runs no single-failure analysis"
        (scenario,) = [r for r in checked.failures.results if r.scenario.id == case.failure]
        findings = [f for f in scenario.findings if f.rule == case.rule]
    ids = [f.entity_id for f in findings]
    assert len(ids) == len(set(ids)), f"an entity has two findings: {sorted(ids)}"

    observed = {s: sorted(f.entity_id for f in findings if f.status == s) for s in STATUSES}
    expected = {s: sorted(case.expect.get(s) or []) for s in STATUSES}
    assert observed == expected
    assert all(f.status in STATUSES for f in findings)  # nothing waived by a case

    by_id = {f.entity_id: f for f in findings}
    for entity_id, words in (case.expect.get("missing") or {}).items():
        reason = " ".join(by_id[entity_id].missing)
        for word in [words] if isinstance(words, str) else words:
            assert word in reason, f"{entity_id}: '{word}' not in the reason '{reason}'"
    for f in findings:
        if f.status == "not_evaluated":
            assert f.missing and all(f.missing), f"{f.entity_id} is not evaluated without a reason"
        else:
            assert f.observed is not None and f.limit is not None
    for entity_id, value in (case.expect.get("observed") or {}).items():  # in SI units
        assert by_id[entity_id].observed.value == pytest.approx(value, rel=1e-9), entity_id
    if "severity" in case.expect:
        assert {f.severity for f in findings} == {case.expect["severity"]}


def test_case_ids_are_unique() -> None:
    ids = [c.id for c in ALL_CASES]
    assert len(ids) == len(set(ids))


def test_every_rule_has_a_failing_and_a_passing_case() -> None:
    codes = RULE_CODES
    assert codes == {rule.code for rule in _rules("supernode").rules}  # file name = code
    with_cases = {c.rule for c in ALL_CASES}
    assert codes - with_cases == set(), "rules without a case file"
    assert with_cases - codes == set(), "case files for rules that do not exist"
    no_fail = {code for code in codes if not any(c.expect.get("fail") for c in _of(code))}
    no_pass = {code for code in codes if not any(c.expect.get("pass") for c in _of(code))}
    assert no_fail == set(), "rules without a case whose fail list is non-empty"
    assert no_pass == set(), "rules without a case whose pass list is non-empty"


def test_every_rule_with_inputs_that_can_be_missing_has_a_not_evaluated_case() -> None:
    codes = RULE_CODES
    lacking = {code for code in codes if not any(c.expect.get("not_evaluated") for c in _of(code))}
    assert lacking == set(ALWAYS_EVALUATED)
    for code in codes - set(ALWAYS_EVALUATED):
        named = [c for c in _of(code) if c.expect.get("missing")]
        assert named, f"{code}: a not-evaluated case must name the missing input (expect.missing)"


def _of(code: str) -> list[Case]:
    return [c for c in ALL_CASES if c.rule == code]
