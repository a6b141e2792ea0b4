"""facility diff for a reviewer: grouped by rule, limit changes marked, worse checks flagged,
new passing checks counted, Markdown for a pull request, and only the formats it writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.analysis.diff import diff_results, read_result
from facility.cli import app
from facility.report.diff_report import diff_markdown, diff_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HALL = EXAMPLES / "hall-b3.yaml"
runner = CliRunner()

# Z-A 25 → 20 kPa (a limit change), Z-B 12 → 16 kPa, TCS-A piping 0.40 → 0.45 bar (observed).
PLANNED = (
    ("    uniform_load_rating: 25 kPa", "    uniform_load_rating: 20 kPa"),
    ("    uniform_load_rating: 12 kPa", "    uniform_load_rating: 16 kPa"),
    ("      piping_pressure_drop: 0.40 bar", "      piping_pressure_drop: 0.45 bar"),
)


def variant(tmp_path: Path, name: str, edits: tuple[tuple[str, str], ...]) -> Path:
    text = HALL.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def planned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return variant(tmp_path_factory.mktemp("diff"), "planned.yaml", PLANNED)


@pytest.fixture(scope="module")
def report(planned: Path):
    return diff_results(read_result(HALL, None), read_result(planned, None))


@pytest.fixture(scope="module")
def unchanged(report) -> int:
    """Every finding but the 8 + 2 + 12 + 1 below (the same ids on both sides): the count
    moves with the rules, not with this change."""
    return len(report.old["findings"]) - (8 + 2 + 12 + 1)


def test_worse_and_better_are_margins_on_a_check_with_the_same_status(report) -> None:
    # FLR-003 Z-A passes on both: 1.96 kPa ≤ 25 → ≤ 20 kPa, margin 23.0 → 18.0 kPa: worse.
    # LIQ-009 TCS-A passes on both: 1.27 + 0.40 = 1.67 bar → 1.27 + 0.45 = 1.72 bar ≤ 2.5 bar,
    # margin 0.83 → 0.78 bar: worse (the observed value moved, not the limit).
    # FLR-003 Z-B passes on both: ≤ 12 → ≤ 16 kPa, margin 10.4 → 14.4 kPa: better.
    assert {c.id for c in report.worse} == {"FLR-003:floor_zone:Z-A", "LIQ-009:tcs_loop:TCS-A"}
    assert {c.id for c in report.better} == {"FLR-003:floor_zone:Z-B"}
    by_id = {c.id: c for c in report.changed}
    assert by_id["FLR-003:floor_zone:Z-A"].limit_changed
    assert not by_id["FLR-003:floor_zone:Z-A"].observed_changed
    assert by_id["LIQ-009:tcs_loop:TCS-A"].observed_changed
    assert not by_id["LIQ-009:tcs_loop:TCS-A"].limit_changed
    # Racks A01…A08 newly fail FLR-001 (20.4 kPa > 20 kPa), B01…B12 pass (15.0 ≤ 16 kPa).
    assert len(report.new_failures) == 8 and len(report.resolved) == 12
    # Every finding of either side is in one list or counted unchanged (same ids both sides).
    total = len(read_result(HALL, None)["findings"])
    listed = sum(map(len, (report.new_failures, report.resolved, report.changed)))
    assert listed + len(report.status_changes) + report.unchanged == total


def test_a_worse_passing_check_does_not_fail_a_baseline(report) -> None:
    from facility.analysis.baseline import against_baseline

    baseline = against_baseline(report.old, report.new, "old.json")
    assert baseline.worse == ()  # Z-A and TCS-A still pass: only failing ones fail a run
    assert len(baseline.new) == 8


def test_text_groups_by_rule_in_review_order_and_collapses_runs(report, unchanged) -> None:
    text = diff_text(report)
    order = [
        text.index(h) for h in ("NEW FAILURES (8)", "WORSE (2)", "RESOLVED (12)", "BETTER (1)")
    ]
    assert order == sorted(order)
    assert f"8 new failures · 2 worse · 12 resolved · 1 better · {unchanged} unchanged" in text
    assert text.count("FLR-001 ") == 2  # the rule once per section: new failures, resolved
    assert (
        "    rack A01 … A08 (8): passes → fails; observed 20.4 kPa; "
        "limit 25.0 kPa → 20.0 kPa (limit changed); margin 4.6 kPa → -0.4 kPa\n"
    ) in text
    assert (
        "    ▼ tcs_loop TCS-A: passes; observed 167.0 kPa → 172.0 kPa; limit 250.0 kPa; "
        "margin 83.0 kPa → 78.0 kPa\n"
    ) in text
    assert "    ▲ floor_zone Z-B:" in text


def test_markdown_is_a_pull_request_comment(report, unchanged) -> None:
    md = diff_markdown(report)
    assert md.startswith("### facility diff: Hall B3 → Hall B3\n")
    assert (
        f"**8 new failures** · **2 worse** · **12 resolved** · **1 better** · {unchanged} unchanged"
    ) in md
    # New failures and worse are open; resolved and better fold into <details>.
    assert "#### New failures (8)" in md and "#### Worse (2)" in md
    assert "<details>\n<summary>Resolved (12)</summary>\n" in md
    assert "<summary>Better (1)</summary>" in md
    assert (
        "| rack A01 … A08 (8) | passes → fails | 20.4 kPa | 25.0 kPa → 20.0 kPa "
        "**(limit changed)** | 4.6 kPa → -0.4 kPa |"
    ) in md
    assert "| ▼ tcs\\_loop TCS-A | passes |" in md  # the _ escaped: not emphasis
    assert md.count("<details>") == md.count("</details>") == 2


def test_new_passing_checks_are_a_count_and_a_new_check_not_passing_is_shown(report) -> None:
    old = dict(report.old)
    gone = {"AIR-001:room:B3", "FLR-003:floor_zone:Z-B"}  # both pass in the new state
    old["findings"] = [f for f in report.new["findings"] if f["id"] not in gone]
    new = dict(report.new)
    for f in new["findings"]:
        assert f["status"] != "not_evaluated" or f["id"] not in gone
    text = diff_text(diff_results(old, new))
    assert "+2 new passing checks" in text
    assert "AIR-001" not in text  # counted, not listed
    md = diff_markdown(diff_results(old, new))
    assert "+2 new passing checks" in md


def test_cli_markdown_and_exit_codes(planned: Path) -> None:
    out = runner.invoke(app, ["diff", str(HALL), str(planned), "-f", "markdown"])
    assert out.exit_code == 1  # new failures
    assert "#### New failures (8)" in out.stdout
    same = runner.invoke(app, ["diff", str(HALL), str(HALL), "-f", "markdown"])
    assert same.exit_code == 0 and "No finding changed." in same.stdout


def test_json_carries_worse_and_the_limit_change(planned: Path, unchanged: int) -> None:
    out = runner.invoke(app, ["diff", str(HALL), str(planned), "-f", "json"])
    assert out.exit_code == 1
    data = json.loads(out.stdout)
    assert data["counts"] == {
        "new_failures": 8,
        "worse": 2,
        "resolved": 12,
        "better": 1,
        "status_changes": 0,
        "added": 0,
        "added_passing": 0,
        "removed": 0,
        "unchanged": unchanged,
    }
    za = next(c for c in data["changed"] if c["id"] == "FLR-003:floor_zone:Z-A")
    assert za["worse"] is True and za["limit_changed"] is True and za["observed_changed"] is False
    assert (za["before"]["limit"]["value"], za["after"]["limit"]["value"]) == (25.0, 20.0)
    new = data["new_failures"][0]
    assert new["rule"] == "FLR-001" and new["worse"] is False  # a status move, not "worse"


@pytest.mark.parametrize(
    ("command", "wrong", "offered"),
    [
        (["failures", str(HALL)], "markdown", "'text', 'json'"),
        (
            ["headroom", str(HALL), "--rack-type", "gb300-b3", "--zone", "Z-A"],
            "html",
            "'text', 'json'",
        ),
        (["diff", str(HALL), str(HALL)], "sarif", "'text', 'json', 'markdown'"),
    ],
)
def test_each_command_offers_only_the_formats_it_writes(command, wrong, offered) -> None:
    out = runner.invoke(app, [*command, "-f", wrong])
    assert out.exit_code == 2
    assert offered in " ".join(out.output.split()).replace("│ ", "")
    helped = runner.invoke(app, [command[0], "--help"], env={"COLUMNS": "200"})
    assert f"<{offered.replace(chr(39), '').replace(', ', '|')}>" in helped.output


def _finding(entity: str, status: str, observed: float | None, limit: float | None, **extra):
    """A finding of a JSON result, in kW (margin = limit − observed for ≤)."""

    def q(value: float | None):
        return None if value is None else {"value": value, "unit": "kW", "text": f"{value} kW"}

    margin = None if observed is None or limit is None else limit - observed
    return {
        "id": f"PWR-001:rack:{entity}",
        "rule": "PWR-001",
        "title": extra.get("title", "One power side cannot carry the whole rack"),
        "status": status,
        "entity": {"kind": "rack", "id": entity},
        "observed": q(observed),
        "limit": q(limit),
        "margin": q(margin),
    }


def _result(*findings) -> dict:
    site = {"name": "Hall", "file": "hall.yaml", "sha256": "0" * 64}
    return {
        "site": site,
        "profile": "tier-iii",
        "rules_version": "x",
        "verdict": "not-ready",
        "findings": list(findings),
    }


def test_worse_is_a_lower_margin_on_a_failing_or_passing_check_and_only_that() -> None:
    old = _result(
        _finding("R1", "fail", 110.0, 100.0),  # margin −10
        _finding("R2", "pass", 80.0, 100.0),  # margin +20
        _finding("R3", "fail", 110.0, 100.0),  # margin −10
        _finding("R4", "pass", 80.0, 100.0),  # unchanged
        _finding("R5", "not_evaluated", None, None),
        _finding("R6", "pass", 80.0, 100.0),
    )
    new = _result(
        _finding("R1", "fail", 120.0, 100.0),  # −10 → −20: worse, still failing
        _finding("R2", "pass", 80.0, 90.0),  # +20 → +10 by the limit: worse, still passing
        _finding("R3", "fail", 105.0, 100.0),  # −10 → −5: better, still failing
        _finding("R4", "pass", 80.0, 100.0),
        _finding("R5", "pass", 80.0, 100.0),  # not evaluated → pass: a status change
        _finding("R7", "pass", 10.0, 100.0),  # new and passing: a count
    )
    report = diff_results(old, new)
    assert [c.id.split(":")[-1] for c in report.worse] == ["R1", "R2"]
    assert [c.id.split(":")[-1] for c in report.better] == ["R3"]
    assert [c.id.split(":")[-1] for c in report.status_changes] == ["R5"]
    assert [c.id.split(":")[-1] for c in report.removed] == ["R6"]
    assert [c.id.split(":")[-1] for c in report.added_passing] == ["R7"]
    assert report.unchanged == 1
    r1, r2 = report.worse
    assert r1.observed_changed and not r1.limit_changed
    assert r2.limit_changed and not r2.observed_changed
    text = diff_text(report)
    assert (
        "0 new failures · 2 worse · 0 resolved · 1 better · +1 new passing check · 1 unchanged"
        in text
    )
    assert (
        "    ▼ rack R2: passes; observed 80.0 kW; limit 100.0 kW → 90.0 kW (limit changed); "
        "margin 20.0 kW → 10.0 kW\n"
    ) in text
    assert "    ▼ rack R1: fails; observed 110.0 kW → 120.0 kW; limit 100.0 kW;" in text
    assert "R7" not in text  # counted only
    assert "CHECKS GONE (1)" in text and "rack R6: passes → absent" in text


def test_a_margin_now_unknown_or_in_another_unit_counts_as_worse() -> None:
    before = _finding("R1", "fail", 110.0, 100.0)
    unknown = _finding("R1", "fail", None, 100.0)
    other_unit = _finding("R1", "fail", 110.0, 100.0)
    other_unit["margin"] = {"value": -5.0, "unit": "kVA", "text": "-5.0 kVA"}
    for after in (unknown, other_unit):
        (change,) = diff_results(_result(before), _result(after)).changed
        assert change.worse  # it cannot be shown not to be worse


def test_hostile_ids_and_titles_are_inert_in_text_and_markdown() -> None:
    hostile = "x|<b>*y*\x1b[2J\u202e"
    old = _result(_finding(hostile, "pass", 80.0, 100.0, title="t | <script>"))
    new = _result(_finding(hostile, "fail", 120.0, 100.0, title="t | <script>"))
    report = diff_results(old, new)
    text = diff_text(report)
    assert "\x1b" not in text and "\u202e" not in text
    assert "\\x1b[2J\\u202e" in text
    md = diff_markdown(report)
    assert "<b>" not in md and "<script>" not in md
    assert "x\\|&lt;b&gt;\\*y\\*" in md  # the pipe cannot end the cell
    row = next(line for line in md.splitlines() if line.startswith("| rack"))
    assert row.count(" | ") == 4  # five cells, as the header


def test_runs_are_written_as_the_reports_write_them() -> None:
    import random

    from facility.report.diff_report import _Order
    from facility.report.entity_runs import compressed, in_order

    ids = in_order(f"A{n:02d}" for n in range(1, 41))
    order = _Order(ids, {entity: n for n, entity in enumerate(ids)})
    pick = random.Random(17)
    for _ in range(200):
        group = pick.sample(ids, pick.randint(1, len(ids)))
        assert order.runs(group) == compressed(group, ids, limit=None)
    assert order.runs(["A01", "A02", "A03", "A05"]) == "A01 … A03, A05"


def test_a_campus_sized_diff_with_every_row_different() -> None:
    # Correctness at campus size; its speed is measured by benchmarks, never asserted here.
    n = 10_000  # a 10,000-rack campus, each rack's margin a different change
    old = _result(*(_finding(f"R{i}", "pass", 50.0 + i / 1000, 100.0) for i in range(n)))
    new = _result(*(_finding(f"R{i}", "pass", 51.0 + i / 1000, 100.0) for i in range(n)))
    report = diff_results(old, new)
    text = diff_text(report)
    assert len(report.worse) == n and text.count("▼ rack R") == n
