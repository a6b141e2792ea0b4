"""JUnit XML: the findings as test results, for CI dashboards.

``<testsuites>`` holds one ``<testsuite>`` per rule of the rule set, in rule-code order (name:
code and title; a rule that applied to no entity is an empty suite), and each suite one
``<testcase>`` per entity the rule was applied to (classname: the rule code; name: entity kind
and id; ``file`` and ``line``: where the entity is written in the site file). A test case is

- passing for a passing check;
- ``<failure>`` for a failing finding: ``message`` is the one-line finding, ``type`` the
  severity under the profile, the text how observed value and limit were computed;
- ``<skipped message="not evaluated: …">`` for a check that could not run, naming the missing
  input (missing data is never a pass, and not a failure of the tests either);
- ``<skipped message="waived: …">`` for a waived finding. A waived finding did run and did
  violate its limit, so it is not shown as passing (a ``<system-out>`` note on a green test
  is invisible on most dashboards); skipped keeps it visible and counted, and never fails the
  run. The text holds the waiver (reason, owner, expiry, ticket) and the figures.

Counts on every suite and on ``<testsuites>``: ``tests``, ``failures``, ``errors`` (always 0:
an audit that cannot run exits 2 and writes no report) and ``skipped`` (not evaluated plus
waived). Strings are escaped by ElementTree, and characters XML 1.0 cannot carry (control
characters, lone surrogates, U+FFFE/U+FFFF) are removed first, so the document is always
well-formed; so are DEL, the C1 and the bidi controls, which XML can carry but no viewer
should act on. The only time in it is the report's ``generated_at``, so the same input gives the
same bytes.

Suite names (code and title), requirements, messages and texts are in the report's language;
test case names and class names (kind, id, rule code) are not translated, so a dashboard's
history of a test case does not depend on the language of the run.
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET

from facility.engine.findings import Finding
from facility.engine.rules import Rule
from facility.model.waivers import Waiver
from facility.report.context import ReportInput
from facility.report.coverage_view import coverage_lines, verdict_sentence
from facility.report.findings_view import message, working
from facility.report.i18n import _
from facility.report.power_account_view import power_account_lines
from facility.report.presenting import for_people
from facility.report.sarif import waiver_text
from facility.report.words import entity_kind_name, verdict_word

__all__ = ["clean", "details", "junit_tree", "render_junit", "waiver_text"]

# Characters outside XML 1.0's Char production, and those it allows but a dashboard or a
# terminal would act on: CR, DEL, the C1 controls, bidi controls and the line separators.
_NOT_XML = re.compile(
    "[^\t\n\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
    "|[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)


def clean(text: object) -> str:
    """``text`` as a string XML 1.0 can hold, inert: the characters above are dropped."""
    return _NOT_XML.sub("", str(text))


def _element(parent: ET.Element, tag: str, text: str | None = None, **attrib: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {k: clean(v) for k, v in attrib.items()})
    if text:
        element.text = clean(text)
    return element


def _timestamp(moment: dt.datetime) -> str:
    """ISO 8601 in UTC without a zone, as the JUnit schema's ``timestamp`` wants it."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.UTC).replace(tzinfo=None)
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


def details(f: Finding, title: str | None = None) -> str:
    """Where the entity is, and how observed value and limit were computed (``title``: the
    rule's title in the report's language, else the finding's own)."""
    lines = [
        f"{f.rule} {f.title if title is None else title}",
        _("%(kind)s %(entity)s: %(message)s")
        % {"kind": entity_kind_name(f.entity_kind), "entity": f.entity_id, "message": message(f)},
    ]
    if f.location is not None:
        lines.append(_("defined at %(where)s") % {"where": f.location})
    observed, limit = working(f.observed, f.kind), working(f.limit, f.kind)
    if observed:
        lines.append(_("observed: %(working)s") % {"working": observed})
    if limit:
        lines.append(_("limit: %(working)s") % {"working": limit})
    return "\n".join(lines) + "\n"


