"""The embedded catalog: every entry validates, and sites override it figure by figure."""

from __future__ import annotations

import pytest

from facility import catalog
from facility.model.cluster import ScalableUnitFigures
from facility.model.cooling import CduFigures
from facility.model.equipment import RackFigures, inconsistencies
from facility.model.power import PduType

from ._site import load, one_problem, problems

ENTRIES = sorted(catalog.entries())
MODELS = {
    "rack_type": RackFigures,
    "cdu": CduFigures,
    "pdu_type": PduType,
    "scalable_unit": ScalableUnitFigures,
}


def test_catalog_has_the_products_the_brief_names():
    kinds = {entry.kind for entry in catalog.entries().values()}
    assert kinds == {"rack_type", "cdu", "pdu_type", "scalable_unit"}
    assert {"gb300-nvl72", "gb200-nvl72", "atlas-900-a3-cabinet"} <= set(ENTRIES)
    # the seeds' supernodes (issue 20): CloudMatrix 384's bus cabinet, the Ascend 960 supernode
    # and the DGX SuperPOD scalable unit
    assert {"atlas-900-a3-bus-cabinet", "ascend-960-supernode-32"} <= set(ENTRIES)
    assert "dgx-superpod-gb200-su" in ENTRIES
    capacities = [e.validated().capacity for e in catalog.entries().values() if e.kind == "cdu"]
    assert min(capacities) == 600_000.0  # in-row CDUs of 600 kW …
    assert max(capacities) >= 1_350_000.0


@pytest.mark.parametrize("entry_id", ENTRIES)
def test_every_catalog_entry_validates(entry_id):
    entry = catalog.entries()[entry_id]
    figures = entry.validated()
    assert isinstance(figures, MODELS[entry.kind])
    assert set(entry.figures) <= set(MODELS[entry.kind].model_fields)
    for name, figure in entry.figures.items():
        assert figure.source.strip(), f"{entry_id}.{name} has no source"
        assert figure.confidence in {"H", "M", "L"}
        assert getattr(figures, name) is not None
    if entry.kind == "rack_type":
        assert inconsistencies(figures) == []


def test_supernode_rack_types_carry_accelerators_and_peak():
    # What the cluster plan reads (facility.engine.derive_cluster): per rack and per accelerator.
    figures = {
        entry_id: catalog.entry("rack_type", entry_id).validated()
        for entry_id in (
            "gb300-nvl72",
            "gb200-nvl72",
            "atlas-900-a3-cabinet",
            "atlas-900-a3-bus-cabinet",
            "ascend-960-supernode-32",
        )
    }
    counts = {k: f.accelerators_per_rack for k, f in figures.items()}
    assert counts == {
        "gb300-nvl72": 72,
        "gb200-nvl72": 72,
        "atlas-900-a3-cabinet": 32,
        "atlas-900-a3-bus-cabinet": 0,
        "ascend-960-supernode-32": 32,
    }
    # 2.5 PFLOP/s = 2.5e15 FLOP/s; 752 TFLOP/s = 7.52e14; 1 PFLOP/s = 1e15
    assert figures["gb300-nvl72"].accelerator_peak == pytest.approx(2.5e15)
    assert figures["gb200-nvl72"].accelerator_peak == pytest.approx(2.5e15)
    assert figures["atlas-900-a3-cabinet"].accelerator_peak == pytest.approx(7.52e14)
    assert figures["ascend-960-supernode-32"].accelerator_peak == pytest.approx(1e15)
    assert figures["atlas-900-a3-bus-cabinet"].category == "network"


def test_seed_and_press_figures_are_marked_as_assumptions():
    for entry_id in ("ascend-960-supernode-32", "atlas-900-a3-bus-cabinet"):
        entry = catalog.entries()[entry_id]
        assert all(f.assumption and f.confidence == "L" for f in entry.figures.values()), entry_id
    seed = catalog.entries()["ascend-960-supernode-32"]
    assert "Seed" in seed.figures["accelerator_peak"].source
    # 32 × 0.5 kW = 16 kW of NPUs / 0.72 = 22.2 kW → 22 kW; × 1.15 = 25.3 kW
    assert seed.validated().nominal_power == 22_000.0
    assert seed.validated().peak_power == pytest.approx(25_300.0)


