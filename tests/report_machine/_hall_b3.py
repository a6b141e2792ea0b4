"""Hall B3 audited as `facility check` does it, for the SARIF and JUnit tests.

Paths are given relative to the repository root (the directory the tests run in), as a user
would type them, so the reports carry ``examples/hall-b3.yaml``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from facility.check import run_check
from facility.engine.waivers import read_waivers
from facility.model.load import load_site
from facility.report.context import ReportInput
from tests.frozen_rules import frozen_rules

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
SITE = "examples/hall-b3.yaml"
WAIVERS = "tests/report_machine/data/hall-b3-waivers.yaml"
GENERATED_AT = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)

ROW_A = [f"A{n:02d}" for n in range(1, 9)]
ROW_B = [f"B{n:02d}" for n in range(1, 13)]
PDUS_A = [f"{r}-{s}{n}" for r in ROW_A for s in "AB" for n in range(1, 5)]
WAIVED = ("FLR-001", "B07")
# tests/engine/test_hall_b3.py: the scenario's failing findings, before the waiver.
FAILING = (
    {("PWR-001", r) for r in ROW_A}
    | {("PWR-003", p) for p in PDUS_A}
    | {("LIQ-002", "TCS-B"), ("LIQ-004", "TCS-A"), ("LIQ-004", "TCS-B")}
    | {("FLR-001", r) for r in ROW_B}
    # the single points of failure (RED-001): either side of a row-A rack (the other side's
    # PDUs overload, PWR-002), CDU-A1, CDU-A2 and CDU-B1, and the one facility water loop
    | {("RED-001", f"rack_side:{r}:{s}") for r in ROW_A for s in "AB"}
    | {("RED-001", f"cdu:{c}") for c in ("CDU-A1", "CDU-A2", "CDU-B1")}
    | {("RED-001", "facility_water:FW-1")}
)


def build_report(
    site: str = SITE, profile: str = "tier-iii", waivers: tuple[str, ...] = (WAIVERS,)
) -> ReportInput:
    """The ReportInput of `facility check SITE --profile PROFILE --waivers … --generated-at`,
    run from the repository root."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        loaded = load_site(Path(site))
        ruleset = frozen_rules(profile)  # a new rule changes none of these tests
        waiver_list = list(loaded.waivers)
        for path in waivers:
            waiver_list += read_waivers(Path(path))
    return run_check(loaded, ruleset, waivers=waiver_list, generated_at=GENERATED_AT)


@pytest.fixture(scope="session")
def report() -> ReportInput:
    return build_report()


@dataclass(frozen=True)
class Lines:
    """Where Hall B3's entities are written, read from the YAML independently of facility."""

    loops: dict[str, int]
    cooling: dict[str, int]  # CDU or facility water id -> the line of its item
    row_racks: dict[str, int]  # row id -> line of its `racks:` key
    row_span: dict[str, tuple[int, int]]  # row id -> [first line, first line of the next row)

    def rack(self, rack_id: str) -> int:
        return self.row_racks[rack_id[0]]


@pytest.fixture(scope="session")
def lines() -> Lines:
    text = (ROOT / SITE).read_text(encoding="utf-8")
    root = yaml.compose(text)
    top = {k.value: v for k, v in root.value}
    cooling = {k.value: v for k, v in top["cooling"].value}
    loops = {}
    for item in cooling["tcs_loops"].value:
        fields = {k.value: v for k, v in item.value}
        loops[fields["id"].value] = item.start_mark.line + 1
    equipment = {}
    for kind in ("cdus", "facility_water"):
        for item in cooling[kind].value:
            fields = {k.value: v for k, v in item.value}
            equipment[fields["id"].value] = item.start_mark.line + 1
    row_racks, starts = {}, []
    for item in top["rows"].value:
        keys = {k.value: k for k, _ in item.value}
        values = {k.value: v for k, v in item.value}
        row_id = values["id"].value
        row_racks[row_id] = keys["racks"].start_mark.line + 1
        starts.append((row_id, item.start_mark.line + 1))
    ends = [line for _, line in starts[1:]] + [top["rows"].end_mark.line + 2]
    span = {row_id: (start, end) for (row_id, start), end in zip(starts, ends, strict=True)}
    return Lines(loops, equipment, row_racks, span)
