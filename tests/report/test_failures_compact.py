"""`facility failures -f json`, compact (the default, `facility-failures/2`) and full
(`--json-detail full`, `facility-failures/1`): the compact document holds the full one's
scenarios and every finding each loss moved, written as a compact result's `findings[]`
writes them and read back by the reader `facility diff` uses for a compact result; a finding
several losses moved alike is encoded once."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from facility.analysis.diff import full_findings
from facility.analysis.failures import FailureReport, analyse_failures
from facility.cli import _generated_at, app
from facility.engine.evaluate import audit_in_context, default_profile
from facility.engine.rules import load_rules
from facility.model.load import load_site
from facility.report.failures_report import failures_json
from facility.report.json_report import _FindingLines

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


def _analysed(path: Path) -> FailureReport:
    """The analysis as `facility failures` makes it (the audit as of today)."""
    site = load_site(path)
    ruleset = load_rules(profile=default_profile(site))
    result, normal = audit_in_context(site, ruleset, as_of=_generated_at(None).date())
    return analyse_failures(site, ruleset, result, normal=normal)


@pytest.fixture(scope="module")
def campus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("campus") / "campus.yaml"
    write_campus(160, path)  # two halls; GB300 rows on Hall B3's 63 A PDUs: losses that fail
    return path


# every example, and a layered one (a finding placed in a base file names that file)
SITES = [*sorted(p.name for p in (ROOT / "examples").glob("*.yaml")), "layered/cooling.yaml"]


def _both(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    report = _analysed(path)
    site = {"name": "x", "file": str(path), "sha256": "0" * 64}
    compact = json.loads(failures_json(report, site))
    full = json.loads(failures_json(report, site, full=True))
    return compact, full


def _expanded(compact: dict[str, Any], entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A scenario's compact entries written out in full, as `facility diff` reads a compact
    result's findings."""
    shaped = {
        "detail": "compact",
        "site": compact["site"],
        "rules": compact["rules"],
        "figures": compact["figures"],
        "findings": entries,
    }
    return [{k: v for k, v in f.items() if k != "waiver"} for f in full_findings(shaped)]


@pytest.mark.parametrize("name", [*SITES, "campus"])
def test_the_compact_document_holds_every_finding_each_loss_moved(name: str, campus: Path) -> None:
    compact, full = _both(campus if name == "campus" else ROOT / "examples" / name)
    assert (compact["schema"], compact["detail"]) == ("facility-failures/2", "compact")
    assert full["schema"] == "facility-failures/1" and "detail" not in full
    assert compact["site"] == full["site"]
    assert compact["single_points_of_failure"] == full["single_points_of_failure"]
    moved = 0
    moved_findings = []
    for scenario, whole in zip(compact["scenarios"], full["scenarios"], strict=True):
        findings = whole.pop("findings")
        entries = scenario.pop("findings")
        for f in findings:  # a compact result places only the findings someone acts on
            if f["status"] not in ("fail", "waived"):
                f["source"] = None
        assert _expanded(compact, entries) == findings
        assert scenario.pop("moved") == len(findings)
        moved += len(findings)
        moved_findings += findings
        # kind, element and description follow from the id: in the full document only
        kind, element = scenario["id"].split(":", 1)
        assert (whole.pop("kind"), whole.pop("element")) == (kind, element)
        assert whole.pop("description")
        assert scenario == whole
    assert moved > 0
    # each rule's texts once, for the rules of the findings moved
    assert set(compact["rules"]) == {f["rule"] for f in moved_findings}


def test_identical_losses_share_figures_and_the_document_is_smaller(campus: Path) -> None:
    report = _analysed(campus)
    site = {"name": "x", "file": str(campus), "sha256": "0" * 64}
    compact_text = failures_json(report, site)
    full_text = failures_json(report, site, full=True)
    compact = json.loads(compact_text)
    entries = sum(len(s["findings"]) for s in compact["scenarios"])
    moved = sum(s["moved"] for s in compact["scenarios"])
    # identical racks and PDUs moved alike by like losses: far fewer figures than findings
    assert len(compact["figures"]) * 10 < moved
    assert entries < moved  # passing findings in runs
    # counted in bytes (not timed): at least four times smaller than the full document
    assert len(compact_text.encode()) * 4 < len(full_text.encode())


def test_a_finding_moved_by_several_losses_is_encoded_once_by_the_object() -> None:
    report = _analysed(ROOT / "examples" / "hall-b3.yaml")
    findings = [f for r in report.results for f in r.changed]
    failing = next(f for f in findings if f.status == "fail")
    passing = next(f for f in findings if f.status == "pass")
    plain = _FindingLines()  # nothing kept: every entry made from the finding
    expected = list(plain.compact([failing, passing], {}, "x.yaml"))
    lines = _FindingLines(by_identity=True)
    assert list(lines.compact([failing, passing], {}, "x.yaml")) == expected
    assert lines.by_identity is not None and len(lines.by_identity) == 2
    assert list(lines.compact([failing, passing], {}, "x.yaml")) == expected  # from the memo
    # another object at an id the memo holds (an id Python reuses once an object is gone)
    # is never given that entry
    lines.by_identity[id(passing)] = lines.by_identity[id(failing)]
    assert list(lines.compact([passing], {}, "x.yaml")) == expected[1:]


def test_the_command_writes_compact_by_default_and_full_when_asked() -> None:
    hall = str(ROOT / "examples" / "hall-b3.yaml")
    runner = CliRunner()
    compact = runner.invoke(app, ["failures", hall, "-f", "json"])
    full = runner.invoke(app, ["failures", hall, "-f", "json", "--json-detail", "full"])
    assert compact.exit_code == full.exit_code == 1  # Hall B3 has single points of failure
    assert json.loads(compact.stdout)["schema"] == "facility-failures/2"
    report = _analysed(Path(hall))
    loaded = load_site(Path(hall))
    site = {"name": loaded.info.name, "file": loaded.file, "sha256": loaded.sha256}
    assert full.stdout == failures_json(report, site, full=True)
    assert compact.stdout == failures_json(report, site)
    # the language of the terminal does not reach the JSON
    zh = runner.invoke(app, ["failures", hall, "-f", "json", "--lang", "zh-CN"])
    assert zh.stdout == compact.stdout
    wrong = runner.invoke(app, ["failures", hall, "-f", "json", "--json-detail", "all"])
    assert wrong.exit_code == 2
