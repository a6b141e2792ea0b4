"""A loss does not change how old a record is: the single-failure analysis (and the headroom
search built on it) judges the age of evidence on the report date of the audit it compares
with, not as "the report date is unknown" in every scenario that reaches the record's loop."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from facility.analysis.failures import analyse_failures
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model.load import load_site

SMALL_READY = Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml"
TODAY = dt.date(2026, 12, 2)
RULES = load_rules(profile="tier-iii")


def _scenarios(tmp_path: Path, analysis_date: str):
    site_file = tmp_path / "site.yaml"
    text = SMALL_READY.read_text(encoding="utf-8")
    old = 'fluid_analysis: {date: "2026-11-16"'
    assert old in text
    site_file.write_text(text.replace(old, f'fluid_analysis: {{date: "{analysis_date}"'))
    site = load_site(site_file)
    normal = audit(site, RULES, as_of=TODAY)
    return normal, analyse_failures(site, RULES, normal)


@pytest.mark.parametrize(
    ("analysis_date", "status"), [("2026-11-16", "pass"), ("2025-11-16", "fail")]
)
def test_a_loss_leaves_the_fluid_analysis_age_as_it_was(tmp_path, analysis_date, status):
    normal, report = _scenarios(tmp_path, analysis_date)
    before = next(f for f in normal.findings if f.id == "LIQ-035:tcs_loop:TCS-1")
    assert before.status == status  # 16 days old (≤ 90: pass) or 381 days (fail)
    reaching = [r for r in report.results if r.scenario.id.startswith(("cdu", "facility_water"))]
    assert len(reaching) >= 4  # CDU-1, CDU-2, their pumps, FW-1, FW-2 reach TCS-1
    for r in reaching:
        assert "LIQ-035:tcs_loop:TCS-1" not in {f.id for f in r.changed}, r.scenario.id
        assert "LIQ-035:tcs_loop:TCS-1" in {f.id for f in r.unchanged}, r.scenario.id
