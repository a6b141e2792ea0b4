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
440 d old > 180 d (CLU-014). Its measured figures pass against A01's type gb300-b3:
  power   136.2 kW ≥ 100 % × 135 kW nominal                                    (CLU-016)
  supply  40.0 °C in 20–45 °C: min(20, 5) = 5 K ≥ 0 K                          (CLU-017)
  flow    190 L/min ≥ 121.5 kW / (1,007.68 kg/m³ × 3,973.0 J/(kg·K) × 10 K)
          = 3.0348e-3 m³/s = 182.09 L/min (PG25 at the 45 °C mean)             (CLU-018)
  return  49.6 − 60 = −10.4 K ≤ 0 K (no chip maximum: the chip is not judged)  (CLU-019)
  0 throttle events ≤ 0 (CLU-020); 6 h ≥ 4 h (CLU-021).
The link monitoring layer declares loss and retransmits, not downgrades: 1 > 0 (CLU-022); the
other three layers declare all their metrics. Everything else of the hall is Hall B3's own
verdicts.
The supernodes state no accelerators or peak: each NVL72 takes 72 × 2.5 PFLOP/s from the
catalog's gb300-nvl72, SN-B 12 × 32 NPUs at 752 TFLOP/s from atlas-900-a3-cabinet. TP = 8:
72 mod 8 = 0 on each workload supernode (CLU-015 passes); SN-B runs no workload (no finding).
"""

from __future__ import annotations

import datetime as dt

import pytest

from facility.engine.evaluate import audit
from facility.engine.findings import AuditResult
from facility.engine.quantities import Context
from facility.engine.rules import Assumptions
from facility.model.load import load_site

AS_OF = dt.date(2026, 11, 29)
FAILING_CLUSTER = {
    ("CLU-003", "B3-cluster"),
    ("CLU-004", "B3-cluster"),
    ("CLU-013", "failover_drill"),
    ("CLU-014", "single_rack_thermal_test"),
    ("CLU-022", "link"),
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


def test_the_thermal_test_by_hand(result: AuditResult) -> None:
    by = {f.rule: f for f in result.findings if f.entity_kind == "thermal_test"}
    assert {f.entity_id for f in by.values()} == {"A01"}
    assert {code: f.status for code, f in by.items()} == dict.fromkeys(
        ("CLU-016", "CLU-017", "CLU-018", "CLU-019", "CLU-020", "CLU-021"), "pass"
    )
    values = {code: (f.observed.value, f.limit.value) for code, f in by.items()}  # type: ignore[union-attr]
    assert values["CLU-016"] == (136_200.0, 135_000.0)
    assert values["CLU-017"] == pytest.approx((5.0, 0.0))
    assert values["CLU-018"][0] == pytest.approx(190 / 60_000)
    assert values["CLU-018"][1] * 60_000 == pytest.approx(182.09, abs=0.01)
    assert values["CLU-019"] == pytest.approx((-10.4, 0.0))
    assert values["CLU-021"] == (6 * 3_600.0, 4 * 3_600.0)
    layers = {f.entity_id: f.status for f in result.findings if f.rule == "CLU-022"}
    assert layers == {"card": "pass", "link": "fail", "scheduler": "pass", "training": "pass"}


def test_the_hall_checks_are_hall_b3s(result: AuditResult) -> None:
    plain = audit(load_site("examples/hall-b3.yaml"))
    # the hall's own checks: not the cluster plan's, nor a supernode's place on the floor (FLR-017)
    hall = {
        (f.rule, f.entity_id, f.status)
        for f in result.findings
        if f.area != "cluster" and f.entity_kind != "supernode"
    }
    assert hall == {(f.rule, f.entity_id, f.status) for f in plain.findings}


def test_without_a_report_date_the_ages_are_not_evaluated() -> None:
    result = audit(load_site("examples/hall-b3-cluster.yaml"))
    ages = [f for f in result.findings if f.rule == "CLU-014"]
    assert ages and all(f.status == "not_evaluated" for f in ages)
    assert all("report date" in " ".join(f.missing) for f in ages)


def test_a_site_without_a_cluster_has_no_cluster_findings() -> None:
    result = audit(load_site("examples/hall-b3.yaml"), as_of=AS_OF)
    assert not [f for f in result.findings if f.area == "cluster"]


def test_the_supernodes_take_their_figures_from_the_catalog(result: AuditResult) -> None:
    tp = {f.entity_id: f.status for f in result.findings if f.rule == "CLU-015"}
    assert tp == {f"SN-A0{i}": "pass" for i in range(1, 9)}  # SN-B runs no workload
    site = load_site("examples/hall-b3-cluster.yaml")
    assert site.cluster is not None
    for node in site.cluster.supernodes.values():  # nothing restated in the site file
        assert node.spec.accelerators is None and node.spec.accelerators_per_rack is None
        assert node.spec.accelerator_peak is None
    ctx = Context(site, Assumptions())
    sn_b = site.cluster.supernodes["SN-B"]
    # 12 cabinets × 32 NPUs = 384; 384 × 7.52e14 FLOP/s = 2.88768e17 FLOP/s
    assert ctx.get("supernode", "accelerators", sn_b).value == 384.0
    assert ctx.get("supernode", "peak_rate", sn_b).value == pytest.approx(2.88768e17)
    # each NVL72: 72 × 2.5e15 = 1.8e17 FLOP/s
    a01 = site.cluster.supernodes["SN-A01"]
    assert ctx.get("supernode", "peak_rate", a01).value == pytest.approx(1.8e17)
