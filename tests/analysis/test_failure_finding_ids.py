"""The single-failure analysis formats each judged finding's id once per scenario, and compares a
class of identical racks' findings with the normal audit once per class, not for each rack."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from facility.analysis import failures
from facility.engine.evaluate import audit
from facility.engine.findings import Finding
from facility.engine.rules import load_rules
from facility.model.load import load_site

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


def test_ids_once_per_finding_and_class_comparisons_once_per_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(60, path)
    site = load_site(path)
    ruleset = load_rules(profile="tier-iii")
    baseline = audit(site, ruleset)
    ids = [0]
    by_class = [0]
    formatted = Finding.id

    def counted_id(self: Finding) -> str:
        ids[0] += 1
        return formatted.fget(self)  # type: ignore[no-any-return, union-attr]

    unmoved = failures._unmoved

    def counted_unmoved(findings: list[Finding], before: Any) -> Any:
        by_class[0] += len(findings)
        return unmoved(findings, before)

    monkeypatch.setattr(Finding, "id", property(counted_id))
    monkeypatch.setattr(failures, "_unmoved", counted_unmoved)
    report = failures.analyse_failures(site, ruleset, baseline)
    judged = sum(len(r.changed) + len(r.unchanged) for r in report.results)
    assert judged > 1000
    # the normal audit's findings indexed by id (three tables), then one id per finding a
    # scenario judges, one per finding of each class (compared with the normal audit once),
    # and none per rack mapped from its class's model
    assert ids[0] <= 3 * len(baseline.findings) + judged + by_class[0]
    assert by_class[0] < judged / 2
