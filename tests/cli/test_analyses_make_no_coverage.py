"""`facility failures` and `facility headroom` show no coverage, so their audits make none (at
10,000 racks it is ~0.4 s of work nobody reads)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.engine import evaluate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    "argv",
    [
        ["failures", str(EXAMPLES / "hall-b3.yaml"), "-f", "json"],
        ["headroom", str(EXAMPLES / "hall-b3.yaml"), "--rack-type", "gb300-nvl72", "--row", "B"],
    ],
)
def test_no_coverage_is_made(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Any] = []
    monkeypatch.setattr(evaluate, "coverage", lambda *args: made.append(args))
    result = CliRunner().invoke(app, argv)
    assert result.exit_code in (0, 1), result.output
    assert made == []
