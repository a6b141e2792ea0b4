"""An HTML card of failing findings lists at most MAX_CARD_ENTITIES entities and counts the rest
(issue 21: a campus's card of one rule and figures held 40,000 PDUs, 53 MB of the 100,000-rack
report); every link to an entity it does not list lands on the card; the Markdown lists all."""

from __future__ import annotations

import re

import pytest

from facility.report import html, view
from facility.report.anchors import finding_anchor
from facility.report.html import render_html
from facility.report.markdown import render_markdown
from tests.report.htmlcheck import parse

CAP = 3  # Hall B3's cards hold up to 20 racks and 64 PDUs: most are cut at this cap


@pytest.fixture(scope="module")
def capped(hall_b3):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(html, "MAX_CARD_ENTITIES", CAP)
        return render_html(hall_b3)


def _cards(page_html: str) -> list[str]:
    return re.findall(r'<article class="card.*?</article>', page_html, re.DOTALL)


def test_a_card_lists_at_most_the_cap_and_counts_every_other_entity(hall_b3, capped) -> None:
    failing = [f for f in hall_b3.result.findings if f.status in ("fail", "waived")]
    listed = counted = 0
    cut = 0
    for card in _cards(capped):
        items = card.count("<li id=")
        assert items <= CAP
        more = re.search(r"and ([0-9,]+) more ", card)
        if more is not None:
            cut += 1
            assert items == CAP  # only a full list is cut
            counted += int(more.group(1).replace(",", ""))
        listed += items
    # Hall B3: 107 failing findings; FLR-001's 12 racks, PWR-003's 64 PDUs… are cut
    assert cut >= 3
    assert listed + counted == len(failing) == 107
    assert "the Markdown and JSON results list every one" in capped


def test_every_link_of_a_capped_report_lands_on_an_element(capped) -> None:
    page = parse(capped)
    ids = set(page.ids)
    links = [link[1:] for link in page.links() if link.startswith("#")]
    assert sorted({link for link in links if link not in ids}) == []
    # a rack of the floor plan (or a cause, a chart bar) whose finding is not listed
    # links to its card instead
    assert any(link.startswith("card-") for link in links)


def test_an_unlisted_finding_has_no_element_of_its_own(hall_b3, capped) -> None:
    ids = set(parse(capped).ids)
    failing = [f for f in hall_b3.result.findings if f.status == "fail"]
    shown = [f for f in failing if finding_anchor(f.rule, f.entity_kind, f.entity_id) in ids]
    assert 0 < len(shown) < len(failing)


def test_the_markdown_lists_every_entity_of_a_card(hall_b3) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(html, "MAX_CARD_ENTITIES", CAP)
        patch.setattr(view, "MAX_CARD_ENTITIES", CAP)  # the Markdown does not use it
        markdown = render_markdown(hall_b3)
    assert "list every one" not in markdown
    flr = markdown[markdown.index("#### FLR-001") :]
    flr = flr[: flr.index("\n#### ")]
    assert all(f"B{n:02d}" in flr for n in range(1, 13))  # Hall B3's 12 B-row racks


def test_below_the_cap_a_card_lists_every_entity(hall_b3) -> None:
    page = render_html(hall_b3)  # MAX_CARD_ENTITIES = 100: no Hall B3 card reaches it
    assert view.MAX_CARD_ENTITIES == 100
    assert "list every one" not in page
    assert sum(card.count("<li id=") for card in _cards(page)) == 107
