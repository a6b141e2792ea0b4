"""The HTML report: well formed, self-contained, complete, and every failing finding in it."""

from __future__ import annotations

import re

import pytest

from facility.report.anchors import finding_anchor
from facility.report.html import render_html
from tests.report.conftest import ROOT
from tests.report.htmlcheck import parse


@pytest.fixture(scope="module")
def b3_html(hall_b3):
    return render_html(hall_b3)


@pytest.fixture(scope="module")
def b3_page(b3_html):
    return parse(b3_html)


def test_the_page_is_well_formed(b3_page):
    assert b3_page.mismatched == []
    assert b3_page.unclosed == []
    duplicates = sorted({i for i in b3_page.ids if b3_page.ids.count(i) > 1})
    assert duplicates == []


def test_the_head_declares_charset_language_and_a_policy_that_forbids_fetching(b3_html, b3_page):
    assert b3_html.startswith("<!DOCTYPE html>\n")
    html_tag = next(a for t, a in b3_page.tags if t == "html")
    assert html_tag["lang"] == "en"
    metas = [a for t, a in b3_page.tags if t == "meta"]
    assert {"charset": "utf-8"} in metas
    policy = next(a["content"] for a in metas if a.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in policy
    assert "style-src 'unsafe-inline'" in policy
    assert "img-src data:" in policy
    assert "script-src" not in policy


def test_nothing_is_loaded_from_anywhere(b3_html, b3_page):
    tags = {t for t, _ in b3_page.tags}
    assert "script" not in tags
    assert "link" not in tags
    assert "iframe" not in tags and "object" not in tags and "embed" not in tags
    assert b3_page.external_references() == []
    assert not any(k.startswith("on") for _, a in b3_page.tags for k in a)  # no inline handlers
    assert "@font-face" not in b3_html


def test_every_internal_link_points_at_an_element(b3_page):
    ids = set(b3_page.ids)
    links = [link for link in b3_page.links() if link.startswith("#")]
    assert links, "the contents and the charts link into the page"
    assert sorted({link for link in links if link[1:] not in ids}) == []


def test_every_failing_finding_appears_with_its_entity_id(hall_b3, b3_page):
    failing = [f for f in hall_b3.result.findings if f.status == "fail"]
    # Hall B3: 8 racks PWR-001, 64 PDUs PWR-003, 3 loops, 12 racks FLR-001, 20 RED-001
    assert len(failing) == 107
    for f in failing:
        anchor = finding_anchor(f.rule, f.entity_kind, f.entity_id)
        assert b3_page.by_id_text.get(anchor) == f.entity_id, f.id


def test_identical_findings_share_one_card(b3_page):
    cards = [a["id"] for t, a in b3_page.tags if t == "article"]
    # PWR-001, PWR-003, LIQ-002, LIQ-004 ×2 (TCS-A and TCS-B differ in numbers), FLR-001,
    # RED-001 ×4 (20 single points of failure, 4 causes: one card per cause)
    assert len(cards) == 10
    pwr003 = next(c for c in cards if c.startswith("card-PWR-003"))
    assert b3_page.by_id_text[pwr003].count("40.8 kVA") >= 1
    entities = [
        a["id"] for t, a in b3_page.tags if t == "li" and a.get("id", "").startswith("f-PWR-003")
    ]
    assert len(entities) == 64


def test_the_sections_come_in_the_documented_order(b3_html):
    order = [
        'id="summary"',
        'id="key-figures"',
        'id="findings"',
        'id="not-evaluated"',
        'id="waivers"',
        'id="passed"',
        'id="assumptions"',
        'id="sign-off"',
    ]
    positions = [b3_html.index(marker) for marker in order]
    assert positions == sorted(positions)


def test_the_header_and_sign_off_carry_the_input_hash_and_versions(hall_b3, b3_html):
    sha = hall_b3.site.sha256
    assert b3_html.count(sha) >= 3  # header, sign-off, footer
    assert hall_b3.ruleset.version in b3_html
    assert "facility 0.1.0" in b3_html
    assert "tier-iii" in b3_html
    for role in ("Prepared by", "Reviewed by", "Approved by"):
        assert role in b3_html


def test_the_verdict_and_statuses_are_in_words(b3_page):
    text = " ".join(b3_page.text)
    assert "Not ready" in text
    assert "Fails" in text and "Error" in text
    assert "Not evaluated" in text


def test_charts_are_inline_svg_with_a_text_equivalent(b3_html, b3_page):
    svgs = [a for t, a in b3_page.tags if t == "svg"]
    assert len(svgs) == 4  # power, cooling, floor utilisation and the floor plan
    assert all(a.get("role") == "img" for a in svgs)
    # each utilisation chart is followed by its table; PWR-003 after side loss: 40.8 / 36.2 kVA
    assert "40.8 kVA of 36.2 kVA" in b3_html
    assert re.search(r"112\.6 %", b3_html)
    # TCS-B has one CDU: nothing left after it fails
    assert "no capacity" in b3_html
    # floor plan text equivalent: every failing rack is listed by row
    for rack in ("A01", "A08", "B01", "B12"):
        assert rack in b3_page.by_id_text["floor-plan"]


def test_not_evaluated_names_the_missing_input(b3_page):
    text = b3_page.by_id_text["not-evaluated"]
    assert "rack type 'gb300-b3' has no max_payload" in text
    assert "CDU 'CDU-A1' has no max_racks" in text


def test_passed_checks_are_summarised_per_rule_and_collapsed(hall_b3, b3_html, b3_page):
    section = b3_page.by_id_text["passed"]
    assert "PWR-002" in section and "88" in section  # every PDU passes in normal operation
    passed_html = b3_html[b3_html.index('id="passed"') : b3_html.index('id="assumptions"')]
    rules = {f.rule for f in hall_b3.result.findings if f.status == "pass"}
    assert passed_html.count("<details>") == len(rules)  # one collapsed list per rule


def test_catalog_figures_show_source_confidence_and_assumptions(b3_page):
    text = b3_page.by_id_text["assumptions"]
    assert "Vertiv SL-71309" in text  # CDU-A1 capacity from the catalog
    assert "medium" in text
    assert "assumption" in text  # the Atlas cabinet's liquid cooling is an assumption
    lines = (ROOT / "examples" / "hall-b3.yaml").read_text(encoding="utf-8").splitlines()
    (nominal,) = [n for n, row in enumerate(lines, 1) if row == "    nominal_power: 135 kW"]
    assert f"examples/hall-b3.yaml:{nominal}" in text  # gb300-b3 nominal power, from the file


def test_the_small_ready_site_is_ready(small_ready):
    page = parse(render_html(small_ready))
    assert "Ready" in page.by_id_text["summary"]
    assert "No check fails." in page.by_id_text["findings"]
    assert page.mismatched == [] and page.unclosed == []
