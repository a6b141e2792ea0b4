"""No output holds a non-JSON number (issue 13, defect 8).

An unbounded limit (ASHRAE W+ has no maximum supply temperature: ``math.inf``) is written as
``{"value": null, "unit": …, "text": "no upper limit"}`` in JSON and as that word in the formats
people read; a NaN reaching a JSON writer is a bug, refused with ValueError, never written.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from facility.analysis.diff import DiffReport, FindingChange, full_findings
from facility.analysis.failures import FailureReport, Scenario, ScenarioResult
from facility.analysis.headroom import DomainHeadroom, HeadroomReport
from facility.cli import app
from facility.engine.findings import Finding
from facility.engine.quantities import Value
from facility.report.context import ReportInput
from facility.report.diff_report import diff_json
from facility.report.failures_report import failures_json
from facility.report.findings_view import message, quantity_json, text_of
from facility.report.headroom_report import headroom_json
from facility.report.i18n import using_language
from facility.report.json_report import _chunks, _line, finding_json, render_report_json
from facility.report.sarif import render_sarif

from ._hall_b3 import ROOT, build_report

# A word of its own, never inside another ('information', 'infrastructure').
NON_FINITE = re.compile(r"(?<![\w-])-?(inf|infinity|nan)(?![\w-])", re.IGNORECASE)
REPORTS = ("result.json", "result.sarif", "report.html", "report.md", "junit.xml")


def _refuse(token: str) -> Any:
    raise AssertionError(f"non-JSON number {token} in the output")


def strict_json(text: str) -> Any:
    """json.loads that fails on Infinity, -Infinity and NaN (which Python's json accepts)."""
    return json.loads(text, parse_constant=_refuse)


@pytest.fixture(scope="module")
def w_plus_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/small-ready.yaml with both facility water loops declared W+ (no upper limit)."""
    text = (ROOT / "examples" / "small-ready.yaml").read_text(encoding="utf-8")
    assert text.count("ashrae_class: W32") == 2  # FW-1 and FW-2
    site = tmp_path_factory.mktemp("w-plus") / "w-plus.yaml"
    site.write_text(text.replace("ashrae_class: W32", "ashrae_class: W+"), encoding="utf-8")
    return site


def _check(site: Path, *args: str) -> Any:
    result = CliRunner().invoke(
        app, ["check", str(site), *args, "--generated-at", "2026-11-29T12:00:00Z"]
    )
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_w_plus_site_writes_no_non_finite_number(w_plus_site: Path, tmp_path: Path) -> None:
    outputs = [tmp_path / name for name in REPORTS]
    result = _check(w_plus_site, *(a for out in outputs for a in ("-o", str(out))))
    assert result.exit_code == 0, result.output  # small-ready is ready; W+ changes no verdict
    texts = {path.name: path.read_text(encoding="utf-8") for path in outputs}
    data = strict_json(texts["result.json"])
    strict_json(texts["result.sarif"])
    (liq013, _) = [f for f in full_findings(data) if f["rule"] == "LIQ-013"]  # FW-1, FW-2
    assert liq013["entity"]["id"] == "FW-1" and liq013["status"] == "pass"
    assert liq013["observed"] == {"value": 32.0, "unit": "°C", "text": "32.0 °C"}
    assert liq013["limit"] == {"value": None, "unit": "°C", "text": "no upper limit"}
    # margin = limit − observed = ∞ − 32 °C: unbounded too
    assert liq013["margin"] == {"value": None, "unit": "K", "text": "no upper limit"}
    assert liq013["message"] == "32.0 °C within the limit: no upper limit"
    for name in ("report.html", "report.md", "junit.xml"):
        assert not NON_FINITE.search(texts[name]), (name, NON_FINITE.search(texts[name]))
    assert not NON_FINITE.search(result.stdout)
    # the passed table's margin column says the word
    assert "no upper limit (FW-1)" in texts["report.md"]
    assert "no upper limit (FW-1)" in texts["report.html"]


def test_w_plus_site_as_json_on_stdout(w_plus_site: Path) -> None:
    data = strict_json(_check(w_plus_site, "-f", "json").stdout)
    (liq013, _) = [f for f in full_findings(data) if f["rule"] == "LIQ-013"]
    assert liq013["limit"] == {"value": None, "unit": "°C", "text": "no upper limit"}


def test_w_plus_site_in_chinese_after_english(w_plus_site: Path, tmp_path: Path) -> None:
    english, chinese = tmp_path / "en.md", tmp_path / "zh.md"
    assert _check(w_plus_site, "-o", str(english)).exit_code == 0
    assert _check(w_plus_site, "--lang", "zh-CN", "-o", str(chinese)).exit_code == 0
    assert "no upper limit (FW-1)" in english.read_text(encoding="utf-8")
    assert "无上限（FW-1）" in chinese.read_text(encoding="utf-8")


def _finding(**changes: Any) -> Finding:
    base = Finding(
        "LIQ-013", "liquid.facility_water_warmer_than_class", "title", "liquid", "error",
        "pass", "facility_water", "FW-1", None, "temperature",
        observed=Value(50.0), limit=Value(math.inf), margin=math.inf, relation="≤",
    )  # fmt: skip
    return dataclasses.replace(base, **changes)


def test_an_unbounded_limit_in_words_and_as_json() -> None:
    assert text_of(math.inf, "temperature") == "no upper limit"
    assert text_of(-math.inf, "temperature") == "no lower limit"
    assert text_of(math.inf, "count") == "no upper limit"  # a kind without a display unit
    assert quantity_json(math.inf, "temperature") == {
        "value": None,
        "unit": "°C",
        "text": "no upper limit",
    }
    assert message(_finding()) == "50.0 °C within the limit: no upper limit"
    line = finding_json(_finding())
    assert line["limit"]["value"] is None and line["margin"]["value"] is None
    with using_language("zh-CN"):
        assert text_of(math.inf, "temperature") == "无上限"
        assert message(_finding()) == "50.0 °C，满足限值：无上限"


# --- a NaN reaching a JSON writer is refused ---------------------------------------------------


@pytest.fixture(scope="module")
def nan_report(w_plus_site: Path) -> ReportInput:
    """The W+ site's report with one finding failing on a NaN margin (an internal bug)."""
    report = build_report(str(w_plus_site), waivers=())
    finding = next(f for f in report.result.findings if f.rule == "LIQ-013")
    finding.status, finding.margin = "fail", math.nan
    return report


def test_the_json_result_and_sarif_refuse_nan(nan_report: ReportInput) -> None:
    with pytest.raises(ValueError):
        render_report_json(nan_report)
    with pytest.raises(ValueError):
        render_sarif(nan_report)


def test_the_streamed_encoder_refuses_nan_and_infinity() -> None:
    for number in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            _line({"value": number})
        with pytest.raises(ValueError):
            "".join(_chunks({"value": number}, iter(()), None))


def test_failures_headroom_and_diff_json_refuse_nan() -> None:
    bad = _finding(status="fail", margin=math.nan)
    site = {"name": "T", "file": "t.yaml", "sha256": "0" * 64}
    scenario = ScenarioResult(Scenario("cdu", "CDU-1", "CDU-1 out"), [bad], [bad], None, None)
    with pytest.raises(ValueError):
        failures_json(FailureReport([scenario]), site)
    domain = DomainHeadroom("overall", 1, [bad])
    with pytest.raises(ValueError):
        headroom_json(HeadroomReport("t", "loop", "TCS-1", "R01", domain, [domain]), site)
    state = {"site": site, "profile": "supernode", "rules_version": "x", "verdict": "ready"}
    change = FindingChange(bad.id, None, {"margin": {"value": math.nan}})
    with pytest.raises(ValueError):
        diff_json(DiffReport(state, state, changed=[change]))


def test_schema_refuses_a_non_finite_number(monkeypatch: pytest.MonkeyPatch) -> None:
    import facility.model.document as document

    monkeypatch.setattr(document, "json_schema", lambda: {"maximum": math.inf})
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 2  # an internal error, never a verdict
    assert result.stderr.startswith("internal error in facility ")
    assert "Infinity" not in result.output
