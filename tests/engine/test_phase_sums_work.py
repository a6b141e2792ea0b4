"""A rack-side loss's busway phase currents: the normal sums' partials with the moved PDUs'
currents taken out and their new ones put in — exactly rounded, the same floats as an exact sum
over every PDU in service below, whatever the order, with only the moved PDUs' currents
computed again and a handful of terms per sum."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from facility.analysis.failures import _Failer, scenarios
from facility.engine import derive_power, exact_sums
from facility.engine.quantities import Context
from facility.engine.rules import load_rules
from facility.model.load import load_site

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


def _exact_walk(ctx: Context, element_id: str) -> tuple[list[float], list[float]]:
    """Every PDU in service below, computed afresh, summed as rationals (no rounding) and
    rounded once: the correctly rounded sum a whole re-audit must give."""
    totals = [Fraction(0)] * 6
    for pdu in ctx.topology.pdus_in_service_below(element_id):
        ln, ll = derive_power._pdu_phase_currents(ctx, pdu, False, balanced_without_banks=True)
        totals = [t + Fraction(x) for t, x in zip(totals, (*ln, *ll), strict=True)]
    return [float(t) for t in totals[:3]], [float(t) for t in totals[3:]]


def test_exact_sum_is_the_same_in_any_order() -> None:
    # 0.1 + 0.2 + 0.3 left to right is 0.6000000000000001; the exact sum of the three floats
    # rounds to 0.6 in any order (Fraction: 0.1 + 0.2 + 0.3 as binary fractions ≈ 0.6000…0003).
    terms = [0.1, 0.2, 0.3]
    assert sum(terms) == 0.6000000000000001
    assert exact_sums.exact_sum(terms) == exact_sums.exact_sum(terms[::-1]) == 0.6
    # partials keep the exact sum: 1e16 + 1 − 1e16 is 1 exactly (a float sum gives 0)
    kept = exact_sums.partials([1e16, 1.0])
    assert kept is not None and exact_sums.exact_sum([*kept, -1e16]) == 1.0
    assert exact_sums.partials([1e308, 1e308]) is None  # beyond any float: none kept
    assert exact_sums.exact_sum([1e308, 1e308]) == float("inf")


def test_moved_sums_are_exact_and_read_only_the_moved_pdus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(160, path)
    site = load_site(path)
    assumptions = load_rules(profile="supernode").assumptions
    base = Context(site, assumptions)
    failer = _Failer(site)
    computed: list[str] = []
    terms: list[int] = []
    fresh, summed = derive_power._pdu_phase_currents, derive_power.exact_sum

    def counted_currents(ctx: Context, pdu: Any, *args: Any, **kwargs: Any) -> Any:
        computed.append(pdu.id)
        return fresh(ctx, pdu, *args, **kwargs)

    def counted_sum(column: list[float]) -> float:
        terms.append(len(column))
        return summed(column)

    monkeypatch.setattr(derive_power, "exact_sum", counted_sum)
    compared = read = walked = 0
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
            derive_power._normal_phase_partials(base, element_id)  # the normal sums, made once
            monkeypatch.setattr(derive_power, "_pdu_phase_currents", counted_currents)
            computed.clear()
            terms.clear()
            got = derive_power._element_phase_currents(ctx, site.distribution[element_id])
            monkeypatch.setattr(derive_power, "_pdu_phase_currents", fresh)
            assert got == _exact_walk(Context(failed, assumptions), element_id), scenario.id
            # only the moved PDUs still in service are computed again
            assert sorted(computed) == sorted(p.id for p in changed if p.id not in moved.lost)
            # six sums, each of a few partials and two terms per moved PDU, not one per PDU
            assert len(terms) == 6 and max(terms) <= 4 + 2 * len(changed), scenario.id
            read += sum(terms)
            walked += 6 * len(site.topology.pdus_below[element_id])
            compared += 1
    assert compared > 300
    assert read < walked / 4  # a walk over every PDU below would read each one


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
