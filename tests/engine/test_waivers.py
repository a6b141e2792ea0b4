"""Waivers: applied, expired and stale, from the site file and from a waiver file."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.analysis.diff import full_findings
from facility.cli import app
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.engine.waivers import apply_waivers, read_waivers
from facility.model.load import load_site
from facility.model.source import InputError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hall-b3.yaml"
TODAY = dt.date(2026, 11, 29)


def hall_with_waivers(tmp_path: Path, waivers: str) -> Path:
    path = tmp_path / "hall.yaml"
    path.write_text(
        EXAMPLE.read_text(encoding="utf-8") + "\nwaivers:\n" + waivers, encoding="utf-8"
    )
    return path


WAIVERS = """\
  - {rule: FLR-001, entity: B01, reason: spreader plates ordered, owner: J. Chen, expires: 2027-01-31}
  - {rule: floor.rack_exceeds_uniform_rating, entity: B02, reason: by name, owner: J. Chen, expires: 2026-11-29}
  - {rule: FLR-001, entity: B03, reason: lapsed, owner: J. Chen, expires: 2026-11-28}
  - {rule: FLR-001, entity: A01, reason: A01 passes this rule, owner: J. Chen, expires: 2027-01-31}
"""


def run(path: Path):
    site = load_site(path)
    rules = load_rules(profile="tier-iii")
    result = audit(site, rules)
    names = {r.spec.name: r.code for r in rules.rules}
    return result, apply_waivers(result, site.waivers, TODAY, names)


def test_applied_expired_and_stale(tmp_path: Path) -> None:
    result, report = run(hall_with_waivers(tmp_path, WAIVERS))
    status = {f.entity_id: f.status for f in result.findings if f.rule == "FLR-001"}
    assert status["B01"] == "waived"
    assert status["B02"] == "waived"  # by rule name; expires today, still valid today
    assert status["B03"] == "fail"  # expired yesterday: fails again
    assert status["A01"] == "pass"
    states = {(r.waiver.entity, r.state) for r in report.records}
    assert states == {("B01", "applied"), ("B02", "applied"), ("B03", "expired"), ("A01", "stale")}
    expired = report.of_state("expired")[0]
    assert expired.findings == ("FLR-001:rack:B03",)
    assert expired.location.line > 100  # the waiver's own line in the site file


def test_waived_findings_do_not_fail_the_run(tmp_path: Path) -> None:
    waivers = "".join(
        f"  - {{rule: FLR-001, entity: B{n:02d}, reason: plates, owner: ops, expires: 2027-01-31}}\n"
        for n in range(1, 13)
    )
    result, _ = run(hall_with_waivers(tmp_path, waivers))
    assert {
        f.status for f in result.findings if f.rule == "FLR-001" and f.entity_id.startswith("B")
    } == {"waived"}
    assert result.verdict == "not-ready"  # the power and liquid failures remain


def test_waiver_file_and_cli(tmp_path: Path) -> None:
    waiver_file = tmp_path / "waivers.yaml"
    waiver_file.write_text("waivers:\n" + WAIVERS, encoding="utf-8")
    assert [w.entity for w, _ in read_waivers(waiver_file)] == ["B01", "B02", "B03", "A01"]
    out = tmp_path / "result.json"
    cli = CliRunner().invoke(
        app,
        [
            "check",
            str(EXAMPLE),
            "--waivers",
            str(waiver_file),
            "-o",
            str(out),
            "--generated-at",
            "2026-11-29T12:00:00Z",
        ],
    )
    assert cli.exit_code == 1, cli.output
    assert "STALE WAIVERS" in cli.output and "EXPIRED WAIVERS" in cli.output
    data = json.loads(out.read_text(encoding="utf-8"))
    b01 = next(f for f in full_findings(data) if f["id"] == "FLR-001:rack:B01")
    assert b01["status"] == "waived" and b01["waiver"]["owner"] == "J. Chen"
    assert {w["state"] for w in data["waivers"]} == {"applied", "expired", "stale"}


def test_a_bad_waiver_file_names_file_line_and_field(tmp_path: Path) -> None:
    waiver_file = tmp_path / "waivers.yaml"
    waiver_file.write_text(
        "waivers:\n  - {rule: FLR-001, entity: B01, reason: x, owner: y, expires: soon}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as info:
        read_waivers(waiver_file)
    (problem,) = info.value.problems
    assert (problem.location.line, problem.field) == (2, "waivers[0].expires")
