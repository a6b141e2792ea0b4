"""Bad input in the machine formats (issue 17): with a JSON or SARIF output (a file or stdout)
the input error is written as a result too — the JSON error result (`verdict: error`,
`errors[]`) and a SARIF run whose invocation failed, with a notification per problem — so a
pull-request check shows it. Exit 2 still, the problems still on stderr, and the reports people
read (text, HTML, Markdown, JUnit) still not written."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from facility.cli import app
from tests.report_machine.test_sarif import assert_valid

ROOT = Path(__file__).parents[2]
HALL_B3 = ROOT / "examples" / "hall-b3.yaml"
HOSTILE = ROOT / "tests" / "hostile"
AT = ("--generated-at", "2026-11-29T12:00:00Z")
runner = CliRunner()

# An unknown top-level key: one problem, at line 2, column 1, field 'unknown'.
BAD = "site: {name: T}\nunknown: 1\n"


def run(*args: object, **kwargs):
    return runner.invoke(app, [str(a) for a in args], **kwargs)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()  # no configuration file above
    (tmp_path / "bad.yaml").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def problem_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error: ")]


def test_json_on_stdout_is_the_error_result(here):
    out = run("check", "bad.yaml", "-f", "json", *AT)
    assert out.exit_code == 2
    result = json.loads(out.stdout)
    assert result["schema"] == "facility-result/3"
    assert result["verdict"] == "error"
    assert result["site"] == {"name": None, "file": "bad.yaml", "sha256": None}
    assert result["generated_at"] == "2026-11-29T12:00:00+00:00"
    [error] = result["errors"]
    assert (error["file"], error["line"], error["column"], error["field"]) == (
        "bad.yaml", 2, 1, "unknown",
    )  # fmt: skip
    assert error["message"].startswith("unknown field")
    # never read as 'nothing failed': no counts and no findings at all
    assert "counts" not in result and "findings" not in result
    # stderr as ever, then what was written
    [line] = problem_lines(out.stderr)
    assert line == f"error: bad.yaml:2:1: unknown: {error['message']}"
    assert out.stderr.endswith(
        "1 problem found; nothing was written but the error result (stdout).\n"
    )


def test_a_sarif_file_gets_a_failed_invocation_and_the_html_nothing(here):
    (here / "old.html").write_text("previous report")
    out = run("check", "bad.yaml", "-o", "r.sarif", "-o", "old.html", "-o", "r.md", *AT)
    assert out.exit_code == 2
    assert out.stdout == ""
    assert (here / "old.html").read_text() == "previous report"  # untouched
    assert not (here / "r.md").exists()
    assert sorted(p.name for p in here.iterdir()) == [".git", "bad.yaml", "old.html", "r.sarif"]
    log = json.loads((here / "r.sarif").read_text())
    assert_valid(log)
    [sarif_run] = log["runs"]
    [invocation] = sarif_run["invocations"]
    assert invocation["executionSuccessful"] is False
    [note] = invocation["toolExecutionNotifications"]
    assert note["level"] == "error"
    assert note["descriptor"] == {"id": "input-error"}
    assert note["message"]["text"].startswith("unknown: unknown field")
    assert note["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "bad.yaml", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 2, "startColumn": 1},
    }
    assert sarif_run["results"] == []  # nothing was checked, so nothing passed either
    assert sarif_run["properties"]["verdict"] == "error"
    assert out.stderr.endswith(
        "1 problem found; nothing was written but the error result (r.sarif).\n"
    )


def test_a_previous_sarif_is_replaced_not_left_stale(here):
    good = run("check", HALL_B3, "-o", "r.sarif", *AT)
    assert good.exit_code == 1
    assert json.loads((here / "r.sarif").read_text())["runs"][0]["results"]  # Hall B3 fails
    run("check", "bad.yaml", "-o", "r.sarif", *AT)
    # a PR check reading the file sees the error, not the last good run's alerts
    log = json.loads((here / "r.sarif").read_text())
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_a_missing_file_has_no_line(here):
    out = run("check", "nope.yaml", "-o", "r.json", "-o", "r.sarif", *AT)
    assert out.exit_code == 2
    [error] = json.loads((here / "r.json").read_text())["errors"]
    assert (error["file"], error["line"], error["column"]) == ("nope.yaml", None, None)
    assert error["message"] == "file not found"
    log = json.loads((here / "r.sarif").read_text())
    assert_valid(log)
    note = log["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]
    assert note["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "nope.yaml", "uriBaseId": "%SRCROOT%"}
    }  # the file, no region: it has no line


def test_a_bad_configuration_file_is_an_error_result(here):
    shutil.copy(HALL_B3, here / "hall.yaml")
    (here / "facility.toml").write_text('profile = "supernode"\nfail_on = "warning"\n')
    out = run("check", "hall.yaml", "-f", "json", *AT)
    assert out.exit_code == 2
    [error] = json.loads(out.stdout)["errors"]
    assert error["file"].endswith("facility.toml")
    assert (error["line"], error["field"]) == (2, "fail_on")
    assert "did you mean 'fail-on'?" in error["message"]


def test_a_bad_waiver_file_is_an_error_result(here):
    (here / "waivers.yaml").write_text("waivers:\n  - rule: PWR-001\n")  # no entity, reason …
    out = run("check", HALL_B3, "--waivers", "waivers.yaml", "-f", "json", *AT)
    assert out.exit_code == 2
    errors = json.loads(out.stdout)["errors"]
    assert errors and all(e["file"] == "waivers.yaml" for e in errors)
    assert len(errors) == len(problem_lines(out.stderr))


def test_a_pattern_that_matches_no_rule_has_no_place(here):
    out = run("check", HALL_B3, "--ignore", "PWR-0001", "-f", "sarif", *AT)
    assert out.exit_code == 2
    log = json.loads(out.stdout)
    assert_valid(log)
    [note] = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["message"]["text"] == (
        "--ignore: 'PWR-0001' matches no rule of profile tier-iii (did you mean PWR-001?)"
    )
    assert "locations" not in note
    assert problem_lines(out.stderr) == [f"error: {note['message']['text']}"]


def test_the_baseline_to_write_gets_no_error_result(here):
    out = run("check", "bad.yaml", "--write-baseline", "base.json", "-o", "r.json", *AT)
    assert out.exit_code == 2
    assert (here / "r.json").exists()
    assert not (here / "base.json").exists()  # an error result is no baseline


def test_without_a_machine_output_nothing_is_written_as_before(here):
    out = run("check", "bad.yaml", "-o", "r.html", *AT)
    assert out.exit_code == 2
    assert out.stderr.endswith("1 problem found; nothing was written.\n")
    assert not (here / "r.html").exists()


def test_the_error_result_in_chinese_keeps_json_english(here):
    out = run("check", "bad.yaml", "-f", "json", "--lang", "zh-CN", *AT)
    assert out.exit_code == 2
    assert json.loads(out.stdout)["errors"][0]["message"].startswith("unknown field")


# --- the hostile corpus, with JSON and SARIF outputs ------------------------------------------

EXPECTED = yaml.safe_load((HOSTILE / "expected.yaml").read_text(encoding="utf-8"))
CHECKED = [
    name
    for name, case in EXPECTED.items()
    if case.get("command", "check") == "check"
    and not case.get("generated")
    and case["stderr"].rstrip().endswith("nothing was written.")
]


def places(line: str) -> str:
    """'error: f.yaml:3:2: field: message' -> 'f.yaml:3:2'."""
    return line.removeprefix("error: ").split(": ", 1)[0]


# Every sixth case in the default suite (each kind of bad input has several), all with -m slow.
SAMPLED = [
    pytest.param(name, marks=() if i % 6 == 0 else pytest.mark.slow)
    for i, name in enumerate(CHECKED)
]


@pytest.mark.parametrize("name", SAMPLED)
def test_every_hostile_case_is_an_error_result(name, tmp_path, monkeypatch):
    """The corpus's bad inputs (tests/hostile): each is an error result in both formats,
    valid, with as many errors as stderr lists problems; nothing else is written, no
    temporary file is left, and stderr lists the same problems as without them."""
    case = EXPECTED[name]
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(HOSTILE / "corpus")
    before = sorted(os.listdir("."))
    result = run("check", *case["args"], "-o", out / "r.json", "-o", out / "r.sarif", *AT)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    expected = problem_lines(case["stderr"])
    # the same problems at the same places (their words are the corpus test's to hold)
    assert [places(line) for line in problem_lines(result.stderr)] == list(map(places, expected))
    assert sorted(p.name for p in out.iterdir()) == ["r.json", "r.sarif"]
    assert sorted(os.listdir(".")) == before
    errors = json.loads((out / "r.json").read_text())["errors"]
    assert len(errors) == len(expected)
    log = json.loads((out / "r.sarif").read_text())
    assert_valid(log)
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert len(notes) == len(expected)
