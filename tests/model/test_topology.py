"""The site's relations (facility.model.topology) and the failure overlays built on them."""

from __future__ import annotations

import dataclasses

import pytest

from facility.engine import reads
from facility.engine.quantities import quantity
from facility.engine.reads import affected
from facility.model import overlay

from ._site import load

# UPS-A → BW-A → RPP-A → the A PDUs of X and Y; UTIL → the B PDUs; Z's PDUs fed by nothing.
# Two loops on one facility water, one CDU on none.
SITE = """
site: {name: S}
rack_types: [{id: T, peak_power: 50 kW, power_factor: 1.0}]
power:
  sources:
    - {id: UTIL, kind: utility, capacity: 2 MVA}
    - {id: UPS-A, kind: ups, capacity: 1000 kVA, side: A}
  distribution:
    - {id: BW-A, kind: busway, fed_by: UPS-A, voltage: 415 V, phases: 3, rating: 800 A}
    - {id: RPP-A, kind: rpp, fed_by: BW-A, voltage: 415 V, phases: 3, rating: 250 A}
  pdu_types:
    - {id: P, voltage: 415 V, phases: 3, breaker_rating: 63 A}
cooling:
  facility_water:
    - {id: FW, supply_temperature: 30 degC}
  cdus:
    - {id: C1, capacity: 500 kW, facility_water: FW}
    - {id: C2, capacity: 500 kW, facility_water: FW}
    - {id: C3, capacity: 500 kW}
  tcs_loops:
    - {id: L1, cdus: [C1, C2], coolant: {fluid: water}}
    - {id: L2, cdus: [C3], coolant: {fluid: water}}
racks:
  - {id: X, type: T, loop: L1, pdus: {A: {type: P, fed_by: RPP-A}, B: {type: P, fed_by: UTIL}}}
  - {id: Y, type: T, loop: L1, pdus: {A: {type: P, fed_by: RPP-A}, B: {type: P, fed_by: UTIL}}}
  - {id: Z, type: T, loop: L2, pdus: {A: {type: P}, B: {type: P}}}
"""


def ids(items) -> list[str]:
    return [item.id for item in items]


def test_the_power_tree_below_and_above(tmp_path) -> None:
    site = load(tmp_path, SITE)
    t = site.topology
    assert ids(t.pdus_below["UPS-A"]) == ["X-A1", "Y-A1"]  # through BW-A and RPP-A
    assert ids(t.pdus_below["BW-A"]) == ["X-A1", "Y-A1"]
    assert ids(t.pdus_below["UTIL"]) == ["X-B1", "Y-B1"]
    assert "Z-A1" not in {p.id for pdus in t.pdus_below.values() for p in pdus}
    assert ids(t.upstream(site.pdus["X-A1"])) == ["RPP-A", "BW-A", "UPS-A"]  # nearest first
    assert t.upstream(site.pdus["Z-A1"]) == ()
    assert t.elements_above([site.pdus["X-A1"], site.pdus["Y-B1"]]) == {
        "RPP-A", "BW-A", "UPS-A", "UTIL"
    }  # fmt: skip
    assert t.power_sides == {"A", "B"}


def test_what_belongs_where(tmp_path) -> None:
    site = load(tmp_path, SITE)
    t = site.topology
    assert {loop: ids(racks) for loop, racks in t.racks_by_loop.items()} == {
        "L1": ["X", "Y"], "L2": ["Z"]
    }  # fmt: skip
    assert dict(t.cdus_by_water) == {"FW": ("C1", "C2")}  # C3 is on no facility water
    assert ids(t.rack_by_id.values()) == ["X", "Y", "Z"]


