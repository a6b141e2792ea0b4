"""Root causes (facility.report.causes): one cause, once.

Hall B3's 107 failing checks are six causes; a finding that follows from another (by the
rules' ``follows`` and ``foresees``) sits under that cause; one whose declared origin does not
fail stays a cause of its own.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from facility.engine.findings import Finding
from facility.engine.quantities import Value
from facility.engine.rules import bundled_rules_dir, load_rules
from facility.report.causes import Cause, cause_count, cause_label, report_causes, root_causes
from facility.report.context import ReportInput
from facility.report.entity_runs import judged_orders
from facility.report.i18n import using_language


def _summary(causes: list[Cause]) -> list[tuple[str, list[str], dict[str, int]]]:
    """(root rule, root entities, rule → findings) per cause, in order."""
    return [(c.root.rule, c.root.entity_ids, c.rules) for c in causes]


def test_hall_b3_has_six_causes(hall_b3: ReportInput) -> None:
    report = hall_b3
    causes = report_causes(report.result, report.ruleset, report.site, report.failures)
    # Worked by hand from examples/hall-b3.yaml (tier-iii: every single-failure rule an error):
    # 1. PWR-001 on A01 … A08: 155 kW / 0.95 = 163.2 kVA > one side's 4 · √3 · 415 V · 63 A
    #    · 0.8 = 144.9 kVA. PWR-003 on their 8 · 2 · 4 = 64 PDUs follows from it (a PDU's
    #    rack); RED-001 on their 16 rack sides: each loss makes PWR-002 fail on the 4 PDUs
    #    left, which PWR-003 foresees for a rack-side loss and fails on: 8 + 64 + 16 = 88.
    # 2. FLR-001 on B01 … B12 (1,100 kg on 0.6 m · 1.2 m = 15.0 kPa > 12.0 kPa): 12.
    # 3. LIQ-004 on TCS-A (1,457 L/min > 1,200 L/min with one of its two CDUs out); RED-001
    #    on CDU-A1 and CDU-A2: each loss makes LIQ-003 fail on TCS-A, which LIQ-004 foresees
    #    for a CDU loss: 1 + 2 = 3.
    # 4. LIQ-002 on TCS-B (its one CDU out leaves 0.0 kW for 326.4 kW); RED-001 on CDU-B1: the
    #    loss makes LIQ-001 (foreseen by LIQ-002) and LIQ-009 fail on TCS-B: 1 + 1 = 2.
    # 5. LIQ-004 on TCS-B: 590 L/min > 0 L/min, other figures than TCS-A's, and no rule says
    #    it follows from LIQ-002: a cause of its own, 1.
    # 6. RED-001 on facility water FW-1: its loss makes LIQ-001 and LIQ-009 fail on both
    #    loops; LIQ-002 fails on TCS-B but foresees only a CDU's loss: its own cause, 1.
    # All errors: ordered by count, then rule code (LIQ-004 before RED-001).
    assert _summary(causes) == [
        ("PWR-001", [f"A0{i}" for i in range(1, 9)], {"PWR-001": 8, "PWR-003": 64, "RED-001": 16}),
        ("FLR-001", [f"B{i:02}" for i in range(1, 13)], {"FLR-001": 12}),
        ("LIQ-004", ["TCS-A"], {"LIQ-004": 1, "RED-001": 2}),
        ("LIQ-002", ["TCS-B"], {"LIQ-002": 1, "RED-001": 1}),
        ("LIQ-004", ["TCS-B"], {"LIQ-004": 1}),
        ("RED-001", ["facility_water:FW-1"], {"RED-001": 1}),
    ]
    # every failing finding is in exactly one cause
    failing = sorted(f.id for f in report.result.findings if f.status == "fail")
    assert sorted(f.id for c in causes for f in c.findings) == failing
    assert len(failing) == 107
    red = {f.entity_id for f in causes[2].findings if f.rule == "RED-001"}
    assert red == {"cdu:CDU-A1", "cdu:CDU-A2"}


def test_a_cause_in_words(hall_b3: ReportInput) -> None:
    report = hall_b3
    causes = report_causes(report.result, report.ruleset, report.site, report.failures)
    orders = judged_orders(report.result.findings)
    with using_language("en"):
        first = causes[0]
        label = cause_label(first, "One power side cannot carry the whole rack", orders)
        assert label == "A01 … A08 (8 racks): One power side cannot carry the whole rack"
        assert cause_count(first) == "88 failing checks: PWR-001 ×8, PWR-003 ×64, RED-001 ×16"
        assert cause_count(causes[-1]) == "1 failing check: RED-001 ×1"


# A synthetic case: two racks, each with one PDU; only the findings and the rules matter.
SITE: Any = SimpleNamespace(pdus={"R1-A1": SimpleNamespace(rack="R1"),
                                  "R2-A1": SimpleNamespace(rack="R2")})  # fmt: skip


def _finding(rule: str, kind: str, entity: str, status: str, observed: float = 1.0) -> Finding:
    return Finding(
        rule, rule.lower(), rule, "power", "error", status,  # type: ignore[arg-type]
        kind, entity, None, "apparent_power", Value(observed), Value(0.0), -observed, "≤",
    )  # fmt: skip


@pytest.fixture(scope="module")
def rules() -> Any:
    return load_rules([bundled_rules_dir()], "tier-iii")


def test_pwr_003_without_pwr_001_is_its_own_cause(rules: Any) -> None:
    # R1's PDU overloads after the other side is lost, but the rack's side capacity holds
    # (PWR-001 passes on R1): nothing it follows from fails, so it is a cause.
    findings = [
        _finding("PWR-001", "rack", "R1", "pass"),
        _finding("PWR-003", "pdu", "R1-A1", "fail"),
    ]
    causes = root_causes(findings, rules, site=SITE)
    assert _summary(causes) == [("PWR-003", ["R1-A1"], {"PWR-003": 1})]


def test_pwr_003_follows_pwr_001_on_its_own_rack_only(rules: Any) -> None:
    # PWR-001 fails on R1: R1's PDU follows from it; R2's PDU does not (PWR-001 passes there)
    findings = [
        _finding("PWR-001", "rack", "R1", "fail", 2.0),
        _finding("PWR-001", "rack", "R2", "pass"),
        _finding("PWR-003", "pdu", "R1-A1", "fail"),
        _finding("PWR-003", "pdu", "R2-A1", "fail"),
    ]
    causes = root_causes(findings, rules, site=SITE)
    assert _summary(causes) == [
        ("PWR-001", ["R1"], {"PWR-001": 1, "PWR-003": 1}),
        ("PWR-003", ["R2-A1"], {"PWR-003": 1}),
    ]
    # without the site (no relation from a PDU to its rack) nothing is merged: the two PDUs'
    # identical figures are one group, the larger cause first
    assert _summary(root_causes(findings, rules)) == [
        ("PWR-003", ["R1-A1", "R2-A1"], {"PWR-003": 2}),
        ("PWR-001", ["R1"], {"PWR-001": 1}),
    ]


def test_a_waived_origin_merges_nothing(rules: Any) -> None:
    findings = [
        _finding("PWR-001", "rack", "R1", "waived"),
        _finding("PWR-003", "pdu", "R1-A1", "fail"),
    ]
    assert _summary(root_causes(findings, rules, site=SITE)) == [
        ("PWR-003", ["R1-A1"], {"PWR-003": 1})
    ]


def test_the_rules_declarations_name_rules_that_exist() -> None:
    ruleset = load_rules([bundled_rules_dir()], "tier-iii")
    specs = {r.code: r.spec for r in ruleset.rules}
    declared = 0
    for code, spec in specs.items():
        for other in spec.follows:
            assert other in specs and other != code, (code, other)
            declared += 1
        for rules in spec.foresees.values():
            # a foreseeing rule assumes one failure; what it foresees is a normal-operation rule
            assert "single-failure" in spec.tags, code
            for other in rules:
                assert other in specs and "single-failure" not in specs[other].tags, (code, other)
                declared += 1
    assert declared >= 4  # PWR-003 → PWR-001 and PWR-002, LIQ-002 → LIQ-001, LIQ-004 → LIQ-003


def test_the_covers_list_the_causes(hall_b3: ReportInput, small_ready: ReportInput) -> None:
    import re

    from facility.report.html import render_html
    from facility.report.markdown import render_markdown

    html, md = render_html(hall_b3), render_markdown(hall_b3)
    section = html[html.index('<section id="causes"') :]
    section = section[: section.index("</section>")]
    assert '<h3 id="causes-heading">6 causes</h3>' in section
    anchors = re.findall(r'<a href="#([^"]+)">', section)
    assert len(anchors) == 6 and anchors[0] == "f-PWR-001--rack--A01"
    for anchor in anchors:  # each cause links its root finding in the report
        assert f'id="{anchor}"' in html, anchor
    assert "A01 … A08 (8 racks): One power side cannot carry the whole rack" in section
    assert "88 failing checks: PWR-001 ×8, PWR-003 ×64, RED-001 ×16" in section
    # the cover: before the key figures, in both formats
    assert html.index('id="causes"') < html.index('id="key-figures"')
    assert md.index("\n### 6 causes\n") < md.index("\n## Key figures\n")
    numbered = [line for line in md.splitlines() if re.match(r"^[1-6]\. \*\*Error\*\* ", line)]
    assert len(numbered) == 6
    assert numbered[0].endswith(
        "A01 … A08 (8 racks): One power side cannot carry the whole rack — "
        "88 failing checks: PWR-001 ×8, PWR-003 ×64, RED-001 ×16"
    )
    # nothing fails: no causes on the cover
    assert 'id="causes"' not in render_html(small_ready)
    assert "causes" not in render_markdown(small_ready).split("## Key figures")[0]


def test_rules_that_follow_each_other_make_one_cause() -> None:
    # A user's rule files may declare a cycle (X-001 follows follows X-001): the
    # two failing findings on rack R1 are one cause, rooted at the first by id, and a third
    # rule following X-002 joins it; nothing loops.
    def rule(code: str, follows: list[str]) -> Any:
        return SimpleNamespace(code=code, spec=SimpleNamespace(follows=follows, foresees={}))

    rules: Any = SimpleNamespace(
        rules=[rule("X-001", ["X-002"]), rule("X-002", ["X-001"]), rule("X-003", ["X-002"])]
    )
    findings = [
        _finding("X-002", "rack", "R1", "fail"),
        _finding("X-003", "rack", "R1", "fail"),
        _finding("X-001", "rack", "R1", "fail"),
    ]
    causes = root_causes(findings, rules, site=SITE)
    assert _summary(causes) == [("X-001", ["R1"], {"X-001": 1, "X-002": 1, "X-003": 1})]
