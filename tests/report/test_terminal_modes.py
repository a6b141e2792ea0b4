"""The terminal summary's lengths (-q, default, -v), --statistics and colour (issue 17).

The default fits one screen (≤ 40 lines for Hall B3) and still names every failing entity;
-q is the verdict and counts; -v the whole working. The expectations come from the findings,
not from constants: a rule that fails on one more rack changes them with it.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from facility.cli import app
from facility.report.context import ReportInput
from facility.report.entity_runs import compressed, expanded, in_order, judged_orders
from facility.report.terminal import render_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# '       ERROR PWR-003 A01-A1 … A08-B4 (64 rack PDUs): 40.8 kVA violates …'
GROUP = re.compile(r"^ +(?:ERROR|WARNING|INFO) ([A-Z]+-\d{3}) (.+?)(?: \(([\d,]+) [^)]*\))?: ")

# The line of row A's racks in Hall B3, read from the file (the example grows).
_B3 = (Path(__file__).resolve().parents[2] / "examples" / "hall-b3.yaml").read_text("utf-8")
ROW_A = next(n for n, row in enumerate(_B3.splitlines(), 1) if row == "  - id: A") + 1


def _shown(report: ReportInput, **presentation: object) -> str:
    shown = dataclasses.replace(report.presentation, **presentation)
    return render_text(dataclasses.replace(report, presentation=shown))


def test_hall_b3_fits_one_screen_and_names_every_failing_entity(hall_b3: ReportInput) -> None:
    text = _shown(hall_b3)
    lines = text.rstrip("\n").split("\n")
    assert len(lines) <= 40, len(lines)
    failing: dict[str, set[str]] = {}
    kinds: dict[str, str] = {}
    for f in hall_b3.result.findings:
        if f.status == "fail":
            failing.setdefault(f.rule, set()).add(f.entity_id)
            kinds[f.rule] = f.entity_kind
    orders = judged_orders(hall_b3.result.findings)
    named: dict[str, list[str]] = {}
    for line in lines:
        match = GROUP.match(line)
        if match is None:
            continue
        rule, entities, count = match.groups()
        ids = expanded(entities, orders[(rule, kinds[rule])])
        assert len(ids) == int((count or "1").replace(",", "")), line  # the count is the runs'
        named.setdefault(rule, []).extend(ids)
    # each failing entity once, under its cause; nothing that does not fail
    assert {rule: sorted(ids) for rule, ids in named.items()} == {
        rule: sorted(ids) for rule, ids in failing.items()
    }
    assert sum(len(ids) for ids in named.values()) == 107
    # the causes, numbered, on the screen; the verdict first and last
    assert (
        "\n6 CAUSES\n  1. A01 … A08 (8 racks): One power side cannot carry the whole rack" in text
    )
    assert (
        lines[-1]
        == "verdict: NOT READY — checks: 107 failed, 306 passed, 34 not evaluated, 0 waived"
    )
    assert next(line for line in lines if line.startswith("verdict:")) == lines[-1]
    # no working, no places by default: -v has them
    assert "observed:" not in text and f"hall-b3.yaml:{ROW_A}" not in text
    assert "-v names them" in text


def test_quiet_is_the_verdict_and_the_counts(hall_b3: ReportInput) -> None:
    text = _shown(hall_b3, verbosity=-1)
    assert text == (
        "verdict: NOT READY — checks: 107 failed, 306 passed, 34 not evaluated, 0 waived\n"
        "  errors: 107 (floor 12, liquid 3, power 72, single failures 20)\n"
        "  6 causes\n"
    )


def test_quiet_on_a_ready_site_names_no_cause(small_ready: ReportInput) -> None:
    text = _shown(small_ready, verbosity=-1)
    assert text == "verdict: READY — checks: 0 failed, 239 passed, 0 not evaluated, 0 waived\n"


def test_verbose_has_the_working_the_places_and_the_whole_coverage(hall_b3: ReportInput) -> None:
    text = _shown(hall_b3, verbosity=1)
    default = _shown(hall_b3)
    assert len(text.splitlines()) > len(default.splitlines())
    # PWR-001's working, once for the eight identical racks, with the place in the site file
    assert "\nERROR PWR-001 One power side cannot carry the whole rack\n" in text
    assert f"  A01 … A08 (8 racks; examples/hall-b3.yaml:{ROW_A}): 163.2 kVA violates" in text
    assert "      observed: P_peak / PF, with P_peak = 155.0 kW, PF = 95.0 % → 163.2 kVA\n" in text
    assert text.count("      observed: P_peak / PF") == 1
    # every limit of the model named: what the default only counts
    coverage = hall_b3.result.coverage
    assert coverage is not None
    named = [line for line in text.splitlines() if line.startswith("    - ")]
    assert len(named) == sum(len(a.not_modelled) for a in coverage.areas) == 17
    # what was not evaluated, entity by entity
    assert "  FLR-004 A01 … A08 (8 racks): rack type 'gb300-b3' has no max_payload" in text
    assert "6 CAUSES\n  1. A01 … A08 (8 racks)" in text  # the causes, without their lines


def test_statistics_is_a_table_per_rule(hall_b3: ReportInput) -> None:
    text = _shown(hall_b3, statistics=True)
    table = text[text.index("\nSTATISTICS\n") :].split("\n")[2:]
    header, rows = table[0], [r for r in table[1:] if re.match(r"^ +[\d,]+ +[\d,]+ +[A-Z]", r)]
    assert header.split() == ["failing", "not", "evaluated", "rule", "severity", "title"]
    failing = Counter(f.rule for f in hall_b3.result.findings if f.status == "fail")
    unknown = Counter(f.rule for f in hall_b3.result.findings if f.status == "not_evaluated")
    seen = {}
    for row in rows:
        fail, missing, rule, severity, *_title = row.split()
        seen[rule] = (int(fail.replace(",", "")), int(missing.replace(",", "")))
        assert severity in ("ERROR", "WARNING", "INFO")
    assert seen == {r: (failing[r], unknown[r]) for r in {*failing, *unknown}}
    assert next(iter(seen)) == "PWR-003"  # most failing first: 64 PDUs
    assert "STATISTICS" not in _shown(hall_b3)  # only when asked


def test_colour_paints_the_verdict_and_severities_and_nothing_else(hall_b3: ReportInput) -> None:
    for verbosity in (-1, 0, 1):
        plain = _shown(hall_b3, verbosity=verbosity, statistics=True)
        coloured = _shown(hall_b3, verbosity=verbosity, statistics=True, colour=True)
        assert "\x1b" not in plain
        assert "\x1b[31mNOT READY\x1b[0m" in coloured  # red
        assert ANSI.sub("", coloured) == plain
    assert "\x1b[31mERROR\x1b[0m PWR-003" in _shown(hall_b3, colour=True)


def test_colour_green_for_ready(small_ready: ReportInput) -> None:
    assert "\x1b[32mREADY\x1b[0m" in _shown(small_ready, colour=True)


def test_colour_on_the_command_line_follows_no_color_and_force_color(tmp_path: Path) -> None:
    # the bundled rules: whatever the verdict, FORCE_COLOR colours it and NO_COLOR wins
    site = str(ROOT / "examples" / "small-ready.yaml")
    runner = CliRunner()
    plain = runner.invoke(app, ["check", site], env={"FORCE_COLOR": "", "NO_COLOR": ""})
    forced = runner.invoke(app, ["check", site], env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    both = runner.invoke(app, ["check", site], env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert plain.exit_code == forced.exit_code == both.exit_code in (0, 1)
    assert "\x1b" not in plain.stdout  # CliRunner's output is no terminal
    assert "verdict: \x1b[3" in forced.stdout and ANSI.sub("", forced.stdout) == plain.stdout
    assert both.stdout == plain.stdout
    out = tmp_path / "summary.txt"
    written = runner.invoke(
        app, ["check", site, "-o", str(out)], env={"FORCE_COLOR": "1", "NO_COLOR": ""}
    )
    assert written.exit_code == plain.exit_code, written.output
    assert "verdict: " in out.read_text() and "\x1b" not in out.read_text()  # never a file


IDS = [f"R{i}" for i in range(1, 13)]


@given(st.sets(st.sampled_from(IDS), min_size=1))
def test_runs_name_exactly_their_entities(group: set[str]) -> None:
    # A run 'first … last' stands for every entity the rule judged between them: a set with a
    # gap (R2 passed between R1 and R3) is never written as one run.
    order = in_order(IDS)
    text = compressed(group, order)
    assert expanded(text, order) == [e for e in order if e in group]


def test_show_passed_lists_each_rule_by_the_requirement_that_holds(
    small_ready: ReportInput,
) -> None:
    text = _shown(small_ready, show_passed=True)
    passed = text[text.index("\nPASSED\n") :]
    for rule in small_ready.ruleset.rules:
        words = rule.spec.text("en")
        if any(f.rule == rule.code and f.status == "pass" for f in small_ready.result.findings):
            # one heading per rule, its status and its requirement title, never the failure title
            assert passed.count(f"  PASS {rule.code} {words.requirement_title}\n") == 1
            assert words.title not in passed
    assert "ERROR" not in passed and "WARNING" not in passed  # status, not severity


def test_a_waiver_of_many_entities_is_one_line_with_its_runs(tmp_path: Path) -> None:
    waivers = tmp_path / "waivers.yaml"
    waivers.write_text(
        "waivers:\n"
        "  - {rule: PWR-003, entity: 'row:A', reason: feeds upgraded in Q1, owner: J. Doe,"
        " expires: 2027-03-31}\n"
        "  - {rule: FLR-001, entity: [B01, 'B1?'], reason: plates ordered, owner: K. Lee,"
        " expires: 2027-02-28}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        app,
        ["check", str(EXAMPLES / "hall-b3.yaml"), "--waivers", str(waivers),
         "--generated-at", "2026-11-29T12:00:00Z"],
    )  # fmt: skip
    text = result.stdout
    section = text[text.index("WAIVED (accepted") :].split("\n\n")[0].splitlines()[1:]
    # row:A names the 64 PDUs of row A (8 racks × 2 sides × 4); B01 and B1? name B01, B10-B12
    assert section == [
        "  FLR-001 B01, B10 … B12 (4 racks): 15.0 kPa violates (waived) the limit: must be ≤ "
        "12.0 kPa, margin -3.0 kPa — K. Lee, until 2027-02-28: plates ordered",
        "  PWR-003 A01-A1 … A08-B4 (64 rack PDUs): 40.8 kVA violates (waived) the limit: must "
        "be ≤ 36.2 kVA, margin -4.6 kVA — J. Doe, until 2027-03-31: feeds upgraded in Q1",
    ]


def test_the_verdict_line_counts_have_thousands_separators(tmp_path: Path) -> None:
    """A campus's counts read as the other lines' do: '1,148 failed', not '1148 failed'."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate_campus import write_campus

    path = tmp_path / "campus.yaml"
    write_campus(60, path)
    done = CliRunner().invoke(app, ["check", str(path), "-q"])
    verdict = next(line for line in done.output.splitlines() if line.startswith("verdict:"))
    counts = [int(n.replace(",", "")) for n in re.findall(r"(\d[\d,]*) (?:failed|passed)", verdict)]
    assert max(counts) >= 1000, verdict  # (the campus has over a thousand passing checks)
    assert re.search(r"\d,\d{3} (?:failed|passed)", verdict), verdict
    assert not re.search(r"\d{4} (?:failed|passed|not evaluated|waived)", verdict), verdict
