"""--select / --ignore: codes, prefixes and globs, any case; typos are errors; reports say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.analysis.diff import full_findings
from facility.cli import app
from facility.engine.selection import Pattern, SelectionError, matches, patterns, select_rules

HALL_B3 = Path(__file__).parents[2] / "examples" / "hall-b3.yaml"
# Hall B3's failing rules under tier-iii (its design intent): every one an error
FAILING = {"FLR-001", "LIQ-002", "LIQ-004", "LIQ-029", "PWR-001", "PWR-003", "PWR-021", "RED-001"}
runner = CliRunner()

CODES = ["LIQ-001", "LIQ-010", "LIQ-011", "LIQ-002", "PWR-001", "PWR-003", "PWR-010"]


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("PWR-003", {"PWR-003"}),
        ("pwr-003", {"PWR-003"}),
        ("PWR", {"PWR-001", "PWR-003", "PWR-010"}),
        ("PWR-00", {"PWR-001", "PWR-003"}),
        ("LIQ-01*", {"LIQ-010", "LIQ-011"}),
        ("liq-00?", {"LIQ-001", "LIQ-002"}),
        ("*-001", {"LIQ-001", "PWR-001"}),
    ],
)
def test_a_pattern_is_a_code_a_prefix_or_a_glob_in_any_case(pattern, expected):
    assert {c for c in CODES if matches(pattern, c)} == expected


def test_select_keeps_then_ignore_leaves_out():
    kept, selection = select_rules(
        CODES,
        patterns(["PWR,LIQ-01*"], "--select"),
        patterns(["PWR-010", "liq-011"], "--ignore"),
        profile="p",
    )
    assert kept == {"PWR-001", "PWR-003", "LIQ-010"}
    assert selection is not None
    assert selection.deselected == ("LIQ-001", "LIQ-002", "LIQ-011", "PWR-010")
    assert selection.ignore == ("PWR-010", "LIQ-011")
    assert select_rules(CODES, [], [], profile="p") == (set(CODES), None)


def test_a_pattern_matching_nothing_is_an_error_with_a_suggestion():
    with pytest.raises(SelectionError) as caught:
        select_rules(
            CODES,
            [Pattern("PWR-0003", "--select"), Pattern("XYZ-9*", "--select")],
            [Pattern("LQI", "f.toml:3: ignore"), Pattern("AIR-001", "--ignore")],
            profile="p",
            other_codes=["AIR-001"],
        )
    assert caught.value.problems == [
        "--select: 'PWR-0003' matches no rule of profile p (did you mean PWR-003?)",
        "--select: 'XYZ-9*' matches no rule of profile p (see: facility rules list)",
        "f.toml:3: ignore: 'LQI' matches no rule of profile p (did you mean LIQ?)",
        "--ignore: 'AIR-001' matches no rule of profile p (only AIR-001, which the profile "
        "leaves out)",
    ]


def test_ignoring_the_failing_rules_says_so_in_the_verdict_and_the_json(tmp_path):
    from facility.engine.rules import load_rules

    out = tmp_path / "b3.json"
    # every failing rule, PWR (its PWR-015 is not evaluated at error severity: no banks) and
    # the ride-through rules (errors under tier-iii, not evaluated: no pump loads, no volume)
    result = run(
        "check", HALL_B3, "--ignore", "flr-001,LIQ-00[24],LIQ-029", "--ignore", "PWR",
        "--ignore", "RED", "--ignore", "LIQ-019,LIQ-02[01]", "-o", out,
    )  # fmt: skip
    # nothing error-severity fails or is unknown any more: exit 0, but never silently
    assert result.exit_code == 0, result.output
    profile = [r.code for r in load_rules(profile="tier-iii").rules]
    left_out = sorted(
        c
        for c in profile
        if c.startswith(("PWR", "RED"))
        or c in {"FLR-001", "LIQ-002", "LIQ-004", "LIQ-029", "LIQ-019", "LIQ-020", "LIQ-021"}
    )
    assert set(left_out) >= FAILING
    text = " ".join(result.stdout.split())
    assert (
        f"Verdict with {len(left_out)} rules of profile tier-iii left out by --select/--ignore, "
        f"not run: {', '.join(left_out[:10])} and {len(left_out) - 10} more." in text
    )
    data = json.loads(out.read_text())
    assert data["selection"] == {
        "select": [],
        "ignore": ["FLR-001", "LIQ-00[24]", "LIQ-029", "PWR", "RED", "LIQ-019", "LIQ-02[01]"],
        "deselected": left_out,
    }
    assert data["summary"].startswith(f"Verdict with {len(left_out)} rules")
    assert not {f["rule"] for f in full_findings(data)} & FAILING
    full = json.loads(run("check", HALL_B3, "-f", "json").stdout)
    assert "selection" not in full  # a run of the whole profile: as before
    assert data["rules_version"] != full["rules_version"]  # the rules run are another set


def test_select_from_the_config_file_and_the_command_line_over_it(tmp_path):
    site = tmp_path / "hall-b3.yaml"
    site.write_text(HALL_B3.read_text())
    (tmp_path / ".git").mkdir()
    (tmp_path / "facility.toml").write_text('select = ["FLR"]\n')
    data = json.loads(run("check", site, "-f", "json").stdout)
    rules = {f["rule"] for f in full_findings(data)}
    assert rules and all(rule.startswith("FLR-") for rule in rules)
    data = json.loads(run("check", site, "-f", "json", "--select", "PWR-001").stdout)
    assert {f["rule"] for f in full_findings(data)} == {"PWR-001"}
    (tmp_path / "facility.toml").write_text('\n\nselect = ["FLRR"]\n')
    result = run("check", site)
    assert result.exit_code == 2
    assert (
        f"error: {tmp_path / 'facility.toml'}:3: select: 'FLRR' matches no rule of profile "
        "tier-iii (did you mean FLR?)" in result.stderr
    )


def test_a_typo_exits_2_and_writes_nothing(tmp_path):
    out = tmp_path / "b3.html"  # (a JSON output would get an error result)
    result = run("check", HALL_B3, "--ignore", "PWR-0001", "-o", out)
    assert result.exit_code == 2
    assert (
        "error: --ignore: 'PWR-0001' matches no rule of profile tier-iii (did you mean PWR-001?)"
        in result.stderr
    )
    assert not out.exists() and result.stdout == ""
