"""The HTML report's floor-plan table lists at most MAX_TABLE_ROWS rows and sums the rest
(issue 21: a 100,000-rack campus's table was a line per row, 8,834 lines, 5.6 MB); the
plan's description names at most MAX_NAMED zones and loops; the Markdown lists every row."""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest

from facility.report import floor_plan as plan_module
from facility.report import html
from facility.report.context import ReportInput
from facility.report.floor_plan import FloorPlan, FloorRow, floor_plan
from facility.report.html import render_html
from facility.report.markdown import render_markdown
from tests.report.conftest import report_for

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402

COLUMNS = ("errors", "warnings", "not_evaluated", "waived", "passed")


@pytest.fixture(scope="module")
def campus(tmp_path_factory: pytest.TempPathFactory) -> ReportInput:
    path = tmp_path_factory.mktemp("campus") / "campus.yaml"
    write_campus(400, path, ready=True)  # 36 rows in 3 halls, 23 zones, 31 loops
    return report_for(path)


def _plan(report: ReportInput, rows: int | None) -> FloorPlan:
    made = floor_plan(report.site, report.result.findings, None, rows)
    assert made is not None
    return made


def _totals(rows: list[FloorRow]) -> dict[str, int]:
    out = {column: sum(getattr(r, column) for r in rows) for column in COLUMNS}
    return {**out, "racks": sum(len(r.racks) for r in rows)}


def _attends(row: FloorRow) -> bool:
    return bool(row.errors or row.warnings or row.not_evaluated or row.waived)


def test_a_bounded_table_lists_rows_to_attend_to_in_order_and_sums_the_rest(
    campus: ReportInput,
) -> None:
    plan = _plan(campus, 5)
    assert len(plan.rows) == 36 and len(plan.listed) == 5  # every row has a rack not evaluated
    assert all(_attends(r) for r in plan.listed)
    assert plan.listed == [r for r in plan.rows if r in plan.listed]  # in the plan's order
    rest = plan.rest
    assert rest is not None and rest.label == "and 31 more rows"
    listed = _totals(plan.listed)
    # 400 racks = the listed rows' + the rest's, column by column
    assert {k: listed[k] + getattr(rest, k) for k in listed} == _totals(plan.rows)
    assert _totals(plan.rows)["racks"] == 400


def test_a_table_within_the_bound_lists_every_row(campus: ReportInput) -> None:
    plan = _plan(campus, 36)
    assert plan.listed == plan.rows and plan.rest is None
    unbounded = _plan(campus, None)
    assert unbounded.listed == unbounded.rows and unbounded.rest is None


def test_rows_where_every_rack_passes_are_summed_first(campus: ReportInput) -> None:
    rows = _plan(campus, None).rows
    # every other row made to pass: 18 rows to attend to fit a bound of 20, the 18 others
    # (passing) are one line
    mixed = [
        r
        if i % 2
        else dataclasses.replace(
            r, errors=0, warnings=0, not_evaluated=0, waived=0, passed=len(r.racks)
        )
        for i, r in enumerate(rows)
    ]
    listed, rest = plan_module._bounded(mixed, 20)
    assert listed == [r for i, r in enumerate(mixed) if i % 2]
    assert rest is not None and rest.label == "and 18 more rows"
    assert (rest.errors, rest.warnings, rest.not_evaluated, rest.waived) == (0, 0, 0, 0)
    assert rest.passed == rest.racks == sum(len(r.racks) for i, r in enumerate(rows) if not i % 2)


def test_the_html_table_is_bounded_and_the_markdown_lists_every_row(
    campus: ReportInput, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(html, "MAX_TABLE_ROWS", 5)
    page = render_html(campus)
    table = page[page.index('<table class="floor-data">') :]
    table = table[: table.index("</table>")]
    body = table[table.index("<tbody>") :]
    assert body.count("<tr") == 6  # five rows and the rest
    assert re.search(r'<tr class="rest">\s*<th scope="row">and 31 more rows', body)
    assert "the Markdown report lists every row" in body
    markdown = render_markdown(campus)
    plan = markdown[markdown.index("### Floor plan") :]
    assert len(re.findall(r"^\| H0[0-9] · Row ", plan, re.MULTILINE)) == 36


def test_the_description_names_a_bounded_number_of_loops(campus: ReportInput) -> None:
    plan = _plan(campus, None)
    assert len(plan.loops) == 31 and len(plan.zones) == 23
    loops = plan.description[plan.description.index("TCS loops: ") :]
    named = loops[: loops.index(" and 7 more.")].removeprefix("TCS loops: ").split(", ")
    assert named == [k.loop for k in plan.loops][: plan_module.MAX_NAMED]
    zones = plan.description[plan.description.index("Floor zones: ") :]
    assert zones[: zones.index(".")].count(", ") == 22  # all 23, within the bound


def test_a_bounded_report_lists_some_loops_cdus_and_counts_the_others(
    campus: ReportInput, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plan_module, "MAX_UNPLACED", 10)  # the bound, scaled down: 34 groups
    plan = _plan(campus, 5)
    everything = _plan(campus, None)
    assert everything.unplaced_listed == everything.unplaced and not everything.unplaced_more
    assert len(plan.unplaced) == 34  # 31 loops' CDUs, 3 rooms' air units
    assert plan.unplaced_listed == plan.unplaced[:10]
    assert plan.unplaced_more == (
        "and 24 more loops and rooms; the Markdown report lists every one"
    )
    monkeypatch.setattr(html, "MAX_TABLE_ROWS", 5)
    page = render_html(campus)
    unplaced = page[page.index('<div class="plan-unplaced">') :]
    unplaced = unplaced[: unplaced.index("</div>")]
    assert unplaced.count("<dt>") == 10 and plan.unplaced_more in unplaced
    markdown = render_markdown(campus)
    assert all(f"**{group.label}:**" in markdown for group in plan.unplaced)
