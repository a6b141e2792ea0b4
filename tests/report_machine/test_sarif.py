"""SARIF 2.1.0 output: valid against the OASIS schema, stable ids, locations on the right lines."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema.validators import validator_for

from facility.engine.findings import AuditResult
from facility.report.context import ReportInput
from facility.report.sarif import FINGERPRINT, LEVELS, artifact_uri, render_sarif

from ._hall_b3 import DATA, FAILING, PDUS_A, SITE, WAIVED, Lines, build_report


@cache
def validator() -> Any:
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    cls = validator_for(schema)  # the draft the schema declares (draft-04)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def assert_valid(log: dict[str, Any]) -> None:
    errors = sorted(validator().iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in errors[:10]
    )


@pytest.fixture(scope="module")
def log(report: ReportInput) -> dict[str, Any]:
    return json.loads(render_sarif(report))


def results_by_key(log: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (r["ruleId"], r["locations"][0]["logicalLocations"][0]["name"]): r
        for r in log["runs"][0]["results"]
    }


def test_validates_against_the_sarif_schema(log: dict[str, Any]) -> None:
    assert validator().__class__.__name__ == "Draft4Validator"
    assert log["$schema"].endswith("sarif-schema-2.1.0.json")
    assert log["version"] == "2.1.0"
    assert len(log["runs"]) == 1
    assert_valid(log)


def test_the_schema_rejects_a_broken_log(log: dict[str, Any]) -> None:
    # the validator is not vacuous: a level SARIF does not know is refused
    broken = json.loads(json.dumps(log))
    broken["runs"][0]["results"][0]["level"] = "critical"
    assert list(validator().iter_errors(broken))


def test_rules_are_the_rule_set_with_stable_ids(report: ReportInput, log: dict[str, Any]) -> None:
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "facility"
    assert "informationUri" not in driver
    rules = driver["rules"]
    assert [r["id"] for r in rules] == [rule.code for rule in report.ruleset.rules]
    for descriptor, rule in zip(rules, report.ruleset.rules, strict=True):
        assert descriptor["name"] == rule.spec.name
        assert descriptor["shortDescription"]["text"] == rule.spec.title
        assert descriptor["fullDescription"]["text"] == " ".join(rule.spec.requirement.split())
        assert descriptor["defaultConfiguration"]["level"] == LEVELS[rule.severity]
        assert descriptor["properties"]["area"] == rule.spec.area
        assert descriptor["properties"]["scope"] == rule.spec.scope
        assert descriptor["properties"]["tags"] == rule.spec.tags
        help_ = descriptor["help"]
        assert " ".join(rule.spec.why.split()) in help_["text"]
        for ref in rule.spec.references:
            assert ref in help_["text"] and ref in help_["markdown"]
        if rule.spec.known_problems:
            assert " ".join(rule.spec.known_problems.split()) in help_["markdown"]
    pwr1 = next(r for r in rules if r["id"] == "PWR-001")
    assert pwr1["name"] == "power.side_cannot_carry_rack"
    assert pwr1["defaultConfiguration"]["level"] == "error"  # tier-iii raises single-failure
    assert pwr1["properties"]["tags"] == ["single-failure"]


def test_results_point_at_their_rule(log: dict[str, Any]) -> None:
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        entity = result["locations"][0]["logicalLocations"][0]
        assert result["partialFingerprints"] == {
            FINGERPRINT: f"{result['ruleId']}:{entity['kind']}:{entity['name']}"
        }


def test_one_result_per_failing_waived_or_unevaluated_finding(
    report: ReportInput, log: dict[str, Any]
) -> None:
    results = results_by_key(log)
    counts = report.result.counts()
    assert len(log["runs"][0]["results"]) == len(results)  # no duplicates
    assert len(results) == counts["fail"] + counts["waived"] + counts["not_evaluated"]
    failing = {k for k, r in results.items() if r["kind"] == "fail" and "suppressions" not in r}
    assert failing == FAILING - {WAIVED}
    passing = {(f.rule, f.entity_id) for f in report.result.findings if f.status == "pass"}
    assert not passing & set(results)


def test_failing_results_are_on_the_entitys_line(log: dict[str, Any], lines: Lines) -> None:
    results = results_by_key(log)
    for key in FAILING:
        rule, entity = key
        physical = results[key]["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"] == {
            "uri": SITE,
            "uriBaseId": "%SRCROOT%",
            "index": 0,
        }
        line = physical["region"]["startLine"]
        assert physical["region"]["startColumn"] >= 1
        if rule in ("LIQ-002", "LIQ-004"):
            assert line == lines.loops[entity], key  # the loop's `- id:` line
        elif rule == "PWR-003":
            first, end = lines.row_span[entity[0]]
            assert first <= line < end, key  # a generated PDU: within its row
        elif rule == "RED-001":  # a single failure: where its element is written
            kind, element = entity.split(":", 1)
            if kind == "rack_side":
                assert line == lines.rack(element), key
            else:
                assert line == lines.cooling[element], key
        else:
            assert line == lines.rack(entity), key  # a generated rack: the row's `racks:`
    assert results[("PWR-001", "A01")]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": lines.row_racks["A"],
        "startColumn": 5,
    }
    assert {("PWR-003", p) for p in PDUS_A} <= set(results)


def test_levels_and_messages(log: dict[str, Any]) -> None:
    results = results_by_key(log)
    a01 = results[("PWR-001", "A01")]
    assert a01["kind"] == "fail"
    assert a01["level"] == "error"
    text = a01["message"]["text"]
    # 155 kW / 0.95 = 163.2 kVA against 4 · √3 · 415 V · 63 A · 0.8 = 144.9 kVA
    assert text.startswith("PWR-001 rack A01: 163.2 kVA violates the limit: must be ≤ 144.9 kVA")
    assert "margin -18.2 kVA" in text
    assert "√3 · V_LL · I · DF" in text and "I = 63 A" in text
    assert a01["properties"]["observed"]["text"] == "163.2 kVA"


def test_waived_finding_is_an_accepted_external_suppression(log: dict[str, Any]) -> None:
    results = results_by_key(log)
    waived = results[WAIVED]
    assert waived["kind"] == "fail"
    assert waived["level"] == "error"
    assert waived["properties"]["status"] == "waived"
    (suppression,) = waived["suppressions"]
    assert suppression["kind"] == "external"
    assert suppression["status"] == "accepted"
    justification = suppression["justification"]
    assert justification.startswith("Spreader plates under B07 are ordered")
    assert "J. Doe (facilities)" in justification
    assert "2027-03-31" in justification and "FAC-1234" in justification
    where = suppression["location"]["physicalLocation"]
    assert where["artifactLocation"]["uri"] == "tests/report_machine/data/hall-b3-waivers.yaml"
    assert where["region"]["startLine"] == 3
    assert "Waived:" in waived["message"]["text"]
    others = [r for k, r in results.items() if k != WAIVED]
    assert not any("suppressions" in r for r in others)


def test_not_evaluated_checks_are_open_results(report: ReportInput, log: dict[str, Any]) -> None:
    unevaluated = {
        (f.rule, f.entity_id): f for f in report.result.findings if f.status == "not_evaluated"
    }
    assert unevaluated  # FLR-004 and LIQ-014 lack inputs in Hall B3
    results = results_by_key(log)
    for key, finding in unevaluated.items():
        result = results[key]
        assert result["kind"] == "open"
        assert result["level"] == "none"  # SARIF: any kind but "fail" has level "none"
        assert result["message"]["text"].startswith(f"{key[0]} ")
        assert "not evaluated: " + finding.missing[0] in result["message"]["text"]
        assert result["properties"]["severity"] == finding.severity
        assert result["properties"]["missing"] == list(finding.missing)


def test_invocation_and_run_properties(report: ReportInput, log: dict[str, Any]) -> None:
    run = log["runs"][0]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is True
    assert invocation["endTimeUtc"] == "2026-11-29T12:00:00Z"
    assert "toolConfigurationNotifications" not in invocation  # the one waiver applied
    (artifact,) = run["artifacts"]
    assert artifact["location"]["uri"] == SITE
    assert artifact["hashes"] == {"sha-256": report.result.site_sha256}
    assert run["properties"]["verdict"] == "not-ready"
    assert run["properties"]["profile"] == "frozen-tier-iii"  # (tests/frozen_rules)


def test_expired_and_stale_waivers_are_notifications(tmp_path: Path) -> None:
    waivers = tmp_path / "waivers.yaml"
    waivers.write_text(
        "waivers:\n"
        "  - {rule: PWR-001, entity: A01, reason: old, owner: x, expires: 2020-01-01}\n"
        "  - {rule: power.side_cannot_carry_rack, entity: B01, reason: none, owner: y,"
        " expires: 2030-01-01}\n",
        encoding="utf-8",
    )
    log = json.loads(render_sarif(build_report(waivers=(str(waivers),))))
    assert_valid(log)
    notes = log["runs"][0]["invocations"][0]["toolConfigurationNotifications"]
    assert [n["descriptor"]["id"] for n in notes] == ["waiver-expired", "waiver-stale"]
    assert [n["associatedRule"]["id"] for n in notes] == ["PWR-001", "PWR-001"]
    assert notes[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    assert notes[1]["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    # an absolute path given on the command line is a file: URI with no base
    location = notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": waivers.as_uri()}
    results = results_by_key(log)
    assert "suppressions" not in results[("PWR-001", "A01")]  # expired: fails again


def test_info_severity_is_a_note() -> None:
    log = json.loads(render_sarif(build_report(profile=str(DATA / "profile-info.yaml"))))
    assert_valid(log)
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["FLR-001"]["defaultConfiguration"]["level"] == "note"
    levels = {r["level"] for r in log["runs"][0]["results"] if r["ruleId"] == "FLR-001"}
    assert levels == {"note"}


def test_artifact_uris() -> None:
    assert artifact_uri("examples/hall-b3.yaml") == ("examples/hall-b3.yaml", "%SRCROOT%")
    assert artifact_uri("./sites/hall b#3.yaml") == ("sites/hall%20b%233.yaml", "%SRCROOT%")
    assert artifact_uri("/srv/sites/b3.yaml") == ("file:///srv/sites/b3.yaml", None)


def test_deterministic(report: ReportInput) -> None:
    first = render_sarif(report)
    assert render_sarif(report) == first
    assert render_sarif(build_report()) == first  # a fresh load, audit and waiver pass
    shuffled = dataclasses.replace(report.result, findings=list(reversed(report.result.findings)))
    assert isinstance(shuffled, AuditResult)
    assert render_sarif(dataclasses.replace(report, result=shuffled)) == first
    assert first.endswith("}\n")


def test_hostile_names_stay_valid_json(report: ReportInput) -> None:
    nasty = "<script>alert(\"x\")</script> & 'q' \x01\x1b"
    findings = [
        dataclasses.replace(f, entity_id=nasty)
        if (f.rule, f.entity_id) == ("PWR-001", "A01")
        else f
        for f in report.result.findings
    ]
    result = dataclasses.replace(report.result, findings=findings, site_name=nasty)
    text = render_sarif(dataclasses.replace(report, result=result))
    log = json.loads(text)
    assert_valid(log)
    assert "\x01" not in text and "\\u0001" in text
    names = [r["locations"][0]["logicalLocations"][0]["name"] for r in log["runs"][0]["results"]]
    assert nasty in names