def test_the_relations_are_arrays_of_indices_numbered_once(tmp_path) -> None:
    site = load(tmp_path, SITE)
    r = site.topology.relations
    assert r.racks.ids == ("X", "Y", "Z")
    assert r.pdus.ids == ("X-A1", "X-B1", "Y-A1", "Y-B1", "Z-A1", "Z-B1")
    assert r.elements.ids == ("BW-A", "RPP-A", "UTIL", "UPS-A")  # distribution, then sources
    assert list(r.pdu_rack) == [0, 0, 1, 1, 2, 2]
    assert [r.sides.ids[i] for i in r.pdu_side] == ["A", "B", "A", "B", "A", "B"]
    assert list(r.pdu_feed) == [1, 2, 1, 2, -1, -1]  # RPP-A, UTIL; Z's PDUs fed by nothing
    assert list(r.element_feed) == [3, 0, -1, -1]  # BW-A ← UPS-A, RPP-A ← BW-A; sources: none
    assert [r.loops.ids[i] for i in r.rack_loop] == ["L1", "L1", "L2"]
    assert list(r.cdu_loop) == [0, 0, 1] and list(r.cdu_water) == [0, 0, -1]  # C3 on none
    assert list(r.rack_zone) == [-1, -1, -1] and list(r.rack_row) == [-1, -1, -1]
    # The mappings the engine reads are made from them.
    assert {k: [p.id for p in v] for k, v in site.topology.pdus_below.items()} == {
        "RPP-A": ["X-A1", "Y-A1"], "BW-A": ["X-A1", "Y-A1"], "UPS-A": ["X-A1", "Y-A1"],
        "UTIL": ["X-B1", "Y-B1"],
    }  # fmt: skip
    assert list(site.topology.racks_by_row) == [None]


def test_a_lost_side_is_an_overlay_that_leaves_the_site_as_it_was(tmp_path) -> None:
    site = load(tmp_path, SITE)
    base = site.topology
    failed, changed = overlay.without_pdus(site, [site.pdus["X-A1"]])
    t = failed.topology
    assert list(changed) == ["X"] and list(changed["X"].pdus) == ["B"]
    assert changed["X"].sides_lost == 1
    assert t.rack_by_id["X"] is changed["X"] and t.rack_by_id["Y"] is base.rack_by_id["Y"]
    assert ids(t.pdus_in_service_below("UPS-A")) == ["Y-A1"]
    assert t.moved is not None and t.moved.lost == {"X-A1"}
    # Every element above one of the rack's PDUs before the loss has them in ``below``.
    assert {k: ids(v) for k, v in t.moved.below.items()} == {
        "RPP-A": ["X-A1"], "BW-A": ["X-A1"], "UPS-A": ["X-A1"], "UTIL": ["X-B1"]
    }  # fmt: skip
    # Copy on write: the relations not changed are shared, the site's own are untouched.
    assert t.pdus_below is base.pdus_below and t.racks_by_loop is base.racks_by_loop
    assert site.topology is base and base.moved is None
    assert list(base.rack_by_id["X"].pdus) == ["A", "B"]
    assert ids(base.pdus_in_service_below("UPS-A")) == ["X-A1", "Y-A1"]
    assert failed.racks is site.racks and failed.pdus is site.pdus


def test_a_lost_cdu_leaves_its_loop_and_its_water(tmp_path) -> None:
    site = load(tmp_path, SITE)
    failed = overlay.without_cdus(site, {"C1"})
    assert failed.loops["L1"].cdus == ["C2"] and failed.loops["L2"] is site.loops["L2"]
    assert dict(failed.topology.cdus_by_water) == {"FW": ("C2",)}
    assert site.loops["L1"].cdus == ["C1", "C2"]
    assert dict(site.topology.cdus_by_water) == {"FW": ("C1", "C2")}


def test_a_changed_site_gets_relations_of_its_own(tmp_path) -> None:
    # A site made with dataclasses.replace (as headroom adds racks) never reads its
    # original's relations.
    site = load(tmp_path, SITE)
    assert site.topology.racks_by_loop["L1"]
    fewer = dataclasses.replace(site, racks=site.racks[2:])
    assert fewer.topology is not site.topology
    assert "L1" not in fewer.topology.racks_by_loop
    more = overlay.with_racks(site, [dataclasses.replace(site.racks[0], id="W", pdus={})])
    assert ids(more.topology.racks_by_loop["L1"]) == ["X", "Y", "W"]


