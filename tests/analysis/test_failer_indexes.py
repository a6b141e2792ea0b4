"""Building a power loss's failed site: each changed rack copied once, and the elements above a
PDU read from the topology's index (built once) — the same as walking the PDU's chain."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest

from facility.analysis.failures import _Failer, scenarios
from facility.model import overlay
from facility.model.load import load_site
from facility.model.site import Rack

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("campus") / "campus.yaml"
    write_campus(60, path)
    return load_site(path)


def test_the_index_of_elements_above_is_the_chain_by_kind(site: Any) -> None:
    topology = site.topology
    for kind in ("distribution", "sources"):
        elements = getattr(site, kind)
        for pdu in site.pdus.values():
            expected = tuple(e.id for e in topology.upstream(pdu) if e.id in elements)
            assert topology.above_by_kind[kind].get(pdu.fed_by, ()) == expected


def test_each_rack_that_loses_pdus_is_copied_once(
    site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    copies: list[str] = []
    replace = dataclasses.replace

    def counted(obj: Any, **changes: Any) -> Any:
        if isinstance(obj, Rack):
            copies.append(obj.id)
        return replace(obj, **changes)

    monkeypatch.setattr(overlay.dataclasses, "replace", counted)
    failer = _Failer(site)
    checked = 0
    for scenario in scenarios(site):
        lost = failer.lost_pdus(scenario)
        if not lost:
            continue
        copies.clear()
        failed, _ = failer.apply(scenario)
        racks = {p.rack for p in lost}
        assert sorted(copies) == sorted(racks), scenario.id
        for rack_id in racks:  # each side keeps its PDUs in service; the lost ones are gone
            rack = failed.topology.rack_by_id[rack_id]
            kept = {p.id for pdus in rack.pdus.values() for p in pdus}
            assert not kept & {p.id for p in lost}
            assert len(rack.pdus) + rack.sides_lost == len(site.topology.rack_by_id[rack_id].pdus)
        checked += 1
    assert checked > 100
