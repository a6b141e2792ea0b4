"""Hall B3 with its cluster plan (examples/hall-b3-cluster.yaml): the cluster verdicts by hand.

Report date 2026-11-29. The workload runs on the 8 GB300 NVL72 racks (SN-A01 … SN-A08):
  peak  8 × 72 GPUs × 2.5 PFLOP/s = 1.44e18 FLOP/s; MFU 40 % → 5.76e17 FLOP/s
  C     6 × 70e9 × 2e12 = 8.4e23 FLOP
  time  8.4e23 / 5.76e17 = 1.4583e6 s = 16.9 d > 14 d                        → CLU-003 fails
  need  8.4e23 / (72 × 2.5e15 × 0.4 × 14 × 86,400 s) = 9.645 → 10 > 8 racks   → CLU-004 fails
  ckpt  70e9 × 14 B = 980 GB; write 980 GB / 50 GB/s = 19.6 s = 0.18 % of 3 h (≤ 5 %);
        restore 980 GB / 200 GB/s = 4.9 s (≤ 15 min)
  sync  G = 70e9 × 2 B = 140 GB; 2 × 7/8 × 1.4e11 / (72 × 800 Gb/s = 7.2e12 B/s) = 0.034 s;
        step 6 × 70e9 × 16e6 / 5.76e17 = 11.67 s → 0.29 % (≤ 5 %)
  data  5.76e17 / (6 × 70e9) = 1.371e6 tokens/s × 4 B = 5.5 MB/s ≤ 200 GB/s
Commissioning: failover_drill has no record (CLU-013); single_rack_thermal_test 2025-09-15 is
440 d old > 180 d (CLU-014). Everything else of the hall is Hall B3's own verdicts.
"""

from __future__ import annotations

import datetime as dt

import pytest

from facility.engine.evaluate import audit
from facility.engine.findings import AuditResult
from facility.model.load import load_site

AS_OF = dt.date(2026, 11, 29)
FAILING_CLUSTER = {
    ("CLU-003", "B3-cluster"),
    ("CLU-004", "B3-cluster"),
    ("CLU-013", "failover_drill"),
    ("CLU-014", "single_rack_thermal_test"),
}


@pytest.fixture(scope="module")
def result() -> AuditResult:
    return audit(load_site("examples/hall-b3-cluster.yaml"), as_of=AS_OF)


def test_the_cluster_checks_that_fail(result: AuditResult) -> None:
    failing = {(f.rule, f.entity_id) for f in result.findings if f.status == "fail"}
    assert {x for x in failing if x[0].startswith("CLU")} == FAILING_CLUSTER
    cluster = [f for f in result.findings if f.area == "cluster"]
    assert not [f for f in cluster if f.status == "not_evaluated"]


def test_the_hand_worked_figures(result: AuditResult) -> None:
    by = {(f.rule, f.entity_id): f for f in result.findings}
    time = by[("CLU-003", "B3-cluster")]
    assert time.observed is not None and time.limit is not None
    assert time.observed.value / 86_400 == pytest.approx(16.879, abs=1e-3)
    assert time.limit.value == 14 * 86_400
    need = by[("CLU-004", "B3-cluster")]
    assert need.limit is not None and need.limit.value == 10
    share = by[("CLU-005", "B3-cluster")]
    assert share.observed is not None and share.observed.value == pytest.approx(19.6 / 10_800)
    sync = by[("CLU-008", "B3-cluster")]
    assert sync.observed is not None
    assert sync.observed.value == pytest.approx((1.75 * 1.4e11 / 7.2e12) / (6.72e18 / 5.76e17))
    age = by[("CLU-014", "single_rack_thermal_test")]
    assert age.observed is not None and age.observed.value == 440 * 86_400


def test_the_hall_checks_are_hall_b3s(result: AuditResult) -> None:
    plain = audit(load_site("examples/hall-b3.yaml"))
    hall = {(f.rule, f.entity_id, f.status) for f in result.findings if f.area != "cluster"}
    assert hall == {(f.rule, f.entity_id, f.status) for f in plain.findings}


def test_without_a_report_date_the_ages_are_not_evaluated() -> None:
    result = audit(load_site("examples/hall-b3-cluster.yaml"))
    ages = [f for f in result.findings if f.rule == "CLU-014"]
    assert ages and all(f.status == "not_evaluated" for f in ages)
    assert all("report date" in " ".join(f.missing) for f in ages)


def test_a_site_without_a_cluster_has_no_cluster_findings() -> None:
    result = audit(load_site("examples/hall-b3.yaml"), as_of=AS_OF)
    assert not [f for f in result.findings if f.area == "cluster"]