def _testcase(suite: ET.Element, f: Finding, waiver: Waiver | None, title: str) -> str:
    """Add the test case of ``f``; returns its outcome: pass, failure or skipped."""
    attrib = {"classname": f.rule, "name": f"{f.entity_kind} {f.entity_id}"}
    if f.location is not None:
        attrib |= {"file": f.location.file, "line": str(f.location.line)}
    case = _element(suite, "testcase", **attrib)
    if f.status == "fail":
        _element(case, "failure", details(f, title), message=message(f), type=f.severity)
        return "failure"
    if f.status == "not_evaluated":
        _element(case, "skipped", details(f, title), message=message(f))
        return "skipped"
    if f.status == "waived":
        why = waiver_text(waiver) if waiver is not None else _("accepted by a waiver")
        waived = _("waived: %(waiver)s") % {"waiver": why}
        _element(case, "skipped", f"{waived}\n{details(f, title)}", message=waived)
        return "skipped"
    return "pass"


# Count attributes, created in this order and filled in once the test cases are known.
_ZERO = {"tests": "0", "failures": "0", "errors": "0", "skipped": "0"}


def _counts(element: ET.Element, outcomes: list[str]) -> None:
    element.set("tests", str(len(outcomes)))
    element.set("failures", str(outcomes.count("failure")))
    element.set("errors", "0")
    element.set("skipped", str(outcomes.count("skipped")))


def _suite(
    root: ET.Element, rule: Rule, findings: list[Finding], report: ReportInput, stamp: str
) -> list[str]:
    spec = rule.spec
    words = spec.text(report.lang)
    suite = _element(root, "testsuite", name=f"{spec.code} {words.title}", **_ZERO)
    suite.set("timestamp", stamp)
    properties = _element(suite, "properties")
    for name, value in (
        ("rule", spec.name),
        ("severity", rule.severity),
        ("area", spec.area),
        ("scope", spec.scope),
        ("requirement", " ".join(words.requirement.split())),
    ):
        _element(properties, "property", name=name, value=value)
    outcomes = [
        _testcase(suite, f, report.waivers.by_finding.get(f.id), words.title)
        for f in sorted(findings, key=lambda f: (f.entity_kind, f.entity_id))
    ]
    _counts(suite, outcomes)
    return outcomes


def _verdict_suite(root: ET.Element, report: ReportInput, stamp: str) -> list[str]:
    """A first suite for the verdict (a failure when not ready or incomplete, its sentence as
    the message) and the coverage (an area with something not modelled is skipped, saying
    what)."""
    result = report.result
    suite = _element(root, "testsuite", name=_("facility verdict and coverage"), **_ZERO)
    suite.set("timestamp", stamp)
    summary = verdict_sentence(result)
    properties = _element(suite, "properties")
    _element(properties, "property", name="verdict", value=result.verdict)
    _element(properties, "property", name="summary", value=summary)
    for line in power_account_lines(result.power_account):
        text = f"{line.total} = {line.parts}" + (f"; {line.note}" if line.note else "")
        _element(properties, "property", name=line.key, value=text)
    # Case names are identities: the same in every language (their messages are translated).
    case = _element(suite, "testcase", name="verdict", classname="facility.verdict")
    outcomes = ["pass"]
    if result.verdict in ("not-ready", "incomplete"):
        _element(case, "failure", summary, message=verdict_word(result.verdict), type="verdict")
        outcomes = ["failure"]
    for row in coverage_lines(result.coverage):
        case = _element(
            suite,
            "testcase",
            name=f"coverage {row.area}",
            classname=f"facility.coverage.{row.area}",
        )
        text = "\n".join([row.judged, *row.not_modelled])
        if row.not_modelled:
            _element(case, "skipped", text, message=_("not modelled: %(what)s")
                     % {"what": "; ".join(row.not_modelled)})  # fmt: skip
            outcomes.append("skipped")
        else:
            _element(case, "system-out", text)
            outcomes.append("pass")
    _counts(suite, outcomes)
    return outcomes


def junit_tree(report: ReportInput) -> ET.Element:
    result = report.result
    root = ET.Element("testsuites", {"name": clean(f"facility check {result.site_name}"), **_ZERO})
    by_rule: dict[str, list[Finding]] = {}
    for f in result.findings:
        by_rule.setdefault(f.rule, []).append(f)
    stamp = _timestamp(report.generated_at)
    outcomes: list[str] = _verdict_suite(root, report, stamp)
    for rule in report.ruleset.rules:
        outcomes += _suite(root, rule, by_rule.get(rule.code, []), report, stamp)
    _counts(root, outcomes)
    return root


def render_junit(report: ReportInput) -> str:
    """The JUnit XML document (UTF-8, with an XML declaration and a trailing newline)."""
    with for_people(report):
        root = junit_tree(report)
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
