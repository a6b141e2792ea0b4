"""Fixtures of the report tests: audited example sites as ReportInput, golden-file updates.

Golden files (tests/report/golden/) are compared byte for byte. After an intended change of
the reports, regenerate them explicitly, and review the diff before committing:

    uv run pytest tests/report --update-golden
    FACILITY_UPDATE_GOLDEN=1 uv run pytest tests/report      # the same, from any directory

Without one of these the tests never write a golden file.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from pathlib import Path

import pytest

from facility.check import run_check
from facility.engine.evaluate import default_profile
from facility.model.load import load_site
from facility.report.context import ReportInput
from tests.frozen_rules import frozen_rules

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
GENERATED_AT = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite the report golden files instead of comparing with them.",
    )


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    option = False
    with contextlib.suppress(ValueError):
        option = bool(request.config.getoption("--update-golden"))
    return option or os.environ.get("FACILITY_UPDATE_GOLDEN") == "1"


def report_for(path: Path | str, *, cwd: Path = ROOT) -> ReportInput:
    """Audit the site at ``path`` (relative to ``cwd``, as a user would type it) like `check` does."""
    with contextlib.chdir(cwd):
        site = load_site(Path(path))
        ruleset = frozen_rules(default_profile(site))  # a new rule changes no golden file
        return run_check(site, ruleset, generated_at=GENERATED_AT)


@pytest.fixture(scope="session")
def hall_b3() -> ReportInput:
    return report_for("examples/hall-b3.yaml")


@pytest.fixture(scope="session")
def small_ready() -> ReportInput:
    return report_for("examples/small-ready.yaml")
