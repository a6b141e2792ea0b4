"""--baseline / --write-baseline: only failing findings new or worse than a previous result
fail the run; the known ones are shown and counted as baselined."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.analysis.baseline import against_baseline
from facility.cli import app

HALL_B3 = Path(__file__).parents[2] / "examples" / "hall-b3.yaml"
AT = ("--generated-at", "2026-11-29T12:00:00Z")
runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()  # no configuration file above is read
    path = tmp_path / "site.yaml"
    path.write_text(HALL_B3.read_text())
    return path


def test_the_baseline_flow_end_to_end(site, tmp_path):
    base = tmp_path / "base.json"
    written = run("check", site, "--write-baseline", base, *AT)
    assert written.exit_code == 1  # Hall B3 fails, and the baseline is written all the same
    assert base.read_text() == run("check", site, "-f", "json", *AT).stdout  # the JSON result
    known = sum(1 for f in json.loads(base.read_text())["findings"] if f["status"] == "fail")
    assert known > 100

    # unchanged: every failure is known; shown, baselined, exit 0
    same = run("check", site, "--baseline", base)
    assert same.exit_code == 0, same.output
    text = " ".join(same.stdout.split())
    assert "verdict: NOT READY" in same.stdout  # the verdict is the site's, as ever
    assert (
        f"Against the baseline {base}: no failing finding is new or worse. {known} failing "
        "findings are known from it (baselined) and do not fail the run." in text
    )
    assert "PWR-001" in same.stdout  # the known failures are still listed

    # worse: the atlas racks draw 33 kW, not 32 (TCS-B's heat and flow margins drop);
    # new: facility water FW-1 gives 1,500 L/min, not 3,500 (LIQ-011 now fails)
    changed = site.read_text()
    changed = changed.replace("nominal_power: 32 kW", "nominal_power: 33 kW")
    changed = changed.replace("available_flow: 3500 L/min", "available_flow: 1500 L/min")
    site.write_text(changed)
    out = tmp_path / "now.json"
    worse = run("check", site, "--baseline", base, "-o", out)
    assert worse.exit_code == 1, worse.output
    text = " ".join(worse.stdout.split())
    assert (
        f"Against the baseline {base}: 3 failing findings are new or worse (1 new, 2 worse): "
        "LIQ-002:tcs_loop:TCS-B, LIQ-004:tcs_loop:TCS-B, LIQ-011:facility_water:FW-1. "
        f"{known - 2} failing findings are known from it (baselined) and do not fail the run."
        in text  # the two worse ones are no longer known
    )
    data = json.loads(out.read_text())
    assert data["baseline"] == {
        "file": str(base),
        "known": known - 2,
        "new": ["LIQ-011:facility_water:FW-1"],
        "worse": ["LIQ-002:tcs_loop:TCS-B", "LIQ-004:tcs_loop:TCS-B"],
        "new_not_evaluated": [],
    }
    assert "Against the baseline" in data["summary"]
    # without the baseline the same site simply fails
    assert "baseline" not in json.loads(run("check", site, "-f", "json").stdout)


def test_a_baseline_from_the_configuration_file(site, tmp_path):
    assert run("check", site, "--write-baseline", tmp_path / "ci" / "base.json").exit_code == 2
    (tmp_path / "ci").mkdir()
    assert run("check", site, "--write-baseline", tmp_path / "ci" / "base.json").exit_code == 1
    (tmp_path / "facility.toml").write_text('baseline = "ci/base.json"\n')
    assert run("check", site).exit_code == 0
    assert run("check", site, "--isolated").exit_code == 1


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("[1, 2]", ":1:1: not a facility result"),
        (
            '{"schema": "facility-result/1"}',
            ":1:1: site: not a facility result: a required field is missing",
        ),
        ("{", ":1:2: invalid JSON"),
    ],
)
def test_a_bad_baseline_exits_2_and_writes_nothing(site, tmp_path, content, expected):
    base = tmp_path / "base.json"
    base.write_text(content)
    out = tmp_path / "out.html"  # (a JSON output would get an error result)
    result = run("check", site, "--baseline", base, "-o", out)
    assert result.exit_code == 2
    assert f"{base}{expected}" in result.stderr
    assert not out.exists() and result.stdout == ""
    missing = run("check", site, "--baseline", tmp_path / "none.json")
    assert missing.exit_code == 2 and "file not found" in missing.stderr


def test_the_baseline_is_never_overwritten_by_the_run(site, tmp_path):
    base = tmp_path / "base.json"
    run("check", site, "--write-baseline", base)
    before = base.read_text()
    result = run("check", site, "--baseline", base, "--write-baseline", base)
    assert result.exit_code == 2
    assert base.read_text() == before


def _finding(fid: str, status: str, margin: float | None, severity: str = "error") -> dict:
    return {
        "id": fid,
        "status": status,
        "severity": severity,
        "margin": None if margin is None else {"value": margin, "unit": "kW", "text": ""},
    }


def test_new_worse_and_known_are_judged_on_rule_entity_and_margin():
    before = {"findings": [
        _finding("A:rack:1", "fail", -1.0), _finding("A:rack:2", "fail", -1.0),
        _finding("A:rack:3", "pass", 2.0), _finding("A:rack:4", "fail", -5.0),
        _finding("B:rack:1", "waived", -1.0), _finding("C:rack:1", "pass", None),
    ]}  # fmt: skip
    after = {"findings": [
        _finding("A:rack:1", "fail", -1.0),  # same: known
        _finding("A:rack:2", "fail", -1.5),  # more negative: worse
        _finding("A:rack:3", "fail", -0.1),  # passed then: new
        _finding("A:rack:4", "fail", -4.0),  # better but failing: known
        _finding("B:rack:1", "fail", -1.0),  # waived then (expired now): new
        _finding("C:rack:1", "not_evaluated", None),  # newly not evaluated
        _finding("D:rack:1", "fail", -1.0),  # a rule the baseline did not have: new
    ]}  # fmt: skip
    compared = against_baseline(before, after, "b.json")
    assert compared.new == ("A:rack:3", "B:rack:1", "D:rack:1")
    assert compared.worse == ("A:rack:2",)
    assert compared.known == 2
    assert compared.new_gaps == ("C:rack:1",)


def test_the_baseline_is_listed_among_the_inputs_with_its_hash(site, tmp_path):
    import hashlib

    base = tmp_path / "base.json"
    run("check", site, "--write-baseline", base, *AT)
    out = tmp_path / "now.json"
    html = tmp_path / "now.html"
    run("check", site, "--baseline", base, "-o", out, "-o", html, *AT)
    digest = hashlib.sha256(base.read_bytes()).hexdigest()
    inputs = json.loads(out.read_text())["inputs"]
    assert {"role": "baseline", "file": str(base), "sha256": digest} in inputs
    assert digest in html.read_text()  # the sign-off lists it too


def _changed(site: Path) -> None:
    """Hall B3 with two findings worse (TCS-B) and one new (FW-1), as in the end-to-end test."""
    changed = site.read_text().replace("nominal_power: 32 kW", "nominal_power: 33 kW")
    site.write_text(changed.replace("available_flow: 3500 L/min", "available_flow: 1500 L/min"))


@pytest.mark.parametrize("detail", ["compact", "full"])
def test_a_streamed_baseline_judges_as_the_results_read_whole(site, tmp_path, detail):
    from facility.analysis.baseline import read_previous
    from facility.analysis.diff import full_findings, read_result_file

    base = tmp_path / "base.json"
    run("check", site, "--write-baseline", base, "--json-detail", detail, *AT)
    _changed(site)
    now = tmp_path / "now.json"
    run("check", site, "-o", now, "--json-detail", "full", *AT)
    previous = read_previous(base)
    findings = full_findings(json.loads(base.read_text()))
    assert len(previous.failing) == sum(f["status"] == "fail" for f in findings)
    assert len(previous.not_evaluated) == sum(f["status"] == "not_evaluated" for f in findings)
    # what is held: the failing and not-evaluated findings, not the passing ones
    assert len(previous.failing) + len(previous.not_evaluated) < len(findings)
    whole = against_baseline(read_result_file(base), read_result_file(now), str(base))
    assert whole.new == ("LIQ-011:facility_water:FW-1",)
    against = run("check", site, "--baseline", base, "-o", tmp_path / "again.json", *AT)
    assert against.exit_code == 1
    streamed = json.loads((tmp_path / "again.json").read_text())["baseline"]
    assert streamed == {
        "file": str(base),
        "known": whole.known,
        "new": list(whole.new),
        "worse": list(whole.worse),
        "new_not_evaluated": list(whole.new_gaps),
    }


def test_a_reformatted_baseline_is_read_whole_with_the_same_judgement(site, tmp_path):
    base = tmp_path / "base.json"
    run("check", site, "--write-baseline", base, *AT)
    reformatted = tmp_path / "jq.json"  # what jq . writes: not the layout facility writes
    reformatted.write_text(json.dumps(json.loads(base.read_text()), indent=4))
    _changed(site)
    laid_out = run("check", site, "--baseline", base, "-f", "json", *AT)
    other = run("check", site, "--baseline", reformatted, "-f", "json", *AT)
    assert laid_out.exit_code == other.exit_code == 1
    first, second = (json.loads(r.stdout)["baseline"] for r in (laid_out, other))
    assert first["new"] == second["new"] == ["LIQ-011:facility_water:FW-1"]
    assert {**first, "file": ""} == {**second, "file": ""}


def test_a_bad_finding_of_a_streamed_baseline_is_named_at_its_line(site, tmp_path):
    base = tmp_path / "base.json"
    run("check", site, "--write-baseline", base, *AT)
    lines = base.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if '"status":"fail"' in line)
    lines[at] = lines[at].replace('"status":"fail"', '"status":"failed"')
    base.write_text("".join(lines))
    out = tmp_path / "out.html"
    result = run("check", site, "--baseline", base, "-o", out, *AT)
    assert result.exit_code == 2
    assert f"{base}:{at + 1}:" in result.stderr and "status" in result.stderr
    assert not out.exists()
