"""JUnit XML output: one test case per rule × entity, counts that add up, always well-formed."""

from __future__ import annotations

import dataclasses
import datetime as dt
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from facility.model.waivers import Waiver
from facility.report.context import ReportInput
from facility.report.junit import clean, render_junit

from ._hall_b3 import FAILING, SITE, WAIVED, Lines, build_report


@pytest.fixture(scope="module")
def text(report: ReportInput) -> str:
    return render_junit(report)


@pytest.fixture(scope="module")
def root(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


VERDICT_SUITE = "facility verdict and coverage"


def rule_suites(root: ET.Element) -> list[ET.Element]:
    """The suites of the rules (the first suite is the verdict's and coverage's)."""
    return [s for s in root.findall("testsuite") if s.get("name") != VERDICT_SUITE]


def cases(root: ET.Element) -> dict[tuple[str, str], ET.Element]:
    """(rule code, entity id) -> its test case."""
    return {
        (case.get("classname", ""), case.get("name", "").split(" ", 1)[1]): case
        for suite in rule_suites(root)
        for case in suite.iter("testcase")
    }


def test_document_shape(text: str, root: ET.Element, report: ReportInput) -> None:
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')
    assert text.endswith("</testsuites>\n")
    assert root.tag == "testsuites"
    assert root.get("name") == "facility check Hall B3"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [VERDICT_SUITE] + [
        f"{rule.code} {rule.spec.title}" for rule in report.ruleset.rules
    ]
    assert all(s.get("timestamp") == "2026-11-29T12:00:00" for s in suites)


def test_the_first_suite_holds_the_verdict_and_the_coverage(
    root: ET.Element, report: ReportInput
) -> None:
    suite = root.findall("testsuite")[0]
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["verdict"] == "not-ready"
    assert properties["summary"].startswith("At least one check at error severity fails")
    verdict, *areas = suite.findall("testcase")
    failure = verdict.find("failure")
    assert failure is not None and failure.get("message") == "Not ready"
    # Hall B3 models no busway or UPS: the power area says so, as a skipped case.
    power = next(c for c in areas if c.get("classname") == "facility.coverage.power")
    skipped = power.find("skipped")
    assert skipped is not None
    assert "upstream of the rack PDUs is not audited" in skipped.get("message", "")
    assert suite.get("tests") == str(1 + len(areas))
    assert suite.get("failures") == "1"
    assert suite.get("skipped") == str(sum(1 for c in areas if c.find("skipped") is not None))


def test_one_case_per_rule_and_entity(root: ET.Element, report: ReportInput) -> None:
    found = cases(root)
    in_rule_suites = sum(len(s.findall("testcase")) for s in rule_suites(root))
    assert len(found) == in_rule_suites == len(report.result.findings)
    assert set(found) == {(f.rule, f.entity_id) for f in report.result.findings}
    a01 = found[("PWR-001", "A01")]
    assert a01.get("name") == "rack A01"
    assert a01.get("file") == SITE


def test_counts_match_the_audit(root: ET.Element, report: ReportInput) -> None:
    counts = report.result.counts()
    first = root.findall("testsuite")[0]
    extra = {key: int(first.get(key, "0")) for key in ("tests", "failures", "skipped")}
    assert root.get("tests") == str(len(report.result.findings) + extra["tests"])
    assert root.get("failures") == str(counts["fail"] + extra["failures"])
    assert root.get("skipped") == str(counts["not_evaluated"] + counts["waived"] + extra["skipped"])
    assert root.get("errors") == "0"
    by_rule = Counter((f.rule, f.status) for f in report.result.findings)
    for suite in rule_suites(root):
        code = suite.get("name", "").split(" ", 1)[0]
        members = suite.findall("testcase")
        assert suite.get("tests") == str(len(members))
        assert suite.get("failures") == str(by_rule[code, "fail"])
        assert suite.get("failures") == str(
            sum(1 for c in members if c.find("failure") is not None)
        )
        assert suite.get("skipped") == str(by_rule[code, "not_evaluated"] + by_rule[code, "waived"])
        assert suite.get("skipped") == str(sum(1 for c in members if c.find("skipped") is not None))
        assert all(c.get("classname") == code for c in members)


def test_failures_are_the_failing_findings(root: ET.Element, lines: Lines) -> None:
    found = cases(root)
    failing = {key for key, case in found.items() if case.find("failure") is not None}
    assert failing == FAILING - {WAIVED}
    failure = found[("PWR-001", "A01")].find("failure")
    assert failure is not None
    assert failure.get("type") == "error"
    assert failure.get("message", "").startswith(
        "163.2 kVA violates the limit: must be ≤ 144.9 kVA"
    )
    assert "I = 63 A" in (failure.text or "")
    assert f"defined at {SITE}:{lines.row_racks['A']}:5" in (failure.text or "")
    assert found[("PWR-001", "A01")].get("line") == str(lines.row_racks["A"])
    assert found[("LIQ-004", "TCS-B")].get("line") == str(lines.loops["TCS-B"])


def test_not_evaluated_is_skipped_with_the_missing_input(
    root: ET.Element, report: ReportInput
) -> None:
    found = cases(root)
    unevaluated = [f for f in report.result.findings if f.status == "not_evaluated"]
    assert unevaluated
    for f in unevaluated:
        skipped = found[f.rule, f.entity_id].find("skipped")
        assert skipped is not None
        assert skipped.get("message") == "not evaluated: " + "; ".join(f.missing)


def test_waived_is_skipped_not_failed(root: ET.Element) -> None:
    case = cases(root)[WAIVED]
    assert case.find("failure") is None
    skipped = case.find("skipped")
    assert skipped is not None
    message = skipped.get("message", "")
    assert message.startswith("waived: Spreader plates under B07 are ordered")
    assert "J. Doe (facilities)" in message and "2027-03-31" in message and "FAC-1234" in message
    assert "violates (waived)" in (skipped.text or "")


def test_passing_cases_are_empty(root: ET.Element, report: ReportInput) -> None:
    found = cases(root)
    for f in report.result.findings:
        if f.status == "pass":
            assert len(found[f.rule, f.entity_id]) == 0


def test_deterministic(report: ReportInput, text: str) -> None:
    assert render_junit(report) == text
    assert render_junit(build_report()) == text
    shuffled = dataclasses.replace(report.result, findings=list(reversed(report.result.findings)))
    assert render_junit(dataclasses.replace(report, result=shuffled)) == text


def test_hostile_names_are_escaped_and_control_characters_removed(report: ReportInput) -> None:
    nasty = "R<1> & \"q\" 's' ]]> \x00\x01\x08\x0b\x1b\ufffe\ud800 end"
    findings = [
        dataclasses.replace(f, entity_id=nasty, title=nasty)
        if (f.rule, f.entity_id) in (("PWR-001", "A01"), WAIVED)
        else f
        for f in report.result.findings
    ]
    waiver = Waiver(
        rule="FLR-001",
        entity="B07",
        reason='<b>ok</b> & "fine"\x07',
        owner="O'Neil <o@x>",
        expires=dt.date(2027, 1, 1),
        ticket="T&1",
    )
    waivers = dataclasses.replace(
        report.waivers, by_finding={f"FLR-001:rack:{nasty}": waiver}, records=[]
    )
    result = dataclasses.replace(report.result, findings=findings, site_name=nasty)
    text = render_junit(dataclasses.replace(report, result=result, waivers=waivers))
    root = ET.fromstring(text.encode("utf-8"))  # well-formed
    expected = "R<1> & \"q\" 's' ]]>  end"
    assert clean(nasty) == expected
    assert root.get("name") == f"facility check {expected}"
    names = {c.get("name") for c in root.iter("testcase")}
    assert f"rack {expected}" in names
    assert "R<1>" not in text and "R&lt;1&gt; &amp; " in text  # escaped, not raw markup
    skipped = next(
        c.find("skipped")
        for c in root.iter("testcase")
        if c.get("name") == f"rack {expected}" and c.get("classname") == "FLR-001"
    )
    assert skipped is not None
    assert skipped.get("message", "").startswith('waived: <b>ok</b> & "fine" (owner: O\'Neil <o@x>')
