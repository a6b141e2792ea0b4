"""Waived findings, expired and stale waivers in the HTML and Markdown reports."""

from __future__ import annotations

import pytest

from facility.report.html import render_html
from facility.report.markdown import render_markdown
from facility.report.view import build_view
from tests.report.conftest import ROOT, report_for
from tests.report.htmlcheck import parse

WAIVERS = """
waivers:
  - rule: FLR-001
    entity: B01
    reason: Spreader plates go under B01 before it is filled.
    owner: J. Okafor
    expires: 2027-01-31
    ticket: CHG-1042
  - rule: power.side_cannot_carry_rack
    entity: A01
    reason: Side B upgrade pending.
    owner: M. Lee
    expires: 2026-06-30
  - rule: LIQ-001
    entity: TCS-A
    reason: Failed in the draft design.
    owner: M. Lee
    expires: 2027-06-30
"""


@pytest.fixture(scope="module")
def waived(tmp_path_factory):
    directory = tmp_path_factory.mktemp("waived")
    text = (ROOT / "examples" / "hall-b3.yaml").read_text(encoding="utf-8")
    (directory / "hall-b3.yaml").write_text(text + WAIVERS, encoding="utf-8")
    return report_for("hall-b3.yaml", cwd=directory)


def test_the_view_separates_waived_expired_and_stale(waived):
    view = build_view(waived)
    assert [(c.rule, c.places[0].entities[0].id) for c in view.waived] == [("FLR-001", "B01")]
    card = view.waived[0]
    assert card.status_label == "Waived"
    assert card.waiver is not None
    assert (card.waiver.owner, card.waiver.expires, card.waiver.ticket) == (
        "J. Okafor",
        "2027-01-31",
        "CHG-1042",
    )
    states = [(w.state, w.rule, w.entity) for w in view.waivers]
    assert states == [("expired", "PWR-001", "A01"), ("stale", "LIQ-001", "TCS-A")]
    # B01 is no longer among the failing floor findings; A01 fails again, with its expired waiver
    floor = next(a for a in view.areas if a.key == "floor")
    assert all(e.id != "B01" for c in floor.cards for p in c.places for e in p.entities)
    power = next(a for a in view.areas if a.key == "power")
    a01 = next(c for c in power.cards if c.rule == "PWR-001" and c.expired_waivers)
    assert [e.id for p in a01.places for e in p.entities] == ["A01"]
    assert view.verdict.statuses[1].value == 1  # one waived finding


def test_html_shows_the_waiver_with_owner_and_expiry(waived):
    html = render_html(waived)
    page = parse(html)
    section = page.by_id_text["waivers"]
    assert "Waived" in section
    assert "J. Okafor" in section and "2027-01-31" in section and "CHG-1042" in section
    assert "Spreader plates go under B01" in section
    assert "expired" in section and "stale" in section
    assert "M. Lee" in section and "2026-06-30" in section
    assert "Waiver expired." in page.by_id_text["findings"]


def test_markdown_shows_the_waiver_with_owner_and_expiry(waived):
    md = render_markdown(waived)
    waivers = md[md.index("## Waivers") : md.index("## Passed checks")]
    waived = waivers[waivers.index("### Waived findings") : waivers.index("### Expired")]
    assert "#### FLR-001 — " in waived  # the whole card, as in HTML
    lines = (ROOT / "examples" / "hall-b3.yaml").read_text(encoding="utf-8").splitlines()
    (row_b,) = [n for n, row in enumerate(lines, 1) if row == "  - id: B"]
    assert f"- **Defined at hall-b3.yaml:{row_b + 1}:** B01\n" in waived
    assert (
        "**Waived:** Accepted by J. Okafor until 2027-01-31: Spreader plates go under B01 "
        "before it is filled. (ticket CHG-1042) — waiver at hall-b3.yaml:"
    ) in waived
    assert "| expired | PWR-001 | A01 | M. Lee | 2026-06-30 |" in waivers
    assert "| stale | LIQ-001 | TCS-A | M. Lee | 2027-06-30 |" in waivers
