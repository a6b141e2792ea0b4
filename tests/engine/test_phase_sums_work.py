"""A rack-side loss's busway phase currents: the normal running sum up to the first PDU the loss
moves, then the rest added in order — the same floats as a walk over every PDU below, with only
the moved PDUs' currents computed again, and each distinct sum (identical rows losing the same
rack position) made once."""

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


def _full_walk(ctx: Context, element_id: str) -> tuple[list[float], list[float]]:
    """Every PDU in service below, computed afresh and added in order: a whole re-audit's sum."""
    totals = [0.0] * 6
    for pdu in ctx.topology.pdus_in_service_below(element_id):
        ln, ll = derive_power._pdu_phase_currents(ctx, pdu, False, balanced_without_banks=True)
        totals = [t + x for t, x in zip(totals, (*ln, *ll), strict=True)]
    return totals[:3], totals[3:]


def test_moved_sums_equal_the_full_walk_and_are_made_once_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(160, path)
    site = load_site(path)
    assumptions = load_rules(profile="supernode").assumptions
    base = Context(site, assumptions)
    failer = _Failer(site)
    computed: list[str] = []
    sums: list[Any] = []
    fresh, fold = derive_power._pdu_phase_currents, derive_power._sum_with_changes

    def counted_currents(ctx: Context, pdu: Any, *args: Any, **kwargs: Any) -> Any:
        computed.append(pdu.id)
        return fresh(ctx, pdu, *args, **kwargs)

    def counted_fold(sequence: Any, changes: Any) -> Any:
        sums.append((sequence.key, tuple(sorted(changes.items()))))
        return fold(sequence, changes)

    monkeypatch.setattr(derive_power, "_sum_with_changes", counted_fold)
    compared = 0
    for scenario in scenarios(site):
        if scenario.kind != "rack_side":
            continue
        failed, _ = failer.apply(scenario)
        moved = failed.topology.moved
        assert moved is not None
        for element_id, changed in moved.below.items():
            if element_id not in site.distribution:
                continue
            ctx = Context(failed, assumptions, baseline=base)
            ctx.memo = base.memo
            derive_power._phase_sequence(base, element_id)  # the normal walk, made once
            monkeypatch.setattr(derive_power, "_pdu_phase_currents", counted_currents)
            computed.clear()
            got = derive_power._element_phase_currents(ctx, site.distribution[element_id])
            monkeypatch.setattr(derive_power, "_pdu_phase_currents", fresh)
            assert got == _full_walk(Context(failed, assumptions), element_id), scenario.id
            # only the moved PDUs still in service are computed again
            assert sorted(computed) == sorted(p.id for p in changed if p.id not in moved.lost)
            compared += 1
    assert compared > 300
    assert len(sums) == len(set(sums))  # each distinct sum made once
    assert len(sums) < compared / 2  # the rows alike share theirs


def test_each_set_of_phase_currents_has_its_deviation_made_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Identical racks' PDUs and busways alike read the same currents: one deviation each."""
    path = tmp_path / "campus.yaml"
    write_campus(160, path)
    site = load_site(path)
    ruleset = load_rules(profile="supernode")
    made: list[tuple[float, ...]] = []
    deviation = derive_power._deviation

    def counted(ln: list[float], ll: list[float]) -> Any:
        made.append((*ln, *ll))
        return deviation(ln, ll)

    monkeypatch.setattr(derive_power, "_deviation", counted)
    ctx = Context(site, ruleset.assumptions)
    for element in site.distribution.values():
        ctx.get("distribution", "distribution_phase_deviation", element)
    assert len(made) == len(set(made)) < len(site.distribution)
