"""The cluster plan takes a supernode's accelerators and their peak rate from its racks' rack
types (the catalog's, or the site's own), so a site need not restate them; the supernode's
own figures win. Expected values are worked by hand from the catalog figures:

  gb200-nvl72 / gb300-nvl72   72 GPUs per rack, 2.5 PFLOP/s dense BF16 each
  atlas-900-a3-cabinet        32 NPUs per cabinet, 752 TFLOP/s each
  atlas-900-a3-bus-cabinet    0 NPUs
  ascend-960-supernode-32     32 NPUs, 1 PFLOP/s each (seed estimate)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from facility.engine.evaluate import audit
from facility.engine.quantities import Context
from facility.engine.rules import Assumptions
from facility.model.site import Site
from tests.model._site import load, problems

CM384 = """\
site: {name: CM384}
rows:
  - {id: C, racks: {prefix: C, count: 12}, type: atlas-900-a3-cabinet}
  - {id: U, racks: {prefix: U, count: 4}, type: atlas-900-a3-bus-cabinet}
cluster:
  supernodes:
    - {id: SN, racks: [C01, C02, C03, C04, C05, C06, C07, C08, C09, C10, C11, C12,
                       U01, U02, U03, U04]}
"""


def _value(site: Site, node: str, name: str) -> float | None:
    assert site.cluster is not None
    ctx = Context(site, Assumptions())
    return ctx.get("supernode", name, site.cluster.supernodes[node]).value


def _missing(site: Site, node: str, name: str) -> str:
    assert site.cluster is not None
    ctx = Context(site, Assumptions())
    value = ctx.get("supernode", name, site.cluster.supernodes[node])
    assert value.value is None
    return str(value.missing)


def test_an_nvl72_supernode_takes_its_figures_from_the_catalog(tmp_path: Path) -> None:
    # n = 72 × 1 rack = 72; peak = 72 × 2.5e15 = 1.8e17 FLOP/s
    site = load(
        tmp_path,
        """\
        site: {name: S}
        racks: [{id: A01, type: gb200-nvl72}]
        cluster:
          supernodes: [{id: SN, racks: [A01]}]
        """,
    )
    assert _value(site, "SN", "accelerators") == 72.0
    assert _value(site, "SN", "peak_rate") == pytest.approx(1.8e17)


def test_a_cloudmatrix_384_counts_its_compute_cabinets_only(tmp_path: Path) -> None:
    # n = 12 × 32 + 4 × 0 = 384; the bus cabinets hold no NPUs and are left out of the peak:
    # 384 × 7.52e14 = 2.88768e17 FLOP/s (Huawei: 384 × 752 TFLOPS ≈ 289 PFLOPS)
    site = load(tmp_path, CM384)
    assert _value(site, "SN", "accelerators") == 384.0
    assert _value(site, "SN", "peak_rate") == pytest.approx(2.88768e17)


def test_the_supernodes_own_figures_win(tmp_path: Path) -> None:
    # accelerators_per_rack 36 on the supernode: 36 × 2 racks = 72; its own peak 2 PFLOP/s:
    # 72 × 2e15 = 1.44e17 FLOP/s. A whole count (accelerators: 64) wins likewise:
    # 64 × 2.5e15 (the racks' catalog peak) = 1.6e17 FLOP/s
    site = load(
        tmp_path,
        """\
        site: {name: S}
        racks:
          - {id: A01, type: gb200-nvl72}
          - {id: A02, type: gb200-nvl72}
          - {id: A03, type: gb200-nvl72}
        cluster:
          supernodes:
            - {id: SN, racks: [A01, A02], accelerators_per_rack: 36, accelerator_peak: 2 PFLOP/s}
            - {id: SN2, racks: [A03], accelerators: 64}
        """,
    )
    assert _value(site, "SN", "accelerators") == 72.0
    assert _value(site, "SN", "peak_rate") == pytest.approx(1.44e17)
    assert _value(site, "SN2", "accelerators") == 64.0
    assert _value(site, "SN2", "peak_rate") == pytest.approx(1.6e17)


def test_a_site_rack_type_overrides_the_catalog_figure(tmp_path: Path) -> None:
    # gb300-nvl72 with accelerator_peak 2.25 PFLOP/s in the site: 72 × 2.25e15 = 1.62e17
    site = load(
        tmp_path,
        """\
        site: {name: S}
        rack_types: [{id: mine, catalog: gb300-nvl72, accelerator_peak: 2.25 PFLOP/s}]
        racks: [{id: A01, type: mine}]
        cluster:
          supernodes: [{id: SN, racks: [A01]}]
        """,
    )
    assert _value(site, "SN", "peak_rate") == pytest.approx(1.62e17)
    assert site.rack_types["mine"].provenance["accelerators_per_rack"].catalog_id == "gb300-nvl72"
    assert site.rack_types["mine"].provenance["accelerator_peak"].origin == "site"


def test_a_missing_or_mixed_figure_is_named(tmp_path: Path) -> None:
    site = load(
        tmp_path,
        """\
        site: {name: S}
        rack_types:
          - {id: bare, cooling: liquid}
          - {id: slow, catalog: gb200-nvl72, accelerator_peak: 2 PFLOP/s}
        racks:
          - {id: X1, type: bare}
          - {id: A01, type: gb200-nvl72}
          - {id: A02, type: slow}
          - {id: U01, type: atlas-900-a3-bus-cabinet}
        cluster:
          supernodes:
            - {id: SN-bare, racks: [X1]}
            - {id: SN-mixed, racks: [A01, A02]}
            - {id: SN-bus, racks: [U01]}
        """,
    )
    assert _missing(site, "SN-bare", "accelerators") == (
        "supernode 'SN-bare' states no accelerators_per_rack (or accelerators), and rack type "
        "'bare' of rack 'X1' has no accelerators_per_rack"
    )
    assert _value(site, "SN-mixed", "accelerators") == 144.0  # 72 + 72
    assert _missing(site, "SN-mixed", "peak_rate") == (
        "the rack types of supernode 'SN-mixed' differ in accelerator_peak: state it on the "
        "supernode"
    )
    assert _missing(site, "SN-bus", "accelerators") == (
        "the racks of supernode 'SN-bus' hold no accelerators (accelerators_per_rack 0)"
    )


def test_the_seed_example_from_the_catalog(tmp_path: Path) -> None:
    # Issue 7's seed on two Ascend 960 32-chip supernodes of the catalog (1 PFLOP/s each):
    # 5e22 / (32 × 1e15 × 0.5 × 30 × 86,400 s = 4.1472e22) = 1.206 → 2 supernodes needed;
    # time on two: 5e22 / (64 × 1e15 × 0.5) = 1.5625e6 s = 18.08 d
    site = load(
        tmp_path,
        """\
        site: {name: S}
        racks:
          - {id: N1, type: ascend-960-supernode-32}
          - {id: N2, type: ascend-960-supernode-32}
        cluster:
          id: C
          supernodes: [{id: SN-1, racks: [N1]}, {id: SN-2, racks: [N2]}]
          workload: {total_compute: 5e22 FLOP, mfu: 50 %, target_duration: 30 d}
        """,
    )
    by = {(f.rule, f.entity_id): f for f in audit(site).findings}
    need = by[("CLU-004", "C")]
    assert need.status == "pass"
    assert need.limit is not None and need.limit.value == 2
    time = by[("CLU-003", "C")]
    assert time.observed is not None
    assert time.observed.value / 86_400 == pytest.approx(18.084, abs=1e-3)


def test_a_parallelism_names_at_least_one_group(tmp_path: Path) -> None:
    found = problems(
        tmp_path,
        """\
        site: {name: S}
        racks: [{id: A01, type: gb200-nvl72}]
        cluster:
          supernodes: [{id: SN, racks: [A01]}]
          workload: {parallelism: {}}
        """,
    )
    assert [(field, message) for _, _, field, message in found] == [
        ("cluster.workload.parallelism", "give tensor_parallel or expert_parallel")
    ]