def test_the_scalable_unit_is_eight_nvl72_supernodes():
    su = catalog.entries()["dgx-superpod-gb200-su"].validated()
    rack = catalog.entry("rack_type", su.rack_type)
    assert rack is not None  # it names a catalog rack type
    # 8 racks × 72 GPUs = 576; one NVLink domain per rack: 8 supernodes; 1.2 MW = 1.2e6 W
    assert su.compute_racks == 8 and su.supernodes == 8
    assert su.accelerators == su.compute_racks * rack.validated().accelerators_per_rack == 576
    assert su.design_power == 1_200_000.0


def test_entry_lookup_checks_the_kind():
    assert catalog.entry("rack_type", "gb300-nvl72") is not None
    assert catalog.entry("cdu", "gb300-nvl72") is None
    assert catalog.entry("rack_type", "no-such-thing") is None


def test_gb300_figures_in_canonical_units():
    f = catalog.entry("rack_type", "gb300-nvl72").validated()
    assert (f.nominal_power, f.peak_power) == (135_000.0, 155_000.0)
    # 18.4 psi at 45 °C in the flow table = 18.4 · 6,894.757293 = 126,863.5 Pa
    assert f.flow_table[-1].pressure_drop == pytest.approx(126_863.534, rel=1e-6)
    assert f.footprint.depth == pytest.approx(1.219, rel=1e-12)


OVERRIDE = """\
site: {name: S}
rack_types:
  - id: mine
    catalog: gb300-nvl72
    nominal_power: 132 kW
    flow_table: null
"""


def test_site_overrides_one_figure_and_keeps_the_others(tmp_path):
    site = load(tmp_path, OVERRIDE)
    rack_type = site.rack_types["mine"]
    f = rack_type.figures
    assert f.nominal_power == 132_000.0  # the site's figure
    assert f.peak_power == 155_000.0  # the catalog's
    assert f.filled_mass == 1500.0
    assert f.liquid_heat_fraction == 0.9
    own = rack_type.provenance["nominal_power"]
    assert (own.origin, own.catalog_id, own.source) == ("site", None, None)
    assert (own.location.line, own.location.column) == (5, 5)
    kept = rack_type.provenance["peak_power"]
    assert (kept.origin, kept.catalog_id, kept.confidence, kept.assumption) == (
        "catalog",
        "gb300-nvl72",
        "M",
        False,
    )
    assert kept.source.startswith("Lenovo LP2357")
    assumed = rack_type.provenance["power_factor"]
    assert (assumed.origin, assumed.confidence, assumed.assumption) == ("catalog", "L", True)


def test_null_removes_a_catalog_figure(tmp_path):
    rack_type = load(tmp_path, OVERRIDE).rack_types["mine"]
    assert rack_type.figures.flow_table is None
    assert rack_type.provenance["flow_table"].origin == "site"
    assert rack_type.figures.design_flow is not None  # not removed


def test_catalog_figures_are_not_shared_between_types(tmp_path):
    site = load(
        tmp_path,
        OVERRIDE + "  - {id: plain, catalog: gb300-nvl72}\n",
    )
    assert site.rack_types["plain"].figures.flow_table is not None
    assert site.rack_types["plain"].figures.nominal_power == 135_000.0


