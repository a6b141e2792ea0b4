"""A rack-side loss's upstream loads: the normal sums' partials with the moved PDUs' shares
taken out and put in — on a campus whose UPS also feed non-IT loads (CDU pumps), the same
floats as a walk over everything in service below, made without the walk."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from facility.analysis.failures import _Failer, scenarios
from facility.engine import derive_power
from facility.engine.quantities import Context
from facility.engine.rules import load_rules
from facility.model.load import load_site

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402

SUMS = {
    "distribution": ("distribution_load",),
    "power_source": ("source_load", "source_real_load"),
}


def test_moved_loads_equal_the_walk_with_non_it_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(80, path, loads=True)
    site = load_site(path)
    assert site.loads  # the pumps on the UPS
    assumptions = load_rules(profile="supernode").assumptions
    base = Context(site, assumptions)
    failer = _Failer(site)
    moved_sums: list[int] = []
    moved = derive_power._aggregate_moved

    def counted(*args: Any) -> Any:
        found = moved(*args)
        moved_sums.append(found is not None)
        return found

    monkeypatch.setattr(derive_power, "_aggregate_moved", counted)
    compared = with_loads = 0
    for scenario in scenarios(site):
        if scenario.kind != "rack_side":
            continue
        failed, _ = failer.apply(scenario)
        assert failed.topology.moved is not None
        walk = Context(failed, assumptions)  # no baseline: every sum walked from the racks up
        for element_id in failed.topology.moved.below:
            scope = "distribution" if element_id in site.distribution else "power_source"
            element = (site.distribution | site.sources)[element_id]
            for name in SUMS[scope]:
                ctx = Context(failed, assumptions, baseline=base)
                ctx.memo = base.memo
                got = ctx.get(scope, name, element)
                walked = walk.get(scope, name, element)
                assert (got.value, got.formula, got.inputs) == (
                    walked.value,
                    walked.formula,
                    walked.inputs,
                ), (scenario.id, element_id, name)
                compared += 1
                with_loads += any(symbol == "n_load" for symbol, _, _ in got.inputs)
    assert compared > 300 and with_loads > 100
    assert sum(moved_sums) > compared / 2  # most made from the partials, not walked
