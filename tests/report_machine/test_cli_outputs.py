"""`facility check` writes SARIF and JUnit in one run, chosen by the files' suffixes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.report.context import ReportInput
from facility.report.junit import render_junit
from facility.report.sarif import render_sarif

from ._hall_b3 import ROOT, SITE, WAIVERS


def test_check_writes_sarif_and_junit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, report: ReportInput
) -> None:
    monkeypatch.chdir(ROOT)
    sarif, junit = tmp_path / "r.sarif", tmp_path / "r.xml"
    # the frozen rule set of the renderer fixtures (tests/frozen_rules), through --rules
    args = ["check", SITE, "--rules", "tests/frozen_rules", "--profile", "frozen-tier-iii"]
    args += ["--waivers", WAIVERS]
    args += ["-o", str(sarif), "-o", str(junit), "--generated-at", "2026-11-29T12:00:00Z"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output  # Hall B3 is not ready
    assert "Traceback" not in result.output
    # byte for byte what the renderers give for the same input
    assert sarif.read_text(encoding="utf-8") == render_sarif(report)
    assert junit.read_text(encoding="utf-8") == render_junit(report)
    assert json.loads(sarif.read_text(encoding="utf-8"))["version"] == "2.1.0"
    assert ET.parse(junit).getroot().tag == "testsuites"