# --- what a change affects, derived from what the quantities read (facility.engine.reads) ---


def test_a_lost_side_affects_its_rack_the_pdus_it_keeps_and_every_feed_above(tmp_path) -> None:
    site = load(tmp_path, SITE)
    failed, _ = overlay.without_pdus(site, [site.pdus["X-A1"]])
    seeds = [("rack", "X", "pdus"), ("distribution", "RPP-A", "below")]
    seeds += [("distribution", "BW-A", "below"), ("power_source", "UPS-A", "below")]
    found = affected(failed, seeds, exclude=[("pdu", "X-A1")])
    # X-B1 now carries the whole rack (pdu_load reads rack:pdus), so UTIL above it does too
    # (source_load reads pdus_below.pdu_load); RPP-A, BW-A and UPS-A feed one PDU less.
    assert {scope: [i for i, _ in items] for scope, items in found.items()} == {
        "rack": ["X"],
        "pdu": ["X-B1"],
        "distribution": ["BW-A", "RPP-A"],
        "power_source": ["UPS-A", "UTIL"],
    }
    assert found["rack"][0][1] is failed.topology.rack_by_id["X"]  # the rack as it is now


def test_seeds_walked_together_affect_what_each_affects_alone(tmp_path) -> None:
    site = load(tmp_path, SITE)
    lost = [site.pdus[p] for p in ("X-A1", "Y-A1")]
    failed, _ = overlay.without_pdus(site, lost)
    seeds = [("rack", "X", "pdus"), ("rack", "Y", "pdus"), ("distribution", "RPP-A", "below")]
    seeds += [("distribution", "BW-A", "below"), ("power_source", "UPS-A", "below")]
    exclude = [("pdu", "X-A1"), ("pdu", "Y-A1")]
    together = affected(failed, seeds, exclude=exclude)
    alone: dict[str, set[str]] = {}
    for seed in seeds:
        for scope, items in affected(failed, [seed], exclude=exclude).items():
            alone.setdefault(scope, set()).update(i for i, _ in items)
    assert {scope: [i for i, _ in items] for scope, items in together.items()} == {
        scope: sorted(found) for scope, found in alone.items()
    }
    assert together["pdu"] == [(p, failed.pdus[p]) for p in ("X-B1", "Y-B1")]


def test_a_lost_cdu_affects_its_loop_its_water_and_the_loop_s_other_cdus(tmp_path) -> None:
    site = load(tmp_path, SITE)
    failed = overlay.without_cdus(site, {"C1"})
    found = affected(
        failed, [("tcs_loop", "L1", "cdus"), ("facility_water", "FW", "cdus")],
        exclude=[("cdu", "C1")],
    )  # fmt: skip
    # C2 takes C1's share of L1's heat (heat_on_no_facility_water reads loop:cdus).
    assert {scope: [i for i, _ in items] for scope, items in found.items()} == {
        "tcs_loop": ["L1"], "facility_water": ["FW"], "cdu": ["C2"]
    }  # fmt: skip


def test_every_declaration_names_something_that_exists() -> None:
    reads.check_declarations()  # the catalogue's own
    quantities = reads.catalogue()
    for entry, message in [
        ("wires", "rack has no aspect 'wires'"),
        ("loop.liquid_heat", "no relation 'loop' from rack"),
        ("pdus.pdu_weight", "pdu has no quantity 'pdu_weight'"),
        ("pdus:figures", "pdu has no aspect 'figures'"),
    ]:
        with pytest.raises(ValueError, match=message):
            reads._check(quantities, "rack", "x", entry)


def test_a_quantity_must_say_what_it_reads() -> None:
    with pytest.raises(TypeError, match="reads"):
        quantity("rack", "x", "power", "undeclared")  # type: ignore[call-arg]
