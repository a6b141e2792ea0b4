"""Scope and exclusions: what was judged and what was not modelled, both generated from the
engine's coverage (facility.engine.coverage), beside the site file's own notes marked as the
user's — in the view, the HTML and the Markdown report."""

from __future__ import annotations

import dataclasses
import html as htmllib
from collections import Counter

import pytest

from facility.engine.coverage import Coverage
from facility.engine.selection import Selection
from facility.messages import localized
from facility.report.context import ReportInput
from facility.report.coverage_view import scope_view
from facility.report.html import render_html
from facility.report.markdown import escape_markdown, render_markdown
from facility.report.view import build_view
from tests.report.conftest import report_for


@pytest.fixture(scope="module")
def hall_b3_cluster() -> ReportInput:
    return report_for("examples/hall-b3-cluster.yaml")


def _statements(coverage: Coverage | None) -> list[str]:
    assert coverage is not None
    return [localized(text) for area in coverage.areas for text in area.not_modelled]


def _scope_html(report: ReportInput) -> str:
    page = render_html(report)
    start = page.index('<h3 id="scope">')
    return htmllib.unescape(page[start : page.index("<h3>", start + 1)])


def _scope_markdown(report: ReportInput) -> str:
    page = render_markdown(report)
    start = page.index("### Scope and exclusions")
    return page[start : page.index("### Conventions of this audit")]


@pytest.mark.parametrize("name", ["hall_b3", "hall_b3_cluster"])
def test_every_not_modelled_statement_is_an_exclusion(
    name: str, request: pytest.FixtureRequest
) -> None:
    report: ReportInput = request.getfixturevalue(name)
    statements = _statements(report.result.coverage)
    # Hall B3 models no busway or source, no plant, no transients …: at least those
    assert (
        "a utility loss is judged by its ride-through (LIQ-019 to LIQ-021: pumps on a UPS, the loop's coolant against the transfer and the restart, lumped); the transient itself (pump run-down, temperatures along the loop) is not modelled"
        in statements
    )
    scope = build_view(report).scope
    assert scope is not None
    assert [e.text for e in scope.excluded if e.text in statements] == statements
    html, markdown = _scope_html(report), _scope_markdown(report)
    for text in statements:
        assert text in html
        assert str(escape_markdown(text)) in markdown  # clear_height's '_', a path's '[]'


def test_the_cluster_plan_is_excluded_only_without_one(
    hall_b3: ReportInput, hall_b3_cluster: ReportInput
) -> None:
    without = build_view(hall_b3).scope
    with_plan = build_view(hall_b3_cluster).scope
    assert without is not None and with_plan is not None
    assert [e.text for e in without.excluded if e.area == "cluster"] == [
        "no cluster plan (cluster:): network, storage and training-time checks are not run"
    ]
    # with a plan, only what the plan's checks do not model (the evidence taken as recorded)
    cluster = next(a for a in hall_b3_cluster.result.coverage.areas if a.area == "cluster")
    assert [e.text for e in with_plan.excluded if e.area == "cluster"] == [
        localized(text) for text in cluster.not_modelled
    ]
    assert not any("no cluster plan" in e.text for e in with_plan.excluded)
    assert "cluster" not in [a.area for a in without.in_scope]
    assert "cluster" in [a.area for a in with_plan.in_scope]


def test_in_scope_counts_every_check_of_each_area(hall_b3: ReportInput) -> None:
    scope = build_view(hall_b3).scope
    assert scope is not None
    by_area = Counter(f.area for f in hall_b3.result.findings)
    assert [a.area for a in scope.in_scope] == [
        area
        for area in ("power", "liquid", "air", "floor", "cluster", "redundancy")
        if by_area[area]
    ]
    for area in scope.in_scope:
        statuses = Counter(f.status for f in hall_b3.result.findings if f.area == area.area)
        n = by_area[area.area]
        assert area.checks.startswith(f"{n:,} checks: ")
        if statuses["fail"]:
            assert f"{statuses['fail']:,} fail" in area.checks
        if statuses["not_evaluated"]:
            assert f"{statuses['not_evaluated']:,} not evaluated" in area.checks
    # Hall B3: 20 racks in the power area, all judged; 51 single failures, all judged
    power = next(a for a in scope.in_scope if a.area == "power")
    assert "20 racks: 20 judged" in power.judged
    redundancy = next(a for a in scope.in_scope if a.area == "redundancy")
    assert redundancy.judged == "51 single failures: 51 judged"


def test_the_users_notes_are_shown_as_theirs(hall_b3: ReportInput) -> None:
    notes = hall_b3.site.info.notes
    assert notes is not None
    html = _scope_html(hall_b3)
    assert "written by the user" in html
    assert notes.strip() in html
    assert "Tier III" in html
    markdown = _scope_markdown(hall_b3)
    assert f"> {notes.strip()}" in markdown
    # the user's notes are not mixed into the generated exclusions
    scope = build_view(hall_b3).scope
    assert scope is not None and all(notes.strip() not in e.text for e in scope.excluded)


def test_a_site_without_notes_says_so(hall_b3: ReportInput) -> None:
    info = hall_b3.site.info.model_copy(update={"notes": None})
    report = dataclasses.replace(hall_b3, site=dataclasses.replace(hall_b3.site, info=info))
    assert "The site file has no notes (site.notes)." in _scope_html(report)
    assert "The site file has no notes (site.notes)." in _scope_markdown(report)


def test_an_area_with_no_check_and_no_statement_is_still_excluded(hall_b3: ReportInput) -> None:
    # The cluster area without its statement: no check ran there, and the scope must say so
    # rather than leave the area out silently.
    coverage = hall_b3.result.coverage
    assert coverage is not None
    areas = [
        dataclasses.replace(a, not_modelled=[]) if a.area == "cluster" else a
        for a in coverage.areas
    ]
    result = dataclasses.replace(hall_b3.result, coverage=Coverage(areas))
    scope = scope_view(result, None, None)
    assert scope is not None
    assert [e.text for e in scope.excluded if e.area == "cluster"] == [
        "no check of this area ran for this site"
    ]


def test_no_scope_without_a_coverage(hall_b3: ReportInput) -> None:
    result = dataclasses.replace(hall_b3.result, coverage=None)
    assert scope_view(result, "notes", None) is None


def test_rules_left_out_by_select_are_an_exclusion(hall_b3: ReportInput) -> None:
    selection = Selection(select=(), ignore=("FLR",), deselected=("FLR-001", "FLR-002"))
    result = dataclasses.replace(hall_b3.result, selection=selection)
    scope = scope_view(result, None, None)
    assert scope is not None
    first = scope.excluded[0]
    assert (first.area, first.label) == ("selection", "Rule selection")
    assert "2 rules of profile" in first.text and "FLR-001, FLR-002" in first.text
    # without a selection, no such line
    plain = scope_view(hall_b3.result, None, None)
    assert plain is not None and all(e.area != "selection" for e in plain.excluded)
