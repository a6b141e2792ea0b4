"""The single-failure (N-1) section of the reports (`facility check --failures`).

Hall B3 against hand calculations: its single points of failure with their broken rules, the
worst utilisation each loss leaves and the matrix of failed element × affected entity, in the
HTML, Markdown, JSON and terminal outputs; golden files with the section; reports without it
unchanged; hostile element ids inert; a campus's section bounded.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from facility.analysis.failures import analyse_failures
from facility.check import run_check
from facility.cli import app
from facility.engine.rules import bundled_rules_dir, load_rules
from facility.model.load import load_site
from facility.report import failures_view
from facility.report.context import ReportInput
from facility.report.failures_report import failures_data, failures_json
from facility.report.failures_view import (
    MAX_COLUMNS,
    MAX_GROUPS,
    PANEL_COLUMNS,
    FailureSection,
    MatrixCell,
)
from facility.report.html import render_html
from facility.report.json_report import render_report_json
from facility.report.markdown import render_markdown
from facility.report.terminal import render_text
from facility.report.view import build_view
from tests.frozen_rules import FROZEN
from tests.report.conftest import GENERATED_AT, GOLDEN, ROOT, report_for
from tests.report.htmlcheck import parse
from tests.report.test_escaping import MARKDOWN, SCRIPT, hostile_site
from tests.report.test_markdown import assert_tables_keep_their_columns, table_rows


def with_failures(report: ReportInput) -> ReportInput:
    """``report`` with the single-failure analysis made again on its (waived) result."""
    return replace(report, failures=analyse_failures(report.site, report.ruleset, report.result))


@pytest.fixture(scope="module")
def b3(hall_b3: ReportInput) -> ReportInput:
    assert hall_b3.failures is not None  # every check under tier-iii runs the analysis
    return hall_b3


@pytest.fixture(scope="module")
def section(b3: ReportInput) -> FailureSection:
    found = build_view(b3).failures
    assert found is not None
    return found


@pytest.fixture(scope="module")
def b3_html(b3: ReportInput) -> str:
    return render_html(b3)


@pytest.fixture(scope="module")
def b3_md(b3: ReportInput) -> str:
    return render_markdown(b3)


def group(section: FailureSection, anchor: str):
    return next(g for g in section.groups if g.anchor == anchor)


def cell(section: FailureSection, row: str, column: str) -> MatrixCell:
    """The matrix cell of the row labelled ``row`` in the column labelled ``column``."""
    for panel in section.matrix.panels:
        labels = [c.label for c in panel.columns]
        if column not in labels:
            continue
        for r in panel.rows:
            if r.label == row:
                return r.cells[labels.index(column)]
        return MatrixCell("", "", "", "", "")  # no row in this panel: nothing changed there
    raise AssertionError(f"no column {column!r}")


# --- Hall B3: what each loss does ------------------------------------------------------------


def test_the_single_points_of_failure_of_hall_b3(section: FailureSection) -> None:
    # 40 rack sides, 3 CDUs, 3 CDU pumps, 1 facility water, 3 CRAHs, one unit of CT-1
    assert section.scenarios == 51
    assert section.single_points_of_failure == 20 and section.survived == 31
    assert [g.summary for g in section.spof_groups] == [
        # either side of A01-A08: the other side's 4 PDUs carry the whole 155 kW rack
        "16 × rack side (A01:A, A01:B, A02:A, A02:B and 12 more): PWR-002",
        "2 × CDU (CDU-A1, CDU-A2): LIQ-003",
        "CDU-B1 out of service: LIQ-001, LIQ-009",
        "facility water FW-1 lost: LIQ-001, LIQ-009",
    ]


def test_losing_a_power_side_of_a01(section: FailureSection) -> None:
    sides = group(section, "failure-rack_5f_side--A01_3a_A")
    assert sides.count == 16 and sides.single_point_of_failure
    assert sides.example == "figures for side A of rack A01 lost"
    # each B PDU carries 155 kW / 0.95 / 4 = 40.8 kVA of √3 · 415 V · 63 A · 0.8 = 36.2 kVA
    assert [(b.rule, b.detail) for b in sides.broken] == [
        ("PWR-002", "4 rack PDUs, e.g. A01-B1: 40.8 kVA of 36.2 kVA")
    ]
    assert sides.worst_percent == "112.6 %"  # 40.8 / 36.2


def test_losing_cdu_a1_or_a2_starves_tcs_a_of_flow(section: FailureSection) -> None:
    cdus = group(section, "failure-cdu--CDU-A1")
    assert cdus.count == 2 and cdus.elements == "CDU-A1, CDU-A2"
    # TCS-A's 8 · 135 kW · 0.90 = 972 kW still fits the one CDU left (1,350 kW), its flow does
    # not: 1,457 L/min needed, 1,200 L/min delivered — 121.4 %
    assert [(b.rule, b.detail) for b in cdus.broken] == [
        ("LIQ-003", "TCS-A: 1,457 L/min of 1,200 L/min")
    ]
    assert (cdus.worst_percent, cdus.worst_detail) == (
        "121.4 %",
        "LIQ-003 TCS-A: 1,457 L/min of 1,200 L/min",
    )


def test_losing_cdu_b1_leaves_tcs_b_without_a_cdu(section: FailureSection) -> None:
    b1 = group(section, "failure-cdu--CDU-B1")
    assert b1.label == "CDU-B1 out of service" and b1.count == 1
    # 12 · 32 kW · 0.85 = 326.4 kW of heat and 90 kPa of pressure drop, against nothing.
    # LIQ-014 is not evaluated before the loss (CDU-B1 states no max_racks) and stays so.
    assert [(b.rule, b.severity, b.detail) for b in b1.broken] == [
        ("LIQ-001", "error", "TCS-B: 326.4 kW of 0.0 kW"),
        ("LIQ-009", "error", "TCS-B: 90.0 kPa of 0.0 kPa"),
    ]
    assert b1.worst_percent == "no capacity"


def test_losing_a_crah(section: FailureSection) -> None:
    crahs = group(section, "failure-air_5f_unit--CRAH-1")
    assert crahs.count == 3 and not crahs.single_point_of_failure and crahs.broken == []
    # the room's air heat 8 · 135 · 0.10 + 12 · 32 · 0.15 = 165.6 kW on the 2 × 100 kW left
    assert (crahs.worst_percent, crahs.worst_detail) == (
        "82.8 %",
        "AIR-001 B3: 165.6 kW of 200.0 kW",
    )


def test_survivors_follow_the_single_points_of_failure_most_utilised_first(section) -> None:
    assert [
        (g.label, g.worst_percent) for g in section.groups if not g.single_point_of_failure
    ] == [
        ("24 × rack side", "87.0 %"),  # B05-A1: 38 kW / 0.95 = 40.0 kVA of 46.0 kVA
        ("3 × air unit", "82.8 %"),
        ("3 × CDU pump", ""),  # a spare pump: nothing changes
        ("one unit of CT-1 lost", ""),  # a tower of an N+1 plant: nothing changes
    ]


def test_the_matrix_of_hall_b3(section: FailureSection) -> None:
    matrix = section.matrix
    assert len(matrix.panels) == 1 and matrix.columns == matrix.columns_total == 7
    panel = matrix.panels[0]
    assert [(c.label, c.note) for c in panel.columns] == [
        ("Row A · side A", "32 rack PDUs"),
        ("Row A · side B", "32 rack PDUs"),
        ("Row B · side A", "12 rack PDUs"),
        ("Row B · side B", "12 rack PDUs"),
        ("TCS-A", "TCS loop"),
        ("TCS-B", "TCS loop"),
        ("Room B3", "room"),
    ]
    assert [r.label for r in panel.rows] == [
        "A01:A, A01:B, A02:A and 13 more",
        "CDU-A1, CDU-A2",
        "CDU-B1",
        "FW-1",
        "B01:A, B01:B, B02:A and 21 more",
        "CRAH-1, CRAH-2, CRAH-3",
    ]
    tcs_a = cell(section, "CDU-A1, CDU-A2", "TCS-A")
    assert (tcs_a.status, tcs_a.word, tcs_a.percent, tcs_a.rule) == (
        "fail",
        "fail",
        "121.4 %",
        "LIQ-003",
    )
    assert tcs_a.detail == "LIQ-003 TCS-A: 1,457 L/min of 1,200 L/min"
    side = cell(section, "A01:A, A01:B, A02:A and 13 more", "Row A · side B")
    assert (side.word, side.percent, side.rule) == ("fail", "112.6 %", "PWR-002")
    room = cell(section, "CRAH-1, CRAH-2, CRAH-3", "Room B3")
    assert (room.word, room.percent, room.detail) == (
        "pass",
        "82.8 %",
        "AIR-001 B3: 165.6 kW of 200.0 kW",
    )
    b1 = cell(section, "CDU-B1", "TCS-B")
    assert (b1.word, b1.percent, b1.rule) == ("fail", "no capacity", "LIQ-001")
    # losing CDU-A1 touches TCS-A only
    assert cell(section, "CDU-A1, CDU-A2", "TCS-B").status == ""
    assert cell(section, "CDU-A1, CDU-A2", "Room B3").status == ""
    assert matrix.notes == [
        "These failures change no check and have no row: 3 × CDU pump (CDU-A1, CDU-A2, CDU-B1); "
        "one unit of CT-1 lost."
    ]


def test_the_view_stays_plain_json(b3: ReportInput) -> None:
    data = dataclasses.asdict(build_view(b3))
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert data["failures"]["single_points_of_failure"] == 20


# --- HTML -------------------------------------------------------------------------------------


def test_the_html_names_the_single_points_of_failure(b3_html: str) -> None:
    page = parse(b3_html)
    assert page.mismatched == [] and page.unclosed == []
    assert sorted({i for i in page.ids if page.ids.count(i) > 1}) == []
    section = page.by_id_text["failures"]
    for line in (
        "16 × rack side (A01:A, A01:B, A02:A, A02:B and 12 more): PWR-002",
        "2 × CDU (CDU-A1, CDU-A2): LIQ-003",
        "CDU-B1 out of service: LIQ-001, LIQ-009",
        "facility water FW-1 lost: LIQ-001, LIQ-009",
    ):
        assert line in section
    b1 = " ".join(page.by_id_text["failure-cdu--CDU-B1"].split())
    assert "single point of failure" in b1
    assert "LIQ-001 TCS-B: 326.4 kW of 0.0 kW" in b1 and "LIQ-009 TCS-B: 90.0 kPa of 0.0 kPa" in b1
    crah = " ".join(page.by_id_text["failure-air_5f_unit--CRAH-1"].split())
    assert "survived" in crah and "82.8 %" in crah and "165.6 kW of 200.0 kW" in crah


def test_the_html_matrix_cells(b3_html: str) -> None:
    matrix = b3_html[b3_html.index('<table class="failure-matrix">') :]
    matrix = matrix[: matrix.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", matrix, re.S)
    head = [
        re.sub(r"<[^>]+>", "", h).split("  ")[0]
        for h in re.findall(r"<th scope=\"col\">(.*?)</th>", matrix)
    ]
    assert head[0] == "Failed element" and head[5].startswith("TCS-A")
    cdu = next(r for r in rows if "CDU-A1, CDU-A2</a>" in r)
    cells = re.findall(r"<td class=\"([^\"]*)\"[^>]*>(.*?)</td>", cdu, re.S)
    text = [(cls, " ".join(re.sub(r"<[^>]+>", " ", c).split())) for cls, c in cells]
    assert text[4] == ("cell-fail", "fail 121.4 % LIQ-003")
    assert text[5] == ("unchanged", "—")
    assert 'title="LIQ-003 TCS-A: 1,457 L/min of 1,200 L/min"' in cdu
    assert '<span class="badge status-fail">fail</span>' in cdu  # the word, not only the colour


def test_sections_are_numbered_in_order_and_listed(
    b3_html: str, without_analysis: ReportInput
) -> None:
    for html, titles in (
        (b3_html, ["Verdict and counts", "Key figures", "Findings", "Single failures",
                   "Not evaluated", "Waivers", "Passed checks",
                   "Assumptions and catalog figures", "Sign-off"]),
        (render_html(without_analysis), ["Verdict and counts", "Key figures", "Findings",
                                "Not evaluated", "Waivers", "Passed checks",
                                "Assumptions and catalog figures", "Sign-off"]),
    ):  # fmt: skip
        numbered = re.findall(r'<span class="section-number">(\d+)</span>([^<]+)</h2>', html)
        assert numbered == [(str(i), t) for i, t in enumerate(titles, 1)]
        contents = html[html.index('<nav class="contents"') : html.index("</nav>")]
        assert re.findall(r'<li><a href="#[^"]+">([^<]+)</a></li>', contents) == titles


def test_the_section_comes_after_the_findings(b3_html: str) -> None:
    assert b3_html.index('id="findings"') < b3_html.index('id="failures"')
    assert b3_html.index('id="failures"') < b3_html.index('id="not-evaluated"')


def test_the_html_links_stay_inside_the_page(b3_html: str) -> None:
    page = parse(b3_html)
    ids = set(page.ids)
    assert sorted({a for a in page.links() if a.startswith("#") and a[1:] not in ids}) == []
    assert page.external_references() == []


# --- Markdown ---------------------------------------------------------------------------------


def test_the_markdown_has_the_section(b3_md: str) -> None:
    assert_tables_keep_their_columns(b3_md)
    failures = b3_md[b3_md.index("## Single failures") : b3_md.index("## Not evaluated")]
    for line in (
        "- 16 × rack side (A01:A, A01:B, A02:A, A02:B and 12 more): PWR-002",
        "- 2 × CDU (CDU-A1, CDU-A2): LIQ-003",
        "- CDU-B1 out of service: LIQ-001, LIQ-009",
        "- facility water FW-1 lost: LIQ-001, LIQ-009",
    ):
        assert line in failures.split("\n")
    assert "82.8 % (AIR-001 B3: 165.6 kW of 200.0 kW)" in failures
    tables = table_rows(failures)
    matrix = tables[-1]
    head = [h.strip() for h in matrix[0]]
    assert head[:2] == ["Failed element", "Row A · side A (32 rack PDUs)"]
    cdu = next(row for row in matrix if "CDU-A1, CDU-A2" in row[0])
    assert cdu[head.index("TCS-A (TCS loop)")].strip() == "**fail** 121.4 % LIQ-003"
    assert cdu[head.index("TCS-B (TCS loop)")].strip() == "—"
    crah = next(row for row in matrix if "CRAH-1" in row[0])
    assert crah[head.index("Room B3 (room)")].strip() == "pass 82.8 % AIR-001"


# --- reports without the analysis, golden files -----------------------------------------------


@pytest.fixture(scope="module")
def without_analysis(tmp_path_factory: pytest.TempPathFactory) -> ReportInput:
    """Hall B3 under a profile that leaves out RED-001: no single-failure analysis runs."""
    rules = tmp_path_factory.mktemp("rules")
    (rules / "profiles").mkdir()
    (rules / "profiles" / "no-n-1.yaml").write_text(
        "name: no-n-1\ndescription: tier-iii without RED-001\nextends: frozen-tier-iii\n"
        "ignore: [RED-001]\n",
        encoding="utf-8",
    )
    with contextlib.chdir(ROOT):
        site = load_site(Path("examples/hall-b3.yaml"))
    ruleset = load_rules([bundled_rules_dir(), rules], "no-n-1", profile_dirs=[FROZEN / "profiles"])
    return run_check(site, ruleset, generated_at=GENERATED_AT)


def test_a_report_without_the_analysis_says_it_was_not_run(without_analysis: ReportInput) -> None:
    # The section, the coverage and the JSON say so; no single_failure finding is made.
    report = without_analysis
    assert report.failures is None and build_view(report).failures is None
    assert not [f for f in report.result.findings if f.rule == "RED-001"]
    html, md = render_html(report), render_markdown(report)
    assert 'id="failures"' in html and "failure-matrix" not in html
    for text in (html, md, render_text(report)):
        assert "single-failure analysis not run" in text
    data = json.loads(render_report_json(report))
    assert "failures" not in data
    not_modelled = data["coverage"]["redundancy"]["not_modelled"]
    assert not_modelled[0].startswith("single-failure analysis not run")


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_hall_b3_with_failures_matches_its_golden_file(b3, fmt, update_golden) -> None:
    text = {"html": render_html, "md": render_markdown}[fmt](b3)
    golden = GOLDEN / f"hall-b3-failures.{fmt}"
    if update_golden:
        golden.write_bytes(text.encode("utf-8"))
    assert golden.is_file(), f"{golden} is missing: run pytest tests/report --update-golden"
    assert text == golden.read_bytes().decode("utf-8"), (
        f"hall-b3-failures.{fmt} differs from its golden file; if the change is intended, "
        "regenerate with: uv run pytest tests/report --update-golden"
    )


def test_two_renders_are_identical(hall_b3: ReportInput) -> None:
    assert render_html(with_failures(hall_b3)) == render_html(with_failures(hall_b3))
    assert render_markdown(with_failures(hall_b3)) == render_markdown(with_failures(hall_b3))


# --- JSON, terminal, command line -------------------------------------------------------------


def test_the_json_result_has_the_failures_section(b3: ReportInput) -> None:
    # --json-detail full: each scenario lists the findings its loss moved
    b3 = replace(b3, presentation=replace(b3.presentation, json_detail="full"))
    data = json.loads(render_report_json(b3))
    failures = data["failures"]
    assert failures["schema"] == "facility-failures/1"
    assert {"cdu:CDU-B1", "cdu:CDU-A1", "rack_side:A01:A"} <= set(
        failures["single_points_of_failure"]
    )
    assert len(failures["scenarios"]) == 51
    crah = next(s for s in failures["scenarios"] if s["id"] == "air_unit:CRAH-1")
    assert crah["worst"]["utilisation"] == pytest.approx(0.828)
    assert crah["single_point_of_failure"] is False
    a1 = next(s for s in failures["scenarios"] if s["id"] == "cdu:CDU-A1")
    assert a1["new_failures"] == ["LIQ-003:tcs_loop:TCS-A"]
    # the rest of the result is as without the analysis
    plain = json.loads(render_report_json(replace(b3, failures=None)))
    assert {k: v for k, v in data.items() if k != "failures"} == plain
    # streamed scenario by scenario, the section is what `facility failures -f json` holds
    assert b3.failures is not None
    assert failures == json.loads(json.dumps(failures_data(b3.failures), ensure_ascii=False))
    # and `facility failures -f json`, streamed the same way, holds it with the site first
    alone = json.loads(failures_json(b3.failures, {"name": "Hall B3"}, full=True))
    assert list(alone)[:2] == ["schema", "site"]
    assert {k: v for k, v in alone.items() if k != "site"} == failures
    assert sum(len(s["findings"]) for s in failures["scenarios"]) > 50
    # compact (the default): how many findings each loss moved, its new failures named
    compact = json.loads(render_report_json(replace(b3, presentation=replace(
        b3.presentation, json_detail="compact"))))["failures"]  # fmt: skip
    assert [s["moved"] for s in compact["scenarios"]] == [
        len(s["findings"]) for s in failures["scenarios"]
    ]
    assert [s["new_failures"] for s in compact["scenarios"]] == [
        s["new_failures"] for s in failures["scenarios"]
    ]


def test_the_terminal_prints_one_line(b3: ReportInput, without_analysis: ReportInput) -> None:
    text = render_text(b3)
    assert "\nsingle points of failure: 20 (see facility failures)\nverdict: NOT READY" in text
    assert text.count("single points of failure") == 1
    assert "single points of failure" not in render_text(without_analysis)


def test_single_points_of_failure_set_the_verdict_and_failures_changes_nothing(
    tmp_path: Path,
) -> None:
    site = str(ROOT / "examples" / "hall-b3.yaml")
    args = ["check", site, "--generated-at", GENERATED_AT.isoformat()]
    plain = CliRunner().invoke(app, args)
    out = tmp_path / "b3.html"
    with_flag = CliRunner().invoke(app, [*args, "--failures", "-o", str(out)])
    assert plain.exit_code == with_flag.exit_code == 1
    assert with_flag.output == plain.output  # --failures is kept for old scripts only
    assert "ERROR RED-001" in plain.output
    assert "\nsingle points of failure: 20 (see facility failures)\n" in plain.output
    assert 'id="failures"' in out.read_text(encoding="utf-8")
    ready = CliRunner().invoke(
        app, ["check", str(ROOT / "examples" / "small-ready.yaml"), "-f", "json"]
    )
    assert ready.exit_code == 0  # each CDU on its own facility water loop: no SPOF
    data = json.loads(ready.output)
    assert data["failures"]["single_points_of_failure"] == []
    assert data["verdict"] == "ready"


def test_a_waived_finding_is_neither_new_nor_changed(tmp_path: Path) -> None:
    """Waivers apply before the analysis: a finding waived in normal operation that a loss
    judges again (without waivers, as failing) is not a new failure, nor a change."""
    data = yaml.safe_load((ROOT / "examples" / "hall-b3.yaml").read_text(encoding="utf-8"))
    data["waivers"] = [
        {"rule": "FLR-001", "entity": "B01", "reason": "spreader plates ordered",
         "owner": "facilities", "expires": "2027-06-30"}
    ]  # fmt: skip
    (tmp_path / "b3.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    report = with_failures(report_for("b3.yaml", cwd=tmp_path))
    assert "FLR-001:rack:B01" in {f.id for f in report.result.findings if f.status == "waived"}
    assert report.failures is not None
    loss = next(r for r in report.failures.results if r.scenario.id == "rack_side:B01:A")
    assert any(f.id == "FLR-001:rack:B01" and f.status == "fail" for f in loss.findings)
    assert not loss.new_failures
    section = build_view(report).failures
    assert section is not None
    rules = {c.rule for p in section.matrix.panels for r in p.rows for c in r.cells}
    assert "FLR-001" not in rules
    assert "Row B" not in [c.label for p in section.matrix.panels for c in p.columns]


# --- hostile ids, large sites -----------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> ReportInput:
    directory = tmp_path_factory.mktemp("hostile-failures")
    (directory / "site.yaml").write_text(
        yaml.safe_dump(hostile_site(), allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    return with_failures(report_for("site.yaml", cwd=directory))


def test_hostile_element_ids_are_inert_in_the_section(hostile: ReportInput) -> None:
    section = build_view(hostile).failures
    assert section is not None and section.matrix.panels
    assert any(SCRIPT in r.label for r in section.matrix.panels[0].rows)
    html = render_html(hostile)
    page = parse(html)
    assert "<script" not in html.lower() and "<b>1</b>" not in html
    assert not any(t in ("script", "img", "b", "i") for t, _ in page.tags)
    assert page.mismatched == [] and page.unclosed == []
    assert sorted({i for i in page.ids if page.ids.count(i) > 1}) == []
    ids = set(page.ids)
    assert sorted({a for a in page.links() if a.startswith("#") and a[1:] not in ids}) == []
    failures = page.by_id_text["failures"]
    assert f"{SCRIPT}:A" in failures and f"{MARKDOWN}:B" in failures  # shown, as text
    md = render_markdown(hostile)
    assert "<script" not in md
    assert_tables_keep_their_columns(md)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;:A" in md


def campus(tmp_path: Path, racks: int) -> ReportInput:
    path = tmp_path / f"campus-{racks}.yaml"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "generate_campus.py"), str(racks), str(path)],
        check=True,
        capture_output=True,
    )
    return with_failures(report_for(path))


def assert_bounded(section: FailureSection) -> None:
    assert len(section.groups) <= MAX_GROUPS
    assert section.matrix.rows <= MAX_GROUPS
    assert section.matrix.columns <= MAX_COLUMNS
    assert all(len(p.columns) <= PANEL_COLUMNS for p in section.matrix.panels)
    assert all(len(r.cells) == len(p.columns) for p in section.matrix.panels for r in p.rows)
    assert sum(len(p.columns) for p in section.matrix.panels) == section.matrix.columns


@pytest.mark.slow  # a generated campus rendered
def test_a_campus_section_is_capped(tmp_path: Path, monkeypatch) -> None:
    report = campus(tmp_path, 300)
    monkeypatch.setattr(failures_view, "MAX_GROUPS", 12)
    monkeypatch.setattr(failures_view, "MAX_COLUMNS", 10)
    section = failures_view.failure_section(report)
    assert section is not None
    assert len(section.groups) == 12 and "of" in section.groups_note
    assert section.matrix.columns == 10 < section.matrix.columns_total
    assert [len(p.columns) for p in section.matrix.panels] == [5, 5]  # balanced tables
    assert any("have a column" in note for note in section.matrix.notes)
    spofs = [g for g in section.groups if g.single_point_of_failure]
    assert section.groups[: len(spofs)] == spofs  # single points of failure first
    # every single point of failure shown has its worst-hit entity among the columns
    rows = {r.anchor for p in section.matrix.panels for r in p.rows}
    assert {g.anchor for g in spofs} <= rows


@pytest.mark.slow
def test_the_10000_rack_campus_section_stays_small(tmp_path: Path) -> None:
    report = campus(tmp_path, 10_000)
    section = build_view(report).failures
    assert section is not None
    assert_bounded(section)
    html = render_html(report)
    part = html[html.index('<section id="failures"') : html.index('<section id="not-evaluated"')]
    assert len(part) < 150_000  # 25,890 failures: about 70 kB
