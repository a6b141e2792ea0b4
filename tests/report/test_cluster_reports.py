"""Hall B3 with its cluster plan in every report format, byte for byte (issue 7).

The cluster checks show in their own area ("Cluster plan"); commissioning ages are judged
against the report date. Update on purpose: ``uv run pytest tests/report --update-golden``.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import pytest

from facility.check import run_check
from facility.engine.evaluate import default_profile
from facility.model.load import load_site
from facility.report.context import ReportInput
from facility.report.html import render_html
from facility.report.json_report import render_report_json
from facility.report.junit import render_junit
from facility.report.markdown import render_markdown
from facility.report.sarif import render_sarif
from facility.report.terminal import render_text
from tests.frozen_rules import frozen_rules
from tests.report.conftest import GENERATED_AT, GOLDEN, ROOT

I18N_GOLDEN = ROOT / "tests" / "i18n" / "golden"
SITE = "examples/hall-b3-cluster.yaml"
RENDERERS = {
    "html": render_html,
    "md": render_markdown,
    "json": render_report_json,
    "sarif": render_sarif,
    "xml": render_junit,
    "txt": render_text,
}


@pytest.fixture(scope="module")
def report() -> ReportInput:
    with contextlib.chdir(ROOT):
        site = load_site(Path(SITE))
        ruleset = frozen_rules(default_profile(site))
        return run_check(site, ruleset, generated_at=GENERATED_AT)


def _check(golden: Path, text: str, update: bool) -> None:
    if update:
        golden.write_bytes(text.encode("utf-8"))
    assert golden.is_file(), f"{golden} is missing: run pytest tests/report --update-golden"
    assert text == golden.read_bytes().decode("utf-8"), (
        f"{golden.name} differs; if intended: uv run pytest tests/report --update-golden"
    )


@pytest.mark.parametrize("fmt", sorted(RENDERERS))
def test_hall_b3_cluster_matches_its_golden_file(
    fmt: str, report: ReportInput, update_golden: bool
) -> None:
    _check(GOLDEN / f"hall-b3-cluster.{fmt}", RENDERERS[fmt](report), update_golden)


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_hall_b3_cluster_in_chinese_matches_its_golden_file(
    fmt: str, report: ReportInput, update_golden: bool
) -> None:
    text = RENDERERS[fmt](replace(report, lang="zh-CN"))
    _check(I18N_GOLDEN / f"hall-b3-cluster.zh-CN.{fmt}", text, update_golden)


def test_the_cluster_area_has_its_title(report: ReportInput) -> None:
    html, md = render_html(report), render_markdown(report)
    for text in (html, md):
        assert "Cluster plan" in text
        assert "CLU-003" in text and "CLU-014" in text and "failover" in text
    assert "cluster" in render_text(report)