def test_per_rack_overrides(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        rack_types: [{id: T, catalog: gb300-nvl72}]
        racks:
          - {id: X1, type: T}
          - {id: X2, type: T, overrides: {filled_mass: 1600 kg, casters: 6}}
        """,
    )
    x1, x2 = site.racks
    assert x1.type.figures.filled_mass == 1500.0
    assert x2.type.figures.filled_mass == 1600.0
    assert x2.type.figures.casters == 6
    assert x2.type.figures.nominal_power == 135_000.0  # the rest of the type is kept
    assert x2.type.id == "T"
    where = x2.type.provenance["filled_mass"]
    assert (where.origin, where.location.line, where.location.column) == ("site", 5, 35)
    assert x2.type.provenance["nominal_power"].origin == "catalog"
    assert site.rack_types["T"].figures.filled_mass == 1500.0  # the type itself is unchanged


def test_row_overrides_apply_to_every_rack_of_the_row(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        rows:
          - {id: A, racks: {prefix: A, count: 3}, type: gb200-nvl72,
             overrides: {nominal_power: 110 kW}}
        """,
    )
    assert [r.type.figures.nominal_power for r in site.racks] == [110_000.0] * 3
    assert {r.type.figures.peak_power for r in site.racks} == {138_000.0}


def test_catalog_ids_can_be_used_directly(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        racks:
          - {id: X, type: gb300-nvl72, pdus: {A: {type: pdu-3p-415v-63a, count: 4}}}
        """,
    )
    [rack] = site.racks
    assert rack.type.id == "gb300-nvl72"
    assert rack.type.provenance["peak_power"].catalog_id == "gb300-nvl72"
    pdu = site.pdus["X-A4"]
    assert (pdu.figures.voltage, pdu.figures.breaker_rating, pdu.figures.phases) == (415.0, 63.0, 3)


def test_cdu_and_pdu_catalog_merging(tmp_path):
    site = load(
        tmp_path,
        """\
        site: {name: S}
        power:
          pdu_types: [{id: P, catalog: pdu-3p-415v-32a, breaker_rating: 25 A}]
        cooling:
          cdus: [{id: C, catalog: vertiv-xdu1350, rated_flow: 1800 L/min, available_head: 2 bar}]
        """,
    )
    cdu = site.cdus["C"]
    assert cdu.figures.capacity == 1_350_000.0
    assert cdu.figures.rated_flow == pytest.approx(0.03, rel=1e-12)  # 1800 L/min = 0.03 m³/s
    assert cdu.figures.available_head == 200_000.0
    assert cdu.provenance["capacity"].origin == "catalog"
    assert cdu.provenance["rated_flow"].origin == "site"
    assert cdu.approach == 4.0  # rated approach from the catalog


def test_merged_figures_must_agree(tmp_path):
    # Each block is fine alone; merged with the catalog (nominal 135 kW, peak 155 kW,
    # filled 1,500 kg) they contradict each other.
    found = problems(
        tmp_path,
        """\
        site: {name: S}
        rack_types:
          - {id: T, catalog: gb300-nvl72, nominal_power: 200 kW}
        racks:
          - {id: X1, type: gb300-nvl72, overrides: {peak_power: 100 kW}}
          - {id: X2, type: gb300-nvl72, overrides: {empty_mass: 2000 kg}}
        """,
    )
    assert found == [
        (
            3,
            35,
            "rack_types[0].nominal_power",
            "peak_power is below nominal_power (peak_power from catalog 'gb300-nvl72')",
        ),
        (
            5,
            45,
            "racks[0].overrides.peak_power",
            "peak_power is below nominal_power (nominal_power from catalog 'gb300-nvl72')",
        ),
        (
            6,
            45,
            "racks[1].overrides.empty_mass",
            "filled_mass is below empty_mass (filled_mass from catalog 'gb300-nvl72')",
        ),
    ]


def test_override_contradicting_the_site_type_names_its_line(tmp_path):
    _, _, field, message = one_problem(
        tmp_path,
        """\
        site: {name: S}
        rack_types:
          - {id: T, nominal_power: 100 kW}
        racks:
          - {id: X, type: T, overrides: {peak_power: 90 kW}}
        """,
    )
    assert field == "racks[0].overrides.peak_power"
    assert message == "peak_power is below nominal_power (nominal_power set at line 3)"
