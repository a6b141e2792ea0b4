"""The view model: plain, JSON-serialisable, sorted, capped for large sites, translatable."""

from __future__ import annotations

import dataclasses
import gettext
import json

import pytest

from facility.report import i18n
from facility.report.anchors import finding_anchor, natural_key, slug
from facility.report.view import MAX_LISTED, build_view
from tests.report.conftest import report_for


def test_the_view_is_plain_json(hall_b3):
    data = dataclasses.asdict(build_view(hall_b3))
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    assert json.loads(text) == data


def test_the_view_has_the_header_verdict_and_key_figures(hall_b3):
    view = build_view(hall_b3)
    assert view.header.site_name == "Hall B3"
    assert view.header.input_file == "examples/hall-b3.yaml"
    assert view.header.generated_at == "2026-11-29T12:00:00+00:00"
    assert view.verdict.key == "not-ready" and view.verdict.word == "Not ready"
    figures = {item.label: item.value for item in view.key_figures.headline}
    # 8 · 135 + 12 · 32 = 1,464 kW nominal; 8 · 155 + 12 · 38 = 1,696 kW peak
    assert figures["IT load at peak power"] == "1,696.0 kW"
    assert figures["Heat at nominal power"] == "1,464.0 kW"
    # 8 · 135 · 0.90 + 12 · 32 · 0.85 = 972.0 + 326.4 = 1,298.4 kW; air 165.6 kW
    assert figures["Heat to liquid"] == "1,298.4 kW"
    assert figures["Residual heat to room air"] == "165.6 kW"
    conventions = " ".join(item.value for item in view.header.conventions)
    assert "line-to-line" in conventions and "80.0 %" in conventions and "peak" in conventions


def test_utilisation_pairs_normal_operation_with_the_failure(hall_b3):
    charts = {c.key: c for c in build_view(hall_b3).key_figures.charts}
    bars = {(b.element, b.measure): b for b in charts["power"].bars}
    side_a = bars[("Row A · side A", "rack PDU load")]
    # normal: 163.2 / 8 = 20.4 kVA of 36.2; side lost: 163.2 / 4 = 40.8 kVA of 36.2 (112.6 %)
    assert (side_a.normal.observed, side_a.normal.percent) == ("20.4 kVA", "56.3 %")
    assert (side_a.failure.observed, side_a.failure.percent) == ("40.8 kVA", "112.6 %")
    assert side_a.members == "32 rack PDUs"
    loops = {(b.element, b.measure): b for b in charts["cooling"].bars}
    heat_b = loops[("TCS-B", "heat to liquid vs CDU capacity")]
    assert heat_b.failure.ratio is None and heat_b.failure.percent == "no capacity"


def test_lists_of_passed_entities_are_capped(tmp_path):
    (tmp_path / "big.yaml").write_text(
        "site: {name: Big}\n"
        "floor_zones: [{id: Z, construction: slab, uniform_load_rating: 50 kPa}]\n"
        "rack_types: [{id: t, filled_mass: 1000 kg, footprint: {width: 600 mm, depth: 1200 mm},"
        " casters: 4}]\n"
        "rows: [{id: R, racks: {prefix: R, count: 120, digits: 3}, type: t, zone: Z}]\n",
        encoding="utf-8",
    )
    view = build_view(report_for("big.yaml", cwd=tmp_path))
    floor = next(p for p in view.passed if p.rule == "FLR-001")
    assert floor.count == 120
    assert len(floor.entities) == MAX_LISTED
    assert floor.entities[:3] == ["R001", "R002", "R003"]
    assert floor.more == "and 70 more"
    assert view.floor_plan is not None and len(view.floor_plan.rows[0].racks) == 120


def test_anchors_derive_from_rule_kind_and_entity():
    assert finding_anchor("PWR-003", "pdu", "A01-A1") == "f-PWR-003--pdu--A01-A1"
    assert slug("a b_c<") == "a_20_b_5f_c_3c_"
    assert slug("a_b") != slug("a b")
    assert sorted(["B10", "B2", "B1"], key=natural_key) == ["B1", "B2", "B10"]


class _Bracketing(gettext.NullTranslations):
    """A stand-in catalog: every message comes back in brackets (placeholders intact)."""

    def gettext(self, message: str) -> str:
        return f"[{message}]"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"[{singular if n == 1 else plural}]"

    def pgettext(self, context: str, message: str) -> str:
        return f"[{message}]"

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return f"[{singular if n == 1 else plural}]"


def test_every_word_goes_through_the_translations(hall_b3):
    """A stand-in catalog reaches every word of the view, and no user text."""
    token = i18n._current.set(_Bracketing())
    try:
        view = build_view(hall_b3)
    finally:
        i18n._current.reset(token)
    assert view.verdict.word == "[Not ready]"
    assert view.signoff.roles == ["[Prepared by]", "[Reviewed by]", "[Approved by]"]
    assert view.areas[0].cards[0].severity_label == "[Error]"
    assert view.areas[0].cards[0].entity_kind_label == "[racks]"
    assert view.header.site_name == "Hall B3"  # user text is never translated


def test_set_language_falls_back_to_english_without_a_catalog():
    before = i18n.translations()
    with i18n.using_language("xx") as translations:  # no catalog: the English messages
        assert isinstance(translations, gettext.NullTranslations)
        assert i18n.translations() is translations
        assert i18n.current_language() == "xx"
        assert i18n._("Not ready") == "Not ready"
    assert i18n.translations() is before
    assert i18n.current_language() == "en"


def test_a_supported_language_speaks_from_its_catalog():
    with i18n.using_language("zh-CN"):
        assert i18n._("Not ready") == "未就绪"
        with i18n.using_language("en"):
            assert i18n._("Not ready") == "Not ready"
        assert i18n._("Ready") == "就绪"
    assert i18n._("Not ready") == "Not ready"


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_language_tag_reaches_the_page(hall_b3, lang):
    from dataclasses import replace

    from facility.report.html import render_html

    assert f'<html lang="{lang}">' in render_html(replace(hall_b3, lang=lang))
